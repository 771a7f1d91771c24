/* SPDX-License-Identifier: BSD-3-Clause */
#include "config.h"
/* test_options.c: unit tests for bench/options.h, a command line from its table, on a table of
 * its own: every kind parsed in every spelling, operands where they stand; refused, each with
 * its exact line: an unknown option, an abbreviation, a cluster, "--", an operand where none is
 * taken, a missing value (the table's words or unknown's), a value that is itself an option, a
 * count out of range; the usage line and the help printed from the same table. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"

#include "helper.h"

enum { QUICK = 1, SET, OUT, COUNT };

static const struct sb_options spec = {
    .command = "demo",
    .operands = "[FILE...]",
    .operand_label = "FILE",
    .operand_help = "files to read",
    .unknown = "unknown option",
    .options = {
        {QUICK, "-q", "--quick", SB_OPT_FLAG, NULL, false, "fast", NULL, 0, 0},
        {SET, "--set", "-s", SB_OPT_TEXT, "KEY=VALUE", true, "sets a key\nagain for another",
         NULL, 0, 0},
        {OUT, "-o", NULL, SB_OPT_TEXT, "DIR", false, "a directory", ": no DIR after it", 0, 0},
        {COUNT, "--count", NULL, SB_OPT_COUNT, "N", false, "how many", NULL, 2, 9},
        {0},
    },
};

static const struct sb_options no_operands = {
    .command = "bare", .prefix = "bare: ", .unknown = "unknown argument",
    .options = {{QUICK, "--quick", NULL, SB_OPT_FLAG, NULL, false, "fast", NULL, 0, 0}, {0}},
};

/* What the take function was handed, one line each: "ID SPELLING TEXT COUNT". */
struct record {
    char text[1024];
    size_t used;
};

static int take(void *ctx, const struct sb_option_arg *arg, struct sb_error *err)
{
    struct record *r = ctx;

    (void)err;
    r->used += (size_t)snprintf(r->text + r->used, sizeof r->text - r->used, "%d %s %s %lu\n",
                                arg->id, arg->spelling, arg->text ? arg->text : "-", arg->count);
    return SB_OK;
}

/* argv from a NULL-ended list after "demo". */
static int parse(const struct sb_options *s, struct record *r, struct sb_error *err, ...)
{
    char *argv[32] = {"demo"};
    int argc = 1;
    va_list ap;

    va_start(ap, err);
    while ((argv[argc] = va_arg(ap, char *)))
        argc++;
    va_end(ap);
    memset(r, 0, sizeof *r);
    memset(err, 0, sizeof *err);
    return sb_options_parse(s, argc, argv, take, r, err);
}

static void test_every_kind_in_order(void **state)
{
    struct record r;
    struct sb_error err;

    (void)state;
    assert_int_equal(parse(&spec, &r, &err, "a", "-q", "--set", "k=1", "b", "-s", "k=2",
                           "--set=k=3", "--quick", "-o", "-", "--count", "9", "--count=2", "-",
                           "", NULL), SB_OK);
    assert_string_equal(r.text, "0 a a 0\n1 -q - 0\n2 --set k=1 0\n0 b b 0\n2 -s k=2 0\n"
                        "2 --set k=3 0\n1 --quick - 0\n3 -o - 0\n4 --count 9 9\n"
                        "4 --count 2 2\n0 - - 0\n0   0\n");
    /* nothing at all, and a value that starts with '-' but is no option */
    assert_int_equal(parse(&spec, &r, &err, NULL), SB_OK);
    assert_string_equal(r.text, "");
    assert_int_equal(parse(&spec, &r, &err, "-o", "-x", "--set", "--k", NULL), SB_OK);
    assert_string_equal(r.text, "3 -o -x 0\n2 --set --k 0\n");
}

static void refused(const struct sb_options *s, const char *want, const char *a, const char *b,
                    const char *c)
{
    struct record r;
    struct sb_error err;

    assert_int_equal(parse(s, &r, &err, a, b, c, NULL), SB_ERR_INPUT);
    sbtest_assert_error(&err, SB_ERR_INPUT, want);
}

#define USAGE "(usage: scanbench demo [FILE...] [-q] [--set KEY=VALUE]... [-o DIR] [--count N])"

