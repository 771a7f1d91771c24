/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_pg_question.c: scanbench pg's default question (lib/pg/question.h) per server version,
 * on the embedded default experiment, without a server: 8.1 and 8.2 get the thread's pools
 * (16MB, then 680KB); 8.3 and 15 a pool 5x the table (no ring, by rule.c) then 16MB (the
 * ring), and a note that VACUUM has its ring in both; 16 and 18 buffer_usage_limit 0, default
 * as well; the ops stay COUNT(*) and VACUUM, repetitions auto; servers on both sides of 8.3 the
 * three pools; a --set of table_size sizes the pools (a table of 4MB or less has no ring in
 * 16MB either, which the question says), and one of pool_size, op or buffer_usage_limit puts no
 * question. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "pg/parse.h"
#include "pg/question.h"
#include "pg/rule.h"
#include "plan/experiment.h"

#define MB (1024ull * 1024ull)

/* The embedded default with the --set assignments (NULL-ended). */
static void default_experiment(struct sb_experiment *exp, const char *const *sets)
{
    struct sb_error err = {0};

    assert_int_equal(sb_experiment_init(exp, &err), SB_OK);
    assert_int_equal(sb_experiment_read_file(exp, NULL, &err), SB_OK);
    for (size_t k = 0; sets && sets[k]; k++)
        assert_int_equal(sb_experiment_set(exp, sets[k], &err), SB_OK);
}

static void assert_values(const struct sb_experiment *exp, enum sb_key_id key, const char *want)
{
    char got[256] = "";
    const struct sb_setting *s = &exp->settings[key];

    for (int v = 0; v < s->nvalues; v++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", v ? "," : "",
                 s->values[v]);
    assert_string_equal(got, want);
}

/* The question asked of one server: exp holds it. */
static void ask(const char *version, const char *const *sets, struct sb_experiment *exp,
                struct sb_pg_question *q)
{
    struct sb_error err = {0};
    bool asked = false;

    default_experiment(exp, sets);
    assert_int_equal(sb_pg_question_ask(exp, &version, 1, q, &asked, &err), SB_OK);
    assert_true(asked);
    assert_values(exp, SB_K_OP, "count,vacuum");
    assert_values(exp, SB_K_REPETITIONS, "auto");
    assert_non_null(strstr(exp->settings[SB_K_DESCRIPTION].values[0],
                           "the thread's question on PostgreSQL"));
}

/* COUNT(*)'s placement on version in a pool of pool bytes, for a table of table bytes. */
static const char *count_policy(const char *version, uint64_t table, uint64_t pool)
{
    static struct sb_pg_placement p;

    sb_pg_placement_decide("count", table / 8192, pool / 8192, 8192, sb_pg_version_num(version),
                           &p);
    return p.policy;
}

static void test_before_rings(void **state)
{
    static const char *const versions[] = {"8.1.21", "8.2.23"};
    struct sb_experiment exp;
    struct sb_pg_question q;
    (void)state;

    for (size_t v = 0; v < 2; v++) {
        ask(versions[v], NULL, &exp, &q);
        assert_values(&exp, SB_K_POOL_SIZE, "16M,680K");
        assert_values(&exp, SB_K_TABLE_SIZE, "64M");
        assert_values(&exp, SB_K_BUFFER_USAGE_LIMIT, "default");
        assert_string_equal(q.note, "");
        assert_non_null(strstr(q.description, "680KB of shared_buffers (inside L2) against "
                                              "over 16MB"));
        sb_experiment_free(&exp);
    }
}

static void test_rings_before_16(void **state)
{
    static const char *const versions[] = {"8.3.23", "15.20 (Debian 15.20-0+deb12u1)"};
    struct sb_experiment exp;
    struct sb_pg_question q;
    (void)state;

    for (size_t v = 0; v < 2; v++) {
        ask(versions[v], NULL, &exp, &q);
        assert_values(&exp, SB_K_POOL_SIZE, "320M,16M");
        assert_values(&exp, SB_K_BUFFER_USAGE_LIMIT, "default");
        assert_string_equal(count_policy(versions[v], 64 * MB, 320 * MB), "clock");
        assert_string_equal(count_policy(versions[v], 64 * MB, 16 * MB), "ring");
        assert_non_null(strstr(q.description, "through its 256KB ring (16MB shared_buffers) "
                                              "against scattered over 320MB"));
        assert_non_null(strstr(q.note, "VACUUM reads through its ring whatever the pool"));
        sb_experiment_free(&exp);
    }
}

