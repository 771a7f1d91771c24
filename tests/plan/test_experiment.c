/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_experiment.c: unit tests for lib/plan/experiment.h, lib/plan/plan.h and lib/core/units.h: reading
 * experiments and turning them into runs. Checks size parsing and printing; that a good INI file
 * sets single and list values with their file:line origins; that the embedded default plans
 * into its four runs in order; that every kind of bad input (in a file or in --set) is refused
 * with SB_ERR_INPUT and a message naming the file, the exact line, the key and the value; that
 * the plan refuses combinations of keys (sizes that are not page multiples, a ring larger than
 * the pool, rows that do not fit, more memory than the given limit) naming the key and where it
 * was set; and the order of the runs of a sweep. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/mem.h"
#include "core/units.h"
#include "core/utf8.h"
#include "plan/experiment.h"
#include "plan/plan.h"
#include "plan/thread.h"
#include "vocab/vocab.h"

#include "helper.h"

static const struct sb_mem_limit big_limit = {.bytes = 1ull << 40, .source = "test"};

/* --- units --------------------------------------------------------------------------------- */

static void test_parse_size(void **state)
{
    static const struct {
        const char *text;
        uint64_t bytes;
    } good[] = {
        {"8192", 8192},  {"8K", 8192},          {"8k", 8192},          {"8KB", 8192},
        {"8kB", 8192},   {"8KiB", 8192},        {"8kib", 8192},        {"8b", 8},
        {"0", 0},        {"16M", 16777216},     {"16MB", 16777216},    {"1G", 1073741824},
        {"1T", 1099511627776ull},               {"16777215T", 0xFFFFFF0000000000ull},
        {"18446744073709551615", UINT64_MAX},
    };
    static const char *const bad[] = {
        "", "K", "12QB", "-1", "1.5M", "99999999999999999999", "99999999999T", "16777216T",
        " 8K", "8 K", "8KK", "8Kb ", "0x10", "+8",
    };
    uint64_t v;
    (void)state;

    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        v = 12345;
        if (!sb_parse_size(good[i].text, &v))
            fail_msg("\"%s\" refused", good[i].text);
        assert_int_equal(v, good[i].bytes);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        v = 12345;
        if (sb_parse_size(bad[i], &v))
            fail_msg("\"%s\" accepted as %llu", bad[i], (unsigned long long)v);
        assert_int_equal(v, 12345); /* untouched on failure */
    }
    assert_false(sb_parse_size(NULL, &v));
}

static void test_parse_uint(void **state)
{
    uint64_t v;
    (void)state;

    assert_true(sb_parse_uint("0", &v));
    assert_int_equal(v, 0);
    assert_true(sb_parse_uint("1000", &v));
    assert_int_equal(v, 1000);
    assert_true(sb_parse_uint("18446744073709551615", &v));
    assert_int_equal(v, UINT64_MAX);
    assert_false(sb_parse_uint("18446744073709551616", &v));
    assert_false(sb_parse_uint("", &v));
    assert_false(sb_parse_uint("+1", &v));
    assert_false(sb_parse_uint("-1", &v));
    assert_false(sb_parse_uint("1K", &v));
    assert_false(sb_parse_uint("1 ", &v));
    assert_false(sb_parse_uint(NULL, &v));
}

static void test_format_size(void **state)
{
    char buf[32], small[4];
    (void)state;

    assert_string_equal(sb_format_size(16ull << 20, buf, sizeof buf), "16MB");
    assert_string_equal(sb_format_size(256ull << 10, buf, sizeof buf), "256KB");
    assert_string_equal(sb_format_size(680ull << 10, buf, sizeof buf), "680KB");
    assert_string_equal(sb_format_size(8192, buf, sizeof buf), "8KB");
    assert_string_equal(sb_format_size(1000, buf, sizeof buf), "1000B");
    assert_string_equal(sb_format_size(0, buf, sizeof buf), "0B");
    assert_string_equal(sb_format_size(1536, buf, sizeof buf), "1536B"); /* 1.5KB: exact */
    assert_string_equal(sb_format_size(1025ull << 20, buf, sizeof buf), "1025MB");
    assert_string_equal(sb_format_size(1ull << 40, buf, sizeof buf), "1TB");
    assert_string_equal(sb_format_size(1ull << 51, buf, sizeof buf), "2048TB");
    assert_string_equal(sb_format_size(16ull << 20, small, sizeof small), "16M"); /* cut */
}

/* --- reading files ------------------------------------------------------------------------- */

static void test_good_file(void **state)
{
    char *path = sbtest_write_temp("; a test experiment\n"
                            "[experiment]\n"
                            "name = sweep\n"
                            "description =   a test sweep   \n"
                            "table_size = 4M\n"
                            "pool_size = 128K, 256K,16M\n"
                            "\n"
                            "policy = clock,ring\n"
                            "op = vacuum ; an inline comment\n"
                            "repetitions = 3\n"
                            "seed = 18446744073709551615\n"
                            "l2_size = 1M\n");
    struct sb_experiment exp;
    struct sb_error err = {0};
    char origin[300];
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_OK);
    assert_string_equal(exp.source, path);

    assert_int_equal(exp.settings[SB_K_NAME].nvalues, 1);
    assert_string_equal(exp.settings[SB_K_NAME].values[0], "sweep");
    assert_string_equal(exp.settings[SB_K_DESCRIPTION].values[0], "a test sweep");
    assert_int_equal(exp.settings[SB_K_TABLE_SIZE].numbers[0], 4ull << 20);
    snprintf(origin, sizeof origin, "%s:5", path);
    assert_string_equal(exp.settings[SB_K_TABLE_SIZE].origin, origin);

    assert_int_equal(exp.settings[SB_K_POOL_SIZE].nvalues, 3);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].numbers[0], 131072);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].numbers[1], 262144);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].numbers[2], 16777216);
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].values[0], "128K");
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].values[1], "256K");
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].values[2], "16M");
    snprintf(origin, sizeof origin, "%s:6", path);
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].origin, origin);

    assert_int_equal(exp.settings[SB_K_POLICY].nvalues, 2);
    assert_string_equal(exp.settings[SB_K_POLICY].values[0], "clock");
    assert_string_equal(exp.settings[SB_K_POLICY].values[1], "ring");
    snprintf(origin, sizeof origin, "%s:8", path);
    assert_string_equal(exp.settings[SB_K_POLICY].origin, origin);
    assert_int_equal(exp.settings[SB_K_OP].nvalues, 1);
    assert_string_equal(exp.settings[SB_K_OP].values[0], "vacuum");
    assert_int_equal(exp.settings[SB_K_REPETITIONS].numbers[0], 3);
    assert_int_equal(exp.settings[SB_K_SEED].numbers[0], UINT64_MAX);
    assert_int_equal(exp.settings[SB_K_L2_SIZE].numbers[0], 1ull << 20);

    /* keys the file does not name keep the registry defaults */
    assert_string_equal(exp.settings[SB_K_RING_SIZE].origin, "default");
    assert_int_equal(exp.settings[SB_K_RING_SIZE].numbers[0], 256ull << 10);
    assert_int_equal(exp.settings[SB_K_PAGE_SIZE].numbers[0], 8192);
    assert_int_equal(exp.settings[SB_K_L1D_SIZE].numbers[0], 0); /* auto */
    assert_string_equal(exp.settings[SB_K_KERNEL].values[0], "memcpy");

    sb_experiment_free(&exp);
    sbtest_remove_temp(path);
}

