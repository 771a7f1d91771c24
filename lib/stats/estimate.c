/* SPDX-License-Identifier: BSD-3-Clause */
/* estimate.c: paired estimates over rounds (the median log ratio and its percentile bootstrap
 * over whole rounds), the calls made from them, the noise floor of an A-A pair, a median's
 * interval, a series' drift, and the precision that stops adding rounds. */
#include "config.h"
#include "stats/estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/order_stat.h"
#include "stats/schedule.h"

const char *const sb_call_names[] = {"inconclusive", "faster", "slower", "same"};

/* resamples of 0: the production count */
static unsigned resample_count(unsigned resamples)
{
    return resamples ? resamples : SB_BOOTSTRAP_RESAMPLES;
}

static bool usable(double x) { return isfinite(x) && x > 0.0; }

/* d[k] = ln a - ln b over the rounds that have both; returns how many. */
static size_t log_differences(const double *a, const double *b, size_t n, double *d)
{
    size_t m = 0;

    for (size_t r = 0; r < n; r++)
        if (usable(a[r]) && usable(b[r]))
            d[m++] = log(a[r]) - log(b[r]);
    return m;
}

/* meds[0 .. nb-1]: the medians of nb resamples (with replacement) of v[0 .. n-1], sorted;
 * scratch holds n values. */
static void bootstrap_medians(const double *v, size_t n, unsigned nb, uint64_t seed,
                              double *scratch, double *meds)
{
    struct sb_rng rng;

    sb_rng_seed(&rng, seed);
    for (unsigned b = 0; b < nb; b++) {
        for (size_t k = 0; k < n; k++)
            scratch[k] = v[sb_rng_below(&rng, n)];
        meds[b] = sb_select_median(scratch, n);
    }
    qsort(meds, nb, sizeof *meds, sb_compare_doubles);
}

int sb_paired_estimate(const double *a, const double *b, size_t n, double level,
                       unsigned resamples, uint64_t seed, struct sb_paired *out)
{
    unsigned nb = resample_count(resamples);
    double *buf = malloc((2 * n + nb) * sizeof *buf), *d = buf, *scratch, *meds;
    size_t m;
    int rc = -1;

    memset(out, 0, sizeof *out);
    out->ratio = out->lo = out->hi = NAN;
    out->wilcoxon.p = 1.0; /* wilcoxon.h: n of 0 has p 1 */
    if (!buf || (m = log_differences(a, b, n, d)) < 2)
        goto done;
    scratch = buf + n;
    meds = buf + 2 * n;
    out->n = m;
    out->level = level;
    memcpy(scratch, d, m * sizeof *d);
    out->ratio = exp(sb_select_median(scratch, m));
    bootstrap_medians(d, m, nb, seed, scratch, meds);
    out->lo = exp(sb_sorted_quantile(meds, nb, (1.0 - level) / 2.0));
    out->hi = exp(sb_sorted_quantile(meds, nb, (1.0 + level) / 2.0));
    out->wilcoxon = sb_wilcoxon_signed_rank(d, m);
    rc = 0;
done:
    free(buf);
    return rc;
}

double sb_bonferroni_level(double level, size_t m)
{
    return m <= 1 ? level : 1.0 - (1.0 - level) / (double)m;
}

enum sb_call sb_paired_call(const struct sb_paired *e, double delta)
{
    double up = 1.0 + delta, down = 1.0 / (1.0 + delta);

    if (e->lo > up)
        return SB_CALL_FASTER;
    if (e->hi < down)
        return SB_CALL_SLOWER;
    if (down <= e->lo && e->hi <= up)
        return SB_CALL_SAME;
    return SB_CALL_INCONCLUSIVE; /* also when lo or hi is NaN */
}

double sb_delta(double noise_floor)
{
    return isnan(noise_floor) ? SB_DELTA_MIN : fmax(SB_DELTA_MIN, noise_floor);
}

double sb_noise_floor(const double *x1, const double *x2, size_t n)
{
    double *d = malloc((n ? n : 1) * sizeof *d), floor = NAN;
    size_t m;

    if (d && (m = log_differences(x1, x2, n, d)) >= 2)
        floor = exp(fabs(sb_select_median(d, m))) - 1.0;
    free(d);
    return floor;
}

double sb_noise_bound(const double *x1, const double *x2, size_t n, unsigned resamples,
                      uint64_t seed)
{
    unsigned nb = resample_count(resamples);
    double *buf = malloc((2 * n + nb) * sizeof *buf), bound = NAN;
    size_t m;

    if (!buf || (m = log_differences(x1, x2, n, buf)) < 2)
        goto done;
    bootstrap_medians(buf, m, nb, seed, buf + n, buf + 2 * n);
    for (unsigned b = 0; b < nb; b++)
        buf[2 * n + b] = fabs(buf[2 * n + b]);
    qsort(buf + 2 * n, nb, sizeof *buf, sb_compare_doubles);
    bound = exp(sb_sorted_quantile(buf + 2 * n, nb, 0.95)) - 1.0;
done:
    free(buf);
    return bound;
}

