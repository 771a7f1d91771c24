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

int sb_cmd_compare(int argc, char **argv)
{
    json_t *reports[MAX_REPORTS] = {0};
    const char *paths[MAX_REPORTS];
    struct sb_error err = {0};
    json_t *doc = NULL;
    size_t n = 0;
    bool as_json = false;
    int status = SB_OK;

    for (int i = 1; i < argc && status == SB_OK; i++) {
        if (strcmp(argv[i], "--json") == 0)
            as_json = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            status = sb_fail(&err, SB_ERR_INPUT, "%s: unknown option (usage: scanbench compare "
                             SB_ARGS_COMPARE ")", argv[i]);
        else if (n == MAX_REPORTS)
            status = sb_fail(&err, SB_ERR_INPUT, "%s: at most %d reports", argv[i], MAX_REPORTS);
        else {
            paths[n] = argv[i];
            status = sb_report_load(argv[i], &reports[n], &err);
            n++;
        }
    }
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
