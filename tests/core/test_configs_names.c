/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_configs_names.c: the names of a configs subdirectory's .ini files: sorted, each once
 * across $SCANBENCH_CONFIGS and the source tree's configs/, only the .ini files the filter
 * keeps, and with first_only only those of the first directory that has any. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/configs_path.h"

#include "helper.h"

static char names[64][SB_CONFIGS_NAME_MAX];

static int index_of(int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

/* Keeps the files whose text does not say "skip". */
static bool not_skipped(const char *file)
{
    char *text = sbtest_read_file(file, NULL);
    bool keep = !strstr(text, "skip");

    free(text);
    return keep;
}

static void test_names(void **state)
{
    int n;
    (void)state;

    sbtest_write_file(sbtest_scratch, "machines/x4500.ini", "[machine]\n");
    sbtest_write_file(sbtest_scratch, "machines/aa-local.ini", "[machine]\n");
    sbtest_write_file(sbtest_scratch, "machines/ab-skipped.ini", "skip\n");
    sbtest_write_file(sbtest_scratch, "machines/notes.txt", "not an ini\n");
    setenv("SCANBENCH_CONFIGS", sbtest_scratch, 1);
    /* every directory: the local ones and the source tree's, x4500 once, sorted */
    n = sb_configs_names("machines", false, not_skipped, names, 64);
    assert_true(n > 3);
    assert_int_equal(index_of(n, "aa-local"), 0);
    assert_true(index_of(n, "x4500") > 0);
    assert_true(index_of(n, "epyc-zen4") > 0); /* from the source tree */
    assert_int_equal(index_of(n, "ab-skipped"), -1);
    assert_int_equal(index_of(n, "notes"), -1);
    for (int i = 1; i < n; i++)
        assert_true(strcmp(names[i - 1], names[i]) < 0);
    /* the first directory with any: the local one alone */
    n = sb_configs_names("machines", true, NULL, names, 64);
    assert_int_equal(n, 3);
    assert_string_equal(names[0], "aa-local");
    assert_string_equal(names[1], "ab-skipped");
    assert_string_equal(names[2], "x4500");
    /* at most max */
    assert_int_equal(sb_configs_names("machines", true, NULL, names, 2), 2);
    assert_int_equal(sb_configs_names("no-such-subdir", false, NULL, names, 64), 0);
    unsetenv("SCANBENCH_CONFIGS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_names, sbtest_scratch_setup,
                                        sbtest_scratch_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
