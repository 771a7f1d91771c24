/* SPDX-License-Identifier: BSD-3-Clause */
/* compare.c: pairing runs across reports and testing their differences. */
#include "config.h"
#include "report/compare.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/analysis.h"
#include "report/compare_effects.h"
#include "report/runs.h"
#include "stats/stats.h"
#include "report/field.h"

/* The parameters that make two runs the same experiment. */
static const char *const match_keys[] = {"source", "policy", "footprint", "pool_size",
                                         "ring_size", "table_size", "page_size", "row_width",
                                         "dead_pct", "kernel", "op", "threads", NULL};

static const char *const derived_keys[] = {"l2_miss_per_page", "l2_writeback_per_page",
                                           "mem_read_bytes_per_table_byte",
                                           "mem_write_bytes_per_table_byte", NULL};

/* Parameters reports before them lack: a run without one had it false. */
static const char *const optional_keys[] = {"bigtable", "shared_table", "shared_pool", NULL};

/* Parameters reports before issue 18 (writeback, hint_bits) and issue 28 (executor) lack, and
 * the value a run without one had (its checkpoint_pages and writeback_kernel were null: no
 * write-back). */
static const struct {
    const char *key, *before;
} optional_words[] = {{"writeback", "none"}, {"hint_bits", "set"}, {"executor", "minimal"},
                      {NULL, NULL}};
static const char *const optional_or_null[] = {"checkpoint_pages", "writeback_kernel", NULL};

static const char *word_or(const json_t *run, const char *key, const char *before)
{
    const json_t *v = json_object_get(run, key);
    return json_is_string(v) ? json_string_value(v) : before;
}

static bool same_parameters(const json_t *a, const json_t *b)
{
    for (int k = 0; match_keys[k]; k++)
        if (!json_equal(json_object_get(a, match_keys[k]), json_object_get(b, match_keys[k])))
            return false;
    for (int k = 0; optional_keys[k]; k++)
        if (json_is_true(json_object_get(a, optional_keys[k])) !=
            json_is_true(json_object_get(b, optional_keys[k])))
            return false;
    for (int k = 0; optional_words[k].key; k++)
        if (strcmp(word_or(a, optional_words[k].key, optional_words[k].before),
                   word_or(b, optional_words[k].key, optional_words[k].before)) != 0)
            return false;
    /* extra_copy: reports before it lack it (0) */
    if (json_number_value(json_object_get(a, "extra_copy")) !=
        json_number_value(json_object_get(b, "extra_copy")))
        return false;
    for (int k = 0; optional_or_null[k]; k++) {
        const json_t *x = json_object_get(a, optional_or_null[k]);
        const json_t *y = json_object_get(b, optional_or_null[k]);
        if (!json_equal(x ? x : json_null(), y ? y : json_null()))
            return false;
    }
    return true;
}

static json_t *parameters(const json_t *run)
{
    json_t *p = json_object();
    for (int k = 0; match_keys[k]; k++)
        json_object_set(p, match_keys[k], json_object_get(run, match_keys[k]));
    return p;
}

static json_t *counter_differences(const json_t *a, const json_t *b)
{
    const json_t *da = sb_field(a, "counters.derived");
    const json_t *db = sb_field(b, "counters.derived");
    json_t *out = json_object();

    for (int k = 0; derived_keys[k]; k++) {
        const json_t *va = json_object_get(da, derived_keys[k]);
        const json_t *vb = json_object_get(db, derived_keys[k]);
        if (!json_is_number(va) && !json_is_number(vb))
            continue;
        json_object_set_new(out, derived_keys[k],
                            json_pack("{s:O, s:O, s:o}", "a", va ? va : json_null(), "b",
                                      vb ? vb : json_null(), "difference",
                                      json_is_number(va) && json_is_number(vb)
                                          ? json_real(json_number_value(vb) -
                                                      json_number_value(va))
                                          : json_null()));
    }
    return out;
}

