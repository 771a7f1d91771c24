/* SPDX-License-Identifier: BSD-3-Clause */
/* test_analysis_variance.c: unit tests for lib/report/analysis_variance.h on synthetic reports
 * (scanbench pg's: runs[].scans[] with round, position, layout and `around`, the reference's
 * scans under schedule.reference), built here with jansson and sb_rng: waiting for a CPU that
 * carries all the variation (its share 1, on and off a CPU 0, the shares summing to 1) and a
 * covariate proportional to the time (1); a time that depends only on the server instance (1)
 * while the other processes' CPU net of the backend's carries nothing; a time that depends only
 * on the run timed just before (the position before, the reference included, or the previous
 * round's last on the same instance: 1); scans without a whole `around` skipped, a covariate
 * missing in one scan null; no `around` anywhere (or too few scans) NULL; a time the same in
 * every scan null shares; the same answer twice; a position beyond the schedule. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <jansson.h>

#include "report/analysis_variance.h"
#include "stats/schedule.h"

#include "helper.h"

#define ROUNDS 60
#define NONE 0xffffffffu /* no run timed just before */

/* One scan's `around` as the test makes it. */
struct row {
    double on, waiting, off, others, host_busy, steal, dirty, written, faults;
    int cpu;
};

/* Fills run's scan of a round on instance layout, timed right after run before (NONE; the
 * reference is nruns). */
typedef void fill_fn(int run, uint32_t round, uint32_t layout, uint32_t before, struct row *r,
                     struct sb_rng *rng);

static json_t *around_json(const struct row *r)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:i}", "on_cpu", r->on,
                     "waiting", r->waiting, "off_cpu", r->off, "others_on_cpu", r->others,
                     "host_busy", r->host_busy, "steal", r->steal, "dirty_bytes", r->dirty,
                     "written_bytes", r->written, "minor_faults", r->faults, "cpu", r->cpu);
}

/* nruns runs (and the reference, with_reference) over ROUNDS rounds, each round in a seeded
 * shuffled order, a new server instance every per_layout rounds. */
static json_t *make_report(int nruns, bool with_reference, uint32_t per_layout, fill_fn *fill,
                           uint64_t seed)
{
    uint32_t width = (uint32_t)nruns + (with_reference ? 1u : 0u), order[8], last = NONE;
    json_t *runs = json_array(), *ref_scans = json_array(), *report;
    struct sb_rng rng;

    sb_rng_seed(&rng, seed);
    for (int k = 0; k < nruns; k++)
        json_array_append_new(runs, json_pack("{s:s+, s:[]}", "name", "run", k == 0 ? "0" : "1",
                                              "scans"));
    for (uint32_t r = 0; r < ROUNDS; r++) {
        uint32_t layout = r / per_layout;
        if (r % per_layout == 0)
            last = NONE; /* a new instance: nothing timed on it before */
        sb_schedule_round_order(seed, r, width, order);
        for (uint32_t p = 0; p < width; p++) {
            uint32_t who = order[p];
            json_t *scan = json_pack("{s:i, s:i, s:i, s:f, s:i}", "round", (int)r, "position",
                                     (int)p, "layout", (int)layout, "seconds", 1.0, "bytes",
                                     8000000);
            if (who == (uint32_t)nruns) {
                json_array_append_new(ref_scans, scan);
            } else {
                struct row row = {0};
                fill((int)who, r, layout, last, &row, &rng);
                json_object_set_new(scan, "around", around_json(&row));
                json_object_set_new(scan, "seconds", json_real(row.on + row.waiting + row.off));
                json_array_append_new(json_object_get(json_array_get(runs, who), "scans"), scan);
            }
            last = who;
        }
    }
    report = json_pack("{s:i, s:o}", "schema", 2, "runs", runs);
    if (with_reference)
        json_object_set_new(report, "schedule",
                            json_pack("{s:s, s:{s:s, s:o}}", "kind", "interleaved", "reference",
                                      "run", "reference", "scans", ref_scans));
    else
        json_decref(ref_scans);
    return report;
}

