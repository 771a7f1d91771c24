/* SPDX-License-Identifier: BSD-3-Clause */
/* table_notes.c: the lines under the run table (see table_notes.h). */
#include "config.h"
#include "render/table_notes.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "render/table_labels.h"
#include "report/report.h"
#include "vocab/vocab.h"

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
void sb_table_writeback(FILE *out, const json_t *runs)
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

/* Each sweep's knee (the clock policy over pools, a ring over ring sizes), as the analysis says
 * it (with its interval, or "no clear knee"). */
void sb_table_knees(FILE *out, const json_t *report)
{
    const json_t *knees = sb_field(report, "analysis.knees");
    size_t i;
    json_t *k;

    if (json_array_size(knees))
        fprintf(out, "knees (sweeps over the footprint: pool sizes of the clock policy, ring "
                     "sizes of the ring):\n");
    json_array_foreach(knees, i, k)
        fprintf(out, "  %s\n", sb_field_text_or(k, "text", "?"));
}

/* Each inconclusive comparison, with its ratio and interval and the smallest difference that
 * interval could have resolved. */
static void undecided_lines(FILE *out, const json_t *report)
{
    const json_t *analysis = json_object_get(report, "analysis");
    /* what more rounds take: none past the most a report holds; else more time */
    const char *more = strcmp(sb_field_text(report, "schedule.stopped_by"), "max_rounds") == 0
                           ? "the most a report holds; a quieter host narrows it"
                           : "more time: --set time_budget=S";
    char la[SB_TABLE_LABEL_LEN], lb[SB_TABLE_LABEL_LEN], ratio[64];
    size_t i;
    json_t *c;
    struct sb_table_varying vary;

    sb_table_varying_of(json_object_get(report, "runs"), &vary);
    json_array_foreach(json_object_get(analysis, "comparisons"), i, c) {
        const struct sb_op *op = sb_op_find(sb_field_text_or(c, "op", ""));
        const json_t *resolvable = json_object_get(c, "resolvable");
        if (strcmp(sb_field_text_or(c, "call", ""), "inconclusive") != 0 ||
            !json_is_number(resolvable) || sb_level_call(c, NULL, NULL))
            continue;
        fprintf(out, "\"?\" %s, %s / %s: %s: this run could have resolved a difference of "
                     "%.1f%% (%lld rounds, %s)\n",
                op ? op->label : "?", sb_table_side_label(report, &vary, c, "a", la, sizeof la),
                sb_table_side_label(report, &vary, c, "b", lb, sizeof lb),
                sb_comparison_ratio_text(c, ratio, sizeof ratio),
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
    char la[SB_TABLE_LABEL_LEN], lb[SB_TABLE_LABEL_LEN];
    size_t i;
    json_t *c;
    struct sb_table_varying vary;

    sb_table_varying_of(json_object_get(report, "runs"), &vary);
    json_array_foreach(json_object_get(analysis, "comparisons"), i, c) {
        const struct sb_op *op = sb_op_find(sb_field_text_or(c, "op", ""));
        const json_t *h = json_object_get(c, "host_level");
        const json_t *from[3] = {json_object_get(h, "quiet"), json_object_get(h, "busy"), h};
        double v[9]; /* quiet, busy: ratio, lo, hi; rho, lo, hi */
        char calls[2][24] = {"", ""};
        if (!json_is_true(json_object_get(h, "depends")))
            continue;
        for (int k = 0; k < 9; k++)
            v[k] = sb_field_number(from[k / 3], k == 6 ? "rho" : keys[k % 3]);
        /* each third's call (reports before schema 4 have none) */
        for (int t = 0; t < 2; t++)
            if (json_is_string(json_object_get(from[t], "call")))
                snprintf(calls[t], sizeof calls[t], " %s",
                         sb_field_text_or(from[t], "call", ""));
        fprintf(out, "  %s %s / %s depends on the host's level: %.2fx [%.2f, %.2f]%s when quiet, "
                     "%.2fx [%.2f, %.2f]%s when busy (rho %.2f [%.2f, %.2f], %lld rounds)\n",
                op ? op->label : "?", sb_table_side_label(report, &vary, c, "a", la, sizeof la),
                sb_table_side_label(report, &vary, c, "b", lb, sizeof lb), v[0], v[1], v[2],
                calls[0], v[3], v[4], v[5], calls[1], v[6], v[7], v[8],
                (long long)json_integer_value(json_object_get(h, "rounds")));
    }
}

/* Key layout: how many layouts the rounds ran on, and each run the layouts moved by more than
 * the threshold (reports from before layouts: nothing). */
static void layout_lines(FILE *out, const json_t *report)
{
    const json_t *layout = sb_field(report, "schedule.layout"), *analysis;
    const json_t *delta = sb_field(report, "analysis.noise.delta");
    char label[SB_TABLE_LABEL_LEN];
    struct sb_table_varying vary;
    size_t i;
    json_t *run;

    if (!json_is_object(layout))
        return;
    analysis = json_object_get(report, "analysis");
    if (!json_is_integer(json_object_get(layout, "rounds_per_layout")) &&
        strcmp(sb_field_text(layout, "kind"), "fixed") != 0)
        fprintf(out, "layouts: one per run (schedule blocked: no draws, no reference)\n");
    else if (strcmp(sb_field_text(layout, "kind"), "fixed") == 0)
        fprintf(out, "layouts: fixed, one allocation per run (the reference's apart): the "
                     "intervals see the rounds' noise, not what separates two allocations\n");
    else
        fprintf(out, "layouts: %lld (%s, drawn anew every %lld rounds, %.1f s of draws): the "
                     "intervals resample them, then the rounds within each\n",
                (long long)json_integer_value(json_object_get(layout, "layouts")),
                sb_field_text(layout, "kind"),
                (long long)json_integer_value(json_object_get(layout, "rounds_per_layout")),
                sb_field_number(layout, "draws_seconds"));
    sb_table_varying_of(json_object_get(report, "runs"), &vary);
    json_array_foreach(json_object_get(report, "runs"), i, run) {
        const json_t *a = sb_analysis_run(analysis, run);
        const json_t *spread = json_object_get(a, "layout_spread");
        const struct sb_op *op = sb_op_find(sb_field_text_or(run, "op", ""));
        if (!json_is_number(spread) || !json_is_number(delta) ||
            json_number_value(spread) <= json_number_value(delta))
            continue;
        sb_table_label(&vary, run, label, sizeof label);
        fprintf(out, "  layouts moved %s %s by %.1f%% (two sigma between its %lld layouts, the "
                     "host's drift and the rounds' noise taken out)\n", op ? op->label : "?",
                label,
                100.0 * json_number_value(spread),
                (long long)json_integer_value(json_object_get(a, "layouts")));
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

void sb_table_footer(FILE *out, const json_t *report, bool ratios)
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
        fprintf(out, "noise floor %.1f%% (%s)\n", 100.0 * json_number_value(floor),
                json_is_array(sb_field(report, "schedule.reference.layouts"))
                    ? "the first run against a second instance of it, allocated apart"
                    : "the first run timed twice per round");
    layout_lines(out, report);
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
void sb_table_statements(FILE *out, const json_t *runs)
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
