/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_level.c: the host's level in each round of a report (analysis.round_levels) and
 * each comparison's dependence on it (analysis.comparisons[].host_level). */
#include "config.h"
#include "report/analysis_level.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/runs.h"
#include "stats/stats.h"
#include "report/field.h"

/* A figure, or null where there is none (NaN). */
static json_t *number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static bool usable(double x) { return isfinite(x) && x > 0.0; }

/* The per-round MB/s of every run, then of the A-A pair's second timing when the report has
 * one: x[j * nrounds + r], *nrows rows; NULL when out of memory. */
static double *round_table(const json_t *report, size_t nrounds, size_t *nrows)
{
    const json_t *runs = json_object_get(report, "runs"), *second = sb_report_reference_scans(report);
    size_t nruns = json_array_size(runs), n = nruns + (json_array_size(second) > 0), j;
    double *x = malloc((n * nrounds > 0 ? n * nrounds : 1) * sizeof *x);

    *nrows = n;
    for (j = 0; x && j < n; j++) {
        double *row = j < nruns ? sb_run_round_mbps(json_array_get(runs, j), nrounds)
                                : sb_scans_round_mbps(second, nrounds);
        if (!row)
            break;
        memcpy(x + j * nrounds, row, nrounds * sizeof *row);
        free(row);
    }
    if (j < n) { /* out of memory */
        free(x);
        x = NULL;
    }
    return x;
}

/* The round levels with the rows leave[0 .. nleave) left out. */
static double *levels(const json_t *report, size_t nrounds, const size_t *leave, size_t nleave)
{
    size_t nrows;
    double *x = round_table(report, nrounds, &nrows);
    double *level = malloc((nrounds ? nrounds : 1) * sizeof *level);

    if (!x || !level || sb_round_levels(x, nrows, nrounds, leave, nleave, level, NULL) != 0) {
        free(level);
        level = NULL;
    }
    free(x);
    return level;
}

double *sb_report_round_levels(const json_t *report, size_t nrounds)
{
    return levels(report, nrounds, NULL, 0);
}

double *sb_report_round_levels_without(const json_t *report, size_t nrounds, size_t run)
{
    return levels(report, nrounds, &run, 1);
}

/* --- analysis.round_levels ------------------------------------------------------------------ */

/* Each scan of the list into its round: steal summed, at the earliest (NaN: none said). */
static void round_sums(const json_t *scans, size_t nrounds, double *steal, double *at)
{
    size_t i;
    json_t *scan;

    json_array_foreach(scans, i, scan) {
        const json_t *round = json_object_get(scan, "round"), *s = json_object_get(scan, "steal"),
                     *t = json_object_get(scan, "at");
        json_int_t r = json_integer_value(round);
        if (!json_is_integer(round) || r < 0 || (size_t)r >= nrounds)
            continue;
        if (json_is_number(s))
            steal[r] = (isnan(steal[r]) ? 0.0 : steal[r]) + json_number_value(s);
        if (json_is_number(t) && !(json_number_value(t) >= at[r]))
            at[r] = json_number_value(t);
    }
}

json_t *sb_analysis_round_levels(const json_t *report, size_t nrounds)
{
    double *level = sb_report_round_levels(report, nrounds);
    double *sums = malloc((nrounds > 0 ? 2 * nrounds : 1) * sizeof *sums);
    json_t *list = NULL, *run;
    size_t i;

    if (!level || !sums)
        goto done;
    for (size_t r = 0; r < 2 * nrounds; r++)
        sums[r] = NAN;
    json_array_foreach(json_object_get(report, "runs"), i, run)
        round_sums(json_object_get(run, "scans"), nrounds, sums, sums + nrounds);
    round_sums(sb_report_reference_scans(report), nrounds, sums, sums + nrounds);
    list = json_array();
    for (size_t r = 0; list && r < nrounds; r++)
        json_array_append_new(list, json_pack("{s:i, s:o, s:o, s:o}", "round", (int)r, "level",
                                              number(level[r]), "steal", number(sums[r]), "at",
                                              number(sums[nrounds + r])));
done:
    free(level);
    free(sums);
    return list;
}

