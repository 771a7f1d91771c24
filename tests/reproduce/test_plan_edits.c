/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_plan_edits.c: the reproduction's plans edited as values (sb_plan_set_pools: the pool
 * list trimmed by --quick and the thread's scaled pools added, the runs made again without a
 * file read or a size written out and read back) are the plans the text route made before:
 * every thread experiment, with and without --quick, is planned by sb_reproduce_prepare and,
 * here only, by the old route (the pool list written as a `pool_size=...` line, set, and the
 * experiment planned again), and the two plans compared field by field, every run's fields
 * included. Also the typed pool list's checks (range, repeats, a word for a new size). */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/counters.h"
#include "reproduce/reproduce.h"
#include "stats/stats.h"

#include "helper.h"

/* --- the old text route (lib/reproduce/prepare.c before plans were edited as values) ----- */

static const char *old_size_word(uint64_t bytes, char *buf, size_t len)
{
    if (bytes % (1ull << 30) == 0)
        snprintf(buf, len, "%lluG", (unsigned long long)(bytes >> 30));
    else if (bytes % (1ull << 20) == 0)
        snprintf(buf, len, "%lluM", (unsigned long long)(bytes >> 20));
    else
        snprintf(buf, len, "%lluK", (unsigned long long)(bytes >> 10));
    return buf;
}

static int old_replan(struct sb_setup *s, const char *set, const struct sb_mem_limit *limit,
                      struct sb_error *err)
{
    int status;

    sb_plan_free(&s->plan);
    memset(&s->plan, 0, sizeof s->plan);
    status = sb_experiment_set(&s->exp, set, err);
    return status == SB_OK ? sb_setup_plan(s, limit, err) : status;
}

static int old_trim(struct sb_setup *s, const struct sb_mem_limit *limit, struct sb_error *err)
{
    const struct sb_setting *pool = &s->exp.settings[SB_K_POOL_SIZE];
    const struct sb_setting *table = &s->exp.settings[SB_K_TABLE_SIZE];
    uint64_t llc = s->topo.cache[SB_L3].size.value ? s->topo.cache[SB_L3].size.value
                                                   : s->topo.cache[SB_L2].size.value;
    uint64_t biggest = 0, cap, keep[2] = {0, 0};
    char set[2048] = "pool_size=";
    size_t used = strlen(set);
    int kept = 0, dropped = 0;

    if (pool->nvalues < SB_KNEE_MIN_POINTS)
        return SB_OK;
    for (int v = 0; v < table->nvalues; v++)
        biggest = table->numbers[v] > biggest ? table->numbers[v] : biggest;
    cap = 4 * biggest > 2 * llc ? 4 * biggest : 2 * llc;
    sb_reproduce_placement_pool(&s->exp.thread.slow, &keep[0]);
    sb_reproduce_placement_pool(&s->exp.thread.fast, &keep[1]);
    for (int v = 0; v < pool->nvalues; v++) {
        uint64_t b = pool->numbers[v];
        if (b <= cap || b == keep[0] || b == keep[1])
            used += (size_t)snprintf(set + used, sizeof set - used, "%s%s", kept++ ? "," : "",
                                     pool->values[v]);
        else
            dropped++;
    }
    if (!dropped || kept < SB_KNEE_MIN_POINTS)
        return SB_OK;
    return old_replan(s, set, limit, err);
}

static void old_uncount(struct sb_setup *s, const struct sb_scaled_pool scaled[2])
{
    const struct sb_thread *th = &s->exp.thread;

    for (size_t j = 0; j < s->plan.nruns; j++) {
        struct sb_run_params *run = &s->plan.runs[j];
        bool is_scaled = false;
        for (int k = 0; k < 2; k++) {
            struct sb_placement_name here = {.policy = sb_policy_find("clock"),
                                             .footprint = scaled[k].bytes};
            is_scaled |= sb_reproduce_has_placement(run, &here);
        }
        if (is_scaled && !sb_reproduce_has_placement(run, &th->slow) &&
            !sb_reproduce_has_placement(run, &th->fast))
            run->counters = sb_counter_backend_find("none");
    }
}