/* The entry named name of a run's list (parts, factors, covariates). */
static const json_t *entry(const json_t *run, const char *list, const char *name)
{
    size_t i;
    json_t *e;

    json_array_foreach(json_object_get(run, list), i, e)
        if (strcmp(json_string_value(json_object_get(e, "name")), name) == 0)
            return e;
    fail_msg("no %s named \"%s\"", list, name);
    return NULL;
}

/* A share's field (share, lo, hi) as a number; NAN for null. */
static double field(const json_t *run, const char *list, const char *name, const char *key)
{
    const json_t *v = json_object_get(entry(run, list, name), key);
    if (json_is_null(v))
        return NAN;
    assert_true(json_is_number(v));
    return json_number_value(v);
}

static void assert_share(const json_t *run, const char *list, const char *name, double want,
                         double eps)
{
    assert_near(field(run, list, name, "share"), want, eps);
}

/* Waiting for a CPU carries all the variation; the dirty bytes are proportional to the time;
 * steal is 0 throughout (bare metal). */
static void fill_waiting(int run, uint32_t round, uint32_t layout, uint32_t before,
                         struct row *r, struct sb_rng *rng)
{
    (void)round, (void)layout, (void)before;
    r->on = 0.5 + 0.1 * run;
    r->waiting = 0.05 + 0.2 * sb_rng_unit(rng);
    r->off = 0.2;
    r->others = sb_rng_unit(rng);
    r->host_busy = r->on + 2.0 * sb_rng_unit(rng);
    r->steal = 0.0;
    r->dirty = 4e6 * (r->on + r->waiting + r->off);
    r->written = 1e5 * sb_rng_unit(rng);
    r->faults = (double)sb_rng_below(rng, 1000);
    r->cpu = (int)sb_rng_below(rng, 4);
}

static void waiting_carries_all_the_variation(void **state)
{
    json_t *report = make_report(2, true, ROUNDS, fill_waiting, 7), *v, *again;
    const json_t *run;
    size_t i;

    (void)state;
    v = sb_analysis_variance(report);
    assert_non_null(v);
    assert_true(json_is_string(json_object_get(v, "method")));
    assert_int_equal(json_array_size(json_object_get(v, "runs")), 2);
    json_array_foreach(json_object_get(v, "runs"), i, run) {
        double sum = 0.0;
        assert_string_equal(json_string_value(json_object_get(run, "run")), i ? "run1" : "run0");
        assert_int_equal(json_integer_value(json_object_get(run, "scans")), ROUNDS);
        assert_true(json_number_value(json_object_get(run, "cv")) > 0.01);
        assert_int_equal(json_array_size(json_object_get(run, "parts")), 3);
        assert_int_equal(json_array_size(json_object_get(run, "factors")), 3);
        assert_int_equal(json_array_size(json_object_get(run, "covariates")), 7);
        assert_share(run, "parts", "waiting for a CPU", 1.0, 1e-9);
        assert_near(field(run, "parts", "waiting for a CPU", "lo"), 1.0, 1e-9);
        assert_near(field(run, "parts", "waiting for a CPU", "hi"), 1.0, 1e-9);
        assert_share(run, "parts", "on a CPU", 0.0, 1e-9);
        assert_share(run, "parts", "off a CPU", 0.0, 1e-9);
        for (size_t k = 0; k < 3; k++)
            sum += json_number_value(json_object_get(
                json_array_get(json_object_get(run, "parts"), k), "share"));
        assert_near(sum, 1.0, 1e-9);
        assert_share(run, "covariates", "the kernel's dirty bytes at the start", 1.0, 1e-9);
        assert_near(field(run, "covariates", "the kernel's dirty bytes at the start", "lo"), 1.0,
                    1e-9);
        /* covariates drawn apart from the time carry about nothing (60 scans) */
        assert_true(fabs(field(run, "covariates", "the other server processes on a CPU",
                               "share")) < 0.15);
        assert_true(fabs(field(run, "covariates", "bytes the kernel wrote out", "share")) <
                    0.15);
        /* steal the same in every scan: no share (null, with why) */
        assert_true(isnan(field(run, "covariates", "steal", "share")));
        /* one instance: the factor explains nothing */
        assert_share(run, "factors", "the server instance", 0.0, 1e-9);
    }
    /* the same report, the same answer */
    again = sb_analysis_variance(report);
    assert_true(json_equal(v, again));
    json_decref(again);
    json_decref(v);
    json_decref(report);
}

