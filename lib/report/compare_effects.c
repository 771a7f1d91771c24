/* SPDX-License-Identifier: BSD-3-Clause */
/* compare_effects.c: each report's own comparisons side by side, one column per report (see
 * compare_effects.h). */
#include "config.h"
#include "report/compare_effects.h"

#include <stdbool.h>
#include <string.h>

#include "core/core.h"
#include "report/analysis.h"
#include "report/field.h"
#include "report/runs.h"

#define SIDE_LEN 160
#define CELL_WIDTH 22

/* The parameters that, where a comparison's two runs differ in them, name its sides beside
 * their placements ("ring 256KB extra_copy=0.05 / ring 256KB extra_copy=0"). */
static const char *const side_keys[] = {
    "source", "kernel", "executor", "table_size", "page_size", "row_width", "dead_pct",
    "threads", "bigtable", "shared_table", "shared_pool", "writeback", "checkpoint_pages",
    "writeback_kernel", "hint_bits", "extra_copy", NULL};

/* " key=value" (a size in KB/MB, a word as itself) appended to buf of len bytes. */
static void append_value(char *buf, size_t len, const char *key, const json_t *v)
{
    size_t used = strlen(buf);
    char size[32];

    if (used >= len)
        return;
    if (json_is_string(v))
        snprintf(buf + used, len - used, " %s", json_string_value(v));
    else if (json_is_boolean(v))
        snprintf(buf + used, len - used, " %s=%s", key, json_is_true(v) ? "yes" : "no");
    else if (json_is_integer(v) && strstr(key, "size"))
        snprintf(buf + used, len - used, " %s=%s", key,
                 sb_format_size((uint64_t)json_integer_value(v), size, sizeof size));
    else if (json_is_number(v))
        snprintf(buf + used, len - used, " %s=%g", key, json_number_value(v));
    else
        snprintf(buf + used, len - used, " %s=none", key);
}

/* The comparison's two sides: each its placement as the report names it, then the parameters
 * in which its runs differ (a ring's pool among them); where those do not tell them apart (a
 * server or setting of `scanbench pg`), the runs' names. */
static void side_labels(const json_t *report, const json_t *c, char *a, char *b)
{
    const json_t *runs = json_object_get(report, "runs");
    const json_t *ra = sb_find_run_named(runs, sb_field_text(c, "a"));
    const json_t *rb = sb_find_run_named(runs, sb_field_text(c, "b"));

    snprintf(a, SIDE_LEN, "%s", sb_field_text_or(c, "a_placement", "?"));
    snprintf(b, SIDE_LEN, "%s", sb_field_text_or(c, "b_placement", "?"));
    if (!ra || !rb)
        return;
    if (!json_equal(json_object_get(ra, "pool_size"), json_object_get(rb, "pool_size"))) {
        char size[32];
        if (strcmp(sb_field_text(ra, "policy"), "ring") == 0)
            snprintf(a + strlen(a), SIDE_LEN - strlen(a), " in %s",
                     sb_format_size((uint64_t)sb_field_integer(ra, "pool_size"), size,
                                    sizeof size));
        if (strcmp(sb_field_text(rb, "policy"), "ring") == 0)
            snprintf(b + strlen(b), SIDE_LEN - strlen(b), " in %s",
                     sb_format_size((uint64_t)sb_field_integer(rb, "pool_size"), size,
                                    sizeof size));
    }
    for (int k = 0; side_keys[k]; k++) {
        const json_t *va = json_object_get(ra, side_keys[k]), *vb = json_object_get(rb,
                                                                                 side_keys[k]);
        if (json_equal(va ? va : json_null(), vb ? vb : json_null()))
            continue;
        append_value(a, SIDE_LEN, side_keys[k], va);
        append_value(b, SIDE_LEN, side_keys[k], vb);
    }
    if (strcmp(a, b) == 0) {
        snprintf(a, SIDE_LEN, "%s", sb_field_text(ra, "name"));
        snprintf(b, SIDE_LEN, "%s", sb_field_text(rb, "name"));
    }
}

/* A report's cell: the comparison's ratio, interval and call as stored (its level_call where
 * it has one), what its run table shows. */
static json_t *cell(const json_t *c)
{
    static const char *const keys[] = {"ratio", "lo", "hi", "call", "level_call", NULL};
    json_t *out = json_object();

    for (int k = 0; keys[k]; k++) {
        json_t *v = json_object_get(c, keys[k]);
        if (v)
            json_object_set(out, keys[k], v);
        else if (k < 4)
            json_object_set_new(out, keys[k], json_null());
    }
    return out;
}

