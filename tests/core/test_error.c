/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_error.c: unit tests for lib/core/error.h: a message past its most loses the middle of
 * its long words, never its end (issue 49: a --set of 10001 seeds was cut at 2048 bytes before
 * its reason). A bad input's line keeps within SB_ERROR_INPUT_MOST bytes, another status's
 * within msg, each with its start (the input named) and its end (what is wrong) and the bytes
 * left out counted; a cut never splits a UTF-8 character; control characters are \xNN and the
 * line still within its most; sb_error_prefix keeps the end too; a short message is whole, and
 * so is one long for its many short words alone, up to msg's room, past which its middle goes. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/utf8.h"

/* n bytes of c, NUL-terminated (the caller frees it). */
static char *run_of(char c, size_t n)
{
    char *s = malloc(n + 1);

    assert_non_null(s);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

static void ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);

    assert_true(n >= m);
    assert_string_equal(s + n - m, end);
}

static void test_short_whole(void **state)
{
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(sb_fail(&err, SB_ERR_INPUT, "%s: %s", "f.ini:3", "seed: bad"), SB_ERR_INPUT);
    assert_string_equal(err.msg, "f.ini:3: seed: bad");
    assert_int_equal(err.status, SB_ERR_INPUT);
}

static void test_input_elided(void **state)
{
    struct sb_error err = {0};
    char *value = run_of('7', 50000);
    (void)state;

    sb_fail(&err, SB_ERR_INPUT, "--set seed=%s: seed: more than 64 values", value);
    assert_true(strlen(err.msg) <= SB_ERROR_INPUT_MOST);
    assert_int_equal(strncmp(err.msg, "--set seed=777", 14), 0);
    ends_with(err.msg, "7777: seed: more than 64 values");
    assert_non_null(strstr(err.msg, "7[... 49946 bytes ...]7"));
    assert_true(sb_utf8_valid(err.msg));
    free(value);
}

/* two-byte characters: every cut between two of them */
static void test_utf8_cut(void **state)
{
    struct sb_error err = {0};
    char *value = malloc(2 * 3000 + 1);
    (void)state;

    assert_non_null(value);
    for (int i = 0; i < 3000; i++)
        memcpy(value + 2 * i, "\xc3\xa9", 2);
    value[6000] = '\0';
    for (int lead = 0; lead < 2; lead++) {
        sb_fail(&err, SB_ERR_INPUT, "%.*sname: \"%s\" is too long", lead, "x", value);
        assert_true(strlen(err.msg) <= SB_ERROR_INPUT_MOST);
        assert_true(sb_utf8_valid(err.msg));
        ends_with(err.msg, "\xc3\xa9\" is too long");
    }
    free(value);
}

/* control characters written as \xNN lengthen the line: still within its most, its end kept */
static void test_control_characters(void **state)
{
    struct sb_error err = {0};
    char *value = run_of('\x1b', 1000);
    (void)state;

    sb_fail(&err, SB_ERR_INPUT, "--set name=%s: name: not printable", value);
    assert_true(strlen(err.msg) <= SB_ERROR_INPUT_MOST);
    assert_null(strchr(err.msg, '\x1b'));
    ends_with(err.msg, ": name: not printable");
    free(value);
}

/* a run's failure keeps msg's room, not the bad input's 300 bytes; its end kept */
static void test_run_failure(void **state)
{
    struct sb_error err = {0};
    char *path = run_of('p', 5000);
    (void)state;

    sb_fail(&err, SB_ERR_RUN, "%s: cannot write: No space left on device", path);
    assert_true(strlen(err.msg) < sizeof err.msg);
    assert_int_equal(strncmp(err.msg, "ppp", 3), 0);
    ends_with(err.msg, "ppp: cannot write: No space left on device");
    sb_fail(&err, SB_ERR_RUN, "%.1000s: cannot write", path);
    assert_int_equal(strlen(err.msg), 1000 + strlen(": cannot write"));
    free(path);
}

/* many short words: the fixed text of a message (a list of known names) is not cut below msg's
 * room; past it, its middle goes, its end kept */
static void test_short_words(void **state)
{
    struct sb_error err = {0};
    char *words = malloc(3 * 2000 + 1);
    (void)state;

    assert_non_null(words);
    for (int i = 0; i < 2000; i++)
        memcpy(words + 3 * i, "ab ", 3);
    words[3 * 130] = '\0';
    sb_fail(&err, SB_ERR_INPUT, "unknown (known: %s)", words);
    assert_int_equal(strlen(err.msg), strlen("unknown (known: )") + 3 * 130);
    words[3 * 130] = 'a';
    words[3 * 2000] = '\0';
    sb_fail(&err, SB_ERR_INPUT, "%sis wrong", words);
    assert_true(strlen(err.msg) < sizeof err.msg);
    assert_non_null(strstr(err.msg, " bytes left out ...] "));
    ends_with(err.msg, "ab ab is wrong");
    free(words);
}

static void test_prefix(void **state)
{
    struct sb_error err = {0};
    char *dir = run_of('d', 4000);
    (void)state;

    sb_fail(&err, SB_ERR_INPUT, "line 3: unknown key");
    sb_error_prefix(&err, "/%s/f.ini", dir);
    assert_true(strlen(err.msg) <= SB_ERROR_INPUT_MOST);
    assert_int_equal(strncmp(err.msg, "/ddd", 4), 0);
    ends_with(err.msg, "ddd/f.ini: line 3: unknown key");
    sb_fail(&err, SB_ERR_INPUT, "bad");
    sb_error_prefix(&err, "%s:%d", "f.ini", 2);
    assert_string_equal(err.msg, "f.ini:2: bad");
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_whole),
        cmocka_unit_test(test_input_elided),
        cmocka_unit_test(test_utf8_cut),
        cmocka_unit_test(test_control_characters),
        cmocka_unit_test(test_run_failure),
        cmocka_unit_test(test_short_words),
        cmocka_unit_test(test_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
