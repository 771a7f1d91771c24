/* SPDX-License-Identifier: BSD-3-Clause */
/* frames.c: where this host's kernel puts the pages of a pool, and what a pool drawn anew gets
 * (doc/statistics.md, Layouts). Allocates N mappings of SIZE one after another (each backed
 * now, as scanbench backs a pool), then unmaps the first and maps SIZE again, twice, and prints
 * for each its frames (host/frames.h: how many consecutive pages have consecutive frames, the
 * pages on the fewest and the most L2 page colours, huge pages) and, for the ones mapped after
 * an unmap, the share of the unmapped mapping's frames they got back. Frame numbers need root
 * (CAP_SYS_ADMIN); without it the summaries say so.
 *
 * usage: frames [SIZE_MB [N [COLOUR_KB]]]   defaults 16, 3 and the L2 size / associativity
 *        this host's topology gives (128KB on a 1MB 8-way L2) */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/core.h"
#include "host/host.h"

#define MAX_MAPS 16

/* Each page's frame (0: not shown), from /proc/self/pagemap; NULL when it cannot be read. */
static uint64_t *frames_of(const void *p, size_t pages)
{
    uint64_t *f = calloc(pages, sizeof *f);
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    off_t at = (off_t)((uintptr_t)p / 4096 * sizeof *f);

    if (f && fd >= 0 && pread(fd, f, pages * sizeof *f, at) == (ssize_t)(pages * sizeof *f))
        for (size_t k = 0; k < pages; k++)
            f[k] &= (1ull << 55) - 1;
    else if (f)
        memset(f, 0, pages * sizeof *f);
    if (fd >= 0)
        close(fd);
    return f;
}

static int by_frame(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The share of old's frames that now has (both sorted copies taken here). */
static double shared(const uint64_t *old, const uint64_t *now, size_t pages)
{
    uint64_t *a = malloc(pages * sizeof *a), *b = malloc(pages * sizeof *b);
    size_t i = 0, j = 0, k = 0;

    if (!a || !b) {
        free(a);
        free(b);
        return -1.0;
    }
    memcpy(a, old, pages * sizeof *a);
    memcpy(b, now, pages * sizeof *b);
    qsort(a, pages, sizeof *a, by_frame);
    qsort(b, pages, sizeof *b, by_frame);
    while (i < pages && j < pages)
        if (a[i] == b[j] && a[i]) {
            k++, i++, j++;
        } else if (a[i] < b[j])
            i++;
        else
            j++;
    free(a);
    free(b);
    return (double)k / (double)pages;
}

static void print(const char *what, const void *p, size_t len, uint64_t colour_bytes)
{
    struct sb_frames f;

    sb_frames_summarise(p, len, colour_bytes, &f);
    if (!f.available)
        printf("%-26s frames not read: %s\n", what, f.why);
    else
        printf("%-26s contiguous %.3f  pages a colour %u..%u of %u colours (cv %.3f)  huge %lld\n",
               what, f.contiguous, f.colour_min, f.colour_max, f.colours, f.colour_cv,
               f.huge_pages == UINT64_MAX ? -1LL : (long long)f.huge_pages);
}

int main(int argc, char **argv)
{
    size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 16, n = argc > 2 ? strtoul(argv[2], NULL, 10) : 3;
    size_t len = mb << 20, pages = len / 4096;
    struct sb_topology topo;
    uint64_t colour_bytes = 0, *before;
    void *map[MAX_MAPS + 2] = {NULL};
    char what[64];

    sb_topology_detect(&topo, "/");
    if (topo.cache[SB_L2].assoc.value)
        colour_bytes = topo.cache[SB_L2].size.value / topo.cache[SB_L2].assoc.value;
    if (argc > 3)
        colour_bytes = strtoull(argv[3], NULL, 10) << 10;
    if (mb == 0 || n == 0 || n > MAX_MAPS) {
        fprintf(stderr, "usage: frames [SIZE_MB [N (1 to %d) [COLOUR_KB]]]\n", MAX_MAPS);
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(map[i] = sb_mem_alloc(len)))
            return 1;
        snprintf(what, sizeof what, "mapping %zu of %zuMB", i + 1, mb);
        print(what, map[i], len, colour_bytes);
    }
    for (int again = 0; again < 2; again++) {
        before = frames_of(map[0], pages);
        munmap(map[0], len); /* not sb_mem_free: that keeps the mapping for the next */
        map[0] = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (map[0] == MAP_FAILED || !before)
            return 1;
        sb_mem_populate(map[0], len);
        snprintf(what, sizeof what, "unmapped, mapped again");
        print(what, map[0], len, colour_bytes);
        uint64_t *now = frames_of(map[0], pages);
        if (now)
            printf("%-26s %.1f%% of the unmapped one's frames\n", "", 100.0 * shared(before, now,
                                                                                   pages));
        free(now);
        free(before);
    }
    return 0;
}
