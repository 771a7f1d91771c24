/* verdict.c: comparing the slow and fast placements of a reproduced experiment. */
#include "config.h"
#include "verdict.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "mannwhitney.h"
#include "op.h"
#include "report_runs.h"
#include "units.h"

/* A counter figure must fall by more than this share to count as lowered. */
#define SB_VERDICT_MIN_CHANGE 0.02
/* The pool sizes a sweep needs for a knee: a sweep, not a slow/fast pair or triple. */
#define SB_VERDICT_KNEE_POINTS 4

static const char *text(const json_t *v) { return json_is_string(v) ? json_string_value(v) : ""; }

json_t *sb_thread_json(const struct sb_thread *t)
{
    json_t *figures = json_array();

    for (int i = 0; i < t->nfigures; i++) {
        const struct sb_thread_figure *f = &t->figures[i];
        char size[32];
        double mbps = NAN;

        if (strcmp(f->unit, "MB/s") == 0)
            mbps = f->value;
        else if (t->table_size)
            mbps = (double)t->table_size / f->value / SB_MB_DECIMAL;
        sb_format_size(f->footprint, size, sizeof size);
        json_array_append_new(figures,
                              json_pack("{s:s, s:s, s:I, s:s+++, s:f, s:s, s:o}", "op", f->op,
                                        "policy", f->policy, "footprint", (json_int_t)f->footprint,
                                        "placement", f->policy, " ", size, "", "value", f->value,
                                        "unit", f->unit, "mbps",
                                        isnan(mbps) ? json_null() : json_real(mbps)));
    }
    return json_pack("{s:s, s:s, s:s, s:o, s:s, s:s, s:o}", "who", t->who, "machine", t->machine,
                     "table", t->table, "table_size",
                     t->table_size ? json_integer((json_int_t)t->table_size) : json_null(),
                     "slow", t->slow, "fast", t->fast, "figures", figures);
}

const json_t *sb_find_thread_figure(const json_t *thread, const char *op,
                                    const char *placement)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(thread, "figures"), i, f)
        if (strcmp(text(json_object_get(f, "op")), op) == 0 &&
            strcmp(text(json_object_get(f, "placement")), placement) == 0)
            return f;
    return NULL;
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
    json_t *ev;

    if (!have_wb && !have_mem) {
        const char *why = json_is_string(json_object_get(cs, "reason"))
                              ? text(json_object_get(cs, "reason"))
                              : text(json_object_get(cs, "status"));
        if (strcmp(text(json_object_get(cs, "backend")), "none") == 0)
            snprintf(sentence, len, "No counters were used (counters=none): nothing says why.");
        else
            snprintf(sentence, len, "The counters needed (L2 write-backs, memory bytes) are not "
                     "available: %s: %s.", text(json_object_get(cs, "backend")), why);
        return json_pack("{s:b, s:s}", "available", 0, "reason", sentence);
    }
    ev = json_pack("{s:b, s:s, s:O, s:O, s:O, s:O}", "available", 1, "kind", label,
                   "backend", json_object_get(cs, "backend"), "model",
                   json_object_get(cs, "model"), "slow", ds, "fast", df);
    sentence[0] = '\0';
    if (have_wb) {
        double a = json_number_value(wbs), b = json_number_value(wbf);
        bool fewer = b < a * (1.0 - SB_VERDICT_MIN_CHANGE);
        json_object_set_new(ev, "writebacks_lowered", json_boolean(fewer));
        snprintf(sentence, len, "L2 write-backs per page %.1f -> %.1f (%s): %s. ", a, b, label,
                 fewer ? "fewer, as the hypothesis says"
                       : "not fewer (within 2%), against the hypothesis");
    }
    if (have_mem) {
        double a = json_number_value(rs) + json_number_value(ws);
        double b = json_number_value(rf) + json_number_value(wf);
        size_t used = strlen(sentence);
        bool less = b < a * (1.0 - SB_VERDICT_MIN_CHANGE);
        json_object_set_new(ev, "memory_traffic_lowered", json_boolean(less));
        snprintf(sentence + used, len - used, "Memory bytes per table byte %.2f -> %.2f (%s): %s.",
                 a, b, label, less ? "less traffic" : "no less traffic (within 2%)");
    }
    return ev;
}

