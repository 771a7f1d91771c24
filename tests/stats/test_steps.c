/* SPDX-License-Identifier: BSD-3-Clause */
/* test_steps.c: effective cache sizes found on made-up latency curves (steps.h): sharp steps,
 * smooth ones worked by hand, a VM's L3 far below its nominal size, a level with no step, a
 * sweep too short for the last level, noise. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "stats/stats.h"
#include "helper.h"

#define KB 1024ull
#define MB (1024ull * KB)
#define NMAX 128

/* Working sets from 8KB up by 2^(1/4) to at most top. */
static size_t sweep(uint64_t top, uint64_t *size)
{
    size_t n = 0;

    for (double s = 8 * KB; s <= (double)top && n < NMAX; s *= pow(2, 0.25))
        size[n++] = (uint64_t)s / 64 * 64;
    return n;
}

/* A staircase: cost lat[l] while the set fits in cap[l], memory's mem beyond the last. */
static double stair(uint64_t s, const uint64_t *cap, const double *lat, unsigned levels,
                    double mem)
{
    for (unsigned l = 0; l < levels; l++)
        if (s <= cap[l])
            return lat[l];
    return mem;
}

/* The staircase's cost at each set of a sweep up to top (stair above); the number of sets. */
static size_t stair_sweep(uint64_t top, const uint64_t *cap, const double *lat, double mem,
                          uint64_t *size, double *cost)
{
    size_t n = sweep(top, size);

    for (size_t i = 0; i < n; i++)
        cost[i] = stair(size[i], cap, lat, 3, mem);
    return n;
}

static void sharp_steps_at_the_capacities(void **state)
{
    const uint64_t cap[] = {48 * KB, 1 * MB, 32 * MB};
    const double lat[] = {1, 4, 12};
    uint64_t size[NMAX];
    double cost[NMAX];
    struct sb_steps_level out[3];
    size_t n = stair_sweep(1024 * MB, cap, lat, 100, size, cost);

    (void)state;
    assert_int_equal(sb_steps_find(size, cost, n, cap, 3, out), 3);
    for (int l = 0; l < 3; l++) {
        assert_int_equal(out[l].why, SB_STEPS_FOUND);
        assert_float_equal(out[l].own, lat[l], 1e-12);
        /* the step lies between the last set that fits and the first that does not */
        assert_true(out[l].size > cap[l] / 1.19 && out[l].size <= (uint64_t)(cap[l] * 1.19));
    }
    assert_float_equal(out[2].next, 100, 1e-12);
}

/* The VM: the topology says 508MB of L3, the core can use 32MB of it. */
static void a_vm_l3_far_below_its_nominal_size(void **state)
{
    const uint64_t real[] = {48 * KB, 1 * MB, 32 * MB}, nominal[] = {48 * KB, 1 * MB, 508 * MB};
    const double lat[] = {1.3, 4, 15};
    uint64_t size[NMAX];
    double cost[NMAX];
    struct sb_steps_level out[3];
    size_t n = stair_sweep(1024 * MB, real, lat, 300, size, cost);

    (void)state;
    assert_int_equal(sb_steps_find(size, cost, n, nominal, 3, out), 3);
    assert_true(out[2].size > 27 * MB && out[2].size <= 38 * MB);
    assert_float_equal(out[2].own, 15, 1e-12);
    assert_float_equal(out[2].next, 300, 1e-12);
}

/* Worked by hand: own 2 at 1MB, 8 at 2MB beyond: the midpoint 4 is halfway in log cost
 * between them, so halfway in log2 size: 2^20.5 bytes. */
static void the_crossing_is_interpolated(void **state)
{
    const uint64_t size[] = {256 * KB, 512 * KB, 1 * MB, 2 * MB, 4 * MB, 8 * MB};
    const double cost[] = {2, 2, 2, 8, 8, 8};
    const uint64_t nominal[] = {1 * MB};
    struct sb_steps_level out;

    (void)state;
    assert_int_equal(sb_steps_find(size, cost, 6, nominal, 1, &out), 1);
    assert_int_equal(out.size, (uint64_t)llround(exp2(20.5)));
}

static void no_step_and_beyond_the_sweep(void **state)
{
    const uint64_t nominal[] = {32 * KB, 256 * KB, 8 * MB};
    uint64_t size[NMAX];
    double cost[NMAX];
    struct sb_steps_level out[3];
    size_t n = sweep(16 * MB, size);

    (void)state;
    /* L1d then flat to the end: L2's step to "L3" is missing, and L3's never comes */
    for (size_t i = 0; i < n; i++)
        cost[i] = size[i] <= 32 * KB ? 1 : 5;
    assert_int_equal(sb_steps_find(size, cost, n, nominal, 3, out), 1);
    assert_int_equal(out[0].why, SB_STEPS_FOUND);
    assert_int_equal(out[1].why, SB_STEPS_NO_STEP);
    assert_int_equal(out[2].why, SB_STEPS_NO_STEP);
    /* a sweep that ends inside the last level: its memory plateau is never seen */
    n = sweep(8 * MB, size);
    assert_int_equal(sb_steps_find(size, cost, n, nominal, 3, out), 1);
    assert_int_equal(out[2].why, SB_STEPS_NO_POINTS);
}

static void the_last_level_steps_to_the_largest_set(void **state)
{
    const uint64_t size[] = {1 * MB, 2 * MB, 4 * MB};
    const double cost[] = {1, 1.5, 10};
    const uint64_t nominal[] = {2 * MB};
    struct sb_steps_level out;

    (void)state;
    /* own 1 (at 1MB), memory 10 at 4MB: the midpoint 3.16 is crossed between 2MB and 4MB */
    assert_int_equal(sb_steps_find(size, cost, 3, nominal, 1, &out), 1);
    assert_true(out.size > 2 * MB && out.size < 4 * MB);
}

/* A smooth random-replacement curve (hits C/S beyond the capacity C) with 5% multiplicative
 * noise: the midpoint lies within a factor 1.5 of each capacity. */
static void smooth_noisy_curves(void **state)
{
    const uint64_t cap[] = {32 * KB, 2 * MB, 64 * MB};
    const double lat[] = {1, 5, 40};
    uint64_t size[NMAX];
    double cost[NMAX];
    struct sb_steps_level out[3];
    size_t n = sweep(1024 * MB, size);
    uint64_t x = 12345;

    (void)state;
    for (size_t i = 0; i < n; i++) {
        double c = 150;
        for (int l = 2; l >= 0; l--) {
            double h = size[i] <= cap[l] ? 1 : (double)cap[l] / (double)size[i];
            c = h * lat[l] + (1 - h) * c;
        }
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        cost[i] = c * (1 + 0.05 * ((double)(x >> 11) / 9007199254740992.0 - 0.5) * 2);
    }
    assert_int_equal(sb_steps_find(size, cost, n, cap, 3, out), 3);
    for (int l = 0; l < 3; l++)
        assert_true(out[l].size > cap[l] / 1.5 && out[l].size < cap[l] * 1.5 * 1.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sharp_steps_at_the_capacities),
        cmocka_unit_test(a_vm_l3_far_below_its_nominal_size),
        cmocka_unit_test(the_crossing_is_interpolated),
        cmocka_unit_test(no_step_and_beyond_the_sweep),
        cmocka_unit_test(the_last_level_steps_to_the_largest_set),
        cmocka_unit_test(smooth_noisy_curves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