static void test_embedded_default(void **state)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    static const char *const ops[4] = {"count", "count", "vacuum", "vacuum"};
    static const char *const policies[4] = {"clock", "ring", "clock", "ring"};
    static const char *const names[4] = {
        "default op=count policy=clock", "default op=count policy=ring",
        "default op=vacuum policy=clock", "default op=vacuum policy=ring"};
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, NULL, &err), SB_OK);
    assert_string_equal(exp.source, "embedded default");
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_OK);
    assert_string_equal(plan.experiment, "default");
    assert_string_equal(plan.config_source, "embedded default");
    assert_int_equal(plan.nruns, 4);
    for (int i = 0; i < 4; i++) {
        const struct sb_run_params *r = &plan.runs[i];
        assert_string_equal(r->name, names[i]);
        assert_string_equal(r->op->name, ops[i]);
        assert_string_equal(r->policy->name, policies[i]);
        assert_string_equal(r->kernel->name, "memcpy");
        assert_string_equal(r->source->name, "memory");
        assert_string_equal(r->counters->name, "none");
        assert_int_equal(r->table_size, 512ull << 20);
        assert_int_equal(r->pool_size, 16ull << 20);
        assert_int_equal(r->ring_size, 256ull << 10);
        assert_int_equal(r->page_size, 8192);
        assert_int_equal(r->layout.rows_per_page, 61);
        assert_int_equal(r->layout.dead_pct, 10);
        assert_int_equal(r->repetitions, SB_AUTO_ROUNDS_MIN); /* auto: a run alone's minimum */
        assert_int_equal(r->warmup, 1);
        assert_int_equal(r->threads, 1);
        /* the write-back's keys at their defaults: today's runs (issue 18) */
        assert_int_equal(r->writeback, SB_WRITEBACK_NONE);
        assert_null(r->writeback_kernel);
        assert_int_equal(r->checkpoint_pages, 2048); /* auto: the pool's buffers */
        assert_true(r->hint_bits_set);
        assert_true(r->layout.hint_bits_set);
        assert_true(i == 0 || sb_plan_same_table(&plan.runs[0], r));
    }
    assert_int_equal(plan.override_size[0], 0);
    assert_int_equal(plan.override_line, 0);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* The write-back's keys resolved (issue 18): writeback_kernel auto is the copy-in kernel (pwrite
 * for source file), checkpoint_pages auto the pool's buffers, hint_bits unset in the layout the
 * table is built by; runs that write back have tables of their own. */
static void test_writeback_keys(void **state)
{
    static const char *const sets[] = {"writeback = none, checkpoint",
                                       "checkpoint_pages = auto, 7", "hint_bits = unset",
                                       "source = memory, file", "pool_size = 1M",
                                       "table_size = 4M", NULL};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    (void)state;

    sbtest_experiment_from_sets(&exp, sets);
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_OK);
    assert_int_equal(plan.nruns, 8); /* source x writeback x checkpoint_pages */
    for (size_t i = 0; i < plan.nruns; i++) {
        const struct sb_run_params *r = &plan.runs[i];
        assert_false(r->layout.hint_bits_set);
        assert_true(r->checkpoint_pages == 128 || r->checkpoint_pages == 7);
        if (r->writeback == SB_WRITEBACK_NONE)
            assert_null(r->writeback_kernel);
        else
            assert_ptr_equal(r->writeback_kernel, r->source->is_file ? &sb_kernel_pwrite
                                                                     : sb_kernel_find("memcpy"));
        for (size_t j = 0; j < plan.nruns; j++)
            assert_int_equal(sb_plan_same_table(r, &plan.runs[j]),
                             i == j || (r->writeback == SB_WRITEBACK_NONE &&
                                        plan.runs[j].writeback == SB_WRITEBACK_NONE &&
                                        r->source == plan.runs[j].source));
    }
    assert_string_equal(plan.runs[7].name, "unnamed source=file writeback=checkpoint "
                                           "checkpoint_pages=7");
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* Reads text from a file; expects SB_ERR_INPUT and the message "<file>:<line>: <rest>". */
static void expect_file_error(const char *text, int line, const char *rest)
{
    char *path = sbtest_write_temp(text);
    struct sb_experiment exp;
    struct sb_error err = {0};
    char want[1024];

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_ERR_INPUT);
    snprintf(want, sizeof want, "%s:%d: %s", path, line, rest);
    sbtest_assert_error(&err, SB_ERR_INPUT, want);
    sb_experiment_free(&exp);
    sbtest_remove_temp(path);
}

static void test_file_unknown_key(void **state)
{
    (void)state;
    expect_file_error("[experiment]\nname = t\nbogus = 1\n", 3,
                      "bogus: unknown key (`scanbench list` shows the keys)");
    /* the first error is the one reported, even when good lines follow it */
    expect_file_error("[experiment]\nbogus = 1\nname = t\npool_size = 1M\n", 2,
                      "bogus: unknown key (`scanbench list` shows the keys)");
}

static void test_file_bad_values(void **state)
{
    (void)state;
    expect_file_error("[experiment]\n; a comment\n\npool_size = 12QB\n", 4,
                      "pool_size: \"12QB\" is not a size (e.g. 8192, 256K, 16MB)");
    expect_file_error("[experiment]\nl2_size = 12QB\n", 2,
                      "l2_size: \"12QB\" is not a size (e.g. 8192, 256K, 16MB, auto)");
    expect_file_error("[experiment]\npool_size = 128K, 12QB\n", 2,
                      "pool_size: \"12QB\" is not a size (e.g. 8192, 256K, 16MB)");
    expect_file_error("[experiment]\ntable_size = 0\n", 2, "table_size: \"0\" is zero");
    expect_file_error("[experiment]\npage_size = 64K\n", 2,
                      "page_size: \"64K\" is out of range (1KB to 32KB)");
    /* a section given twice: the second was read as more of the first */
    expect_file_error("[experiment]\nop = count\n[experiment]\nname = x\n", 3,
                      "[experiment]: section given twice");
    /* the key's own range is the rule's (it said 1B to 32KB) */
    expect_file_error("[experiment]\npage_size = 512\n", 2,
                      "page_size: \"512\" is out of range (1KB to 32KB)");
    expect_file_error("[experiment]\nname = t\nrepetitions = many\n", 3,
                      "repetitions: \"many\" is not a whole number or auto");
    expect_file_error("[experiment]\nrepetitions = 0\n", 2,
                      "repetitions: \"0\" is out of range (1 to 1000)");
    expect_file_error("[experiment]\ndead_pct = 101\n", 2,
                      "dead_pct: \"101\" is out of range (0 to 100)");
    expect_file_error("[experiment]\nop = count, , vacuum\n", 2,
                      "op: empty value in \"count, , vacuum\"");
}