/* The smallest two-sided p of the exact test for samples of n and m: 2 / C(n + m, n). */
static double smallest_p(size_t n, size_t m)
{
    double c = 1.0;
    for (size_t i = 1; i <= n; i++)
        c = c * (double)(m + i) / (double)i;
    return fmin(1.0, 2.0 / c);
}

static json_t *comparison(const json_t *report, const char *op)
{
    const json_t *runs = json_object_get(report, "runs"), *thread = json_object_get(report,
                                                                                    "thread");
    const char *slow_p = text(json_object_get(thread, "slow"));
    const char *fast_p = text(json_object_get(thread, "fast"));
    const json_t *slow = sb_find_run(runs, op, slow_p), *fast = sb_find_run(runs, op, fast_p);
    const json_t *ts = sb_find_thread_figure(thread, op, slow_p), *tf = sb_find_thread_figure(thread, op, fast_p);
    const struct sb_op *o = sb_op_find(op);
    double here, thread_ratio = NAN;
    struct sb_mann_whitney mw = {0, 1, false};
    size_t ns, nf;
    double *vs, *vf;
    char counters_text[512], sentence[1024];
    json_t *evidence;

    if (!slow || !fast)
        return NULL;
    here = sb_run_median_mbps(fast) / sb_run_median_mbps(slow);
    vs = sb_run_mbps_samples(slow, &ns);
    vf = sb_run_mbps_samples(fast, &nf);
    if (vs && vf && ns && nf)
        mw = sb_mann_whitney(vf, nf, vs, ns);
    if (json_is_number(json_object_get(ts, "mbps")) && json_is_number(json_object_get(tf, "mbps")))
        thread_ratio = json_number_value(json_object_get(tf, "mbps")) /
                       json_number_value(json_object_get(ts, "mbps"));
    evidence = counter_evidence(slow, fast, counters_text, sizeof counters_text);
    {
        char thread_part[96] = "", outcome[160];
        if (!isnan(thread_ratio))
            snprintf(thread_part, sizeof thread_part, "; the thread saw %.2fx", thread_ratio);
        if (mw.p < SB_COMPARE_ALPHA)
            snprintf(outcome, sizeof outcome, "%s", here > 1.0
                     ? "it raised MB/s on this host"
                     : "it lowered MB/s: the evidence goes against the hypothesis on this host");
        else
            snprintf(outcome, sizeof outcome, "no significant difference with %zu and %zu "
                     "repetitions (the smallest p they allow is %.3f)", ns, nf,
                     smallest_p(ns, nf));
        snprintf(sentence, sizeof sentence,
                 "%s: the L2-confined placement (%s) ran %.2fx the scattered one (%s) here "
                 "(p = %.3f)%s: %s. %s",
                 o ? o->label : op, fast_p, here, slow_p, mw.p, thread_part, outcome,
                 counters_text);
    }
    free(vs);
    free(vf);
    return json_pack("{s:s, s:{s:s, s:s, s:f}, s:{s:s, s:s, s:f}, s:f, s:f, s:b, s:o, s:o, s:s}",
                     "op", op, "slow", "placement", slow_p, "run",
                     text(json_object_get(slow, "name")), "median", sb_run_median_mbps(slow), "fast",
                     "placement", fast_p, "run", text(json_object_get(fast, "name")), "median",
                     sb_run_median_mbps(fast), "ratio_here", here, "p", mw.p, "significant",
                     mw.p < SB_COMPARE_ALPHA, "ratio_thread",
                     isnan(thread_ratio) ? json_null() : json_real(thread_ratio), "counters",
                     evidence, "text", sentence);
}

/* Orders clock runs by pool size (footprint), smallest first. */
static int by_footprint(const void *a, const void *b)
{
    json_int_t fa = json_integer_value(json_object_get(*(json_t *const *)a, "footprint"));
    json_int_t fb = json_integer_value(json_object_get(*(json_t *const *)b, "footprint"));

    return (fa > fb) - (fa < fb);
}

