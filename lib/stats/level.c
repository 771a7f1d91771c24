/* SPDX-License-Identifier: BSD-3-Clause */
/* level.c: the host's level in each round (each run's ln MB/s centred on its own mean, averaged
 * over the round's runs, a comparison's own runs left out where others were timed), and a
 * comparison's dependence on it: Spearman's rho with a bootstrap interval over rounds, and the
 * ratio in the quietest and the busiest thirds of the rounds (level.h). */
#include "config.h"
#include "stats/level.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/estimate.h"
#include "stats/order_stat.h"
#include "stats/schedule.h"

static bool usable(double x) { return isfinite(x) && x > 0.0; }

/* --- the level ---------------------------------------------------------------------------- */

static bool left_out(size_t j, const size_t *leave, size_t nleave)
{
    for (size_t k = 0; k < nleave; k++)
        if (leave[k] == j)
            return true;
    return false;
}

/* centre[j]: run j's mean ln MB/s over the rounds it has (NaN with none). */
static void run_centres(const double *x, size_t nruns, size_t nrounds, double *centre)
{
    for (size_t j = 0; j < nruns; j++) {
        double sum = 0.0;
        size_t m = 0;
        for (size_t r = 0; r < nrounds; r++)
            if (usable(x[j * nrounds + r])) {
                sum += log(x[j * nrounds + r]);
                m++;
            }
        centre[j] = m ? sum / (double)m : NAN;
    }
}

/* Round r's mean centred ln MB/s over its runs not in leave; *m of them (NaN when none). */
static double round_mean(const double *x, const double *centre, size_t nruns, size_t nrounds,
                         size_t r, const size_t *leave, size_t nleave, size_t *m)
{
    double sum = 0.0;

    *m = 0;
    for (size_t j = 0; j < nruns; j++)
        if (usable(x[j * nrounds + r]) && !left_out(j, leave, nleave)) {
            sum += log(x[j * nrounds + r]) - centre[j];
            (*m)++;
        }
    return *m ? sum / (double)*m : NAN;
}

int sb_round_levels(const double *x, size_t nruns, size_t nrounds, const size_t *leave,
                    size_t nleave, double *level, size_t *fell_back)
{
    double *centre = malloc((nruns ? nruns : 1) * sizeof *centre);
    int rc = -1;

    if (fell_back)
        *fell_back = 0;
    for (size_t r = 0; r < nrounds; r++)
        level[r] = NAN;
    if (!centre)
        goto done;
    run_centres(x, nruns, nrounds, centre);
    for (size_t r = 0; r < nrounds; r++) {
        size_t m;
        level[r] = round_mean(x, centre, nruns, nrounds, r, leave, nleave, &m);
        if (m == 0 && nleave > 0) { /* only the left-out runs were timed: take them */
            level[r] = round_mean(x, centre, nruns, nrounds, r, NULL, 0, &m);
            if (m > 0 && fell_back)
                (*fell_back)++;
        }
    }
    rc = 0;
done:
    free(centre);
    return rc;
}

/* --- the dependence ----------------------------------------------------------------------- */

struct round {
    double d, level;
    size_t r;
};

/* The highest level first; equal levels in round order. */
static int by_level_down(const void *a, const void *b)
{
    const struct round *x = a, *y = b;

    if (x->level != y->level)
        return x->level < y->level ? 1 : -1;
    return (x->r > y->r) - (x->r < y->r);
}

/* Spearman's rho over the bootstrap's thousands of resamples, without a sort or an allocation
 * each: the values are given dense keys once (ties share one), and a resample's ranks are
 * counted from its keys, ties at their mean rank (sb_ranks' rule, so rho is sb_spearman's). */
struct ranker {
    size_t m;
    size_t *kd, *kl; /* the dense keys of d and of the level, per round */
    size_t *pick;    /* the rounds of the resample */
    size_t *count;   /* per key */
    double *mid, *rd, *rl;
};

struct keyed {
    double v;
    size_t at;
};

static int by_v(const void *a, const void *b)
{
    double x = ((const struct keyed *)a)->v, y = ((const struct keyed *)b)->v;

    return (x > y) - (x < y);
}

/* key[k]: how many distinct values of v lie below v[k]; scratch holds m. */
static void dense_keys(const double *v, size_t m, struct keyed *scratch, size_t *key)
{
    size_t next = 0;

    for (size_t k = 0; k < m; k++)
        scratch[k] = (struct keyed){v[k], k};
    qsort(scratch, m, sizeof *scratch, by_v);
    for (size_t k = 0; k < m; k++) {
        if (k > 0 && scratch[k].v != scratch[k - 1].v)
            next++;
        key[scratch[k].at] = next;
    }
}

/* rank[k]: the mean rank of the resample's k-th pick among its picks, by key. */
static void resample_ranks(const struct ranker *w, const size_t *key, double *rank)
{
    size_t below = 0;

    memset(w->count, 0, w->m * sizeof *w->count);
    for (size_t k = 0; k < w->m; k++)
        w->count[key[w->pick[k]]]++;
    for (size_t v = 0; v < w->m; v++) { /* ranks below + 1 .. below + count: their mean */
        w->mid[v] = (double)below + (double)(w->count[v] + 1) / 2.0;
        below += w->count[v];
    }
    for (size_t k = 0; k < w->m; k++)
        rank[k] = w->mid[key[w->pick[k]]];
}

/* rho of the resample in w->pick: the Pearson correlation of its ranks, whose mean is
 * (m + 1) / 2 exactly (the deviations are halves: the sums are exact); NaN when either sample
 * has one value throughout. */