static void test_file_unknown_names(void **state)
{
    (void)state;
#if defined(__x86_64__)
    expect_file_error("[experiment]\nkernel = nope\n", 2,
                      "kernel: \"nope\" is not a known kernel (known: memcpy, movsb, avx2, avx512, "
                      "nt, pread, read, write)");
#else
    expect_file_error("[experiment]\nkernel = nope\n", 2,
                      "kernel: \"nope\" is not a known kernel (known: memcpy, pread, read, write)");
#endif
    expect_file_error("[experiment]\npolicy = clock, lru\n", 2,
                      "policy: \"lru\" is not a known policy (known: clock, ring, single, random, pg82)");
    expect_file_error("[experiment]\nop = select\n", 2,
                      "op: \"select\" is not a known op (known: none, count, vacuum, vacuum-dirty)");
    expect_file_error("[experiment]\nsource = disk\n", 2,
                      "source: \"disk\" is not a known source (known: memory, file)");
    {   /* the known backends, from the registry (more are added as they are built) */
        char rest[256];
        size_t used = (size_t)snprintf(rest, sizeof rest, "counters: \"perf\" is not a known "
                                       "counters (known: ");
        for (const struct sb_counter_backend *b = sb_counter_backends; b->name; b++)
            used += (size_t)snprintf(rest + used, sizeof rest - used, "%s%s",
                                     b == sb_counter_backends ? "" : ", ", b->name);
        snprintf(rest + used, sizeof rest - used, ")");
        expect_file_error("[experiment]\ncounters = perf\n", 2, rest);
    }
    for (const struct sb_kernel *k = sb_kernels; k->name; k++) {
        char text[128], rest[256];
        if (k->supported())
            continue;
        snprintf(text, sizeof text, "[experiment]\nname = t\nkernel = %s\n", k->name);
        snprintf(rest, sizeof rest, "kernel: \"%s\" needs %s, which this CPU lacks", k->name,
                 k->requires);
        expect_file_error(text, 3, rest);
    }
}

static void test_file_structure(void **state)
{
    char *path;
    struct sb_experiment exp;
    struct sb_error err = {0};
    char want[1024], longline[320];
    (void)state;

    /* set twice: names both lines */
    path = sbtest_write_temp("[experiment]\npool_size = 1M\nname = t\npool_size = 2M\n");
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_ERR_INPUT);
    snprintf(want, sizeof want, "%s:4: pool_size: set twice in [experiment] (first at line 2)",
             path);
    assert_string_equal(err.msg, want);
    sb_experiment_free(&exp);
    sbtest_remove_temp(path);

    expect_file_error("name = t\n[experiment]\n", 1,
                      "name: keys belong in a section (known: [experiment], [thread])");
    expect_file_error("[experiment]\nname = t\n[other]\nseed = 3\n", 3,
                      "[other]: unknown section (known: [experiment], [thread])");
    expect_file_error("[experiment]\nname = t\njust some words\n", 3,
                      "not a valid INI line (want key = value or [section])");
    expect_file_error("[experiment]\ncounters = none, sim\n", 2,
                      "counters: takes one value, not a list");
    expect_file_error("[experiment]\npool_size = 16M, 256K, 16384K\n", 2,
                      "pool_size: \"16384K\" twice in the list: each value once (a repeated "
                      "value would make two runs of one name)");
    expect_file_error("[experiment]\nname = a, b\nl2_size = 1M, 2M\n", 3,
                      "l2_size: takes one value, not a list");

    /* inih reads lines of at most INI_MAX_LINE - 2 = 198 characters */
    memset(longline, 'x', sizeof longline);
    memcpy(longline, "[experiment]\ndescription = ", 27);
    memcpy(longline + 27 + 250, "\n", 2);
    expect_file_error(longline, 2, "line longer than 198 characters (a long value goes on over "
                      "indented lines)");
    /* and the line after it is not blamed, nor is the rest of the long line read as a line */
    memcpy(longline + 27 + 250, "\nname = t\npool_size = 12QB\n", 28);
    expect_file_error(longline, 2, "line longer than 198 characters (a long value goes on over "
                      "indented lines)");

    /* a long comment is fine, and the lines after it keep their numbers */
    memset(longline, 'x', sizeof longline);
    memcpy(longline, "[experiment]\n; ", 15);
    memcpy(longline + 15 + 250, "\nname = t\npool_size = 12QB\n", 28);
    expect_file_error(longline, 4, "pool_size: \"12QB\" is not a size (e.g. 8192, 256K, 16MB)");
    /* exactly 198 characters and the newline fit */
    memset(longline, 'x', sizeof longline);
    memcpy(longline, "[experiment]\ndescription = ", 27);
    memcpy(longline + 13 + 198, "\nname = t\nseed = -1\n", 21);
    expect_file_error(longline, 4, "seed: \"-1\" is not a whole number");
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_string(&exp, longline, "long", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "long:4: seed: \"-1\" is not a whole number");
    assert_int_equal(strlen(exp.settings[SB_K_DESCRIPTION].values[0]), 198 - 14);
    sb_experiment_free(&exp);
}

static void test_file_missing(void **state)
{
    struct sb_experiment exp;
    struct sb_error err = {0};
    const char *path = "/tmp/sb_test_experiment_no_such_dir/none.ini";
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "/tmp/sb_test_experiment_no_such_dir/none.ini: cannot read: "
                                 "No such file or directory");
    sb_experiment_free(&exp);
}

static void test_read_string(void **state)
{
    struct sb_experiment exp;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_string(&exp, "[experiment]\nname = s\nwarmup = 0", "str",
                                               &err), SB_OK);
    assert_string_equal(exp.settings[SB_K_NAME].values[0], "s");
    assert_string_equal(exp.settings[SB_K_WARMUP].origin, "str:3");
    assert_int_equal(exp.settings[SB_K_WARMUP].numbers[0], 0);
    assert_int_equal(sb_experiment_read_string(&exp, "[experiment]\n\nwarmup = 101\n", "str",
                                               &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "str:3: warmup: \"101\" is out of range (0 to 100)");
    sb_experiment_free(&exp);
}

/* Reads text from a file; expects SB_ERR_INPUT and the message "<file>: <rest>" (no line). */
static void expect_whole_file_error(const char *text, const char *rest)
{
    char *path = sbtest_write_temp(text);
    struct sb_experiment exp;
    struct sb_error err = {0};
    char want[1024];

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_ERR_INPUT);
    snprintf(want, sizeof want, "%s: %s", path, rest);
    sbtest_assert_error(&err, SB_ERR_INPUT, want);
    sb_experiment_free(&exp);
    sbtest_remove_temp(path);
}

