/* SPDX-License-Identifier: BSD-3-Clause */
/* layouts.c: estimates over rounds that come in layouts (layouts.h): the rounds' layouts
 * numbered in order of first appearance, the two-stage bootstrap of the pooled median (layouts
 * with replacement, then each drawn layout's rounds with replacement), its percentiles read at
 * Hesterberg's expanded level (Student's t quantile by Cornish-Fisher, the normal quantile by
 * Wichura's AS241), and the spread between layouts by the method of moments.
 *
 * The intervals read the sorted resample statistics with sb_sorted_quantile, as estimate.c does:
 * lo at (1 - L) / 2 and hi at (1 + L) / 2, where L = sb_layouts_expanded_level(level, G) (L is
 * level for G < 2, so the conventions agree). The noise bound's 95th percentile is the upper end
 * of a two-sided 90% interval, so it is widened the same way: read at (1 + L90) / 2 with
 * L90 = sb_layouts_expanded_level(0.90, G) (so at 0.95 for G < 2), i.e. at Phi(z'), z' =
 * sqrt(G / (G - 1)) t_{G-1}(0.95): the one-sided form of the same expansion. The unpaired
 * estimate resamples two pools, one a side, and expands for the fewer layouts of the two that
 * are 2 or more (layouts.h).
 *
 * The statistic of a resample is the median of its pooled values (not the median or mean of the
 * drawn layouts' medians), so that at one layout it is estimate.c's; tests/stats/
 * test_layouts_coverage.c checks that this, with the expansion, covers at the nominal level on
 * data whose layouts differ more than their rounds do. */
#include "config.h"
#include "stats/layouts.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/order_stat.h"
#include "stats/schedule.h"

/* resamples of 0: the production count (as estimate.c) */
static unsigned resample_count(unsigned resamples)
{
    return resamples ? resamples : SB_BOOTSTRAP_RESAMPLES;
}

static bool usable(double x) { return isfinite(x) && x > 0.0; }

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

size_t sb_layouts_count(const uint32_t *group, const unsigned char *keep, size_t n)
{
    uint32_t *g = malloc((n ? n : 1) * sizeof *g);
    size_t m = 0, count = 0;

    for (size_t r = 0; r < n; r++) {
        if (keep && !keep[r])
            continue;
        if (g) {
            g[m++] = group[r];
            continue;
        }
        /* no memory: the quadratic scan (is r the first kept round of its layout?) */
        size_t s = 0;
        while (s < r && ((keep && !keep[s]) || group[s] != group[r]))
            s++;
        count += s == r;
    }
    if (g) {
        qsort(g, m, sizeof *g, compare_u32);
        for (size_t k = 0; k < m; k++)
            count += k == 0 || g[k] != g[k - 1];
    }
    free(g);
    return count;
}

/* A round's layout and its position, sorted by layout and then position. */
struct tagged {
    uint32_t group;
    size_t round;
};

static int compare_tagged(const void *a, const void *b)
{
    const struct tagged *x = a, *y = b;
    if (x->group != y->group)
        return (x->group > y->group) - (x->group < y->group);
    return (x->round > y->round) - (x->round < y->round);
}

/* id[r] (r < n): the layout of round r numbered 0, 1, ... in order of first appearance. Returns
 * how many layouts, or SIZE_MAX when memory runs out. */
static size_t layout_ids(const uint32_t *group, size_t n, size_t *id)
{
    struct tagged *t = malloc((n ? n : 1) * sizeof *t);
    size_t *run_of_first = malloc((n ? n : 1) * sizeof *run_of_first), g = SIZE_MAX, runs = 0;

    if (!t || !run_of_first)
        goto done;
    for (size_t r = 0; r < n; r++) {
        t[r] = (struct tagged){group[r], r};
        run_of_first[r] = SIZE_MAX;
    }
    qsort(t, n, sizeof *t, compare_tagged);
    /* each run of one layout: mark its first round with the run's number, id[] the run's */
    for (size_t k = 0; k < n; k++) {
        if (k == 0 || t[k].group != t[k - 1].group)
            run_of_first[t[k].round] = runs++;
        id[t[k].round] = runs - 1;
    }
    /* renumber the runs in order of their first rounds: t[].round is free to hold the map */
    g = 0;
    for (size_t r = 0; r < n; r++)
        if (run_of_first[r] != SIZE_MAX)
            t[run_of_first[r]].round = g++;
    for (size_t r = 0; r < n; r++)
        id[r] = t[id[r]].round;
done:
    free(t);
    free(run_of_first);
    return g;
}

