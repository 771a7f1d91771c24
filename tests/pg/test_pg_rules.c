/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_pg_rules.c: PostgreSQL's ring rules from 16 on, as each version's source computes them
 * (lib/pg/rule.h: VACUUM's BUFFER_USAGE_LIMIT and vacuum_buffer_usage_limit, 17's 2MB, 18's
 * bulk-read ring from io_combine_limit x effective_io_concurrency and the pin limit, the read
 * stream's look-ahead), the settings a cluster gets for the server keys (io_method...), the
 * VACUUM statement with its ring, the refusal of a key the server is too old for, and the rule
 * read from what real servers answered (tests/data/pg/server-V.txt for 15 to master, recorded
 * by tests/data/pg/capture.sh: their settings give the rule, and their pg_buffercache after a
 * scan holds no more than the ring). Needs no server. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg/conf.h"
#include "pg/copier.h"
#include "pg/jobs.h"
#include "pg/record.h"
#include "pg/rule.h"
#include "pg/sql.h"
#include "plan/experiment.h"
#include "plan/plan.h"

#include "helper.h"

#define KB 1024u
#define MB (1024u * 1024u)

/* VACUUM's ring by version: 256KB to 16 (the setting's default there), 2MB from 17, the
 * statement's BUFFER_USAGE_LIMIT over the setting, 0 for none, at most NBuffers / 8. */
static void test_vacuum_rings(void **state)
{
    struct sb_pg_rule_inputs in;
    struct sb_pg_placement p;
    (void)state;

    sb_pg_placement_decide("vacuum", 1, 65536, 8192, 150020, &p);
    assert_int_equal(p.ring_size, 256 * KB);
    sb_pg_placement_decide("vacuum", 1, 65536, 8192, 160013, &p);
    assert_int_equal(p.ring_size, 256 * KB);
    assert_non_null(strstr(p.why, "vacuum_buffer_usage_limit = 256kB"));
    sb_pg_placement_decide("vacuum", 1, 65536, 8192, 170009, &p);
    assert_int_equal(p.ring_size, 2 * MB);
    assert_non_null(strstr(p.why, "98f320eb"));
    sb_pg_placement_decide("vacuum", 1, 65536, 8192, 180004, &p);
    assert_int_equal(p.ring_size, 2 * MB);

    sb_pg_rule_defaults(170009, 8192, 65536, &in); /* 512MB pool */
    in.statement_limit_kb = 64 * 1024;
    sb_pg_placement_rule("vacuum", 1, &in, &p);
    assert_string_equal(p.policy, "ring");
    assert_int_equal(p.ring_size, 64 * MB); /* 8192 buffers = NBuffers / 8: not cut */
    assert_non_null(strstr(p.why, "BUFFER_USAGE_LIMIT '65536kB'"));
    in.nbuffers = 32768; /* 256MB: cut to 32MB */
    sb_pg_placement_rule("vacuum", 1, &in, &p);
    assert_int_equal(p.ring_size, 32 * MB);
    assert_non_null(strstr(p.why, "shared_buffers / 8"));
    in.statement_limit_kb = 0; /* no ring: the clock sweep over the pool */
    sb_pg_placement_rule("vacuum", 1, &in, &p);
    assert_string_equal(p.policy, "clock");
    assert_int_equal(p.ring_size, 0);
    assert_int_equal(p.footprint, 256 * MB);
    in.statement_limit_kb = -1;
    in.vacuum_limit_kb = 0; /* the setting at 0: none either */
    sb_pg_placement_rule("vacuum", 1, &in, &p);
    assert_string_equal(p.policy, "clock");
    /* 15 has no BUFFER_USAGE_LIMIT: a statement's is not taken */
    sb_pg_rule_defaults(150020, 8192, 65536, &in);
    in.statement_limit_kb = 64 * 1024;
    sb_pg_placement_rule("vacuum", 1, &in, &p);
    assert_int_equal(p.ring_size, 256 * KB);
}

/* 18's bulk-read ring: 256kB + io_combine_limit x effective_io_concurrency blocks (16 x 16 by
 * default: 2304kB), at most the pin limit NBuffers / (MaxBackends 136 + 38 auxiliary) but never
 * below 256kB, then at most NBuffers / 8; and its read stream's look-ahead. */
static void test_bulkread_18(void **state)
{
    struct sb_pg_rule_inputs in;
    struct sb_pg_placement p;
    (void)state;

    /* 512MB: pin limit 65536 / 174 = 376 buffers (3008kB): the ring is 2304kB, 288 buffers;
     * the stream pins (16 + 1) x 16 = 272 */
    sb_pg_placement_decide("count", 65536, 65536, 8192, 180004, &p);
    assert_string_equal(p.policy, "ring");
    assert_int_equal(p.pin_limit, 376);
    assert_int_equal(p.ring_size, 2304 * KB);
    assert_int_equal(p.stream_pins, 272);
    assert_non_null(strstr(p.why, "io_combine_limit 16 x effective_io_concurrency 16"));
    /* 17 keeps 256KB whatever the I/O settings */
    sb_pg_placement_decide("count", 65536, 65536, 8192, 170009, &p);
    assert_int_equal(p.ring_size, 256 * KB);
    assert_int_equal(p.stream_pins, 0);
    /* 16MB: pin limit 2048 / 174 = 11: the ring stays 256kB; the stream may pin 11 - 8 = 3 */
    sb_pg_placement_decide("count", 1024, 2048, 8192, 180004, &p);
    assert_int_equal(p.pin_limit, 11);
    assert_int_equal(p.ring_size, 256 * KB);
    assert_int_equal(p.stream_pins, 3);
    /* 256KB, 32 buffers: pin limit 0, a 4-buffer ring (NBuffers / 8), one buffer at a time */
    sb_pg_placement_decide("count", 1024, 32, 8192, 180004, &p);
    assert_int_equal(p.pin_limit, 0);
    assert_int_equal(p.ring_size, 4 * 8192);
    assert_int_equal(p.stream_pins, 1);
    /* effective_io_concurrency 0: 256kB, and the stream pins one read of io_combine_limit */
    sb_pg_rule_defaults(180004, 8192, 65536, &in);
    in.effective_io_concurrency = 0;
    sb_pg_placement_rule("count", 65536, &in, &p);
    assert_int_equal(p.ring_size, 256 * KB);
    assert_int_equal(p.stream_pins, 16);
    /* 64 x 32 blocks asked: capped at the pin limit, 376 buffers */
    in.effective_io_concurrency = 64;
    in.io_combine_limit = 32;
    sb_pg_placement_rule("count", 65536, &in, &p);
    assert_int_equal(p.ring_size, 376 * 8192);
    /* a table not above NBuffers / 4: no ring, the stream limited by the pool's pins */
    sb_pg_placement_rule("count", 16384, &in, &p);
    assert_string_equal(p.policy, "clock");
    assert_int_equal(p.ring_size, 0);
    assert_int_equal(p.stream_pins, 368);
    /* VACUUM's stream: maintenance_io_concurrency, at most half its ring */
    sb_pg_rule_defaults(180004, 8192, 65536, &in);
    sb_pg_placement_rule("vacuum", 65536, &in, &p);
    assert_int_equal(p.ring_size, 2 * MB);
    assert_int_equal(p.stream_pins, 128);
}

/* What a server answers from pg_settings overrides the defaults: io_combine_limit capped by
 * io_max_combine_limit, MaxBackends summed (+ NUM_SPECIAL_WORKER_PROCS), a bad item refused. */
static void test_inputs_parse(void **state)
{
    struct sb_pg_rule_inputs in;
    struct sb_error err = {0};
    (void)state;

    sb_pg_rule_defaults(180004, 8192, 1, &in);
    assert_int_equal(sb_pg_rule_inputs_parse("autovacuum_worker_slots=16 block_size=8192 "
                                             "effective_io_concurrency=32 io_combine_limit=32 "
                                             "io_max_combine_limit=16 "
                                             "maintenance_io_concurrency=16 "
                                             "max_connections=10 max_wal_senders=0 "
                                             "max_worker_processes=8 shared_buffers=2048 "
                                             "vacuum_buffer_usage_limit=2048", &in, &err), SB_OK);
    assert_int_equal(in.nbuffers, 2048);
    assert_int_equal(in.io_combine_limit, 16);
    assert_int_equal(in.effective_io_concurrency, 32);
    assert_int_equal(in.max_backends, 10 + 16 + 8 + 0 + 2);
    assert_int_equal(in.vacuum_limit_kb, 2048);
    assert_int_equal(sb_pg_rule_inputs_parse("shared_buffers=x", &in, &err), SB_ERR_RUN);
    assert_non_null(strstr(err.msg, "shared_buffers"));
    assert_int_equal(sb_pg_rule_inputs_parse("shared_buffers", &in, &err), SB_ERR_RUN);
    assert_null(sb_pg_rule_settings_names(150020));
    assert_non_null(strstr(sb_pg_rule_settings_names(160000), "vacuum_buffer_usage_limit"));
    assert_non_null(strstr(sb_pg_rule_settings_names(180004), "io_max_combine_limit"));
}

/* The cluster's settings: no ring set from 16 on; from 18 max_connections 110, so that
 * MaxBackends is the default's with max_wal_senders 0; the server keys as each version names
 * them. */
static void test_conf_knobs(void **state)
{
    struct sb_pg_conf c;
    struct sb_pg_knobs k = {2 * MB, 256 * KB, 64, 1, 4, 0, 1};
    (void)state;

    sb_pg_conf_build(&c, 160013, "/tmp/x", 16 * MB, 0, NULL);
    assert_null(sb_pg_conf_get(&c, "vacuum_buffer_usage_limit"));
    assert_string_equal(sb_pg_conf_get(&c, "max_connections"), "10");
    sb_pg_conf_build(&c, 180004, "/tmp/x", 16 * MB, 0, NULL);
    assert_string_equal(sb_pg_conf_get(&c, "max_connections"), "110");
    assert_string_equal(sb_pg_conf_get(&c, "max_wal_senders"), "0");
    assert_null(sb_pg_conf_get(&c, "io_method"));
    sb_pg_conf_build(&c, 180004, "/tmp/x", 16 * MB, 0, &k);
    assert_string_equal(sb_pg_conf_get(&c, "io_method"), "sync");
    assert_string_equal(sb_pg_conf_get(&c, "io_workers"), "4");
    assert_string_equal(sb_pg_conf_get(&c, "io_combine_limit"), "256kB");
    assert_string_equal(sb_pg_conf_get(&c, "io_max_combine_limit"), "256kB");
    assert_string_equal(sb_pg_conf_get(&c, "effective_io_concurrency"), "64");
    assert_string_equal(sb_pg_conf_get(&c, "huge_pages"), "off");
    assert_null(sb_pg_conf_get(&c, "buffer_usage_limit")); /* the statement's */
    sb_pg_conf_build(&c, 190000, "/tmp/x", 16 * MB, 0, &k);
    assert_null(sb_pg_conf_get(&c, "io_workers"));
    assert_string_equal(sb_pg_conf_get(&c, "io_min_workers"), "4");
    assert_string_equal(sb_pg_conf_get(&c, "io_max_workers"), "4");
}

/* VACUUM's ring goes with the statement from 16; the cluster's settings leave it out. */
static void test_vacuum_statement(void **state)
{
    char sql[160];
    struct sb_pg_knobs k = {2 * MB, 256 * KB, 64, 1, 4, 2, 1}, cluster;
    (void)state;

    sb_pg_sql_vacuum(160013, false, 2 * MB, "lineitem", sql, sizeof sql);
    assert_string_equal(sql, "VACUUM (DISABLE_PAGE_SKIPPING, BUFFER_USAGE_LIMIT '2048kB') "
                             "lineitem");
    sb_pg_sql_vacuum(180004, true, 0, "lineitem", sql, sizeof sql);
    assert_string_equal(sql, "VACUUM (VERBOSE, DISABLE_PAGE_SKIPPING, BUFFER_USAGE_LIMIT '0kB') "
                             "lineitem");
    sb_pg_sql_vacuum(180004, false, -1, "lineitem", sql, sizeof sql);
    assert_string_equal(sql, "VACUUM (DISABLE_PAGE_SKIPPING) lineitem");
    sb_pg_knobs_cluster(&k, &cluster);
    assert_int_equal(cluster.buffer_usage_limit, -1);
    assert_int_equal(cluster.io_workers, 4);
    assert_int_equal(cluster.io_worker_cpu, 2);
    sb_pg_knobs_cluster(NULL, &cluster);
    assert_int_equal(cluster.io_method, 0);
    assert_int_equal(cluster.effective_io_concurrency, -1);
}

static void set(struct sb_experiment *exp, const char *assignment)
{
    struct sb_error err = {0};

    assert_int_equal(sb_experiment_set(exp, assignment, &err), SB_OK);
}

/* A server key is refused, one line naming it, its origin, the server and the version that
 * brought the setting, on a server too old for it; `run` refuses every one; the keys read. */
static void test_server_keys(void **state)
{
    struct sb_experiment exp;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_pg_check_server_keys(&exp, "8.1.21", "/opt/pg81/bin", &err), SB_OK);
    assert_int_equal(sb_experiment_check_no_server_keys(&exp, "scanbench run", &err), SB_OK);
    set(&exp, "buffer_usage_limit=0,256K,2M");
    assert_int_equal(exp.settings[SB_K_BUFFER_USAGE_LIMIT].numbers[0], 0);
    assert_int_equal(exp.settings[SB_K_BUFFER_USAGE_LIMIT].numbers[2], 2 * MB);
    assert_int_equal(sb_pg_check_server_keys(&exp, "16.13", "/opt/pg16/bin", &err), SB_OK);
    assert_int_equal(sb_pg_check_server_keys(&exp, "15.20 (Debian)", "/usr/lib/postgresql/15/bin",
                                             &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set buffer_usage_limit=0,256K,2M: buffer_usage_limit: "
                        "PostgreSQL 15.20 (/usr/lib/postgresql/15/bin) has no such setting (it "
                        "came with 16); buffer_usage_limit = 0 is not supported there");
    assert_int_equal(sb_experiment_check_no_server_keys(&exp, "scanbench run", &err),
                     SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "scanbench run has no server"));
    set(&exp, "io_method=worker,sync");
    assert_int_equal(sb_pg_check_server_keys(&exp, "17.9", "/opt/pg17/bin", &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "io_method: PostgreSQL 17.9"));
    assert_int_equal(sb_pg_check_server_keys(&exp, "19beta2", "/opt/pg19/bin", &err), SB_OK);
    set(&exp, "io_worker_cpu=default,other");
    assert_int_equal(sb_pg_check_server_keys(&exp, "18.4", "/opt/pg18/bin", &err), SB_OK);
    set(&exp, "threads=1,2");
    assert_int_equal(sb_pg_check_server_keys(&exp, "18.4", "/opt/pg18/bin", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set io_worker_cpu=default,other: io_worker_cpu = other pins "
                        "the backend to one CPU, and --set threads=1,2: threads = 2 would put "
                        "its backends there together; pin with one backend");
    set(&exp, "threads=1");
    assert_int_equal(sb_experiment_set(&exp, "buffer_usage_limit=64K", &err), SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set(&exp, "effective_io_concurrency=1001", &err),
                     SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set(&exp, "io_method=posix", &err), SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set(&exp, "io_workers=33", &err), SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set(&exp, "huge_pages=maybe", &err), SB_ERR_INPUT);
    sb_experiment_free(&exp);
}

/* The (skip + 1)-th line after the line that starts with marker that is a whole number (a
 * count psql printed), or -1. */
static long long number_after(const char *text, const char *marker, int skip)
{
    const char *p = strstr(text, marker);

    while (p && (p = strchr(p, '\n')) != NULL) {
        char *end;
        long long n;
        p++;
        n = strtoll(p, &end, 10);
        if (end != p && *end == '\n' && skip-- == 0)
            return n;
    }
    return -1;
}

/* The rule inputs a recorded server answered (the line after marker) over the version's
 * defaults. */
static void recorded_inputs(const char *text, const char *marker, int num,
                            struct sb_pg_rule_inputs *in)
{
    const char *p = strstr(text, marker);
    char line[1024];
    struct sb_error err = {0};

    assert_non_null(p);
    p = strchr(p, '\n') + 1;
    snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
    sb_pg_rule_defaults(num, 8192, 0, in);
    assert_int_equal(sb_pg_rule_inputs_parse(line, in, &err), SB_OK);
}

/* occupancy lies between the ring's buffers and a few more (the table's pages a scan's last
 * reads leave beside the ring: at most 8 in every recording), and is consistent in the sense
 * the report uses. */
static void assert_ring_holds(const struct sb_pg_placement *p, long long occupancy,
                              uint64_t pages)
{
    long long ring = (long long)(p->ring_size / 8192);

    assert_string_equal(p->policy, "ring");
    assert_true(occupancy >= ring - 1 && occupancy <= ring + 8);
    assert_true(sb_pg_occupancy_consistent(p, pages, 8192, occupancy, -1));
}

/* What real servers answered (tests/data/pg/server-V.txt, capture-rings.sh; 16MB pools):
 * their settings give the rule, and pg_buffercache after one scan finds the ring the rule
 * says: COUNT's 256KB, VACUUM's 256KB to 16 and 2MB from 17, BUFFER_USAGE_LIMIT '512kB' a
 * 64-buffer ring and 0 none (every page); on 18 in a 512MB pool the bulk-read ring grows with
 * effective_io_concurrency exactly as 18's formula says (288, 96, 32 buffers). */
static void test_recorded_servers(void **state)
{
    static const struct {
        const char *file;
        int num;
        uint64_t vacuum_ring; /* buffers */
    } servers[] = {{"pg/server-15.txt", 150020, 32},   {"pg/server-16.txt", 160014, 32},
                   {"pg/server-17.txt", 170010, 256},  {"pg/server-18.txt", 180004, 256},
                   {"pg/server-19.txt", 190000, 256},  {"pg/server-master.txt", 200000, 256}};
    (void)state;

    for (size_t i = 0; i < sizeof servers / sizeof *servers; i++) {
        char *path = sbtest_data_path(servers[i].file), *text = sbtest_read_file(path, NULL);
        struct sb_pg_rule_inputs in;
        struct sb_pg_placement p;
        struct sb_pg_conf conf;
        char want[64];
        long long pages = number_after(text, "pages=", 0);
        int num;

        assert_non_null(text);
        num = (int)number_after(text, "-- postgres --version", 0);
        assert_int_equal(num / 10000, servers[i].num / 10000);
        pages = strtoll(strstr(text, "pages=") + 6, NULL, 10);
        recorded_inputs(text, "-- rule inputs", num, &in);
        assert_int_equal(in.nbuffers, 2048);
        /* the cluster scanbench configures for that version: the max_connections the server
         * ran with, and no ring setting of its own */
        sb_pg_conf_build(&conf, num, "/tmp/x", 16 * MB, 0, NULL);
        snprintf(want, sizeof want, "max_connections=%s ",
                 sb_pg_conf_get(&conf, "max_connections"));
        assert_non_null(strstr(text, want));
        assert_null(sb_pg_conf_get(&conf, "vacuum_buffer_usage_limit"));
        sb_pg_placement_rule("count", (uint64_t)pages, &in, &p);
        assert_int_equal(p.ring_size, 256 * KB);
        assert_ring_holds(&p, number_after(text, "-- COUNT(*)", 1), (uint64_t)pages);
        sb_pg_placement_rule("vacuum", (uint64_t)pages, &in, &p);
        assert_int_equal(p.ring_size / 8192, servers[i].vacuum_ring);
        assert_ring_holds(&p, number_after(text, "-- VACUUM (VERBOSE", 0), (uint64_t)pages);
        if (num < 160000) { /* no BUFFER_USAGE_LIMIT before 16 */
            assert_non_null(strstr(text, "unrecognized VACUUM option \"buffer_usage_limit\""));
            free(text);
            free(path);
            continue;
        }
        /* scanbench's range is the server's: 64kB refused by both */
        assert_non_null(strstr(text, "must be 0 or between 128 kB and 16777216 kB"));
        in.statement_limit_kb = 512;
        sb_pg_placement_rule("vacuum", (uint64_t)pages, &in, &p);
        assert_int_equal(p.ring_size, 512 * KB);
        assert_ring_holds(&p, number_after(text, "BUFFER_USAGE_LIMIT '512kB') t:", 0),
                          (uint64_t)pages);
        in.statement_limit_kb = 0;
        sb_pg_placement_rule("vacuum", (uint64_t)pages, &in, &p);
        assert_string_equal(p.policy, "clock");
        assert_int_equal(number_after(text, "BUFFER_USAGE_LIMIT '0') t:", 0), pages);
        if (num >= 180000) {
            static const long long eics[] = {16, 4, 0}, ring[] = {288, 96, 32};
            pages = strtoll(strstr(strstr(text, "-- 512MB pool"), "pages=") + 6, NULL, 10);
            recorded_inputs(text, "-- 512MB pool", num, &in);
            assert_int_equal(in.nbuffers, 65536);
            for (int e = 0; e < 3; e++) {
                char marker[96];
                snprintf(marker, sizeof marker, "SET effective_io_concurrency = %lld;", eics[e]);
                in.effective_io_concurrency = (uint64_t)eics[e];
                sb_pg_placement_rule("count", (uint64_t)pages, &in, &p);
                assert_int_equal(p.ring_size / 8192, ring[e]);
                assert_int_equal(number_after(text, marker, 1), ring[e]);
            }
        }
        free(text);
        free(path);
    }
}

/* Who copies a page: the backend before 18 and with sync, an I/O worker with worker (and then
 * the output says scanbench's model does not copy on another CPU), the kernel with io_uring. */
static void test_copier(void **state)
{
    char buf[640];
    (void)state;

    sb_pg_copier_text(170010, NULL, "", buf, sizeof buf);
    assert_non_null(strstr(buf, "the backend that scans reads each page"));
    assert_null(strstr(buf, "not modelled"));
    sb_pg_copier_text(180004, "sync", "", buf, sizeof buf);
    assert_non_null(strstr(buf, "(io_method = sync)"));
    assert_null(strstr(buf, "not modelled"));
    sb_pg_copier_text(180004, "worker", "backend 41 on CPU 0, I/O workers 37 on CPU 1", buf,
                      sizeof buf);
    assert_non_null(strstr(buf, "an I/O worker process (io_method = worker)"));
    assert_non_null(strstr(buf, "; pinned: backend 41 on CPU 0, I/O workers 37 on CPU 1"));
    assert_non_null(strstr(buf, "a copy on another CPU is not modelled"));
    sb_pg_copier_text(180004, "io_uring", "", buf, sizeof buf);
    assert_non_null(strstr(buf, "the kernel, for the backend"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vacuum_rings),     cmocka_unit_test(test_bulkread_18),
        cmocka_unit_test(test_inputs_parse),     cmocka_unit_test(test_conf_knobs),
        cmocka_unit_test(test_vacuum_statement), cmocka_unit_test(test_server_keys),
        cmocka_unit_test(test_recorded_servers), cmocka_unit_test(test_copier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
