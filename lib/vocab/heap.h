/* SPDX-License-Identifier: BSD-3-Clause */
/* heap.h: heap pages in PostgreSQL's on-disk layout (PageHeaderData, ItemIdData line pointers,
 * HeapTupleHeaderData tuples, MAXALIGNed), a per-page checksum, and the two executor passes
 * over a page: `count` (SELECT COUNT(*): reads line pointers and tuple headers, and sets a
 * tuple's commit hint bits where they are missing) and `vacuum` (VACUUM as 8.1's lazy_scan_heap:
 * reads every tuple header, sets the hint bits it finds missing, prunes dead tuples; it dirties
 * the page only when it changed it).
 *
 * A page has three states, in order: 0 as generated, 1 hinted (count's output; the same bytes
 * as 0 when the table was generated with its hint bits set), 2 vacuumed (vacuum's output).
 * count(state s) = max(s, 1) and vacuum(s) = 2, byte for byte. */
#ifndef SB_HEAP_H
#define SB_HEAP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define SB_PAGE_HEADER_SIZE 24u  /* sizeof(PageHeaderData) */
#define SB_LINE_POINTER_SIZE 4u  /* sizeof(ItemIdData) */
#define SB_TUPLE_HEADER_SIZE 23u /* offsetof(HeapTupleHeaderData, t_bits) */
#define SB_MAXALIGN(len) (((len) + 7u) & ~7u)

/* Line pointer states (ItemIdData.lp_flags). */
#define SB_LP_UNUSED 0u
#define SB_LP_NORMAL 1u
#define SB_LP_DEAD 3u

/* Tuple hint bits (HeapTupleHeaderData.t_infomask), values as in PostgreSQL. */
#define SB_HEAP_XMIN_COMMITTED 0x0100u
#define SB_HEAP_XMIN_INVALID 0x0200u
#define SB_HEAP_XMAX_COMMITTED 0x0400u
#define SB_HEAP_XMAX_INVALID 0x0800u

/* Page flag (PageHeaderData.pd_flags): set by vacuum when it frees line pointers. */
#define SB_PD_HAS_FREE_LINES 0x0001u

/* Transaction ids in the generated table: every tuple was inserted by a committed transaction;
 * a dead tuple was deleted by a committed transaction; visibility needs no snapshot. */
#define SB_XID_INSERT 1000u
#define SB_XID_DELETE 2000u

/* The shape of every page of a table. */
struct sb_heap_layout {
    uint32_t page_size;     /* bytes per page (BLCKSZ) */
    uint32_t row_width;     /* user data bytes per row */
    uint32_t tuple_len;     /* header + data, as stored in lp_len */
    uint32_t tuple_stride;  /* MAXALIGN(tuple_len): space each tuple takes */
    uint32_t rows_per_page; /* tuples on each page */
    uint32_t dead_pct;      /* percentage of tuples deleted (dead) in the generated table */
    bool hint_bits_set;     /* tuples generated with their commit hint bits (key hint_bits;
                               sb_heap_layout_init sets it: today's tables), else t_infomask 0 */
};

/* The page states (see above). */
enum sb_page_state { SB_PAGE_GENERATED, SB_PAGE_HINTED, SB_PAGE_VACUUMED, SB_PAGE_NSTATES };

/* Computes the layout (hint bits set); false if not even one row fits on a page or
 * dead_pct > 100. */
bool sb_heap_layout_init(struct sb_heap_layout *layout, uint32_t page_size, uint32_t row_width,
                         uint32_t dead_pct);

/* Writes page `block` of the table: header, line pointers, tuples with deterministic data
 * derived from the block number, t_infomask as layout->hint_bits_set says (set: XMIN_COMMITTED
 * and XMAX_COMMITTED or XMAX_INVALID; unset: 0); returns how many of its tuples are live. */
uint32_t sb_heap_fill_page(const struct sb_heap_layout *layout, void *page, uint64_t block);

/* Checksum of a whole page (PostgreSQL's FNV-1a based pg_checksum_block algorithm, 32 lanes),
 * mixed with nothing else: equal pages give equal sums. */
uint32_t sb_page_checksum(const void *page, uint32_t page_size);