/* The time depends only on the server instance (6 of 10 rounds each); the host's busy time is
 * the backend's on a CPU plus a little noise, the minor faults proportional to the time, and
 * the bytes written missing in round 5's scans (the test removes them). */
static void fill_instance(int run, uint32_t round, uint32_t layout, uint32_t before,
                          struct row *r, struct sb_rng *rng)
{
    (void)run, (void)round, (void)before;
    r->on = 0.3 + 0.05 * layout;
    r->waiting = 0.1 + 0.02 * (layout % 3);
    r->off = 0.2;
    r->others = sb_rng_unit(rng);
    r->host_busy = r->on + 0.01 * sb_rng_unit(rng);
    r->steal = 0.001 * sb_rng_unit(rng);
    r->dirty = 1e6 * sb_rng_unit(rng);
    r->written = 1e5 * sb_rng_unit(rng); /* removed from round 5's scans */
    r->faults = 1000.0 * (r->on + r->waiting + r->off);
    r->cpu = (int)sb_rng_below(rng, 2);
}

static void the_server_instance_carries_the_variation(void **state)
{
    json_t *report = make_report(2, true, 10, fill_instance, 11), *v;
    const json_t *run;
    size_t i;

    (void)state;
    /* round 5's written_bytes: a key missing, not NaN in JSON */
    json_array_foreach(json_object_get(report, "runs"), i, run)
        json_object_del(json_object_get(json_array_get(json_object_get(run, "scans"), 5),
                                        "around"),
                        "written_bytes");
    v = sb_analysis_variance(report);
    assert_non_null(v);
    json_array_foreach(json_object_get(v, "runs"), i, run) {
        assert_int_equal(json_integer_value(json_object_get(run, "scans")), ROUNDS);
        assert_share(run, "factors", "the server instance", 1.0, 1e-9);
        assert_near(field(run, "factors", "the server instance", "lo"), 1.0, 1e-9);
        assert_near(field(run, "factors", "the server instance", "hi"), 1.0, 1e-9);
        assert_share(run, "parts", "off a CPU", 0.0, 1e-9);
        assert_near(field(run, "parts", "on a CPU", "share") +
                        field(run, "parts", "waiting for a CPU", "share"), 1.0, 1e-9);
        /* everything else on a CPU is the host's busy time net of the backend's: noise */
        assert_true(fabs(field(run, "covariates", "everything else on a CPU", "share")) < 0.15);
        assert_share(run, "covariates", "the backend's minor faults", 1.0, 1e-9);
        /* a covariate one scan lacks is not measured */
        assert_true(json_is_null(json_object_get(
            entry(run, "covariates", "bytes the kernel wrote out"), "share")));
        assert_true(json_is_null(json_object_get(
            entry(run, "covariates", "bytes the kernel wrote out"), "lo")));
        assert_true(json_is_string(json_object_get(
            entry(run, "covariates", "bytes the kernel wrote out"), "why")));
        assert_false(isnan(field(run, "covariates", "steal", "share")));
    }
    json_decref(v);
    json_decref(report);
}

/* The time (off a CPU) depends only on the run timed just before: nothing, run 0, run 1 or
 * the reference (index 2). */
