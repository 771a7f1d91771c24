/* render.c: the thread-style MB/s table, read from a report. */
#include "config.h"
#include "render/render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/report.h"
#include "vocab/vocab.h"

#define MAX_COLS 32
#define MAX_ROWS 16
#define LABEL_LEN 96

/* Keys that, when they differ between runs, become part of the column label. */
static const char *const distinguishing[] = {"executor", "kernel", "table_size", "page_size", "row_width",
                                            "source", "bigtable", "dead_pct", "threads",
                                            "shared_table", "shared_pool", "seed", "writeback",
                                            "checkpoint_pages", "writeback_kernel", "hint_bits",
                                            "extra_copy", NULL};

static bool key_varies(const json_t *runs, const char *key)
{
    const json_t *first = json_object_get(json_array_get(runs, 0), key);
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const json_t *v = json_object_get(run, key);
        if ((v || first) && !json_equal(v, first)) /* absent in every run: not varying */
            return true;
    }
    return false;
}

/* The cache model a simulated run used, as a label: "x4500", "x4500+prefetch"; "" if none. */
static const char *model_tag(const json_t *run, char *buf, size_t len)
{
    const json_t *machine = sb_field(run, "counters.machine");

    snprintf(buf, len, "%s%s", sb_field_text_or(machine, "name", ""),
             json_is_true(json_object_get(machine, "prefetch")) ? "+prefetch" : "");
    return buf;
}

static bool model_varies(const json_t *runs)
{
    char first[96], other[96];
    size_t i;
    json_t *run;

    model_tag(json_array_get(runs, 0), first, sizeof first);
    json_array_foreach(runs, i, run) if (strcmp(model_tag(run, other, sizeof other), first) != 0)
        return true;
    return false;
}

/* Whether the runs asked for different slice_ms (a report before the key has none). */
static bool slice_varies(const json_t *runs)
{
    const json_t *first = json_object_get(json_object_get(json_array_get(runs, 0), "slice"),
                                          "asked_ms");
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const json_t *v = sb_field(run, "slice.asked_ms");
        if (json_number_value(v) != json_number_value(first))
            return true;
    }
    return false;
}

#define N_DISTINGUISHING (sizeof distinguishing / sizeof *distinguishing - 1)

/* What tells a report's runs apart, found once per table (each label asked every run: a sweep
 * of 4000 runs spent 80 s labelling its columns). */
struct varying {
    bool pool_size, key[N_DISTINGUISHING], slice, model;
};

static void varying_of(const json_t *runs, struct varying *v)
{
    v->pool_size = key_varies(runs, "pool_size");
    for (size_t k = 0; k < N_DISTINGUISHING; k++)
        v->key[k] = key_varies(runs, distinguishing[k]);
    v->slice = slice_varies(runs);
    v->model = model_varies(runs);
}

static void column_label(const struct varying *vary, const json_t *run, char *label, size_t len)
{
    char size[32];
    const char *policy = json_string_value(json_object_get(run, "policy"));
    uint64_t footprint = (uint64_t)json_integer_value(json_object_get(run, "footprint"));
    size_t used = (size_t)snprintf(label, len, "%s %s", policy ? policy : "?",
                                   sb_format_size(footprint, size, sizeof size));

    /* a ring inside pools of several sizes: say which pool */
    if (strcmp(policy ? policy : "", "ring") == 0 && vary->pool_size && used < len)
        used += (size_t)snprintf(label + used, len - used, " in %s",
                                 sb_format_size((uint64_t)json_integer_value(
                                                    json_object_get(run, "pool_size")),
                                                size, sizeof size));
    for (int k = 0; distinguishing[k] && used < len; k++) {
        const json_t *v = json_object_get(run, distinguishing[k]);
        if (!vary->key[k] || json_is_null(v))
            continue;
        if (json_is_string(v))
            used += (size_t)snprintf(label + used, len - used, " %s", json_string_value(v));
        else if (json_is_boolean(v))
            used += (size_t)snprintf(label + used, len - used, " %s=%s", distinguishing[k],
                                     json_is_true(v) ? "yes" : "no");
        else if (strstr(distinguishing[k], "size"))
            used += (size_t)snprintf(label + used, len - used, " %s=%s", distinguishing[k],
                                     sb_format_size((uint64_t)json_integer_value(v), size,
                                                    sizeof size));
        else if (json_is_real(v))
            used += (size_t)snprintf(label + used, len - used, " %s=%g", distinguishing[k],
                                     json_real_value(v));
        else
            used += (size_t)snprintf(label + used, len - used, " %s=%lld", distinguishing[k],
                                     (long long)json_integer_value(v));
    }
    /* a sweep of slice_ms: say which */
    if (used < len && vary->slice)
        used += (size_t)snprintf(label + used, len - used, " slice_ms=%g",
                                 json_number_value(json_object_get(json_object_get(run, "slice"),
                                                                   "asked_ms")));
    /* runs simulated with different machine models: say which */
    if (used < len && vary->model)
        used += (size_t)snprintf(label + used, len - used, " %s",
                                 model_tag(run, size, sizeof size));
}

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
                 key_varies(runs, "shared_table")    ? ""
                 : shared_table || threads == 1       ? "one table, "
                                                      : "own tables, ",
                 key_varies(runs, "shared_pool") ? "" : shared_pool ? "one shared pool" :
                                                                      "own pools",
                 key_varies(runs, "shared_pool") ? "" : "; ", "");
    return buf;
}

