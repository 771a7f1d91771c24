/* SPDX-License-Identifier: BSD-3-Clause */
/* estimators.c: which paired estimator to call differences with, chosen on this host's recorded
 * noise rather than on synthetic noise (doc/statistics.md, Which estimator). A shared VM's noise
 * is one-sided (a neighbour only ever slows a scan down; Chen and Revels, "Robust benchmarking
 * in noisy environments", 2016), so estimators made for it (each block's fastest timing, an
 * upper quantile of MB/s) are set against the production one (the median of per-round log
 * ratios) and the mean of the log ratios.
 *
 * The real identical pair is each report's A-A pair: the plan's first run timed twice in every
 * round (runs[0]'s scans, x1, and schedule.reference.scans, x2). Its usable rounds are cut into
 * disjoint windows of N consecutive rounds. In each window every estimator gives the ratio
 * x2 / x1 and its 95% percentile bootstrap interval (2000 resamples, seeded by the window), and
 * the call the analysis would make from it (sb_paired_call). Unshifted, any call of faster or
 * slower is a false call. Shifted, x2 is divided by 1 + S in the same windows: a difference of
 * known size on real noise, detected when called slower. For each estimator the threshold
 * delta_e at which it detects S in 80% of the windows is found by bisection, and its false-call
 * rate at that threshold is the figure to compare (false calls at equal power).
 *
 * usage: estimators REPORT.json [REPORT.json...] [--window N] [--shift S] [--block B]
 *        N: rounds per window (default 40); S: the shift of the equal-power search (default
 *        0.05); B: rounds per block of the block-fastest estimator (default 4). Windows of
 *        several reports are pooled (a window never spans two reports). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/units.h"
#include "report/read.h"
#include "report/runs.h"
#include "stats/stats.h"
#include "report/report.h"

#define POWER_TARGET 0.80 /* the detection rate the thresholds are matched at */
#define MAX_SHIFTS 4      /* 0 (the A-A pair itself), 2%, S, 10% */
#define NAME_WIDTH 18     /* the estimator column */

enum { EST_MEDIAN, EST_BLOCK, EST_Q75, EST_MEAN, NEST };

static const char *const est_names[NEST] = {"median of d", "block fastest", "q75 of MB/s",
                                            "mean of d"};

/* One recording: its A-A pair's usable rounds, in order. */
struct recording {
    const char *path;
    char host[128], date[64], run[160];
    size_t rounds, usable, windows;
    double *x1, *x2; /* the first and second timing of each usable round, MB/s */
};

struct interval {
    double ratio, lo, hi;
};

/* One window: n rounds of a recording, and each estimator's interval at each shift. */
struct window {
    const double *x1, *x2;
    size_t n;
    uint64_t seed;
    struct interval est[MAX_SHIFTS][NEST];
};

static bool usable(double x) { return isfinite(x) && x > 0.0; }

/* --- the estimators ------------------------------------------------------------------------ */

/* The statistic of a resample: idx[0 .. n-1] index the units (rounds or blocks). */
typedef double (*statistic)(const double *u, const double *v, const size_t *idx, size_t n,
                            double *scratch);

/* The median of u over idx (u: log differences per round or per block). */
static double stat_median(const double *u, const double *v, const size_t *idx, size_t n,
                          double *scratch)
{
    (void)v;
    for (size_t k = 0; k < n; k++)
        scratch[k] = u[idx[k]];
    return sb_select_median(scratch, n);
}

static double stat_mean(const double *u, const double *v, const size_t *idx, size_t n,
                        double *scratch)
{
    double s = 0.0;
    (void)v;
    (void)scratch;
    for (size_t k = 0; k < n; k++)
        s += u[idx[k]];
    return s / (double)n;
}

static double q75(const double *x, const size_t *idx, size_t n, double *scratch)
{
    for (size_t k = 0; k < n; k++)
        scratch[k] = x[idx[k]];
    qsort(scratch, n, sizeof *scratch, sb_compare_doubles);
    return sb_sorted_quantile(scratch, n, 0.75);
}

/* ln q75(u) - ln q75(v) over the same resampled rounds (u, v: MB/s). */
static double stat_q75(const double *u, const double *v, const size_t *idx, size_t n,
                       double *scratch)
{
    return log(q75(u, idx, n, scratch)) - log(q75(v, idx, n, scratch));
}

