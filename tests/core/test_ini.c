/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_ini.c: the core INI reader on a small table of its own: values handed whole with the
 * line of each piece, the errors of one shape and wording (file:line: key: what), what a spec may
 * change, --set, and the shared value parsers (yes/no, sizes, numbers with limits). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/core.h"

static const struct sb_ini_key a_keys[] = {
    {.name = "size", .type = SB_INI_SIZE, .min = 1, .max = 1 << 20, .or_word = "auto"},
    {.name = "list", .type = SB_INI_WORD, .list = true},
    {.name = "text", .type = SB_INI_TEXT, .max = 16},
    {.name = "many", .type = SB_INI_TEXT, .repeat = true},
    {0},
};
static const struct sb_ini_key b_keys[] = {
    {.name = "flag", .type = SB_INI_YESNO},
    {.name = "scale", .type = SB_INI_NUMBER},
    {0},
};
static const struct sb_ini_section sections[] = {
    {.name = "a", .keys = a_keys},
    {.name = "b", .keys = b_keys, .once = true, .prefixed = true},
    {0},
};

struct seen {
    int nvalues, sections;
    char last[256];
    int last_line, npieces, piece_line[8];
    uint64_t number;
};

static void on_section(void *user, int section, int line)
{
    struct seen *s = user;
    (void)line;
    s->sections |= 1 << section;
}

static int on_value(void *user, struct sb_ini_value *v, struct sb_error *err)
{
    struct seen *s = user;

    s->nvalues++;
    snprintf(s->last, sizeof s->last, "%s", v->text);
    s->last_line = v->line;
    s->npieces = v->npieces;
    for (int i = 0; i < v->npieces && i < 8; i++)
        s->piece_line[i] = v->piece_line[i];
    if (strstr(v->text, "bad")) {
        v->error_line = v->piece_line[v->npieces - 1];
        return sb_fail(err, SB_ERR_INPUT, "\"bad\" is bad");
    }
    return sb_ini_parse(v->desc, v->text, &s->number, NULL, err);
}

static const struct sb_ini_spec spec = {.sections = sections, .on_section = on_section,
                                        .on_value = on_value};

static int read_text(const struct sb_ini_spec *sp, const char *text, struct seen *s,
                     struct sb_error *err)
{
    struct sb_ini_lines lines = {.text = text};

    memset(s, 0, sizeof *s);
    return sb_ini_read(&lines, "t.ini", sp, s, err);
}

