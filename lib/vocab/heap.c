/* SPDX-License-Identifier: BSD-3-Clause */
/* heap.c: generating heap pages in PostgreSQL's layout, checksumming them, and the executor
 * passes (count, vacuum) that read and write them. Offsets follow PostgreSQL's structs:
 *   PageHeaderData: pd_lsn 0, pd_checksum 8, pd_flags 10, pd_lower 12, pd_upper 14,
 *                   pd_special 16, pd_pagesize_version 18, pd_prune_xid 20; line pointers at 24.
 *   ItemIdData (32 bits): lp_off bits 0-14, lp_flags bits 15-16, lp_len bits 17-31.
 *   HeapTupleHeaderData: t_xmin 0, t_xmax 4, t_cid 8, t_ctid 12 (block hi, block lo, posid),
 *                   t_infomask2 18, t_infomask 20, t_hoff 22; data at t_hoff (MAXALIGN(23)). */
#include "config.h"
#include "vocab/heap.h"

#include <string.h>

#define PD_FLAGS SB_PD_FLAGS
#define PD_LOWER SB_PD_LOWER
#define PD_UPPER SB_PD_UPPER
#define PD_SPECIAL 16
#define PD_PAGESIZE_VERSION 18
#define PD_PRUNE_XID SB_PD_PRUNE_XID
#define T_XMIN 0
#define T_XMAX SB_T_XMAX
#define T_CID 8
#define T_CTID 12
#define T_INFOMASK2 18
#define T_INFOMASK SB_T_INFOMASK
#define T_HOFF 22
#define PG_PAGE_LAYOUT_VERSION 4

static inline void store16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void store32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

static inline uint32_t item_pack(uint32_t off, uint32_t flags, uint32_t len)
{
    return (off & 0x7fffu) | ((flags & 3u) << 15) | ((len & 0x7fffu) << 17);
}

/* splitmix64: the deterministic source of tuple contents and of which rows are dead. */
static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

bool sb_heap_layout_init(struct sb_heap_layout *layout, uint32_t page_size, uint32_t row_width,
                         uint32_t dead_pct)
{
    uint32_t hoff = SB_MAXALIGN(SB_TUPLE_HEADER_SIZE);

    if (dead_pct > 100 || page_size <= SB_PAGE_HEADER_SIZE || page_size > 32768 ||
        row_width > page_size)
        return false;
    layout->page_size = page_size;
    layout->row_width = row_width;
    layout->tuple_len = hoff + row_width;
    layout->tuple_stride = SB_MAXALIGN(layout->tuple_len);
    layout->rows_per_page =
        (page_size - SB_PAGE_HEADER_SIZE) / (layout->tuple_stride + SB_LINE_POINTER_SIZE);
    layout->dead_pct = dead_pct;
    layout->hint_bits_set = true;
    return layout->rows_per_page > 0;
}

uint32_t sb_heap_fill_page(const struct sb_heap_layout *layout, void *page_mem, uint64_t block)
{
    uint8_t *page = page_mem;
    uint32_t n = layout->rows_per_page;
    uint32_t upper = layout->page_size;
    uint32_t live = 0;
    uint32_t hoff = SB_MAXALIGN(SB_TUPLE_HEADER_SIZE);

    memset(page, 0, layout->page_size);
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *tup;
        uint64_t row = block * n + i;
        bool dead = (mix64(row ^ 0x5ca9bec4ull) % 100) < layout->dead_pct;

        upper -= layout->tuple_stride;
        tup = page + upper;
        store32(page + SB_PAGE_HEADER_SIZE + i * SB_LINE_POINTER_SIZE,
                item_pack(upper, SB_LP_NORMAL, layout->tuple_len));
        store32(tup + T_XMIN, SB_XID_INSERT);
        store32(tup + T_XMAX, dead ? SB_XID_DELETE : 0);
        store32(tup + T_CID, 0);
        store16(tup + T_CTID, (uint16_t)(block >> 16));
        store16(tup + T_CTID + 2, (uint16_t)block);
        store16(tup + T_CTID + 4, (uint16_t)(i + 1));
        store16(tup + T_INFOMASK2, 16); /* natts: 16 columns, as lineitem */
        /* set: the hint bits a first visibility check would have stored; unset: none yet */
        store16(tup + T_INFOMASK, layout->hint_bits_set
                                      ? sb_tuple_hint_want(dead ? SB_XID_DELETE : 0) : 0);
        tup[T_HOFF] = (uint8_t)hoff;
        for (uint32_t b = 0; b < layout->row_width; b += 8) {
            uint64_t word = mix64(row * 4096 + b);
            uint32_t chunk = layout->row_width - b < 8 ? layout->row_width - b : 8;
            memcpy(tup + hoff + b, &word, chunk);
        }
        live += !dead;
    }
    store16(page + PD_FLAGS, 0);
    store16(page + PD_LOWER, (uint16_t)(SB_PAGE_HEADER_SIZE + n * SB_LINE_POINTER_SIZE));
    store16(page + PD_UPPER, (uint16_t)upper);
    store16(page + PD_SPECIAL, (uint16_t)(layout->page_size == 32768 ? 32767 : layout->page_size));
    store16(page + PD_PAGESIZE_VERSION,
            (uint16_t)((layout->page_size & 0xff00u) | PG_PAGE_LAYOUT_VERSION));
    store32(page + PD_PRUNE_XID, live < n ? SB_XID_DELETE : 0);
    return live;
}