static int old_add_scaled(struct sb_setup *s, bool quick, const struct sb_mem_limit *limit,
                          struct sb_error *err)
{
    const struct sb_setting *pool = &s->exp.settings[SB_K_POOL_SIZE];
    struct sb_scaled_pool scaled[2];
    char set[2048] = "pool_size=", word[32], why[256];
    size_t used = strlen(set);
    bool added = false;
    int status;

    if (!sb_reproduce_scale_pools(&s->exp.thread, &s->topo, limit, scaled, why, sizeof why))
        return SB_OK;
    for (int v = 0; v < pool->nvalues; v++)
        used += (size_t)snprintf(set + used, sizeof set - used, "%s%s", v ? "," : "",
                                 pool->values[v]);
    for (int k = 0; k < 2; k++) {
        bool known = false;
        for (int v = 0; v < pool->nvalues; v++)
            known |= pool->numbers[v] == scaled[k].bytes;
        if (k == 1 && scaled[1].bytes == scaled[0].bytes)
            known = true;
        if (!known)
            used += (size_t)snprintf(set + used, sizeof set - used, ",%s",
                                     old_size_word(scaled[k].bytes, word, sizeof word));
        added |= !known;
    }
    if (!added)
        return SB_OK;
    status = old_replan(s, set, limit, err);
    if (status == SB_OK && quick)
        old_uncount(s, scaled);
    return status;
}

/* Experiment path planned the old way, with the reproduction's sets. */
static int old_route(const struct sb_reproduction *r, const char *path, struct sb_setup *s,
                     struct sb_error *err)
{
    int status = sb_setup_read(s, path, r->sets, r->nsets, err);

    if (status == SB_OK)
        status = sb_setup_plan(s, &r->limit, err);
    if (status == SB_OK && r->quick)
        status = old_trim(s, &r->limit, err);
    if (status == SB_OK)
        status = old_add_scaled(s, r->quick, &r->limit, err);
    return status;
}

/* --- the comparison ------------------------------------------------------------------------ */

/* Two runs with every field the same: the events map and the machine model (owned by each
 * plan) compared by what they are, the rest byte for byte. */
static void assert_same_run(const struct sb_run_params *a, const struct sb_run_params *b)
{
    struct sb_run_params x = *a, y = *b;

    assert_string_equal(a->name, b->name);
    assert_int_equal(a->machine != NULL, b->machine != NULL);
    if (a->machine)
        assert_string_equal(a->machine->file, b->machine->file);
    assert_int_equal(a->events->map != NULL, b->events->map != NULL);
    x.machine = y.machine = NULL;
    x.events = y.events = NULL;
    assert_int_equal(a->pool_size, b->pool_size);
    assert_ptr_equal(a->counters, b->counters);
    assert_true(a->run_timeout == b->run_timeout);
    assert_memory_equal(&x, &y, sizeof x);
}

static void assert_same_plan(const struct sb_plan *a, const struct sb_plan *b)
{
    assert_string_equal(a->experiment, b->experiment);
    assert_string_equal(a->config_source, b->config_source);
    assert_string_equal(a->notes, b->notes);
    assert_int_equal(a->names_shortened, b->names_shortened);
    assert_int_equal(a->schedule.kind, b->schedule.kind);
    assert_int_equal(a->schedule.rounds, b->schedule.rounds);
    assert_true(a->schedule.time_budget == b->schedule.time_budget);
    assert_int_equal(a->schedule.seed, b->schedule.seed);
    assert_int_equal(a->schedule.layout, b->schedule.layout);
    assert_int_equal(a->schedule.layout_rounds, b->schedule.layout_rounds);
    assert_memory_equal(&a->calibration, &b->calibration, sizeof a->calibration);
    assert_memory_equal(a->override_size, b->override_size, sizeof a->override_size);
    assert_int_equal(a->nruns, b->nruns);
    for (size_t j = 0; j < a->nruns; j++)
        assert_same_run(&a->runs[j], &b->runs[j]);
}