void sb_median_interval(const double *x, size_t n, double level, unsigned resamples,
                        uint64_t seed, double *lo, double *hi)
{
    unsigned nb = resample_count(resamples);
    double *buf = malloc((2 * n + nb) * sizeof *buf);
    size_t m = 0;

    *lo = *hi = NAN;
    if (!buf)
        goto done;
    for (size_t i = 0; i < n; i++)
        if (!isnan(x[i]))
            buf[m++] = x[i];
    if (m < 2)
        goto done;
    bootstrap_medians(buf, m, nb, seed, buf + n, buf + 2 * n);
    *lo = sb_sorted_quantile(buf + 2 * n, nb, (1.0 - level) / 2.0);
    *hi = sb_sorted_quantile(buf + 2 * n, nb, (1.0 + level) / 2.0);
done:
    free(buf);
}

/* Points with a finite t and a finite, positive y take part; two passes, centred on the means
 * (t may be seconds since the epoch: sums of t^2 would cancel). */
double sb_drift_per_minute(const double *t, const double *y, size_t n)
{
    double m = 0.0, tm = 0.0, lm = 0.0, var = 0.0, cov = 0.0;

    for (size_t i = 0; i < n; i++)
        if (isfinite(t[i]) && usable(y[i])) {
            m += 1.0;
            tm += t[i];
            lm += log(y[i]);
        }
    if (m < 3.0)
        return NAN;
    tm /= m;
    lm /= m;
    for (size_t i = 0; i < n; i++)
        if (isfinite(t[i]) && usable(y[i])) {
            var += (t[i] - tm) * (t[i] - tm);
            cov += (t[i] - tm) * (log(y[i]) - lm);
        }
    if (!(var > 0.0))
        return NAN;
    return exp(cov / var * 60.0) - 1.0;
}

double sb_resolvable(double lo, double hi, double delta)
{
    if (!(lo > 0.0) || !(hi >= lo))
        return NAN;
    return (1.0 + delta) * exp((log(hi) - log(lo)) / 2.0) - 1.0;
}

bool sb_interval_precise(double lo, double hi, double precision)
{
    return (log(hi) - log(lo)) / 2.0 <= log1p(precision); /* false for NaN or lo <= 0 */
}

/* The usable values of x into out; returns how many. */
static size_t usable_values(const double *x, size_t n, double *out)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (usable(x[i]))
            out[m++] = x[i];
    return m;
}

int sb_unpaired_estimate(const double *a, size_t na, const double *b, size_t nb_values,
                         double level, unsigned resamples, uint64_t seed, double *ratio,
                         double *lo, double *hi)
{
    unsigned nb = resample_count(resamples);
    size_t n = na + nb_values;
    double *buf = malloc((2 * n + nb) * sizeof *buf), *va, *vb, *scratch, *ratios;
    size_t ma, mb;
    struct sb_rng rng;
    int rc = -1;

    *ratio = *lo = *hi = NAN;
    if (!buf)
        goto done;
    va = buf;
    vb = buf + na;
    scratch = buf + n;
    ratios = buf + 2 * n;
    ma = usable_values(a, na, va);
    mb = usable_values(b, nb_values, vb);
    if (ma < 2 || mb < 2)
        goto done;
    memcpy(scratch, va, ma * sizeof *va);
    *ratio = sb_select_median(scratch, ma);
    memcpy(scratch, vb, mb * sizeof *vb);
    *ratio = sb_select_median(scratch, mb) / *ratio;
    sb_rng_seed(&rng, seed);
    for (unsigned k = 0; k < nb; k++) {
        double ma_k, mb_k;
        for (size_t i = 0; i < ma; i++)
            scratch[i] = va[sb_rng_below(&rng, ma)];
        ma_k = sb_select_median(scratch, ma);
        for (size_t i = 0; i < mb; i++)
            scratch[i] = vb[sb_rng_below(&rng, mb)];
        mb_k = sb_select_median(scratch, mb);
        ratios[k] = mb_k / ma_k;
    }
    qsort(ratios, nb, sizeof *ratios, sb_compare_doubles);
    *lo = sb_sorted_quantile(ratios, nb, (1.0 - level) / 2.0);
    *hi = sb_sorted_quantile(ratios, nb, (1.0 + level) / 2.0);
    rc = 0;
done:
    free(buf);
    return rc;
}
