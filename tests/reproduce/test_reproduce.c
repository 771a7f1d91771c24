/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_reproduce.c: unit tests of the reproduction's parts that need no rounds: the thread's
 * pools scaled to a given topology (the fast pool's ratio to L2 kept in whole pages, the slow
 * one beyond the last level and capped by the memory limit, and why there is none); the
 * pairing of the slow and fast placements with every op's runs; the questions an experiment's
 * runs answer and the budget's share of each, on synthetic figures; the time a pass spent
 * outside its rounds; the estimate said before a reproduction starts (an experiment's work
 * from its plan, the total at given rates, the line, the rates learnt); the emulation's
 * mechanism switches (which replay the same); the experiments known by name. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "reproduce/reproduce.h"

#include "helper.h"

static const struct sb_mem_limit big_limit = {.bytes = 1ull << 40, .source = "test"};

/* A host with an L2 of l2 bytes and an L3 of l3 (0: none). */
static struct sb_topology host(uint64_t l2, uint64_t l3)
{
    struct sb_topology t;

    memset(&t, 0, sizeof t);
    t.cache[SB_L2].size.value = l2;
    t.cache[SB_L3].size.value = l3;
    return t;
}

/* text (POLICY SIZE) as a placement; the test fails if it is not one. */
static struct sb_placement_name placement(const char *text)
{
    struct sb_placement_name p;
    struct sb_error err = {0};

    if (sb_placement_name_parse(text, &p, &err) != SB_OK)
        fail_msg("%s", err.msg);
    return p;
}

/* Luke Lonergan's X4500 (configs/machines/x4500.ini: 1MB L2): slow 16MB, fast 680KB. */
static struct sb_thread x4500_thread(void)
{
    struct sb_thread th;

    memset(&th, 0, sizeof th);
    th.present = true;
    snprintf(th.machine, sizeof th.machine, "x4500");
    th.slow = placement("clock 16MB");
    th.fast = placement("clock 680KB");
    return th;
}

/* The fast pool keeps its ratio to L2 (680KB / 1MB of a 512KB L2: 42.5 pages, rounded to 43);
 * the slow one, 16 x L2 = 8MB here, is raised to the smallest power of two of at least twice
 * the 32MB L3: 64MB, scattered beyond the last level. */
static void test_scale_to_host(void **state)
{
    struct sb_thread th = x4500_thread();
    struct sb_topology t = host(512 << 10, 32 << 20);
    struct sb_scaled_pool sp[2];
    char why[256] = "";
    (void)state;

    assert_true(sb_reproduce_scale_pools(&th, &t, &big_limit, sp, why, sizeof why));
    assert_string_equal(why, "");
    assert_int_equal(sp[1].bytes, 43 * 8192);
    assert_false(sp[1].scattered);
    assert_near(sp[1].ratio, 680.0 / 1024.0, 1e-12);
    assert_int_equal(sp[0].bytes, 64 << 20);
    assert_true(sp[0].scattered);
    assert_true(sp[0].beyond_llc);
    assert_near(sp[0].ratio, 16.0, 1e-12);
}

/* A quarter of the memory limit caps the scattered pool (64MB of memory: 16MB, not beyond the
 * 32MB L3, and the words say so); without an L3 the last level is the L2. */
static void test_scale_capped_and_no_l3(void **state)
{
    struct sb_thread th = x4500_thread();
    struct sb_topology t = host(512 << 10, 32 << 20), no_l3 = host(1 << 20, 0);
    struct sb_mem_limit small = {.bytes = 64 << 20, .source = "test"};
    struct sb_scaled_pool sp[2];
    char why[256] = "";
    (void)state;

    assert_true(sb_reproduce_scale_pools(&th, &t, &small, sp, why, sizeof why));
    assert_int_equal(sp[0].bytes, 16 << 20);
    assert_false(sp[0].beyond_llc);
    assert_non_null(strstr(sp[0].how, "NOT beyond its last level"));
    assert_true(sb_reproduce_scale_pools(&th, &no_l3, &big_limit, sp, why, sizeof why));
    assert_int_equal(sp[1].bytes, 85 * 8192); /* 680KB of a 1MB L2: the same */
    assert_int_equal(sp[0].bytes, 16 << 20);  /* 16 x 1MB, already beyond twice the L2 */
    assert_true(sp[0].beyond_llc);
    assert_non_null(strstr(sp[0].how, "L2"));
}

/* No scaled pools, and why: no machine, no L2 here, a machine that is not in configs/, a
 * placement whose policy's footprint is not its pool. */
