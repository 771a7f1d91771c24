/* SPDX-License-Identifier: BSD-3-Clause */
/* reanalyse.c: a `scanbench pg` report's analysis made again by this build's code and its text
 * printed, for a report written by an older scanbench whose analysis had no `variance` or
 * `noise.aa` block (results/vm-epyc-zen4-2core-kvm/live-precision-2026-12-08: the reports of
 * the code before the fixes, decomposed as the new code decomposes).
 * usage: bench/dev/reanalyse REPORT.json [OUT.json]: the text on stdout; OUT.json, a new file,
 * the report with the analysis made again. */
#include "config.h"

#include <stdio.h>

#include "core/core.h"
#include "render/render.h"
#include "report/report.h"

int main(int argc, char **argv)
{
    struct sb_error err = {0};
    json_t *report = NULL;
    int status = 2;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: reanalyse REPORT.json [OUT.json]\n");
        return 2;
    }
    if (sb_report_load(argv[1], &report, &err) != SB_OK) {
        fprintf(stderr, "reanalyse: %s\n", err.msg);
    } else {
        json_object_set_new(report, "analysis", sb_analysis_build(report));
        sb_render_pg(stdout, report);
        status = argc == 3 && json_dump_file(report, argv[2], JSON_INDENT(1)) != 0 ? 1 : 0;
    }
    json_decref(report);
    return status;
}
