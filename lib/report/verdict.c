/* SPDX-License-Identifier: BSD-3-Clause */
/* verdict.c: comparing the slow and fast placements of a reproduced experiment. */
#include "config.h"
#include "report/verdict.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/analysis.h"
#include "report/runs.h"
#include "vocab/vocab.h"
#include "report/field.h"

/* A counter figure must fall by more than this share to count as lowered. */
#define SB_VERDICT_MIN_CHANGE 0.02

const json_t *sb_find_thread_figure(const json_t *thread, const char *op,
                                    const char *placement)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(thread, "figures"), i, f)
        if (strcmp(sb_field_text(f, "op"), op) == 0 &&
            strcmp(sb_field_text(f, "placement"), placement) == 0)
            return f;
    return NULL;
}

/* A figure of derived (a run's `counters.derived` or a phase's): key's value, plus key2's when
 * given (memory bytes read + written); NaN when missing. */
static double figure(const json_t *derived, const char *key, const char *key2)
{
    const json_t *a = json_object_get(derived, key), *b = key2 ? json_object_get(derived, key2)
                                                               : NULL;

    if (!json_is_number(a) || (key2 && !json_is_number(b)))
        return NAN;
    return json_number_value(a) + (key2 ? json_number_value(b) : 0.0);
}

/* The phases, largest change (fast - slow, in absolute value) first. */
static void order_by_change(const double *slow, const double *fast, int *order)
{
    for (int p = 0; p < SB_REPORT_NPHASES; p++)
        order[p] = p;
    for (int i = 1; i < SB_REPORT_NPHASES; i++)
        for (int j = i; j > 0 && fabs(fast[order[j]] - slow[order[j]]) >
                                     fabs(fast[order[j - 1]] - slow[order[j - 1]]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* Which phase carries a figure's change from the slow run to the fast one, when both runs'
 * counters were split by phase (the cache model): the phase whose change is the largest in
 * absolute value, or the two largest when none has more than half of the phases' changes
 * together. Writes ", of which write-back phase 64.0 -> 0.0" (each value in fmt) into part
 * ("" when no phase changed) and returns {"slow": {phase: value}, "fast": ..., "carried_by":
 * [phase...]}; NULL (part "") when a run has no phases or a phase lacks the figure. */
static json_t *phase_share(const json_t *slow, const json_t *fast, const char *key,
                           const char *key2, const char *fmt, char *part, size_t len)
{
    double a[SB_REPORT_NPHASES], b[SB_REPORT_NPHASES], total = 0.0;
    int order[SB_REPORT_NPHASES], named;
    json_t *sv = json_object(), *fv = json_object(), *carried = json_array();
    size_t used = 0;

    part[0] = '\0';
    for (int p = 0; p < SB_REPORT_NPHASES; p++) {
        a[p] = figure(sb_run_phase_derived(slow, p), key, key2);
        b[p] = figure(sb_run_phase_derived(fast, p), key, key2);
        total += fabs(b[p] - a[p]);
        json_object_set_new(sv, sb_report_phase_keys[p], json_real(a[p]));
        json_object_set_new(fv, sb_report_phase_keys[p], json_real(b[p]));
    }
    if (isnan(total)) { /* a run without phases, or a phase without the figure */
        json_decref(sv);
        json_decref(fv);
        json_decref(carried);
        return NULL;
    }
    order_by_change(a, b, order);
    named = total <= 0.0 ? 0 : fabs(b[order[0]] - a[order[0]]) > total / 2 ? 1 : 2;
    for (int k = 0; k < named && used < len; k++) {
        char as[32], bs[32];
        int p = order[k];
        snprintf(as, sizeof as, fmt, a[p]);
        snprintf(bs, sizeof bs, fmt, b[p]);
        used += (size_t)snprintf(part + used, len - used, "%s %s phase %s -> %s",
                                 k ? " and" : ", of which", sb_report_phase_labels[p], as, bs);
        json_array_append_new(carried, json_string(sb_report_phase_keys[p]));
    }
    return json_pack("{s:o, s:o, s:o}", "slow", sv, "fast", fv, "carried_by", carried);
}

/* The evidence when the slow run's counters (cs) have neither figure: why, in sentence. */
static json_t *no_counter_evidence(const json_t *cs, char *sentence, size_t len)
{
    const char *why = json_is_string(json_object_get(cs, "reason"))
                          ? sb_field_text(cs, "reason")
                          : sb_field_text(cs, "status");

    if (strcmp(sb_field_text(cs, "backend"), "none") == 0)
        snprintf(sentence, len, "No counters were used (counters=none): nothing says why.");
    else
        snprintf(sentence, len, "The counters needed (L2 write-backs, memory bytes) are not "
                 "available: %s: %s.", sb_field_text(cs, "backend"), why);
    return json_pack("{s:b, s:s}", "available", 0, "reason", sentence);
}

/* Counter evidence: derived figures of both runs, and whether fast lowered them. */
static json_t *counter_evidence(const json_t *slow, const json_t *fast, char *sentence,
                                size_t len)
{
    const json_t *cs = json_object_get(slow, "counters"), *cf = json_object_get(fast, "counters");
    const json_t *ds = json_object_get(cs, "derived"), *df = json_object_get(cf, "derived");
    const json_t *wbs = json_object_get(ds, "l2_writeback_per_page");
    const json_t *wbf = json_object_get(df, "l2_writeback_per_page");
    const json_t *rs = json_object_get(ds, "mem_read_bytes_per_table_byte");
    const json_t *rf = json_object_get(df, "mem_read_bytes_per_table_byte");
    const json_t *ws = json_object_get(ds, "mem_write_bytes_per_table_byte");
    const json_t *wf = json_object_get(df, "mem_write_bytes_per_table_byte");
    bool have_wb = json_is_number(wbs) && json_is_number(wbf);
    bool have_mem = json_is_number(rs) && json_is_number(rf) && json_is_number(ws) &&
                    json_is_number(wf);
    const char *label = json_is_true(json_object_get(cs, "simulated")) ? "simulated" : "measured";
    json_t *ev, *phases;

    if (!have_wb && !have_mem)
        return no_counter_evidence(cs, sentence, len);
    ev = json_pack("{s:b, s:s, s:O, s:O, s:O, s:O}", "available", 1, "kind", label,
                   "backend", json_object_get(cs, "backend"), "model",
                   json_object_get(cs, "model"), "slow", ds, "fast", df);
    phases = json_object();
    sentence[0] = '\0';
    if (have_wb) {
        double a = json_number_value(wbs), b = json_number_value(wbf);
        bool fewer = b < a * (1.0 - SB_VERDICT_MIN_CHANGE);
        char part[160];
        json_t *share = phase_share(slow, fast, "l2_writeback_per_page", NULL, "%.1f", part,
                                    sizeof part);
        json_object_set_new(ev, "writebacks_lowered", json_boolean(fewer));
        if (share)
            json_object_set_new(phases, "l2_writeback_per_page", share);
        snprintf(sentence, len, "L2 write-backs per page %.1f -> %.1f (%s)%s: %s. ", a, b, label,
                 part, fewer ? "fewer, as the hypothesis says"
                             : "not fewer (within 2%), against the hypothesis");
    }
    if (have_mem) {
        double a = json_number_value(rs) + json_number_value(ws);
        double b = json_number_value(rf) + json_number_value(wf);
        size_t used = strlen(sentence);
        bool less = b < a * (1.0 - SB_VERDICT_MIN_CHANGE);
        char part[160];
        json_t *share = phase_share(slow, fast, "mem_read_bytes_per_table_byte",
                                    "mem_write_bytes_per_table_byte", "%.2f", part, sizeof part);
        json_object_set_new(ev, "memory_traffic_lowered", json_boolean(less));
        if (share)
            json_object_set_new(phases, "mem_bytes_per_table_byte", share);
        snprintf(sentence + used, len - used, "Memory bytes per table byte %.2f -> %.2f (%s)%s: "
                 "%s.", a, b, label, part, less ? "less traffic" : "no less traffic (within 2%)");
    }
    if (json_object_size(phases))
        json_object_set_new(ev, "phases", phases);
    else
        json_decref(phases);
    return ev;
}

/* One op's slow/fast comparison: the analysis' paired estimate, the thread's ratio, the
 * counters' evidence, in one sentence. */
static json_t *comparison(const json_t *report, const json_t *cmp)
{
    const json_t *runs = json_object_get(report, "runs"), *thread = json_object_get(report,
                                                                                    "thread");
    const char *op = sb_field_text(cmp, "op");
    const char *slow_p = sb_field_text(cmp, "b_placement");
    const char *fast_p = sb_field_text(cmp, "a_placement");
    const json_t *slow = sb_find_run(runs, op, slow_p), *fast = sb_find_run(runs, op, fast_p);
    const json_t *ts = sb_find_thread_figure(thread, op, slow_p);
    const json_t *tf = sb_find_thread_figure(thread, op, fast_p);
    const struct sb_op *o = sb_op_find(op);
    const json_t *ratio = json_object_get(cmp, "ratio");
    double thread_ratio = NAN;
    char counters_text[768], sentence[1408], thread_part[96] = "", here[96] = "n/a";
    json_t *evidence;

    if (json_is_number(json_object_get(ts, "mbps")) && json_is_number(json_object_get(tf, "mbps")))
        thread_ratio = json_number_value(json_object_get(tf, "mbps")) /
                       json_number_value(json_object_get(ts, "mbps"));
    if (!isnan(thread_ratio))
        snprintf(thread_part, sizeof thread_part, "; the thread saw %.2fx", thread_ratio);
    if (json_is_number(ratio))
        snprintf(here, sizeof here, "%.2fx [%.2f, %.2f]", json_number_value(ratio),
                 json_number_value(json_object_get(cmp, "lo")),
                 json_number_value(json_object_get(cmp, "hi")));
    evidence = counter_evidence(slow, fast, counters_text, sizeof counters_text);
    snprintf(sentence, sizeof sentence, "%s: the L2-confined placement (%s) ran %s the scattered "
             "one (%s) here: %s%s. %s", o ? o->label : op, fast_p, here, slow_p,
             sb_field_text(cmp, "text"), thread_part, counters_text);
    return json_pack("{s:s, s:{s:s, s:s, s:f}, s:{s:s, s:s, s:f}, s:O*, s:O*, s:O*, s:O*, "
                     "s:O*, s:O*, s:o, s:o, s:s}",
                     "op", op, "slow", "placement", slow_p, "run",
                     sb_field_text(slow, "name"), "median", sb_run_median_mbps(slow),
                     "fast", "placement", fast_p, "run", sb_field_text(fast, "name"),
                     "median", sb_run_median_mbps(fast), "ratio_here", ratio, "lo",
                     json_object_get(cmp, "lo"), "hi", json_object_get(cmp, "hi"), "call",
                     json_object_get(cmp, "call"), "level_call",
                     json_object_get(cmp, "level_call"), "wilcoxon_p",
                     json_object_get(cmp, "wilcoxon_p"), "ratio_thread",
                     isnan(thread_ratio) ? json_null() : json_real(thread_ratio), "counters",
                     evidence, "text", sentence);
}

/* The thread's pair at this host's scale (thread.scaled): the paired ratio, its call, and the
 * two placements, in one sentence. */
static json_t *scaled_comparison(const json_t *cmp)
{
    const struct sb_op *o = sb_op_find(sb_field_text(cmp, "op"));
    const char *fast = sb_field_text(cmp, "a_placement");
    const char *slow = sb_field_text(cmp, "b_placement");
    char sentence[512], here[96] = "n/a";

    if (json_is_number(json_object_get(cmp, "ratio")))
        snprintf(here, sizeof here, "%.2fx [%.2f, %.2f]",
                 json_number_value(json_object_get(cmp, "ratio")),
                 json_number_value(json_object_get(cmp, "lo")),
                 json_number_value(json_object_get(cmp, "hi")));
    snprintf(sentence, sizeof sentence, "%s, scaled to this host: %s ran %s %s: %s.",
             o ? o->label : sb_field_text(cmp, "op"), fast, here, slow,
             sb_field_text(cmp, "text"));
    return json_pack("{s:O, s:s, s:s, s:O*, s:O*, s:O*, s:O*, s:O*, s:s}", "op",
                     json_object_get(cmp, "op"), "fast", fast, "slow", slow, "ratio_here",
                     json_object_get(cmp, "ratio"), "lo", json_object_get(cmp, "lo"), "hi",
                     json_object_get(cmp, "hi"), "call", json_object_get(cmp, "call"),
                     "level_call", json_object_get(cmp, "level_call"), "text", sentence);
}

json_t *sb_verdict_build(const json_t *report, const json_t *analysis)
{
    json_t *list = json_array(), *scaled = json_array(), *cmp, *verdict;
    /* faster, same, slower, called by the host's level, inconclusive (or an older report's
     * withheld) */
    int tally[5] = {0, 0, 0, 0, 0};
    size_t i;

    json_array_foreach(json_object_get(analysis, "comparisons"), i, cmp) {
        const char *call = sb_field_text(cmp, "call");
        if (strcmp(sb_field_text(cmp, "pair"), "scaled") == 0) {
            json_array_append_new(scaled, scaled_comparison(cmp));
            continue;
        }
        tally[strcmp(call, "faster") == 0 ? 0 : strcmp(call, "same") == 0 ? 1
              : strcmp(call, "slower") == 0 ? 2 : sb_level_call(cmp, NULL, NULL) ? 3 : 4]++;
        json_array_append_new(list, comparison(report, cmp));
    }
    verdict = json_pack("{s:o, s:O*, s:O*, s:i, s:i, s:i, s:i, s:i, s:i}", "comparisons", list,
                        "knees", json_object_get(analysis, "knees"), "noise",
                        json_object_get(analysis, "noise"), "compared",
                        (int)json_array_size(list), "confined_faster", tally[0], "same",
                        tally[1], "confined_slower", tally[2], "by_level", tally[3],
                        "undecided", tally[4]);
    if (verdict && json_array_size(scaled))
        json_object_set_new(verdict, "scaled", scaled);
    else
        json_decref(scaled);
    return verdict;
}
