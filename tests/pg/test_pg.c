/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_pg.c: unit tests for the parts of `scanbench pg` that need no server: the lineitem-like
 * table's layout (row_width 100 gives 61 rows per 8KB page and a 124-byte tuple, as a live
 * PostgreSQL 15 stores it; the widths a varlena header makes impossible; the dead rows), its
 * load SQL; PostgreSQL's placement rule on both sides of NBuffers / 4 and the ring's cap at
 * NBuffers / 8; the postgresql.conf settings by server version (8.1's shared_buffers in
 * buffers, ... to 17's) and their quoting; the version number of what real 8.1, 8.2 and 8.3
 * servers printed (tests/data/pg/); parsing `postgres --version`,
 * EXPLAIN (FORMAT JSON) and VACUUM VERBOSE (real PostgreSQL 15 output, TOAST table included);
 * from a plan to server jobs (duplicates merged, pools below 128kB refused or left out, op none
 * left out, ignored keys noted); and the run record's fields (those `compare` requires). */

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/utf8.h"
#include "pg/conf.h"
#include "pg/jobs.h"
#include "pg/parse.h"
#include "pg/record.h"
#include "pg/rule.h"
#include "pg/sql.h"
#include "pg/table.h"
#include "plan/experiment.h"
#include "plan/plan.h"
#include "report/read.h"

#include "helper.h"

static const struct sb_mem_limit big_limit = {.bytes = 1ull << 40, .source = "test"};

static void test_table_shape(void **state)
{
    struct sb_pg_table_shape s;
    char why[256];
    (void)state;

    /* 100 bytes: 63 fixed + 1-byte header + 36 characters; tuple 24 + 100 = 124 (lp_len on a
     * live server), MAXALIGN 128 + 4 line pointer = 132; (8192 - 24) / 132 = 61 */
    assert_true(sb_pg_table_shape(4u << 20, 8192, 100, 10, &s, why, sizeof why));
    assert_int_equal(s.comment_len, 36);
    assert_int_equal(s.data_bytes, 100);
    assert_int_equal(s.rows_per_page, 61);
    assert_int_equal(s.pages, 512);
    assert_int_equal(s.rows, 512 * 61);
    assert_int_equal(s.rows_deleted, 3129); /* what the server's DELETE reported */
    assert_int_equal(s.rows_live, 31232 - 3129);
    /* the widest short comment: 126 characters */
    assert_true(sb_pg_table_shape(8192, 8192, 190, 0, &s, why, sizeof why));
    assert_int_equal(s.comment_len, 126);
    assert_int_equal(s.data_bytes, 190);
    /* 191..194 would need 127..130 characters with a 1-byte header: impossible; 195 instead */
    assert_true(sb_pg_table_shape(8192, 8192, 192, 0, &s, why, sizeof why));
    assert_int_equal(s.comment_len, 127);
    assert_int_equal(s.data_bytes, 195);
    /* from 195: 4-byte header at 64 */
    assert_true(sb_pg_table_shape(8192, 8192, 300, 0, &s, why, sizeof why));
    assert_int_equal(s.comment_len, 232);
    assert_int_equal(s.data_bytes, 300);
    assert_int_equal(s.rows_per_page, (8192 - 24) / (328 + 4));
    /* 64: an empty comment */
    assert_true(sb_pg_table_shape(8192, 8192, 64, 0, &s, why, sizeof why));
    assert_int_equal(s.comment_len, 0);
    assert_int_equal(s.rows_per_page, (8192 - 24) / (88 + 4));
    /* out of range, and not whole pages */
    assert_false(sb_pg_table_shape(8192, 8192, 63, 0, &s, why, sizeof why));
    assert_non_null(strstr(why, "64 to 1800"));
    assert_false(sb_pg_table_shape(8192, 8192, 1801, 0, &s, why, sizeof why));
    assert_false(sb_pg_table_shape(10000, 8192, 100, 0, &s, why, sizeof why));
}

static void test_rows_deleted(void **state)
{
    (void)state;
    assert_int_equal(sb_pg_rows_deleted(1000, 0), 0);
    assert_int_equal(sb_pg_rows_deleted(1000, 10), 100);
    assert_int_equal(sb_pg_rows_deleted(1000, 100), 1000);
    assert_int_equal(sb_pg_rows_deleted(5, 10), 5);   /* rows 1..5: residues 1..5 */
    assert_int_equal(sb_pg_rows_deleted(100, 1), 1);  /* row 100 */
    assert_int_equal(sb_pg_rows_deleted(99, 1), 0);
    assert_int_equal(sb_pg_rows_deleted(105, 3), 3 + 2); /* 100; 1, 2, 101, 102 */
}

static void test_load_sql(void **state)
{
    struct sb_pg_table_shape s;
    char why[128], buf[2048];
    const char *stmt;
    (void)state;

    assert_true(sb_pg_table_shape(8u << 20, 8192, 100, 10, &s, why, sizeof why));
    stmt = sb_pg_table_load_sql(&s, "sb_a", 0, buf, sizeof buf);
    assert_string_equal(stmt, "DROP TABLE IF EXISTS lineitem");
    stmt = sb_pg_table_load_sql(&s, "sb_a", 1, buf, sizeof buf);
    assert_non_null(strstr(stmt, "CREATE TABLE lineitem (l_orderkey bigint"));
    assert_non_null(strstr(stmt, "TABLESPACE sb_a"));
    stmt = sb_pg_table_load_sql(&s, "sb_a", 2, buf, sizeof buf);
    assert_non_null(strstr(stmt, "lpad(g::text, 36, 'x')"));
    assert_non_null(strstr(stmt, "generate_series(1::bigint, 62464)"));
    stmt = sb_pg_table_load_sql(&s, "sb_a", 3, buf, sizeof buf);
    assert_string_equal(stmt, "DELETE FROM lineitem WHERE l_orderkey % 100 < 10");
    assert_null(sb_pg_table_load_sql(&s, "sb_a", 4, buf, sizeof buf));
    assert_true(sb_pg_table_shape(8u << 20, 8192, 100, 0, &s, why, sizeof why));
    assert_null(sb_pg_table_load_sql(&s, "sb_a", 3, buf, sizeof buf)); /* nothing to delete */
}

static void test_placement_rule(void **state)
{
    struct sb_pg_placement p;
    (void)state;

    /* 16MB pool = 2048 buffers, a quarter = 512: a 512-page table is not larger: clock */
    sb_pg_placement_decide("count", 512, 2048, 8192, 150020, &p);
    assert_string_equal(p.policy, "clock");
    assert_int_equal(p.ring_size, 0);
    assert_int_equal(p.footprint, 16u << 20);
    assert_non_null(strstr(p.why, "not larger"));
    sb_pg_placement_decide("count", 513, 2048, 8192, 150020, &p);
    assert_string_equal(p.policy, "ring");
    assert_int_equal(p.ring_size, 256u * 1024);
    assert_int_equal(p.footprint, 256u * 1024);
    assert_non_null(strstr(p.why, "BAS_BULKREAD"));
    /* VACUUM: always its ring, even for a tiny table */
    sb_pg_placement_decide("vacuum", 1, 1u << 20, 8192, 150020, &p);
    assert_string_equal(p.policy, "ring");
    assert_int_equal(p.ring_size, 256u * 1024);
    assert_null(strstr(p.why, "vacuum_buffer_usage_limit"));
    sb_pg_placement_decide("vacuum", 1, 1u << 20, 8192, 160000, &p);
    assert_non_null(strstr(p.why, "vacuum_buffer_usage_limit = 256kB"));
    assert_int_equal(p.ring_size, 256u * 1024);
    /* the ring is at most NBuffers / 8: 1MB pool = 128 buffers -> 16 buffers, 128KB */
    sb_pg_placement_decide("count", 512, 128, 8192, 150020, &p);
    assert_string_equal(p.policy, "ring");
    assert_int_equal(p.ring_size, 128u * 1024);
    assert_non_null(strstr(p.why, "shared_buffers / 8"));
    /* the minimum pool, 16 buffers: a 2-buffer ring */
    sb_pg_placement_decide("vacuum", 512, 16, 8192, 150020, &p);
    assert_int_equal(p.ring_size, 2 * 8192);
}

static void test_conf(void **state)
{
    struct sb_pg_conf c;
    char text[4096];
    json_t *j;
    (void)state;

    sb_pg_conf_build(&c, 150020, "/tmp/scanbench-pg.x'y", 16u << 20, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "shared_buffers"), "16384kB");
    assert_string_equal(sb_pg_conf_get(&c, "listen_addresses"), "");
    assert_string_equal(sb_pg_conf_get(&c, "max_parallel_workers_per_gather"), "0");
    assert_string_equal(sb_pg_conf_get(&c, "autovacuum"), "off");
    assert_null(sb_pg_conf_get(&c, "vacuum_buffer_usage_limit")); /* unknown to 15 */
    assert_string_equal(sb_pg_conf_get(&c, "wal_skip_threshold"), "0");
    assert_true(sb_pg_conf_text(&c, text, sizeof text) > 0);
    assert_non_null(strstr(text, "shared_buffers = '16384kB'\t# the experiment's pool_size\n"));
    assert_non_null(strstr(text, "listen_addresses = ''\t#"));
    assert_non_null(strstr(text, "unix_socket_directories = '/tmp/scanbench-pg.x''y'"));
    assert_int_equal(sb_pg_conf_text(&c, text, 64), -1);
    j = sb_pg_conf_json(&c);
    assert_string_equal(json_string_value(json_object_get(j, "wal_level")), "minimal");
    json_decref(j);
    sb_pg_conf_build(&c, 170000, "/tmp/x", 128 * 1024, 2, NULL);
    assert_null(sb_pg_conf_get(&c, "vacuum_buffer_usage_limit")); /* the server's own ring */
    assert_string_equal(sb_pg_conf_get(&c, "shared_buffers"), "128kB");
    assert_string_equal(sb_pg_conf_get(&c, "max_parallel_workers_per_gather"), "2");

    /* the thread's 8.1: shared_buffers in buffers, none of the settings it lacks */
    sb_pg_conf_build(&c, 80121, "/tmp/x", 680 * 1024, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "shared_buffers"), "85");
    assert_string_equal(sb_pg_conf_get(&c, "unix_socket_directory"), "/tmp/x");
    assert_null(sb_pg_conf_get(&c, "unix_socket_directories"));
    assert_null(sb_pg_conf_get(&c, "synchronize_seqscans"));
    assert_null(sb_pg_conf_get(&c, "max_parallel_workers_per_gather"));
    assert_null(sb_pg_conf_get(&c, "wal_level"));
    assert_null(sb_pg_conf_get(&c, "max_wal_senders"));
    assert_null(sb_pg_conf_get(&c, "jit"));
    assert_null(sb_pg_conf_get(&c, "wal_skip_threshold"));
    assert_string_equal(sb_pg_conf_get(&c, "autovacuum"), "off");
    assert_string_equal(sb_pg_conf_get(&c, "full_page_writes"), "off");
    /* 8.2: units; 8.3: synchronized scans; 9.0: wal_level; 9.3: socket directories */
    sb_pg_conf_build(&c, 80217, "/tmp/x", 680 * 1024, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "shared_buffers"), "680kB");
    assert_null(sb_pg_conf_get(&c, "synchronize_seqscans"));
    sb_pg_conf_build(&c, 80311, "/tmp/x", 16u << 20, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "synchronize_seqscans"), "off");
    assert_null(sb_pg_conf_get(&c, "wal_level"));
    sb_pg_conf_build(&c, 90000, "/tmp/x", 16u << 20, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "wal_level"), "minimal");
    assert_string_equal(sb_pg_conf_get(&c, "unix_socket_directory"), "/tmp/x");
    sb_pg_conf_build(&c, 90300, "/tmp/x", 16u << 20, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "unix_socket_directories"), "/tmp/x");
    assert_null(sb_pg_conf_get(&c, "max_parallel_workers_per_gather"));
    /* before 8.4 the postmaster wants shared_buffers >= 2 x MaxBackends (8.3: max_connections
     * + 3 autovacuum workers): the 128kB pool's 16 buffers allow 8 connections, 5 on 8.3 */
    sb_pg_conf_build(&c, 80121, "/tmp/x", 128 * 1024, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "max_connections"), "8");
    sb_pg_conf_build(&c, 80311, "/tmp/x", 128 * 1024, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "max_connections"), "5");
    sb_pg_conf_build(&c, 80311, "/tmp/x", 208 * 1024, 0, NULL); /* 26 buffers: 13 - 3 */
    assert_string_equal(sb_pg_conf_get(&c, "max_connections"), "10");
    sb_pg_conf_build(&c, 80217, "/tmp/x", 144 * 1024, 0, NULL); /* 18 buffers */
    assert_string_equal(sb_pg_conf_get(&c, "max_connections"), "9");
    sb_pg_conf_build(&c, 150020, "/tmp/x", 128 * 1024, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "max_connections"), "10");
}