/* The ratio exp(stat) on all n units and its percentile bootstrap interval at SB_CONFIDENCE:
 * SB_BOOTSTRAP_RESAMPLES resamples of the units with replacement. Returns -1 when out of
 * memory. */
static int bootstrap(statistic f, const double *u, const double *v, size_t n, uint64_t seed,
                     struct interval *out)
{
    unsigned nb = SB_BOOTSTRAP_RESAMPLES;
    size_t *idx = malloc(n * sizeof *idx);
    double *scratch = malloc(n * sizeof *scratch), *stats = malloc(nb * sizeof *stats);
    struct sb_rng rng;
    int rc = -1;

    if (!idx || !scratch || !stats)
        goto done;
    for (size_t k = 0; k < n; k++)
        idx[k] = k;
    out->ratio = exp(f(u, v, idx, n, scratch));
    sb_rng_seed(&rng, seed);
    for (unsigned b = 0; b < nb; b++) {
        for (size_t k = 0; k < n; k++)
            idx[k] = (size_t)sb_rng_below(&rng, n);
        stats[b] = f(u, v, idx, n, scratch);
    }
    qsort(stats, nb, sizeof *stats, sb_compare_doubles);
    out->lo = exp(sb_sorted_quantile(stats, nb, (1.0 - SB_CONFIDENCE) / 2.0));
    out->hi = exp(sb_sorted_quantile(stats, nb, (1.0 + SB_CONFIDENCE) / 2.0));
    rc = 0;
done:
    free(idx);
    free(scratch);
    free(stats);
    return rc;
}

static double block_max(const double *x, size_t n)
{
    double m = x[0];
    for (size_t k = 1; k < n; k++)
        m = fmax(m, x[k]);
    return m;
}

/* Estimator e's ratio a / b (a: the candidate, b: the reference, MB/s of n paired rounds) and
 * its interval; block: rounds per block of EST_BLOCK. Returns -1 when out of memory. */
static int estimate(int e, const double *a, const double *b, size_t n, size_t block,
                    uint64_t seed, struct interval *out)
{
    double *d = malloc(n * sizeof *d);
    struct sb_paired p;
    size_t nblocks = n / block;
    int rc = -1;

    if (!d)
        return -1;
    switch (e) {
    case EST_MEDIAN: /* the production estimator, as the analysis calls it */
        if (sb_paired_estimate(a, b, n, SB_CONFIDENCE, SB_BOOTSTRAP_RESAMPLES, seed, &p) == 0) {
            out->ratio = p.ratio;
            out->lo = p.lo;
            out->hi = p.hi;
            rc = 0;
        }
        break;
    case EST_BLOCK: /* per block, the fastest (highest MB/s) timing of each; the rest left out */
        for (size_t k = 0; k < nblocks; k++)
            d[k] = log(block_max(a + k * block, block)) - log(block_max(b + k * block, block));
        rc = bootstrap(stat_median, d, NULL, nblocks, seed, out);
        break;
    case EST_Q75:
        rc = bootstrap(stat_q75, a, b, n, seed, out);
        break;
    case EST_MEAN:
        for (size_t k = 0; k < n; k++)
            d[k] = log(a[k]) - log(b[k]);
        rc = bootstrap(stat_mean, d, NULL, n, seed, out);
        break;
    }
    free(d);
    return rc;
}

/* --- reading the recordings ---------------------------------------------------------------- */