/* A number the JSON document can hold, else null (a ratio of two far-apart medians may pass
 * the largest double). */
static json_t *finite_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *string_or_null(const json_t *v)
{
    return json_is_string(v) ? json_incref((json_t *)v) : json_null();
}

static json_t *number_or_null(const json_t *v)
{
    return json_is_number(v) ? json_incref((json_t *)v) : json_null();
}

/* The call on an unpaired interval of X/A, as the paired ones are made (estimate.h). */
static const char *unpaired_call(double lo, double hi, double delta)
{
    struct sb_paired e = {.lo = lo, .hi = hi};

    if (isnan(lo) || isnan(hi))
        return "inconclusive";
    return sb_call_names[sb_paired_call(&e, delta)];
}

/* The pages of a run's timed slices; null: whole passes (or a report before slice_ms). */
static json_t *slice_pages(const json_t *run)
{
    return number_or_null(sb_field(run, "slice.pages"));
}

/* How many layouts a side's timed scans ran on, or null when its scans name none (a report
 * from before layouts). */
static json_t *layouts_or_null(const uint32_t *layouts, size_t n)
{
    return layouts ? json_integer((json_int_t)sb_layouts_count(layouts, NULL, n)) : json_null();
}

/* Medians, their ratio with its unpaired interval (two-stage on a side whose scans name
 * layouts) and call, and the test. A side without repetitions has no test: p and the interval
 * are null, and the pair is not significant. */
static json_t *pair(const json_t *a, const json_t *b, size_t report_b, size_t k, double delta)
{
    size_t na, nb;
    double *va = sb_run_mbps_samples(a, &na), *vb = sb_run_mbps_samples(b, &nb);
    uint32_t *ga = sb_run_mbps_layouts(a, na), *gb = sb_run_mbps_layouts(b, nb);
    double ma = sb_run_median_mbps(a), mb = sb_run_median_mbps(b), ratio, lo = NAN, hi = NAN;
    struct sb_mann_whitney mw = {0.0, 1.0, false};
    bool tested = va && vb && na && nb;
    json_t *p;

    if (tested) {
        mw = sb_mann_whitney(vb, nb, va, na);
        sb_unpaired_estimate_layouts(va, ga, na, vb, gb, nb, SB_CONFIDENCE,
                                     SB_BOOTSTRAP_RESAMPLES, SB_BOOTSTRAP_SEED + k, &ratio, &lo,
                                     &hi);
    }
    p = json_pack("{s:o, s:{s:s, s:f}, s:{s:I, s:s, s:f}, s:o, s:[o, o], s:s, s:o, s:b, s:b, "
                  "s:o}",
                  "parameters", parameters(a),
                  "a", "name", json_string_value(json_object_get(a, "name")), "median", ma,
                  "b", "report", (json_int_t)report_b, "name",
                  json_string_value(json_object_get(b, "name")), "median", mb,
                  "ratio", finite_or_null(mb / ma), "interval", finite_or_null(lo),
                  finite_or_null(hi), "call", unpaired_call(lo, hi, delta),
                  "p", tested ? json_real(mw.p) : json_null(),
                  "exact", mw.exact, "significant", tested && mw.p < SB_COMPARE_ALPHA,
                  "counters", counter_differences(a, b));
    json_object_set_new(p, "slice_pages",
                        json_pack("{s:o, s:o}", "a", slice_pages(a), "b", slice_pages(b)));
    json_object_set_new(p, "layouts", json_pack("{s:o, s:o}", "a", layouts_or_null(ga, na), "b",
                                                layouts_or_null(gb, nb)));
    free(va);
    free(vb);
    free(ga);
    free(gb);
    return p;
}

/* The comparisons of a report whose per-round ratio depends on the host's level, each as
 * "op b_placement / a_placement", with its thirds' calls where it is called by the level (a
 * report before the level has none). */