/* PostgreSQL's page checksum core (src/include/storage/checksum_impl.h): 32 parallel FNV-1a
 * style lanes, two extra rounds of zeros, lanes xor-folded. */
#define N_SUMS 32
#define FNV_PRIME 16777619u
static const uint32_t checksum_base_offsets[N_SUMS] = {
    0x5B1F36E9, 0xB8525960, 0x02AB50AA, 0x1DE66D2A, 0x79FF467A, 0x9BB9F8A3, 0x217E7CD2,
    0x83E13D2C, 0xF8D4474F, 0xE39EB970, 0x42C6AE16, 0x993216FA, 0x7B093B5D, 0x98DAFF3C,
    0xF718902A, 0x0B1C9CDB, 0xE58F764B, 0x187636BC, 0x5D7B3BB1, 0xE73DE7DE, 0x92BEC979,
    0xCCA6C0B2, 0x304A0979, 0x85AA43D4, 0x783125BB, 0x6CA8EAA2, 0xE407EAC6, 0x4B5CFC3E,
    0x9FBF8C76, 0x15CA20BE, 0xF2CA9FD3, 0x959BD756};

static inline uint32_t checksum_comp(uint32_t sum, uint32_t value)
{
    uint32_t tmp = sum ^ value;
    return tmp * FNV_PRIME ^ (tmp >> 17);
}

uint32_t sb_page_checksum(const void *page_mem, uint32_t page_size)
{
    const uint8_t *page = page_mem;
    uint32_t sums[N_SUMS];
    uint32_t result = 0;
    uint32_t rows = page_size / (uint32_t)(sizeof(uint32_t) * N_SUMS);

    memcpy(sums, checksum_base_offsets, sizeof sums);
    for (uint32_t i = 0; i < rows; i++) {
        uint32_t words[N_SUMS];
        memcpy(words, page + (size_t)i * sizeof words, sizeof words);
        for (uint32_t j = 0; j < N_SUMS; j++)
            sums[j] = checksum_comp(sums[j], words[j]);
    }
    for (uint32_t i = 0; i < 2; i++)
        for (uint32_t j = 0; j < N_SUMS; j++)
            sums[j] = checksum_comp(sums[j], 0);
    for (uint32_t j = 0; j < N_SUMS; j++)
        result ^= sums[j];
    return result;
}

/* SELECT COUNT(*): each normal tuple's visibility; a missing hint bit is stored (one 16-bit
 * store of t_infomask), as HeapTupleSatisfiesMVCC does through SetBufferCommitInfoNeedsSave. */