static void test_scale_refused(void **state)
{
    struct sb_thread th = x4500_thread();
    struct sb_topology t = host(512 << 10, 32 << 20), none = host(0, 0);
    struct sb_scaled_pool sp[2];
    char why[256];
    (void)state;

    assert_false(sb_reproduce_scale_pools(&th, &none, &big_limit, sp, why, sizeof why));
    assert_string_equal(why, "this host's L2 size is unknown");
    th.machine[0] = '\0';
    assert_false(sb_reproduce_scale_pools(&th, &t, &big_limit, sp, why, sizeof why));
    assert_string_equal(why, "the [thread] section names no machine, or no slow and fast "
                             "placements");
    snprintf(th.machine, sizeof th.machine, "no-such-machine");
    assert_false(sb_reproduce_scale_pools(&th, &t, &big_limit, sp, why, sizeof why));
    assert_non_null(strstr(why, "machine no-such-machine: "));
    th = x4500_thread();
    th.slow = placement("ring 256KB");
    assert_false(sb_reproduce_scale_pools(&th, &t, &big_limit, sp, why, sizeof why));
    assert_string_equal(why, "ring 256KB: not a pool size to scale");
}

/* The thread.scaled block: each placement here and how, or why there is none. */
static void test_scaled_json(void **state)
{
    struct sb_thread th = x4500_thread();
    struct sb_topology t = host(512 << 10, 32 << 20);
    struct sb_scaled_pool sp[2];
    char why[256] = "";
    json_t *block;
    (void)state;

    assert_true(sb_reproduce_scale_pools(&th, &t, &big_limit, sp, why, sizeof why));
    block = sb_reproduce_scaled_json(&th, true, sp, why);
    assert_true(json_is_true(json_object_get(block, "available")));
    assert_string_equal(sb_field_text(block, "slow.thread"), "clock 16MB");
    assert_string_equal(sb_field_text(block, "slow.here"), "clock 64MB");
    assert_string_equal(sb_field_text(block, "fast.here"), "clock 344KB");
    json_decref(block);
    block = sb_reproduce_scaled_json(&th, false, sp, "this host's L2 size is unknown");
    assert_true(json_is_false(json_object_get(block, "available")));
    assert_string_equal(sb_field_text(block, "why"), "this host's L2 size is unknown");
    assert_null(json_object_get(block, "slow"));
    json_decref(block);
}

/* A plan of ops count and vacuum over the clock pools given (a pool_size list), thread x4500. */
static void plan_of(const char *pools, struct sb_experiment *exp, struct sb_plan *plan)
{
    const char *sets[] = {"op = count, vacuum", "policy = clock", "kernel = memcpy", pools,
                          "table_size = 32M", NULL};
    struct sb_error err = {0};

    sbtest_experiment_from_sets(exp, sets);
    exp->thread = x4500_thread();
    if (sb_plan_build(exp, &big_limit, plan, &err) != SB_OK)
        fail_msg("plan refused: %s", err.msg);
}

/* Every op has a run at the slow and at the fast placement, or the reproduction refuses the
 * experiment, naming the placement and the op. */
