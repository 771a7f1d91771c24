/* SPDX-License-Identifier: BSD-3-Clause */
/* dma_fill.c: the DMA-like fill of an IO-cache frame (see dma_fill.h). */
#include "config.h"
#include "vocab/dma_fill.h"

#include "core/core.h"

#if defined(__x86_64__)
#include <immintrin.h>

bool sb_dma_fill_supported(void) { return true; }

void sb_dma_fill(void *frame, size_t len)
{
    __m128i *line = frame;

    for (size_t i = 0; i + 64 <= len; i += 64, line += 4) {
        __m128i a = _mm_load_si128(line), b = _mm_load_si128(line + 1);
        __m128i c = _mm_load_si128(line + 2), d = _mm_load_si128(line + 3);
        _mm_stream_si128(line, a);
        _mm_stream_si128(line + 1, b);
        _mm_stream_si128(line + 2, c);
        _mm_stream_si128(line + 3, d);
    }
    _mm_sfence();
}

#else

bool sb_dma_fill_supported(void) { return false; }

void sb_dma_fill(void *frame, size_t len)
{
    (void)frame;
    (void)len;
}

#endif

double sb_dma_device_mbps(uint8_t *frames, uint64_t npages, uint32_t page_size)
{
    double t0 = sb_timer_now(), seconds;

    for (uint64_t b = 0; b < npages; b++)
        sb_dma_fill(frames + b * page_size, page_size);
    seconds = sb_timer_now() - t0;
    return seconds > 0 ? (double)(npages * page_size) / seconds / SB_MB_DECIMAL : 0;
}
