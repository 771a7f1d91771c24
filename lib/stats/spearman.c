/* SPDX-License-Identifier: BSD-3-Clause */
/* spearman.c: ranks with ties at their mean, and Spearman's rho as the Pearson correlation of
 * the ranks (spearman.h). */
#include "config.h"
#include "stats/spearman.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

struct ranked {
    double value;
    size_t at;
};

static int by_value(const void *a, const void *b)
{
    double x = ((const struct ranked *)a)->value, y = ((const struct ranked *)b)->value;

    return (x > y) - (x < y);
}

bool sb_ranks(const double *v, size_t n, double *rank)
{
    struct ranked *r = malloc((n ? n : 1) * sizeof *r);

    if (!r)
        return false;
    for (size_t i = 0; i < n; i++)
        r[i] = (struct ranked){.value = v[i], .at = i};
    qsort(r, n, sizeof *r, by_value);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && r[j].value == r[i].value; j++)
            ;
        for (size_t k = i; k < j; k++) /* ranks i+1 .. j: their mean */
            rank[r[k].at] = (double)(i + 1 + j) / 2;
    }
    free(r);
    return true;
}

static double pearson(const double *a, const double *b, size_t n)
{
    double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;

    for (size_t i = 0; i < n; i++) {
        ma += a[i] / (double)n;
        mb += b[i] / (double)n;
    }
    for (size_t i = 0; i < n; i++) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : NAN;
}

double sb_spearman(const double *x, const double *y, size_t n)
{
    double *rx = n >= 2 ? malloc(2 * n * sizeof *rx) : NULL, rho = NAN;

    if (rx && sb_ranks(x, n, rx) && sb_ranks(y, n, rx + n))
        rho = pearson(rx, rx + n, n);
    free(rx);
    return rho;
}