static int find_or_add(char names[][LABEL_LEN], int *n, int max, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    if (*n == max)
        return -1;
    snprintf(names[*n], LABEL_LEN, "%s", name);
    return (*n)++;
}

/* The accuracy check (runner/record.c): one line for all runs when every checked run agrees, else a
 * line for each run whose counter-derived memory bytes disagree with the bytes moved. */
static void accuracy_lines(FILE *out, const json_t *runs)
{
    size_t i, checked = 0, disagree = 0;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const json_t *accuracy = sb_field(run, "counters.accuracy");
        const json_t *tolerance = json_object_get(accuracy, "tolerance");
        bool low = json_is_true(json_object_get(accuracy, "lower_bound_applies"));

        if (!json_is_true(json_object_get(accuracy, "checked")))
            continue;
        checked++;
        if (json_is_true(json_object_get(accuracy, "ok")))
            continue;
        disagree++;
        fprintf(out, "accuracy: %s: memory bytes measured/expected %.2f: DISAGREE (tolerance "
                "%.2f..%.2f%s)\n", sb_field_text_or(run, "name", "?"),
                json_number_value(json_object_get(accuracy, "ratio")),
                low ? json_number_value(json_array_get(tolerance, 0)) : 0.0,
                json_number_value(json_array_get(tolerance, 1)),
                low ? "" : "; no lower bound: the table fits in the last-level cache");
    }
    if (checked && !disagree)
        fprintf(out, "accuracy: memory bytes from the counters agree with the bytes each scan "
                     "moved, within tolerance, in all %zu runs (see doc/counters.md)\n", checked);
}

/* "sim, ok, simulated: x4500 ..." or "papi, unavailable: why": what a run's counters were. */
static void counters_summary(const json_t *run, char *buf, size_t len)
{
    const json_t *counters = json_object_get(run, "counters");
    bool simulated = json_is_true(json_object_get(counters, "simulated"));

    snprintf(buf, len, "%s, %s%s%s%s%s", sb_field_text_or(counters, "backend", "?"),
             sb_field_text_or(counters, "status", "?"),
             json_is_string(json_object_get(counters, "reason")) ? ": " : "",
             sb_field_text_or(counters, "reason", ""),
             simulated ? ", simulated: " : "",
             simulated ? sb_field_text_or(counters, "model", "?") : "");
}

/* The derived counter figures the counters table shows, their headings and formats. */
static const struct {
    const char *key, *head, *format;
} counter_cols[] = {
    {"l2_miss_per_page", "L2 miss/page", " | %12.2f"},
    {"l2_writeback_per_page", "L2 wb/page", " | %12.2f"},
    {"mem_read_bytes_per_table_byte", "mem read B/B", " | %12.3f"},
    {"mem_write_bytes_per_table_byte", "mem write B/B", " | %13.3f"},
};
#define N_COUNTER_COLS (sizeof counter_cols / sizeof counter_cols[0])

