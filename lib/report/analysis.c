/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis.c: a report's noise floor, per-run intervals and paired comparisons (the knees:
 * analysis_knee.c). */
#include "config.h"
#include "report/analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis_knee.h"
#include "report/analysis_aa.h"
#include "report/analysis_layouts.h"
#include "report/analysis_variance.h"
#include "report/analysis_level.h"
#include "report/runs.h"
#include "stats/stats.h"
#include "vocab/vocab.h"
#include "report/field.h"

#define MAX_COMPARISONS 4096
/* The shortest trace (seconds from the first timing to the last) whose drift is reported. */
#define SB_DRIFT_MIN_SPAN 30.0

/* A figure, or null where there is none (NaN) or it overflowed (a drift over milliseconds). */
static json_t *number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* --- the noise floor ---------------------------------------------------------------------- */

/* The reference run's timings (both of each round) in the order they ran: [at, MB/s]. */
static json_t *reference_trace(const json_t *run, const json_t *second, double *drift)
{
    const json_t *lists[2] = {json_object_get(run, "scans"), second};
    size_t n = json_array_size(lists[0]) + json_array_size(lists[1]), k = 0, i;
    double *t = malloc((n ? n : 1) * sizeof *t), *y = malloc((n ? n : 1) * sizeof *y);
    json_t *trace = json_array(), *scan;

    *drift = NAN;
    for (int l = 0; l < 2 && t && y; l++)
        json_array_foreach(lists[l], i, scan) {
            t[k] = json_number_value(json_object_get(scan, "at"));
            y[k++] = json_number_value(json_object_get(scan, "mbps"));
            json_array_append_new(trace, json_pack("[f, f]", t[k - 1], y[k - 1]));
        }
    /* a drift per minute read off a few seconds would be an extrapolation, not a measurement */
    if (t && y && k > 2) {
        double lo = t[0], hi = t[0];
        for (size_t j = 1; j < k; j++) {
            lo = fmin(lo, t[j]);
            hi = fmax(hi, t[j]);
        }
        if (hi - lo >= SB_DRIFT_MIN_SPAN)
            *drift = sb_drift_per_minute(t, y, k);
    }
    free(t);
    free(y);
    return trace;
}

/* {"run", "floor", "bound", "delta", "too_noisy", "drift_per_minute", "trace", "rule"};
 * *floor, *delta. */
static json_t *noise_json(const json_t *report, size_t nrounds, const uint32_t *groups,
                          double *floor, double *delta)
{
    const json_t *run = sb_report_reference_run(report);
    const json_t *second = sb_report_reference_scans(report);
    double *a = run ? sb_run_round_mbps(run, nrounds) : NULL;
    double *b = run ? sb_scans_round_mbps(second, nrounds) : NULL;
    double drift = NAN, bound = NAN;
    json_t *trace = run ? reference_trace(run, second, &drift) : json_array();

    *floor = NAN;
    if (a && b) {
        *floor = sb_noise_floor(a, b, nrounds);
        bound = sb_noise_bound_layouts(a, b, groups, nrounds, SB_BOOTSTRAP_RESAMPLES,
                                       SB_BOOTSTRAP_SEED);
    }
    *delta = sb_delta(*floor);
    free(a);
    free(b);
    return json_pack("{s:o, s:o, s:o, s:f, s:b, s:o, s:o, s:s}", "run",
                     run ? json_string(sb_field_text(run, "name")) : json_null(),
                     "floor", number(*floor), "bound", number(bound), "delta", *delta,
                     "too_noisy", !isnan(bound) && bound > SB_NOISE_FLOOR_MAX,
                     "drift_per_minute", number(drift),
                     "trace", trace, "rule",
                     "floor: exp(|median of d|) - 1, d = ln(MB/s) of the reference run's two "
                     "timings in a round (its two instances, each with pools of its own, where "
                     "the schedule names a layout; before layouts, the same instance timed "
                     "twice): how far apart identical configurations came out; "
                     "delta = max(2%, floor); bound: the 95th percentile of |median of d| over "
                     "2000 bootstrap resamples of the layouts and the rounds within them "
                     "(expanded for few layouts), above 5% flagged too noisy (a "
                     "warning: the calls are still made); drift: the least-squares slope of "
                     "ln(MB/s) of the reference's timings over time");
}

