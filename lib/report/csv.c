/* SPDX-License-Identifier: BSD-3-Clause */
/* csv.c: the timed scans of a report as CSV, each with its round's level (analysis_level.h). */
#include "config.h"
#include "report/csv.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis_level.h"
#include "report/runs.h"
#include "report/field.h"
#include "report/gzip.h"

/* A field quoted as RFC 4180 wants: in double quotes, a quote doubled. */
static void quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void number_or_empty(FILE *out, const json_t *v, const char *fmt)
{
    fputc(',', out);
    if (json_is_number(v))
        fprintf(out, fmt, json_number_value(v));
}

/* level: each round's level (NULL: none known), nrounds of them */
static void scan_line(FILE *out, const json_t *scan, const char *name, bool reference,
                      const double *level, size_t nrounds)
{
    json_int_t round = json_integer_value(json_object_get(scan, "round"));

    fprintf(out, "%.6f,%lld,%lld,", json_number_value(json_object_get(scan, "at")),
            (long long)round, (long long)json_integer_value(json_object_get(scan, "position")));
    quoted(out, name);
    fprintf(out, ",%d,%lld,%lld,%.9f", reference,
            (long long)json_integer_value(json_object_get(scan, "passes")),
            (long long)json_integer_value(json_object_get(scan, "bytes")),
            json_number_value(json_object_get(scan, "seconds")));
    number_or_empty(out, json_object_get(scan, "mbps"), "%.1f");
    number_or_empty(out, json_array_get(json_object_get(scan, "cpu"), 0), "%.0f");
    number_or_empty(out, json_object_get(scan, "steal"), "%.3f");
    fputc(',', out);
    if (level && round >= 0 && (size_t)round < nrounds && !isnan(level[round]))
        fprintf(out, "%.6f", level[round]);
    number_or_empty(out, json_object_get(scan, "layout"), "%.0f");
    fputc('\n', out);
}

int sb_report_csv(FILE *out, const json_t *report)
{
    const json_t *ref = sb_field(report, "schedule.reference");
    size_t nrounds = sb_report_rounds(report), i, k;
    double *level = sb_report_round_levels(report, nrounds); /* NULL: the column left empty */
    json_t *run, *scan;

    fprintf(out, "at,round,position,configuration,reference,passes,bytes,seconds,mbps,cpu,"
                 "steal,level,layout\n");
    json_array_foreach(json_object_get(report, "runs"), i, run)
        json_array_foreach(json_object_get(run, "scans"), k, scan)
            scan_line(out, scan, sb_field_text(run, "name"), false, level, nrounds);
    json_array_foreach(json_object_get(ref, "scans"), k, scan)
        scan_line(out, scan, sb_field_text(ref, "run"), true, level, nrounds);
    free(level);
    return ferror(out) ? -1 : 0;
}

void sb_report_csv_path(const char *report_path, char *buf, size_t len)
{
    size_t n = strlen(report_path);

    if (sb_report_gz_named(report_path)) /* r.json.gz: r.csv, uncompressed */
        n -= 3;
    if (n > 5 && strncmp(report_path + n - 5, ".json", 5) == 0)
        snprintf(buf, len, "%.*s.csv", (int)(n - 5), report_path);
    else
        snprintf(buf, len, "%.*s.csv", (int)n, report_path);
}