/* Every thread experiment planned both ways (quick: with --quick): the same plan, or the same
 * refusal. */
static void compare_all(bool quick)
{
    char known[SB_REPRODUCE_MAX_EXPERIMENTS][SB_REPRODUCE_NAME_MAX];
    int n = sb_reproduce_known(known, SB_REPRODUCE_MAX_EXPERIMENTS), compared = 0;
    static const char *const sets[] = {"schedule_seed=1"};

    assert_true(n > 0);
    for (int k = 0; k < n; k++) {
        struct sb_reproduction *r = calloc(1, sizeof *r);
        struct sb_setup old;
        struct sb_error err = {0}, old_err = {0};
        int status, old_status;

        assert_non_null(r);
        memset(&old, 0, sizeof old);
        r->quick = quick;
        assert_int_equal(sb_reproduce_name(r, known[k], &err), SB_OK);
        status = sb_reproduce_prepare(r, sets, 1, &err);
        old_status = old_route(r, r->paths[0], &old, &old_err);
        if (status != old_status)
            fail_msg("%s: typed %d (%s), text %d (%s)", known[k], status, err.msg, old_status,
                     old_err.msg);
        if (status == SB_OK) {
            print_message("%s%s: %zu runs, the same\n", known[k], quick ? " --quick" : "",
                          old.plan.nruns);
            assert_same_plan(&r->setups[0].plan, &old.plan);
            compared++;
        }
        sb_setup_free(&old);
        sb_reproduce_free(r);
        free(r);
    }
    assert_true(compared > 0);
}

static void test_quick_plans_same(void **state)
{
    (void)state;
    compare_all(true);
}

static void test_full_plans_same(void **state)
{
    (void)state;
    compare_all(false);
}

/* The typed list: words kept for the sizes the list had, a size word for a new one, and the
 * key's checks (range, repeats, count) with the list left as it was. */
static void test_set_sizes(void **state)
{
    struct sb_experiment exp;
    struct sb_error err = {0};
    const uint64_t good[] = {16384 * 1024ull, 680 * 1024ull, 3ull << 30, 8192};
    const uint64_t twice[] = {1 << 20, 1 << 20};
    const uint64_t zero[] = {0};
    (void)state;

    assert_int_equal(sb_experiment_init(&exp, &err), SB_OK);
    assert_int_equal(sb_experiment_set(&exp, "pool_size=16384K, 2M", &err), SB_OK);
    assert_int_equal(sb_experiment_set_sizes(&exp, SB_K_POOL_SIZE, good, 4, "here", &err), SB_OK);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].nvalues, 4);
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].values[0], "16384K");
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].values[1], "680K");
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].values[2], "3G");
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].values[3], "8K");
    assert_string_equal(exp.settings[SB_K_POOL_SIZE].origin, "here");
    assert_int_equal(sb_experiment_set_sizes(&exp, SB_K_POOL_SIZE, twice, 2, NULL, &err),
                     SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, "pool_size: 1MB twice in the list");
    assert_int_equal(sb_experiment_set_sizes(&exp, SB_K_POOL_SIZE, zero, 1, NULL, &err),
                     SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, "pool_size: 0B is out of range");
    assert_int_equal(sb_experiment_set_sizes(&exp, SB_K_POOL_SIZE, good, 0, NULL, &err),
                     SB_ERR_INPUT);
    assert_int_equal(sb_experiment_set_sizes(&exp, SB_K_OP, good, 1, NULL, &err), SB_ERR_INPUT);
    assert_int_equal(exp.settings[SB_K_POOL_SIZE].nvalues, 4); /* unchanged */
    sb_experiment_free(&exp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_sizes),
        cmocka_unit_test(test_quick_plans_same),
        cmocka_unit_test(test_full_plans_same),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