static json_t *level_dependent(const json_t *report)
{
    const json_t *c;
    json_t *list = json_array();
    size_t i;

    json_array_foreach(sb_field(report, "analysis.comparisons"), i, c) {
        char buf[224], calls[64] = "";
        const char *quiet, *busy;
        if (!json_is_true(sb_field(c, "host_level.depends")))
            continue;
        if (sb_level_call(c, &quiet, &busy))
            snprintf(calls, sizeof calls, " (%s when quiet, %s when busy)", quiet, busy);
        snprintf(buf, sizeof buf, "%s %s / %s%s", sb_field_text_or(c, "op", "?"),
                 sb_field_text_or(c, "a_placement", "?"), sb_field_text_or(c, "b_placement", "?"),
                 calls);
        json_array_append_new(list, json_string(buf));
    }
    return list;
}

/* The report's file (bytes that are not UTF-8, as a file name may have, written as \xNN), its
 * host, and how its rounds went: noise floor, rounds, the aggressor beside them (null: a report
 * before the key contention) and the comparisons that depend on the host's level. */
static json_t *report_summary(const json_t *report, const char *path)
{
    const json_t *ctx = json_object_get(report, "context");
    const json_t *schedule = json_object_get(report, "schedule");
    char *name = sb_utf8_escape(path);
    json_t *summary = json_pack(
        "{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "path", name ? name : "?", "host",
        string_or_null(json_object_get(ctx, "host")), "cpu_model",
        string_or_null(json_object_get(ctx, "cpu_model")), "date",
        string_or_null(json_object_get(ctx, "date")), "noise_floor",
        number_or_null(sb_report_noise_floor(report)),
        "rounds", number_or_null(json_object_get(schedule, "rounds")), "contention",
        string_or_null(sb_field(schedule, "contention.kind")),
        "level_dependent", level_dependent(report));
    free(name);
    return summary;
}

/* A derived counter figure, or "n/a" when that report could not read it. */
static const char *figure(const json_t *v, char *buf, size_t len)
{
    if (!json_is_number(v))
        return "n/a";
    snprintf(buf, len, "%.3f", json_number_value(v));
    return buf;
}

/* v in width characters with decimals places, in %g form when it would be wider (a report may
 * hold 1e308 MB/s), or "n/a" when v is not a number. */
static const char *column(const json_t *v, int width, int decimals, char *buf, size_t len)
{
    double x = json_number_value(v);

    if (!json_is_number(v))
        snprintf(buf, len, "%*s", width, "n/a");
    else if (snprintf(buf, len, "%*.*f", width, decimals, x) > width)
        snprintf(buf, len, "%*.*g", width, width - 6 > 1 ? width - 6 : 1, x);
    return buf;
}

/* The threshold of the calls: max(2%, the highest noise floor the reports' analyses found). */
static double compare_delta(json_t *const *reports, size_t n)
{
    double floor = NAN;

    for (size_t r = 0; r < n; r++) {
        const json_t *f = sb_report_noise_floor(reports[r]);
        if (f && !(json_number_value(f) <= floor))
            floor = json_number_value(f);
    }
    return sb_delta(floor);
}

