/* SPDX-License-Identifier: BSD-3-Clause */
/* test_pg_auto.c: unit tests for repetitions = auto's rule on the live rounds
 * (lib/pg/rounds.h's sb_pg_auto_stop), on synthetic states, no server: never before
 * SB_PG_ROUNDS_MIN rounds; precision asked only after an even count of rounds on at least
 * SB_PG_INSTANCES_MIN instances, and then the stop is settled()'s word; the budget before the
 * precision, and without asking; no settled(), no stop for precision. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "pg/rounds.h"

/* settled()'s answer and how often it was asked. */
struct oracle {
    bool answer;
    int asked;
};

static bool ask(void *ctx)
{
    struct oracle *o = ctx;
    o->asked++;
    return o->answer;
}

static const char *stop(uint32_t rounds, uint32_t instances, double elapsed, double last,
                        double budget, struct oracle *o)
{
    struct sb_pg_auto a = {rounds, instances, elapsed, last, budget};
    return sb_pg_auto_stop(&a, ask, o);
}

static void never_before_the_least_rounds(void **state)
{
    struct oracle yes = {true, 0};

    (void)state;
    for (uint32_t r = 0; r < SB_PG_ROUNDS_MIN; r++) /* even past the budget */
        assert_null(stop(r, SB_PG_INSTANCES_MIN + 3, 1e6, 1.0, 10.0, &yes));
    assert_int_equal(yes.asked, 0);
}

static void precision_asked_after_a_pair_of_rounds_on_enough_instances(void **state)
{
    struct oracle yes = {true, 0}, no = {false, 0};
    uint32_t even = SB_PG_ROUNDS_MIN + (SB_PG_ROUNDS_MIN % 2);

    (void)state;
    assert_null(stop(even + 1, SB_PG_INSTANCES_MIN, 1.0, 0.1, 100.0, &yes)); /* odd */
    assert_null(stop(even, SB_PG_INSTANCES_MIN - 1, 1.0, 0.1, 100.0, &yes)); /* too few */
    assert_int_equal(yes.asked, 0);
    assert_string_equal(stop(even, SB_PG_INSTANCES_MIN, 1.0, 0.1, 100.0, &yes), "precision");
    assert_int_equal(yes.asked, 1);
    /* intervals not yet narrow: go on, whatever a difference looks like */
    assert_null(stop(even, SB_PG_INSTANCES_MIN, 1.0, 0.1, 100.0, &no));
    assert_null(stop(400, 60, 50.0, 0.1, 100.0, &no));
    assert_int_equal(no.asked, 2);
}

static void the_budget_first_and_without_asking(void **state)
{
    struct oracle yes = {true, 0};

    (void)state;
    /* another round of the last one's length would pass the budget */
    assert_string_equal(stop(20, 10, 100.0, 10.0, 105.0, &yes), "time_budget");
    assert_int_equal(yes.asked, 0);
    /* it fits: the precision decides */
    assert_string_equal(stop(20, 10, 100.0, 4.0, 105.0, &yes), "precision");
    assert_int_equal(yes.asked, 1);
}

static void no_oracle_no_precision(void **state)
{
    struct sb_pg_auto a = {40, 20, 1.0, 0.1, 100.0};

    (void)state;
    assert_null(sb_pg_auto_stop(&a, NULL, NULL));
    a.elapsed = 99.95;
    assert_string_equal(sb_pg_auto_stop(&a, NULL, NULL), "time_budget");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(never_before_the_least_rounds),
        cmocka_unit_test(precision_asked_after_a_pair_of_rounds_on_enough_instances),
        cmocka_unit_test(the_budget_first_and_without_asking),
        cmocka_unit_test(no_oracle_no_precision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
