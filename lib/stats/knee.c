/* SPDX-License-Identifier: BSD-3-Clause */
/* knee.c: the knee of a pool-size sweep timed in rounds: each round centred in ln MB/s, the
 * median curve, its fall, where it crosses half way (x50) and the steepest step, with both
 * bootstrapped over whole rounds to say how sure the knee's place is. */
#include "config.h"
#include "stats/knee.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/estimate.h" /* SB_BOOTSTRAP_RESAMPLES, when resamples is 0 */
#include "stats/order_stat.h"
#include "stats/schedule.h"

const char *const sb_knee_kind_names[] = {"too few points", "no drop", "clear", "no clear knee",
                                          "fall undecided"};

struct sweep {
    const double *x;
    size_t np, nr; /* points; rounds kept (at least 2 points each) */
    double *cen;   /* cen[r * np + i]: centred ln MB/s of kept round r, NaN where missing */
    double *col;   /* nr values: one point's over the rounds of a resample */
};

/* Keeps the rounds with at least 2 usable points, each less its mean ln MB/s; returns how many. */
static size_t centre_rounds(const double *mbps, size_t nrounds, size_t np, double *cen)
{
    size_t kept = 0;

    for (size_t r = 0; r < nrounds; r++) {
        const double *in = mbps + r * np;
        double *row = cen + kept * np, sum = 0.0;
        size_t have = 0;
        for (size_t i = 0; i < np; i++) {
            row[i] = isfinite(in[i]) && in[i] > 0.0 ? log(in[i]) : NAN;
            if (!isnan(row[i])) {
                sum += row[i];
                have++;
            }
        }
        if (have < 2)
            continue;
        for (size_t i = 0; i < np; i++)
            row[i] -= sum / (double)have;
        kept++;
    }
    return kept;
}

/* curve[i]: the median of point i over the rounds pick[0 .. nr-1] (pick NULL: every round once);
 * NaN where none of them has the point. */
static void median_curve(const struct sweep *s, const size_t *pick, double *curve)
{
    for (size_t i = 0; i < s->np; i++) {
        size_t m = 0;
        for (size_t k = 0; k < s->nr; k++) {
            double v = s->cen[(pick ? pick[k] : k) * s->np + i];
            if (!isnan(v))
                s->col[m++] = v;
        }
        curve[i] = sb_select_median(s->col, m);
    }
}

/* The means of the first two and of the last two points the curve has; false if under 2. */
static bool curve_ends(const double *curve, size_t np, double *high, double *low)
{
    size_t got = 0, i;

    *high = *low = 0.0;
    for (i = 0; i < np && got < 2; i++)
        if (!isnan(curve[i])) {
            *high += curve[i] / 2.0;
            got++;
        }
    for (i = np, got = 0; i > 0 && got < 2; i--)
        if (!isnan(curve[i - 1])) {
            *low += curve[i - 1] / 2.0;
            got++;
        }
    return got == 2;
}

/* log2 of where the curve first falls through mid (interpolated between the two points around
 * it); with no such fall, the nearer end: x[np-1] if the curve ends above mid, else x[0]. */
static double crossing_log2(const double *x, const double *curve, size_t np, double mid,
                            bool *crossed)
{
    size_t prev = np, last = np;

    *crossed = false;
    for (size_t i = 0; i < np; i++) {
        if (isnan(curve[i]))
            continue;
        if (prev < np && curve[prev] > mid && curve[i] <= mid) {
            double t = (curve[prev] - mid) / (curve[prev] - curve[i]);
            *crossed = true;
            return log2(x[prev]) + t * (log2(x[i]) - log2(x[prev]));
        }
        prev = last = i;
    }
    return last < np && curve[last] > mid ? log2(x[np - 1]) : log2(x[0]);
}

/* The step i with the largest curve[i] - curve[i + 1]; np when no step has both ends. */
static size_t steepest_step(const double *curve, size_t np)
{
    size_t best = np;

    for (size_t i = 0; i + 1 < np; i++)
        if (!isnan(curve[i]) && !isnan(curve[i + 1]) &&
            (best == np || curve[i] - curve[i + 1] > curve[best] - curve[best + 1]))
            best = i;
    return best;
}

/* nb resamples of the rounds: x50s[b] (log2 x50, sorted), falls[b] (high - low, sorted),
 * counts[i] of step i as the steepest; returns the resamples that did not cross. cb holds np
 * values, pick nr. */
static size_t bootstrap(const struct sweep *s, unsigned nb, uint64_t seed, double *cb,
                        size_t *pick, double *x50s, double *falls, double *counts)
{
    struct sb_rng rng;
    size_t uncrossed = 0;

    sb_rng_seed(&rng, seed);
    memset(counts, 0, (s->np - 1) * sizeof *counts);
    for (unsigned b = 0; b < nb; b++) {
        double high, low;
        bool crossed = false;
        size_t step;
        for (size_t k = 0; k < s->nr; k++)
            pick[k] = (size_t)sb_rng_below(&rng, s->nr);
        median_curve(s, pick, cb);
        if (curve_ends(cb, s->np, &high, &low)) {
            x50s[b] = crossing_log2(s->x, cb, s->np, (high + low) / 2.0, &crossed);
            falls[b] = high - low;
        } else {
            x50s[b] = log2(s->x[0]);
            falls[b] = 0.0;
        }
        uncrossed += !crossed;
        if ((step = steepest_step(cb, s->np)) < s->np)
            counts[step] += 1.0;
    }
    qsort(x50s, nb, sizeof *x50s, sb_compare_doubles);
    qsort(falls, nb, sizeof *falls, sb_compare_doubles);
    return uncrossed;
}

