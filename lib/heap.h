/* heap.h: heap pages in PostgreSQL's on-disk layout (PageHeaderData, ItemIdData line pointers,
 * HeapTupleHeaderData tuples, MAXALIGNed), a per-page checksum, and the two executor passes
 * over a page: `count` (SELECT COUNT(*): reads line pointers and tuple headers) and `vacuum`
 * (VACUUM: reads every tuple header, sets hint bits, prunes dead tuples: writes the page). */
#ifndef SB_HEAP_H
#define SB_HEAP_H

#include <stdbool.h>
#include <stdint.h>

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
};

/* Computes the layout; false if not even one row fits on a page or dead_pct > 100. */
bool sb_heap_layout_init(struct sb_heap_layout *layout, uint32_t page_size, uint32_t row_width,
                         uint32_t dead_pct);

/* Writes page `block` of the table: header, line pointers, tuples with deterministic data
 * derived from the block number; returns how many of its tuples are live (not deleted). */
uint32_t sb_heap_fill_page(const struct sb_heap_layout *layout, void *page, uint64_t block);

/* Checksum of a whole page (PostgreSQL's FNV-1a based pg_checksum_block algorithm, 32 lanes),
 * mixed with nothing else: equal pages give equal sums. */
uint32_t sb_page_checksum(const void *page, uint32_t page_size);

/* The executor passes. Each returns the number of live (visible) tuples it saw. */
uint32_t sb_heap_count(void *page, uint32_t page_size);
uint32_t sb_heap_vacuum(void *page, uint32_t page_size);

/* Accessors used by the passes and the tests (byte offsets as in PostgreSQL's structs). */
uint16_t sb_page_lower(const void *page);
uint16_t sb_page_upper(const void *page);
uint16_t sb_page_flags(const void *page);
uint32_t sb_page_nitems(const void *page);
void sb_page_item(const void *page, uint32_t index, uint32_t *off, uint32_t *flags, uint32_t *len);
uint16_t sb_tuple_infomask(const void *page, uint32_t off);
uint32_t sb_tuple_xmax(const void *page, uint32_t off);

#endif