static double resample_rho(const struct ranker *w)
{
    double mean = (double)(w->m + 1) / 2.0, sab = 0.0, saa = 0.0, sbb = 0.0;

    resample_ranks(w, w->kd, w->rd);
    resample_ranks(w, w->kl, w->rl);
    for (size_t k = 0; k < w->m; k++) {
        sab += (w->rd[k] - mean) * (w->rl[k] - mean);
        saa += (w->rd[k] - mean) * (w->rd[k] - mean);
        sbb += (w->rl[k] - mean) * (w->rl[k] - mean);
    }
    return saa > 0.0 && sbb > 0.0 ? sab / sqrt(saa * sbb) : NAN;
}

/* w's keys of rounds[0 .. m); scratch holds m values. */
static void ranker_keys(struct ranker *w, const struct round *rounds, double *scratch,
                        struct keyed *keyed)
{
    for (size_t k = 0; k < w->m; k++)
        scratch[k] = rounds[k].d;
    dense_keys(scratch, w->m, keyed, w->kd);
    for (size_t k = 0; k < w->m; k++)
        scratch[k] = rounds[k].level;
    dense_keys(scratch, w->m, keyed, w->kl);
}

/* rho of d with the level over rounds[0 .. m), and its bootstrap interval into out. -1 (out->why
 * set) when rho is not defined or out of memory. */
static int rho_interval(const struct round *rounds, size_t m, unsigned nb, uint64_t seed,
                        struct sb_level_dependence *out)
{
    size_t *sizes = malloc(5 * m * sizeof *sizes), kept = 0;
    double *doubles = malloc((3 * m + nb) * sizeof *doubles), *rhos;
    struct keyed *keyed = malloc(m * sizeof *keyed);
    struct ranker w = {.m = m};
    struct sb_rng rng;
    int rc = -1;

    if (!sizes || !doubles || !keyed)
        goto done; /* out->why: out of memory */
    w = (struct ranker){m, sizes, sizes + m, sizes + 2 * m, sizes + 3 * m, doubles,
                        doubles + m, doubles + 2 * m};
    rhos = doubles + 3 * m;
    ranker_keys(&w, rounds, doubles, keyed);
    for (size_t k = 0; k < m; k++)
        w.pick[k] = k;
    out->rho = resample_rho(&w);
    out->why = "the per-round ratio or the host's level is the same in every round";
    if (isnan(out->rho))
        goto done;
    sb_rng_seed(&rng, seed);
    for (unsigned b = 0; b < nb; b++) {
        for (size_t k = 0; k < m; k++)
            w.pick[k] = (size_t)sb_rng_below(&rng, m);
        rhos[kept] = resample_rho(&w); /* NaN: a resample of one value throughout */
        kept += !isnan(rhos[kept]);
    }
    qsort(rhos, kept, sizeof *rhos, sb_compare_doubles);
    out->lo = sb_sorted_quantile(rhos, kept, (1.0 - out->conf) / 2.0);
    out->hi = sb_sorted_quantile(rhos, kept, (1.0 + out->conf) / 2.0);
    out->depends = out->lo > 0.0 || out->hi < 0.0; /* false for NaN */
    rc = 0;
done:
    free(sizes);
    free(doubles);
    free(keyed);
    return rc;
}

/* The ratio over rounds[0 .. k) with its interval; scratch holds k values. */
static void third(const struct round *rounds, size_t k, double conf, unsigned nb, uint64_t seed,
                  double *scratch, struct sb_level_third *t)
{
    double lo, hi;

    for (size_t i = 0; i < k; i++)
        scratch[i] = rounds[i].d;
    sb_median_interval(scratch, k, conf, nb, seed, &lo, &hi);
    t->rounds = k;
    t->ratio = exp(sb_select_median(scratch, k));
    t->lo = exp(lo);
    t->hi = exp(hi);
}

static void reset(struct sb_level_dependence *out, double conf)
{
    const struct sb_level_third none = {0, NAN, NAN, NAN};

    *out = (struct sb_level_dependence){.conf = conf, .rho = NAN, .lo = NAN, .hi = NAN,
                                        .quiet = none, .busy = none};
}

int sb_level_dependence(const double *d, const double *level, size_t n, double conf,
                        unsigned resamples, uint64_t seed, struct sb_level_dependence *out)
{
    unsigned nb = resamples ? resamples : SB_BOOTSTRAP_RESAMPLES;
    struct round *rounds = malloc((n ? n : 1) * sizeof *rounds);
    double *buf = malloc((n ? n : 1) * sizeof *buf);
    size_t m = 0;
    int rc = -1;

    reset(out, conf);
    out->why = "out of memory";
    if (!rounds || !buf)
        goto done;
    for (size_t r = 0; r < n; r++)
        if (isfinite(d[r]) && isfinite(level[r]))
            rounds[m++] = (struct round){d[r], level[r], r};
    out->n = m;
    out->why = "fewer than 9 rounds with both runs timed and the host's level known";
    if (m < SB_LEVEL_MIN_ROUNDS)
        goto done;
    out->why = "out of memory";
    if (rho_interval(rounds, m, nb, seed, out) != 0)
        goto done;
    qsort(rounds, m, sizeof *rounds, by_level_down);
    third(rounds, m / 3, conf, nb, seed + 1, buf, &out->quiet);
    third(rounds + m - m / 3, m / 3, conf, nb, seed + 2, buf, &out->busy);
    out->available = true;
    out->why = NULL;
    rc = 0;
done:
    free(rounds);
    free(buf);
    return rc;
}