static void test_unknown_refused(void **state)
{
    (void)state;
    refused(&spec, "--fast: unknown option " USAGE, "a", "--fast", NULL);
    refused(&spec, "-x: unknown option " USAGE, "-x", NULL, NULL);
    refused(&spec, "--qui: unknown option " USAGE, "--qui", NULL, NULL); /* no abbreviation */
    refused(&spec, "-qo: unknown option " USAGE, "-qo", "d", NULL);      /* no cluster */
    refused(&spec, "-od: unknown option " USAGE, "-od", NULL, NULL);     /* no -oVALUE */
    refused(&spec, "--quick=1: unknown option " USAGE, "--quick=1", NULL, NULL);
    refused(&spec, "--: unknown option " USAGE, "--", "a", NULL);
    refused(&no_operands, "bare: a: unknown argument (usage: scanbench bare [--quick])", "--quick",
            "a", NULL);
}

static void test_missing_value_refused(void **state)
{
    (void)state;
    refused(&spec, "--set: unknown option " USAGE, "a", "--set", NULL);
    refused(&spec, "-s: unknown option " USAGE, "-s", NULL, NULL);
    refused(&spec, "-o: no DIR after it " USAGE, "-o", NULL, NULL);
    refused(&spec, "--count (missing): want a whole number from 2 to 9", "--count", NULL, NULL);
}

static void test_value_that_is_an_option_refused(void **state)
{
    (void)state;
    refused(&spec, "-o: missing value (got option -q)", "-o", "-q", NULL);
    refused(&spec, "--set: missing value (got option --quick)", "--set", "--quick", "x");
    refused(&spec, "-s: missing value (got option --set=k=1)", "-s", "--set=k=1", NULL);
    refused(&spec, "--count: missing value (got option -o)", "--count", "-o", "d");
}

static void test_count_out_of_range_refused(void **state)
{
    (void)state;
    refused(&spec, "--count 1: want a whole number from 2 to 9", "--count", "1", NULL);
    refused(&spec, "--count 10: want a whole number from 2 to 9", "--count", "10", NULL);
    refused(&spec, "--count x: want a whole number from 2 to 9", "--count=x", NULL, NULL);
}

/* the take function's refusal stops the parse there */
static int take_refusing(void *ctx, const struct sb_option_arg *arg, struct sb_error *err)
{
    int *calls = ctx;

    *calls += 1;
    return arg->id == SB_OPT_OPERAND ? sb_options_refuse(&spec, arg->text, err) : SB_OK;
}

static void test_take_stops_the_parse(void **state)
{
    char *argv[] = {"demo", "-q", "b", "-q", NULL};
    struct sb_error err = {0};
    int calls = 0;

    (void)state;
    assert_int_equal(sb_options_parse(&spec, 4, argv, take_refusing, &calls, &err), SB_ERR_INPUT);
    assert_int_equal(calls, 2);
    sbtest_assert_error(&err, SB_ERR_INPUT, "b: unknown option " USAGE);
}

static void test_usage_and_help_from_the_table(void **state)
{
    char line[SB_OPTIONS_LINE], *help = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&help, &len);

    (void)state;
    sb_options_usage_line(&spec, line, sizeof line);
    assert_string_equal(line, "[FILE...] [-q] [--set KEY=VALUE]... [-o DIR] [--count N]");
    sb_options_usage_line(&no_operands, line, sizeof line);
    assert_string_equal(line, "[--quick]");
    assert_non_null(f);
    sb_options_help(f, &spec);
    fclose(f);
    assert_string_equal(help, "  FILE              files to read\n"
                              "  -q, --quick       fast\n"
                              "  -s, --set KEY=VALUE  sets a key\n"
                              "                    again for another\n"
                              "  -o DIR            a directory\n"
                              "  --count N         how many\n");
    free(help);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kind_in_order),
        cmocka_unit_test(test_unknown_refused),
        cmocka_unit_test(test_missing_value_refused),
        cmocka_unit_test(test_value_that_is_an_option_refused),
        cmocka_unit_test(test_count_out_of_range_refused),
        cmocka_unit_test(test_take_stops_the_parse),
        cmocka_unit_test(test_usage_and_help_from_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
