/* SPDX-License-Identifier: BSD-3-Clause */
/* bare-copy.c: the baseline scanbench is held against: a plain hand-written loop that copies
 * each page of a table into a ring of buffers with glibc memcpy, no pool bookkeeping, no
 * policy, no op, no validation. Prints every timed repetition and the median.
 * usage: bare-copy TABLE_SIZE RING_SIZE REPETITIONS (page size 8KB, one warm-up scan).
 * The page size is read through a volatile, so that the compiler calls glibc's memcpy as the
 * engine's memcpy kernel does: with a constant 8192, GCC inlines the copy as `rep movsq`,
 * which is another kernel (slower than glibc's on Zen 5, faster on Zen 4) and made this
 * baseline mean different things on different hosts. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/timer.h"
#include "core/units.h"
#include "stats/stats.h"
#include "vocab/heap.h"

#define PAGE 8192u

int main(int argc, char **argv)
{
    uint64_t table_size, ring_size, reps;
    uint8_t *table, *ring;
    double *seconds;
    uint64_t pages, slots;
    volatile uint8_t sink = 0;
    volatile size_t page_bytes = PAGE; /* read at run time: glibc's memcpy, not an inlined one */
    struct sb_heap_layout layout;

    if (argc != 4 || !sb_parse_size(argv[1], &table_size) || !sb_parse_size(argv[2], &ring_size) ||
        !sb_parse_uint(argv[3], &reps) || reps == 0 || reps > 1000 || table_size < PAGE ||
        ring_size < PAGE) {
        fprintf(stderr, "usage: bare-copy TABLE_SIZE RING_SIZE REPETITIONS\n");
        return 2;
    }
    pages = table_size / PAGE;
    slots = ring_size / PAGE;
    table = sb_mem_alloc(pages * PAGE);
    ring = sb_mem_alloc(slots * PAGE);
    seconds = calloc(reps, sizeof *seconds);
    if (!table || !ring || !seconds) {
        fprintf(stderr, "bare-copy: out of memory\n");
        return 1;
    }
    /* The same heap pages the engine scans: distinct contents, so no layer below (a
     * hypervisor merging identical pages, say) can make the baseline's source cheaper. */
    if (!sb_heap_layout_init(&layout, PAGE, 100, 10)) {
        fprintf(stderr, "bare-copy: bad layout\n");
        return 1;
    }
    for (uint64_t p = 0; p < pages; p++)
        sb_heap_fill_page(&layout, table + p * PAGE, p);
    for (uint64_t r = 0; r <= reps; r++) {
        const size_t len = page_bytes;
        double t0 = sb_timer_now();
        for (uint64_t p = 0, s = 0; p < pages; p++) {
            memcpy(ring + s * PAGE, table + p * PAGE, len);
            if (++s == slots)
                s = 0;
        }
        if (r > 0)
            seconds[r - 1] = sb_timer_now() - t0;
        sink ^= ring[(r % slots) * PAGE];
    }
    for (uint64_t r = 0; r < reps; r++)
        printf("bare-copy rep %llu: %.6f s %.1f MB/s\n", (unsigned long long)r, seconds[r],
               (double)(pages * PAGE) / seconds[r] / SB_MB_DECIMAL);
    printf("bare-copy median: %.6f s %.1f MB/s\n", sb_median(seconds, reps),
           (double)(pages * PAGE) / sb_median(seconds, reps) / SB_MB_DECIMAL);
    (void)sink;
    sb_mem_free(table, pages * PAGE);
    sb_mem_free(ring, slots * PAGE);
    free(seconds);
    return 0;
}
