/* SPDX-License-Identifier: BSD-3-Clause */
/* render.c: the thread-style MB/s table, read from a report: the heading, the table (a column
 * per placement, or a row per run), then the notes, predictions and counters under it
 * (table_notes.c, table_model.c, table_counters.c). */
#include "config.h"
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/report.h"
#include "render/table_counters.h"
#include "render/table_labels.h"
#include "render/table_model.h"
#include "render/table_notes.h"
#include "vocab/vocab.h"

#define MAX_COLS 32
#define MAX_ROWS 16

/* ", 2 scanners (own tables, one shared pool; ...)" when the first run is concurrent, the
 * tables and pools said where they do not vary (else the columns say it); else "". */
static const char *scanners_note(const json_t *runs, char *buf, size_t len)
{
    const json_t *run = json_array_get(runs, 0);
    long long threads = json_integer_value(json_object_get(run, "threads"));
    bool shared_table = json_is_true(json_object_get(run, "shared_table"));
    bool shared_pool = json_is_true(json_object_get(run, "shared_pool"));

    buf[0] = '\0';
    if (threads > 1 || shared_pool)
        snprintf(buf, len, ", %lld scanner%s (%s%s%s%sMB/s of all together)", threads,
                 threads > 1 ? "s" : "",
                 sb_table_key_varies(runs, "shared_table")    ? ""
                 : shared_table || threads == 1       ? "one table, "
                                                      : "own tables, ",
                 sb_table_key_varies(runs, "shared_pool") ? "" : shared_pool ? "one shared pool" :
                                                                      "own pools",
                 sb_table_key_varies(runs, "shared_pool") ? "" : "; ", "");
    return buf;
}

static int find_or_add(char names[][SB_TABLE_LABEL_LEN], int *n, int max, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    if (*n == max)
        return -1;
    snprintf(names[*n], SB_TABLE_LABEL_LEN, "%s", name);
    return (*n)++;
}

/* "1.13x [1.09, 1.18] +" (24 wide; "-/+" where called by the host's level), or "-" where
 * there is no estimate. */
static void ratio_cell(FILE *out, const json_t *cmp)
{
    char cell[64], mark[4];

    if (json_is_number(json_object_get(cmp, "ratio")))
        snprintf(cell, sizeof cell, "%.2fx [%.2f, %.2f] %s",
                 json_number_value(json_object_get(cmp, "ratio")),
                 json_number_value(json_object_get(cmp, "lo")),
                 json_number_value(json_object_get(cmp, "hi")), sb_call_mark(cmp, mark));
    else
        snprintf(cell, sizeof cell, "-");
    fprintf(out, " | %24s", cell);
}

/* "10187 [10012, 10342]" MB/s: the median and the interval of the median (22 wide). */
static void mbps_cell(FILE *out, const json_t *report, const json_t *run)
{
    const json_t *iv = sb_analysis_run(json_object_get(report, "analysis"), run);
    char cell[64];

    if (!run)
        snprintf(cell, sizeof cell, "-");
    else if (json_is_number(json_object_get(iv, "lo")))
        snprintf(cell, sizeof cell, "%.0f [%.0f, %.0f]",
                 json_number_value(sb_field(run, "mbps.median")),
                 json_number_value(json_object_get(iv, "lo")),
                 json_number_value(json_object_get(iv, "hi")));
    else
        snprintf(cell, sizeof cell, "%.0f",
                 json_number_value(sb_field(run, "mbps.median")));
    fprintf(out, " | %22s", cell);
}

struct grid {
    char cols[MAX_COLS][SB_TABLE_LABEL_LEN], rows[MAX_ROWS][SB_TABLE_LABEL_LEN];
    const json_t *cell[MAX_ROWS][MAX_COLS];
    int ncols, nrows, dropped;
};

static void grid_fill(const json_t *runs, struct grid *g)
{
    json_t *run;
    size_t i;
    struct sb_table_varying vary;

    memset(g, 0, sizeof *g);
    sb_table_varying_of(runs, &vary);
    json_array_foreach(runs, i, run) {
        char label[SB_TABLE_LABEL_LEN];
        const char *op = json_string_value(json_object_get(run, "op"));
        int r, c;
        sb_table_label(&vary, run, label, sizeof label);
        r = find_or_add(g->rows, &g->nrows, MAX_ROWS, op ? op : "?");
        c = find_or_add(g->cols, &g->ncols, MAX_COLS, label);
        if (r < 0 || c < 0)
            g->dropped++;
        else
            g->cell[r][c] = run;
    }
}

/* Up to three placements: one row per op, one column per placement, the ratios to the first. */
static void columns_table(FILE *out, const json_t *report, const struct grid *g)
{
    fprintf(out, "%-16s", "Operation");
    for (int c = 0; c < g->ncols; c++)
        fprintf(out, " | %22s", g->cols[c]);
    for (int c = 1; c < g->ncols; c++) {
        char head[32];
        snprintf(head, sizeof head, g->ncols == 2 ? "ratio" : "ratio %d/1", c + 1);
        fprintf(out, " | %24s", head);
    }
    fprintf(out, "\n");
    for (int r = 0; r < g->nrows; r++) {
        const struct sb_op *op = sb_op_find(g->rows[r]);
        const json_t *analysis = json_object_get(report, "analysis");
        fprintf(out, "%-16s", op ? op->label : g->rows[r]);
        for (int c = 0; c < g->ncols; c++)
            mbps_cell(out, report, g->cell[r][c]);
        for (int c = 1; c < g->ncols; c++)
            ratio_cell(out, g->cell[r][c] ? sb_analysis_comparison(analysis, g->cell[r][c]) : NULL);
        fprintf(out, "\n");
    }
}

