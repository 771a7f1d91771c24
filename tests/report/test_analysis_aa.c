/* SPDX-License-Identifier: BSD-3-Clause */
/* test_analysis_aa.c: unit tests for lib/report/analysis_aa.h on synthetic reports (a run and
 * its reference's second timings, round by round on instances of 6 rounds): two identical
 * timings called the same, settled at 2%, their shifts of 1% not found and of 3% and more
 * found; a reference 10% slower called slower (a false call, said as such by the caller);
 * independent noise of 20% neither settled nor called; no reference: no block, nothing to wait
 * for. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include <jansson.h>

#include "report/analysis_aa.h"
#include "stats/schedule.h"

#define ROUNDS 48

static json_t *scan(uint32_t round, uint32_t position, double seconds)
{
    return json_pack("{s:i, s:i, s:i, s:f, s:I}", "round", (int)round, "position",
                     (int)position, "layout", (int)(round / 6), "seconds", seconds, "bytes",
                     (json_int_t)64000000);
}

/* The run's seconds drift by round alike for both; the reference's are times factor, each
 * with noise of its own (a lognormal of sigma noise). */
static json_t *report(double factor, double noise, bool reference, uint64_t seed)
{
    json_t *a = json_array(), *b = json_array();
    struct sb_rng rng;

    sb_rng_seed(&rng, seed);
    for (uint32_t r = 0; r < ROUNDS; r++) {
        double drift = 0.05 * (1.0 + (double)(r % 7) / 7.0);
        json_array_append_new(a, scan(r, 0, drift * exp(noise * sb_rng_normal(&rng))));
        json_array_append_new(b, scan(r, 1, drift * factor * exp(noise * sb_rng_normal(&rng))));
    }
    if (!reference) {
        json_decref(b);
        return json_pack("{s:[{s:s, s:o}]}", "runs", "name", "a", "scans", a);
    }
    return json_pack("{s:[{s:s, s:o}], s:{s:s, s:{s:s, s:o}}}", "runs", "name", "a", "scans",
                     a, "schedule", "kind", "interleaved", "reference", "run", "a", "scans", b);
}

static const json_t *shifted(const json_t *aa, double shift)
{
    size_t i;
    json_t *s;

    json_array_foreach(json_object_get(aa, "shifted"), i, s)
        if (fabs(json_number_value(json_object_get(s, "shift")) - shift) < 1e-9)
            return s;
    fail_msg("no shift %g", shift);
    return NULL;
}

static void identical_timings_are_the_same_and_shifts_are_found(void **state)
{
    json_t *r = report(1.0, 0.0, true, 1), *aa = sb_analysis_aa(r, ROUNDS, NULL);

    (void)state;
    assert_non_null(aa);
    assert_string_equal(json_string_value(json_object_get(aa, "call")), "same");
    assert_true(fabs(json_number_value(json_object_get(aa, "ratio")) - 1.0) < 1e-9);
    assert_true(sb_analysis_aa_settled(r, 0.02));
    assert_false(json_is_true(json_object_get(shifted(aa, 0.01), "found"))); /* within 2% */
    assert_string_equal(json_string_value(json_object_get(shifted(aa, 0.01), "call")), "same");
    assert_true(json_is_true(json_object_get(shifted(aa, 0.03), "found")));
    assert_true(json_is_true(json_object_get(shifted(aa, 0.20), "found")));
    assert_true(fabs(json_number_value(json_object_get(shifted(aa, 0.05), "ratio")) - 1.05) <
                1e-9);
    json_decref(aa);
    json_decref(r);
}

static void a_slower_reference_is_called_slower(void **state)
{
    json_t *r = report(1.1, 0.002, true, 2), *aa = sb_analysis_aa(r, ROUNDS, NULL);

    (void)state;
    assert_string_equal(json_string_value(json_object_get(aa, "call")), "slower");
    assert_true(fabs(json_number_value(json_object_get(aa, "ratio")) - 1.0 / 1.1) < 0.01);
    json_decref(aa);
    json_decref(r);
}

static void noise_is_neither_settled_nor_called(void **state)
{
    json_t *r = report(1.0, 0.2, true, 3), *aa = sb_analysis_aa(r, ROUNDS, NULL);
    double lo = json_number_value(json_object_get(aa, "lo")),
           hi = json_number_value(json_object_get(aa, "hi"));

    (void)state;
    assert_string_equal(json_string_value(json_object_get(aa, "call")), "inconclusive");
    assert_true(lo < 0.98 && hi > 1.02);
    assert_false(sb_analysis_aa_settled(r, 0.02));
    assert_true(sb_analysis_aa_settled(r, 0.5)); /* a precision that wide is met */
    json_decref(aa);
    json_decref(r);
}

static void no_reference_no_block(void **state)
{
    json_t *r = report(1.0, 0.0, false, 4);

    (void)state;
    assert_null(sb_analysis_aa(r, ROUNDS, NULL));
    assert_true(sb_analysis_aa_settled(r, 0.02)); /* nothing to wait for */
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(identical_timings_are_the_same_and_shifts_are_found),
        cmocka_unit_test(a_slower_reference_is_called_slower),
        cmocka_unit_test(noise_is_neither_settled_nor_called),
        cmocka_unit_test(no_reference_no_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