/* --- analysis.comparisons[].host_level ------------------------------------------------------ */

/* A third's ratio and interval, and its call against the comparison's threshold delta (none
 * where delta is NaN), as the comparison's own. */
static json_t *third_json(const struct sb_level_third *t, double delta)
{
    struct sb_paired e = {.ratio = t->ratio, .lo = t->lo, .hi = t->hi};
    json_t *third = json_pack("{s:o, s:o, s:o, s:i}", "ratio", number(t->ratio), "lo",
                              number(t->lo), "hi", number(t->hi), "rounds", (int)t->rounds);

    if (!isnan(delta))
        json_object_set_new(third, "call", json_string(sb_call_names[sb_paired_call(&e, delta)]));
    return third;
}

static json_t *level_json(const struct sb_level_dependence *e, size_t fell_back, double delta)
{
    char what[320];

    if (!e->available)
        return json_pack("{s:b, s:s, s:i, s:i}", "available", 0, "why", e->why, "rounds",
                         (int)e->n, "fallback_rounds", (int)fell_back);
    snprintf(what, sizeof what, "%.2fx [%.2f, %.2f] when the host is quiet, %.2fx [%.2f, %.2f] "
             "when it is busy (Spearman rho of the per-round ratio with the host's level %.2f "
             "[%.2f, %.2f])", e->quiet.ratio, e->quiet.lo, e->quiet.hi, e->busy.ratio,
             e->busy.lo, e->busy.hi, e->rho, e->lo, e->hi);
    return json_pack("{s:b, s:i, s:i, s:o, s:o, s:o, s:b, s:o, s:o, s:s}", "available", 1,
                     "rounds", (int)e->n, "fallback_rounds", (int)fell_back, "rho",
                     number(e->rho), "lo", number(e->lo), "hi", number(e->hi), "depends",
                     e->depends, "quiet", third_json(&e->quiet, delta), "busy",
                     third_json(&e->busy, delta),
                     "text", what);
}

/* Comparison a / b (rows of x) against the level of the other rows. */
static json_t *comparison_level(const double *x, size_t nrows, size_t nrounds, size_t a,
                                size_t b, double conf, double delta, uint64_t seed)
{
    const size_t arms[2] = {a, b};
    double *d = malloc((nrounds > 0 ? 2 * nrounds : 1) * sizeof *d), *level;
    struct sb_level_dependence e;
    size_t fell_back = 0;
    json_t *out = NULL;

    if (!d)
        goto done;
    level = d + nrounds;
    if (sb_round_levels(x, nrows, nrounds, arms, 2, level, &fell_back) != 0)
        goto done;
    for (size_t r = 0; r < nrounds; r++) {
        double xa = x[a * nrounds + r], xb = x[b * nrounds + r];
        d[r] = usable(xa) && usable(xb) ? log(xa) - log(xb) : NAN;
    }
    sb_level_dependence(d, level, nrounds, conf, SB_BOOTSTRAP_RESAMPLES, seed, &e);
    out = level_json(&e, fell_back, delta);
done:
    free(d);
    return out;
}

static size_t run_index(const json_t *runs, const json_t *name)
{
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run)
        if (json_is_string(name) && strcmp(sb_field_text(run, "name"),
                                           json_string_value(name)) == 0)
            return i;
    return SIZE_MAX;
}

/* "slower when the host is quiet (0.91x [0.89, 0.93]), faster when it is busy (...)". */
static void level_call_words(const json_t *h, char *buf, size_t len)
{
    static const char *const side[2] = {"quiet", "busy"};
    static const char *const when[2] = {"when the host is quiet", "when it is busy"};
    size_t used = 0;

    buf[0] = '\0';
    for (int t = 0; t < 2 && used < len; t++) {
        const json_t *third = json_object_get(h, side[t]);
        const char *call = sb_field_text(third, "call");
        int k = snprintf(buf + used, len - used, "%s%s %s (%.2fx [%.2f, %.2f])", t ? ", " : "",
                         strcmp(call, "same") == 0 ? "the same" : call, when[t],
                         json_number_value(json_object_get(third, "ratio")),
                         json_number_value(json_object_get(third, "lo")),
                         json_number_value(json_object_get(third, "hi")));
        used += k > 0 ? (size_t)k : 0;
    }
}

