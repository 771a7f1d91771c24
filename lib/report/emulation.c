/* SPDX-License-Identifier: BSD-3-Clause */
/* emulation.c: the emulated thread machine's block (see emulation.h). */
#include "config.h"
#include "report/emulation.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/verdict.h"
#include "report/field.h"

/* No share is given of a predicted ratio within 1% of 1 (|ln ratio| below this): there is no
 * gap to attribute, and its shares would be ratios of rounding. */
#define SB_ATTRIBUTION_MIN 0.00995

/* The emulated machine's call is made on a difference larger than this. */
#define SB_EMULATION_DELTA 0.02

const char *const sb_emulation_mechanisms[SB_EMULATION_NMECHANISMS] = {
    "l2_deferral", "writeback_copy", "hint_bits", "footprint", "prefetch", "tlb"};
const char *const sb_emulation_switches[SB_EMULATION_NMECHANISMS] = {
    "L2 write-back deferral off: the copy's stores stream past the caches (kernel nt)",
    "the write-back copy off: writeback = none",
    "hint-bit dirtying off: hint_bits = set",
    "the buffer manager's footprint off: one buffer (every page into the same 8KB)",
    "the prefetcher off: prefetch = off and none of the fills' latency hidden",
    "TLB reach: only where a machine file gives its TLB"};

double sb_attribution_share(double ratio_all, double ratio_off)
{
    if (!(ratio_all > 0.0) || !(ratio_off > 0.0) || fabs(log(ratio_all)) < SB_ATTRIBUTION_MIN)
        return NAN;
    return (log(ratio_all) - log(ratio_off)) / log(ratio_all);
}

const char *sb_emulation_call(double ratio, double delta)
{
    if (isnan(ratio))
        return "inconclusive";
    return ratio > 1.0 + delta ? "faster" : ratio < 1.0 - delta ? "slower" : "same";
}

/* The prediction of op at placement with variant (full: not one of its memory part only), or
 * NULL. */
static const json_t *find_of(const json_t *predictions, const char *op, const char *placement,
                             const char *variant, bool full)
{
    size_t i;
    const json_t *p;

    json_array_foreach(predictions, i, p)
        if (strcmp(sb_field_text(p, "op"), op) == 0 &&
            strcmp(sb_field_text(p, "placement"), placement) == 0 &&
            strcmp(sb_field_text(p, "variant"), variant) == 0 &&
            !(full && json_is_true(json_object_get(p, "memory_only"))))
            return p;
    return NULL;
}

static const json_t *find(const json_t *predictions, const char *op, const char *placement,
                          const char *variant)
{
    return find_of(predictions, op, placement, variant, false);
}