/* The width of counter column c (the last heading is one wider). */
static int counter_col_width(size_t c)
{
    return c == 3 ? 13 : 12;
}

/* Whether a run's counters gave any of the table's figures. */
static bool has_counter_figures(const json_t *run)
{
    const json_t *derived = sb_field(run, "counters.derived");
    bool any = false;

    for (size_t c = 0; c < N_COUNTER_COLS; c++)
        any |= json_is_number(json_object_get(derived, counter_cols[c].key));
    return any;
}

/* Where the figures of the runs that have them come from: the first such run's source, newly
 * allocated (NULL when none has figures or on no memory); *uniform says whether all say the
 * same, *all_simulated whether all are simulated. */
static char *counters_source(const json_t *runs, bool *uniform, bool *all_simulated)
{
    char *source = NULL;
    size_t i;
    json_t *run;

    *uniform = *all_simulated = true;
    json_array_foreach(runs, i, run) {
        const json_t *counters = json_object_get(run, "counters");
        char here[320];

        if (!has_counter_figures(run))
            continue;
        if (json_is_true(json_object_get(counters, "simulated"))) {
            snprintf(here, sizeof here, "simulated: %s",
                     sb_field_text_or(counters, "model", "?"));
        } else {
            snprintf(here, sizeof here, "measured: %s",
                     sb_field_text_or(counters, "backend", "?"));
            *all_simulated = false;
        }
        if (!source) {
            if (!(source = strdup(here)))
                return NULL;
        } else if (strcmp(source, here) != 0) {
            *uniform = false;
        }
    }
    return source;
}

/* The table's figures of derived (a run's `counters.derived`, or a phase's); "-" where
 * missing. */
static void counter_cells(FILE *out, const json_t *derived)
{
    for (size_t c = 0; c < N_COUNTER_COLS; c++) {
        const json_t *v = json_object_get(derived, counter_cols[c].key);
        if (json_is_number(v))
            fprintf(out, counter_cols[c].format, json_number_value(v));
        else
            fprintf(out, " | %*s", counter_col_width(c), "-");
    }
}

/* Under a run whose counters were split by phase (the cache model): a row per phase. */
static void phase_rows(FILE *out, const json_t *run, int width)
{
    if (!sb_run_has_phases(run))
        return;
    for (int p = 0; p < SB_REPORT_NPHASES; p++) {
        fprintf(out, "  %-*s", width - 2, sb_report_phase_labels[p]);
        counter_cells(out, sb_run_phase_derived(run, p));
        fprintf(out, "\n");
    }
}

/* One run's row: op and label, its figures ("-" where missing) and, when the runs' sources
 * differ, its own. */
static void counters_row(FILE *out, const struct varying *vary, const json_t *run, int width,
                         bool uniform)
{
    const json_t *counters = json_object_get(run, "counters");
    const json_t *derived = json_object_get(counters, "derived");
    const struct sb_op *op = sb_op_find(sb_field_text_or(run, "op", ""));
    char label[LABEL_LEN], row[2 * LABEL_LEN];

    column_label(vary, run, label, sizeof label);
    snprintf(row, sizeof row, "%-16s %s", op ? op->label : "?", label);
    fprintf(out, "%-*s", width, row);
    counter_cells(out, derived);
    if (!uniform)
        fprintf(out, " | %s %s", json_is_true(json_object_get(counters, "simulated"))
                                     ? "simulated:" : "measured:",
                json_is_true(json_object_get(counters, "simulated"))
                    ? sb_field_text_or(counters, "machine.name", "?")
                    : sb_field_text_or(counters, "backend", "?"));
    fprintf(out, "\n");
}

/* Under the MB/s table, when any run's counters gave figures: one row per run with the
 * figures derived per page and per table byte (runner/record.c), titled with where they come from:
 * "simulated: <model>" (the cache model, counters=sim) or "measured: <backend>"; a row says
 * its own source when the runs differ. */