/* Loads path's A-A pair into rec; 0, or 1 with a message on stderr. */
static int read_recording(const char *path, struct recording *rec)
{
    struct sb_error err = {0};
    json_t *report = NULL;
    const json_t *run, *context;
    double *x1 = NULL, *x2 = NULL;
    int status = 1;

    memset(rec, 0, sizeof *rec);
    rec->path = path;
    if (sb_report_load(path, &report, &err) != 0) {
        fprintf(stderr, "estimators: %s\n", err.msg);
        return 1;
    }
    context = json_object_get(report, "context");
    snprintf(rec->host, sizeof rec->host, "%s", sb_field_text(context, "host"));
    snprintf(rec->date, sizeof rec->date, "%s", sb_field_text(context, "date"));
    run = sb_report_reference_run(report);
    if (!run) {
        fprintf(stderr, "estimators: %s: no A-A pair (schedule.reference: an interleaved run "
                "is needed)\n", path);
        goto done;
    }
    snprintf(rec->run, sizeof rec->run, "%s", sb_field_text(run, "name"));
    rec->rounds = sb_report_rounds(report);
    x1 = sb_run_round_mbps(run, rec->rounds);
    x2 = sb_scans_round_mbps(sb_report_reference_scans(report), rec->rounds);
    rec->x1 = malloc((rec->rounds ? rec->rounds : 1) * sizeof *rec->x1);
    rec->x2 = malloc((rec->rounds ? rec->rounds : 1) * sizeof *rec->x2);
    if (!x1 || !x2 || !rec->x1 || !rec->x2) {
        fprintf(stderr, "estimators: out of memory\n");
        goto done;
    }
    for (size_t r = 0; r < rec->rounds; r++)
        if (usable(x1[r]) && usable(x2[r])) {
            rec->x1[rec->usable] = x1[r];
            rec->x2[rec->usable++] = x2[r];
        }
    status = 0;
done:
    if (status) {
        free(rec->x1);
        free(rec->x2);
        rec->x1 = rec->x2 = NULL;
    }
    free(x1);
    free(x2);
    json_decref(report);
    return status;
}

/* --- the rates ----------------------------------------------------------------------------- */

static enum sb_call call_of(const struct interval *iv, double delta)
{
    struct sb_paired p = {.ratio = iv->ratio, .lo = iv->lo, .hi = iv->hi};
    return sb_paired_call(&p, delta);
}

/* Windows where estimator e at shift s was called faster or slower (s = 0: false calls) or,
 * with detect, slower (the shifted candidate found slower). */
static unsigned count_calls(const struct window *w, size_t nw, int s, int e, double delta,
                            bool detect)
{
    unsigned k = 0;
    for (size_t i = 0; i < nw; i++) {
        enum sb_call c = call_of(&w[i].est[s][e], delta);
        k += detect ? c == SB_CALL_SLOWER : (c == SB_CALL_FASTER || c == SB_CALL_SLOWER);
    }
    return k;
}

/* The largest threshold at which estimator e detects shift s in at least POWER_TARGET of the
 * windows, by bisection (the detection rate falls as the threshold rises); 0 when it does not
 * reach the target even at 0 (*reached false). */