static void test_placements_paired(void **state)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_error err = {0};
    const struct sb_placement_name fast = placement("clock 680KB"), slow = placement("clock 16MB"),
                                   ring = placement("ring 680KB");
    (void)state;

    plan_of("pool_size = 680K, 16M", &exp, &plan);
    assert_true(sb_reproduce_has_placement(&plan.runs[0], &fast) ||
                sb_reproduce_has_placement(&plan.runs[0], &slow));
    assert_false(sb_reproduce_has_placement(&plan.runs[0], &ring));
    /* the size is a number: 16M, 16MB and 16384KB are one placement */
    exp.thread.slow = placement("clock 16M");
    assert_int_equal(sb_reproduce_check_placements(&plan, &exp.thread, "x.ini", &err), SB_OK);
    exp.thread.slow = placement("clock 16384KB");
    assert_int_equal(sb_reproduce_check_placements(&plan, &exp.thread, "x.ini", &err), SB_OK);
    assert_int_equal(sb_reproduce_check_placements(&plan, &exp.thread, "x.ini", &err), SB_OK);
    exp.thread.fast = placement("clock 1024K");
    assert_int_equal(sb_reproduce_check_placements(&plan, &exp.thread, "x.ini", &err),
                     SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, "x.ini: [thread] fast = clock 1MB: no run of op "
                        "count has that placement (the verdict compares slow and fast)");
    exp.thread.fast = (struct sb_placement_name){0}; /* an empty placement is not asked for */
    assert_int_equal(sb_reproduce_check_placements(&plan, &exp.thread, "x.ini", &err), SB_OK);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* The questions: per op slow against fast (again at this host's scale with scaled pools), and
 * a knee once an op has SB_KNEE_MIN_POINTS clock runs. */
static void test_questions(void **state)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    (void)state;

    plan_of("pool_size = 680K, 16M", &exp, &plan);
    assert_int_equal(sb_reproduce_questions(&plan, &exp.thread, false), 2);
    assert_int_equal(sb_reproduce_questions(&plan, &exp.thread, true), 4);
    exp.thread.slow = (struct sb_placement_name){0};
    assert_int_equal(sb_reproduce_questions(&plan, &exp.thread, true), 0);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
    plan_of("pool_size = 680K, 1M, 4M, 16M", &exp, &plan);
    assert_int_equal(sb_reproduce_questions(&plan, &exp.thread, false), 4);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* The share, on synthetic figures: 90% of 600 s is 540; 40 s spent and 10 runs left at 2 s
 * outside each leave 480, of which 3 questions of 12 get a quarter. --twice: the runs left
 * count twice, and each of the two schedules gets half. */
static void test_budget_share(void **state)
{
    (void)state;
    assert_near(sb_reproduce_budget_share(600, false, 40, 3, 12, 10, 2.0), 120.0, 1e-9);
    assert_near(sb_reproduce_budget_share(600, true, 40, 3, 12, 10, 2.0), 57.5, 1e-9);
    /* nothing left: the share of 1 s; nothing asked: all that is left */
    assert_near(sb_reproduce_budget_share(600, false, 600, 3, 12, 10, 2.0), 0.25, 1e-12);
    assert_near(sb_reproduce_budget_share(600, false, 40, 0, 0, 10, 2.0), 480.0, 1e-9);
    /* the last experiment takes all that is left */
    assert_near(sb_reproduce_budget_share(100, false, 30, 5, 5, 3, 1.0), 57.0, 1e-9);
}

/* The time a pass spent outside its rounds: elapsed less the schedule's rounds, never below 0. */
static void test_outside_rounds(void **state)
{
    json_t *report = json_pack("{s:{s:{s:f}}}", "schedule", "seconds", "rounds", 3.0);
    (void)state;

    assert_near(sb_reproduce_outside_rounds(report, 5.5), 2.5, 1e-12);
    assert_near(sb_reproduce_outside_rounds(report, 2.0), 0.0, 0.0);
    json_decref(report);
}

/* An experiment's work from its plan: 2 ops x 2 pools (680KB, 64MB) of a 32MB table,
 * interleaved (the reference a second instance of the first run), 15 ms timed scans; each
 * scan's settling pass covers the pool's footprint, the table at most. */
static void test_work_of(void **state)
{
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_reproduce_work w;
    const double table = 32.0 * 1024 * 1024, small = 680.0 * 1024;
    (void)state;

    plan_of("pool_size = 680K, 64M", &exp, &plan);
    assert_int_equal(plan.nruns, 4);
    plan.schedule.kind = SB_SCHEDULE_INTERLEAVED;
    plan.schedule.rounds = 0; /* repetitions auto: the least rounds */
    for (size_t i = 0; i < plan.nruns; i++) {
        plan.runs[i].min_scan_seconds = 0.015;
        plan.runs[i].slice_seconds = 0;
    }
    sb_reproduce_work_of(&plan, &w);
    assert_int_equal(w.rounds, SB_AUTO_ROUNDS_MIN);
    assert_int_equal(w.scans, 5);
    assert_int_equal(w.runs, 4);
    assert_near(w.scan_floor, 5 * 0.015, 1e-12);
    assert_near(w.pass_bytes, 5 * table, 0.5);
    assert_near(w.table_bytes, 5 * table, 0.5);
    /* the first run (680KB) twice, the other 680KB run once, the 64MB runs the table */
    assert_near(w.settle_bytes, 3 * small + 2 * table, 0.5);
    assert_int_equal(w.configurations, 0);
    plan.schedule.rounds = 3;
    sb_reproduce_work_of(&plan, &w);
    assert_int_equal(w.rounds, 3);
    sb_plan_free(&plan);
    sb_experiment_free(&exp);
}

/* The estimate on synthetic work and rates: the rounds at the least rounds (the timed scans'
 * floor, or their passes at the scan rate, whichever is longer, plus the settling passes),
 * outside the rounds per table byte, the emulations per byte of theirs; --twice doubles all
 * but the emulations; the line says whether it is within the budget or exceeds it, and why. */
static void test_estimate(void **state)
{
    struct sb_reproduce_work w[2] = {
        {.rounds = 10, .scans = 5, .runs = 4, .scan_floor = 0.5, .pass_bytes = 1e9,
         .settle_bytes = 1e9, .table_bytes = 4e9, .configurations = 3,
         .emulation_bytes = 1e9},
        {.rounds = 20, .scans = 2, .runs = 1, .scan_floor = 0.1, .pass_bytes = 1e8,
         .settle_bytes = 0, .table_bytes = 1e8},
    };
    struct sb_reproduce_rates r;
    struct sb_reproduce_estimate e;
    char line[1024];
    (void)state;

    sb_reproduce_rates_init(&r);
    r.scan_bytes_per_s = 1e9;
    r.outside_s_per_byte = 1e-9;
    r.emulation_s_per_byte = 2e-9;
    /* 10 x (max(0.5, 1) + 1) = 20; 20 x max(0.1, 0.1) = 2 */
    assert_near(sb_reproduce_least_rounds(&w[0], &r), 20.0, 1e-9);
    assert_near(sb_reproduce_least_rounds(&w[1], &r), 2.0, 1e-9);
    sb_reproduce_estimate(w, 2, false, &r, &e);
    assert_near(e.rounds, 22.0, 1e-9);
    assert_near(e.outside, 4.1, 1e-9);
    assert_near(e.emulations, 2.0, 1e-9);
    assert_near(e.total, 28.1, 1e-9);
    assert_int_equal(e.rounds_min, 10);
    assert_int_equal(e.scans, 90);
    assert_int_equal(e.runs, 5);
    assert_int_equal(e.configurations, 3);
    sb_reproduce_estimate_text(&e, false, 60, "--quick's", line, sizeof line);
    assert_string_equal(line, "needs about 28 s: the 10-round minimum of 2 experiments (90 "
                        "timed scans) about 22 s, outside the rounds (tables, validation, the "
                        "cache model's replays) about 4 s for 5 runs, emulating the thread "
                        "machines (3 configurations) about 2 s; within --quick's 60 s (the "
                        "rounds take what is left)");
    sb_reproduce_estimate(w, 2, true, &r, &e);
    assert_near(e.total, 2 * 22.0 + 2 * 4.1 + 2.0, 1e-9);
    assert_int_equal(e.scans, 180);
    sb_reproduce_estimate_text(&e, true, 40, "--quick --twice's", line, sizeof line);
    assert_non_null(strstr(line, "needs about 54 s: the 10-round minimum of 2 experiments, "
                                 "twice (180 timed scans)"));
    assert_non_null(strstr(line, "for 10 runs"));
    assert_non_null(strstr(line, "; exceeds --quick --twice's 40 s: the rounds' minimum is "
                                 "kept, not lowered to fit"));
}

/* The rates measured as the reproduction goes: the rounds' factor is the measured rounds
 * (scaled to the least rounds) over the estimate at the scan rate; outside the rounds, the
 * seconds over the table bytes. */
static void test_rates_learn(void **state)
{
    struct sb_reproduce_work w = {.rounds = 10, .scans = 2, .runs = 2, .scan_floor = 1.0,
                                  .table_bytes = 2e9};
    struct sb_reproduce_rates r;
    (void)state;

    sb_reproduce_rates_init(&r);
    assert_near(r.rounds_factor, 1.0, 0.0);
    /* estimated 10 x 1 s; measured 30 rounds in 60 s: 2 s a round, 20 s for the least */
    sb_reproduce_rates_learn(&r, &w, 60.0, 30, 4.0);
    assert_near(r.rounds_factor, 2.0, 1e-12);
    assert_near(r.outside_s_per_byte, 2e-9, 1e-21);
    assert_near(sb_reproduce_least_rounds(&w, &r), 20.0, 1e-9);
    /* no round measured (a schedule stopped before one): the rounds' factor unchanged */
    sb_reproduce_rates_learn(&r, &w, 0.0, 0, 0.0);
    assert_near(r.rounds_factor, 2.0, 1e-12);
    assert_near(r.outside_s_per_byte, 1e-9, 1e-21); /* 4 s over 4e9 bytes */
}

/* The emulation's configurations, in order, and those that replay the same as the one with
 * every mechanism: writeback = none and hint_bits = set already, a machine without a
 * prefetcher. */
static void test_emulation_switches(void **state)
{
    static const char *const order[] = {"all", "l2_deferral", "writeback_copy", "hint_bits",
                                        "footprint", "prefetch"};
    static const char *const all_on[] = {"writeback = evict", "hint_bits = unset",
                                         "pool_size = 1M", "table_size = 4M", NULL};
    static const char *const sets[] = {"writeback = none", "hint_bits = set",
                                       "pool_size = 1M", "table_size = 4M", NULL};
    struct sb_setup s;
    struct sb_machine m;
    struct sb_emulation_variant v[SB_EMULATION_VARIANTS_MAX];
    struct sb_error err = {0};
    int n;
    (void)state;

    memset(&s, 0, sizeof s);
    memset(&m, 0, sizeof m);
    snprintf(m.name, sizeof m.name, "nopf");
    m.config.prefetch = true;
    sbtest_experiment_from_sets(&s.exp, all_on); /* every mechanism on */
    s.exp_ready = true;
    assert_int_equal(sb_plan_build(&s.exp, &big_limit, &s.plan, &err), SB_OK);
    n = sb_emulation_variants(&s, &m, v);
    assert_int_equal(n, 6);
    for (int k = 0; k < n; k++) {
        assert_string_equal(v[k].mechanism, order[k]);
        assert_null(v[k].same_as);
    }
    assert_string_equal(v[1].set, "kernel=nt");
    assert_string_equal(v[4].set, "pool_size=8K");
    sb_setup_free(&s);

    memset(&s, 0, sizeof s);
    m.config.prefetch = false;
    sbtest_experiment_from_sets(&s.exp, sets); /* write-back and hint bits off already */
    s.exp_ready = true;
    assert_int_equal(sb_plan_build(&s.exp, &big_limit, &s.plan, &err), SB_OK);
    n = sb_emulation_variants(&s, &m, v);
    assert_int_equal(n, 6);
    assert_null(v[0].same_as);
    assert_null(v[1].same_as);
    assert_string_equal(v[2].same_as, "all");
    assert_string_equal(v[2].note, "writeback = none already: the same replay");
    assert_string_equal(v[3].same_as, "all");
    assert_null(v[4].same_as);
    assert_string_equal(v[5].same_as, "all");
    assert_non_null(strstr(v[5].note, "nopf models no prefetcher"));
    sb_setup_free(&s);
}

/* The experiments by name: each known one has a [thread] section; one named twice, or one not
 * known, is refused with the names that are. */
static void test_names(void **state)
{
    static struct sb_reproduction r;
    char known[SB_REPRODUCE_MAX_EXPERIMENTS][SB_REPRODUCE_NAME_MAX];
    int n = sb_reproduce_known(known, SB_REPRODUCE_MAX_EXPERIMENTS);
    struct sb_error err = {0};
    bool x4500 = false;
    (void)state;

    for (int k = 0; k < n; k++) {
        x4500 |= strcmp(known[k], "x4500-bigtable") == 0;
        assert_string_not_equal(known[k], "default"); /* no [thread] section */
        if (k)
            assert_true(strcmp(known[k - 1], known[k]) < 0);
    }
    assert_true(x4500);
    memset(&r, 0, sizeof r);
    assert_int_equal(sb_reproduce_name(&r, "x4500-bigtable", &err), SB_OK);
    assert_int_equal(sb_reproduce_name(&r, "x4500-bigtable", &err), SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, "x4500-bigtable: experiment named twice");
    assert_int_equal(sb_reproduce_name(&r, "default", &err), SB_ERR_INPUT);
    sbtest_assert_error_contains(&err, SB_ERR_INPUT, "default: unknown experiment (known: ");
    assert_int_equal(sb_reproduce_name_all(&r, &err), SB_OK);
    assert_int_equal(r.n, n);
    sb_reproduce_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_to_host),
        cmocka_unit_test(test_scale_capped_and_no_l3),
        cmocka_unit_test(test_scale_refused),
        cmocka_unit_test(test_scaled_json),
        cmocka_unit_test(test_placements_paired),
        cmocka_unit_test(test_questions),
        cmocka_unit_test(test_budget_share),
        cmocka_unit_test(test_outside_rounds),
        cmocka_unit_test(test_work_of),
        cmocka_unit_test(test_estimate),
        cmocka_unit_test(test_rates_learn),
        cmocka_unit_test(test_emulation_switches),
        cmocka_unit_test(test_names),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