static void counters_table(FILE *out, const json_t *runs)
{
    bool uniform, all_simulated;
    char *source = counters_source(runs, &uniform, &all_simulated);
    bool any_phases = false;
    int width = 16;
    size_t i;
    json_t *run;
    struct varying vary;

    if (!source)
        return;
    varying_of(runs, &vary);
    json_array_foreach(runs, i, run) {
        char label[LABEL_LEN];
        column_label(&vary, run, label, sizeof label);
        if ((int)strlen(label) + 17 > width)
            width = (int)strlen(label) + 17;
    }
    fprintf(out, "\nCounters per scan (%s)\n%-*s", uniform ? source
            : all_simulated ? "simulated: each row's machine model"
                            : "simulated or measured: see each row", width, "Run");
    for (size_t c = 0; c < N_COUNTER_COLS; c++)
        fprintf(out, " | %*s", counter_col_width(c), counter_cols[c].head);
    fprintf(out, "\n");
    json_array_foreach(runs, i, run) {
        if (!has_counter_figures(run))
            continue;
        counters_row(out, &vary, run, width, uniform);
        phase_rows(out, run, width);
        any_phases |= sb_run_has_phases(run);
    }
    fprintf(out, "per page scanned: L2 misses, L2 write-backs; per table byte: memory bytes read "
                 "and written (medians of the timed scans)\n");
    if (any_phases)
        fprintf(out, "%s\n", sb_report_phases_legend);
    free(source);
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
    char cols[MAX_COLS][LABEL_LEN], rows[MAX_ROWS][LABEL_LEN];
    const json_t *cell[MAX_ROWS][MAX_COLS];
    int ncols, nrows, dropped;
};

