/* SPDX-License-Identifier: BSD-3-Clause */
/* probe_kernels.c: the loops `scanbench probe` times: the pointer chase and its chain, the
 * streaming read, temporal and non-temporal stores (SSE2 where the build has it), the dependent
 * add chain. */
#include "config.h"
#include "host/probe_kernels.h"

#include <string.h>
#include <sys/mman.h>

#include "core/core.h"
#include "stats/stats.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define LINE 64u
#define HUGE_PAGE (2u << 20)

/* The successor of each line is first written as its index in the line's first word (Sattolo
 * swaps them there: no index array), then turned into a pointer. */
void *sb_chase_link(void *buf, size_t lines, bool in_order, uint64_t seed)
{
    unsigned char *base = buf;
    struct sb_rng rng;

    if (lines == 0)
        return NULL;
    sb_rng_seed(&rng, seed);
    for (size_t k = 0; k < lines; k++)
        *(uint64_t *)(base + k * LINE) = in_order ? (k + 1) % lines : k;
    for (size_t i = lines - 1; !in_order && i > 0; i--) {
        size_t j = (size_t)sb_rng_below(&rng, i); /* j < i: one cycle through every line */
        uint64_t *a = (uint64_t *)(base + i * LINE), *b = (uint64_t *)(base + j * LINE);
        uint64_t t = *a;
        *a = *b;
        *b = t;
    }
    for (size_t k = 0; k < lines; k++) {
        uint64_t next = *(uint64_t *)(base + k * LINE);
        *(void **)(base + k * LINE) = base + next * LINE;
    }
    return base;
}

double sb_chase_ns(void **at, size_t loads)
{
    void *p = *at;
    size_t rounds = loads / 8 + 1;
    double t0 = sb_timer_now(), t1;

    for (size_t i = 0; i < rounds; i++) {
        p = *(void **)p;
        p = *(void **)p;
        p = *(void **)p;
        p = *(void **)p;
        p = *(void **)p;
        p = *(void **)p;
        p = *(void **)p;
        p = *(void **)p;
    }
    t1 = sb_timer_now();
    *at = p;
    return (t1 - t0) * 1e9 / (double)(rounds * 8);
}

static volatile uint64_t sink; /* keeps the reads' sums alive */

double sb_read_gbps(const void *buf, size_t len, unsigned passes)
{
    double t0 = sb_timer_now(), t1;
#if defined(__SSE2__)
    __m128i a = _mm_setzero_si128(), b = a, c = a, d = a;

    for (unsigned p = 0; p < passes; p++)
        for (const __m128i *q = buf, *end = (const __m128i *)((const char *)buf + len); q < end;
             q += 4) {
            a = _mm_add_epi64(a, _mm_load_si128(q));
            b = _mm_add_epi64(b, _mm_load_si128(q + 1));
            c = _mm_add_epi64(c, _mm_load_si128(q + 2));
            d = _mm_add_epi64(d, _mm_load_si128(q + 3));
        }
    t1 = sb_timer_now();
    a = _mm_add_epi64(_mm_add_epi64(a, b), _mm_add_epi64(c, d));
    sink = (uint64_t)_mm_cvtsi128_si64(a);
#else
    uint64_t a = 0, b = 0, c = 0, d = 0;

    for (unsigned p = 0; p < passes; p++)
        for (const uint64_t *q = buf, *end = (const uint64_t *)((const char *)buf + len); q < end;
             q += 4) {
            a += q[0];
            b += q[1];
            c += q[2];
            d += q[3];
        }
    t1 = sb_timer_now();
    sink = a + b + c + d;
#endif
    return (double)len * passes / (t1 - t0) / 1e9;
}

#if defined(__SSE2__)
/* Stores a value that changes line by line, so that no compiler makes a memset of it (glibc's
 * memset turns to non-temporal stores on large buffers): temporal stores, or with nt streaming
 * ones (a constant in each caller: two loops, one store each). GB/s. */