/* The usable values of a series grouped by layout: layout j's values are
 * v[start[j] .. start[j] + count[j] - 1], in round order; g layouts, m values. */
struct pooled {
    double *v;
    size_t *start, *count;
    size_t g, m, most; /* most: the largest count */
};

static void pooled_free(struct pooled *p)
{
    free(p->v);
    free(p->start);
    free(p->count);
    memset(p, 0, sizeof *p);
}

/* Groups x[0 .. m-1] (the usable values, grp[k] the layout of x[k]) into p; 0, or -1 when
 * memory runs out. */
static int pooled_make(const double *x, const uint32_t *grp, size_t m, struct pooled *p)
{
    size_t *id = malloc((m ? m : 1) * sizeof *id), g;
    int rc = -1;

    memset(p, 0, sizeof *p);
    if (!id || (g = layout_ids(grp, m, id)) == SIZE_MAX)
        goto done;
    p->v = malloc((m ? m : 1) * sizeof *p->v);
    p->start = calloc(g ? g : 1, sizeof *p->start);
    p->count = calloc(g ? g : 1, sizeof *p->count);
    if (!p->v || !p->start || !p->count)
        goto done;
    p->g = g;
    p->m = m;
    for (size_t k = 0; k < m; k++)
        p->count[id[k]]++;
    for (size_t j = 0; j < g; j++) {
        p->start[j] = j ? p->start[j - 1] + p->count[j - 1] : 0;
        p->most = p->count[j] > p->most ? p->count[j] : p->most;
    }
    for (size_t j = 0; j < g; j++)
        p->count[j] = 0; /* refilled below, as each layout's next free slot */
    for (size_t k = 0; k < m; k++)
        p->v[p->start[id[k]] + p->count[id[k]]++] = x[k];
    rc = 0;
done:
    if (rc)
        pooled_free(p);
    free(id);
    return rc;
}

/* The paired series' d = ln a - ln b over the rounds with both usable, by layout. */
static int pooled_paired(const double *a, const double *b, const uint32_t *group, size_t n,
                         struct pooled *p)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    uint32_t *grp = malloc((n ? n : 1) * sizeof *grp);
    size_t m = 0;
    int rc = -1;

    memset(p, 0, sizeof *p);
    if (!d || !grp)
        goto done;
    for (size_t r = 0; r < n; r++)
        if (usable(a[r]) && usable(b[r])) {
            d[m] = log(a[r]) - log(b[r]);
            grp[m++] = group[r];
        }
    rc = pooled_make(d, grp, m, p);
done:
    free(d);
    free(grp);
    return rc;
}

/* One two-stage resample of p into out (p->g * p->most values at most): p->g layouts drawn
 * with replacement, then for each layout drawn as many of its values as it has, with
 * replacement; returns how many. At one layout (sb_rng_below(rng, 1) draws nothing) it is the
 * one-stage resample of the values, draw for draw. */
static size_t two_stage_draw(const struct pooled *p, struct sb_rng *rng, double *out)
{
    size_t m = 0;

    for (size_t j = 0; j < p->g; j++) {
        size_t l = (size_t)sb_rng_below(rng, p->g);
        const double *v = p->v + p->start[l];
        for (size_t i = 0; i < p->count[l]; i++)
            out[m++] = v[sb_rng_below(rng, p->count[l])];
    }
    return m;
}

/* meds[0 .. nb-1]: the pooled medians of nb two-stage resamples of p (two_stage_draw), sorted
 * (fabs'd first when absolute). Returns 0, or -1 when memory runs out. */
