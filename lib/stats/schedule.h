/* SPDX-License-Identifier: BSD-3-Clause */
/* schedule.h: the order of the timed scans and the random numbers behind it. A run of R rounds
 * times every configuration once per round; `interleaved` gives each round a fresh seeded
 * Fisher-Yates shuffle (Google Benchmark's random interleaving, STREAM's round-robin), so the
 * host's drift lands on every configuration alike and each round is a paired sample; `blocked`
 * times each configuration's scans together (kept for comparison). The rounds are balanced in
 * pairs: each shuffle is followed by its reverse, so that position effects cancel over a pair.
 * The same seed gives the same orders, and round r's order does not depend on how many rounds
 * come after it (adaptive rounds add rounds). The generator is splitmix64: small, fast, and the same on every host. */
#ifndef SB_SCHEDULE_H
#define SB_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

struct sb_rng {
    uint64_t state;
};

void sb_rng_seed(struct sb_rng *rng, uint64_t seed);
uint64_t sb_rng_next(struct sb_rng *rng);
/* Uniform in [0, n), without modulo bias; n >= 1. */
uint64_t sb_rng_below(struct sb_rng *rng, uint64_t n);
/* Uniform in [0, 1), 53 random bits. */
double sb_rng_unit(struct sb_rng *rng);
/* A standard normal variate (for simulations and tests). */
double sb_rng_normal(struct sb_rng *rng);

/* Fisher-Yates: every permutation of items equally likely. */
void sb_shuffle_u32(uint32_t *items, size_t n, struct sb_rng *rng);

/* Round r's order of the n items 0 .. n-1 under seed: order[k] is the item timed k-th. An even
 * round's shuffle is seeded from (seed, round / 2) alone; an odd round is the round before it
 * reversed. */
void sb_schedule_round_order(uint64_t seed, uint32_t round, uint32_t n, uint32_t *order);

/* The upper tail P(X >= x2) of a chi-square distribution with dof degrees of freedom (the
 * regularised upper incomplete gamma function Q(dof / 2, x2 / 2)); dof >= 1. */
double sb_chi_square_upper(double x2, unsigned dof);

#endif
