/* SPDX-License-Identifier: BSD-3-Clause */
/* dma_fill.h: the memory source's bigtable (key bigtable): a DMA-like fill of an IO-cache frame
 * just before its page is copied. A device's DMA writes memory without the CPU caches and takes
 * every cached copy of the frame's lines out of them; here each line of the frame is read and
 * written back in place with non-temporal stores (movntdq: on write-back memory they go to
 * memory through the write-combining buffers and evict the line from every cache level, Intel
 * SDM vol. 1 10.4.6.2, AMD APM vol. 1 3.9.1), then sfence. So the copy that follows finds its
 * source only in memory, and memory has taken the frame's writes, as after a real DMA. The fill
 * reads the frame first, which a device does not do: it costs one more read of the page. */
#ifndef SB_DMA_FILL_H
#define SB_DMA_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether this build has the fill (x86-64: SSE2 streaming stores). */
bool sb_dma_fill_supported(void);

/* Rewrites frame[0, len) in place with streaming stores, then fences. frame 16-byte aligned. */
void sb_dma_fill(void *frame, size_t len);

/* The device rate: one pass of fills alone over npages frames of page_size, in MB/s. */
double sb_dma_device_mbps(uint8_t *frames, uint64_t npages, uint32_t page_size);

#endif
