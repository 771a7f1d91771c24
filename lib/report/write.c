/* SPDX-License-Identifier: BSD-3-Clause */
/* write.c: saving the JSON report with the never-overwrite writer (outfile.h), gzip-compressed
 * where its name ends in ".gz" (gzip.h), and the check of its name before any run. */
#include "config.h"
#include "report/write.h"
#include "report/gzip.h"
#include "report/schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

int sb_report_check_target(const char *path, struct sb_error *err)
{
    return sb_outfile_check(path, "report", err);
}

char *sb_report_text(json_t *report)
{
    char *text, *with_newline;
    size_t len;

    json_object_set_new(report, "peak_rss_bytes", json_integer((json_int_t)sb_mem_peak_rss()));
    text = json_dumps(report, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    if (!text)
        return NULL;
    len = strlen(text);
    with_newline = realloc(text, len + 2);
    if (!with_newline) {
        free(text);
        return NULL;
    }
    memcpy(with_newline + len, "\n", 2);
    return with_newline;
}

int sb_report_write(json_t *report, const char *path, char *used, struct sb_error *err)
{
    char *text = sb_report_text(report), *packed = NULL;
    size_t len = text ? strlen(text) : 0;
    int status = SB_OK;

    used[0] = '\0';
    if (!text)
        return sb_fail(err, SB_ERR_RUN, "%s: out of memory for the report", path);
    if (sb_report_gz_named(path))
        status = sb_report_gz_deflate(text, len, path, &packed, &len, err);
    if (status == SB_OK)
        status = sb_outkeep_write(path, packed ? packed : text, len, "report", used, err);
    free(packed);
    free(text);
    return status;
}

int sb_report_save(json_t *report, const char *path, bool quiet, char *used,
                   struct sb_error *err)
{
    bool incomplete = json_is_true(json_object_get(report, "incomplete"));
    int status = sb_report_write(report, path, used, err);

    if (status != SB_OK)
        return status;
    if (strcmp(path, used) != 0)
        fprintf(stderr, "scanbench: %s appeared during the run; the report%s is kept as %s\n",
                path, incomplete ? " (incomplete)" : "", used);
    else if (!quiet || incomplete)
        fprintf(stderr, "scanbench: report written to %s%s\n", path,
                incomplete ? " (incomplete)" : "");
    return SB_OK;
}

void sb_report_mark_complete(json_t *report)
{
    json_object_set_new(report, "incomplete", json_false());
}

void sb_report_mark_interrupted(json_t *report, const char *by, const char *run,
                                size_t run_index, size_t runs_planned)
{
    json_object_set_new(report, "incomplete", json_true());
    json_object_set_new(report, "interrupted",
                        json_pack("{s:s, s:s, s:I, s:I, s:I}", "by", by, "run", run, "run_index",
                                  (json_int_t)run_index, "runs_planned", (json_int_t)runs_planned,
                                  "runs_done",
                                  (json_int_t)json_array_size(json_object_get(report, "runs"))));
}