/* Issue 15, item 7: what inih would misread or skip is refused, with its line; CRLF is read. */
static void test_file_whole(void **state)
{
    struct sb_experiment exp;
    struct sb_error err = {0};
    char *path;
    (void)state;

    /* a directory: read errors were taken as the end of the file, and the defaults ran */
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, "/tmp", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "/tmp: is a directory, not an INI file");
    /* not a regular file: /dev/null (a FIFO would wait in open for a writer) */
    assert_int_equal(sb_experiment_read_file(&exp, "/dev/null", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "/dev/null: not a regular file (a FIFO, socket or device), not "
                                 "an INI file");
    assert_int_equal(sb_experiment_read_string(&exp, "", "str", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "str: empty (an INI file with its sections)");
    sb_experiment_free(&exp);
    expect_whole_file_error("", "empty (an INI file with its sections)");
    /* no [experiment]: comments only, or [thread] only */
    expect_whole_file_error("; nothing here\n\n", "no [experiment] section");
    expect_whole_file_error("[thread]\nwho = x\n", "no [experiment] section");
    /* a [thread] section says who measured and what the table was (issue 49): with who only,
     * or with no keys at all, reproduce had nothing to say of the thread */
    expect_whole_file_error("[experiment]\n[thread]\nwho = x\n", "[thread]: no table (what the "
                            "thread's table was); a [thread] section needs who and table");
    expect_whole_file_error("[experiment]\n[thread]\n", "[thread]: no who (who ran the "
                            "thread's measurements, when, on what); a [thread] section needs who "
                            "and table");
    expect_whole_file_error("[experiment]\n[thread]\ntable = t\n", "[thread]: no who (who ran "
                            "the thread's measurements, when, on what); a [thread] section needs "
                            "who and table");
    /* CR line ends: inih read the whole file as its first line */
    expect_file_error("[experiment]\rop = vacuum\rpool_size = 12QB\r", 1,
                      "a carriage return that does not end the line (lines end in LF or CRLF; a "
                      "file of CR line ends reads as one line)");
    expect_file_error("[experiment]\nname = a\rb\n", 2,
                      "a carriage return that does not end the line (lines end in LF or CRLF; a "
                      "file of CR line ends reads as one line)");
    /* text after a section header: inih dropped it */
    expect_file_error("[experiment] op=vacuum\n", 1,
                      "[experiment]: text after the section header (a key goes on a line of its "
                      "own)");
    /* an unterminated header: blamed on the line after it */
    expect_file_error("[experiment\nname = x\n", 1, "a section header without its ']'");
    expect_file_error("[experiment]\nname = x\n[thread ; who]\nwho = y\n", 3,
                      "a section header without its ']'");
    /* an unknown section, even without keys */
    expect_file_error("[experiment]\n[expriment]\n", 2,
                      "[expriment]: unknown section (known: [experiment], [thread])");

    /* CRLF keeps working, with its line numbers; a comment after a header is one */
    path = sbtest_write_temp("[experiment] ; the keys\r\nname = crlf\r\nop = vacuum, count\r\n"
                      "description = two\r\n  lines\r\n");
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_OK);
    assert_string_equal(exp.settings[SB_K_NAME].values[0], "crlf");
    assert_int_equal(exp.settings[SB_K_OP].nvalues, 2);
    assert_string_equal(exp.settings[SB_K_OP].values[1], "count");
    assert_string_equal(exp.settings[SB_K_DESCRIPTION].values[0], "two lines");
    sb_experiment_free(&exp);
    sbtest_remove_temp(path);
    expect_file_error("[experiment]\r\nname = crlf\r\npool_size = 12QB\r\n", 3,
                      "pool_size: \"12QB\" is not a size (e.g. 8192, 256K, 16MB)");
}

/* Issue 15, item 10: an indented line goes on with the value above (it was "set twice"); one
 * that reads as a key of its own is refused rather than added to the value. */
static void test_file_continued(void **state)
{
    char *path = sbtest_write_temp("[experiment]\nname = c\ndescription = first\n    second\n"
                            "pool_size = 128K,\n    256K, 16M\n[thread]\nwho = someone,\n"
                            "  somewhere\ntable = t\nfigure = count clock 16MB:\n  1221 MB/s\n");
    struct sb_experiment exp;
    struct sb_error err = {0};
    char want[1024];
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_OK);
    assert_string_equal(exp.settings[SB_K_DESCRIPTION].values[0], "first second");
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].nvalues, 3);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].numbers[2], 16ull << 20);
    snprintf(want, sizeof want, "%s:5", path);
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].origin, want); /* where its key is */
    assert_string_equal(exp.thread.who, "someone, somewhere");
    assert_int_equal(exp.thread.nfigures, 1);
    assert_true(exp.thread.figures[0].value == 1221.0);
    sb_experiment_free(&exp);
    sbtest_remove_temp(path);

    /* a value that does not read joined is refused, at its key's line */
    expect_file_error("[experiment]\npool_size = 128K\n  256K\n", 2,
                      "pool_size: \"128K 256K\" is not a size (e.g. 8192, 256K, 16MB)");
    /* an indented key would be swallowed by the value above */
    expect_file_error("[experiment]\ndescription = d\n  op = vacuum\n", 3,
                      "description: \"op = vacuum\": an indented line goes on with the value "
                      "above; a key of its own starts its line");
    expect_file_error("[experiment]\n[thread]\nwho = w\n  table = t\n", 4,
                      "who: \"table = t\": an indented line goes on with the value above; a key "
                      "of its own starts its line");
    /* [thread] keys given twice (the second replaced the first) */
    path = sbtest_write_temp("[experiment]\n[thread]\nwho = a\nwho = b\n");
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_ERR_INPUT);
    snprintf(want, sizeof want, "%s:4: who: set twice in [thread] (first at line 3)", path);
    assert_string_equal(err.msg, want);
    sb_experiment_free(&exp);
    sbtest_remove_temp(path);
}

/* --- UTF-8 and lengths (issue 15, item 6) -------------------------------------------------- */

static bool is_utf8(const char *s)
{
    return sb_utf8_valid(s);
}

