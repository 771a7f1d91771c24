/* SPDX-License-Identifier: BSD-3-Clause */
/* analysis_knee.c: sweeps over the footprint (the clock policy over pool sizes, the ring
 * policy over ring sizes, a server's rings over the settings that size them), and their
 * knees. */
#include "config.h"
#include "report/analysis_knee.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/runs.h"
#include "stats/stats.h"
#include "vocab/vocab.h"
#include "report/field.h"

#define MAX_SWEEP 1024

/* Keys that runs of one sweep share: everything but the pool. */
static const char *const sweep_keys[] = {"op", "executor", "kernel", "table_size", "page_size", "row_width",
                                         "dead_pct", "source", "bigtable", "threads",
                                         "shared_table", "shared_pool", "writeback",
                                         "checkpoint_pages", "writeback_kernel", "hint_bits",
                                         "extra_copy", NULL};

/* A server's settings that size its rings: what a sweep of a server's rings varies. */
static const char *const ring_settings[] = {"buffer_usage_limit", "effective_io_concurrency",
                                            "io_combine_limit", NULL};

/* The same server (scanbench pg: its version) asked for the same settings but those that
 * size its rings; true for the engine's runs, which have no server. */
static bool same_server(const json_t *a, const json_t *b)
{
    const json_t *pa = json_object_get(a, "postgresql"), *pb = json_object_get(b, "postgresql");
    json_t *sa, *sb;
    bool same;

    if (!pa || !pb)
        return !pa && !pb;
    if (strcmp(sb_field_text(pa, "server_version"), sb_field_text(pb, "server_version")) != 0)
        return false;
    sa = json_deep_copy(json_object_get(pa, "asked"));
    sb = json_deep_copy(json_object_get(pb, "asked"));
    for (int k = 0; ring_settings[k]; k++) {
        json_object_del(sa, ring_settings[k]);
        json_object_del(sb, ring_settings[k]);
    }
    same = json_equal(sa, sb) || (!sa && !sb);
    json_decref(sa);
    json_decref(sb);
    return same;
}

static bool same_sweep(const json_t *a, const json_t *b)
{
    for (int k = 0; sweep_keys[k]; k++) {
        const json_t *x = json_object_get(a, sweep_keys[k]), *y = json_object_get(b, sweep_keys[k]);
        if ((x || y) && !(x && y && json_equal(x, y)))
            return false;
    }
    return strcmp(sb_field_text(a, "policy"), sb_field_text(b, "policy")) == 0 &&
           same_server(a, b);
}

static uint64_t footprint(const json_t *run)
{
    return (uint64_t)json_integer_value(json_object_get(run, "footprint"));
}

static int by_footprint(const void *a, const void *b)
{
    uint64_t fa = footprint(*(json_t *const *)a), fb = footprint(*(json_t *const *)b);
    return (fa > fb) - (fa < fb);
}

/* The sweep that run `first` starts (the runs like it, each footprint once), sorted. */
static size_t sweep_of(const json_t *runs, size_t first, const json_t **sweep, bool *taken)
{
    const json_t *lead = json_array_get(runs, first);
    size_t n = 0, i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        bool dup = false;
        if (i < first || taken[i] || !same_sweep(lead, run))
            continue;
        taken[i] = true;
        for (size_t k = 0; k < n; k++)
            dup |= footprint(sweep[k]) == footprint(run);
        if (!dup && n < MAX_SWEEP)
            sweep[n++] = run;
    }
    qsort(sweep, n, sizeof *sweep, by_footprint);
    return n;
}

/* " (1.2x host L2)", or "" when the report does not know the L2. */
static const char *in_l2(double bytes, uint64_t l2, char *buf, size_t len)
{
    if (l2 && !isnan(bytes))
        snprintf(buf, len, " (%.2fx host L2)", bytes / (double)l2);
    else
        buf[0] = '\0';
    return buf;
}

/* "; no clear knee: the steepest fall is between A and B in 41% of resamples, C and D in 38%,
 * E and F in 12%.": the likeliest steps, up to three. */
