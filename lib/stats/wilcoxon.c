/* SPDX-License-Identifier: BSD-3-Clause */
/* wilcoxon.c: the Wilcoxon signed-rank test with an exact null distribution for small samples. */
#include "config.h"
#include "stats/wilcoxon.h"

#include <math.h>
#include <stdlib.h>

static int by_magnitude(const void *a, const void *b)
{
    double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
    return (x > y) - (x < y);
}

/* Number of sign patterns of the ranks 1..n whose W+ equals w, for all w in 0..n(n+1)/2:
 * adding rank k, f_k(w) = f_{k-1}(w) + f_{k-1}(w - k). At most 2^50 patterns: exact in doubles. */
static double *w_distribution(size_t n)
{
    size_t wmax = n * (n + 1) / 2;
    double *f = calloc(wmax + 1, sizeof *f);

    if (!f)
        return NULL;
    f[0] = 1.0;
    for (size_t k = 1; k <= n; k++)
        for (size_t w = k * (k + 1) / 2; w >= k; w--)
            f[w] += f[w - k];
    return f;
}

static double normal_upper_tail(double z) { return 0.5 * erfc(z / sqrt(2.0)); }

static double exact_p(size_t n, double w_plus)
{
    double *dist = w_distribution(n), total = 0.0, lower = 0.0, upper = 0.0, p;
    size_t w = (size_t)w_plus;

    if (!dist)
        return NAN;
    for (size_t k = 0; k <= n * (n + 1) / 2; k++) {
        total += dist[k];
        if (k <= w)
            lower += dist[k];
        if (k >= w)
            upper += dist[k];
    }
    p = fmin(1.0, 2.0 * fmin(lower, upper) / total);
    free(dist);
    return p;
}

struct sb_wilcoxon sb_wilcoxon_signed_rank(const double *d, size_t n)
{
    struct sb_wilcoxon r = {0, 0.0, 1.0, false};
    double *v = malloc((n ? n : 1) * sizeof *v), tie_term = 0.0, mean, var, z;
    bool ties = false;

    if (!v) {
        r.p = NAN; /* out of memory: no p-value rather than a wrong one */
        return r;
    }
    for (size_t i = 0; i < n; i++)
        if (d[i] != 0.0 && !isnan(d[i])) /* zeros dropped (and NaN: no difference known) */
            v[r.n++] = d[i];
    qsort(v, r.n, sizeof *v, by_magnitude);
    /* ranks by |d|: a run of t equal magnitudes at positions i..i+t-1 shares rank i + (t+1)/2 */
    for (size_t i = 0, j; i < r.n; i = j) {
        for (j = i + 1; j < r.n && fabs(v[j]) == fabs(v[i]); j++)
            ;
        for (size_t k = i; k < j; k++)
            if (v[k] > 0.0)
                r.w_plus += (double)(i + j + 1) / 2.0;
        if (j - i > 1) {
            double t = (double)(j - i);
            ties = true;
            tie_term += t * t * t - t;
        }
    }
    free(v);
    if (r.n == 0)
        return r;
    if (!ties && r.n <= SB_WILCOXON_EXACT_MAX) {
        r.p = exact_p(r.n, r.w_plus);
        r.exact = true;
        return r;
    }
    /* Normal approximation; the variance is reduced by the ties (sum of t^3 - t, over 48). */
    mean = (double)r.n * (double)(r.n + 1) / 4.0;
    var = (double)r.n * (double)(r.n + 1) * (double)(2 * r.n + 1) / 24.0 - tie_term / 48.0;
    if (var <= 0.0)
        return r; /* not for n >= 1 (all n tied leaves n(n+1)^2/16); kept for safety */
    z = (fabs(r.w_plus - mean) - 0.5) / sqrt(var);
    r.p = z <= 0.0 ? 1.0 : fmin(1.0, 2.0 * normal_upper_tail(z));
    return r;
}