static void test_text_utf8(void **state)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    char name[600], set[700];
    (void)state;

    /* 64 two-byte characters (128 bytes): a legal name, whole in the plan and the run names */
    snprintf(name, sizeof name, "name=");
    for (int i = 0; i < 64; i++)
        strcat(name, "\xc3\xa9");
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, name, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "policy=clock,ring", &err), SB_OK);
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_OK);
    assert_string_equal(plan.experiment, name + 5);
    assert_true(strncmp(plan.runs[1].name, name + 5, 128) == 0);
    assert_string_equal(plan.runs[1].name + 128, " policy=ring");
    assert_string_equal(plan.notes, "");
    sb_plan_free(&plan);

    /* 127 of them (254 bytes): the run names are shortened between characters, and said so */
    snprintf(name, sizeof name, "name=");
    for (int i = 0; i < 127; i++)
        strcat(name, "\xc3\xa9");
    assert_int_equal(sb_experiment_set(&exp, name, &err), SB_OK);
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_OK);
    assert_string_equal(plan.experiment, name + 5);
    for (size_t r = 0; r < plan.nruns; r++) {
        assert_true(is_utf8(plan.runs[r].name));
        assert_true(strlen(plan.runs[r].name) < SB_RUN_NAME_MAX);
        assert_non_null(strstr(plan.runs[r].name, "\xe2\x80\xa6"));
    }
    assert_string_equal(plan.notes, "run names shortened to 239 bytes");
    sb_plan_free(&plan);

    /* longer than the report's field: refused, never cut */
    strcat(name, "xx");
    assert_int_equal(sb_experiment_set(&exp, name, &err), SB_ERR_INPUT);
    assert_true(strncmp(err.msg, "--set name=", 11) == 0);
    assert_non_null(strstr(err.msg, ": name: 256 bytes: at most 255 (\""));
    assert_true(is_utf8(err.msg));

    /* not UTF-8: refused with the key named, in --set and in a file */
    assert_int_equal(sb_experiment_set(&exp, "name=caf\xe9", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set name=caf\\xe9: name: the value is not UTF-8 (a report "
                                 "holds UTF-8 text only)"); /* printable: error.h */
    assert_int_equal(sb_experiment_set(&exp, "description=\xc3", &err), SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set(&exp, "machine=/tmp/\xff.ini", &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, ": machine: the value is not UTF-8"));
    snprintf(set, sizeof set, "data_dir=/%0600d", 0);
    assert_int_equal(sb_experiment_set(&exp, set, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, ": data_dir: 601 bytes: at most 511"));
    sb_experiment_free(&exp);
    expect_file_error("[experiment]\nname = t\ndescription = \xed\xa0\x80 (a surrogate)\n", 3,
                      "description: the value is not UTF-8 (a report holds UTF-8 text only)");
    expect_file_error("[experiment]\n[thread]\ntable = \xc0\xaf\n", 3,
                      "table: the value is not UTF-8 (a report holds UTF-8 text only)");
    /* a [thread] text longer than its field (over lines that go on): refused, not cut */
    snprintf(set, sizeof set, "[experiment]\n[thread]\nmachine = %060d\n  %020d\n", 0, 0);
    expect_file_error(set, 3, "machine: 81 bytes: at most 63 (\"00000000000000000000000000000000"
                      "00000000...\")");
}

/* [thread]'s slow and fast are placements, POLICY SIZE, read as a policy and a size (16M is
 * 16MB); calibrate finds its figure by the numbers; a bad placement or an unknown key is refused
 * at its line. */
static void test_thread_placements(void **state)
{
    char *path = sbtest_write_temp("[experiment]\n[thread]\nwho = w\ntable = t\n"
                                   "machine = x4500\nslow = clock 16M\n"
                                   "fast = clock 680K\nfigure = count clock 680KB: 1320 MB/s\n"
                                   "figure = count clock 16MB: 1221 MB/s\n"
                                   "calibrate = count clock 16384K\n");
    struct sb_experiment exp;
    struct sb_error err = {0};
    char name[64];
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_OK);
    assert_ptr_equal(exp.thread.slow.policy, sb_policy_find("clock"));
    assert_int_equal(exp.thread.slow.footprint, 16ull << 20);
    assert_string_equal(sb_placement_name_format(&exp.thread.slow, name, sizeof name),
                        "clock 16MB");
    assert_int_equal(exp.thread.fast.footprint, 680ull << 10);
    assert_int_equal(exp.thread.calibrate_figure, 1);
    /* a key index beyond the table is refused, not filed under another key */
    assert_int_equal(sb_thread_key(&exp.thread, 99, "clock 1MB", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "key 99: not a key of [thread]");
    assert_int_equal(exp.thread.fast.footprint, 680ull << 10);
    sb_experiment_free(&exp);
    sbtest_remove_temp(path);

    expect_file_error("[experiment]\n[thread]\nslow = lru 16MB\n", 3, "slow: \"lru 16MB\": "
                      "unknown policy lru (known: clock, ring, single, random, pg82)");
    expect_file_error("[experiment]\n[thread]\nfast = clock lots\n", 3, "fast: \"clock lots\": "
                      "\"lots\" is not a size (e.g. 16MB, 680KB)");
    expect_file_error("[experiment]\n[thread]\nfast = 680KB\n", 3, "fast: \"680KB\" is not "
                      "`POLICY SIZE` (e.g. clock 16MB)");
    expect_file_error("[experiment]\n[thread]\nfigure = count lru 16MB: 1 s\n", 3, "figure: "
                      "\"count lru 16MB: 1 s\": \"lru 16MB\": unknown policy lru (known: clock, "
                      "ring, single, random, pg82)");
    expect_file_error("[experiment]\n[thread]\nfastest = clock 16MB\n", 3, "fastest: unknown key "
                      "in [thread] (known: who, machine, table, table_size, slow, fast, figure, "
                      "calibrate, scanners, scanners_source)");
}

/* Issue 15, item 10: a path over 250 bytes keeps its file:line in every message (issue 49: its
 * middle left out, error.h, so that the line stays within 300 bytes). */
static void test_long_path(void **state)
{
    char dir[400], path[480];
    struct sb_experiment exp;
    struct sb_error err = {0};
    FILE *f;
    (void)state;

    snprintf(dir, sizeof dir, "/tmp/sb_test_experiment_%0200d", getpid());
    assert_true(mkdir(dir, 0700) == 0);
    snprintf(path, sizeof path, "%s/%0100d.ini", dir, 7);
    assert_non_null(f = fopen(path, "w"));
    fputs("[experiment]\nname = long\npool_size = 12QB\n", f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_ERR_INPUT);
    assert_true(strncmp(err.msg, path, 30) == 0);
    assert_true(strlen(err.msg) <= SB_ERROR_INPUT_MOST);
    assert_non_null(strstr(err.msg, "00007.ini:3: pool_size: \"12QB\" is not a size (e.g. 8192, "
                           "256K, 16MB)"));
    sb_experiment_free(&exp);
    /* and the plan's checks name the line too */
    assert_non_null(f = fopen(path, "w"));
    fputs("[experiment]\nname = long\ntable_size = 1001K\n", f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_OK);
    {
        struct sb_plan plan;
        assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_ERR_INPUT);
        assert_true(strncmp(err.msg, path, 30) == 0);
        assert_non_null(strstr(err.msg, "00007.ini:3: table_size: 1001KB is not a multiple of "
                               "the page size (8KB)"));
    }
    sb_experiment_free(&exp);
    unlink(path);
    rmdir(dir);
}

/* --- --set ---------------------------------------------------------------------------------- */

