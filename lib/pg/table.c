/* SPDX-License-Identifier: BSD-3-Clause */
/* table.c: the lineitem-like table's layout and load SQL (see table.h).
 *
 * User data of a row, as PostgreSQL lays it out (alignment in brackets):
 *   l_orderkey bigint 0..8, l_partkey int 8..12, l_suppkey int 12..16, l_linenumber int 16..20,
 *   l_quantity int 20..24, l_extendedprice bigint (cents) 24..32, l_discount smallint 32..34,
 *   l_tax smallint 34..36, l_returnflag "char" 36, l_linestatus "char" 37, [2 bytes pad],
 *   l_shipdate date 40..44, l_commitdate 44..48, l_receiptdate 48..52, l_shipmode char(10)
 *   52..63 (a short varlena: 1-byte header, not aligned), then l_comment: a short varlena
 *   (1-byte header + N characters, N <= 126) at 63, or a long one (4-byte header aligned to 4
 *   at 64 + N characters). So row_width = 64 + N up to 190 bytes and 68 + N from 195; 191 to
 *   194 cannot be made and become 195 (data_bytes says so). The tuple header is 23 bytes,
 *   MAXALIGNed to 24 (no nulls); each tuple also takes a 4-byte line pointer. */
#include "config.h"
#include "pg/table.h"

#include <inttypes.h>
#include <stdio.h>

#define PG_PAGE_HEADER 24u   /* SizeOfPageHeaderData */
#define PG_TUPLE_HEADER 24u  /* MAXALIGN(SizeofHeapTupleHeader = 23) */
#define PG_LINE_POINTER 4u   /* sizeof(ItemIdData) */
#define PG_MAXALIGN(x) (((x) + 7u) & ~7u)
#define PG_SHORT_VARLENA_MAX 126u /* characters a 1-byte varlena header can hold */

bool sb_pg_table_shape(uint64_t table_size, uint32_t page_size, uint32_t row_width,
                       uint32_t dead_pct, struct sb_pg_table_shape *s, char *why, size_t len)
{
    uint32_t tuple, max_tuples;

    if (row_width < SB_PG_ROW_WIDTH_MIN || row_width > SB_PG_ROW_WIDTH_MAX) {
        snprintf(why, len, "%u bytes: a lineitem-like row on the server carries %u to %u bytes "
                 "(its fixed columns take %u; above %u it would near the TOAST threshold)",
                 row_width, SB_PG_ROW_WIDTH_MIN, SB_PG_ROW_WIDTH_MAX, SB_PG_ROW_FIXED_BYTES + 1,
                 SB_PG_ROW_WIDTH_MAX);
        return false;
    }
    if (page_size < 1024 || table_size % page_size || table_size == 0) {
        snprintf(why, len, "the table is not a whole number of %u-byte pages", page_size);
        return false;
    }
    s->table_size = table_size;
    s->page_size = page_size;
    s->row_width = row_width;
    s->dead_pct = dead_pct;
    if (row_width - (SB_PG_ROW_FIXED_BYTES + 1) <= PG_SHORT_VARLENA_MAX) {
        s->comment_len = row_width - (SB_PG_ROW_FIXED_BYTES + 1);
        s->data_bytes = row_width;
    } else {
        s->comment_len = row_width - 68;
        if (s->comment_len <= PG_SHORT_VARLENA_MAX)
            s->comment_len = PG_SHORT_VARLENA_MAX + 1;
        s->data_bytes = 68 + s->comment_len;
    }
    tuple = PG_MAXALIGN(PG_TUPLE_HEADER + s->data_bytes) + PG_LINE_POINTER;
    max_tuples = (page_size - PG_PAGE_HEADER) / (PG_MAXALIGN(23u) + PG_LINE_POINTER);
    s->rows_per_page = (page_size - PG_PAGE_HEADER) / tuple;
    if (s->rows_per_page > max_tuples)
        s->rows_per_page = max_tuples;
    s->pages = table_size / page_size;
    s->rows = s->pages * s->rows_per_page;
    s->rows_deleted = sb_pg_rows_deleted(s->rows, dead_pct);
    s->rows_live = s->rows - s->rows_deleted;
    return true;
}

bool sb_pg_table_same(const struct sb_pg_table_shape *a, const struct sb_pg_table_shape *b)
{
    return a->table_size == b->table_size && a->page_size == b->page_size &&
           a->row_width == b->row_width && a->dead_pct == b->dead_pct;
}

uint64_t sb_pg_rows_deleted(uint64_t rows, uint32_t dead_pct)
{
    uint64_t n = 0;

    for (uint32_t r = 0; r < dead_pct && r < 100; r++) {
        if (r == 0)
            n += rows / 100;
        else if (rows >= r)
            n += (rows - r) / 100 + 1;
    }
    return n;
}

const char *sb_pg_table_load_sql(const struct sb_pg_table_shape *s, const char *tablespace,
                                 int index, char *buf, size_t len)
{
    switch (index) {
    case SB_PG_LOAD_DROP:
        snprintf(buf, len, "DROP TABLE IF EXISTS " SB_PG_TABLE_NAME);
        return buf;
    case SB_PG_LOAD_CREATE:
        snprintf(buf, len,
                 "CREATE TABLE " SB_PG_TABLE_NAME " (l_orderkey bigint, l_partkey integer, "
                 "l_suppkey integer, l_linenumber integer, l_quantity integer, "
                 "l_extendedprice bigint, l_discount smallint, l_tax smallint, "
                 "l_returnflag \"char\", l_linestatus \"char\", l_shipdate date, "
                 "l_commitdate date, l_receiptdate date, l_shipmode char(10), l_comment text) "
                 "TABLESPACE %s", tablespace);
        return buf;
    case SB_PG_LOAD_INSERT:
        snprintf(buf, len,
                 "INSERT INTO " SB_PG_TABLE_NAME " SELECT g, (g * 7919) %% 200000 + 1, "
                 "(g * 104729) %% 10000 + 1, g %% 7 + 1, g %% 50 + 1, "
                 "(g %% 50 + 1) * 90000 + g %% 100000, (g %% 11)::smallint, (g %% 9)::smallint, "
                 "(CASE g %% 3 WHEN 0 THEN 'R' WHEN 1 THEN 'A' ELSE 'N' END)::\"char\", "
                 "(CASE g %% 2 WHEN 0 THEN 'O' ELSE 'F' END)::\"char\", "
                 "date '1992-01-01' + (g %% 2500)::integer, "
                 "date '1992-01-31' + (g %% 2500)::integer, "
                 "date '1992-02-15' + (g %% 2500)::integer, "
                 "(ARRAY['AIR', 'MAIL', 'SHIP', 'TRUCK', 'RAIL', 'FOB', 'REG AIR'])[g %% 7 + 1], "
                 "lpad(g::text, %u, 'x') FROM generate_series(1::bigint, %" PRIu64 ") g",
                 s->comment_len, s->rows);
        return buf;
    case SB_PG_LOAD_DELETE:
        if (s->dead_pct == 0)
            return NULL;
        snprintf(buf, len, "DELETE FROM " SB_PG_TABLE_NAME " WHERE l_orderkey %% 100 < %u",
                 s->dead_pct);
        return buf;
    default:
        return NULL;
    }
}
