/* csv.c: the timed scans of a report as CSV. */
#include "config.h"
#include "report/csv.h"

#include <stdbool.h>
#include <string.h>

static const char *text(const json_t *v) { return json_is_string(v) ? json_string_value(v) : ""; }

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

static void scan_line(FILE *out, const json_t *scan, const char *name, bool reference)
{
    fprintf(out, "%.6f,%lld,%lld,", json_number_value(json_object_get(scan, "at")),
            (long long)json_integer_value(json_object_get(scan, "round")),
            (long long)json_integer_value(json_object_get(scan, "position")));
    quoted(out, name);
    fprintf(out, ",%d,%lld,%lld,%.9f", reference,
            (long long)json_integer_value(json_object_get(scan, "passes")),
            (long long)json_integer_value(json_object_get(scan, "bytes")),
            json_number_value(json_object_get(scan, "seconds")));
    number_or_empty(out, json_object_get(scan, "mbps"), "%.1f");
    number_or_empty(out, json_array_get(json_object_get(scan, "cpu"), 0), "%.0f");
    number_or_empty(out, json_object_get(scan, "steal"), "%.3f");
    fputc('\n', out);
}

int sb_report_csv(FILE *out, const json_t *report)
{
    const json_t *ref = json_object_get(json_object_get(report, "schedule"), "reference");
    size_t i, k;
    json_t *run, *scan;

    fprintf(out, "at,round,position,configuration,reference,passes,bytes,seconds,mbps,cpu,"
                 "steal\n");
    json_array_foreach(json_object_get(report, "runs"), i, run)
        json_array_foreach(json_object_get(run, "scans"), k, scan)
            scan_line(out, scan, text(json_object_get(run, "name")), false);
    json_array_foreach(json_object_get(ref, "scans"), k, scan)
        scan_line(out, scan, text(json_object_get(ref, "run")), true);
    return ferror(out) ? -1 : 0;
}

void sb_report_csv_path(const char *report_path, char *buf, size_t len)
{
    size_t n = strlen(report_path);

    if (n > 5 && strcmp(report_path + n - 5, ".json") == 0)
        snprintf(buf, len, "%.*s.csv", (int)(n - 5), report_path);
    else
        snprintf(buf, len, "%s.csv", report_path);
}