/* CLEAR or UNCLEAR from the steepest step's bootstrap counts, and the top 3 steps. */
static void decide(const double *counts, size_t nsteps, unsigned nb, struct sb_knee *out)
{
    size_t one = 0, two = 0;

    for (size_t i = 1; i < nsteps; i++)
        if (counts[i] > counts[one])
            one = i;
    for (size_t i = 1; i + 1 < nsteps; i++)
        if (counts[i] + counts[i + 1] > counts[two] + counts[two + 1])
            two = i;
    out->kind = SB_KNEE_UNCLEAR;
    if (counts[one] >= SB_KNEE_STEP_PROB * nb) {
        out->kind = SB_KNEE_CLEAR;
        out->step = one;
        out->step_width = 1;
        out->step_prob = counts[one] / nb;
    } else if (nsteps > 1 && counts[two] + counts[two + 1] >= SB_KNEE_STEP_PROB * nb) {
        out->kind = SB_KNEE_CLEAR;
        out->step = two;
        out->step_width = 2;
        out->step_prob = (counts[two] + counts[two + 1]) / nb;
    }
    for (out->ntop = 0; out->ntop < 3; out->ntop++) {
        size_t best = nsteps;
        for (size_t i = 0; i < nsteps; i++) {
            bool taken = false;
            for (size_t t = 0; t < out->ntop; t++)
                taken |= out->top[t] == i;
            if (!taken && counts[i] > 0.0 && (best == nsteps || counts[i] > counts[best]))
                best = i;
        }
        if (best == nsteps)
            break;
        out->top[out->ntop] = best;
        out->top_prob[out->ntop] = counts[best] / nb;
    }
}

static void knee_init(struct sb_knee *out, size_t npoints, double level)
{
    memset(out, 0, sizeof *out);
    out->kind = SB_KNEE_TOO_FEW;
    out->npoints = npoints;
    out->fall = out->fall_lo = out->fall_hi = out->x50 = out->x50_lo = out->x50_hi = out->x50_uncrossed = NAN;
    out->x50_level = level;
}

int sb_knee_estimate(const double *x, size_t npoints, const double *mbps, size_t nrounds,
                     double level, unsigned resamples, uint64_t seed, struct sb_knee *out,
                     double *curve)
{
    /* one block: cen (nrounds x np), col (nrounds), med, cb (np each), x50s, falls (nb each),
     * counts (np), then the resample's rounds (nrounds + 1 size_t) */
    unsigned nb = resamples ? resamples : SB_BOOTSTRAP_RESAMPLES;
    size_t np = npoints, nd = nrounds * np + nrounds + 2 * np + 2 * nb + np, uncrossed;
    double *buf = malloc(nd * sizeof *buf + (nrounds + 1) * sizeof(size_t)), *med, *cb;
    double *x50s, *falls, *counts, high, low;
    struct sweep s = {x, np, 0, buf, buf + nrounds * np};
    bool crossed;
    int rc = -1;

    knee_init(out, npoints, level);
    if (!buf)
        goto done;
    med = s.col + nrounds;
    cb = med + np;
    x50s = cb + np;
    falls = x50s + nb;
    counts = falls + nb;
    s.nr = out->nrounds = centre_rounds(mbps, nrounds, np, s.cen);
    median_curve(&s, NULL, med);
    if (curve)
        memcpy(curve, med, np * sizeof *curve);
    rc = 0;
    if (np < SB_KNEE_MIN_POINTS || s.nr < 2)
        goto done;
    for (size_t i = 0; i < np; i++)
        if (isnan(med[i]))
            goto done; /* a point no round has */
    curve_ends(med, np, &high, &low);
    out->fall = exp(high - low) - 1.0;
    uncrossed = bootstrap(&s, nb, seed, cb, (size_t *)(buf + nd), x50s, falls, counts);
    out->fall_lo = exp(sb_sorted_quantile(falls, nb, (1.0 - level) / 2.0)) - 1.0;
    out->fall_hi = exp(sb_sorted_quantile(falls, nb, (1.0 + level) / 2.0)) - 1.0;
    out->kind = out->fall_hi < SB_KNEE_MIN_FALL ? SB_KNEE_NO_DROP : SB_KNEE_FALL_UNSURE;
    if (!(out->fall_lo >= SB_KNEE_MIN_FALL && out->fall >= SB_KNEE_MIN_FALL))
        goto done;
    out->x50 = exp2(crossing_log2(x, med, np, (high + low) / 2.0, &crossed));
    out->x50_uncrossed = (double)uncrossed / nb;
    out->x50_lo = exp2(sb_sorted_quantile(x50s, nb, (1.0 - level) / 2.0));
    out->x50_hi = exp2(sb_sorted_quantile(x50s, nb, (1.0 + level) / 2.0));
    decide(counts, np - 1, nb, out);
done:
    free(buf);
    return rc;
}