/* The version lines the real 8.1, 8.2 and 8.3 servers printed (tests/data/pg/server-V.txt,
 * recorded by tests/data/pg/capture.sh): parsed, and their number gives each version's
 * settings (shared_buffers in buffers on 8.1 only, synchronize_seqscans from 8.3). */
static void test_version_recorded(void **state)
{
    static const struct {
        const char *file;
        int num;
        const char *shared_buffers;
    } servers[] = {{"pg/server-8.1.txt", 80121, "2048"},
                   {"pg/server-8.2.txt", 80217, "16384kB"},
                   {"pg/server-8.3.txt", 80311, "16384kB"}};
    (void)state;

    for (size_t i = 0; i < sizeof servers / sizeof *servers; i++) {
        char *path = sbtest_data_path(servers[i].file), *text = sbtest_read_file(path, NULL);
        char v[128];
        int major = 0;
        struct sb_pg_conf c;

        assert_true(sb_pg_parse_version(text, v, sizeof v, &major));
        assert_int_equal(major, 8);
        assert_int_equal(sb_pg_version_num(v), servers[i].num);
        sb_pg_conf_build(&c, sb_pg_version_num(v), "/tmp/x", 16u << 20, 0, NULL);
        assert_string_equal(sb_pg_conf_get(&c, "shared_buffers"), servers[i].shared_buffers);
        assert_true((sb_pg_conf_get(&c, "synchronize_seqscans") != NULL) ==
                    (servers[i].num >= 80300));
        /* what the server itself said of the statements scanbench pg does not speak there */
        assert_non_null(strstr(text, "VACUUM (VERBOSE) t"));
        assert_non_null(strstr(text, "ERROR:  syntax error at or near \"(\""));
        free(text);
        free(path);
    }
}

