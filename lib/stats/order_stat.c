/* SPDX-License-Identifier: BSD-3-Clause */
/* order_stat.c: quickselect medians and quantiles of sorted values for the bootstraps. */
#include "config.h"
#include "stats/order_stat.h"

#include <math.h>

/* Wirth's selection (Hoare's partition about the middle element): afterwards v[k] is the k-th
 * smallest, everything before it no larger and everything after it no smaller. */
static double select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;

    while (lo < hi) {
        double pivot = v[k];
        size_t i = lo, j = hi;
        do {
            while (v[i] < pivot)
                i++;
            while (pivot < v[j])
                j--;
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        } while (i <= j);
        if (j < k)
            lo = i;
        if (k < i)
            hi = j;
    }
    return v[k];
}

double sb_select_median(double *v, size_t n)
{
    double upper, lower;

    if (n == 0)
        return NAN;
    upper = select_kth(v, n, n / 2);
    if (n % 2)
        return upper;
    /* v[0 .. n/2-1] are all <= upper: the lower middle is their largest */
    lower = v[0];
    for (size_t i = 1; i < n / 2; i++)
        if (v[i] > lower)
            lower = v[i];
    return (lower + upper) / 2.0;
}

double sb_sorted_quantile(const double *sorted, size_t n, double p)
{
    double h, frac;
    size_t i;

    if (n == 0)
        return NAN;
    h = (double)(n - 1) * fmin(1.0, fmax(0.0, p));
    i = (size_t)h;
    if (i >= n - 1)
        return sorted[n - 1];
    frac = h - (double)i;
    return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

int sb_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