/* --- each run's median and its interval ------------------------------------------------------ */

static json_t *runs_json(const json_t *runs, size_t nrounds, const uint32_t *groups)
{
    json_t *list = json_array(), *run;
    size_t i;

    json_array_foreach(runs, i, run) {
        double *x = sb_run_round_mbps(run, nrounds), lo = NAN, hi = NAN, median = NAN;
        if (x) {
            sb_median_interval_layouts(x, groups, nrounds, SB_CONFIDENCE,
                                       SB_BOOTSTRAP_RESAMPLES, SB_BOOTSTRAP_SEED + i, &lo, &hi);
            median = sb_run_median_mbps(run);
        }
        free(x);
        json_array_append_new(list, json_pack("{s:s, s:o, s:o, s:o}", "name",
                                              sb_field_text(run, "name"), "median",
                                              number(median), "lo", number(lo), "hi",
                                              number(hi)));
    }
    return list;
}

/* --- paired comparisons --------------------------------------------------------------------- */

struct pair {
    size_t a, b; /* indices into runs: a against b (the ratio a / b) */
    bool scaled; /* the thread's pair scaled to this host (thread.scaled) */
};

static size_t index_of(const json_t *runs, const json_t *run)
{
    size_t i;
    json_t *r;
    json_array_foreach(runs, i, r)
        if (r == run)
            return i;
    return SIZE_MAX;
}

/* The runs' own pairs: each run's "paired_with", the names of the runs it is compared
 * against (scanbench pg's rounds: the same server's first run of its op, the first server's run
 * of the same setting); 0 when no run has one. */
static size_t named_pairs(const json_t *runs, struct pair *pairs, size_t max)
{
    size_t n = 0, i, k;
    json_t *run, *name;

    json_array_foreach(runs, i, run)
        json_array_foreach(json_object_get(run, "paired_with"), k, name) {
            const json_t *other = sb_find_run_named(runs, sb_text(name));
            if (other && other != run && n < max)
                pairs[n++] = (struct pair){i, index_of(runs, other), false};
        }
    return n;
}

/* The runs' own pairs (named_pairs); else fast against slow per op (a [thread] block); else
 * each run against its op's first. */
static size_t pairs_of(const json_t *report, struct pair *pairs, size_t max)
{
    const json_t *runs = json_object_get(report, "runs"), *thread = json_object_get(report,
                                                                                    "thread");
    const char *slow = sb_field_text(thread, "slow"), *fast = sb_text(json_object_get(thread,
                                                                                        "fast"));
    size_t n = named_pairs(runs, pairs, max), i, j;
    json_t *run;

    if (n > 0)
        return n;
    if (json_is_object(thread) && !(*slow && *fast))
        return 0; /* a reproduction without a slow/fast pair: its sweep's knee says it all */
    if (*slow && *fast) {
        const json_t *scaled = json_object_get(thread, "scaled");
        const char *sslow = sb_field_text(scaled, "slow.here");
        const char *sfast = sb_field_text(scaled, "fast.here");
        for (const struct sb_op *o = sb_ops; o->name && n < max; o++) {
            const json_t *f = sb_find_run(runs, o->name, fast), *s = sb_find_run(runs, o->name,
                                                                                slow);
            if (f && s)
                pairs[n++] = (struct pair){index_of(runs, f), index_of(runs, s), false};
        }
        /* the same pair at this host's scale (reproduce's fourth column), when it differs */
        if (*sslow && *sfast && (strcmp(sslow, slow) != 0 || strcmp(sfast, fast) != 0))
            for (const struct sb_op *o = sb_ops; o->name && n < max; o++) {
                const json_t *f = sb_find_run(runs, o->name, sfast),
                             *s = sb_find_run(runs, o->name, sslow);
                if (f && s && f != s)
                    pairs[n++] = (struct pair){index_of(runs, f), index_of(runs, s), true};
            }
        return n;
    }
    json_array_foreach(runs, i, run) {
        const char *op = sb_field_text(run, "op");
        for (j = 0; j < i && strcmp(sb_field_text(json_array_get(runs, j), "op"), op); j++)
            ;
        if (j < i && n < max)
            pairs[n++] = (struct pair){i, j, false};
    }
    return n;
}

/* Why a comparison has no interval (its lo and hi null): the estimate fails only so (or out of
 * memory). */