/* The executor passes. Each returns the number of live (visible) tuples it saw, and sets
 * *dirtied (when dirtied is not NULL) to whether it stored into the page: count when it set a
 * hint bit (tqual.c HeapTupleSatisfiesMVCC -> SetBufferCommitInfoNeedsSave), vacuum when it
 * stored a missing hint bit, pruned a dead tuple or cleared pd_prune_xid (vacuumlazy.c
 * lazy_scan_heap: `if (pgchanged) WriteBuffer(buf); else ReleaseBuffer(buf);`): a clean
 * hinted page without dead tuples comes out of vacuum untouched. */
uint32_t sb_heap_count(void *page, uint32_t page_size, bool *dirtied);
uint32_t sb_heap_vacuum(void *page, uint32_t page_size, bool *dirtied);
/* vacuum's bytes and rows, with a store into every live tuple's t_infomask and pd_prune_xid:
 * always dirtied (the op vacuum-dirty). */
uint32_t sb_heap_vacuum_dirty(void *page, uint32_t page_size, bool *dirtied);

/* The hint bits a tuple's visibility check wants: XMIN_COMMITTED and, with a deleter,
 * XMAX_COMMITTED, else XMAX_INVALID (every generated transaction committed). */
static inline uint16_t sb_tuple_hint_want(uint32_t xmax)
{
    return (uint16_t)(SB_HEAP_XMIN_COMMITTED |
                      (xmax != 0 ? SB_HEAP_XMAX_COMMITTED : SB_HEAP_XMAX_INVALID));
}

/* Accessors used by the passes, the cache model's op walk and the tests (byte offsets as in
 * PostgreSQL's structs; inline: the model's walk reads every line pointer of every page). */
#define SB_PD_FLAGS 10u
#define SB_PD_LOWER 12u
#define SB_PD_UPPER 14u
#define SB_PD_PRUNE_XID 20u
#define SB_T_XMAX 4u
#define SB_T_INFOMASK 20u

static inline uint16_t sb_load16(const void *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t sb_load32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }

static inline uint16_t sb_page_lower(const void *page)
{
    return sb_load16((const uint8_t *)page + SB_PD_LOWER);
}

static inline uint16_t sb_page_upper(const void *page)
{
    return sb_load16((const uint8_t *)page + SB_PD_UPPER);
}

static inline uint16_t sb_page_flags(const void *page)
{
    return sb_load16((const uint8_t *)page + SB_PD_FLAGS);
}

/* The line pointers on the page (from pd_lower). */
static inline uint32_t sb_page_nitems(const void *page)
{
    uint16_t lower = sb_page_lower(page);
    return lower > SB_PAGE_HEADER_SIZE ? (lower - SB_PAGE_HEADER_SIZE) / SB_LINE_POINTER_SIZE : 0;
}

/* Line pointer index (from 0): lp_off, lp_flags, lp_len. */
static inline void sb_page_item(const void *page, uint32_t index, uint32_t *off, uint32_t *flags,
                                uint32_t *len)
{
    uint32_t item = sb_load32((const uint8_t *)page + SB_PAGE_HEADER_SIZE +
                              index * SB_LINE_POINTER_SIZE);
    *off = item & 0x7fffu;
    *flags = (item >> 15) & 3u;
    *len = item >> 17;
}

/* Line pointer index's tuple, if it is one the passes look at (a normal line pointer whose
 * tuple header lies in the page): true, its offset in *off. */
static inline bool sb_page_tuple(const void *page, uint32_t index, uint32_t page_size,
                                 uint32_t *off)
{
    uint32_t flags, len;

    sb_page_item(page, index, off, &flags, &len);
    return flags == SB_LP_NORMAL && *off + SB_TUPLE_HEADER_SIZE <= page_size;
}

static inline uint16_t sb_tuple_infomask(const void *page, uint32_t off)
{
    return sb_load16((const uint8_t *)page + off + SB_T_INFOMASK);
}

static inline uint32_t sb_tuple_xmax(const void *page, uint32_t off)
{
    return sb_load32((const uint8_t *)page + off + SB_T_XMAX);
}

/* A tuple is visible when its inserter committed and it has no committed deleter
 * (HeapTupleSatisfiesMVCC for a snapshot taken after every generated transaction): what the
 * passes decide, and the cache model's walk of them. */
static inline bool sb_tuple_is_live(const void *page, uint32_t off)
{
    uint16_t infomask = sb_tuple_infomask(page, off);

    if (infomask & SB_HEAP_XMIN_INVALID)
        return false;
    return sb_tuple_xmax(page, off) == 0 || (infomask & SB_HEAP_XMAX_INVALID);
}

#endif