static void unclear_text(const struct sb_knee *k, const json_t **sweep, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "; no clear knee: the steepest fall is between");

    for (size_t t = 0; t < k->ntop && used < len; t++) {
        char a[32], b[32];
        used += (size_t)snprintf(buf + used, len - used, "%s %s and %s in %.0f%%%s",
                                 t ? "," : "", sb_format_size(footprint(sweep[k->top[t]]), a,
                                                              sizeof a),
                                 sb_format_size(footprint(sweep[k->top[t] + 1]), b, sizeof b),
                                 100.0 * k->top_prob[t], t ? "" : " of resamples");
    }
    if (used < len)
        snprintf(buf + used, len - used, ".");
}

static void knee_text(const struct sb_knee *k, const json_t **sweep, const char *label,
                      uint64_t l2, char *buf, size_t len)
{
    const char *unit = strcmp(sb_field_text(sweep[0], "policy"), "ring") == 0 ? "ring" : "pool";
    char a[32], b[32], c[32], l2s[48];
    size_t used;

    if (k->kind == SB_KNEE_TOO_FEW) {
        snprintf(buf, len, "%s: too few points for a knee (%zu %s sizes, %zu rounds; at least "
                 "%d sizes and 2 rounds needed).", label, k->npoints, unit, k->nrounds,
                 SB_KNEE_MIN_POINTS);
        return;
    }
    /* changes from the smallest two pools to the largest two: 1 / (1 + fall) - 1 */
    if (k->kind == SB_KNEE_NO_DROP || k->kind == SB_KNEE_FALL_UNSURE) {
        snprintf(buf, len, "%s: %s: MB/s changes %+.1f%% [%+.1f%%, %+.1f%%] from the smallest two "
                 "%ss to the largest two (%.0f%% interval; %s a fall of %.0f%%).", label,
                 k->kind == SB_KNEE_NO_DROP ? "no drop" : "fall undecided",
                 100.0 * (1.0 / (1.0 + k->fall) - 1.0), 100.0 * (1.0 / (1.0 + k->fall_hi) - 1.0),
                 100.0 * (1.0 / (1.0 + k->fall_lo) - 1.0), unit, 100.0 * k->x50_level,
                 k->kind == SB_KNEE_NO_DROP ? "wholly short of" : "reaching across",
                 100.0 * (1.0 - 1.0 / (1.0 + SB_KNEE_MIN_FALL)));
        return;
    }
    /* fall: exp(high - low) - 1; said as the share of the high lost: 1 - exp(low - high) */
    used = (size_t)snprintf(buf, len, "%s: MB/s falls %.0f%% over the sweep, halfway at %s [%s, "
                            "%s]%s (%.0f%% interval)", label, 100.0 * (1.0 - 1.0 / (1.0 + k->fall)),
                            sb_format_size_approx(k->x50, a, sizeof a),
                            sb_format_size_approx(k->x50_lo, b, sizeof b),
                            sb_format_size_approx(k->x50_hi, c, sizeof c),
                            in_l2(k->x50, l2, l2s, sizeof l2s), 100.0 * k->x50_level);
    if (used >= len)
        return;
    if (k->kind == SB_KNEE_CLEAR)
        snprintf(buf + used, len - used, "; the steepest fall is between %s and %s in %.0f%% of "
                 "resamples.", sb_format_size(footprint(sweep[k->step]), a, sizeof a),
                 sb_format_size(footprint(sweep[k->step + k->step_width]), b, sizeof b),
                 100.0 * k->step_prob);
    else
        unclear_text(k, sweep, buf + used, len - used);
}

/* Whether more rounds could still move the knee: an unclear one whose x50 interval is wider
 * than the widest step of the sweep. */
static bool knee_settled(const struct sb_knee *k, const double *x)
{
    double widest = 0.0;

    if (k->kind == SB_KNEE_FALL_UNSURE)
        return false; /* more rounds can still tell whether it falls */
    if (k->kind != SB_KNEE_UNCLEAR)
        return true;
    for (size_t i = 0; i + 1 < k->npoints; i++)
        widest = fmax(widest, log2(x[i + 1] / x[i]));
    return log2(k->x50_hi / k->x50_lo) <= widest;
}

static json_t *number(double v) { return isfinite(v) ? json_real(v) : json_null(); }

static json_t *steps_json(const struct sb_knee *k, const double *x)
{
    json_t *top = json_array();
    for (size_t t = 0; t < k->ntop; t++)
        json_array_append_new(top, json_pack("{s:f, s:f, s:f}", "from", x[k->top[t]], "to",
                                             x[k->top[t] + 1], "prob", k->top_prob[t]));
    return top;
}