/* The statements by version: what 8.1-8.3 take (tests/data/pg/server-8.x.txt: VACUUM without
 * parentheses, no json_object_agg, no pg_relation_filepath), what 9.6 on take; and the rule of
 * the thread's servers, without rings. */
static void test_sql_by_version(void **state)
{
    char sql[600], path[128];
    uint64_t filenode = 0;
    struct sb_pg_placement p;
    (void)state;

    assert_true(sb_pg_sql_spoken(80121));
    assert_true(sb_pg_sql_spoken(80311));
    assert_false(sb_pg_sql_spoken(80400));
    assert_false(sb_pg_sql_spoken(90524));
    assert_true(sb_pg_sql_spoken(90600));
    assert_true(sb_pg_sql_spoken(150020));
    assert_false(sb_pg_sql_spoken(80023));

    sb_pg_sql_vacuum(80121, false, -1, "lineitem", sql, sizeof sql);
    assert_string_equal(sql, "VACUUM lineitem");
    sb_pg_sql_vacuum(80121, true, -1, "lineitem", sql, sizeof sql);
    assert_string_equal(sql, "VACUUM VERBOSE lineitem");
    sb_pg_sql_vacuum(150020, true, -1, "lineitem", sql, sizeof sql);
    assert_string_equal(sql, "VACUUM (VERBOSE, DISABLE_PAGE_SKIPPING) lineitem");
    sb_pg_sql_vacuum(90600, false, -1, "lineitem", sql, sizeof sql);
    assert_string_equal(sql, "VACUUM (DISABLE_PAGE_SKIPPING) lineitem");

    assert_null(strstr(sb_pg_sql_settings(80121), "json_object_agg"));
    assert_null(strstr(sb_pg_sql_settings(80121), "\\")); /* no backslash escapes */
    assert_non_null(strstr(sb_pg_sql_settings(150020), "json_object_agg"));

    sb_pg_sql_relation_file(80121, "lineitem", sql, sizeof sql);
    assert_null(strstr(sql, "pg_relation_filepath"));
    /* what 8.1 answered for a table in pg_default (relfilenode 16384, reltablespace 0) */
    assert_true(sb_pg_parse_relation_file(80121, "16384 0 1", &filenode, path, sizeof path));
    assert_int_equal(filenode, 16384);
    assert_string_equal(path, "base/1/16384");
    assert_true(sb_pg_parse_relation_file(80217, "16390 16385 10793", &filenode, path,
                                          sizeof path));
    assert_string_equal(path, "pg_tblspc/16385/10793/16390");
    assert_false(sb_pg_parse_relation_file(80121, "16384 0", &filenode, path, sizeof path));
    assert_true(sb_pg_parse_relation_file(150020, "16390 pg_tblspc/16385/PG_15_202209061/5/16390",
                                          &filenode, path, sizeof path));
    assert_int_equal(filenode, 16390);
    assert_string_equal(path, "pg_tblspc/16385/PG_15_202209061/5/16390");
    assert_false(sb_pg_parse_relation_file(150020, "16390", &filenode, path, sizeof path));

    sb_pg_sql_occupancy(80121, 16384, 1, sql, sizeof sql);
    assert_null(strstr(sql, "FILTER"));
    assert_null(strstr(sql, "relforknumber")); /* no forks before 8.4 */
    sb_pg_sql_occupancy(150020, 16384, 5, sql, sizeof sql);
    assert_non_null(strstr(sql, "FILTER (WHERE relfilenode = 16384 AND relforknumber = 0"));
    assert_false(sb_pg_sql_explains_buffers(80311));
    assert_true(sb_pg_sql_explains_buffers(90600));
    assert_false(sb_pg_sql_extensions(80311));
    assert_true(sb_pg_sql_extensions(90600));

    /* 8.1 and 8.2: no ring for either op, however large the table */
    sb_pg_placement_decide("count", 65536, 2048, 8192, 80121, &p);
    assert_string_equal(p.policy, "clock");
    assert_int_equal(p.footprint, 2048 * 8192);
    sb_pg_placement_decide("vacuum", 65536, 85, 8192, 80217, &p);
    assert_string_equal(p.policy, "clock");
    assert_int_equal(p.footprint, 85 * 8192);
    assert_non_null(strstr(p.why, "no ring before PostgreSQL 8.3"));
    sb_pg_placement_decide("vacuum", 65536, 2048, 8192, 80311, &p); /* 8.3: its ring */
    assert_string_equal(p.policy, "ring");
}

/* server_version_num from the version `postgres --version` prints, as each server we built
 * printed it (8.1.21, 8.2.17, 8.3.11) and Debian's 15 does. */