static const char no_interval_why[] = "fewer than 2 rounds with both runs timed";

static void call_text(const struct sb_paired *e, const char *call, double delta, double resolvable,
                      char *buf, size_t len)
{
    double pct = 100.0 * (e->ratio - 1.0), lo = 100.0 * (e->lo - 1.0),
           hi = 100.0 * (e->hi - 1.0);

    if (strcmp(call, "faster") == 0)
        snprintf(buf, len, "faster by %.1f%% [%.1f%%, %.1f%%]", pct, lo, hi);
    else if (strcmp(call, "slower") == 0)
        snprintf(buf, len, "slower by %.1f%% [%.1f%%, %.1f%%]", -pct, -hi, -lo);
    else if (strcmp(call, "same") == 0)
        snprintf(buf, len, "the same within %.1f%%", 100.0 * delta);
    else if (isnan(e->ratio))
        snprintf(buf, len, "inconclusive: fewer than 2 rounds with both");
    else
        snprintf(buf, len, "inconclusive: the interval crosses the %.1f%% threshold; this run "
                 "could have resolved a difference of %.1f%%", 100.0 * delta, 100.0 * resolvable);
}

static json_t *comparison_json(const json_t *runs, const struct pair *pr, size_t k, size_t m,
                               size_t nrounds, const uint32_t *groups, double delta)
{
    const json_t *a = json_array_get(runs, pr->a), *b = json_array_get(runs, pr->b);
    double *x = sb_run_round_mbps(a, nrounds), *y = sb_run_round_mbps(b, nrounds);
    struct sb_paired e;
    char pa[64], pb[64], what[192];
    const char *call;
    double resolvable;

    if (!x || !y ||
        sb_paired_estimate_layouts(x, y, groups, nrounds, sb_bonferroni_level(SB_CONFIDENCE, m),
                                   SB_BOOTSTRAP_RESAMPLES, SB_BOOTSTRAP_SEED + 1000 + k,
                                   &e) != 0) {
        memset(&e, 0, sizeof e);
        e.ratio = e.lo = e.hi = e.wilcoxon.p = NAN;
        e.level = sb_bonferroni_level(SB_CONFIDENCE, m);
    }
    free(x);
    free(y);
    call = isnan(e.ratio) ? "inconclusive" : sb_call_names[sb_paired_call(&e, delta)];
    resolvable = sb_resolvable(e.lo, e.hi, delta);
    sb_run_placement(a, pa, sizeof pa);
    sb_run_placement(b, pb, sizeof pb);
    call_text(&e, call, delta, resolvable, what, sizeof what);
    /* an interval that could not be computed says why, beside its null lo and hi */
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:s*, s:f, s:i, s:o, s:b, "
                     "s:s, s:s, s:f, s:o}", "pair", pr->scaled ? "scaled" : "thread",
                     "op", sb_field_text(a, "op"), "a", sb_field_text(a, "name"),
                     "b", sb_field_text(b, "name"), "a_placement", pa, "b_placement", pb,
                     "ratio", number(e.ratio), "lo", number(e.lo), "hi", number(e.hi),
                     "interval_why", isfinite(e.lo) && isfinite(e.hi) ? NULL : no_interval_why,
                     "level", e.level, "rounds", (int)e.n, "wilcoxon_p", number(e.wilcoxon.p),
                     "wilcoxon_exact", e.wilcoxon.exact, "call", call, "text", what,
                     "delta", delta, "resolvable", number(resolvable));
}

static json_t *comparisons_json(const json_t *report, size_t nrounds, const uint32_t *groups,
                                double delta)
{
    const json_t *runs = json_object_get(report, "runs");
    struct pair *pairs = malloc(MAX_COMPARISONS * sizeof *pairs);
    size_t n = pairs ? pairs_of(report, pairs, MAX_COMPARISONS) : 0;
    json_t *list = json_array();

    for (size_t k = 0; k < n; k++)
        json_array_append_new(list, comparison_json(runs, &pairs[k], k, n, nrounds, groups,
                                                    delta));
    free(pairs);
    return list;
}

/* --- the block -------------------------------------------------------------------------------- */

