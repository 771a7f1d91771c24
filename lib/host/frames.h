/* SPDX-License-Identifier: BSD-3-Clause */
/* frames.h: where a mapping's pages landed physically: from /proc/self/pagemap (each page's
 * frame number; Linux shows them to CAP_SYS_ADMIN only) and /proc/kpageflags (whether a frame
 * is part of a transparent or hugetlb huge page). With 4KB pages the frames decide the sets of
 * a physically indexed cache each line uses (Kessler and Hill, "Page placement algorithms for
 * large real-indexed caches", TOCS 1992): the summary gives how contiguous the frames are and
 * how the pages spread over the cache's page colours (the set-index bits above the page
 * offset). */
#ifndef SB_FRAMES_H
#define SB_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_FRAMES_MAX_COLOURS 4096

struct sb_frames {
    bool available;      /* the frames were read (else why says why not) */
    char why[160];
    uint64_t pages;      /* base pages in the mapping */
    uint64_t resolved;   /* pages whose frame was read (present, frame shown) */
    double contiguous;   /* of the pairs of neighbouring pages (k-1, k) both resolved, the
                            fraction with frame k = frame k-1 + 1 (0: no such pair) */
    uint32_t colours;    /* page colours counted (cache bytes / associativity / page size, at
                            most SB_FRAMES_MAX_COLOURS); 0: not counted. A page's colour is its
                            frame modulo colours */
    uint32_t colour_min, colour_max; /* the fewest and most resolved pages on one colour, over
                            all colours (an empty colour counts 0); 0 when not counted */
    double colour_cv;    /* population standard deviation / mean of the resolved pages per
                            colour (0: even, or nothing counted) */
    uint64_t huge_pages; /* resolved base pages that are part of a huge page (kpageflags HUGE:
                            hugetlb, or THP); UINT64_MAX where kpageflags could not be read.
                            Over 1024 pages, estimated from every k-th resolved page (frames.c) */
    uint64_t pfn_min, pfn_max; /* the lowest and highest frame resolved (0: none) */
};

/* The summary of frames pfn[0 .. n-1] (0: not resolved), with flags[k] the page's kpageflags
 * (NULL: unknown), over `colours` page colours (0 or 1: none counted; more than
 * SB_FRAMES_MAX_COLOURS: that many). Pure: no files read; always available. */
void sb_frames_summarise_pfns(const uint64_t *pfn, const uint64_t *flags, size_t n,
                              uint32_t colours, struct sb_frames *out);

/* The summary of [addr, addr + len) (page-aligned) of this process, its pages resident; colour
 * bytes: the size of one way of the cache whose colours are counted (L2 size / associativity;
 * 0: none). Not available, saying why in one line, without the rights to read frame numbers
 * (CAP_SYS_ADMIN), when /proc/self/pagemap cannot be read, or when no page of the range is
 * resident (or it is empty); pages is set even then. */
void sb_frames_summarise(const void *addr, size_t len, uint64_t colour_bytes,
                         struct sb_frames *out);

#endif
