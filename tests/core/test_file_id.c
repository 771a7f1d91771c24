/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_file_id.c: unit tests for lib/core/file_id.h: a file's identity (a regular file has
 * one, a directory none; a new size or modification time is another identity) and a reader's
 * memory of the files it read (a path found only with the identity it was read with; full, the
 * oldest slot given to the next; a path too long not remembered). */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/file_id.h"

#include "helper.h"

static void test_identity(void **state)
{
    struct sb_file_id a, b;
    const char *path = sbtest_write_file(sbtest_scratch, "id.txt", "one");
    (void)state;

    assert_true(sb_file_id_of(path, &a));
    assert_true(sb_file_id_of(path, &b));
    assert_true(sb_file_id_equal(&a, &b));
    sbtest_write_file(sbtest_scratch, "id.txt", "three");
    assert_true(sb_file_id_of(path, &b));
    assert_false(sb_file_id_equal(&a, &b)); /* another size */
    b = a;
    b.mtime.tv_nsec ^= 1;
    assert_false(sb_file_id_equal(&a, &b));
    assert_false(sb_file_id_of(sbtest_scratch, &a)); /* a directory */
    assert_false(sb_file_id_of("/nonexistent/file", &a));
}

static void test_memo(void **state)
{
    struct sb_file_memo memo = {.cap = 2};
    struct sb_file_id one = {.dev = 1, .ino = 1, .size = 10}, two = one, three = one, other = one;
    char long_path[SB_PATH_MAX + 8];
    (void)state;

    two.ino = 2;
    three.ino = 3;
    other.size = 11;
    assert_int_equal(sb_file_memo_find(&memo, "/a", &one), -1);
    assert_int_equal(sb_file_memo_take(&memo, "/a", &one), 0);
    assert_int_equal(sb_file_memo_take(&memo, "/b", &two), 1);
    assert_int_equal(sb_file_memo_find(&memo, "/a", &one), 0);
    assert_int_equal(sb_file_memo_find(&memo, "/b", &two), 1);
    assert_int_equal(sb_file_memo_find(&memo, "/a", &other), -1); /* changed since */
    assert_int_equal(sb_file_memo_find(&memo, "/b", &one), -1);  /* another file's identity */
    /* full: the oldest gives way */
    assert_int_equal(sb_file_memo_take(&memo, "/c", &three), 0);
    assert_int_equal(sb_file_memo_find(&memo, "/a", &one), -1);
    assert_int_equal(sb_file_memo_find(&memo, "/c", &three), 0);
    assert_int_equal(sb_file_memo_find(&memo, "/b", &two), 1);
    memset(long_path, 'x', sizeof long_path - 1);
    long_path[sizeof long_path - 1] = '\0';
    assert_int_equal(sb_file_memo_take(&memo, long_path, &one), -1);
    assert_int_equal(sb_file_memo_find(&memo, "/b", &two), 1); /* nothing given way */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identity),
        cmocka_unit_test(test_memo),
    };
    return cmocka_run_group_tests(tests, sbtest_scratch_setup, sbtest_scratch_teardown);
}