static const char method_rounds[] =
    "paired by round: d = ln(MB/s of a) - ln(MB/s of b) per round; the ratio "
    "a/b is exp(median d) with a 95% percentile bootstrap interval over whole "
    "rounds (2000 resamples, fixed seed), Bonferroni over the report's "
    "comparisons; a call is made when the interval lies beyond delta "
    "(faster, slower) or inside it (the same), inconclusive otherwise, with the "
    "smallest difference the interval's width could have resolved; Wilcoxon "
    "signed-rank p beside it";
static const char method_layouts[] =
    "paired by round: d = ln(MB/s of a) - ln(MB/s of b) per round; the ratio a/b is exp(median "
    "d) with a 95% two-stage bootstrap interval (2000 resamples, fixed seed): the layouts "
    "resampled, then the rounds within each, its percentiles expanded for the number of "
    "layouts (Hesterberg), so that a call clears the spread between layouts as well as the "
    "rounds' noise; Bonferroni over the report's comparisons; a call is made when the interval "
    "lies beyond delta (faster, slower) or inside it (the same), inconclusive otherwise, with "
    "the smallest difference the interval's width could have resolved; Wilcoxon signed-rank p "
    "beside it";

/* The block; levels: with the host's level (round_levels, each comparison's host_level). */
static json_t *build(const json_t *report, bool levels)
{
    size_t nrounds = sb_report_rounds(report);
    uint32_t *groups;
    double floor, delta;
    json_t *noise, *comparisons, *runs, *block;

    if (nrounds == 0)
        return json_pack("{s:b, s:s}", "available", 0, "why",
                         "the report has no rounds (schema 1, or no timed scan): the paired "
                         "analysis needs scans timed in rounds");
    groups = sb_report_round_layouts(report, nrounds);
    noise = noise_json(report, nrounds, groups, &floor, &delta);
    comparisons = comparisons_json(report, nrounds, groups, delta);
    if (levels)
        comparisons = sb_analysis_host_levels(report, comparisons, nrounds);
    runs = runs_json(json_object_get(report, "runs"), nrounds, groups);
    if (levels && groups)
        sb_analysis_add_layouts(report, runs, nrounds, groups);
    block = json_pack("{s:b, s:i, s:i, s:s, s:o, s:o, s:o, s:o, s:o*}", "available", 1,
                      "rounds", (int)nrounds, "layouts",
                      groups ? (int)sb_layouts_count(groups, NULL, nrounds) : 1, "method",
                      groups ? method_layouts : method_rounds, "noise", noise, "runs", runs,
                      "comparisons", comparisons, "knees", sb_analysis_knees(report, nrounds),
                      "round_levels", levels ? sb_analysis_round_levels(report, nrounds) : NULL);
    if (levels && block) {
        json_object_set_new(noise, "aa", sb_analysis_aa(report, nrounds, groups));
        json_object_set_new(block, "variance", sb_analysis_variance(report));
    }
    free(groups);
    return block;
}

const char *sb_comparison_ratio_text(const json_t *comparison, char *buf, size_t len)
{
    const json_t *ratio = json_object_get(comparison, "ratio");
    const json_t *lo = json_object_get(comparison, "lo"), *hi = json_object_get(comparison, "hi");

    if (!json_is_number(ratio))
        snprintf(buf, len, "no ratio");
    else if (!json_is_number(lo) || !json_is_number(hi))
        snprintf(buf, len, "%.2fx [no interval]", json_number_value(ratio));
    else
        snprintf(buf, len, "%.2fx [%.2f, %.2f]", json_number_value(ratio),
                 json_number_value(lo), json_number_value(hi));
    return buf;
}

json_t *sb_analysis_build(const json_t *report) { return build(report, true); }

json_t *sb_analysis_build_provisional(const json_t *report) { return build(report, false); }

bool sb_analysis_settled(const json_t *analysis, double precision)
{
    size_t i;
    json_t *c;

    if (!json_is_true(json_object_get(analysis, "available")))
        return false;
    json_array_foreach(json_object_get(analysis, "comparisons"), i, c) {
        const json_t *lo = json_object_get(c, "lo"), *hi = json_object_get(c, "hi");
        if (!json_is_number(lo) || !json_is_number(hi) ||
            !sb_interval_precise(json_number_value(lo), json_number_value(hi), precision))
            return false;
    }
    json_array_foreach(json_object_get(analysis, "knees"), i, c)
        if (!json_is_true(json_object_get(c, "settled")))
            return false;
    return true;
}
