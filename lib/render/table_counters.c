/* SPDX-License-Identifier: BSD-3-Clause */
/* table_counters.c: the run table's counters (see table_counters.h). */
#include "config.h"
#include "render/table_counters.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "render/table_labels.h"
#include "report/report.h"
#include "vocab/vocab.h"

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
static void counters_row(FILE *out, const struct sb_table_varying *vary, const json_t *run,
                         int width, bool uniform)
{
    const json_t *counters = json_object_get(run, "counters");
    const json_t *derived = json_object_get(counters, "derived");
    const struct sb_op *op = sb_op_find(sb_field_text_or(run, "op", ""));
    char label[SB_TABLE_LABEL_LEN], row[2 * SB_TABLE_LABEL_LEN];

    sb_table_label(vary, run, label, sizeof label);
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
    struct sb_table_varying vary;

    if (!source)
        return;
    sb_table_varying_of(runs, &vary);
    json_array_foreach(runs, i, run) {
        char label[SB_TABLE_LABEL_LEN];
        sb_table_label(&vary, run, label, sizeof label);
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

/* One line for the counters when every run has the same; else one line per run. */
static void summary_lines(FILE *out, const json_t *runs)
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

void sb_table_counters(FILE *out, const json_t *runs)
{
    counters_table(out, runs);
    summary_lines(out, runs);
    accuracy_lines(out, runs);
}