/* More placements: one row per run, its ratio to the first run of its op. */
static void rows_table(FILE *out, const json_t *report, const json_t *runs)
{
    int width = 13;
    size_t i;
    json_t *run;
    struct sb_table_varying vary;

    sb_table_varying_of(runs, &vary);
    json_array_foreach(runs, i, run) {
        char label[SB_TABLE_LABEL_LEN];
        sb_table_label(&vary, run, label, sizeof label);
        if ((int)strlen(label) > width)
            width = (int)strlen(label);
    }
    fprintf(out, "%-16s | %-*s | %22s | %24s\n", "Operation", width, "Configuration",
            "MB/s [95% interval]", "ratio to the first");
    json_array_foreach(runs, i, run) {
        const struct sb_op *op = sb_op_find(sb_field_text_or(run, "op", ""));
        const json_t *cmp = sb_analysis_comparison(json_object_get(report, "analysis"), run);
        char label[SB_TABLE_LABEL_LEN];
        sb_table_label(&vary, run, label, sizeof label);
        fprintf(out, "%-16s | %-*s", op ? op->label : "?", width, label);
        mbps_cell(out, report, run);
        if (cmp)
            ratio_cell(out, cmp);
        else
            fprintf(out, " | %24s", "(first)");
        fprintf(out, "\n");
    }
}

/* Key contention: one line when an aggressor ran beside the timed scans (none: nothing). */
static void contention_line(FILE *out, const json_t *schedule)
{
    const json_t *c = json_object_get(schedule, "contention");
    const char *kind = sb_field_text_or(c, "kind", "none");
    long long buffers = json_integer_value(json_object_get(c, "buffers"));
    char size[32];

    if (strcmp(kind, "none") == 0)
        return;
    sb_format_size((uint64_t)json_integer_value(json_object_get(c, "working_set_bytes")), size,
                   sizeof size);
    fprintf(out, "contention: %s aggressor on CPU %lld (", kind,
            (long long)json_integer_value(json_object_get(c, "cpu")));
    if (buffers > 1)
        fprintf(out, "%lld x %s buffers, copied", buffers, size);
    else
        fprintf(out, "a %s working set, read-modify-write", size);
    fprintf(out, "), %.1f GB/s during the timed scans\n",
            json_number_value(json_object_get(c, "gbps")));
}

static void heading(FILE *out, const json_t *report, const json_t *runs)
{
    const json_t *first = json_array_get(runs, 0), *exp = json_object_get(report, "experiment");
    const json_t *schedule = json_object_get(report, "schedule");
    long long page = json_integer_value(json_object_get(first, "page_size"));
    char size[32], threads[96], name[256], what[4096];

    /* from a file (an experiment, a report from elsewhere): printed as a terminal may show it */
    snprintf(name, sizeof name, "%s", sb_field_text_or(exp, "name", "?"));
    snprintf(what, sizeof what, "%s", sb_field_text_or(exp, "description", ""));
    sb_text_printable(name, sizeof name);
    sb_text_printable(what, sizeof what);
    fprintf(out, "scanbench %s: %s\n", name, what);
    if (!first)
        return;
    fprintf(out, "table %s (%lld pages of %lld bytes, %lld rows each), source %s%s%s; %lld "
            "rounds, %s, after %lld warm-up\n",
            sb_format_size((uint64_t)json_integer_value(json_object_get(first, "table_size")),
                           size, sizeof size),
            (long long)(json_integer_value(json_object_get(first, "table_size")) /
                        (page ? page : 1)),
            page, (long long)json_integer_value(json_object_get(first, "rows_per_page")),
            sb_field_text_or(first, "source", "?"),
            json_is_true(json_object_get(first, "bigtable")) ? " (bigtable)" : "",
            scanners_note(runs, threads, sizeof threads),
            (long long)json_array_size(json_object_get(first, "repetitions")),
            sb_field_text_or(schedule, "kind", "blocked"),
            (long long)json_integer_value(json_object_get(first, "warmup")));
    contention_line(out, schedule);
    fputc('\n', out);
}

int sb_render_table(FILE *out, const json_t *given)
{
    const json_t *runs = json_object_get(given, "runs");
    static struct grid g;
    json_t *report;
    bool columns;

    if (!json_is_array(runs))
        return -1;
    /* a report read from a file may lack its analysis: made here (schema 1: it says why not) */
    report = json_object_get(given, "analysis") ? json_incref((json_t *)given)
                                                : json_copy((json_t *)given);
    if (!report)
        return -1;
    if (!json_object_get(report, "analysis"))
        json_object_set_new(report, "analysis", sb_analysis_build(report));
    grid_fill(runs, &g);
    columns = g.ncols <= 3 && g.dropped == 0;
    heading(out, report, runs);
    if (columns)
        columns_table(out, report, &g);
    else
        rows_table(out, report, runs);
    sb_table_footer(out, report, columns ? g.ncols > 1 : json_array_size(runs) > 1);
    sb_table_knees(out, report);
    sb_table_writeback(out, runs);
    sb_table_predictions(out, runs);
    sb_table_counters(out, runs);
    sb_table_statements(out, runs);
    sb_table_fit(out, report);
    json_decref(report);
    return 0;
}