static void fill_before(int run, uint32_t round, uint32_t layout, uint32_t before,
                        struct row *r, struct sb_rng *rng)
{
    (void)run, (void)round, (void)layout;
    r->on = 0.4;
    r->waiting = 0.1;
    r->off = before == NONE ? 0.05 : before == 0 ? 0.1 : before == 1 ? 0.3 : 0.2;
    r->others = sb_rng_unit(rng);
    r->host_busy = r->on + sb_rng_unit(rng);
    r->steal = 0.0;
    r->dirty = sb_rng_unit(rng);
    r->written = sb_rng_unit(rng);
    r->faults = sb_rng_unit(rng);
    r->cpu = 3;
}

static void the_run_timed_just_before_carries_the_variation(void **state)
{
    /* three instances of 20 rounds: a new one's first scan follows nothing */
    json_t *report = make_report(2, true, 20, fill_before, 13), *v;
    const json_t *run;
    size_t i;

    (void)state;
    v = sb_analysis_variance(report);
    assert_non_null(v);
    assert_int_equal(json_array_size(json_object_get(v, "runs")), 2);
    json_array_foreach(json_object_get(v, "runs"), i, run) {
        assert_share(run, "factors", "the run timed just before", 1.0, 1e-9);
        assert_near(field(run, "factors", "the run timed just before", "lo"), 1.0, 1e-9);
        assert_share(run, "parts", "off a CPU", 1.0, 1e-9);
        /* one CPU throughout: explains nothing */
        assert_share(run, "factors", "the CPU the backend ran on", 0.0, 1e-9);
    }
    json_decref(v);
    json_decref(report);
}

static void scans_without_around_are_skipped(void **state)
{
    json_t *report = make_report(2, false, ROUNDS, fill_waiting, 17), *v;
    json_t *runs = json_object_get(report, "runs");
    json_t *s0 = json_object_get(json_array_get(runs, 0), "scans"), *scan;
    size_t i;

    (void)state;
    json_object_del(json_array_get(s0, 3), "around");
    json_object_del(json_array_get(s0, 7), "around");
    json_object_del(json_object_get(json_array_get(s0, 11), "around"), "waiting");
    json_object_set_new(json_object_get(json_array_get(s0, 12), "around"), "off_cpu",
                        json_string("n/a"));
    json_array_foreach(json_object_get(json_array_get(runs, 1), "scans"), i, scan)
        json_object_del(scan, "around");
    v = sb_analysis_variance(report);
    assert_non_null(v);
    assert_int_equal(json_array_size(json_object_get(v, "runs")), 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(v, "runs"), 0), "run")), "run0");
    assert_int_equal(json_integer_value(json_object_get(
                         json_array_get(json_object_get(v, "runs"), 0), "scans")), ROUNDS - 4);
    assert_share(json_array_get(json_object_get(v, "runs"), 0), "parts", "waiting for a CPU",
                 1.0, 1e-9);
    json_decref(v);

    /* no scan with `around`: NULL */
    json_array_foreach(s0, i, scan)
        json_object_del(scan, "around");
    assert_null(sb_analysis_variance(report));
    json_decref(report);
    /* nor from an empty report, or a run's two scans */
    report = json_object();
    assert_null(sb_analysis_variance(report));
    json_decref(report);
    report = make_report(1, false, ROUNDS, fill_waiting, 19);
    s0 = json_object_get(json_array_get(json_object_get(report, "runs"), 0), "scans");
    json_array_foreach(s0, i, scan)
        if (i >= 2)
            json_object_del(scan, "around");
    assert_null(sb_analysis_variance(report));
    json_decref(report);
}

static void fill_constant(int run, uint32_t round, uint32_t layout, uint32_t before,
                          struct row *r, struct sb_rng *rng)
{
    (void)run, (void)round, (void)layout, (void)before;
    *r = (struct row){0.5, 0.25, 0.125, sb_rng_unit(rng), 2.0, 0.0, 1e6, 1e5, 10.0, 1};
}