static double mbps_of(const json_t *p)
{
    const json_t *v = json_object_get(p, "mbps");
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Each thread figure's prediction and its error (predicted / thread - 1), the calibration
 * figure marked as such (no error: it was fitted). */
static json_t *errors_of(const json_t *thread, const json_t *predictions, const char *calibration)
{
    json_t *list = json_array(), *f;
    size_t i;

    json_array_foreach(json_object_get(thread, "figures"), i, f) {
        const char *op = sb_field_text(f, "op"), *pl = sb_text(json_object_get(f,
                                                                                 "placement"));
        char name[96];
        double pred = mbps_of(find_of(predictions, op, pl, "all", true));
        double fig = json_number_value(json_object_get(f, "mbps"));
        bool calibrated;
        snprintf(name, sizeof name, "%s %s", op, pl);
        calibrated = calibration && strcmp(calibration, name) == 0;
        json_array_append_new(list, json_pack(
            "{s:s, s:f, s:o, s:o, s:b}", "figure", name, "thread_mbps", fig, "predicted_mbps",
            isnan(pred) ? json_null() : json_real(pred), "error",
            isnan(pred) || calibrated || !(fig > 0) ? json_null() : json_real(pred / fig - 1.0),
            "calibration", calibrated));
    }
    return list;
}

/* One mechanism's row of a pair's attribution. */
static json_t *mechanism_row(const json_t *predictions, const char *op, const char *fast,
                             const char *slow, int m, double ratio_all)
{
    const char *name = sb_emulation_mechanisms[m];
    const json_t *pf = find(predictions, op, fast, name), *ps = find(predictions, op, slow, name);
    double off = mbps_of(pf) / mbps_of(ps), share = sb_attribution_share(ratio_all, off);
    const char *note = sb_text(json_object_get(pf ? pf : ps, "note"));

    return json_pack("{s:s, s:s, s:o, s:o, s:s}", "mechanism", name, "switch",
                     sb_emulation_switches[m], "ratio_off",
                     isnan(off) ? json_null() : json_real(off), "share",
                     isnan(share) ? json_null() : json_real(share), "note", note);
}

/* A mechanism the machine lacks, from predictions' {"mechanism", "absent"} entries, or NULL. */
static const char *absent_why(const json_t *predictions, const char *mechanism)
{
    size_t i;
    const json_t *p;

    json_array_foreach(predictions, i, p)
        if (strcmp(sb_field_text(p, "mechanism"), mechanism) == 0 &&
            json_is_string(json_object_get(p, "absent")))
            return sb_field_text(p, "absent");
    return NULL;
}

/* Per op of the thread's slow/fast pair: the predicted ratio, the emulated machine's call, the
 * thread's ratio, and each mechanism's row (or why it has none). */
static json_t *pairs_of(const json_t *thread, const json_t *predictions)
{
    const char *slow = sb_field_text(thread, "slow"), *fast = sb_text(json_object_get(
                                                                               thread, "fast"));
    json_t *list = json_array();
    const char *ops[2] = {"count", "vacuum"};

    for (int k = 0; k < 2 && *slow && *fast; k++) {
        double ratio = mbps_of(find(predictions, ops[k], fast, "all")) /
                       mbps_of(find(predictions, ops[k], slow, "all"));
        const json_t *ts = sb_find_thread_figure(thread, ops[k], slow);
        const json_t *tf = sb_find_thread_figure(thread, ops[k], fast);
        double tr = json_number_value(json_object_get(tf, "mbps")) /
                    json_number_value(json_object_get(ts, "mbps"));
        json_t *rows, *absent;
        if (isnan(ratio))
            continue;
        rows = json_array();
        absent = json_array();
        for (int m = 0; m < SB_EMULATION_NMECHANISMS; m++) {
            const char *why = absent_why(predictions, sb_emulation_mechanisms[m]);
            if (why)
                json_array_append_new(absent, json_pack("{s:s, s:s}", "mechanism",
                                                        sb_emulation_mechanisms[m], "why", why));
            else if (find(predictions, ops[k], fast, sb_emulation_mechanisms[m]))
                json_array_append_new(rows, mechanism_row(predictions, ops[k], fast, slow, m,
                                                          ratio));
        }
        bool memory_only = json_is_true(json_object_get(find(predictions, ops[k], fast, "all"),
                                                        "memory_only")) ||
                           json_is_true(json_object_get(find(predictions, ops[k], slow, "all"),
                                                        "memory_only"));
        json_array_append_new(list, json_pack(
            "{s:s, s:s, s:s, s:f, s:s, s:o, s:s, s:o, s:o}", "op", ops[k], "fast", fast, "slow",
            slow, "ratio_predicted", ratio, "call", sb_emulation_call(ratio, SB_EMULATION_DELTA),
            "ratio_thread", ts && tf && tr > 0 ? json_real(tr) : json_null(), "basis",
            memory_only ? "memory part only: the machine's time model without the op's CPU "
                          "work (no core factor)" : "predicted", "attribution", rows, "absent",
            absent));
    }
    return list;
}

json_t *sb_emulation_build(const json_t *thread, const char *machine, const json_t *predictions,
                           const char *calibration, const char *why)
{
    json_t *runs = json_array(), *pairs, *p;
    size_t i;

    json_array_foreach(predictions, i, p)
        if (strcmp(sb_field_text(p, "variant"), "all") == 0 &&
            !json_is_true(json_object_get(p, "memory_only")))
            json_array_append_new(runs, json_deep_copy(p));
    pairs = pairs_of(thread, predictions);
    if (!json_array_size(runs) && !json_array_size(pairs)) {
        json_decref(runs);
        json_decref(pairs);
        return json_pack("{s:b, s:s, s:s}", "available", 0, "machine", machine ? machine : "",
                         "why", why && *why ? why : "no predictions");
    }
    return json_pack("{s:b, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:f}", "available",
                     json_array_size(runs) > 0, "why", json_array_size(runs) ? "" : why ? why
                                                                                       : "",
                     "label", "predicted", "machine", machine ? machine : "", "calibration",
                     calibration ? json_string(calibration) : json_null(), "runs", runs,
                     "errors", errors_of(thread, predictions, calibration), "pairs", pairs,
                     "delta", SB_EMULATION_DELTA);
}
