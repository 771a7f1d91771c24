/* SPDX-License-Identifier: BSD-3-Clause */
/* stats.c: median, extremes and coefficient of variation of the per-repetition MB/s. */
#include "config.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sb_median(const double *values, size_t n)
{
    double *sorted, m;

    if (n == 0)
        return NAN;
    sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return NAN;
    memcpy(sorted, values, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, cmp_double);
    m = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    free(sorted);
    return m;
}

void sb_stats_from_seconds(const double *seconds, size_t n, uint64_t bytes, struct sb_stats *out)
{
    double *mbps = malloc((n ? n : 1) * sizeof *mbps);
    double sum = 0.0, sq = 0.0, mean;

    memset(out, 0, sizeof *out);
    if (!mbps || n == 0) {
        free(mbps);
        out->best = out->median = out->min = out->max = out->cv = NAN;
        return;
    }
    out->min = INFINITY;
    out->max = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        mbps[i] = (double)bytes / seconds[i] / SB_MB_DECIMAL;
        sum += mbps[i];
        if (mbps[i] < out->min)
            out->min = mbps[i];
        if (mbps[i] > out->max)
            out->max = mbps[i];
    }
    mean = sum / (double)n;
    for (size_t i = 0; i < n; i++)
        sq += (mbps[i] - mean) * (mbps[i] - mean);
    out->cv = n > 1 ? sqrt(sq / (double)(n - 1)) / mean : 0.0;
    out->best = out->max;
    out->median = sb_median(mbps, n);
    free(mbps);
}