/* doc with its "effects" (compare_effects.h) and how to read them; NULL when out of memory. */
static json_t *with_effects(json_t *doc, json_t *const *reports, size_t n)
{
    json_t *effects = sb_compare_effects(reports, n);

    if (!doc || !effects || json_object_set_new(doc, "effects", effects) != 0 ||
        json_object_set_new(doc, "effects_how",
                            json_string("each report's own comparisons (its analysis."
                                        "comparisons, what its run table shows): a / b paired "
                                        "by round within that report, exp(median of ln(a/b)) "
                                        "with its interval at that report's Bonferroni level "
                                        "and its call against that report's delta; a row per "
                                        "comparison, matched across the reports by its op and "
                                        "its two sides, a cell per report (null: the report "
                                        "made no such comparison)")) != 0) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

json_t *sb_compare_build(json_t *const *reports, const char *const *paths, size_t n)
{
    const double delta = compare_delta(reports, n);
    json_t *doc = json_pack("{s:s, s:i, s:f, s:s, s:s, s:f, s:[], s:[], s:[]}", "schema",
                            "scanbench-compare", "schema_version", 2, "alpha", SB_COMPARE_ALPHA,
                            "test", "Mann-Whitney U, two-sided, over the timed repetitions' MB/s",
                            "interval", "X/A: the ratio of the medians, its 95% interval from "
                            "resampling each report's scans apart (runs of two invocations share "
                            "no rounds, so nothing pairs them; the interval does not cover the "
                            "host's drift between them), in two stages where a report's scans "
                            "name layouts (pairs[].layouts): its layouts, then the scans within "
                            "each, the percentiles widened for the fewer layouts of the two "
                            "sides; the call as a report's: beyond delta faster or slower, "
                            "inside it the same", "delta", delta,
                            "reports", "pairs", "unmatched");
    json_t *list = json_object_get(doc, "reports"), *pairs = json_object_get(doc, "pairs");
    json_t *unmatched = json_object_get(doc, "unmatched");
    const json_t *base = json_object_get(reports[0], "runs");
    bool *base_used = calloc(json_array_size(base) + 1, sizeof *base_used);

    for (size_t r = 0; r < n; r++)
        json_array_append_new(list, report_summary(reports[r], paths[r]));
    for (size_t r = 1; r < n && base_used; r++) {
        const json_t *runs = json_object_get(reports[r], "runs");
        bool *used = calloc(json_array_size(runs) + 1, sizeof *used);
        size_t i, j;
        json_t *a, *b;

        if (!used)
            break;
        json_array_foreach(base, i, a) {
            bool found = false;
            json_array_foreach(runs, j, b) {
                if (used[j] || !same_parameters(a, b))
                    continue;
                used[j] = base_used[i] = found = true;
                json_array_append_new(pairs, pair(a, b, r, json_array_size(pairs), delta));
                break;
            }
        }
        json_array_foreach(runs, j, b) if (!used[j]) json_array_append_new(
            unmatched, json_pack("{s:I, s:O}", "report", (json_int_t)r, "name",
                                 json_object_get(b, "name")));
        free(used);
    }
    if (base_used) {
        size_t i;
        json_t *a;
        json_array_foreach(base, i, a) if (!base_used[i]) json_array_append_new(
            unmatched, json_pack("{s:i, s:O}", "report", 0, "name", json_object_get(a, "name")));
    }
    free(base_used);
    return with_effects(doc, reports, n);
}

/* Text read from a report as a terminal may show it: control characters and bytes that are not
 * UTF-8 as \xNN (a host name or a run's name may hold an escape sequence). */
#define SHOWN_LEN 512
static const char *shown(const char *text, char buf[SHOWN_LEN])
{
    snprintf(buf, SHOWN_LEN, "%s", text);
    sb_text_printable(buf, SHOWN_LEN);
    return buf;
}

static char call_mark(const char *call)
{
    return strcmp(call, "faster") == 0 ? '+' : strcmp(call, "slower") == 0 ? '-'
           : strcmp(call, "same") == 0 ? '=' : '?';
}

/* "op placement [in pool] kernel table size", e.g. "count ring 64KB in 256KB memcpy table 1MB". */
static void label(const json_t *params, char *buf, size_t len)
{
    char placement[64], pool[32], table[32];
    bool ring = strcmp(sb_field_text_or(params, "policy", "?"), "ring") == 0;

    sb_run_placement(params, placement, sizeof placement);
    snprintf(buf, len, "%s %s%s%s %s table %s", sb_field_text_or(params, "op", "?"), placement,
             ring ? " in " : "",
             ring ? sb_format_size((uint64_t)json_integer_value(json_object_get(params,
                                   "pool_size")), pool, sizeof pool) : "",
             sb_field_text_or(params, "kernel", "?"),
             sb_format_size((uint64_t)json_integer_value(json_object_get(params, "table_size")),
                            table, sizeof table));
}

/* A note under a pair whose sides timed different units: slices of the table in one report,
 * whole passes in the other (their MB/s are alike; their spread is not). */
static void units_note(FILE *out, const json_t *slice_pages)
{
    const json_t *a = json_object_get(slice_pages, "a"), *b = json_object_get(slice_pages, "b");

    if (json_is_number(a) == json_is_number(b))
        return;
    fprintf(out, "    timed units: A %s, X %s\n", json_is_number(a) ? "slices" : "whole passes",
            json_is_number(b) ? "slices" : "whole passes");
}

/* One matched pair's row (medians, ratio, its interval, p, significance) and its counters'
 * figures. */
static void pair_row(FILE *out, const json_t *v)
{
    char name[160];
    const json_t *counters = json_object_get(v, "counters");
    const char *key;
    json_t *c;

    char ma[64], mb[64], ratio[64], p[64], lo[64], hi[64], interval[160];
    const json_t *iv = json_object_get(v, "interval");

    label(json_object_get(v, "parameters"), name, sizeof name);
    sb_text_printable(name, sizeof name);
    snprintf(interval, sizeof interval, "[%s, %s] %c",
             column(json_array_get(iv, 0), 5, 3, lo, sizeof lo),
             column(json_array_get(iv, 1), 5, 3, hi, sizeof hi),
             call_mark(sb_field_text_or(v, "call", "?")));
    fprintf(out, "%-52s %3c: %s %s %s %16s %s %s\n", name,
            (int)('A' + json_integer_value(sb_field(v, "b.report"))),
            column(sb_field(v, "a.median"), 10, 0, ma, sizeof ma),
            column(sb_field(v, "b.median"), 10, 0, mb, sizeof mb),
            column(json_object_get(v, "ratio"), 7, 3, ratio, sizeof ratio), interval,
            column(json_object_get(v, "p"), 8, 4, p, sizeof p),
            json_is_true(json_object_get(v, "significant")) ? "*" : "~");
    units_note(out, json_object_get(v, "slice_pages"));
    json_object_foreach((json_t *)counters, key, c) {
        char fa[32], fb[32];
        fprintf(out, "    %-40s A %s  X %s\n", key, figure(json_object_get(c, "a"), fa, sizeof fa),
                figure(json_object_get(c, "b"), fb, sizeof fb));
    }
}

/* Whether a pair's interval resampled layouts: a side whose scans ran on 2 layouts or more. */
static bool layouts_resampled(const json_t *pair)
{
    return json_integer_value(sb_field(pair, "layouts.a")) >= 2 ||
           json_integer_value(sb_field(pair, "layouts.b")) >= 2;
}

/* How to read the table: medians, the ratio and its interval, the calls, the test; a note when
 * an interval resampled layouts (only then: reports from before layouts read as they did), and
 * one when a pair has no p. */
static void compare_legend(FILE *out, const json_t *doc)
{
    size_t i;
    json_t *v;

    fprintf(out, "\nMB/s medians; X/A = ratio of medians, its 95%% interval resampling each "
                 "report apart\n(no rounds pair the runs of two invocations: the interval does "
                 "not cover the host's drift\nbetween them): \"+\" faster, \"-\" slower, \"=\" "
                 "the same within %.1f%%, \"?\" inconclusive;\np: %s;\n\"*\" significant at "
                 "p < %.2f, \"~\" not.\n",
            100.0 * json_number_value(json_object_get(doc, "delta")),
            json_string_value(json_object_get(doc, "test")), SB_COMPARE_ALPHA);
    json_array_foreach(json_object_get(doc, "pairs"), i, v) {
        if (layouts_resampled(v)) {
            fprintf(out, "where a report's scans name layouts, the interval resamples them, then "
                         "the scans within\neach, widened for the fewer layouts of the two "
                         "sides.\n");
            break;
        }
    }
    json_array_foreach(json_object_get(doc, "pairs"), i, v) {
        if (json_is_null(json_object_get(v, "p"))) {
            fprintf(out, "p n/a: a run without repetitions has nothing to test.\n");
            break;
        }
    }
}

/* How a report's rounds went, where it says: "    48 rounds, noise floor 2.2%, contention
 * none; depends on the host's level: count ring 256KB / clock 16MB". */
static void rounds_line(FILE *out, const json_t *summary)
{
    const json_t *rounds = json_object_get(summary, "rounds");
    const json_t *floor = json_object_get(summary, "noise_floor");
    const json_t *contention = json_object_get(summary, "contention");
    const json_t *dependent = json_object_get(summary, "level_dependent"), *d;
    char buf[SHOWN_LEN];
    size_t i;

    if (!json_is_number(rounds) && !json_is_number(floor) && !json_is_string(contention))
        return;
    fprintf(out, "    ");
    if (json_is_number(rounds))
        fprintf(out, "%.0f rounds", json_number_value(rounds));
    if (json_is_number(floor))
        fprintf(out, "%snoise floor %.1f%%", json_is_number(rounds) ? ", " : "",
                100.0 * json_number_value(floor));
    if (json_is_string(contention))
        fprintf(out, "%scontention %s",
                json_is_number(rounds) || json_is_number(floor) ? ", " : "",
                shown(json_string_value(contention), buf));
    json_array_foreach(dependent, i, d)
        fprintf(out, "%s%s", i ? ", " : "; depends on the host's level: ",
                shown(sb_text(d), buf));
    fprintf(out, "\n");
}

/* A note when the reports ran beside different aggressors (key contention): their ratios hold
 * that difference too. A report before the key says nothing and is left out. */
static void contention_note(FILE *out, const json_t *reports)
{
    const char *first = NULL;
    const json_t *v;
    size_t i;

    json_array_foreach(reports, i, v) {
        const json_t *c = json_object_get(v, "contention");
        if (!json_is_string(c))
            continue;
        if (!first)
            first = json_string_value(c);
        else if (strcmp(first, json_string_value(c)) != 0) {
            fprintf(out, "the reports ran beside different aggressors (contention): X/A holds "
                         "that difference as well as the hosts'\n");
            return;
        }
    }
}

void sb_compare_render(FILE *out, const json_t *doc)
{
    const json_t *reports = json_object_get(doc, "reports");
    char name[SHOWN_LEN];
    size_t i;
    json_t *v;

    json_array_foreach(reports, i, v) {
        char path[SHOWN_LEN], host[SHOWN_LEN], cpu[SHOWN_LEN], date[SHOWN_LEN];
        fprintf(out, "%c = %s (host %s, %s, %s)\n", (int)('A' + i),
                shown(sb_field_text_or(v, "path", "?"), path),
                shown(sb_field_text_or(v, "host", "?"), host),
                shown(sb_field_text_or(v, "cpu_model", "?"), cpu),
                shown(sb_field_text_or(v, "date", "?"), date));
        rounds_line(out, v);
    }
    contention_note(out, reports);
    fprintf(out, "\n%-52s %4s %10s %10s %7s %16s %8s\n", "run (op policy footprint kernel "
            "table)", "vs", "A MB/s", "X MB/s", "X/A", "[95% interval]", "p");
    json_array_foreach(json_object_get(doc, "pairs"), i, v)
        pair_row(out, v);
    if (json_array_size(json_object_get(doc, "unmatched")))
        fprintf(out, "\nruns with no partner:\n");
    json_array_foreach(json_object_get(doc, "unmatched"), i, v)
        fprintf(out, "  %c: %s\n", (int)('A' + json_integer_value(json_object_get(v, "report"))),
                shown(sb_field_text_or(v, "name", "?"), name));
    compare_legend(out, doc);
    sb_compare_effects_render(out, doc);
}