static int two_stage_medians(const struct pooled *p, unsigned nb, uint64_t seed, bool absolute,
                             double *meds)
{
    double *scratch = malloc((p->g * p->most + 1) * sizeof *scratch); /* a pool's most */
    struct sb_rng rng;

    if (!scratch)
        return -1;
    sb_rng_seed(&rng, seed);
    for (unsigned k = 0; k < nb; k++) {
        meds[k] = sb_select_median(scratch, two_stage_draw(p, &rng, scratch));
        if (absolute)
            meds[k] = fabs(meds[k]);
    }
    qsort(meds, nb, sizeof *meds, sb_compare_doubles);
    free(scratch);
    return 0;
}

/* The two-sided interval of p's pooled median at `level`, expanded for p->g layouts; 0, or -1
 * (lo and hi untouched) when memory runs out. */
static int two_stage_interval(const struct pooled *p, double level, unsigned resamples,
                              uint64_t seed, double *lo, double *hi)
{
    unsigned nb = resample_count(resamples);
    double *meds = malloc(nb * sizeof *meds), wide = sb_layouts_expanded_level(level, p->g);
    int rc = -1;

    if (!meds || two_stage_medians(p, nb, seed, false, meds) != 0)
        goto done;
    *lo = sb_sorted_quantile(meds, nb, (1.0 - wide) / 2.0);
    *hi = sb_sorted_quantile(meds, nb, (1.0 + wide) / 2.0);
    rc = 0;
done:
    free(meds);
    return rc;
}

int sb_paired_estimate_layouts(const double *a, const double *b, const uint32_t *group, size_t n,
                               double level, unsigned resamples, uint64_t seed,
                               struct sb_paired *out)
{
    struct pooled p = {0};
    int rc = -1;

    if (!group)
        return sb_paired_estimate(a, b, n, level, resamples, seed, out);
    if (pooled_paired(a, b, group, n, &p) != 0) {
        sb_paired_estimate(a, b, 0, level, 1, seed, out); /* the failed state: zeroed, NaN */
        goto done;
    }
    if (p.g < 2) {
        rc = sb_paired_estimate(a, b, n, level, resamples, seed, out);
        goto done;
    }
    /* the ratio, n and the Wilcoxon test do not depend on the resamples: one is enough */
    rc = sb_paired_estimate(a, b, n, level, 1, seed, out);
    if (rc == 0 && two_stage_interval(&p, level, resamples, seed, &out->lo, &out->hi) == 0) {
        out->lo = exp(out->lo); /* the interval of median d: of the ratio */
        out->hi = exp(out->hi);
    } else if (rc == 0) {
        sb_paired_estimate(a, b, 0, level, 1, seed, out);
        rc = -1;
    }
done:
    pooled_free(&p);
    return rc;
}

/* The usable values of x (finite and > 0, as estimate.c's), by layout (group NULL: one). */
static int pooled_usable(const double *x, const uint32_t *group, size_t n, struct pooled *p)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    uint32_t *grp = malloc((n ? n : 1) * sizeof *grp);
    size_t m = 0;
    int rc = -1;

    memset(p, 0, sizeof *p);
    if (!v || !grp)
        goto done;
    for (size_t r = 0; r < n; r++)
        if (usable(x[r])) {
            v[m] = x[r];
            grp[m++] = group ? group[r] : 0;
        }
    rc = pooled_make(v, grp, m, p);
done:
    free(v);
    free(grp);
    return rc;
}

/* The layouts the expansion of an unpaired interval counts: the fewer of the two sides' counts
 * that are 2 or more (at least one is). */
static size_t fewer_layouts(size_t ga, size_t gb)
{
    if (ga < 2 || gb < 2)
        return ga < 2 ? gb : ga;
    return ga < gb ? ga : gb;
}

/* The two-sided interval of median(b*) / median(a*) over two-stage resamples of each side
 * (drawn in turn from one generator, a's first, as estimate.c's one-stage ones), at `level`
 * expanded for fewer_layouts(); 0, or -1 (lo and hi untouched) when memory runs out. */