static void test_version_num(void **state)
{
    (void)state;
    assert_int_equal(sb_pg_version_num("8.1.21"), 80121);
    assert_int_equal(sb_pg_version_num("8.2.17"), 80217);
    assert_int_equal(sb_pg_version_num("8.3.11"), 80311);
    assert_int_equal(sb_pg_version_num("9.6.24"), 90624);
    assert_int_equal(sb_pg_version_num("15.20 (Debian 15.20-0+deb12u1)"), 150020);
    assert_int_equal(sb_pg_version_num("17devel"), 170000);
    assert_int_equal(sb_pg_version_num("8.3beta1"), 80300);
    assert_int_equal(sb_pg_version_num("8"), 80000);
    assert_int_equal(sb_pg_version_num("x8.1"), 0);
    assert_int_equal(sb_pg_version_num("5.1"), 0);
    assert_int_equal(sb_pg_version_num("8."), 0);
}

static void test_parse_version(void **state)
{
    char v[128];
    int major = 0;
    (void)state;

    assert_true(sb_pg_parse_version("postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n", v,
                                    sizeof v, &major));
    assert_string_equal(v, "15.20 (Debian 15.20-0+deb12u1)");
    assert_int_equal(major, 15);
    assert_true(sb_pg_parse_version("postgres (PostgreSQL) 9.6.24\n", v, sizeof v, &major));
    assert_int_equal(major, 9);
    assert_true(sb_pg_parse_version("postgres (PostgreSQL) 17devel", v, sizeof v, &major));
    assert_int_equal(major, 17);
    assert_false(sb_pg_parse_version("bash: postgres: not found", v, sizeof v, &major));
}

/* EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) SELECT count(*), PostgreSQL 15 (cut). */
static const char explain_json[] =
    "[\n  {\n    \"Plan\": {\n      \"Node Type\": \"Aggregate\",\n      \"Actual Rows\": 1,\n"
    "      \"Shared Hit Blocks\": 64,\n      \"Shared Read Blocks\": 32704,\n"
    "      \"Shared Dirtied Blocks\": 0,\n      \"Shared Written Blocks\": 0,\n"
    "      \"Plans\": [\n        {\n          \"Node Type\": \"Seq Scan\",\n"
    "          \"Shared Hit Blocks\": 64,\n          \"Shared Read Blocks\": 32704,\n"
    "          \"Actual Rows\": 1798959,\n"
    "          \"Shared Dirtied Blocks\": 0\n        }\n      ]\n    },\n"
    "    \"Planning\": {\n      \"Shared Hit Blocks\": 3,\n      \"Shared Read Blocks\": 9\n"
    "    },\n    \"Execution Time\": 273.719\n  }\n]";

/* The first count(*) after the load on PostgreSQL 15 (cut): it sets every tuple's hint bits, so
 * it dirties all 512 pages; through a 16-buffer ring the backend writes most of them back as it
 * reuses the ring's buffers. */
static const char explain_first_json[] =
    "[{\"Plan\": {\"Node Type\": \"Aggregate\", \"Actual Rows\": 1, \"Shared Hit Blocks\": 0, "
    "\"Shared Read Blocks\": 512, \"Shared Dirtied Blocks\": 512, \"Shared Written Blocks\": 385, "
    "\"Plans\": [{\"Node Type\": \"Seq Scan\", \"Actual Rows\": 28103}]}}]";

static void test_parse_explain(void **state)
{
    struct sb_pg_buffers b;
    (void)state;

    assert_true(sb_pg_parse_explain(explain_json, &b));
    assert_true(b.have);
    assert_int_equal(b.hit, 64);    /* the plan's, not planning's 3 */
    assert_int_equal(b.read, 32704);
    assert_int_equal(b.dirtied, 0);
    assert_true(b.have_written);
    assert_int_equal(b.written, 0);
    assert_true(b.have_rows);
    assert_int_equal(b.rows, 1798959); /* the Seq Scan's rows, not the Aggregate's 1 */
    assert_true(sb_pg_parse_explain(explain_first_json, &b));
    assert_int_equal(b.dirtied, 512);
    assert_int_equal(b.written, 385);
    assert_false(sb_pg_parse_explain("[{\"Plan\": {\"Node Type\": \"Seq Scan\"}}]", &b));
    assert_false(b.have);
    assert_false(sb_pg_parse_explain("QUERY PLAN", &b));
}

/* VACUUM (VERBOSE, DISABLE_PAGE_SKIPPING) lineitem on PostgreSQL 15, as the notice processor
 * collects it: the table, then its TOAST table. */
static const char vacuum_verbose[] =
    "INFO:  aggressively vacuuming \"postgres.public.lineitem\"\n"
    "INFO:  finished vacuuming \"postgres.public.lineitem\": index scans: 0\n"
    "pages: 0 removed, 32768 remain, 32768 scanned (100.00% of total)\n"
    "tuples: 0 removed, 1798959 remain, 0 are dead but not yet removable\n"
    "avg read rate: 1597.385 MB/s, avg write rate: 0.000 MB/s\n"
    "buffer usage: 34667 hits, 30890 misses, 0 dirtied\n"
    "WAL usage: 0 records, 0 full page images, 0 bytes\n"
    "INFO:  aggressively vacuuming \"postgres.pg_toast.pg_toast_16384\"\n"
    "INFO:  finished vacuuming \"postgres.pg_toast.pg_toast_16384\": index scans: 0\n"
    "buffer usage: 6 hits, 0 misses, 0 dirtied\n";

static void test_parse_vacuum(void **state)
{
    struct sb_pg_buffers b;
    (void)state;

    assert_true(sb_pg_parse_vacuum_verbose(vacuum_verbose, "public.lineitem", &b));
    assert_int_equal(b.hit, 34667);
    assert_int_equal(b.read, 30890);
    assert_int_equal(b.dirtied, 0);
    /* the TOAST table's figures are not taken for the table's */
    assert_true(sb_pg_parse_vacuum_verbose(vacuum_verbose + strlen("INFO:  aggressively "
                                           "vacuuming \"postgres.public.lineitem\"\n"),
                                           "public.lineitem", &b));
    assert_int_equal(b.read, 30890);
    assert_false(sb_pg_parse_vacuum_verbose(vacuum_verbose, "public.orders", &b));
    assert_false(sb_pg_parse_vacuum_verbose("VACUUM\n", "public.lineitem", &b));
}

/* The write counters: pg_stat_bgwriter's (PostgreSQL 15) and pg_stat_io's (16+), as the
 * queries of sb_pg_write_counters_sql return them. */
static const char bgwriter_before[] = "{\"checkpoints_requested\" : 4, \"buffers_backend\" : 1426, "
                                      "\"buffers_checkpoint\" : 128, \"buffers_clean\" : 0}";
