/* SPDX-License-Identifier: BSD-3-Clause */
/* schedule.c: splitmix64 and what is drawn from it (bounded integers, uniform and normal
 * variates, Fisher-Yates), each round's order of the timed scans, and the chi-square upper tail
 * the tests check the orders' uniformity with (Numerical Recipes' gammq, written out here). */
#include "config.h"
#include "stats/schedule.h"

#include <math.h>

#define GOLDEN_GAMMA 0x9e3779b97f4a7c15ull

/* splitmix64's output function: a bijection of 64-bit words that mixes every bit. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sb_rng_seed(struct sb_rng *rng, uint64_t seed) { rng->state = seed; }

uint64_t sb_rng_next(struct sb_rng *rng)
{
    rng->state += GOLDEN_GAMMA;
    return mix64(rng->state);
}

/* Rejection: the 2^64 mod n lowest outputs would favour the small residues, so they are drawn
 * again (at most half the outputs, for n just above 2^63). */
uint64_t sb_rng_below(struct sb_rng *rng, uint64_t n)
{
    uint64_t threshold, r;

    if (n <= 1)
        return 0;
    threshold = (0 - n) % n; /* 2^64 mod n */
    do
        r = sb_rng_next(rng);
    while (r < threshold);
    return r % n;
}

double sb_rng_unit(struct sb_rng *rng) { return (double)(sb_rng_next(rng) >> 11) * 0x1.0p-53; }

/* Box-Muller, the cosine half only (the state has no room to keep the sine half). */
double sb_rng_normal(struct sb_rng *rng)
{
    double u1 = 1.0 - sb_rng_unit(rng); /* (0, 1]: log is finite */
    double u2 = sb_rng_unit(rng);

    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

void sb_shuffle_u32(uint32_t *items, size_t n, struct sb_rng *rng)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)sb_rng_below(rng, i);
        uint32_t t = items[i - 1];
        items[i - 1] = items[j];
        items[j] = t;
    }
}

/* Rounds come in pairs: round 2p's shuffle, then round 2p + 1 its reverse, so that over a pair
 * every item's positions add up to n - 1 (a position effect, such as the first scan after the
 * previous round's last, lands on every item alike). The pair's generator starts from
 * mix64(mix64(seed) ^ p): both steps are bijections, so the pairs of one seed never share a
 * start, and round r's order needs no round after it. */
void sb_schedule_round_order(uint64_t seed, uint32_t round, uint32_t n, uint32_t *order)
{
    struct sb_rng rng;

    sb_rng_seed(&rng, mix64(mix64(seed + GOLDEN_GAMMA) ^ (uint64_t)(round / 2)));
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    sb_shuffle_u32(order, n, &rng);
    for (uint32_t i = 0; round % 2 && i < n / 2; i++) {
        uint32_t t = order[i];
        order[i] = order[n - 1 - i];
        order[n - 1 - i] = t;
    }
}

/* P(a, x) by its series, for x < a + 1. */
static double gamma_p_series(double a, double x)
{
    double term = 1.0 / a, sum = term;

    for (int k = 1; k < 1000; k++) {
        term *= x / (a + k);
        sum += term;
        if (fabs(term) < fabs(sum) * 1e-16)
            break;
    }
    return sum * exp(-x + a * log(x) - lgamma(a));
}

/* Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1. */
static double gamma_q_fraction(double a, double x)
{
    const double tiny = 1e-300;
    double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;

    for (int i = 1; i < 1000; i++) {
        double an = -i * (i - a), delta;
        b += 2.0;
        d = an * d + b;
        if (fabs(d) < tiny)
            d = tiny;
        c = b + an / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        delta = d * c;
        h *= delta;
        if (fabs(delta - 1.0) < 1e-16)
            break;
    }
    return exp(-x + a * log(x) - lgamma(a)) * h;
}

double sb_chi_square_upper(double x2, unsigned dof)
{
    double a = dof / 2.0, x = x2 / 2.0;

    if (isnan(x2) || dof == 0)
        return NAN;
    if (x <= 0.0)
        return 1.0;
    if (x < a + 1.0)
        return 1.0 - gamma_p_series(a, x);
    return gamma_q_fraction(a, x);
}
