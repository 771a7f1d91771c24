/* SPDX-License-Identifier: BSD-3-Clause */
/* steps.c: effective cache sizes from a sweep of working sets: plateaus and the midpoint
 * crossing between them (steps.h). */
#include "config.h"
#include "stats/steps.h"

#include <math.h>

const char *const sb_steps_why_names[] = {"no working set in range", "no step", "found"};

/* The lowest cost over the sets in (lo, hi], and its index in *at; 0 when there is none. */
static double lowest(const uint64_t *size, const double *cost, size_t n, uint64_t lo,
                     uint64_t hi, size_t *at)
{
    double best = 0;

    for (size_t i = 0; i < n; i++)
        if (size[i] > lo && size[i] <= hi && (best == 0 || cost[i] < best)) {
            best = cost[i];
            *at = i;
        }
    return best;
}

/* Where the curve, from index from on, first reaches t (interpolated in log2 size, log cost);
 * 0 when it never does (not for a t below a later point's cost). */
static uint64_t crossing(const uint64_t *size, const double *cost, size_t n, size_t from,
                         double t)
{
    for (size_t i = from + 1; i < n; i++) {
        double x0, x1, y0, y1;
        if (cost[i] < t)
            continue;
        x0 = log2((double)size[i - 1]);
        x1 = log2((double)size[i]);
        y0 = log(cost[i - 1]);
        y1 = log(cost[i]);
        return (uint64_t)llround(exp2(y1 > y0 ? x0 + (log(t) - y0) / (y1 - y0) * (x1 - x0) : x1));
    }
    return 0;
}

static void find_level(const uint64_t *size, const double *cost, size_t n,
                       const uint64_t *nominal, unsigned nlevels, unsigned l, uint64_t above,
                       struct sb_steps_level *out)
{
    size_t own_at = 0, next_at = 0;

    out->size = 0;
    out->own = lowest(size, cost, n, 2 * above, nominal[l], &own_at);
    if (l + 1 < nlevels)
        out->next = lowest(size, cost, n, 2 * nominal[l], nominal[l + 1], &next_at);
    else
        out->next = n && size[n - 1] > nominal[l] ? cost[n - 1] : 0;
    if (out->own <= 0 || out->next <= 0) {
        out->why = SB_STEPS_NO_POINTS;
        return;
    }
    if (out->next < SB_STEPS_MIN_RISE * out->own) {
        out->why = SB_STEPS_NO_STEP;
        return;
    }
    out->size = crossing(size, cost, n, own_at, sqrt(out->own * out->next));
    out->why = out->size ? SB_STEPS_FOUND : SB_STEPS_NO_STEP;
}

unsigned sb_steps_find(const uint64_t *size, const double *cost, size_t n,
                       const uint64_t *nominal, unsigned nlevels, struct sb_steps_level *out)
{
    unsigned found = 0;
    uint64_t above = 0;

    if (nlevels > SB_STEPS_MAX_LEVELS)
        nlevels = SB_STEPS_MAX_LEVELS;
    for (unsigned l = 0; l < nlevels; l++) {
        find_level(size, cost, n, nominal, nlevels, l, above, &out[l]);
        found += out[l].why == SB_STEPS_FOUND;
        above = out[l].why == SB_STEPS_FOUND ? out[l].size : nominal[l];
    }
    return found;
}