static int unpaired_two_stage_interval(const struct pooled *pa, const struct pooled *pb,
                                       double level, unsigned resamples, uint64_t seed,
                                       double *lo, double *hi)
{
    unsigned nb = resample_count(resamples);
    size_t most = pa->g * pa->most > pb->g * pb->most ? pa->g * pa->most : pb->g * pb->most;
    double *ratios = malloc(nb * sizeof *ratios), *scratch = malloc((most + 1) * sizeof *scratch);
    double wide = sb_layouts_expanded_level(level, fewer_layouts(pa->g, pb->g));
    struct sb_rng rng;
    int rc = -1;

    if (!ratios || !scratch)
        goto done;
    sb_rng_seed(&rng, seed);
    for (unsigned k = 0; k < nb; k++) {
        double ma_k = sb_select_median(scratch, two_stage_draw(pa, &rng, scratch));
        ratios[k] = sb_select_median(scratch, two_stage_draw(pb, &rng, scratch)) / ma_k;
    }
    qsort(ratios, nb, sizeof *ratios, sb_compare_doubles);
    *lo = sb_sorted_quantile(ratios, nb, (1.0 - wide) / 2.0);
    *hi = sb_sorted_quantile(ratios, nb, (1.0 + wide) / 2.0);
    rc = 0;
done:
    free(ratios);
    free(scratch);
    return rc;
}

int sb_unpaired_estimate_layouts(const double *a, const uint32_t *ga, size_t na, const double *b,
                                 const uint32_t *gb, size_t nb, double level, unsigned resamples,
                                 uint64_t seed, double *ratio, double *lo, double *hi)
{
    struct pooled pa = {0}, pb = {0};
    bool one_stage;
    int rc = -1;

    if (!ga && !gb)
        return sb_unpaired_estimate(a, na, b, nb, level, resamples, seed, ratio, lo, hi);
    *ratio = *lo = *hi = NAN;
    if (pooled_usable(a, ga, na, &pa) != 0 || pooled_usable(b, gb, nb, &pb) != 0)
        goto done;
    /* the ratio and the failures do not depend on the resamples: one is enough beside layouts */
    one_stage = pa.g < 2 && pb.g < 2;
    rc = sb_unpaired_estimate(a, na, b, nb, level, one_stage ? resamples : 1, seed, ratio, lo,
                              hi);
    if (rc == 0 && !one_stage &&
        unpaired_two_stage_interval(&pa, &pb, level, resamples, seed, lo, hi) != 0) {
        *ratio = *lo = *hi = NAN;
        rc = -1;
    }
done:
    pooled_free(&pa);
    pooled_free(&pb);
    return rc;
}

void sb_median_interval_layouts(const double *x, const uint32_t *group, size_t n, double level,
                                unsigned resamples, uint64_t seed, double *lo, double *hi)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    uint32_t *grp = malloc((n ? n : 1) * sizeof *grp);
    struct pooled p = {0};
    size_t m = 0;

    *lo = *hi = NAN;
    if (!group) {
        sb_median_interval(x, n, level, resamples, seed, lo, hi);
        goto done;
    }
    if (!v || !grp)
        goto done;
    for (size_t r = 0; r < n; r++)
        if (!isnan(x[r])) { /* as sb_median_interval: NaN is skipped, infinities kept */
            v[m] = x[r];
            grp[m++] = group[r];
        }
    if (pooled_make(v, grp, m, &p) != 0)
        goto done;
    if (p.g < 2)
        sb_median_interval(x, n, level, resamples, seed, lo, hi);
    else if (two_stage_interval(&p, level, resamples, seed, lo, hi) != 0)
        *lo = *hi = NAN;
done:
    pooled_free(&p);
    free(v);
    free(grp);
}

