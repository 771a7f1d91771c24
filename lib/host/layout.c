/* SPDX-License-Identifier: BSD-3-Clause */
/* layout.c: fresh mappings for a pool's layout, on base pages or on 2MB pages. */
#include "config.h"
#include "host/layout.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "core/core.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#ifndef MAP_HUGE_2MB
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#endif

bool sb_thp_available(char *why, size_t len)
{
    char line[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");
    bool ok;

    if (!f) {
        snprintf(why, len, "no /sys/kernel/mm/transparent_hugepage/enabled");
        return false;
    }
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    fclose(f);
    ok = strstr(line, "[always]") || strstr(line, "[madvise]");
    if (!ok)
        snprintf(why, len, "transparent huge pages are off (%.*s)", (int)strcspn(line, "\n"),
                 line);
    return ok;
}

/* Free reserved 2MB pages (/proc/meminfo), in bytes; 0 when none or unknown. */
static uint64_t hugetlb_free_bytes(void)
{
    char line[128];
    unsigned long long pages = 0, kb = 0;
    FILE *f = fopen("/proc/meminfo", "re");

    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        sscanf(line, "HugePages_Free: %llu", &pages);
        sscanf(line, "Hugepagesize: %llu kB", &kb);
    }
    fclose(f);
    return kb * 1024 == SB_HUGE_PAGE_BYTES ? pages * SB_HUGE_PAGE_BYTES : 0;
}

/* A fresh mapping: where it starts, its length, the pages it asked for (static text). */
struct mapping {
    uint8_t *base;
    size_t len;
    const char *pages;
};

/* The mapping: hugetlb, or an aligned range inside a larger anonymous one (its ends unmapped);
 * base NULL on failure. */
static struct mapping map_fresh(size_t len, bool huge)
{
    size_t round = (len + SB_HUGE_PAGE_BYTES - 1) & ~(size_t)(SB_HUGE_PAGE_BYTES - 1);
    uint8_t *p, *aligned;

    if (huge && hugetlb_free_bytes() >= round) {
        p = mmap(NULL, round, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB, -1, 0);
        if (p != MAP_FAILED)
            return (struct mapping){p, round, "hugetlb"};
    }
    if (!huge) {
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return (struct mapping){p == MAP_FAILED ? NULL : p, len, "4KB"};
    }
    p = mmap(NULL, round + SB_HUGE_PAGE_BYTES, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return (struct mapping){NULL, 0, ""};
    aligned = (uint8_t *)(((uintptr_t)p + SB_HUGE_PAGE_BYTES - 1) &
                          ~(uintptr_t)(SB_HUGE_PAGE_BYTES - 1));
    if (aligned > p)
        munmap(p, (size_t)(aligned - p));
    munmap(aligned + round, (size_t)(p + round + SB_HUGE_PAGE_BYTES - aligned - round));
    return (struct mapping){aligned, round,
                            madvise(aligned, round, MADV_HUGEPAGE) == 0
                                ? "THP (madvise)" : "4KB (MADV_HUGEPAGE refused)"};
}

void *sb_mem_alloc_fresh(size_t len, const struct sb_placement *placement, int home_node,
                         bool huge, bool populate, struct sb_placement_found *found)
{
    struct mapping m = map_fresh(len, huge);

    if (!m.base) {
        found->map_len = 0;
        return NULL;
    }
    sb_placement_bind(m.base, m.len, placement, home_node, found); /* which starts found anew */
    found->map_base = m.base;
    found->map_len = m.len;
    snprintf(found->pages, sizeof found->pages, "%s", m.pages);
    if (populate) { /* else the caller verifies, once its stores have backed the pages */
        sb_mem_populate(m.base, m.len);
        sb_placement_verify(m.base, len, false, found);
    }
    return m.base;
}
