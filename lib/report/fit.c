/* SPDX-License-Identifier: BSD-3-Clause */
/* fit.c: the host's fit: predicted against measured MB/s over a report's runs, the median
 * error, the rank correlation and the sentence that says whether the model explains the host
 * (fit.h). */
#include "config.h"
#include "report/fit.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/runs.h"
#include "stats/stats.h"
#include "report/field.h"

#define NGROUPS 4 /* L1d, L2, L3, beyond the last level */
#define WHY_LEN 2048

static const char *const group_words[NGROUPS] = {"L1d-resident", "L2-resident", "L3-resident",
                                                 "beyond-cache"};
static const char *const group_names[NGROUPS] = {"L1d", "L2", "L3", "memory"};

struct pair {
    const json_t *run;
    const char *op;
    double measured, predicted;
    int group;
};

static json_t *number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

/* Where the run's pool (the bytes it writes into) fits in the host's caches: the smallest level
 * at least its size; beyond the largest known level, memory. */
static int group_of(const json_t *report, const json_t *run)
{
    uint64_t footprint = (uint64_t)json_integer_value(json_object_get(run, "footprint"));

    for (int l = 0; l < NGROUPS - 1; l++) {
        uint64_t size = sb_report_cache_size(report, group_names[l]);
        if (size && footprint <= size)
            return l;
    }
    return NGROUPS - 1;
}

/* Whether the run's prediction is for this host (core/this_host.h: its cache model's machine
 * is `auto` or a file `scanbench probe` wrote). An emulated machine's prediction (x4500) is not
 * the host's to fit. */
static bool for_this_host(const json_t *run)
{
    const json_t *m = sb_field(run, "counters.machine");

    return sb_machine_names_this_host(sb_field_text(m, "name"), sb_field_text(m, "source"));
}

/* The runs with a prediction for this host and a measured median, as pairs (malloc'd; *n of
 * them). */
static struct pair *collect(const json_t *report, size_t *n)
{
    const json_t *runs = json_object_get(report, "runs");
    struct pair *p = malloc((json_array_size(runs) + 1) * sizeof *p);
    size_t i;
    json_t *run;

    *n = 0;
    json_array_foreach(runs, i, run) {
        double predicted = json_number_value(
            sb_field(run, "predicted.mbps"));
        double measured = sb_run_median_mbps(run);
        if (!p || !(predicted > 0) || !(measured > 0) || !for_this_host(run))
            continue;
        p[(*n)++] = (struct pair){.run = run, .op = sb_field_text(run, "op"),
                                  .measured = measured, .predicted = predicted,
                                  .group = group_of(report, run)};
    }
    return p;
}