uint32_t sb_heap_count(void *page_mem, uint32_t page_size, bool *dirtied)
{
    uint8_t *page = page_mem;
    uint32_t n = sb_page_nitems(page);
    uint32_t visible = 0;
    bool stored = false;

    for (uint32_t i = 0; i < n; i++) {
        uint32_t off;
        uint16_t infomask, want;

        if (!sb_page_tuple(page, i, page_size, &off))
            continue;
        visible += sb_tuple_is_live(page, off);
        infomask = sb_tuple_infomask(page, off);
        want = sb_tuple_hint_want(sb_tuple_xmax(page, off));
        if ((infomask & want) != want) {
            store16(page + off + T_INFOMASK, (uint16_t)(infomask | want));
            stored = true;
        }
    }
    if (dirtied)
        *dirtied = stored;
    return visible;
}

/* VACUUM as 8.1's lazy_scan_heap does it (vacuumlazy.c): each tuple's visibility
 * (HeapTupleSatisfiesVacuum), storing the hint bits it finds missing; a dead tuple's line
 * pointer freed; pd_flags and pd_prune_xid stored where they change. A page nothing changed is
 * released, not dirtied (`if (pgchanged) WriteBuffer(buf); else ReleaseBuffer(buf);`). */
uint32_t sb_heap_vacuum(void *page_mem, uint32_t page_size, bool *dirtied)
{
    uint8_t *page = page_mem;
    uint32_t n = sb_page_nitems(page);
    uint32_t live = 0, pruned = 0;
    bool changed = false;
    const uint16_t dead_hints = SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_COMMITTED;

    for (uint32_t i = 0; i < n; i++) {
        uint8_t *lp = page + SB_PAGE_HEADER_SIZE + i * SB_LINE_POINTER_SIZE, *tup;
        uint32_t off;
        uint16_t infomask, want;
        bool is_live;

        if (!sb_page_tuple(page, i, page_size, &off))
            continue;
        tup = page + off;
        infomask = sb_load16(tup + T_INFOMASK);
        is_live = sb_tuple_is_live(page, off);
        want = is_live ? SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_INVALID : dead_hints;
        if ((infomask & want) != want) {
            store16(tup + T_INFOMASK, (uint16_t)(infomask | want));
            changed = true;
        }
        if (is_live) {
            live++;
        } else {
            store32(lp, item_pack(0, SB_LP_UNUSED, 0));
            pruned++;
        }
    }
    if (pruned) {
        store16(page + PD_FLAGS, (uint16_t)(sb_load16(page + PD_FLAGS) | SB_PD_HAS_FREE_LINES));
        changed = true;
    }
    if (sb_load32(page + PD_PRUNE_XID) != 0) {
        store32(page + PD_PRUNE_XID, 0);
        changed = true;
    }
    if (dirtied)
        *dirtied = changed;
    return live;
}

/* vacuum-dirty: vacuum's bytes, but every live tuple's hint bits and pd_prune_xid stored
 * whether they change or not, and the page always dirtied (scanbench's vacuum before issue 28;
 * kept for the write-back's experiments and tests). */
uint32_t sb_heap_vacuum_dirty(void *page_mem, uint32_t page_size, bool *dirtied)
{
    uint8_t *page = page_mem;
    uint32_t n = sb_page_nitems(page);
    uint32_t live = 0, pruned = 0;
    const uint16_t dead_hints = SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_COMMITTED;

    for (uint32_t i = 0; i < n; i++) {
        uint8_t *lp = page + SB_PAGE_HEADER_SIZE + i * SB_LINE_POINTER_SIZE, *tup;
        uint32_t off;
        uint16_t infomask;

        if (!sb_page_tuple(page, i, page_size, &off))
            continue;
        tup = page + off;
        infomask = sb_load16(tup + T_INFOMASK);
        if (sb_tuple_is_live(page, off)) {
            store16(tup + T_INFOMASK,
                    (uint16_t)(infomask | SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_INVALID));
            live++;
        } else {
            if ((infomask & dead_hints) != dead_hints)
                store16(tup + T_INFOMASK, (uint16_t)(infomask | dead_hints));
            store32(lp, item_pack(0, SB_LP_UNUSED, 0));
            pruned++;
        }
    }
    if (pruned)
        store16(page + PD_FLAGS, (uint16_t)(sb_load16(page + PD_FLAGS) | SB_PD_HAS_FREE_LINES));
    store32(page + PD_PRUNE_XID, 0);
    if (dirtied)
        *dirtied = true;
    return live;
}