/* The host's speed moves from round to round (a factor per round, both runs alike), with a
 * little noise of each scan's own: the round's host level (the other run's ln MB/s) explains
 * most of each run's variance; a hash of the round stands for the drift. */
static double drift(uint32_t round)
{
    return 1.0 + 0.3 * (double)((round * 2654435761u) >> 24) / 256.0;
}

static void fill_level(int run, uint32_t round, uint32_t layout, uint32_t before, struct row *r,
                       struct sb_rng *rng)
{
    (void)layout, (void)before;
    r->on = (0.4 + 0.1 * run) * drift(round) * (1.0 + 0.01 * sb_rng_normal(rng));
    r->waiting = 0.0;
    r->off = 0.0;
    r->others = sb_rng_unit(rng);
    r->host_busy = r->on;
    r->dirty = r->written = r->faults = 0.0;
    r->cpu = 0;
}

static void the_rounds_host_level_carries_the_drift(void **state)
{
    json_t *report = make_report(2, false, ROUNDS, fill_level, 31), *v;
    const json_t *run;
    size_t i;

    (void)state;
    v = sb_analysis_variance(report);
    assert_non_null(v);
    json_array_foreach(json_object_get(v, "runs"), i, run) {
        assert_true(field(run, "covariates", "the round's host level", "share") > 0.9);
        assert_true(field(run, "covariates", "the round's host level", "lo") > 0.8);
        assert_true(fabs(field(run, "covariates", "the other server processes on a CPU",
                               "share")) < 0.15);
    }
    json_decref(v);
    json_decref(report);
}

static void the_same_time_in_every_scan_has_no_shares(void **state)
{
    json_t *report = make_report(1, true, 30, fill_constant, 23), *v;
    const json_t *run;
    const char *lists[] = {"parts", "factors", "covariates"};

    (void)state;
    v = sb_analysis_variance(report);
    assert_non_null(v);
    run = json_array_get(json_object_get(v, "runs"), 0);
    assert_int_equal(json_integer_value(json_object_get(run, "scans")), ROUNDS);
    assert_near(json_number_value(json_object_get(run, "cv")), 0.0, 1e-12);
    for (int l = 0; l < 3; l++) {
        size_t i;
        json_t *e;
        json_array_foreach(json_object_get(run, lists[l]), i, e) {
            assert_true(json_is_null(json_object_get(e, "share")));
            assert_true(json_is_null(json_object_get(e, "lo")));
            assert_true(json_is_null(json_object_get(e, "hi")));
            assert_true(json_is_string(json_object_get(e, "why")));
        }
    }
    json_decref(v);
    json_decref(report);
}

/* A scan whose position lies beyond the schedule (an edited report: the reader checks only that
 * it is not negative) follows no known run. */
static void a_position_beyond_the_schedule(void **state)
{
    json_t *report = make_report(2, false, ROUNDS, fill_waiting, 29), *v;
    json_t *s0 = json_object_get(json_array_get(json_object_get(report, "runs"), 0), "scans");

    (void)state;
    json_object_set_new(json_array_get(s0, ROUNDS - 1), "position", json_integer(1000000000));
    json_object_set_new(json_array_get(s0, ROUNDS - 2), "position", json_integer(5));
    v = sb_analysis_variance(report);
    assert_non_null(v);
    assert_int_equal(json_integer_value(json_object_get(
                         json_array_get(json_object_get(v, "runs"), 0), "scans")), ROUNDS);
    json_decref(v);
    json_decref(report);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(waiting_carries_all_the_variation),
        cmocka_unit_test(the_server_instance_carries_the_variation),
        cmocka_unit_test(the_run_timed_just_before_carries_the_variation),
        cmocka_unit_test(scans_without_around_are_skipped),
        cmocka_unit_test(the_same_time_in_every_scan_has_no_shares),
        cmocka_unit_test(the_rounds_host_level_carries_the_drift),
        cmocka_unit_test(a_position_beyond_the_schedule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