static const char bgwriter_after[] = "{\"checkpoints_requested\" : 6, \"buffers_backend\" : 1819, "
                                     "\"buffers_checkpoint\" : 248, \"buffers_clean\" : 3}";
static const char io_before[] =
    "{\"checkpoints_requested\" : 2, \"io\" : [{\"backend_type\" : \"client backend\", "
    "\"context\" : \"bulkread\", \"writes\" : 10}, {\"backend_type\" : \"client backend\", "
    "\"context\" : \"normal\", \"writes\" : 5}, {\"backend_type\" : \"checkpointer\", "
    "\"context\" : \"normal\", \"writes\" : 100}]}";
static const char io_after[] =
    "{\"checkpoints_requested\" : 4, \"io\" : [{\"backend_type\" : \"client backend\", "
    "\"context\" : \"bulkread\", \"writes\" : 395}, {\"backend_type\" : \"client backend\", "
    "\"context\" : \"normal\", \"writes\" : 5}, {\"backend_type\" : \"client backend\", "
    "\"context\" : \"vacuum\", \"writes\" : 7}, {\"backend_type\" : \"autovacuum worker\", "
    "\"context\" : \"vacuum\", \"writes\" : 50}, {\"backend_type\" : \"checkpointer\", "
    "\"context\" : \"normal\", \"writes\" : 220}, {\"backend_type\" : \"background writer\", "
    "\"context\" : \"normal\", \"writes\" : 1}]}";

static void test_parse_write_counters(void **state)
{
    struct sb_pg_write_counters before, after, d;
    (void)state;

    assert_non_null(strstr(sb_pg_write_counters_sql(15), "FROM pg_stat_bgwriter"));
    assert_non_null(strstr(sb_pg_write_counters_sql(16), "FROM pg_stat_io"));
    assert_non_null(strstr(sb_pg_write_counters_sql(16), "checkpoints_req FROM pg_stat_bgwriter"));
    assert_non_null(strstr(sb_pg_write_counters_sql(17), "num_requested FROM pg_stat_checkpointer"));
    assert_null(sb_pg_write_counters_sql(8));

    assert_true(sb_pg_parse_write_counters(bgwriter_before, &before));
    assert_true(sb_pg_parse_write_counters(bgwriter_after, &after));
    assert_false(after.from_io);
    sb_pg_write_counters_delta(&before, &after, &d);
    assert_true(d.have);
    assert_int_equal(d.checkpoints_requested, 2);
    assert_int_equal(d.backend, 393);      /* 1819 - 1426 */
    assert_int_equal(d.checkpointer, 120); /* 248 - 128 */
    assert_int_equal(d.bgwriter, 3);

    /* pg_stat_io: client backends' writes summed over contexts (10 + 5 -> 395 + 5 + 7: 392
     * more, 385 of them in bulkread, 7 in vacuum); the autovacuum worker's are not ours */
    assert_true(sb_pg_parse_write_counters(io_before, &before));
    assert_true(sb_pg_parse_write_counters(io_after, &after));
    assert_true(after.from_io);
    sb_pg_write_counters_delta(&before, &after, &d);
    assert_true(d.from_io);
    assert_int_equal(d.backend, 392);
    assert_int_equal(d.backend_by_context[SB_PG_IO_BULKREAD], 385);
    assert_int_equal(d.backend_by_context[SB_PG_IO_NORMAL], 0);
    assert_int_equal(d.backend_by_context[SB_PG_IO_VACUUM], 7);
    assert_int_equal(d.checkpointer, 120);
    assert_int_equal(d.bgwriter, 1);

    assert_false(sb_pg_parse_write_counters("{\"buffers_backend\" : 1}", &before));
    assert_false(before.have);
    assert_false(sb_pg_parse_write_counters("{\"checkpoints_requested\" : 1, \"io\" : "
                                            "[{\"backend_type\" : \"checkpointer\"}]}", &before));
    assert_false(sb_pg_parse_write_counters("", &before));
}

/* scanbench's model in kind (writeback = evict: vacuum always writes; count only the first scan
 * after the load, whose hint bits it sets) and the server's kind from its figures. */
static void test_write_agreement(void **state)
{
    struct sb_pg_scan_writes w;
    (void)state;

    assert_string_equal(sb_pg_model_expects("count", true), "writes");
    assert_string_equal(sb_pg_model_expects("count", false), "writes nothing");
    assert_string_equal(sb_pg_model_expects("vacuum", true), "writes");
    assert_string_equal(sb_pg_model_expects("vacuum", false), "writes nothing");

    memset(&w, 0, sizeof w);
    assert_null(sb_pg_server_writes(&w)); /* not measured */
    w.measured = true;
    assert_null(sb_pg_server_writes(&w)); /* no figure */
    w.buffers.have = true;                /* dirtied 0, no written figure: VACUUM VERBOSE's */
    assert_string_equal(sb_pg_server_writes(&w), "writes nothing");
    w.counters.have = true; /* the counters do not overrule the statement's own figures */
    w.counters.checkpointer = 2;
    assert_string_equal(sb_pg_server_writes(&w), "writes nothing");
    w.buffers.have_written = true;
    w.buffers.written = 1;
    assert_string_equal(sb_pg_server_writes(&w), "writes");
    w.buffers.written = 0;
    w.buffers.dirtied = 512; /* a clock sweep: dirtied, written later by the checkpoint */
    assert_string_equal(sb_pg_server_writes(&w), "writes");
    w.buffers.have = false; /* only the counters */
    assert_string_equal(sb_pg_server_writes(&w), "writes");
    w.counters.checkpointer = 0;
    assert_string_equal(sb_pg_server_writes(&w), "writes nothing");
}

static int plan_of(const char *const *sets, struct sb_experiment *exp, struct sb_plan *plan)
{
    struct sb_error err = {0};

    sbtest_experiment_from_sets(exp, sets);
    return sb_plan_build(exp, &big_limit, plan, &err);
}