static void append(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    va_list ap;

    if (used + 1 >= len)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* Medians of op's runs in group g: measured and predicted; false when it has none. */
static bool group_medians(const struct pair *p, size_t n, const char *op, int g, double *m,
                          double *pr)
{
    double *a = malloc((2 * n + 1) * sizeof *a);
    size_t k = 0;

    for (size_t i = 0; a && i < n; i++)
        if (p[i].group == g && strcmp(p[i].op, op) == 0) {
            a[k] = p[i].measured;
            a[n + k++] = p[i].predicted;
        }
    if (k) {
        *m = sb_median(a, k);
        *pr = sb_median(a + n, k);
    }
    free(a);
    return k > 0;
}

/* Every two groups of one op that the model orders one way and the host, by more than the
 * margin, the other; how many were said. */
static int group_disagreements(const struct pair *p, size_t n, char *why, size_t len)
{
    int said = 0;

    for (size_t i = 0; i < n; i++) {
        bool first_of_op = true;
        for (size_t j = 0; j < i; j++)
            first_of_op &= strcmp(p[j].op, p[i].op) != 0;
        for (int g = 0; first_of_op && g < NGROUPS; g++)
            for (int h = g + 1; h < NGROUPS; h++) {
                double mg, pg, mh, ph;
                if (!group_medians(p, n, p[i].op, g, &mg, &pg) ||
                    !group_medians(p, n, p[i].op, h, &mh, &ph) || pg == ph ||
                    (pg > ph) == (mg > mh) || fabs(mg / mh - 1) <= SB_FIT_GROUP_MARGIN)
                    continue;
                append(why, len, "%s%s destinations are %s here than %s ones (op %s: measured "
                       "%.0f against %.0f MB/s, predicted %.0f against %.0f)", said ? "; " : "",
                       group_words[g], mg < mh ? "slower" : "faster", group_words[h], p[i].op,
                       mg, mh, pg, ph);
                said++;
            }
    }
    return said;
}

/* The run whose measured and predicted ranks (1 the fastest) differ most. */
static void worst_rank(const struct pair *p, size_t n, char *why, size_t len)
{
    double *v = malloc((4 * n + 1) * sizeof *v), *rm = v + 2 * n, *rp = v + 3 * n;
    size_t worst = 0;
    char placement[128];

    if (!v)
        return;
    for (size_t i = 0; i < n; i++) {
        v[i] = -p[i].measured;
        v[n + i] = -p[i].predicted;
    }
    if (sb_ranks(v, n, rm) && sb_ranks(v + n, n, rp)) {
        for (size_t i = 1; i < n; i++)
            if (fabs(rm[i] - rp[i]) > fabs(rm[worst] - rp[worst]))
                worst = i;
        sb_run_placement(p[worst].run, placement, sizeof placement);
        append(why, len, "the order differs most at %s %s: measured rank %g, predicted rank %g "
               "of %zu (1 the fastest)", p[worst].op, placement, rm[worst], rp[worst], n);
    }
    free(v);
}

/* The sentence, and whether it says explained. */
static bool judge(const struct pair *p, size_t n, double rho, double error, char *why,
                  size_t len)
{
    const char *lead = "not explained: ";
    size_t above = 0;
    bool ordered = rho >= SB_FIT_MIN_RHO, near = error <= SB_FIT_MAX_ERROR;

    if (n < SB_FIT_MIN_RUNS) {
        snprintf(why, len, "not judged: %zu run%s with a prediction; the fit needs at least %d",
                 n, n == 1 ? "" : "s", SB_FIT_MIN_RUNS);
        return false;
    }
    if (ordered && near) {
        snprintf(why, len, "explained: the model orders the %zu runs as measured (rank "
                 "correlation %.2f) and is within a median %.0f%% of their MB/s", n, rho,
                 100 * error);
        return true;
    }
    snprintf(why, len, "%s", lead);
    if (!isfinite(rho))
        append(why, len, "the predictions or the measurements do not vary (no order to "
               "compare)");
    else if (group_disagreements(p, n, why, len) == 0 && !ordered)
        worst_rank(p, n, why, len);
    if (!ordered && isfinite(rho))
        append(why, len, " (rank correlation %.2f)", rho);
    for (size_t i = 0; i < n; i++)
        above += p[i].predicted > p[i].measured;
    if (!near)
        append(why, len, "%sthe predictions are a median %.0f%% off (above the measured MB/s in "
               "%zu of %zu runs)", strlen(why) > strlen(lead) ? "; " : "", 100 * error, above,
               n);
    return false;
}

/* The measured side's noise: where the analysis flagged the host too noisy (the A-A pair's
 * bound above 5%), the sentence says so. */
static void noise_note(const json_t *report, char *why, size_t len)
{
    const json_t *noise = sb_field(report, "analysis.noise");

    if (json_is_true(json_object_get(noise, "too_noisy")))
        append(why, len, "; and the measured MB/s are too noisy here to weigh it (identical "
               "configurations could differ by %.0f%%)", 100 * json_number_value(sb_report_noise_bound(report)));
}

static json_t *pairs_json(const struct pair *p, size_t n, double *abs_error)
{
    json_t *list = json_array();
    char placement[128];

    for (size_t i = 0; list && i < n; i++) {
        double error = p[i].predicted / p[i].measured - 1;
        abs_error[i] = fabs(error);
        sb_run_placement(p[i].run, placement, sizeof placement);
        json_array_append_new(
            list, json_pack("{s:s, s:s, s:s, s:s, s:f, s:f, s:f}", "name",
                            sb_field_text(p[i].run, "name"), "op", p[i].op, "placement",
                            placement, "resident", group_names[p[i].group], "measured_mbps",
                            p[i].measured, "predicted_mbps", p[i].predicted, "error", error));
    }
    return list;
}

json_t *sb_fit_build(const json_t *report)
{
    size_t n;
    struct pair *p = collect(report, &n);
    double *x = p && n ? malloc(3 * n * sizeof *x) : NULL, rho = NAN, error = NAN;
    char *why = malloc(WHY_LEN);
    json_t *fit = NULL;
    bool explained;

    if (x && why && n) {
        json_t *list = pairs_json(p, n, x + 2 * n);
        for (size_t i = 0; i < n; i++) {
            x[i] = p[i].measured;
            x[n + i] = p[i].predicted;
        }
        rho = sb_spearman(x, x + n, n);
        error = sb_median(x + 2 * n, n);
        explained = judge(p, n, rho, error, why, WHY_LEN);
        noise_note(report, why, WHY_LEN);
        json_t *machine = json_object_get(json_object_get(p[0].run, "predicted"), "machine");
        fit = json_pack("{s:o, s:o, s:I, s:o, s:o, s:{s:i, s:f, s:f, s:f}, s:b, s:s, s:s}",
                        "machine", machine ? json_incref(machine) : json_null(),
                        "runs", list, "n", (json_int_t)n, "median_abs_error", number(error),
                        "spearman", number(rho), "thresholds", "min_runs", SB_FIT_MIN_RUNS,
                        "min_spearman", SB_FIT_MIN_RHO, "max_median_error", SB_FIT_MAX_ERROR,
                        "group_margin", SB_FIT_GROUP_MARGIN, "explained", explained, "verdict",
                        explained ? "explained" : strncmp(why, "not judged", 10) == 0
                                                      ? "not judged" : "not explained",
                        "text", why);
    }
    free(x);
    free(why);
    free(p);
    return fit;
}