static void grid_fill(const json_t *runs, struct grid *g)
{
    json_t *run;
    size_t i;
    struct varying vary;

    memset(g, 0, sizeof *g);
    varying_of(runs, &vary);
    json_array_foreach(runs, i, run) {
        char label[LABEL_LEN];
        const char *op = json_string_value(json_object_get(run, "op"));
        int r, c;
        column_label(&vary, run, label, sizeof label);
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
    struct varying vary;

    varying_of(runs, &vary);
    json_array_foreach(runs, i, run) {
        char label[LABEL_LEN];
        column_label(&vary, run, label, sizeof label);
        if ((int)strlen(label) > width)
            width = (int)strlen(label);
    }
    fprintf(out, "%-16s | %-*s | %22s | %24s\n", "Operation", width, "Configuration",
            "MB/s [95% interval]", "ratio to the first");
    json_array_foreach(runs, i, run) {
        const struct sb_op *op = sb_op_find(sb_field_text_or(run, "op", ""));
        const json_t *cmp = sb_analysis_comparison(json_object_get(report, "analysis"), run);
        char label[LABEL_LEN];
        column_label(&vary, run, label, sizeof label);
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
    char size[32], threads[96];

    fprintf(out, "scanbench %s: %s\n", sb_field_text_or(exp, "name", "?"),
            sb_field_text_or(exp, "description", ""));
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

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The median over a run's timed scans of one of their integers (0 when none). */
static uint64_t scans_median(const json_t *run, const char *key)
{
    const json_t *scans = json_object_get(run, "scans");
    size_t n = json_array_size(scans), i;
    uint64_t *v = calloc(n ? n : 1, sizeof *v), median;
    json_t *scan;

    if (!v)
        return 0;
    json_array_foreach(scans, i, scan)
        v[i] = (uint64_t)json_integer_value(json_object_get(scan, key));
    qsort(v, n, sizeof *v, by_value);
    median = n ? v[n / 2] : 0;
    free(v);
    return median;
}

/* The write-back of each run that wrote back (issue 18): pages written back per timed scan and
 * the bytes copied each way (medians over the timed scans). Reports before it: nothing. */
static void writeback_lines(FILE *out, const json_t *runs)
{
    bool any = false;
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const char *mode = sb_field_text_or(run, "writeback", "none");
        char in[32], back[32];
        if (strcmp(mode, "none") == 0)
            continue;
        if (!any)
            fprintf(out, "\nWrite-back per timed scan (medians; MB/s counts table bytes only)\n");
        any = true;
        fprintf(out, "  %s: writeback %s, kernel %s, hint bits %s: %llu pages written back at "
                "eviction, %llu by checkpoints; %s copied in, %s written back\n",
                sb_field_text_or(run, "name", "?"), mode,
                sb_field_text_or(run, "writeback_kernel", "?"),
                sb_field_text_or(run, "hint_bits", "?"),
                (unsigned long long)scans_median(run, "written_evict"),
                (unsigned long long)scans_median(run, "written_checkpoint"),
                sb_format_size(scans_median(run, "bytes_copied_in"), in, sizeof in),
                sb_format_size(scans_median(run, "bytes_written_back"), back, sizeof back));
    }
}

static double number_or(const json_t *v, double fallback)
{
    return json_is_number(v) ? json_number_value(v) : fallback;
}

/* Issue 19: each run's predicted MB/s on the machine it emulates (runs[].predicted), labelled
 * predicted, beside the MB/s measured on this host; the time by phase; the calibration, or why
 * there is no prediction. Runs without the block: nothing. */
static void prediction_line(FILE *out, const json_t *run, const json_t *p)
{
    const json_t *sec = json_object_get(p, "seconds_per_scan");
    const json_t *cal = json_object_get(p, "calibration");
    double measured = number_or(sb_field(run, "mbps.median"), 0);

    fprintf(out, "  %s: ", sb_field_text_or(run, "name", "?"));
    if (json_is_number(json_object_get(p, "mbps")))
        fprintf(out, "predicted %.0f MB/s on %s, measured %.0f MB/s here",
                number_or(json_object_get(p, "mbps"), 0),
                sb_field_text_or(p, "machine", "?"), measured);
    else
        fprintf(out, "not predicted on %s (%s); measured %.0f MB/s here",
                sb_field_text_or(p, "machine", "?"),
                sb_field_text_or(p, "reason", "?"), measured);
    if (json_is_object(sec))
        fprintf(out, "\n    predicted seconds a scan: copy-in %.4g, op %.4g, write-back %.4g, "
                     "op CPU %s",
                number_or(json_object_get(sec, "copy_in"), 0),
                number_or(json_object_get(sec, "op"), 0),
                number_or(json_object_get(sec, "writeback"), 0),
                json_is_number(json_object_get(sec, "cpu")) ? "" : "none");
    if (json_is_number(json_object_get(sec, "cpu")))
        fprintf(out, "%.4g", json_number_value(json_object_get(sec, "cpu")));
    if (json_is_object(cal))
        fprintf(out, "; core factor %.3g fitted to \"%s\" (%s)%s",
                number_or(json_object_get(cal, "factor"), 0),
                sb_field_text_or(cal, "figure", "?"),
                sb_field_text_or(cal, "experiment", "?"),
                json_is_true(json_object_get(cal, "this_run"))
                    ? ": this run is the calibration, not a prediction" : "");
    fprintf(out, "\n");
}

static void prediction_lines(FILE *out, const json_t *runs)
{
    bool any = false;
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const json_t *p = json_object_get(run, "predicted");
        if (!json_is_object(p))
            continue;
        if (!any)
            fprintf(out, "\nPredicted MB/s on the emulated machine (its cache model and [costs], "
                         "the time model of doc/cache-model.md; measured = this host)\n");
        any = true;
        prediction_line(out, run, p);
    }
}

/* Each clock sweep's knee, as the analysis says it (with its interval, or "no clear knee"). */
static void knee_lines(FILE *out, const json_t *report)
{
    const json_t *knees = sb_field(report, "analysis.knees");
    size_t i;
    json_t *k;

    if (json_array_size(knees))
        fprintf(out, "knees (pool-size sweeps of the clock policy):\n");
    json_array_foreach(knees, i, k)
        fprintf(out, "  %s\n", sb_field_text_or(k, "text", "?"));
}

/* A comparison's side ("a" or "b") as its column is labelled (the placement, and the swept
 * keys that tell the runs apart), else its placement. */
static const char *side_label(const json_t *report, const struct varying *vary,
                              const json_t *c, const char *side, char *buf, size_t len)
{
    const json_t *runs = json_object_get(report, "runs"), *run;
    const char *name = sb_text_or(json_object_get(c, side), "");
    size_t i;

    json_array_foreach(runs, i, run) {
        if (strcmp(sb_field_text_or(run, "name", ""), name) == 0) {
            column_label(vary, run, buf, len);
            return buf;
        }
    }
    snprintf(buf, len, "%s", sb_text_or(json_object_get(c, strcmp(side, "a") == 0 ? "a_placement"
                                                                            : "b_placement"),
                                    "?"));
    return buf;
}

/* Each inconclusive comparison, with the smallest difference its interval could have resolved. */
static void undecided_lines(FILE *out, const json_t *report)
{
    const json_t *analysis = json_object_get(report, "analysis");
    /* what more rounds take: none past the most a report holds; else more time */
    const char *more = strcmp(sb_text_or(json_object_get(json_object_get(report, "schedule"),
                                                     "stopped_by"), ""), "max_rounds") == 0
                           ? "the most a report holds; a quieter host narrows it"
                           : "more time: --set time_budget=S";
    char la[LABEL_LEN], lb[LABEL_LEN];
    size_t i;
    json_t *c;
    struct varying vary;

    varying_of(json_object_get(report, "runs"), &vary);
    json_array_foreach(json_object_get(analysis, "comparisons"), i, c) {
        const struct sb_op *op = sb_op_find(sb_field_text_or(c, "op", ""));
        const json_t *resolvable = json_object_get(c, "resolvable");
        if (strcmp(sb_field_text_or(c, "call", ""), "inconclusive") != 0 ||
            !json_is_number(resolvable) || sb_level_call(c, NULL, NULL))
            continue;
        fprintf(out, "\"?\" %s, %s / %s: this run could have resolved a difference of %.1f%% "
                     "(%lld rounds, %s)\n",
                op ? op->label : "?", side_label(report, &vary, c, "a", la, sizeof la),
                side_label(report, &vary, c, "b", lb, sizeof lb),
                100.0 * json_number_value(resolvable),
                (long long)json_integer_value(json_object_get(c, "rounds")), more);
    }
}

/* Each comparison whose per-round ratio follows the host's level (its host_level depends): the
 * ratio in the quietest and the busiest thirds of the rounds. */
static void host_level_lines(FILE *out, const json_t *report)
{
    const json_t *analysis = json_object_get(report, "analysis");
    static const char *const keys[] = {"ratio", "lo", "hi"};
    char la[LABEL_LEN], lb[LABEL_LEN];
    size_t i;
    json_t *c;
    struct varying vary;

    varying_of(json_object_get(report, "runs"), &vary);
    json_array_foreach(json_object_get(analysis, "comparisons"), i, c) {
        const struct sb_op *op = sb_op_find(sb_field_text_or(c, "op", ""));
        const json_t *h = json_object_get(c, "host_level");
        const json_t *from[3] = {json_object_get(h, "quiet"), json_object_get(h, "busy"), h};
        double v[9]; /* quiet, busy: ratio, lo, hi; rho, lo, hi */
        char calls[2][24] = {"", ""};
        if (!json_is_true(json_object_get(h, "depends")))
            continue;
        for (int k = 0; k < 9; k++)
            v[k] = number_or(json_object_get(from[k / 3], k == 6 ? "rho" : keys[k % 3]), NAN);
        /* each third's call (reports before schema 4 have none) */
        for (int t = 0; t < 2; t++)
            if (json_is_string(json_object_get(from[t], "call")))
                snprintf(calls[t], sizeof calls[t], " %s",
                         sb_field_text_or(from[t], "call", ""));
        fprintf(out, "  %s %s / %s depends on the host's level: %.2fx [%.2f, %.2f]%s when quiet, "
                     "%.2fx [%.2f, %.2f]%s when busy (rho %.2f [%.2f, %.2f], %lld rounds)\n",
                op ? op->label : "?", side_label(report, &vary, c, "a", la, sizeof la),
                side_label(report, &vary, c, "b", lb, sizeof lb), v[0], v[1], v[2], calls[0], v[3],
                v[4], v[5], calls[1], v[6], v[7], v[8],
                (long long)json_integer_value(json_object_get(h, "rounds")));
    }
}

/* Whether any run of the report timed slices of its table rather than whole passes. */
static bool any_sliced(const json_t *report)
{
    const json_t *run;
    size_t i;

    json_array_foreach(json_object_get(report, "runs"), i, run)
        if (json_is_integer(sb_field(run, "slice.pages")))
            return true;
    return false;
}

/* Key slice_ms: how many runs timed slices of the table, and why the others made whole passes. */
static void slices_line(FILE *out, const json_t *report)
{
    const json_t *runs = json_object_get(report, "runs"), *run;
    size_t i, sliced = 0, whole = 0;
    double asked = 0;
    const char *why = NULL;

    json_array_foreach(runs, i, run) {
        const json_t *slice = json_object_get(run, "slice");
        if (json_is_integer(json_object_get(slice, "pages"))) {
            sliced++;
            asked = json_number_value(json_object_get(slice, "asked_ms"));
        } else if (json_is_string(json_object_get(slice, "whole_passes_because"))) {
            whole++;
            why = json_string_value(json_object_get(slice, "whole_passes_because"));
        }
    }
    if (sliced)
        fprintf(out, "timed scans: %s%zu run%s slices of the table of about %.0f ms, each "
                     "after an untimed pass over the pages before it",
                sliced == json_array_size(runs) && sliced > 1 ? "all " : "", sliced,
                sliced == 1 ? " times" : "s time", asked);
    if (sliced && whole)
        fprintf(out, "; %zu whole passes (%s)", whole, why);
    else if (whole)
        fprintf(out, "timed scans: whole passes (%s)", why);
    if (sliced || whole)
        fprintf(out, "\n");
}

static void footer(FILE *out, const json_t *report, bool ratios)
{
    const json_t *analysis = json_object_get(report, "analysis");
    const json_t *noise = json_object_get(analysis, "noise");
    const json_t *floor = json_object_get(noise, "floor");

    fprintf(out, "\nMB/s = table bytes scanned (page_size bytes per page, every page once per "
                 "pass%s) / seconds / 10^6;\nthe median of the timed scans (one per round) [the "
                 "95%% bootstrap interval of the median]",
            any_sliced(report) ? " or slice" : "");
    if (ratios && json_is_number(json_object_get(noise, "delta")))
        fprintf(out, ";\nratio: paired by round, exp(median of ln(a/b)) [95%% interval, "
                     "Bonferroni]: \"+\" faster, \"-\" slower, \"=\" the same within "
                     "%.1f%%, \"?\" inconclusive%s",
                100.0 * json_number_value(json_object_get(noise, "delta")),
                sb_any_level_call(json_object_get(analysis, "comparisons"))
                    ? ";\n\"-/+\": inconclusive overall, called when the host is quiet / when "
                      "it is busy (the ratio follows its level: below)"
                    : "");
    else if (ratios)
        fprintf(out, ";\nno ratios: %s",
                sb_text_or(json_object_get(analysis, "why"),
                       "the report has no analysis"));
    fprintf(out, ".\n");
    slices_line(out, report);
    if (json_is_number(floor))
        fprintf(out, "noise floor %.1f%% (the first run timed twice per round)\n",
                100.0 * json_number_value(floor));
    if (json_is_true(json_object_get(noise, "too_noisy")))
        fprintf(out, "a noisy host (warning): identical configurations could differ by up to "
                "%.1f%% at these rounds (the A-A pair's bound)\n",
                100.0 * json_number_value(sb_report_noise_bound(report)));
    if (ratios)
        undecided_lines(out, report);
    if (ratios)
        host_level_lines(out, report);
}

/* key statements: each run's sequence, a line per statement (runs without one: nothing). */
static void statements_lines(FILE *out, const json_t *runs)
{
    size_t i, j;
    json_t *run, *st;

    json_array_foreach(runs, i, run) {
        const json_t *list = json_object_get(run, "statements");
        if (!json_array_size(list))
            continue;
        fprintf(out, "statements of %s, in order (the earlier untimed before each timed scan; "
                     "buffers of the last timed scan's last pass):\n",
                sb_field_text_or(run, "name", "?"));
        json_array_foreach(list, j, st) {
            const json_t *visits = json_object_get(st, "buffers_visited_per_page");
            const json_t *footprint = json_object_get(st, "footprint_buffers");
            fprintf(out, "  %zu. %-7s %s", j + 1, sb_field_text_or(st, "op", "?"),
                    sb_field_text_or(st, "shape", "buffers not recorded"));
            if (json_is_integer(footprint))
                fprintf(out, ", %lld buffer%s written", (long long)json_integer_value(footprint),
                        json_integer_value(footprint) == 1 ? "" : "s");
            if (json_is_number(visits))
                fprintf(out, ", %.2f buffers visited per page", json_number_value(visits));
            fprintf(out, "%s\n", json_is_true(json_object_get(st, "measured")) ? " (measured)"
                                                                               : "");
        }
    }
}

/* A fit row's placement as the tables label its run (the kernel, executor or other swept key
 * that tells it apart from the rest), else the fit's own placement. */
static void fit_row_label(const json_t *report, const struct varying *vary, const json_t *r,
                          char *buf, size_t len)
{
    const json_t *run = sb_find_run_named(json_object_get(report, "runs"),
                                          sb_field_text_or(r, "name", ""));

    if (run)
        column_label(vary, run, buf, len);
    else
        snprintf(buf, len, "%s", sb_field_text_or(r, "placement", "?"));
}

/* The host's fit (report/fit.h): each run's predicted against measured MB/s, the median error,
 * the rank correlation and the sentence. A report without its "fit" gets one made here. */
static void fit_lines(FILE *out, const json_t *report)
{
    json_t *fit = json_incref(json_object_get(report, "fit"));
    const json_t *rho, *error;
    struct varying vary;
    char label[160];
    int width = 22;
    size_t i;
    json_t *r;

    if (!fit)
        fit = sb_fit_build(report);
    if (!fit)
        return;
    varying_of(json_object_get(report, "runs"), &vary);
    json_array_foreach(json_object_get(fit, "runs"), i, r) {
        fit_row_label(report, &vary, r, label, sizeof label);
        width = (int)strlen(label) > width ? (int)strlen(label) : width;
    }
    rho = json_object_get(fit, "spearman");
    error = json_object_get(fit, "median_abs_error");
    fprintf(out, "\nfit on this host: predicted MB/s (the time model, machine %s) against "
            "measured\n  %-8s %-*s %-8s %10s %10s %8s\n", sb_field_text_or(fit, "machine", "?"),
            "op", width, "placement", "resident", "measured", "predicted", "error");
    json_array_foreach(json_object_get(fit, "runs"), i, r) {
        fit_row_label(report, &vary, r, label, sizeof label);
        fprintf(out, "  %-8s %-*s %-8s %10.0f %10.0f %+7.0f%%\n",
                sb_field_text_or(r, "op", "?"), width, label,
                sb_field_text_or(r, "resident", "?"),
                json_number_value(json_object_get(r, "measured_mbps")),
                json_number_value(json_object_get(r, "predicted_mbps")),
                100 * json_number_value(json_object_get(r, "error")));
    }
    fprintf(out, "  median |error| ");
    fprintf(out, json_is_number(error) ? "%.0f%%" : "n/a", 100 * json_number_value(error));
    fprintf(out, ", Spearman rank correlation ");
    fprintf(out, json_is_number(rho) ? "%.2f" : "n/a", json_number_value(rho));
    fprintf(out, " over %lld runs\n%s\n", (long long)json_integer_value(json_object_get(fit, "n")),
            sb_field_text_or(fit, "text", ""));
    json_decref(fit);
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
    footer(out, report, columns ? g.ncols > 1 : json_array_size(runs) > 1);
    knee_lines(out, report);
    writeback_lines(out, runs);
    prediction_lines(out, runs);
    counters_table(out, runs);
    /* One line for the counters when every run has the same; else one line per run. */
    {
        char first[512], here[512];
        bool uniform = true;
        size_t i;
        json_t *run;
        json_array_foreach(runs, i, run) {
            counters_summary(run, i ? here : first, sizeof first);
            uniform &= i == 0 || strcmp(first, here) == 0;
        }
        if (uniform && json_array_size(runs))
            fprintf(out, "counters: %s\n", first);
        else
            json_array_foreach(runs, i, run) {
                counters_summary(run, here, sizeof here);
                fprintf(out, "counters of %s: %s\n", sb_field_text_or(run, "name", "?"),
                        here);
            }
    }
    accuracy_lines(out, runs);
    statements_lines(out, runs);
    fit_lines(out, report);
    json_decref(report);
    return 0;
}