static void test_jobs(void **state)
{
    static const char *const sets[] = {"name=t", "table_size=4M", "pool_size=1M,16M",
                                       "policy=clock,ring", "op=none,count,vacuum", NULL};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_pg_jobs jobs;
    struct sb_error err = {0};
    char note[512];
    (void)state;

    assert_int_equal(plan_of(sets, &exp, &plan), SB_OK);
    assert_int_equal(plan.nruns, 12);
    assert_int_equal(sb_pg_jobs_build(&plan, &exp, true, &jobs, &err), SB_OK);
    /* policy makes no jobs, op none none: count and vacuum over two pools */
    assert_int_equal(jobs.n, 4);
    assert_string_equal(jobs.jobs[0].op, "count");
    assert_int_equal(jobs.jobs[0].pool_size, 1u << 20);
    assert_int_equal(jobs.jobs[1].pool_size, 16u << 20);
    assert_string_equal(jobs.jobs[2].op, "vacuum");
    assert_int_equal(jobs.jobs[0].table.rows_per_page, 61);
    assert_non_null(strstr(jobs.notes, "op none left out"));
    /* every plan run finds its job, whatever its policy */
    for (size_t r = 0; r < plan.nruns; r++)
        if (strcmp(plan.runs[r].op->name, "none") != 0)
            assert_non_null(sb_pg_jobs_find(&jobs, &plan.runs[r]));
    assert_int_equal(sb_pg_jobs_disk_need(&jobs), 2 * (4u << 20) + (4u << 20) / 8 + (256u << 20));
    sb_pg_ignored_keys_note(&exp, note, sizeof note);
    assert_non_null(strstr(note, "policy ignored"));
    assert_null(strstr(note, "kernel ignored")); /* left at its default */
    sb_pg_jobs_free(&jobs);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

static void test_jobs_small_pool(void **state)
{
    static const char *const sets[] = {"table_size=4M", "ring_size=8K", "pool_size=64K,1M",
                                       NULL};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_pg_jobs jobs;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(plan_of(sets, &exp, &plan), SB_OK);
    assert_int_equal(sb_pg_jobs_build(&plan, &exp, true, &jobs, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "--set pool_size=64K,1M: pool_size: 64KB is below "
                                    "PostgreSQL's minimum shared_buffers (128kB)"));
    assert_int_equal(sb_pg_jobs_build(&plan, &exp, false, &jobs, &err), SB_OK);
    assert_int_equal(jobs.n, 1);
    assert_non_null(strstr(jobs.notes, "below PostgreSQL's minimum"));
    sb_pg_jobs_free(&jobs);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

static void test_jobs_row_width(void **state)
{
    static const char *const sets[] = {"table_size=4M", "row_width=40", NULL};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_pg_jobs jobs;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(plan_of(sets, &exp, &plan), SB_OK);
    assert_int_equal(sb_pg_jobs_build(&plan, &exp, true, &jobs, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "--set row_width=40: row_width: 40 bytes"));
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* Keys the server runs cannot honour: refused by scanbench pg with their origin, noted by
 * reproduce --pg; their defaults, however spelled, pass. */
static void test_check_keys(void **state)
{
    /* oversubscribe: a host of one core plans the two scanners too */
    static const char *const threads[] = {"table_size=4M", "threads=1,2", "oversubscribe=yes",
                                          NULL};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_pg_jobs jobs;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_string(&exp, "[experiment]\nname = t\nbigtable = yes\n",
                                               "x.ini", &err), SB_OK);
    assert_int_equal(sb_pg_check_keys(&exp, false, &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "x.ini:3: bigtable: scanbench pg scans a table the OS cache "
                                 "holds; bigtable = yes is not supported");
    sb_experiment_free(&exp);

    assert_int_equal(plan_of(threads, &exp, &plan), SB_OK);
    /* threads are backends at once on the interleaved schedule, refused on the blocked one */
    assert_int_equal(sb_pg_check_keys(&exp, false, &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set threads=1,2: threads: reproduce --pg and schedule = "
                                 "blocked run one backend; threads = 2 is not supported");
    assert_int_equal(sb_pg_check_keys(&exp, true, &err), SB_ERR_INPUT); /* oversubscribe */
    assert_non_null(strstr(err.msg, "oversubscribe"));
    assert_int_equal(sb_pg_jobs_build(&plan, &exp, false, &jobs, &err), SB_OK);
    assert_int_equal(jobs.n, 1);
    assert_int_equal(jobs.jobs[0].threads, 1);
    assert_non_null(strstr(jobs.notes, "threads = 2: not on the server (reproduce --pg and "
                                       "schedule = blocked run one backend); oversubscribe = "
                                       "yes: not on the server"));
    sb_pg_jobs_free(&jobs);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
    {
        /* oversubscribe for the plan on a host of one core, then back to its default */
        static const char *const two[] = {"table_size=4M", "threads=1,2", "op=count",
                                          "oversubscribe=yes", NULL};
        assert_int_equal(plan_of(two, &exp, &plan), SB_OK);
        assert_int_equal(sb_experiment_set(&exp, "oversubscribe=no", &err), SB_OK);
        assert_int_equal(sb_pg_check_keys(&exp, true, &err), SB_OK);
        assert_int_equal(sb_pg_jobs_build(&plan, &exp, true, &jobs, &err), SB_OK);
        assert_int_equal(jobs.n, 2); /* one backend and two: two jobs */
        assert_int_equal(jobs.jobs[0].threads, 1);
        assert_int_equal(jobs.jobs[1].threads, 2);
        assert_ptr_equal(sb_pg_jobs_find(&jobs, &plan.runs[1]), &jobs.jobs[1]);
    }
    sb_pg_jobs_free(&jobs);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "threads=01", &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "bigtable=off", &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "shared_pool=no", &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "pool_node=local", &err), SB_OK);
    assert_int_equal(sb_pg_check_keys(&exp, false, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "require_counters=yes", &err), SB_OK);
    assert_int_equal(sb_pg_check_keys(&exp, false, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "require_counters: scanbench pg reads no counters"));
    sb_experiment_free(&exp);

    /* issue 15: a note with a long UTF-8 data_dir, whole and UTF-8 (the report holds the
     * notes: it was cut at 319 bytes, inside a character) */
    {
        char set[600] = "data_dir=/";
        const char *const sets[] = {"table_size=4M", set, NULL};
        for (int i = 0; i < 250; i++)
            strcat(set, "\xc3\xa9");
        assert_int_equal(plan_of(sets, &exp, &plan), SB_OK);
        assert_int_equal(sb_pg_jobs_build(&plan, &exp, false, &jobs, &err), SB_OK);
        assert_true(sb_utf8_valid(jobs.notes));
        assert_non_null(strstr(jobs.notes, set + strlen("data_dir=")));
        sb_pg_jobs_free(&jobs);
        sb_plan_free(&plan);
        sb_experiment_free(&exp);
    }
}

/* A measurement of a 4MB table (512 pages of 8KB) by server version (num: its
 * server_version_num) in a pool of nbuffers, op placed by the server's rule, timed
 * nreps times. */
static void measured(struct sb_pg_measurement *m, const char *version, int num, const char *op,
                     uint64_t nbuffers, const double *seconds, uint32_t nreps)
{
    memset(m, 0, sizeof *m);
    snprintf(m->server_version, sizeof m->server_version, "%s", version);
    m->relation_bytes = 4u << 20;
    m->block_size = 8192;
    m->nbuffers = nbuffers;
    sb_pg_placement_decide(op, 512, nbuffers, 8192, num, &m->placement);
    m->nreps = nreps;
    m->seconds = seconds;
}

static void test_record(void **state)
{
    static const char *const sets[] = {"name=t", "table_size=4M", "pool_size=1M", NULL};
    static const double seconds[] = {0.004, 0.005};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_pg_jobs jobs;
    struct sb_pg_measurement m;
    struct sb_error err = {0};
    json_t *run, *doc, *loaded, *writes, *first, *later;
    char path[] = "/tmp/test_pg.XXXXXX";
    int fd;
    (void)state;

    assert_int_equal(plan_of(sets, &exp, &plan), SB_OK);
    assert_int_equal(sb_pg_jobs_build(&plan, &exp, true, &jobs, &err), SB_OK);
    measured(&m, "15.20 (Debian)", 150020, "count", 128, seconds, 2);
    m.counts_ok = true;
    m.scans_counted = 4;
    m.buffers.have = true;
    m.buffers.read = 512;
    m.buffers_source = "EXPLAIN (ANALYZE, BUFFERS)";
    m.have_occupancy = true;
    m.table_buffers = 16;
    m.used_buffers = 40;
    m.first_scan.measured = true; /* the first count after the load: dirtied and written */
    m.first_scan.first_after_load = true;
    m.first_scan.buffers_source = "EXPLAIN (ANALYZE, BUFFERS)";
    snprintf(m.first_scan.counters_why, sizeof m.first_scan.counters_why, "no statistics");
    assert_true(sb_pg_parse_explain(explain_first_json, &m.first_scan.buffers));
    assert_true(sb_pg_parse_write_counters(bgwriter_before, &m.later_scan.counters));
    m.later_scan.measured = true; /* a later count: nothing dirtied, nothing written */
    m.later_scan.buffers_source = "EXPLAIN (ANALYZE, BUFFERS)";
    assert_true(sb_pg_parse_explain(explain_json, &m.later_scan.buffers));
    sb_pg_write_counters_delta(&m.later_scan.counters, &m.later_scan.counters,
                               &m.later_scan.counters);
    run = sb_pg_record(&jobs.jobs[0], &m);
    assert_non_null(run);
    writes = json_object_get(json_object_get(run, "postgresql"), "writes");
    first = json_object_get(writes, "first_scan_after_load");
    later = json_object_get(writes, "later_scan");
    assert_int_equal(json_integer_value(json_object_get(first, "shared_written")), 385);
    assert_string_equal(json_string_value(json_object_get(first, "server")), "writes");
    assert_string_equal(json_string_value(json_object_get(first, "scanbench_expects")), "writes");
    assert_string_equal(json_string_value(json_object_get(first, "agreement")), "agrees");
    assert_true(json_is_true(json_object_get(first, "first_after_load")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(first, "counters"),
                                                          "unavailable")), "no statistics");
    assert_int_equal(json_integer_value(json_object_get(later, "shared_written")), 0);
    assert_string_equal(json_string_value(json_object_get(later, "server")), "writes nothing");
    assert_string_equal(json_string_value(json_object_get(later, "scanbench_expects")),
                        "writes nothing");
    assert_string_equal(json_string_value(json_object_get(later, "agreement")), "agrees");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(later, "counters"),
                                                        "backend")), 0);
    assert_string_equal(json_string_value(json_object_get(run, "source")), "postgresql");
    assert_string_equal(json_string_value(json_object_get(run, "kernel")), "postgresql");
    assert_string_equal(json_string_value(json_object_get(run, "policy")), "ring");
    assert_int_equal(json_integer_value(json_object_get(run, "ring_size")), 128 * 1024);
    assert_int_equal(json_integer_value(json_object_get(run, "pool_size")), 1u << 20);
    /* MB/s: 4194304 bytes / 0.004 s = 1048.576 */
    assert_true(json_number_value(json_object_get(json_object_get(run, "mbps"), "best")) >
                1048.57);
    assert_string_equal(json_string_value(json_object_get(json_object_get(run, "postgresql"),
                                                          "server_version")), "15.20 (Debian)");
    assert_true(json_is_true(json_object_get(json_object_get(json_object_get(run, "postgresql"),
                                                             "occupancy"), "consistent")));
    /* a report holding it reads back as one compare accepts */
    doc = json_pack("{s:s, s:i, s:{}, s:[o]}", "schema", "scanbench-report", "schema_version", 1,
                    "context", "runs", run);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(doc, path, 0), 0);
    assert_int_equal(sb_report_load(path, &loaded, &err), SB_OK);
    json_decref(loaded);
    unlink(path);
    json_decref(doc);
    sb_pg_jobs_free(&jobs);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* Key statements on the server: "select, vacuum" is a VACUUM timed right after an untimed
 * count (the thread's history), a job of its own beside a plain VACUUM; the record lists both
 * statements, the last the one timed. */
static void test_statements(void **state)
{
    static const char *const sets[] = {"table_size=4M", "statements=select, vacuum", NULL};
    static const double seconds[] = {0.004};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_pg_jobs jobs;
    struct sb_pg_measurement m;
    struct sb_error err = {0};
    json_t *run, *list;
    (void)state;

    assert_int_equal(plan_of(sets, &exp, &plan), SB_OK);
    assert_int_equal(sb_pg_check_keys(&exp, true, &err), SB_OK);
    assert_int_equal(sb_pg_jobs_build(&plan, &exp, true, &jobs, &err), SB_OK);
    assert_int_equal(jobs.n, plan.nruns);
    assert_string_equal(jobs.jobs[0].op, "vacuum");
    assert_int_equal(jobs.jobs[0].nbefore, 1);
    assert_string_equal(jobs.jobs[0].before[0], "count");
    assert_ptr_equal(sb_pg_jobs_find(&jobs, &plan.runs[0]), &jobs.jobs[0]);
    measured(&m, "8.1.21", 80121, "vacuum", 2048, seconds, 1);
    run = sb_pg_record(&jobs.jobs[0], &m);
    list = json_object_get(run, "statements");
    assert_int_equal(json_array_size(list), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(list, 0), "op")),
                        "count");
    assert_true(json_is_false(json_object_get(json_array_get(list, 0), "measured")));
    assert_string_equal(json_string_value(json_object_get(json_array_get(list, 1), "op")),
                        "vacuum");
    assert_true(json_is_true(json_object_get(json_array_get(list, 1), "measured")));
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(run, "postgresql"),
                                                             "each_timed_scan")),
                           "followed by the statements before it"));
    assert_non_null(strstr(json_string_value(json_array_get(json_object_get(json_object_get(
                               run, "validation"), "checked"), 0)),
                           "and the count(*) before it"));
    json_decref(run);
    sb_pg_jobs_free(&jobs);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* A run of the interleaved schedule with two backends: each scan's round, position and time,
 * its bytes both tables' (MB/s summed), each backend's own seconds; the record's own name. */
