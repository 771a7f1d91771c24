/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_compare.c: `scanbench compare REPORT REPORT... [--json]`: matches runs by their
 * parameters across reports (the first is the baseline) and prints medians, ratios,
 * significance (Mann-Whitney U) and counter differences, as a table or as JSON. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report/report.h"

#define MAX_REPORTS 26

enum { JSON = 1 };

const struct sb_options sb_options_compare = {
    .command = "compare",
    .operands = "REPORT REPORT...",
    .operand_label = "REPORT",
    .operand_help = "reports of run, pg or reproduce; the first is the baseline",
    .unknown = "unknown option",
    .options = {
        {JSON, "--json", NULL, SB_OPT_FLAG, NULL, false, "the comparison as a JSON document",
         NULL, 0, 0},
        {0},
    },
};

/* Where the command line goes: each report loaded as it comes, --json. */
struct compare_args {
    json_t **reports;
    const char **paths;
    size_t *n;
    bool *as_json;
};

/* A report or --json into ctx (sb_option_take). */
static int take(void *ctx, const struct sb_option_arg *arg, struct sb_error *err)
{
    struct compare_args *a = ctx;
    size_t n = *a->n;

    if (arg->id == JSON) {
        *a->as_json = true;
        return SB_OK;
    }
    if (n == MAX_REPORTS)
        return sb_fail(err, SB_ERR_INPUT, "%s: at most %d reports", arg->text, MAX_REPORTS);
    a->paths[n] = arg->text;
    *a->n = n + 1;
    return sb_report_load(arg->text, &a->reports[n], err);
}

int sb_cmd_compare(int argc, char **argv)
{
    json_t *reports[MAX_REPORTS] = {0};
    const char *paths[MAX_REPORTS];
    struct sb_error err = {0};
    json_t *doc = NULL;
    size_t n = 0;
    bool as_json = false;
    int status = SB_OK;

    struct compare_args args = {reports, paths, &n, &as_json};

    status = sb_options_parse(&sb_options_compare, argc, argv, take, &args, &err);
    if (status == SB_OK && n < 2)
        status = sb_fail(&err, SB_ERR_INPUT, "compare needs at least two reports");
    if (status != SB_OK)
        goto out;
    doc = sb_compare_build(reports, paths, n);
    if (!doc) {
        status = sb_fail(&err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    if (as_json) {
        json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        putchar('\n');
    } else {
        sb_compare_render(stdout, doc);
    }
out:
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    json_decref(doc);
    for (size_t i = 0; i < n; i++)
        json_decref(reports[i]);
    return status;
}