/* The row of label with no cell yet for report r, made (all cells null) where there is none. */
static json_t *row_for(json_t *rows, const char *label, const json_t *c, const char *a,
                       const char *b, size_t r, size_t n)
{
    size_t i;
    json_t *row, *cells;

    json_array_foreach(rows, i, row)
        if (strcmp(sb_field_text(row, "comparison"), label) == 0 &&
            json_is_null(json_array_get(json_object_get(row, "reports"), r)))
            return row;
    cells = json_array();
    for (size_t k = 0; k < n; k++)
        json_array_append_new(cells, json_null());
    row = json_pack("{s:s, s:s, s:s, s:s, s:o}", "comparison", label, "op",
                    sb_field_text_or(c, "op", "?"), "a", a, "b", b, "reports", cells);
    json_array_append_new(rows, row);
    return row;
}

/* Adds report r's comparisons to rows. */
static void add_report(json_t *rows, const json_t *report, size_t r, size_t n)
{
    json_t *built = NULL;
    const json_t *analysis = json_object_get(report, "analysis"), *c;
    size_t i;

    if (!json_is_object(analysis))
        analysis = built = sb_analysis_build(report);
    json_array_foreach(json_object_get(analysis, "comparisons"), i, c) {
        char a[SIDE_LEN], b[SIDE_LEN], label[2 * SIDE_LEN + 48];
        json_t *row;
        side_labels(report, c, a, b);
        snprintf(label, sizeof label, "%s %s / %s", sb_field_text_or(c, "op", "?"), a, b);
        row = row_for(rows, label, c, a, b, r, n);
        if (row)
            json_array_set_new(json_object_get(row, "reports"), r, cell(c));
    }
    json_decref(built);
}

json_t *sb_compare_effects(json_t *const *reports, size_t n)
{
    json_t *rows = json_array();

    for (size_t r = 0; r < n && rows; r++)
        add_report(rows, reports[r], r, n);
    return rows;
}

/* "0.87x [0.86, 0.88] -" as the run table writes it (its mark: sb_call_mark), or "-" where the
 * report has no such comparison or no estimate. */
static void effect_cell(FILE *out, const json_t *c)
{
    char text[96], mark[4];

    if (json_is_number(json_object_get(c, "ratio")) && json_is_number(json_object_get(c, "lo")) &&
        json_is_number(json_object_get(c, "hi")))
        snprintf(text, sizeof text, "%.2fx [%.2f, %.2f] %s", sb_field_number(c, "ratio"),
                 sb_field_number(c, "lo"), sb_field_number(c, "hi"), sb_call_mark(c, mark));
    else if (json_is_object(c))
        snprintf(text, sizeof text, "%s", sb_call_mark(c, mark));
    else
        snprintf(text, sizeof text, "-");
    fprintf(out, " | %*s", CELL_WIDTH, text);
}

/* The row's comparison as printed: control characters and bytes that are not UTF-8 as \xNN. */
static const char *printable_label(const json_t *row, char buf[4096])
{
    snprintf(buf, 4096, "%s", sb_field_text(row, "comparison"));
    sb_text_printable(buf, 4096);
    return buf;
}

void sb_compare_effects_render(FILE *out, const json_t *doc)
{
    const json_t *rows = json_object_get(doc, "effects"), *row;
    size_t nreports = json_array_size(json_object_get(doc, "reports")), i;
    int width = (int)strlen("comparison (op a / b)");
    char label[4096];

    if (json_array_size(rows) == 0)
        return;
    json_array_foreach(rows, i, row)
        if ((int)strlen(printable_label(row, label)) > width)
            width = (int)strlen(label);
    fprintf(out, "\neach report's own comparisons, as its run table shows them:\n%-*s", width,
            "comparison (op a / b)");
    for (size_t r = 0; r < nreports; r++)
        fprintf(out, " | %*c", CELL_WIDTH, (int)('A' + r));
    fputc('\n', out);
    json_array_foreach(rows, i, row) {
        const json_t *cells = json_object_get(row, "reports");
        fprintf(out, "%-*s", width, printable_label(row, label));
        for (size_t r = 0; r < nreports; r++)
            effect_cell(out, json_array_get(cells, r));
        fputc('\n', out);
    }
    fprintf(out, "\na / b paired by round within each report: exp(median of ln(a/b)) [95%% "
                 "interval, Bonferroni over\nthat report's comparisons] and the report's call, "
                 "marked as above (\"!\": withheld, a report\nbefore calls; \"-/+\": called by "
                 "the host's level, slower when quiet, faster when busy);\n\"-\": the report "
                 "made no such comparison.\n");
}