static double equal_power_delta(const struct window *w, size_t nw, int s, int e, bool *reached)
{
    double lo = 0.0, hi = 1.0;
    unsigned need = (unsigned)ceil(POWER_TARGET * (double)nw - 1e-9);

    *reached = count_calls(w, nw, s, e, 0.0, true) >= need;
    if (!*reached)
        return 0.0;
    while (count_calls(w, nw, s, e, hi, true) >= need && hi < 1e6)
        hi *= 2.0;
    for (int it = 0; it < 100; it++) {
        double mid = (lo + hi) / 2.0;
        if (count_calls(w, nw, s, e, mid, true) >= need)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The median over the windows of estimator e's ratio (width: its log half-width as exp(h) - 1)
 * at shift 0. */
static double window_median(const struct window *w, size_t nw, int e, bool width)
{
    double *v = malloc(nw * sizeof *v), m;
    if (!v)
        return NAN;
    for (size_t i = 0; i < nw; i++) {
        const struct interval *iv = &w[i].est[0][e];
        v[i] = width ? exp((log(iv->hi) - log(iv->lo)) / 2.0) - 1.0 : iv->ratio;
    }
    m = sb_median(v, nw);
    free(v);
    return m;
}

static double pct(unsigned k, size_t n) { return 100.0 * (double)k / (double)n; }

/* --- main ---------------------------------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: estimators REPORT.json [REPORT.json...] [--window N] [--shift S] "
            "[--block B]\n");
    return 2;
}

int main(int argc, char **argv)
{
    uint64_t window = 40, block = 4;
    double shift = 0.05, shifts[MAX_SHIFTS];
    int nshifts = 0, s_main = 0, status = 1;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    struct recording *recs = NULL;
    struct window *w = NULL;
    size_t npaths = 0, nw = 0, nrec = 0, left_out = 0;

    if (!paths)
        return 1;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--window") == 0 && i + 1 < argc) {
            if (!sb_parse_uint(argv[++i], &window) || window < 2 || window > 100000)
                goto bad_usage;
        } else if (strcmp(argv[i], "--block") == 0 && i + 1 < argc) {
            if (!sb_parse_uint(argv[++i], &block) || block < 1 || block > 1000)
                goto bad_usage;
        } else if (strcmp(argv[i], "--shift") == 0 && i + 1 < argc) {
            shift = strtod(argv[++i], &end);
            if (*end || !(shift > 0.0 && shift < 1.0))
                goto bad_usage;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            goto bad_usage;
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (npaths == 0)
        goto bad_usage;
    if (window < 2 * block) {
        fprintf(stderr, "estimators: a window of %llu rounds holds fewer than 2 blocks of %llu\n",
                (unsigned long long)window, (unsigned long long)block);
        free(paths);
        return 2;
    }
    /* the shifts: 0 (the A-A pair itself), then 2%, S and 10% in increasing order, S once */
    {
        double listed[3] = {0.02, shift, 0.10};
        qsort(listed, 3, sizeof *listed, sb_compare_doubles);
        shifts[nshifts++] = 0.0;
        for (int k = 0; k < 3; k++)
            if (listed[k] != shifts[nshifts - 1])
                shifts[nshifts++] = listed[k];
        for (int k = 1; k < nshifts; k++)
            if (shifts[k] == shift)
                s_main = k;
    }

    recs = calloc(npaths, sizeof *recs);
    if (!recs)
        goto done;
    for (size_t f = 0; f < npaths; f++, nrec++) {
        if (read_recording(paths[f], &recs[f]) != 0)
            goto done;
        recs[f].windows = recs[f].usable / window;
        nw += recs[f].windows;
        left_out += recs[f].usable % window;
    }
    if (nw == 0) {
        fprintf(stderr, "estimators: no window of %llu usable rounds in %s\n",
                (unsigned long long)window, npaths == 1 ? paths[0] : "these reports");
        goto done;
    }
    w = calloc(nw, sizeof *w);
    if (!w)
        goto done;
    {
        size_t i = 0;
        for (size_t f = 0; f < nrec; f++)
            for (size_t k = 0; k < recs[f].windows; k++, i++) {
                w[i].x1 = recs[f].x1 + k * window;
                w[i].x2 = recs[f].x2 + k * window;
                w[i].n = window;
                w[i].seed = SB_BOOTSTRAP_SEED + i;
            }
    }
    {
        double *cand = malloc(window * sizeof *cand);
        if (!cand)
            goto done;
        for (size_t i = 0; i < nw; i++)
            for (int s = 0; s < nshifts; s++) {
                for (size_t r = 0; r < window; r++)
                    cand[r] = w[i].x2[r] / (1.0 + shifts[s]);
                for (int e = 0; e < NEST; e++)
                    if (estimate(e, cand, w[i].x1, window, block, w[i].seed, &w[i].est[s][e])) {
                        fprintf(stderr, "estimators: out of memory\n");
                        free(cand);
                        goto done;
                    }
            }
        free(cand);
    }

    /* the output */
    printf("scanbench estimators: false calls at equal power on recorded A-A pairs\n");
    for (size_t f = 0; f < nrec; f++) {
        double m1 = sb_median(recs[f].x1, recs[f].usable), m2 = sb_median(recs[f].x2,
                                                                          recs[f].usable);
        printf("%s: host %s, %s; %zu rounds (%zu usable: both timings), %zu windows; "
               "A-A pair %s, median MB/s %.0f (first timing) and %.0f (second)\n",
               recs[f].path, recs[f].host[0] ? recs[f].host : "unknown",
               recs[f].date[0] ? recs[f].date : "date unknown", recs[f].rounds, recs[f].usable,
               recs[f].windows, recs[f].run, m1, m2);
    }
    printf("%zu windows of N = %llu rounds%s (%zu usable rounds after the last whole window "
           "left out); rates in steps of 1/%zu\n",
           nw, (unsigned long long)window, nrec > 1 ? ", pooled" : "", left_out, nw);
    printf("ratio = second timing / first in each window; 95%% percentile bootstrap, %u "
           "resamples; shifted: second timing / (1 + S), detected = called slower\n\n",
           (unsigned)SB_BOOTSTRAP_RESAMPLES);

    {
        char head[512], group[2][96];
        int len, g1, g2;

        len = snprintf(head, sizeof head, "%-*s | %5s | %6s", NAME_WIDTH, "estimator", "A-A",
                       "width");
        g1 = len;
        len += snprintf(head + len, sizeof head - (size_t)len, " | %6s", "false");
        for (int s = 1; s < nshifts; s++)
            len += snprintf(head + len, sizeof head - (size_t)len, " | S=%4.1f%%",
                            100.0 * shifts[s]);
        g2 = len;
        snprintf(head + len, sizeof head - (size_t)len, " | %9s | %6s | %s", "delta_e ",
                 "detect", "false [95% Wilson]");
        snprintf(group[0], sizeof group[0], "at delta = %.1f%%", 100.0 * SB_DELTA_MIN);
        snprintf(group[1], sizeof group[1], "equal power: %.0f%% detected at S = %.1f%%",
                 100.0 * POWER_TARGET, 100.0 * shift);
        /* the first group centred over the columns from false to the last shift */
        {
            int span = g2 - g1 - 2, gl = (int)strlen(group[0]), pad = (span - gl) / 2;
            printf("%*s |%*s%s%*s| %s\n", g1, "", pad < 0 ? 0 : pad, "", group[0],
                   span - gl - pad < 0 ? 0 : span - gl - pad, "", group[1]);
        }
        printf("%s\n", head);
    }
    for (int e = 0; e < NEST; e++) {
        unsigned fc = count_calls(w, nw, 0, e, SB_DELTA_MIN, false), dk, fe;
        bool reached;
        double de = equal_power_delta(w, nw, s_main, e, &reached), wl, wh;
        char name[32];

        if (e == EST_BLOCK)
            snprintf(name, sizeof name, "%s (%llu)", est_names[e], (unsigned long long)block);
        else
            snprintf(name, sizeof name, "%s", est_names[e]);
        printf("%-*s | %5.3f | %5.2f%% | %5.1f%%", NAME_WIDTH, name, window_median(w, nw, e, false),
               100.0 * window_median(w, nw, e, true), pct(fc, nw));
        for (int s = 1; s < nshifts; s++)
            printf(" | %6.1f%%", pct(count_calls(w, nw, s, e, SB_DELTA_MIN, true), nw));
        dk = count_calls(w, nw, s_main, e, de, true);
        fe = count_calls(w, nw, 0, e, de, false);
        sb_wilson_interval(fe, (unsigned)nw, SB_CONFIDENCE, &wl, &wh);
        printf(" | %7.2f%%%s | %5.1f%% | %5.1f%% [%.1f%%, %.1f%%]\n", 100.0 * de,
               reached ? " " : "*", pct(dk, nw), pct(fe, nw), 100.0 * wl, 100.0 * wh);
    }
    printf("\nA-A: the median over the windows of the A-A ratio; width: the median interval "
           "half-width, exp(ln(hi / lo) / 2) - 1;\n"
           "false: called faster or slower, unshifted; S=x%%: detected at that shift; delta_e: "
           "the largest threshold detecting S = %.1f%% in %.0f%% of the windows\n"
           "(bisection; \"*\": not reached even at 0, the estimator's best), detect and false "
           "at delta_e; the estimator with the fewest false calls there wins.\n",
           100.0 * shift, 100.0 * POWER_TARGET);
    printf("estimators: median of d = exp(median of ln(second / first)) (sb_paired_estimate, "
           "bootstrap over rounds); block fastest = blocks of %llu rounds,\n"
           "exp(median of ln max(second) - ln max(first)), bootstrap over blocks (%llu of a "
           "window's rounds left out); q75 = q75(second) / q75(first), rounds\n"
           "resampled in pairs; mean of d = exp(mean of ln(second / first)), bootstrap over "
           "rounds.\n",
           (unsigned long long)block, (unsigned long long)(window % block));
    status = 0;
done:
    for (size_t f = 0; f < nrec; f++) {
        free(recs[f].x1);
        free(recs[f].x2);
    }
    free(recs);
    free(w);
    free(paths);
    return status;
bad_usage:
    free(paths);
    return usage();
}