bool sb_call_decided(const char *call)
{
    return strcmp(call, "faster") == 0 || strcmp(call, "slower") == 0 ||
           strcmp(call, "same") == 0;
}

/* Comparison c's level_call, where its own call is inconclusive, its ratio follows the host's
 * level and both thirds are called: the two calls, and its text says them. */
static void set_level_call(json_t *c)
{
    const json_t *h = json_object_get(c, "host_level");
    const char *quiet = sb_field_text(h, "quiet.call"),
               *busy = sb_field_text(h, "busy.call");
    char words[256], joined[768];

    if (strcmp(sb_field_text(c, "call"), "inconclusive") != 0 ||
        !json_is_true(json_object_get(h, "depends")) || !sb_call_decided(quiet) ||
        !sb_call_decided(busy))
        return;
    level_call_words(h, words, sizeof words);
    json_object_set_new(c, "level_call", json_pack("{s:s, s:s, s:s}", "quiet", quiet, "busy",
                                                   busy, "text", words));
    snprintf(joined, sizeof joined, "%s; by the host's level: %s",
             sb_field_text(c, "text"), words);
    json_object_set_new(c, "text", json_string(joined));
}

bool sb_level_call(const json_t *comparison, const char **quiet, const char **busy)
{
    const json_t *l = json_object_get(comparison, "level_call");
    const char *q = sb_field_text(l, "quiet"), *b = sb_field_text(l, "busy");

    if (quiet)
        *quiet = q;
    if (busy)
        *busy = b;
    return sb_call_decided(q) && sb_call_decided(b);
}

bool sb_any_level_call(const json_t *comparisons)
{
    size_t i;
    json_t *c;

    json_array_foreach(comparisons, i, c)
        if (sb_level_call(c, NULL, NULL))
            return true;
    return false;
}

static char mark_of(const char *call)
{
    return strcmp(call, "faster") == 0 ? '+' : strcmp(call, "slower") == 0 ? '-'
           : strcmp(call, "same") == 0 ? '=' : strcmp(call, "withheld") == 0 ? '!' : '?';
}

const char *sb_call_mark(const json_t *comparison, char buf[4])
{
    const char *quiet, *busy;

    if (sb_level_call(comparison, &quiet, &busy))
        snprintf(buf, 4, "%c/%c", mark_of(quiet), mark_of(busy));
    else
        snprintf(buf, 4, "%c", mark_of(sb_field_text(comparison, "call")));
    return buf;
}

json_t *sb_analysis_host_levels(const json_t *report, json_t *comparisons, size_t nrounds)
{
    const json_t *runs = json_object_get(report, "runs");
    size_t nrows, k;
    double *x = round_table(report, nrounds, &nrows);
    json_t *c;

    json_array_foreach(comparisons, k, c) {
        size_t a = run_index(runs, json_object_get(c, "a")),
               b = run_index(runs, json_object_get(c, "b"));
        const json_t *conf = json_object_get(c, "level"), *delta = json_object_get(c, "delta");
        if (!x || a == SIZE_MAX || b == SIZE_MAX)
            continue;
        json_object_set_new(c, "host_level",
                            comparison_level(x, nrows, nrounds, a, b,
                                             json_is_number(conf) ? json_number_value(conf)
                                                                  : SB_CONFIDENCE,
                                             json_is_number(delta) ? json_number_value(delta)
                                                                   : NAN,
                                             SB_BOOTSTRAP_SEED + 3000 + k));
        set_level_call(c);
    }
    free(x);
    return comparisons;
}