static void test_set(void **state)
{
    struct sb_experiment exp;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "pool_size=1M,2M", &err), SB_OK);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].nvalues, 2);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].numbers[0], 1ull << 20);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].numbers[1], 2ull << 20);
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].origin, "--set pool_size=1M,2M");
    /* a later --set replaces the value (it is not "set twice") */
    assert_int_equal(sb_experiment_set(&exp, "pool_size=4M", &err), SB_OK);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].nvalues, 1);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].numbers[0], 4ull << 20);

    assert_int_equal(sb_experiment_set(&exp, "nokey=1", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg,
                        "--set nokey=1: nokey: unknown key (`scanbench list` shows the keys)");
    assert_int_equal(sb_experiment_set(&exp, "pool_size=12QB", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set pool_size=12QB: pool_size: \"12QB\" is not a size (e.g. "
                                 "8192, 256K, 16MB)");
    /* the failed --set left the previous value */
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].numbers[0], 4ull << 20);
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].origin, "--set pool_size=4M");
    assert_int_equal(sb_experiment_set(&exp, "pool_size", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set pool_size: want KEY=VALUE");
    assert_int_equal(sb_experiment_set(&exp, "=16M", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set =16M: want KEY=VALUE");
    assert_int_equal(sb_experiment_set(&exp, "policy=", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set policy=: policy: empty value in \"\"");
    /* extra_copy: a fraction from 0 to 0.5, its number in millionths; 0 by default */
    assert_int_equal(exp.settings[SB_K_EXTRA_COPY].numbers[0], 0);
    assert_int_equal(sb_experiment_set(&exp, "extra_copy=0,0.05,0.5", &err), SB_OK);
    assert_int_equal(exp.settings[SB_K_EXTRA_COPY].numbers[1], 50000);
    assert_int_equal(exp.settings[SB_K_EXTRA_COPY].numbers[2], 500000);
    assert_int_equal(sb_experiment_set(&exp, "extra_copy=0.6", &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set extra_copy=0.6: extra_copy: \"0.6\" is not a fraction "
                                 "from 0 to 0.5 (e.g. 0.05)");
    assert_int_equal(sb_experiment_set(&exp, "extra_copy=5%", &err), SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set(&exp, "extra_copy=-0.1", &err), SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set(&exp, "extra_copy=nan", &err), SB_ERR_INPUT);
    sb_experiment_free(&exp);
}

/* Issue 15, item 10: --set reads as a line of the file (blanks around '=', ':', an inline
 * comment), by the same code: the same values as the file's line, or the same refusal. */
static void test_set_like_file(void **state)
{
    static const char *const lines[] = {
        "op = vacuum", "op=vacuum ; a comment", "op: vacuum", " pool_size =  1M , 2M ",
        "description = a;b", "description = a ; b", "name = x = y", "seed=1,2;3",
        "kernel = memcpy\t", "events = ./x:y",
    };
    (void)state;

    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        struct sb_experiment by_set, by_file;
        struct sb_error set_err = {0}, file_err = {0};
        char text[256];
        int set_status, file_status;

        snprintf(text, sizeof text, "[experiment]\n%s\n", lines[i]);
        assert_int_equal(sb_experiment_init(&by_set, &set_err), SB_OK);
        assert_int_equal(sb_experiment_init(&by_file, &file_err), SB_OK);
        set_status = sb_experiment_set(&by_set, lines[i], &set_err);
        file_status = sb_experiment_read_string(&by_file, text, "f", &file_err);
        if (set_status != file_status)
            fail_msg("\"%s\": --set %d (%s), file %d (%s)", lines[i], set_status, set_err.msg,
                     file_status, file_err.msg);
        for (int k = 0; k < SB_NKEYS; k++) {
            assert_int_equal(by_set.settings[k].nvalues, by_file.settings[k].nvalues);
            for (int v = 0; v < by_set.settings[k].nvalues; v++)
                if (strcmp(by_set.settings[k].values[v], by_file.settings[k].values[v]) != 0)
                    fail_msg("\"%s\": --set gives \"%s\", the file \"%s\"", lines[i],
                             by_set.settings[k].values[v], by_file.settings[k].values[v]);
        }
        sb_experiment_free(&by_set);
        sb_experiment_free(&by_file);
    }
    {
        struct sb_experiment exp;
        struct sb_error err = {0};
        assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
        assert_int_equal(sb_experiment_set(&exp, "op = vacuum ; the op", &err), SB_OK);
        assert_string_equal(exp.settings[SB_K_OP].values[0], "vacuum");
        assert_string_equal(exp.settings[SB_K_OP].origin, "--set op = vacuum ; the op");
        /* what is not one key line */
        assert_int_equal(sb_experiment_set(&exp, "#op=vacuum", &err), SB_ERR_INPUT);
        assert_string_equal(err.msg, "--set #op=vacuum: want KEY=VALUE");
        assert_int_equal(sb_experiment_set(&exp, "", &err), SB_ERR_INPUT);
        assert_string_equal(err.msg, "--set : want KEY=VALUE");
        assert_int_equal(sb_experiment_set(&exp, "[experiment]", &err), SB_ERR_INPUT);
        assert_string_equal(err.msg, "--set [experiment]: want KEY=VALUE");
        assert_int_equal(sb_experiment_set(&exp, "op=vacuum\nname=x", &err), SB_ERR_INPUT);
        assert_string_equal(err.msg, "--set op=vacuum\\x0aname=x: want one KEY=VALUE (a line "
                                     "break in it)");
        sb_experiment_free(&exp);
    }
}

/* --- plans ---------------------------------------------------------------------------------- */

/* Applies the --set assignments to the registry defaults and expects sb_plan_build to refuse
 * with exactly want. */
static void expect_plan_error(const char *const *sets, const struct sb_mem_limit *limit,
                              const char *want)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};

    sbtest_experiment_from_sets(&exp, sets);
    assert_int_equal(sb_plan_build(&exp, limit, &plan, &err), SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, want);
    assert_null(plan.runs);
    assert_int_equal(plan.nruns, 0);
    sb_experiment_free(&exp);
}

static size_t plan_runs(const char *const *sets, const struct sb_mem_limit *limit)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    size_t n;

    sbtest_experiment_from_sets(&exp, sets);
    if (sb_plan_build(&exp, limit, &plan, &err) != SB_OK)
        fail_msg("plan refused: %s", err.msg);
    n = plan.nruns;
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
    return n;
}

/* statements: a sequence, not a sweep; select = count; the last is the run's op; op must be
 * left alone or be the last; unknown statements and the shared pool refused. */
static void test_statements(void **state)
{
    const char *const sets[] = {"statements=select, vacuum", "policy=clock,pg82", NULL};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    (void)state;

    sbtest_experiment_from_sets(&exp, sets);
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_OK);
    assert_int_equal(plan.nruns, 2); /* policy's two, no sweep of the statements */
    for (size_t r = 0; r < plan.nruns; r++) {
        assert_int_equal(plan.runs[r].nstatements, 2);
        assert_ptr_equal(plan.runs[r].statements[0], sb_op_find("count"));
        assert_ptr_equal(plan.runs[r].statements[1], sb_op_find("vacuum"));
        assert_ptr_equal(plan.runs[r].op, sb_op_find("vacuum"));
    }
    assert_string_equal(plan.runs[1].policy->name, "pg82");
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
    /* by default no statements: just op */
    sbtest_experiment_from_sets(&exp, (const char *[]){NULL});
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_OK);
    assert_int_equal(plan.runs[0].nstatements, 0);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);

    assert_int_equal(plan_runs((const char *[]){"statements=select,vacuum", "op=vacuum", NULL},
                               &big_limit), 1);
    expect_plan_error((const char *[]){"statements=select,vacuum", "op=count", NULL}, &big_limit,
                      "--set op=count: op: op = count disagrees with statements = select,vacuum "
                      "(set at --set statements=select,vacuum): the last statement is the op "
                      "measured; leave op unset or make it vacuum");
    expect_plan_error((const char *[]){"statements=vacuum", "shared_pool=yes", "threads=2", NULL},
                      &big_limit, "--set statements=vacuum: statements: the shared pool "
                      "(shared_pool = yes, --set shared_pool=yes) runs one op, not a sequence");
    expect_file_error("[experiment]\nstatements = select, analyze\n", 2,
                      "statements: \"analyze\" in \"select, analyze\" is not a statement (known: "
                      "select, none, count, vacuum, vacuum-dirty)");
}