static void test_record_rounds(void **state)
{
    static const char *const sets[] = {"name=t", "table_size=4M", "pool_size=1M", NULL};
    static const double seconds[] = {0.004, 0.008}, at[] = {1.5, 3.25};
    static const double each[] = {0.003, 0.004, 0.008, 0.002};
    static const uint32_t rounds[] = {0, 1}, positions[] = {2, 0};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_pg_jobs jobs;
    struct sb_pg_measurement m;
    struct sb_error err = {0};
    json_t *run, *scan, *backends;
    (void)state;

    assert_int_equal(plan_of(sets, &exp, &plan), SB_OK);
    assert_int_equal(sb_pg_jobs_build(&plan, &exp, true, &jobs, &err), SB_OK);
    measured(&m, "8.1.21", 80121, "count", 128, seconds, 2);
    snprintf(m.statement, sizeof m.statement, "VACUUM lineitem");
    m.rounds = rounds;
    m.positions = positions;
    m.at = at;
    m.backends = 2;
    m.backend_seconds = each;
    m.name = "t server=8.1.21";
    m.counts_ok = true;
    run = sb_pg_record(&jobs.jobs[0], &m);
    assert_non_null(run);
    assert_string_equal(json_string_value(json_object_get(run, "name")), "t server=8.1.21");
    assert_string_equal(json_string_value(json_object_get(run, "policy")), "clock");
    assert_int_equal(json_integer_value(json_object_get(run, "bytes_per_scan")), 8u << 20);
    scan = json_array_get(json_object_get(run, "scans"), 1);
    assert_int_equal(json_integer_value(json_object_get(scan, "round")), 1);
    assert_int_equal(json_integer_value(json_object_get(scan, "position")), 0);
    assert_true(json_number_value(json_object_get(scan, "at")) == 3.25);
    assert_int_equal(json_integer_value(json_object_get(scan, "bytes")), 8u << 20);
    /* 8388608 bytes / 0.008 s = 1048.576 MB/s */
    assert_true(fabs(json_number_value(json_object_get(scan, "mbps")) - 1048.576) < 1e-6);
    backends = json_object_get(scan, "backend_seconds");
    assert_int_equal(json_array_size(backends), 2);
    assert_true(json_number_value(json_array_get(backends, 0)) == 0.008);
    assert_true(json_number_value(json_array_get(backends, 1)) == 0.002);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
                         run, "postgresql"), "backends"), "count")), 2);
    assert_string_equal(json_string_value(json_object_get(json_object_get(run, "postgresql"),
                                                          "statement")), "VACUUM lineitem");
    json_decref(run);

    /* blocked: repetition r is round r at position 0, no time since the rounds began */
    m.rounds = m.positions = NULL;
    m.at = NULL;
    m.backends = 0;
    m.name = NULL;
    run = sb_pg_record(&jobs.jobs[0], &m);
    scan = json_array_get(json_object_get(run, "scans"), 1);
    assert_int_equal(json_integer_value(json_object_get(scan, "round")), 1);
    assert_true(json_is_null(json_object_get(scan, "at")));
    assert_int_equal(json_integer_value(json_object_get(scan, "bytes")), 4u << 20);
    assert_null(json_object_get(scan, "backend_seconds"));
    assert_null(json_object_get(json_object_get(run, "postgresql"), "backends"));
    assert_string_equal(json_string_value(json_object_get(run, "name")),
                        jobs.jobs[0].run->name);
    json_decref(run);
    sb_pg_jobs_free(&jobs);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