double sb_noise_bound_layouts(const double *x1, const double *x2, const uint32_t *group,
                              size_t n, unsigned resamples, uint64_t seed)
{
    unsigned nb = resample_count(resamples);
    struct pooled p = {0};
    double *meds = NULL, bound = NAN, wide;

    if (!group)
        return sb_noise_bound(x1, x2, n, resamples, seed);
    if (pooled_paired(x1, x2, group, n, &p) != 0)
        goto done;
    if (p.g < 2) {
        bound = sb_noise_bound(x1, x2, n, resamples, seed);
        goto done;
    }
    meds = malloc(nb * sizeof *meds);
    if (!meds || two_stage_medians(&p, nb, seed, true, meds) != 0)
        goto done;
    wide = sb_layouts_expanded_level(0.90, p.g); /* the 95th percentile, widened (top) */
    bound = exp(sb_sorted_quantile(meds, nb, (1.0 + wide) / 2.0)) - 1.0;
done:
    free(meds);
    pooled_free(&p);
    return bound;
}

/* One layout's finite values of y, by the rounds' layout ids. */
struct layout_moments {
    double sum, mean, ss; /* ss: the sum of squared deviations from mean */
    size_t n;
};

/* The method-of-moments sigma between layouts from their moments (n - 1 denominators both for
 * the variance of the layouts' means and for each layout's own variance): the variance of the
 * means less the mean over layouts of (within variance / rounds), clamped at 0; NaN with fewer
 * than 2 layouts of 2 values or more. */
static double between_sigma(const struct layout_moments *lm, size_t g)
{
    double mean = 0.0, between = 0.0, within = 0.0, k = 0.0;

    for (size_t j = 0; j < g; j++)
        if (lm[j].n >= 2) {
            mean += lm[j].mean;
            k += 1.0;
        }
    if (k < 2.0)
        return NAN;
    mean /= k;
    for (size_t j = 0; j < g; j++)
        if (lm[j].n >= 2) {
            double nj = (double)lm[j].n;
            between += (lm[j].mean - mean) * (lm[j].mean - mean);
            within += lm[j].ss / (nj - 1.0) / nj;
        }
    return sqrt(fmax(0.0, between / (k - 1.0) - within / k));
}

/* Each layout's median of y (NaN where it has no finite value) into medians[j < max]; scratch
 * holds n values. */
static void layout_medians(const double *y, const size_t *id, size_t n, size_t g, double *medians,
                           size_t max, double *scratch)
{
    for (size_t j = 0; j < g && j < max; j++) {
        size_t m = 0;
        for (size_t r = 0; r < n; r++)
            if (id[r] == j && isfinite(y[r]))
                scratch[m++] = y[r];
        medians[j] = sb_select_median(scratch, m); /* NaN for m of 0 */
    }
}

double sb_layouts_spread(const double *y, const uint32_t *group, size_t n, double *medians,
                         size_t max_medians, size_t *ngroups)
{
    size_t *id = calloc(n ? n : 1, sizeof *id), g = n ? 1 : 0; /* group NULL: one layout */
    double *scratch = malloc((n ? n : 1) * sizeof *scratch), sigma = NAN;
    struct layout_moments *lm = NULL;

    if (ngroups)
        *ngroups = 0;
    if (!id || !scratch || (group && (g = layout_ids(group, n, id)) == SIZE_MAX))
        goto done;
    if (ngroups)
        *ngroups = g;
    if (medians)
        layout_medians(y, id, n, g, medians, max_medians, scratch);
    if (!(lm = calloc(g ? g : 1, sizeof *lm)))
        goto done;
    for (size_t r = 0; r < n; r++)
        if (isfinite(y[r])) {
            lm[id[r]].sum += y[r];
            lm[id[r]].n++;
        }
    for (size_t j = 0; j < g; j++)
        lm[j].mean = lm[j].n ? lm[j].sum / (double)lm[j].n : NAN;
    for (size_t r = 0; r < n; r++)
        if (isfinite(y[r]))
            lm[id[r]].ss += (y[r] - lm[id[r]].mean) * (y[r] - lm[id[r]].mean);
    sigma = between_sigma(lm, g);
done:
    free(id);
    free(scratch);
    free(lm);
    return sigma;
}

/* The standard normal quantile: Wichura's algorithm AS241 (PPND16, "The percentage points of
 * the normal distribution", Applied Statistics 37(3), 1988), relative error about 1e-16.
 * p in (0, 1); 0 and 1 give -inf and inf, anything else NaN. */
