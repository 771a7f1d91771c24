/* SPDX-License-Identifier: BSD-3-Clause */
/* test_layouts_coverage.c: the coverage of layouts.h's two-stage interval (slow: a simulation,
 * in SLOW_UNIT_TESTS, not run under valgrind). 1000 synthetic runs of each shape (20 layouts of
 * 8 rounds, 8 layouts of 20), a true ratio of 1.05, each layout shifting a and b by its own
 * normal effect (sd 3% in logs, drawn per layout and configuration), each round adding normal
 * noise (sd 1%): the two-stage interval at 95% must cover 1.05 in at least 93% of the runs, and
 * the one-stage interval of estimate.h (the same data, the rounds taken as independent) in
 * under 80%. Both coverages are printed. 1000 resamples per interval (not the production
 * 2000) keep it to seconds; the data and the resamples are seeded, so the figures are fixed. */
#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/estimate.h"
#include "stats/layouts.h"
#include "stats/schedule.h"

#include "helper.h"

#define RUNS 1000
#define RESAMPLES 1000
#define LEVEL 0.95
#define RATIO 1.05
#define LAYOUT_SD 0.03
#define ROUND_SD 0.01

struct coverage {
    unsigned two_stage, one_stage; /* runs whose interval held RATIO */
};

/* One synthetic run of layouts x rounds into a, b, group (layouts x rounds long): the rounds
 * of each layout together, as a run draws a fresh layout every few rounds. */
static void synthetic_run(struct sb_rng *rng, unsigned layouts, unsigned rounds, double *a,
                          double *b, uint32_t *group)
{
    for (unsigned l = 0; l < layouts; l++) {
        double ua = LAYOUT_SD * sb_rng_normal(rng), ub = LAYOUT_SD * sb_rng_normal(rng);
        for (unsigned k = 0; k < rounds; k++) {
            size_t r = (size_t)l * rounds + k;
            a[r] = 1000.0 * RATIO * exp(ua + ROUND_SD * sb_rng_normal(rng));
            b[r] = 1000.0 * exp(ub + ROUND_SD * sb_rng_normal(rng));
            group[r] = l;
        }
    }
}

static struct coverage simulate(unsigned layouts, unsigned rounds, uint64_t seed)
{
    size_t n = (size_t)layouts * rounds;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    uint32_t *group = malloc(n * sizeof *group);
    struct coverage c = {0, 0};
    struct sb_paired e;
    struct sb_rng rng;

    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(group);
    sb_rng_seed(&rng, seed);
    for (unsigned run = 0; run < RUNS; run++) {
        synthetic_run(&rng, layouts, rounds, a, b, group);
        assert_int_equal(sb_paired_estimate_layouts(a, b, group, n, LEVEL, RESAMPLES,
                                                    SB_BOOTSTRAP_SEED + run, &e), 0);
        c.two_stage += e.lo <= RATIO && RATIO <= e.hi;
        assert_int_equal(sb_paired_estimate(a, b, n, LEVEL, RESAMPLES, SB_BOOTSTRAP_SEED + run,
                                            &e), 0);
        c.one_stage += e.lo <= RATIO && RATIO <= e.hi;
    }
    printf("layouts %u x rounds %u, %u runs: two-stage coverage %.1f%%, one-stage %.1f%%\n",
           layouts, rounds, RUNS, 100.0 * c.two_stage / RUNS, 100.0 * c.one_stage / RUNS);
    free(a);
    free(b);
    free(group);
    return c;
}

static void assert_coverage(struct coverage c)
{
    assert_true(c.two_stage >= RUNS * 93 / 100);
    assert_true(c.one_stage < RUNS * 80 / 100);
}

static void test_20_layouts_of_8(void **state)
{
    (void)state;
    assert_coverage(simulate(20, 8, 1));
}

static void test_8_layouts_of_20(void **state)
{
    (void)state;
    assert_coverage(simulate(8, 20, 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_20_layouts_of_8),
        cmocka_unit_test(test_8_layouts_of_20),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