static void test_vacuum_without_ring(void **state)
{
    static const char *const versions[] = {"16.4", "18.1"};
    struct sb_experiment exp;
    struct sb_pg_question q;
    (void)state;

    for (size_t v = 0; v < 2; v++) {
        ask(versions[v], NULL, &exp, &q);
        assert_values(&exp, SB_K_POOL_SIZE, "320M,16M");
        assert_values(&exp, SB_K_BUFFER_USAGE_LIMIT, "0,default");
        assert_int_equal(exp.settings[SB_K_BUFFER_USAGE_LIMIT].numbers[0], 0);
        assert_string_equal(count_policy(versions[v], 64 * MB, 320 * MB), "clock");
        assert_string_equal(count_policy(versions[v], 64 * MB, 16 * MB), "ring");
        assert_non_null(strstr(q.description, "against none (buffer_usage_limit = 0)"));
        assert_string_equal(q.note, "");
        sb_experiment_free(&exp);
    }
}

/* 8.2 beside 15 and 16: three pools, 5x the table first; no buffer_usage_limit (15 has none),
 * which the note says. */
static void test_mixed_versions(void **state)
{
    static const char *const versions[] = {"8.2.23", "15.20", "16.4"};
    struct sb_experiment exp;
    struct sb_pg_question q;
    struct sb_error err = {0};
    bool asked;
    (void)state;

    default_experiment(&exp, NULL);
    assert_int_equal(sb_pg_question_ask(&exp, versions, 3, &q, &asked, &err), SB_OK);
    assert_values(&exp, SB_K_POOL_SIZE, "320M,16M,680K");
    assert_values(&exp, SB_K_BUFFER_USAGE_LIMIT, "default");
    assert_non_null(strstr(q.description, "PostgreSQL 8.2.23, 15.20 and 16.4"));
    assert_non_null(strstr(q.note, "a server given is older than 16"));
    sb_experiment_free(&exp);
}

/* --set table_size sizes the scattered pool (5x the largest) and stays; --set repetitions
 * stays too. */
static void test_set_table(void **state)
{
    static const char *const sets[] = {"table_size=16M", "repetitions=4", NULL};
    const char *version = "15.20";
    struct sb_experiment exp;
    struct sb_pg_question q;
    struct sb_error err = {0};
    bool asked = false;
    (void)state;

    default_experiment(&exp, sets);
    assert_int_equal(sb_pg_question_ask(&exp, &version, 1, &q, &asked, &err), SB_OK);
    assert_true(asked);
    assert_values(&exp, SB_K_POOL_SIZE, "80M,16M");
    assert_values(&exp, SB_K_TABLE_SIZE, "16M");
    assert_values(&exp, SB_K_REPETITIONS, "4");
    assert_null(strstr(q.description, "no ring there either"));
    sb_experiment_free(&exp);
}

/* A table of 4MB or less has no ring in 16MB either: the description says so. */
static void test_small_table(void **state)
{
    struct sb_pg_question q;
    const char *version = "15.20";
    (void)state;

    sb_pg_question_for(&version, 1, 4 * MB, &q);
    assert_non_null(strstr(q.description, "COUNT(*) has no ring there either"));
    assert_string_equal(count_policy(version, 4 * MB, 16 * MB), "clock");
}

/* The user's word wins: pool_size, op or buffer_usage_limit set, no question, nothing changed. */
static void test_user_decides(void **state)
{
    static const char *const sets[][2] = {{"pool_size=16M,680K", NULL}, {"op=count", NULL},
                                          {"buffer_usage_limit=0", NULL}};
    const char *version = "16.4";
    (void)state;

    for (size_t k = 0; k < 3; k++) {
        struct sb_experiment exp;
        struct sb_pg_question q;
        struct sb_error err = {0};
        bool asked = true;
        default_experiment(&exp, sets[k]);
        assert_int_equal(sb_pg_question_ask(&exp, &version, 1, &q, &asked, &err), SB_OK);
        assert_false(asked);
        assert_values(&exp, SB_K_TABLE_SIZE, "512M");
        assert_null(strstr(exp.settings[SB_K_DESCRIPTION].values[0], "question"));
        sb_experiment_free(&exp);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_before_rings),
        cmocka_unit_test(test_rings_before_16),
        cmocka_unit_test(test_vacuum_without_ring),
        cmocka_unit_test(test_mixed_versions),
        cmocka_unit_test(test_set_table),
        cmocka_unit_test(test_small_table),
        cmocka_unit_test(test_user_decides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