static double normal_quantile(double p)
{
    double q = p - 0.5, r, x;

    if (!(p >= 0.0 && p <= 1.0))
        return NAN;
    if (p == 0.0 || p == 1.0)
        return p == 0.0 ? -INFINITY : INFINITY;
    if (fabs(q) <= 0.425) {
        r = 0.180625 - q * q;
        return q *
               (((((((2.5090809287301226727e+3 * r + 3.3430575583588128105e+4) * r +
                     6.7265770927008700853e+4) * r + 4.5921953931549871457e+4) * r +
                   1.3731693765509461125e+4) * r + 1.9715909503065514427e+3) * r +
                 1.3314166789178437745e+2) * r + 3.3871328727963666080e+0) /
               (((((((5.2264952788528545610e+3 * r + 2.8729085735721942674e+4) * r +
                     3.9307895800092710610e+4) * r + 2.1213794301586595867e+4) * r +
                   5.3941960214247511077e+3) * r + 6.8718700749205790830e+2) * r +
                 4.2313330701600911252e+1) * r + 1.0);
    }
    r = sqrt(-log(q < 0.0 ? p : 1.0 - p));
    if (r <= 5.0) {
        r -= 1.6;
        x = (((((((7.74545014278341407640e-4 * r + 2.27238449892691845833e-2) * r +
                  2.41780725177450611770e-1) * r + 1.27045825245236838258e+0) * r +
                3.64784832476320460504e+0) * r + 5.76949722146069140550e+0) * r +
              4.63033784615654529590e+0) * r + 1.42343711074968357734e+0) /
            (((((((1.05075007164441684324e-9 * r + 5.47593808499534494600e-4) * r +
                  1.51986665636164571966e-2) * r + 1.48103976427480074590e-1) * r +
                6.89767334985100004550e-1) * r + 1.67638483018380384940e+0) * r +
              2.05319162663775882187e+0) * r + 1.0);
    } else {
        r -= 5.0;
        x = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r +
                  1.24266094738807843860e-3) * r + 2.65321895265761230930e-2) * r +
                2.96560571828504891230e-1) * r + 1.78482653991729133580e+0) * r +
              5.46378491116411436990e+0) * r + 6.65790464350110377720e+0) /
            (((((((2.04426310338993978564e-15 * r + 1.42151175831644588870e-7) * r +
                  1.84631831751005468180e-5) * r + 7.86869131145613259100e-4) * r +
                1.48753612908506148525e-2) * r + 1.36929880922735805310e-1) * r +
              5.99832206555887937690e-1) * r + 1.0);
    }
    return q < 0.0 ? -x : x;
}

/* dof 1 (Cauchy) and 2 in closed form; from 3 on, the Cornish-Fisher expansion of Abramowitz
 * and Stegun 26.7.5 in z = Phi^-1(p), to the fourth power of 1 / dof: odd in z, so
 * t(1 - p) = -t(p). */
double sb_t_quantile(double p, unsigned dof)
{
    double z, z2, v;

    if (dof == 0 || !(p >= 0.0 && p <= 1.0))
        return NAN;
    if (p == 0.0 || p == 1.0)
        return p == 0.0 ? -INFINITY : INFINITY;
    if (dof == 1)
        return tan(M_PI * (p - 0.5));
    if (dof == 2)
        return (2.0 * p - 1.0) / sqrt(2.0 * p * (1.0 - p));
    z = normal_quantile(p);
    z2 = z * z;
    v = (double)dof;
    return z + z * (z2 + 1.0) / 4.0 / v +
           z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0 / (v * v) +
           z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0 / (v * v * v) +
           z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0 /
               (v * v * v * v);
}

double sb_layouts_expanded_level(double level, size_t g)
{
    double alpha = 1.0 - level, z;

    if (g < 2)
        return level;
    z = sqrt((double)g / (double)(g - 1)) * sb_t_quantile(1.0 - alpha / 2.0, (unsigned)(g - 1));
    return 1.0 - erfc(z / M_SQRT2); /* 1 - alpha', alpha' = 2 (1 - Phi(z)) = erfc(z / sqrt 2) */
}
