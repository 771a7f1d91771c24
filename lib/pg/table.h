/* SPDX-License-Identifier: BSD-3-Clause */
/* table.h: the lineitem-like table `scanbench pg` loads into a live PostgreSQL server: TPC-H
 * lineitem's columns (money as integer cents, flags as "char") with l_comment padded so that
 * each row carries row_width bytes of user data, as scanbench's own pages do (100 bytes: 61
 * rows per 8KB page); how PostgreSQL's heap fills a page with such rows; which rows are
 * deleted (dead_pct, spread evenly over the pages); and the SQL that loads it. Pure: no
 * server needed. */
#ifndef SB_PG_TABLE_H
#define SB_PG_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_PG_TABLE_NAME "lineitem"
/* Bytes of user data before l_comment (the fixed columns and l_shipmode, see table.c), and
 * the row widths the table can be given: the fixed part plus a one-character comment, up to
 * what stays well below PostgreSQL's TOAST threshold (about 2KB per row on 8KB pages). */
#define SB_PG_ROW_FIXED_BYTES 63u
#define SB_PG_ROW_WIDTH_MIN 64u
#define SB_PG_ROW_WIDTH_MAX 1800u

struct sb_pg_table_shape {
    uint64_t table_size;     /* bytes asked for */
    uint32_t page_size;      /* BLCKSZ */
    uint32_t row_width;      /* user bytes per row asked for */
    uint32_t dead_pct;
    uint32_t comment_len;    /* characters of l_comment */
    uint32_t data_bytes;     /* user bytes per row as stored (row_width, but see table.c) */
    uint32_t rows_per_page;  /* as PostgreSQL's heap fills a page (fillfactor 100) */
    uint64_t pages;          /* table_size / page_size */
    uint64_t rows;           /* rows inserted: pages * rows_per_page */
    uint64_t rows_deleted;   /* rows whose l_orderkey % 100 < dead_pct */
    uint64_t rows_live;      /* what count(*) must return */
};

/* Works out the shape; false (and why) when row_width is outside [SB_PG_ROW_WIDTH_MIN,
 * SB_PG_ROW_WIDTH_MAX] or the table is not a whole number of pages. */
bool sb_pg_table_shape(uint64_t table_size, uint32_t page_size, uint32_t row_width,
                       uint32_t dead_pct, struct sb_pg_table_shape *shape, char *why, size_t len);

/* Two shapes hold the same rows (the table need not be reloaded). */
bool sb_pg_table_same(const struct sb_pg_table_shape *a, const struct sb_pg_table_shape *b);

/* Rows g in [1, rows] with g % 100 < dead_pct: the rows the load deletes. */
uint64_t sb_pg_rows_deleted(uint64_t rows, uint32_t dead_pct);

/* The load's statements, in the order they run: sb_pg_table_load_sql's index. */
enum sb_pg_load_step {
    SB_PG_LOAD_DROP,   /* DROP TABLE IF EXISTS */
    SB_PG_LOAD_CREATE, /* CREATE TABLE in the tablespace */
    SB_PG_LOAD_INSERT, /* INSERT ... SELECT over generate_series: inserts shape->rows */
    SB_PG_LOAD_DELETE, /* DELETE of the dead rows: deletes shape->rows_deleted; none at 0% */
};

/* The load, one statement per call (index 0, 1, ...: enum sb_pg_load_step; NULL after the
 * last), to run inside one transaction (BEGIN/COMMIT are the caller's): DROP TABLE IF EXISTS,
 * CREATE TABLE in `tablespace`, INSERT ... SELECT over generate_series, DELETE of the dead
 * rows. Written into buf; returns buf, or NULL past the last statement. */
const char *sb_pg_table_load_sql(const struct sb_pg_table_shape *shape, const char *tablespace,
                                 int index, char *buf, size_t len);

#endif
