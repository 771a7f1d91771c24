/* SPDX-License-Identifier: BSD-3-Clause */
/* mannwhitney.c: Mann-Whitney U with an exact null distribution for small samples. */
#include "config.h"
#include "stats/mannwhitney.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_MAX 30

/* Number of arrangements of n a's and m b's whose U equals u, for all u in 0..n*m:
 * f(n, m, u) = f(n - 1, m, u - m) + f(n, m - 1, u), computed row by row in doubles. */
static double *u_distribution(size_t n, size_t m)
{
    size_t umax = n * m;
    /* table[i][j] is a distribution over u for i a's and j b's: (n+1)(m+1)(umax+1) doubles */
    double *table = calloc((n + 1) * (m + 1) * (umax + 1), sizeof *table);
    double *result;

    if (!table)
        return NULL;
#define F(i, j) (table + ((i) * (m + 1) + (j)) * (umax + 1))
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j <= m; j++) {
            double *f = F(i, j);
            if (i == 0 || j == 0) {
                f[0] = 1.0;
                continue;
            }
            for (size_t u = 0; u <= i * j; u++)
                f[u] = (u >= j ? F(i - 1, j)[u - j] : 0.0) + F(i, j - 1)[u];
        }
    result = malloc((umax + 1) * sizeof *result);
    if (result)
        memcpy(result, F(n, m), (umax + 1) * sizeof *result);
#undef F
    free(table);
    return result;
}

static double normal_upper_tail(double z) { return 0.5 * erfc(z / sqrt(2.0)); }

/* U of a over b: pairs where a's value is larger, ties counting half; *ties, whether any. */
static double u_statistic(const double *a, size_t n, const double *b, size_t m, bool *ties)
{
    double u = 0.0;

    *ties = false;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < m; j++) {
            if (a[i] > b[j])
                u += 1.0;
            else if (a[i] == b[j]) {
                u += 0.5;
                *ties = true;
            }
        }
    return u;
}

/* Two-sided p of U = u from its exact distribution over 0..n*m. */
static double exact_p(const double *dist, size_t n, size_t m, double u_value)
{
    double total = 0.0, lower = 0.0, upper = 0.0;
    size_t u = (size_t)u_value;

    for (size_t k = 0; k <= n * m; k++) {
        total += dist[k];
        if (k <= u)
            lower += dist[k];
        if (k >= u)
            upper += dist[k];
    }
    return fmin(1.0, 2.0 * fmin(lower, upper) / total);
}

/* The ties' correction to the variance: the sum of t^3 - t over each group of t equal values
 * in a and b together; -1 on no memory. */
static double tie_term(const double *a, size_t n, const double *b, size_t m)
{
    double *all = malloc((n + m) * sizeof *all), sum = 0.0;

    if (!all)
        return -1.0;
    memcpy(all, a, n * sizeof *all);
    memcpy(all + n, b, m * sizeof *all);
    for (size_t i = 0; i < n + m; i++) {
        size_t t = 0;
        bool first = true;
        for (size_t j = 0; j < n + m; j++) {
            if (all[j] == all[i]) {
                t++;
                if (j < i)
                    first = false;
            }
        }
        if (first && t > 1)
            sum += (double)(t * t * t - t);
    }
    free(all);
    return sum;
}

struct sb_mann_whitney sb_mann_whitney(const double *a, size_t n, const double *b, size_t m)
{
    struct sb_mann_whitney r = {0.0, 1.0, false};
    bool ties;
    double *dist;
    /* for the normal approximation */
    double mean = (double)n * (double)m / 2.0, nn = (double)(n + m), ties_sum, var, z;

    r.u = u_statistic(a, n, b, m, &ties);
    if (!ties && n <= EXACT_MAX && m <= EXACT_MAX && (dist = u_distribution(n, m)) != NULL) {
        r.p = exact_p(dist, n, m, r.u);
        r.exact = true;
        free(dist);
        return r;
    }
    /* Normal approximation; the variance is reduced by the ties (sum of t^3 - t). */
    ties_sum = tie_term(a, n, b, m);
    if (ties_sum < 0.0)
        return r;
    var = (double)n * (double)m / 12.0 * ((nn + 1.0) - ties_sum / (nn * (nn - 1.0)));
    if (var <= 0.0)
        return r; /* every value equal: no evidence of a difference */
    z = (fabs(r.u - mean) - 0.5) / sqrt(var);
    r.p = z <= 0.0 ? 1.0 : fmin(1.0, 2.0 * normal_upper_tail(z));
    return r;
}