/* For a sweep of the clock policy over pool sizes, per op (the runs of the first kernel the
 * report has for it, in order of pool size whatever the file's order): the step to the next
 * larger pool with the largest fall in MB/s (knees), or, for a sweep of 3 pool sizes, too
 * short to place one, a sentence that says so (no_knee; 2 are a slow/fast pair, no sweep). */
#define MAX_SWEEP_POINTS 256
static void knees(const json_t *runs, json_t *found, json_t *no_knee)
{
    for (const struct sb_op *o = sb_ops; o->name; o++) {
        json_t *sweep[MAX_SWEEP_POINTS], *run;
        const json_t *best_a = NULL, *best_b = NULL;
        const char *kernel = NULL;
        double best = 1.0;
        size_t i, points = 0, used = 0;
        char pools[128] = "", sentence[384];
        json_array_foreach(runs, i, run) {
            if (strcmp(text(json_object_get(run, "op")), o->name) != 0 ||
                strcmp(text(json_object_get(run, "policy")), "clock") != 0)
                continue;
            if (!kernel)
                kernel = text(json_object_get(run, "kernel"));
            if (strcmp(text(json_object_get(run, "kernel")), kernel) == 0 &&
                points < MAX_SWEEP_POINTS)
                sweep[points++] = run;
        }
        qsort(sweep, points, sizeof *sweep, by_footprint);
        for (i = 0; i < points; i++) {
            char size[32];
            sb_format_size((uint64_t)json_integer_value(json_object_get(sweep[i], "footprint")),
                           size, sizeof size);
            if (used < sizeof pools)
                used += (size_t)snprintf(pools + used, sizeof pools - used, "%s%s",
                                         used ? ", " : "", size);
            if (i > 0 && sb_run_median_mbps(sweep[i]) > 0 &&
                sb_run_median_mbps(sweep[i - 1]) / sb_run_median_mbps(sweep[i]) > best) {
                best = sb_run_median_mbps(sweep[i - 1]) / sb_run_median_mbps(sweep[i]);
                best_a = sweep[i - 1];
                best_b = sweep[i];
            }
        }
        if (points >= SB_VERDICT_KNEE_POINTS && best_a) {
            json_array_append_new(found, json_pack("{s:s, s:I, s:I, s:f}", "op", o->name, "from",
                                                   json_integer_value(json_object_get(best_a,
                                                                                      "footprint")),
                                                   "to", json_integer_value(json_object_get(best_b,
                                                                                            "footprint")),
                                                   "fall", best));
        } else if (points >= 3 && points < SB_VERDICT_KNEE_POINTS) {
            snprintf(sentence, sizeof sentence, "%s: no knee: the clock sweep has %zu pool sizes "
                     "(%s), too few points for a knee (at least %d needed).", o->label, points,
                     pools, SB_VERDICT_KNEE_POINTS);
            json_array_append_new(no_knee, json_pack("{s:s, s:I, s:i, s:s}", "op", o->name,
                                                     "points", (json_int_t)points, "needed",
                                                     SB_VERDICT_KNEE_POINTS, "text", sentence));
        }
    }
}

json_t *sb_verdict_build(const json_t *report)
{
    json_t *list = json_array(), *found = json_array(), *no_knee = json_array();
    int compared = 0, faster = 0;

    for (const struct sb_op *o = sb_ops; o->name; o++) {
        json_t *c = comparison(report, o->name);
        if (!c)
            continue;
        compared++;
        faster += json_is_true(json_object_get(c, "significant")) &&
                  json_number_value(json_object_get(c, "ratio_here")) > 1.0;
        json_array_append_new(list, c);
    }
    knees(json_object_get(report, "runs"), found, no_knee);
    return json_pack("{s:o, s:o, s:o, s:i, s:i}", "comparisons", list, "knees", found, "no_knee",
                     no_knee, "compared", compared, "confined_faster", faster);
}