static json_t *knee_json(const json_t *report, const json_t **sweep, size_t n, size_t nrounds,
                         size_t g)
{
    double *x = malloc(n * sizeof *x), *m = malloc(n * (nrounds ? nrounds : 1) * sizeof *m);
    double *curve = malloc(n * sizeof *curve);
    const struct sb_op *op = sb_op_find(sb_field_text(sweep[0], "op"));
    struct sb_knee k;
    json_t *out = NULL, *pools = json_array(), *cv = json_array();
    char label[128], sentence[640];

    for (size_t i = 0; x && m && curve && i < n; i++) {
        double *per = sb_run_round_mbps(sweep[i], nrounds);
        x[i] = (double)footprint(sweep[i]);
        for (size_t r = 0; r < nrounds; r++)
            m[r * n + i] = per ? per[r] : NAN;
        free(per);
        json_array_append_new(pools, json_integer((json_int_t)x[i]));
    }
    if (json_object_get(sweep[0], "postgresql"))
        snprintf(label, sizeof label, "%s (%s, PostgreSQL %.*s)", op ? op->label : "?",
                 sb_field_text(sweep[0], "policy"),
                 (int)strcspn(sb_field_text(sweep[0], "postgresql.server_version"), " "),
                 sb_field_text(sweep[0], "postgresql.server_version"));
    else
        snprintf(label, sizeof label, "%s (%s, kernel %s)", op ? op->label : "?",
                 sb_field_text(sweep[0], "policy"), sb_field_text(sweep[0], "kernel"));
    if (x && m && curve && sb_knee_estimate(x, n, m, nrounds, SB_KNEE_LEVEL,
                                            SB_BOOTSTRAP_RESAMPLES, SB_BOOTSTRAP_SEED + 2000 + g,
                                            &k, curve) == 0) {
        for (size_t i = 0; i < n; i++)
            json_array_append_new(cv, number(curve[i]));
        knee_text(&k, sweep, label, sb_report_cache_size(report, "L2"), sentence, sizeof sentence);
        out = json_pack("{s:s, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, "
                        "s:o, s:o, s:b, s:s}",
                        "op", sb_field_text(sweep[0], "op"), "kernel",
                        sb_field_text(sweep[0], "kernel"), "pools", json_incref(pools),
                        "kind", sb_knee_kind_names[k.kind], "fall", number(k.fall),
                        "fall_lo", number(k.fall_lo), "fall_hi", number(k.fall_hi),
                        "x50", number(k.x50), "x50_lo", number(k.x50_lo),
                        "x50_hi", number(k.x50_hi), "x50_level", number(k.x50_level),
                        "step", k.kind == SB_KNEE_CLEAR
                                    ? json_pack("{s:f, s:f, s:f}", "from", x[k.step], "to",
                                                x[k.step + k.step_width], "prob", k.step_prob)
                                    : json_null(),
                        "top", steps_json(&k, x), "curve", json_incref(cv),
                        "uncrossed", number(k.x50_uncrossed), "settled", knee_settled(&k, x),
                        "text", sentence);
    }
    json_decref(pools);
    json_decref(cv);
    free(x);
    free(m);
    free(curve);
    return out;
}

json_t *sb_analysis_knees(const json_t *report, size_t nrounds)
{
    const json_t *runs = json_object_get(report, "runs");
    size_t nruns = json_array_size(runs), g = 0;
    bool *taken = calloc(nruns + 1, sizeof *taken);
    const json_t **sweep = malloc(MAX_SWEEP * sizeof *sweep);
    json_t *list = json_array();

    for (size_t i = 0; taken && sweep && i < nruns; i++) {
        const json_t *run = json_array_get(runs, i);
        size_t n;
        json_t *knee;
        if (taken[i] || (strcmp(sb_field_text(run, "policy"), "clock") != 0 &&
                         strcmp(sb_field_text(run, "policy"), "ring") != 0))
            continue;
        n = sweep_of(runs, i, sweep, taken);
        if (n < 3)
            continue;
        knee = knee_json(report, sweep, n, nrounds, g++);
        if (knee)
            json_array_append_new(list, knee);
    }
    free(taken);
    free(sweep);
    return list;
}