static void expect_error(const struct sb_ini_spec *sp, const char *text, const char *want)
{
    struct seen s;
    struct sb_error err = {0};

    assert_int_equal(read_text(sp, text, &s, &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, want);
}

static void test_values(void **state)
{
    struct seen s;
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(read_text(&spec, "[a]\nsize = 4K\nlist = x,\n  y\n[b]\nflag = on\n", &s,
                               &err), SB_OK);
    assert_int_equal(s.nvalues, 3);
    assert_int_equal(s.sections, 3);
    assert_string_equal(s.last, "on");
    assert_int_equal(s.number, 1);
    assert_int_equal(read_text(&spec, "[a]\nlist = x,\n  y\n\ty z\n", &s, &err), SB_OK);
    assert_string_equal(s.last, "x, y y z"); /* joined with a blank */
    assert_int_equal(s.last_line, 2);
    assert_int_equal(s.npieces, 3);
    assert_int_equal(s.piece_line[2], 4);
    assert_int_equal(read_text(&spec, "[a]\nmany = 1\nmany = 2\nsize = auto\n", &s, &err), SB_OK);
    assert_int_equal(s.nvalues, 3);
    assert_int_equal(s.number, 0);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error(&spec, "[a]\nsize = 12QB\n",
                 "t.ini:2: size: \"12QB\" is not a size (e.g. 8192, 256K, 16MB, auto)");
    expect_error(&spec, "[a]\nsize = 2M\n", "t.ini:2: size: \"2M\" is out of range (1B to 1MB)");
    expect_error(&spec, "[a]\nsize = 1K\n[b]\nflag = maybe\n",
                 "t.ini:4: b: flag: \"maybe\" is not yes or no");
    expect_error(&spec, "[a]\nnope = 1\n",
                 "t.ini:2: nope: unknown key in [a] (known: size, list, text, many)");
    expect_error(&spec, "[c]\n", "t.ini:1: [c]: unknown section (known: [a], [b])");
    expect_error(&spec, "[b]\n[b]\n", "t.ini:2: [b]: section given twice");
    expect_error(&spec, "size = 1\n", "t.ini:1: size: keys belong in a section (known: [a], [b])");
    expect_error(&spec, "[a]\nsize = 1\n\nsize = 2\n",
                 "t.ini:4: size: set twice in [a] (first at line 2)");
    expect_error(&spec, "[a]\n= 1\n", "t.ini:2: no key before '=' (want key = value)");
    expect_error(&spec, "[a]\nwords\n",
                 "t.ini:2: not a valid INI line (want key = value or [section])");
    expect_error(&spec, "[a]\ntext = x\n  size = 3\n", "t.ini:3: text: \"size = 3\": an "
                 "indented line goes on with the value above; a key of its own starts its line");
    /* a key of another section too: it would be joined into the text silently */
    expect_error(&spec, "[a]\ntext = x\n  flag = yes\n", "t.ini:3: text: \"flag = yes\": an "
                 "indented line goes on with the value above; a key of its own starts its line");
    expect_error(&spec, "[a]\nsize = 1\n  2\n", "t.ini:3: size: \"2\": an indented line goes on "
                 "with text or a list; a key of its own starts its line");
    expect_error(&spec, "[a]\ntext = 0123456789\n  0123456789\n",
                 "t.ini:3: text: longer than 16 bytes");
    expect_error(&spec, "[a]\ntext = caf\xe9\n",
                 "t.ini:2: text: not UTF-8 (a report holds UTF-8 text only)");
    expect_error(&spec, "[a]\nlist = a,\n  bad\n", "t.ini:3: list: \"bad\" is bad");
    /* the first error in the file wins, ours or inih's */
    expect_error(&spec, "[a]\nwords\nnope = 1\n",
                 "t.ini:2: not a valid INI line (want key = value or [section])");
    expect_error(&spec, "[a]\nsize = 0\nwords\n", "t.ini:2: size: \"0\" is zero");
}

/* What a spec may still change: a section's words for an unknown key, and lazy sections. */
static void test_unknown(void **state)
{
    struct sb_ini_section named[] = {{.name = "a", .keys = a_keys, .unknown_key = "(see list)"},
                                     {0}};
    struct sb_ini_spec words = {.sections = named, .on_value = on_value};
    struct sb_ini_spec lazy = {.sections = named, .lazy_sections = true, .on_value = on_value};
    (void)state;

    expect_error(&words, "[a]\nx = 1\n", "t.ini:2: x: unknown key (see list)");
    /* lazy: an unknown section is refused at its first key only */
    expect_error(&lazy, "[a]\nsize = 1\n[z]\nsize = 2\n",
                 "t.ini:4: size: unknown section [z] (known: [a])");
    expect_error(&lazy, "size = 1\n", "t.ini:1: size: keys belong in a section (known: [a])");
    {
        struct seen s;
        struct sb_error err = {0};
        assert_int_equal(read_text(&lazy, "[a]\nsize = 1\n[z]\n", &s, &err), SB_OK);
    }
}

/* A spec larger than any the reader once had room for (32 sections of 64 keys, fixed arrays
 * that nothing checked): what it keeps is sized from the spec, so key 64 of the first section
 * is not taken for key 0 of the second, and the last key of the last section is kept. */
#define BIG_SECTIONS 40
#define BIG_KEYS 70
static char big_names[BIG_SECTIONS][BIG_KEYS][8], big_section_names[BIG_SECTIONS][8];
static struct sb_ini_key big_keys[BIG_SECTIONS][BIG_KEYS + 1];
static struct sb_ini_section big_sections[BIG_SECTIONS + 1];

static void test_big_spec(void **state)
{
    const struct sb_ini_spec big = {.sections = big_sections, .on_value = on_value};
    struct seen s;
    struct sb_error err = {0};
    (void)state;

    for (int i = 0; i < BIG_SECTIONS; i++) {
        for (int k = 0; k < BIG_KEYS; k++) {
            snprintf(big_names[i][k], sizeof big_names[i][k], "k%d", k);
            big_keys[i][k] = (struct sb_ini_key){.name = big_names[i][k], .type = SB_INI_UINT,
                                                 .max = 9};
        }
        snprintf(big_section_names[i], sizeof big_section_names[i], "s%d", i);
        big_sections[i] = (struct sb_ini_section){.name = big_section_names[i],
                                                  .keys = big_keys[i], .once = true};
    }
    assert_int_equal(read_text(&big, "[s0]\nk64 = 1\n[s1]\nk0 = 2\n[s39]\nk69 = 3\n", &s, &err),
                     SB_OK);
    assert_int_equal(s.nvalues, 3);
    assert_int_equal(s.number, 3);
    expect_error(&big, "[s0]\nk0 = 1\n[s39]\nk69 = 1\nk69 = 2\n",
                 "t.ini:5: k69: set twice in [s39] (first at line 4)");
    expect_error(&big, "[s0]\n[s32]\n[s39]\n[s39]\n", "t.ini:4: [s39]: section given twice");
    assert_int_equal(sb_ini_take(&big, 39, "--set k69=4", "k69", "4", &s, &err), SB_OK);
}

static void test_take(void **state)
{
    struct seen s = {0};
    struct sb_error err = {0};
    (void)state;

    assert_int_equal(sb_ini_take(&spec, 0, "--set size=2K", "size", "2K", &s, &err), SB_OK);
    assert_int_equal(s.number, 2048);
    assert_int_equal(s.last_line, 0);
    assert_int_equal(sb_ini_take(&spec, 0, "--set size=x", "size", "x", &s, &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set size=x: size: \"x\" is not a size (e.g. 8192, 256K, 16MB, "
                                 "auto)");
    assert_int_equal(sb_ini_take(&spec, 0, "--set y=1", "y", "1", &s, &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "--set y=1: y: unknown key in [a] (known: size, list, text, "
                                 "many)");
}

static void test_parsers(void **state)
{
    static const struct sb_ini_key u = {.name = "u", .type = SB_INI_UINT, .min = 2, .max = 9};
    static const struct sb_ini_key n = {.name = "n", .type = SB_INI_NUMBER};
    struct sb_error err = {0};
    uint64_t v;
    double d;
    bool yes;
    (void)state;

    for (int i = 0; i < 8; i++) {
        static const char *const words[] = {"yes", "true", "on", "1", "no", "false", "off", "0"};
        assert_true(sb_ini_yesno(words[i], &yes));
        assert_int_equal(yes, i < 4);
    }
    assert_false(sb_ini_yesno("Yes", &yes));
    assert_false(sb_ini_yesno("", &yes));
    assert_int_equal(sb_ini_parse(&u, "9", &v, NULL, &err), SB_OK);
    assert_int_equal(v, 9);
    assert_int_equal(sb_ini_parse(&u, "10", &v, NULL, &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "\"10\" is out of range (2 to 9)");
    assert_int_equal(sb_ini_parse(&u, "-1", &v, NULL, &err), SB_ERR_INPUT);
    assert_string_equal(err.msg, "\"-1\" is not a whole number");
    assert_int_equal(sb_ini_parse(&n, "64", NULL, &d, &err), SB_OK);
    assert_true(d == 64.0);
    for (int i = 0; i < 5; i++) {
        static const char *const bad[] = {"0", "-1", "64x", "", "inf"};
        assert_int_equal(sb_ini_parse(&n, bad[i], NULL, &d, &err), SB_ERR_INPUT);
        assert_non_null(strstr(err.msg, "is not a positive number"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_unknown),  cmocka_unit_test(test_big_spec),
        cmocka_unit_test(test_take),
        cmocka_unit_test(test_parsers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
