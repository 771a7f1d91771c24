/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_placement_name.c: unit tests for lib/vocab/placement_name.h, a placement named POLICY
 * SIZE ("clock 16MB"): the forms it reads, its size a number (16M, 16MB and 16384KB are one
 * placement), what it writes back, and each malformed text refused with its message. */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "helper.h"
#include "vocab/vocab.h"

/* text read as a placement, which must succeed. */
static struct sb_placement_name read_ok(const char *text)
{
    struct sb_placement_name p;
    struct sb_error err = {0};

    if (sb_placement_name_parse(text, &p, &err) != SB_OK)
        fail_msg("\"%s\": %s", text, err.msg);
    return p;
}

static void test_forms(void **state)
{
    struct sb_placement_name p;
    char buf[64];
    (void)state;

    p = read_ok("clock 16MB");
    assert_ptr_equal(p.policy, sb_policy_find("clock"));
    assert_int_equal(p.footprint, 16u << 20);
    assert_string_equal(sb_placement_name_format(&p, buf, sizeof buf), "clock 16MB");
    p = read_ok("ring 256KB");
    assert_ptr_equal(p.policy, sb_policy_find("ring"));
    assert_int_equal(p.footprint, 256u << 10);
    p = read_ok("  pg82\t680k ");
    assert_ptr_equal(p.policy, sb_policy_find("pg82"));
    assert_int_equal(p.footprint, 680u << 10);
    assert_string_equal(sb_placement_name_format(&p, buf, sizeof buf), "pg82 680KB");
    p = read_ok("single 8192");
    assert_string_equal(sb_placement_name_format(&p, buf, sizeof buf), "single 8KB");
    p = (struct sb_placement_name){0};
    assert_string_equal(sb_placement_name_format(&p, buf, sizeof buf), "");
}

/* One size, however it is spelled: one placement, written one way. */
static void test_equal_across_spellings(void **state)
{
    const char *const sixteen[] = {"clock 16M", "clock 16MB", "clock 16MiB", "clock 16384K",
                                   "clock 16384KB", "clock 16777216", "clock 16777216B"};
    struct sb_placement_name first = read_ok(sixteen[0]), p, none = {0};
    char buf[64];
    (void)state;

    for (size_t i = 0; i < sizeof sixteen / sizeof sixteen[0]; i++) {
        p = read_ok(sixteen[i]);
        assert_true(sb_placement_name_equal(&first, &p));
        assert_string_equal(sb_placement_name_format(&p, buf, sizeof buf), "clock 16MB");
    }
    p = read_ok("ring 16MB");
    assert_false(sb_placement_name_equal(&first, &p));
    p = read_ok("clock 15MB");
    assert_false(sb_placement_name_equal(&first, &p));
    assert_false(sb_placement_name_equal(&first, &none));
    assert_true(sb_placement_name_equal(&none, &(struct sb_placement_name){0}));
}

static void expect_refused(const char *text, const char *msg)
{
    struct sb_placement_name p = {.policy = sb_policy_find("clock"), .footprint = 1};
    struct sb_error err = {0};

    assert_int_equal(sb_placement_name_parse(text, &p, &err), SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, msg);
    assert_null(p.policy); /* nothing half read */
}

static void test_refused(void **state)
{
    (void)state;
    expect_refused("", "\"\" is not `POLICY SIZE` (e.g. clock 16MB)");
    expect_refused("clock", "\"clock\" is not `POLICY SIZE` (e.g. clock 16MB)");
    expect_refused("clock 16MB extra", "\"clock 16MB extra\" is not `POLICY SIZE` (e.g. clock "
                   "16MB)");
    expect_refused("clock 16 MB", "\"clock 16 MB\" is not `POLICY SIZE` (e.g. clock 16MB)");
    expect_refused("lru 16MB", "\"lru 16MB\": unknown policy lru (known: clock, ring, single, "
                   "random, pg82)");
    expect_refused("clock 16QB", "\"clock 16QB\": \"16QB\" is not a size (e.g. 16MB, 680KB)");
    expect_refused("clock 0", "\"clock 0\": \"0\" is not a size (e.g. 16MB, 680KB)");
    expect_refused("clock -1MB", "\"clock -1MB\": \"-1MB\" is not a size (e.g. 16MB, 680KB)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_equal_across_spellings),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
