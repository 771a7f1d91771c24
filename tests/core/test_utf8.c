/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_utf8.c: unit tests for lib/core/utf8.h: which text is well-formed UTF-8 (overlong forms,
 * surrogates, code points past U+10FFFF and cut characters refused), cutting between two
 * characters (and leaving out a character a cut left short), copying without a half character,
 * escaping the bytes that are not UTF-8; and that a one-line error too long
 * (lib/core/error.h) is cut between two characters. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/utf8.h"

static void test_valid(void **state)
{
    static const char *const good[] = {"", "ascii", "caf\xc3\xa9", "\xe2\x80\xa6",
                                       "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "\xed\x9f\xbf"};
    static const char *const bad[] = {"caf\xe9", "\xc3", "\xc0\xaf", "\xc1\xbf", "\xe0\x80\xaf",
                                      "\xed\xa0\x80", "\xf0\x80\x80\xaf", "\xf4\x90\x80\x80",
                                      "\xf5\x80\x80\x80", "\x80", "\xe2\x80", "\xff"};
    (void)state;

    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        if (!sb_utf8_valid(good[i]))
            fail_msg("good %zu refused", i);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (sb_utf8_valid(bad[i]))
            fail_msg("bad %zu accepted", i);
}

static void test_fit_and_copy(void **state)
{
    const char *e3 = "\xc3\xa9\xc3\xa9\xc3\xa9"; /* three two-byte characters */
    char buf[6];
    (void)state;

    assert_int_equal(sb_utf8_fit(e3, 6), 6);
    assert_int_equal(sb_utf8_fit(e3, 5), 4);
    assert_int_equal(sb_utf8_fit(e3, 1), 0);
    assert_int_equal(sb_utf8_fit("abc", 2), 2);
    assert_int_equal(sb_utf8_fit("a\xffz", 3), 3);      /* a stray byte counts as one */
    assert_int_equal(sb_utf8_fit("ab\xe2\x80", 10), 2); /* a character cut short: left out */
    assert_false(sb_utf8_copy(buf, sizeof buf, e3));   /* 6 bytes do not fit 5 + NUL */
    assert_string_equal(buf, "\xc3\xa9\xc3\xa9");
    assert_true(sb_utf8_copy(buf, sizeof buf, "\xc3\xa9z"));
    assert_string_equal(buf, "\xc3\xa9z");
}

static void test_escape(void **state)
{
    char *s = sb_utf8_escape("/tmp/caf\xe9-\xc3\xa9.json");
    (void)state;

    assert_non_null(s);
    assert_string_equal(s, "/tmp/caf\\xe9-\xc3\xa9.json");
    assert_true(sb_utf8_valid(s));
    free(s);
}

/* An error message passing its most is cut between two characters (error.h). */
static void test_error_cut(void **state)
{
    struct sb_error err = {0};
    char *long_text = malloc(4001);
    (void)state;

    assert_non_null(long_text);
    for (int i = 0; i < 2000; i++)
        memcpy(long_text + 2 * i, "\xc3\xa9", 2);
    long_text[4000] = '\0';
    for (int shift = 0; shift < 2; shift++) {
        sb_fail(&err, SB_ERR_INPUT, "%.*s%s", shift, "x", long_text);
        assert_true(sb_utf8_valid(err.msg));
        assert_true(strlen(err.msg) <= SB_ERROR_INPUT_MOST);
        sb_fail(&err, SB_ERR_INPUT, "%s", "\xc3\xa9");
        sb_error_prefix(&err, "%.*s%s", shift, "x", long_text);
        assert_true(sb_utf8_valid(err.msg));
    }
    free(long_text);
}

/* A message that quotes an ESC sequence, a BEL, a newline, a tab, DEL or a byte that is not
 * UTF-8 prints them as \xNN, UTF-8 as itself; cut where the escapes no longer fit, between two
 * characters; and made printable twice, unchanged. */
static void test_printable(void **state)
{
    struct sb_error err = {0};
    char small[12] = "a\nb\x1b[2Jc";
    (void)state;

    sb_fail(&err, SB_ERR_INPUT, "--set %s: unknown key", "na\x1b]0;x\x07me=\xff\xc3\xa9\n\t\x7f");
    assert_string_equal(err.msg, "--set na\\x1b]0;x\\x07me=\\xff\xc3\xa9\\x0a\\x09\\x7f: unknown key");
    sb_error_prefix(&err, "file.ini:%d", 3);
    assert_string_equal(err.msg, "file.ini:3: --set na\\x1b]0;x\\x07me=\\xff\xc3\xa9\\x0a\\x09\\x7f: "
                                 "unknown key");
    assert_null(strchr(err.msg, '\n'));
    sb_text_printable(small, sizeof small);
    assert_string_equal(small, "a\\x0ab\\x1b["); /* 11 bytes and the NUL: "2Jc" is cut */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_fit_and_copy),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_error_cut),
        cmocka_unit_test(test_printable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
