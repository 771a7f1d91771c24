/* SPDX-License-Identifier: BSD-3-Clause */
/* proportion.c: the Wilson score interval of a share of trials (see proportion.h). */
#include "config.h"
#include "stats/proportion.h"

#include <math.h>

double sb_normal_quantile(double p)
{
    double lo = -40.0, hi = 40.0;

    /* bisection on the normal distribution function, 0.5 erfc(-z / sqrt 2): 100 halvings of
     * [-40, 40] leave the interval below a double's resolution */
    for (int i = 0; i < 100; i++) {
        double mid = (lo + hi) / 2.0;
        if (0.5 * erfc(-mid / sqrt(2.0)) < p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2.0;
}

void sb_wilson_interval(unsigned k, unsigned n, double level, double *lo, double *hi)
{
    double z, z2, p, centre, half;

    if (n == 0 || k > n) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    z = sb_normal_quantile(1.0 - (1.0 - level) / 2.0);
    z2 = z * z;
    p = (double)k / n;
    centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    half = z / (1.0 + z2 / n) * sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * (double)n));
    *lo = k == 0 ? 0.0 : fmax(0.0, centre - half);
    *hi = k == n ? 1.0 : fmin(1.0, centre + half);
}
