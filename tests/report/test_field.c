/* SPDX-License-Identifier: BSD-3-Clause */
/* test_field.c: a report's fields by path (report/field.h): keys and positions joined by dots,
 * and what a missing or mistyped field gives ("", NaN, 0, NULL). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "report/report.h"

static json_t *made_up(void)
{
    return json_pack("{s:{s:{s:f, s:b}}, s:[{s:s, s:I}, {s:s, s:n}], s:s, s:i}", "analysis",
                     "noise", "floor", 0.02, "too_noisy", 0, "runs", "name", "a", "footprint",
                     (json_int_t)65536, "name", "b", "op", "host", "h", "n", 3);
}

static void paths_reach_keys_and_positions(void **state)
{
    json_t *r = made_up();

    (void)state;
    assert_ptr_equal(sb_field(r, ""), r);
    assert_float_equal(sb_field_number(r, "analysis.noise.floor"), 0.02, 1e-15);
    assert_string_equal(sb_field_text(r, "runs.1.name"), "b");
    assert_int_equal(sb_field_integer(r, "runs.0.footprint"), 65536);
    assert_float_equal(sb_field_number(r, "runs.0.footprint"), 65536, 0);
    assert_string_equal(sb_field_text(r, "host"), "h");
    assert_true(json_is_false(sb_field(r, "analysis.noise.too_noisy")));
    json_decref(r);
}

static void missing_or_mistyped_fields_give_the_chosen_values(void **state)
{
    json_t *r = made_up();

    (void)state;
    assert_null(sb_field(r, "analysis.level"));        /* no such key */
    assert_null(sb_field(r, "runs.2.name"));           /* past the end */
    assert_null(sb_field(r, "runs.x"));                /* a key into an array */
    assert_null(sb_field(r, "runs.1x"));               /* not a whole position */
    assert_null(sb_field(r, "host.name"));             /* a step into a string */
    assert_null(sb_field(NULL, "host"));
    assert_string_equal(sb_field_text(r, "n"), "");    /* a number is not text */
    assert_string_equal(sb_field_text(r, "runs.1.op"), ""); /* null */
    assert_string_equal(sb_field_text_or(r, "runs.1.op", "?"), "?");
    assert_string_equal(sb_text_or(sb_field(r, "host"), "?"), "h");
    assert_string_equal(sb_text(NULL), "");
    assert_true(isnan(sb_field_number(r, "host")));
    assert_true(isnan(sb_field_number(r, "nothing")));
    assert_int_equal(sb_field_integer(r, "analysis.noise.floor"), 0); /* a real is not an integer */
    {
        char path[400];
        memset(path, 'k', sizeof path - 1);
        path[sizeof path - 1] = '\0';
        assert_null(sb_field(r, path));                 /* a key longer than any in a report */
    }
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paths_reach_keys_and_positions),
        cmocka_unit_test(missing_or_mistyped_fields_give_the_chosen_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