static inline __attribute__((always_inline)) double store_gbps(void *buf, size_t len,
                                                               unsigned passes, const bool nt)
{
    double t0 = sb_timer_now();
    __m128i v = _mm_set1_epi64x((long long)passes), one = _mm_set1_epi64x(1);

    for (unsigned p = 0; p < passes; p++)
        for (__m128i *q = buf, *end = (__m128i *)((char *)buf + len); q < end; q += 4) {
            for (int w = 0; w < 4; w++) {
                if (nt)
                    _mm_stream_si128(q + w, v);
                else
                    _mm_store_si128(q + w, v);
            }
            v = _mm_add_epi64(v, one);
        }
    if (nt)
        _mm_sfence();
    return (double)len * passes / (sb_timer_now() - t0) / 1e9;
}
#endif

double sb_write_gbps(void *buf, size_t len, unsigned passes)
{
#if defined(__SSE2__)
    return store_gbps(buf, len, passes, false);
#else
    double t0 = sb_timer_now();
    uint64_t v = passes;

    for (unsigned p = 0; p < passes; p++)
        for (volatile uint64_t *q = buf, *end = (uint64_t *)((char *)buf + len); q < end; q += 8) {
            for (int w = 0; w < 8; w++)
                q[w] = v;
            v++;
        }
    return (double)len * passes / (sb_timer_now() - t0) / 1e9;
#endif
}

bool sb_nt_write_gbps(void *buf, size_t len, unsigned passes, double *gbps)
{
#if defined(__SSE2__)
    *gbps = store_gbps(buf, len, passes, true);
    return true;
#else
    (void)buf;
    (void)len;
    (void)passes;
    *gbps = 0;
    return false;
#endif
}

double sb_rmw_gbps(void *buf, size_t len, unsigned passes)
{
    double t0 = sb_timer_now();
#if defined(__SSE2__)
    const __m128i one = _mm_set1_epi64x(1);

    for (unsigned p = 0; p < passes; p++)
        for (__m128i *q = buf, *end = (__m128i *)((char *)buf + len); q < end; q += 4)
            for (int w = 0; w < 4; w++)
                _mm_store_si128(q + w, _mm_add_epi64(_mm_load_si128(q + w), one));
#else
    for (unsigned p = 0; p < passes; p++)
        for (volatile uint64_t *q = buf, *end = (uint64_t *)((char *)buf + len); q < end; q++)
            *q += 1;
#endif
    return (double)len * passes / (sb_timer_now() - t0) / 1e9;
}

void *sb_probe_map(size_t len, void **raw, size_t *raw_len, bool *huge)
{
    uintptr_t start;
    char *p;

    *raw_len = len + HUGE_PAGE;
    *raw = mmap(NULL, *raw_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (*raw == MAP_FAILED)
        return NULL;
    start = ((uintptr_t)*raw + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    p = (char *)start;
#ifdef MADV_HUGEPAGE
    *huge = madvise(p, len, MADV_HUGEPAGE) == 0;
#else
    *huge = false;
#endif
    memset(p, 1, len);
    return p;
}

void sb_probe_unmap(void *raw, size_t raw_len)
{
    if (raw && raw != MAP_FAILED)
        munmap(raw, raw_len);
}

/* 16 adds per iteration, each waiting for the one before (the empty asm makes the compiler
 * keep every add); the loop's own increment and branch run beside them. The addend is a
 * register the compiler cannot see into: an add of a small immediate is done in the renamer
 * on Intel's Golden Cove and later cores (an Intel Xeon VM of this project measured 11.6 "GHz"
 * that way, 2.96 with a register), an add of a register is not. */
static double add_chain_seconds(uint64_t iterations)
{
    uint64_t x = 0, y = 1;
    double t0;

    __asm__ volatile("" : "+r"(y));
    t0 = sb_timer_now();
    for (uint64_t i = 0; i < iterations; i++) {
#define SB_ADD1 x += y; __asm__ volatile("" : "+r"(x) : "r"(y));
        SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1
        SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1 SB_ADD1
#undef SB_ADD1
    }
    sink = x;
    return sb_timer_now() - t0;
}

double sb_add_chain_ghz(double seconds)
{
    uint64_t iterations = 1u << 16;
    double took = add_chain_seconds(iterations);

    while (took < seconds / 8 && iterations < (1ull << 40)) {
        iterations *= 2;
        took = add_chain_seconds(iterations);
    }
    if (took < seconds) {
        iterations = (uint64_t)((double)iterations * seconds / took);
        took = add_chain_seconds(iterations);
    }
    return (double)iterations * 16 / took / 1e9;
}