static void test_plan_errors(void **state)
{
    const struct sb_mem_limit limit64 = {.bytes = 64ull << 20, .source = "test"};
    (void)state;

    /* 1001K = 1025024 = 125 * 8192 + 1024 */
    expect_plan_error((const char *[]){"table_size=1001K", NULL}, &big_limit,
                      "--set table_size=1001K: table_size: 1001KB is not a multiple of the page "
                      "size (8KB)");
    expect_plan_error((const char *[]){"pool_size=100K", NULL}, &big_limit,
                      "--set pool_size=100K: pool_size: 100KB is not a multiple of the page size "
                      "(8KB)");
    expect_plan_error((const char *[]){"pool_size=128K", "ring_size=256K", "policy=ring", NULL},
                      &big_limit, "--set ring_size=256K: ring_size: 256KB ring is larger than the "
                      "pool (pool_size 128KB)");
    expect_plan_error((const char *[]){"ring_size=12K", "policy=clock,ring", NULL}, &big_limit,
                      "--set ring_size=12K: ring_size: 12KB is not a multiple of the page size "
                      "(8KB)");
    /* the ring only matters to the ring policy */
    assert_int_equal(plan_runs((const char *[]){"pool_size=128K", "ring_size=256K",
                                                "policy=clock,single,random", NULL}, &big_limit),
                     3);
    expect_plan_error((const char *[]){"page_size=3000", NULL}, &big_limit,
                      "--set page_size=3000: page_size: 3000B is not a power of two from 1KB to "
                      "32KB");
    expect_plan_error((const char *[]){"row_width=9000", NULL}, &big_limit,
                      "--set row_width=9000: row_width: no 9000-byte row fits on a 8KB page");
    /* the default table (512MB) is the larger: it is the one named, with its origin */
    expect_plan_error((const char *[]){"pool_size=1M", NULL}, &limit64,
                      "default: table_size: table 512MB + pool 1MB + 16MB overhead is more than "
                      "this host can give (64MB, test)");
    expect_plan_error((const char *[]){"table_size=8M", "pool_size=64M", NULL}, &limit64,
                      "--set pool_size=64M: pool_size: table 8MB + pool 64MB + 16MB overhead is "
                      "more than this host can give (64MB, test)");
    /* exactly at the limit: 32MB + 16MB + 16MB = 64MB fits (blocked: one run at a time) */
    assert_int_equal(plan_runs((const char *[]){"table_size=32M", "pool_size=16M",
                                                "schedule=blocked", NULL}, &limit64), 1);
    /* interleaved, the reference's 16MB pool and a layout's 16MB draw beside it: 96MB */
    expect_plan_error((const char *[]){"table_size=32M", "pool_size=16M", NULL}, &limit64,
                      "default: schedule: the 1 runs interleaved hold tables 32MB + pools 16MB + "
                      "the reference's pool and a layout's draw 32MB + a model 0B + 16MB overhead "
                      "at once: more than this host can give (64MB, test); schedule=blocked holds "
                      "one run at a time");
    assert_int_equal(plan_runs((const char *[]){"table_size=32M", "pool_size=16M", NULL},
                               &(struct sb_mem_limit){.bytes = 96ull << 20, .source = "test"}),
                     1);
    /* layout fixed draws none: the reference's pool alone, 80MB */
    assert_int_equal(plan_runs((const char *[]){"table_size=32M", "pool_size=16M",
                                                "layout=fixed", NULL},
                               &(struct sb_mem_limit){.bytes = 80ull << 20, .source = "test"}),
                     1);
    expect_plan_error((const char *[]){"table_size=32M", "pool_size=16392K", NULL}, &limit64,
                      "--set table_size=32M: table_size: table 32MB + pool 16392KB + 16MB "
                      "overhead is more than this host can give (64MB, test)");
}

/* The interleaved schedule holds every run at once, the scanner threads' stacks included (each
 * run's team starts before the rounds): two runs of two scanners that fit one at a time and
 * whose tables and pools fit together are refused for their four stacks (issue 25, item 9). */
static void test_memory_together_stacks(void **state)
{
    static const char *const sets[] = {"table_size=4M", "threads=2", "oversubscribe=yes",
                                       "pool_size=1M,2M", "op=count", NULL};
    uint64_t t = sb_mem_thread_bytes();
    /* alone, the 2MB run: tables 2 x 4MB + pools 2 x 2MB + 2 stacks + 16MB = 28MB + 2t;
     * together: 8MB + 6MB + 4 stacks + 16MB, and the reference (the 1MB run's 2 pools and 2
     * stacks) and a draw of the largest pool (2MB): 34MB + 6t */
    const struct sb_mem_limit limit = {.bytes = (34ull << 20) + 4 * t, .source = "test"};
    const struct sb_mem_limit roomy = {.bytes = (34ull << 20) + 6 * t, .source = "test"};
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    (void)state;

    sbtest_experiment_from_sets(&exp, sets);
    assert_int_equal(sb_plan_build(&exp, &limit, &plan, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, "the 2 runs interleaved hold tables 8MB + pools 6MB + "
                                    "the reference's pool and a layout's draw "));
    assert_non_null(strstr(err.msg, " + stacks "));
    assert_non_null(strstr(err.msg, "schedule=blocked holds one run at a time"));
    sb_experiment_free(&exp);
    sbtest_experiment_from_sets(&exp, sets);
    assert_int_equal(sb_plan_build(&exp, &roomy, &plan, &err), SB_OK);
    assert_int_equal(plan.nruns, 2);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

static void test_plan_error_file_origin(void **state)
{
    const struct sb_mem_limit limit64 = {.bytes = 64ull << 20, .source = "test"};
    char *path = sbtest_write_temp("[experiment]\nname = big\n\ntable_size = 512M\n");
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    char want[1024];
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(&exp, path, &err), SB_OK);
    assert_int_equal(sb_plan_build(&exp, &limit64, &plan, &err), SB_ERR_INPUT);
    snprintf(want, sizeof want, "%s:4: table_size: table 512MB + pool 16MB + 16MB overhead is more "
             "than this host can give (64MB, test)", path);
    assert_string_equal(err.msg, want);
    sb_experiment_free(&exp);
    sbtest_remove_temp(path);
}