static void test_occupancy(void **state)
{
    struct sb_pg_placement ring, clock;
    (void)state;

    sb_pg_placement_decide("count", 32768, 2048, 8192, 150020, &ring);
    assert_true(sb_pg_occupancy_consistent(&ring, 32768, 8192, 32, 2048));
    assert_true(sb_pg_occupancy_consistent(&ring, 32768, 8192, 64, 2048));
    assert_false(sb_pg_occupancy_consistent(&ring, 32768, 8192, 65, 2048));
    assert_true(sb_pg_occupancy_consistent(&ring, 32768, 8192, 0, 2048)); /* taken back */
    sb_pg_placement_decide("count", 512, 2048, 8192, 150020, &clock);
    assert_true(sb_pg_occupancy_consistent(&clock, 512, 8192, 512, 600));
    assert_false(sb_pg_occupancy_consistent(&clock, 512, 8192, 32, 600));
    {
        /* 8.1: a 2272-page table through a 2048-buffer pool left 2001 of its pages there, the
         * pool full (the live run in results/vm-epyc-zen4-2core-kvm/postgresql-old/) */
        struct sb_pg_placement old;
        sb_pg_placement_decide("count", 2272, 2048, 8192, 80121, &old);
        assert_true(sb_pg_occupancy_consistent(&old, 2272, 8192, 2001, 2048));
        assert_false(sb_pg_occupancy_consistent(&old, 2272, 8192, 2001, 2010)); /* not full */
        assert_false(sb_pg_occupancy_consistent(&old, 2272, 8192, 900, 2048)); /* not most */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_shape),    cmocka_unit_test(test_rows_deleted),
        cmocka_unit_test(test_load_sql),       cmocka_unit_test(test_placement_rule),
        cmocka_unit_test(test_conf),           cmocka_unit_test(test_parse_version),
        cmocka_unit_test(test_version_num),    cmocka_unit_test(test_version_recorded),
        cmocka_unit_test(test_sql_by_version),
        cmocka_unit_test(test_parse_explain),  cmocka_unit_test(test_parse_vacuum),
        cmocka_unit_test(test_parse_write_counters), cmocka_unit_test(test_write_agreement),
        cmocka_unit_test(test_jobs),           cmocka_unit_test(test_jobs_small_pool),
        cmocka_unit_test(test_jobs_row_width), cmocka_unit_test(test_check_keys),
        cmocka_unit_test(test_record),
        cmocka_unit_test(test_record_rounds),
        cmocka_unit_test(test_statements),
        cmocka_unit_test(test_occupancy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