static void test_sweep_order(void **state)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    /* registry order: op before kernel before pool_size before policy; the first key is
     * outermost, the last varies fastest */
    static const struct {
        const char *op, *policy;
        uint64_t pool;
        const char *name;
    } want[8] = {
        {"count", "clock", 128 << 10, "s op=count pool_size=128K policy=clock"},
        {"count", "ring", 128 << 10, "s op=count pool_size=128K policy=ring"},
        {"count", "clock", 256 << 10, "s op=count pool_size=256K policy=clock"},
        {"count", "ring", 256 << 10, "s op=count pool_size=256K policy=ring"},
        {"vacuum", "clock", 128 << 10, "s op=vacuum pool_size=128K policy=clock"},
        {"vacuum", "ring", 128 << 10, "s op=vacuum pool_size=128K policy=ring"},
        {"vacuum", "clock", 256 << 10, "s op=vacuum pool_size=256K policy=clock"},
        {"vacuum", "ring", 256 << 10, "s op=vacuum pool_size=256K policy=ring"},
    };
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "name=s", &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "policy=clock,ring", &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "pool_size=128K,256K", &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "ring_size=64K", &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "op=count,vacuum", &err), SB_OK);
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_OK);
    assert_int_equal(plan.nruns, 8);
    for (int i = 0; i < 8; i++) {
        assert_string_equal(plan.runs[i].op->name, want[i].op);
        assert_string_equal(plan.runs[i].policy->name, want[i].policy);
        assert_int_equal(plan.runs[i].pool_size, want[i].pool);
        assert_int_equal(plan.runs[i].ring_size, 64 << 10);
        assert_string_equal(plan.runs[i].name, want[i].name);
    }
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* sb_experiment_set_values: words checked as a list's elements are, the numbers taken; a bad
 * one, a repeat, a list for a key of one value, or kernel refused with the setting unchanged. */
static void test_set_values(void **state)
{
    static const char *const limits[] = {"0", "default"}, *const bad[] = {"64K"},
                             *const twice[] = {"0", "0"}, *const two[] = {"a", "b"},
                             *const kernel[] = {"memcpy"};
    struct sb_experiment exp;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_set_values(&exp, SB_K_BUFFER_USAGE_LIMIT, limits, 2, "here",
                                              &err), SB_OK);
    assert_int_equal(exp.settings[SB_K_BUFFER_USAGE_LIMIT].nvalues, 2);
    assert_int_equal(exp.settings[SB_K_BUFFER_USAGE_LIMIT].numbers[0], 0);
    assert_true(exp.settings[SB_K_BUFFER_USAGE_LIMIT].numbers[1] == SB_SERVER_DEFAULT);
    assert_string_equal(exp.settings[SB_K_BUFFER_USAGE_LIMIT].origin, "here");
    assert_int_equal(sb_experiment_set_values(&exp, SB_K_BUFFER_USAGE_LIMIT, bad, 1, "x", &err),
                     SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set_values(&exp, SB_K_BUFFER_USAGE_LIMIT, twice, 2, "x",
                                              &err), SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set_values(&exp, SB_K_DESCRIPTION, two, 2, "x", &err),
                     SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set_values(&exp, SB_K_KERNEL, kernel, 1, "x", &err),
                     SB_ERR_INPUT);
    assert_string_equal(exp.settings[SB_K_BUFFER_USAGE_LIMIT].values[1], "default");
    assert_int_equal(sb_experiment_set_values(&exp, SB_K_DESCRIPTION, two, 1, "x", &err), SB_OK);
    assert_string_equal(exp.settings[SB_K_DESCRIPTION].values[0], "a");
    sb_experiment_free(&exp);
}

static void test_kernel_all(void **state)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    int nsupported = 0, i = 0;
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "kernel=all", &err), SB_OK);
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_OK);
    for (const struct sb_kernel *k = sb_kernels; k->name; k++) {
        char note[128];
        snprintf(note, sizeof note, "kernel %s skipped: this CPU lacks %s", k->name, k->requires);
        if (!k->supported()) {
            assert_non_null(strstr(plan.notes, note));
            continue;
        }
        assert_null(strstr(plan.notes, note));
        assert_true((size_t)i < plan.nruns);
        assert_ptr_equal(plan.runs[i].kernel, k); /* registry order */
        assert_string_equal(exp.settings[SB_K_KERNEL].values[i], k->name);
        i++;
        nsupported++;
    }
    assert_int_equal(exp.settings[SB_K_KERNEL].nvalues, nsupported);
    assert_int_equal(plan.nruns, nsupported);
    assert_true(nsupported >= 1); /* memcpy, at least */
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

static void test_too_many_runs(void **state)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    char seeds[512] = "seed=", pools[512] = "pool_size=";
    (void)state;

    /* op 3 x pool_size 64 = 192 runs, x seed 64 = 12288 > 10000: refused at seed */
    for (int i = 1; i <= 64; i++) {
        snprintf(seeds + strlen(seeds), sizeof seeds - strlen(seeds), "%s%d", i > 1 ? "," : "", i);
        snprintf(pools + strlen(pools), sizeof pools - strlen(pools), "%s%dM", i > 1 ? "," : "",
                 i);
    }
    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "op=none,count,vacuum", &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, pools, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, seeds, &err), SB_OK);
    assert_int_equal(sb_plan_build(&exp, &big_limit, &plan, &err), SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, ": seed: the lists make more than 10000 runs"));
    assert_true(strncmp(err.msg, "--set seed=1,2,3,", 17) == 0);
    /* a 65th value is refused when read */
    assert_int_equal(sb_experiment_set(&exp, "seed=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,"
                                             "19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,"
                                             "36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,"
                                             "53,54,55,56,57,58,59,60,61,62,63,64,65", &err),
                     SB_ERR_INPUT);
    assert_non_null(strstr(err.msg, ": seed: more than 64 values"));
    sb_experiment_free(&exp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_parse_uint),
        cmocka_unit_test(test_format_size),
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_embedded_default),
        cmocka_unit_test(test_file_unknown_key),
        cmocka_unit_test(test_file_bad_values),
        cmocka_unit_test(test_file_unknown_names),
        cmocka_unit_test(test_file_structure),
        cmocka_unit_test(test_file_missing),
        cmocka_unit_test(test_read_string),
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_set_like_file),
        cmocka_unit_test(test_file_whole),
        cmocka_unit_test(test_file_continued),
        cmocka_unit_test(test_text_utf8),
        cmocka_unit_test(test_long_path),
        cmocka_unit_test(test_plan_errors),
        cmocka_unit_test(test_statements),
        cmocka_unit_test(test_writeback_keys),
        cmocka_unit_test(test_plan_error_file_origin),
        cmocka_unit_test(test_memory_together_stacks),
        cmocka_unit_test(test_sweep_order),
        cmocka_unit_test(test_kernel_all),
        cmocka_unit_test(test_set_values),
        cmocka_unit_test(test_too_many_runs),
        cmocka_unit_test(test_thread_placements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
