/* SPDX-License-Identifier: BSD-3-Clause */
/* reproduction.c: the reproduction table, counters and verdict of one experiment. */
#include "config.h"
#include "render/reproduction.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "core/core.h"
#include "report/report.h"
#include "vocab/vocab.h"

#define MAX_PLACEMENTS 64

static void cell(FILE *out, const json_t *v)
{
    if (json_is_number(v))
        fprintf(out, " %9.0f", json_number_value(v));
    else
        fprintf(out, " %9s", "-");
}

/* --pg: server v's block ({server, runs, notes}): one of `postgresql.servers`, or with one
 * server `postgresql` itself; NULL past the last. */
static const json_t *pg_block(const json_t *report, int v)
{
    const json_t *block = json_object_get(report, "postgresql");
    const json_t *servers = json_object_get(block, "servers");

    if (json_is_array(servers))
        return json_array_get(servers, (size_t)v);
    return v == 0 && json_is_object(block) ? block : NULL;
}

/* How many servers the report's --pg measured. */
static int pg_count(const json_t *report)
{
    const json_t *block = json_object_get(report, "postgresql");
    const json_t *servers = json_object_get(block, "servers");

    if (json_is_array(servers))
        return (int)json_array_size(servers);
    return json_is_object(block) ? 1 : 0;
}

/* --pg: server v's run measured for the same op, table and pool as a run here. */
static const json_t *pg_run_for(const json_t *report, int v, const json_t *run)
{
    static const char *const keys[] = {"op", "table_size", "pool_size", "page_size", "row_width",
                                        "dead_pct"};
    size_t i;
    json_t *pg;

    if (!run)
        return NULL;
    json_array_foreach(json_object_get(pg_block(report, v), "runs"), i, pg) {
        size_t k = 0;
        while (k < 6 && json_equal(json_object_get(pg, keys[k]), json_object_get(run, keys[k])))
            k++;
        if (k == 6)
            return pg;
    }
    return NULL;
}

/* The postgresql column: MB/s and the placement PostgreSQL chose (ring or clock). */
static void pg_cell(FILE *out, const json_t *pg)
{
    if (pg)
        fprintf(out, " %6.0f %-5s", sb_run_median_mbps(pg), sb_field_text(pg, "policy"));
    else
        fprintf(out, " %6s %-5s", "-", "");
}

/* The host's noise, as the analysis measured it, and the schedule that timed the runs. */
static void noise_lines(FILE *out, const json_t *report)
{
    const json_t *noise = sb_field(report, "verdict.noise");
    const json_t *schedule = json_object_get(report, "schedule");
    const json_t *floor = json_object_get(noise, "floor");
    const json_t *drift = json_object_get(noise, "drift_per_minute");

    fprintf(out, "  noise: ");
    if (json_is_number(floor))
        fprintf(out, "floor %.1f%% (A-A pair), threshold %.1f%%", 100.0 * json_number_value(floor),
                100.0 * json_number_value(json_object_get(noise, "delta")));
    else
        fprintf(out, "no A-A pair (threshold %.1f%%)",
                100.0 * json_number_value(json_object_get(noise, "delta")));
    if (json_is_number(drift))
        fprintf(out, ", drift %+.1f%%/min", 100.0 * json_number_value(drift));
    fprintf(out, "; %s schedule, %lld rounds (%s), seed %lld", sb_field_text(schedule, "kind"),
            (long long)json_integer_value(json_object_get(schedule, "rounds")),
            sb_field_text(schedule, "stopped_by"),
            (long long)json_integer_value(json_object_get(schedule, "seed")));
    /* key layout (reports from before it: nothing) */
    if (json_is_integer(sb_field(schedule, "layout.layouts")))
        fprintf(out, ", %lld layouts (%s)",
                (long long)json_integer_value(sb_field(schedule, "layout.layouts")),
                sb_field_text(schedule, "layout.kind"));
    fprintf(out, ".\n");
    if (json_is_true(json_object_get(noise, "too_noisy")))
        fprintf(out, "  a noisy host (warning): identical configurations could differ by up to "
                "%.1f%% at these rounds (the A-A pair's bound)\n",
                100.0 * json_number_value(sb_report_noise_bound(report)));
}

/* One figure of derived (a run's `counters.derived`, or a phase's), or "n/a". */
static void derived_cell(FILE *out, const json_t *derived, const char *key, const char *fmt)
{
    const json_t *v = json_object_get(derived, key);
    if (json_is_number(v))
        fprintf(out, fmt, json_number_value(v));
    else
        fprintf(out, " %9s", "n/a");
}

/* What the table is made of: its rows (the placements, in the runs' order), its columns (the
 * ops) and the pieces of the report every part reads. */
struct layout {
    const json_t *report, *runs, *thread, *verdict;
    const json_t *scaled;    /* thread.scaled: the thread's pair scaled to this host */
    const json_t *emulation; /* the emulated thread machine's predictions (emulation.h) */
    char placements[MAX_PLACEMENTS][64];
    const char *ops[8];
    int np, nops;
    uint64_t l2;
    int pg; /* servers measured by --pg (a column each) */
    bool any_counters;
};

/* The scaled placement of a thread placement (its slow or fast), or NULL. */
static const char *scaled_of(const struct layout *t, const char *placement)
{
    const char *roles[2] = {"slow", "fast"};

    if (!json_is_true(json_object_get(t->scaled, "available")))
        return NULL;
    for (int k = 0; k < 2; k++) {
        const json_t *s = json_object_get(t->scaled, roles[k]);
        if (strcmp(sb_field_text(s, "thread"), placement) == 0)
            return sb_field_text(s, "here");
    }
    return NULL;
}

/* Whether placement is run only as a scaled one (its figures go in the scaled column of the
 * thread placement it scales, not on a row of its own). */
static bool scaled_only(const struct layout *t, const char *placement)
{
    const char *roles[2] = {"slow", "fast"};

    if (!json_is_true(json_object_get(t->scaled, "available")))
        return false;
    if (strcmp(sb_field_text(t->thread, "slow"), placement) == 0 ||
        strcmp(sb_field_text(t->thread, "fast"), placement) == 0)
        return false;
    for (int k = 0; k < 2; k++)
        if (strcmp(sb_text(json_object_get(json_object_get(t->scaled, roles[k]), "here")),
                   placement) == 0)
            return true;
    return false;
}

/* The emulated machine's predicted MB/s of op at placement (emulation.runs), or NULL. */
static const json_t *predicted_mbps(const struct layout *t, const char *op, const char *placement)
{
    size_t i;
    const json_t *p;

    json_array_foreach(json_object_get(t->emulation, "runs"), i, p)
        if (strcmp(sb_field_text(p, "op"), op) == 0 &&
            strcmp(sb_field_text(p, "placement"), placement) == 0)
            return json_object_get(p, "mbps");
    return NULL;
}

/* The predicted column's cell: the prediction, "n/p" (not predicted: said below the table). */
static void predicted_cell(FILE *out, const struct layout *t, const char *op,
                           const char *placement)
{
    const json_t *v = predicted_mbps(t, op, placement);

    if (json_is_number(v))
        fprintf(out, " %9.0f", json_number_value(v));
    else
        fprintf(out, " %9s", "n/p");
}

static void collect_layout(const json_t *report, struct layout *t)
{
    size_t i;
    json_t *run;

    memset(t, 0, sizeof *t);
    t->report = report;
    t->runs = json_object_get(report, "runs");
    t->thread = json_object_get(report, "thread");
    t->verdict = json_object_get(report, "verdict");
    t->scaled = json_object_get(t->thread, "scaled");
    t->emulation = json_object_get(report, "emulation");
    t->l2 = sb_report_cache_size(report, "L2");
    t->pg = pg_count(report);
    json_array_foreach(t->runs, i, run) {
        char p[64];
        const char *op = sb_field_text(run, "op");
        int k;
        sb_run_placement(run, p, sizeof p);
        for (k = 0; k < t->np && strcmp(t->placements[k], p) != 0; k++)
            ;
        if (k == t->np && t->np < MAX_PLACEMENTS && !scaled_only(t, p))
            snprintf(t->placements[t->np++], sizeof t->placements[0], "%s", p);
        for (k = 0; k < t->nops && strcmp(t->ops[k], op) != 0; k++)
            ;
        if (k == t->nops && t->nops < 8)
            t->ops[t->nops++] = op;
        t->any_counters |= json_is_number(json_object_get(
            sb_field(run, "counters.derived"), "l2_writeback_per_page"));
    }
}

/* The experiment, the thread's post and the table's sizes there and here. */
static void heading(FILE *out, const struct layout *t)
{
    const json_t *exp = json_object_get(t->report, "experiment");
    const json_t *run = json_array_get(t->runs, 0);
    uint64_t l3 = sb_report_cache_size(t->report, "L3");
    char a[32], b[32], c[32];

    fprintf(out, "== %s: %s\n", sb_field_text(exp, "name"),
            sb_field_text(exp, "description"));
    fprintf(out, "thread: %s\n", sb_field_text(t->thread, "who"));
    fprintf(out, "table: %s; here %s (host L2 %s, L3 %s)\n\n",
            sb_field_text(t->thread, "table"),
            sb_format_size((uint64_t)json_integer_value(json_object_get(run, "table_size")), a,
                           sizeof a),
            t->l2 ? sb_format_size(t->l2, b, sizeof b) : "unknown",
            l3 ? sb_format_size(l3, c, sizeof c) : "unknown");
}

/* The two heading lines: the ops' labels, then thread/predicted/here/scaled(/postgresql)
 * under each. */
static void column_heads(FILE *out, const struct layout *t)
{
    fprintf(out, "%-26s", "placement");
    for (int k = 0; k < t->nops; k++) {
        const struct sb_op *o = sb_op_find(t->ops[k]);
        fprintf(out, " | %-*s", 41 + 13 * t->pg, o ? o->label : t->ops[k]);
    }
    fprintf(out, "\n%-26s", "");
    for (int k = 0; k < t->nops; k++) {
        fprintf(out, " | %9s %9s %9s %9s", "thread", "predicted", "here", "scaled");
        for (int v = 0; v < t->pg; v++) {
            char label[16];
            const char *version =
                sb_text(sb_field(pg_block(t->report, v), "server.server_version"));
            if (t->pg == 1)
                snprintf(label, sizeof label, "postgresql");
            else
                snprintf(label, sizeof label, "pg %.*s", (int)strcspn(version, " "), version);
            fprintf(out, " %-12s", label);
        }
        fprintf(out, t->pg ? " " : "  ");
    }
    fprintf(out, "\n");
}

/* Placement p's row: its label (with its size in L2s), per op the thread's MB/s, this host's
 * and, with --pg, the server's. */
static void placement_row(FILE *out, const struct layout *t, int p)
{
    const char *placement = t->placements[p];
    char label[64];
    const json_t *any = NULL;

    for (int k = 0; k < t->nops && !any; k++)
        any = sb_find_run(t->runs, t->ops[k], placement);
    if (t->l2 && any)
        snprintf(label, sizeof label, "%s (%.3g L2)", placement,
                 (double)json_integer_value(json_object_get(any, "footprint")) / (double)t->l2);
    else
        snprintf(label, sizeof label, "%s", placement);
    fprintf(out, "%-26s", label);
    for (int k = 0; k < t->nops; k++) {
        const json_t *r = sb_find_run(t->runs, t->ops[k], placement);
        fprintf(out, " |");
        const char *scaled = scaled_of(t, placement);
        const json_t *rs = scaled ? sb_find_run(t->runs, t->ops[k], scaled) : NULL;
        cell(out, json_object_get(sb_find_thread_figure(t->thread, t->ops[k], placement), "mbps"));
        predicted_cell(out, t, t->ops[k], placement);
        cell(out, r ? sb_field(r, "mbps.median") : NULL);
        cell(out, rs ? sb_field(rs, "mbps.median") : NULL);
        for (int v = 0; v < t->pg; v++)
            pg_cell(out, pg_run_for(t->report, v, r));
        fprintf(out, "  ");
    }
    fprintf(out, "\n");
}

/* Server v's fast/slow ratio for op, from its runs at the thread's two placements. */
static void pg_ratio_cell(FILE *out, const struct layout *t, int v, const char *op)
{
    const json_t *f = pg_run_for(t->report, v, sb_find_run(t->runs, op, sb_text(json_object_get(
                                                               t->thread, "fast"))));
    const json_t *sl = pg_run_for(t->report, v, sb_find_run(t->runs, op, sb_text(json_object_get(
                                                                t->thread, "slow"))));

    if (f && sl && sb_run_median_mbps(sl) > 0)
        fprintf(out, " %6.2f      ", sb_run_median_mbps(f) / sb_run_median_mbps(sl));
    else
        fprintf(out, " %6s      ", "-");
}

/* The entry of list (an array of objects) whose "op" is op (the last one), or NULL. */
static const json_t *entry_for_op(const json_t *list, const char *op)
{
    const json_t *found = NULL, *v;
    size_t i;

    json_array_foreach(list, i, v)
        if (strcmp(sb_field_text(v, "op"), op) == 0)
            found = v;
    return found;
}

/* A ratio of key in v with its call's mark (none: a blank; "-/+" where called by the host's
 * level), 10 wide. */
static void ratio_cell(FILE *out, const json_t *v, const char *key, bool mark)
{
    const json_t *r = json_object_get(v, key);
    char m[4];

    if (json_is_number(r) && mark)
        fprintf(out, " %*.2f%s", 9 - (int)strlen(sb_call_mark(v, m)), json_number_value(r), m);
    else if (json_is_number(r))
        fprintf(out, " %9.2f", json_number_value(r));
    else
        fprintf(out, mark ? " %8s%c" : " %9s", "-", ' ');
}

/* The fast/slow row: per op the thread's ratio, the emulated machine's predicted one, this
 * host's with its call's mark, the scaled pair's with its own and, with --pg, the server's. */
static void ratio_row(FILE *out, const struct layout *t)
{
    const json_t *comparisons = json_object_get(t->verdict, "comparisons");

    fprintf(out, "%-26s", "fast/slow");
    for (int k = 0; k < t->nops; k++) {
        const json_t *cmp = entry_for_op(comparisons, t->ops[k]), *pred;
        if (!cmp) {
            fprintf(out, " | %*s", 41 + 13 * t->pg, "");
            continue;
        }
        fprintf(out, " |");
        ratio_cell(out, cmp, "ratio_thread", false);
        pred = entry_for_op(json_object_get(t->emulation, "pairs"), t->ops[k]);
        ratio_cell(out, strcmp(sb_field_text(pred, "basis"), "predicted") == 0 ? pred
                                                                                       : NULL,
                   "ratio_predicted", false);
        ratio_cell(out, cmp, "ratio_here", true);
        ratio_cell(out, entry_for_op(json_object_get(t->verdict, "scaled"), t->ops[k]),
                   "ratio_here", true);
        for (int v = 0; v < t->pg; v++)
            pg_ratio_cell(out, t, v, t->ops[k]);
        if (!t->pg)
            fprintf(out, "  ");
    }
    fprintf(out, "\n");
}

/* What the table's figures, marks and postgresql column mean. */
static void legend(FILE *out, const struct layout *t)
{
    fprintf(out, "\nMB/s = table bytes / s / 10^6 (here: median of the timed scans; thread: as "
                 "posted, or its table size / elapsed s).\n");
    if (json_array_size(json_object_get(t->verdict, "comparisons")))
        fprintf(out, "fast/slow = %s / %s, paired by round: \"+\" faster, \"-\" slower, \"=\" "
                     "the same within the threshold, \"?\" inconclusive%s; intervals in the "
                     "verdict below.\n",
                sb_field_text(t->thread, "fast"), sb_field_text(t->thread, "slow"),
                sb_any_level_call(json_object_get(t->verdict, "comparisons")) ||
                        sb_any_level_call(json_object_get(t->verdict, "scaled"))
                    ? ", \"-/+\" called when the host is quiet / when it is busy (inconclusive "
                      "overall, the ratio following the host's level)"
                    : "");
    if (t->pg) {
        const json_t *block = json_object_get(t->report, "postgresql");
        char versions[256] = "";
        for (int v = 0; v < t->pg; v++)
            snprintf(versions + strlen(versions), sizeof versions - strlen(versions), "%s%s",
                     v ? ", " : "",
                     sb_text(sb_field(pg_block(t->report, v), "server.server_version")));
        fprintf(out, "%s = PostgreSQL %s on this host%s: the same table and op, "
                     "shared_buffers = the pool, every scan reading every page from the OS "
                     "cache, each server's runs one after another; `ring` or `clock` is what its "
                     "own rule chose, at the server's own defaults (from 8.3 its ring when the "
                     "table is larger than shared_buffers / 4, 256KB to 17, from 18 sized by "
                     "effective_io_concurrency; always for VACUUM, 256KB to 16, 2MB from 17; "
                     "before 8.3 the clock sweep over all of shared_buffers). No setting turns a "
                     "seqscan's ring off from 8.3 on: there, 8.2's clock sweep over a smaller "
                     "pool is only in the `here` column. `pg VERSION at its defaults`: the newest "
                     "server as it comes, shared_buffers 128MB and its own rings, on the same "
                     "table.%s%s\n",
                t->pg > 1 ? "pg VERSION" : "postgresql", versions,
                t->pg > 1 ? " (a column each)" : "",
                *sb_field_text(block, "notes") ? " Note: " : "",
                sb_field_text(block, "notes"));
    }
}

/* How the scaled column's placements were scaled, or why there is none. */
static void scaled_lines(FILE *out, const struct layout *t)
{
    const char *roles[2] = {"slow", "fast"};

    if (!json_is_object(t->scaled))
        return;
    if (!json_is_true(json_object_get(t->scaled, "available"))) {
        fprintf(out, "scaled = none: %s\n", sb_field_text(t->scaled, "why"));
        return;
    }
    fprintf(out, "scaled = this host measured at the thread's sizes scaled to this host, in the "
                 "same rounds (its ratio paired by round as here's):\n");
    for (int k = 0; k < 2; k++) {
        const json_t *s = json_object_get(t->scaled, roles[k]);
        fprintf(out, "  %s %s -> %s: %s\n", roles[k], sb_field_text(s, "thread"),
                sb_field_text(s, "here"), sb_field_text(s, "how"));
    }
}

/* With several scanners at once ([thread] scanners), what the predictions assume (the sharing
 * of a memory: the emulated runs' predicted.sharing). */
static void scanners_line(FILE *out, const struct layout *t)
{
    json_int_t n = json_integer_value(json_object_get(t->thread, "scanners")), sharing = 1;
    size_t i;
    const json_t *run;
    bool bus = false; /* the overlapping time model's reports: the bus is what they share */

    if (n <= 1)
        return;
    json_array_foreach(json_object_get(t->emulation, "runs"), i, run) {
        const json_t *s = sb_field(run, "predicted.sharing");
        if (json_is_integer(s) && json_integer_value(s) > sharing)
            sharing = json_integer_value(s);
        bus |= json_is_number(sb_field(run, "predicted.bus_seconds"));
    }
    fprintf(out, "  for %lld scanners at once, each on a core of its own with 1/%lld of the "
                 "table, %lld sharing each memory's %s ([thread] scanners; why: the "
                 "report's thread.scanners_source)\n",
            (long long)n, (long long)n, (long long)sharing,
            bus ? "bus (its busy time theirs summed)" : "bandwidths");
}

/* The calibration's core factor beside what the clocks and cores alone give (the emulated
 * runs' predicted.calibration.clocks; runner/predict.h). */
static void clocks_line(FILE *out, const struct layout *t)
{
    size_t i;
    const json_t *run;

    json_array_foreach(json_object_get(t->emulation, "runs"), i, run) {
        const json_t *cal = sb_field(run, "predicted.calibration");
        const json_t *c = json_object_get(cal, "clocks");
        const char *verdict = sb_field_text(c, "verdict");
        if (!json_is_object(c))
            continue;
        fprintf(out, "  core factor %.3g (%s's %s); the clocks alone give %.3g (this host's "
                     "%.2f GHz add chain / the %s's %.2f GHz), with an IPC ratio of 1 to %.0f "
                     "(assumed) %.3g to %.3g: %s\n",
                json_number_value(json_object_get(cal, "factor")),
                sb_field_text(cal, "experiment"), sb_field_text(cal, "figure"),
                json_number_value(json_object_get(c, "ratio")),
                json_number_value(json_object_get(c, "host_ghz")),
                sb_field_text(t->emulation, "machine"),
                json_number_value(json_object_get(c, "machine_ghz")),
                json_number_value(json_object_get(c, "ipc_ratio_max")),
                json_number_value(json_object_get(c, "ratio")),
                json_number_value(json_object_get(c, "factor_high")),
                strcmp(verdict, "above") == 0   ? "above it: the factor absorbs work the model lacks"
                : strcmp(verdict, "below") == 0 ? "below it: the model charges work the machine "
                                                  "did not do"
                                                : "within it");
        return;
    }
}

/* Each prediction against each thread figure (the calibration one marked), and the emulated
 * machine's calls on the slow/fast pairs. */
static void prediction_lines(FILE *out, const struct layout *t)
{
    const json_t *e = t->emulation, *v;
    const char *machine = sb_field_text(e, "machine");
    size_t i;

    if (!json_is_true(json_object_get(e, "available"))) {
        fprintf(out, "predicted = not predicted: %s\n", json_is_object(e)
                ? sb_field_text(e, "why") : "no emulation of the thread's machine in "
                                                     "this report");
        return;
    }
    if (*sb_field_text(e, "why"))
        fprintf(out, "predicted: some runs not predicted: %s\n", sb_field_text(e, "why"));
    if (json_is_object(json_object_get(e, "calibration_borrowed")))
        fprintf(out, "predicted with the core factor %.4g of %s's calibration (one per "
                     "machine)\n",
                json_number_value(sb_field(e, "calibration_borrowed.factor")),
                sb_text(sb_field(e, "calibration_borrowed.experiment")));
    fprintf(out, "predicted = PREDICTED MB/s of the emulated %s (its cache model and costs, at "
                 "the thread's sizes)%s%s:\n", machine,
            json_is_string(json_object_get(e, "calibration")) ? "; calibrated on " : "",
            sb_field_text(e, "calibration"));
    scanners_line(out, t);
    clocks_line(out, t);
    json_array_foreach(json_object_get(e, "errors"), i, v) {
        const json_t *pred = json_object_get(v, "predicted_mbps");
        fprintf(out, "  %-24s thread %6.0f MB/s, predicted ",
                sb_field_text(v, "figure"),
                json_number_value(json_object_get(v, "thread_mbps")));
        if (!json_is_number(pred))
            fprintf(out, "%6s: not predicted\n", "-");
        else if (json_is_true(json_object_get(v, "calibration")))
            fprintf(out, "%6.0f: the calibration figure (fitted, not a prediction)\n",
                    json_number_value(pred));
        else
            fprintf(out, "%6.0f: error %+.1f%%\n", json_number_value(pred),
                    100.0 * json_number_value(json_object_get(v, "error")));
    }
    json_array_foreach(json_object_get(e, "pairs"), i, v) {
        const struct sb_op *o = sb_op_find(sb_field_text(v, "op"));
        const json_t *tr = json_object_get(v, "ratio_thread");
        if (strcmp(sb_field_text(v, "basis"), "predicted") != 0)
            continue;
        fprintf(out, "  emulated %s, %s: %s predicted %.2fx %s (PREDICTED, no interval: called "
                     "beyond %.0f%%): %s", machine, o ? o->label : "",
                sb_field_text(v, "fast"),
                json_number_value(json_object_get(v, "ratio_predicted")),
                sb_field_text(v, "slow"),
                100.0 * json_number_value(json_object_get(e, "delta")),
                sb_field_text(v, "call"));
        if (json_is_number(tr))
            fprintf(out, "; the thread saw %.2fx", json_number_value(tr));
        fprintf(out, ".\n");
    }
}

/* Per slow/fast pair, how much of the emulated machine's predicted ratio each mechanism
 * accounts for (emulation.h), and the mechanisms with no row, with why. */
static void attribution_lines(FILE *out, const struct layout *t)
{
    const json_t *pair, *row;
    const char *basis;
    bool full;
    size_t i, j;

    if (!json_array_size(json_object_get(t->emulation, "pairs")))
        return;
    basis = sb_text(json_object_get(json_array_get(json_object_get(t->emulation, "pairs"), 0),
                                 "basis"));
    full = strcmp(basis, "predicted") == 0;
    fprintf(out, "\nattribution (emulated %s, PREDICTED%s%s): each mechanism switched off in "
                 "turn; share = (ln all - ln off) / ln all of the predicted fast/slow\n",
            sb_field_text(t->emulation, "machine"), full ? "" : "; ", full ? "" : basis);
    fprintf(out, "  %-8s %-16s %9s %9s %7s\n", "op", "mechanism", "all", "off", "share");
    json_array_foreach(json_object_get(t->emulation, "pairs"), i, pair) {
        json_array_foreach(json_object_get(pair, "attribution"), j, row) {
            const json_t *off = json_object_get(row, "ratio_off");
            const json_t *share = json_object_get(row, "share");
            fprintf(out, "  %-8s %-16s %9.3f", sb_field_text(pair, "op"),
                    sb_field_text(row, "mechanism"),
                    json_number_value(json_object_get(pair, "ratio_predicted")));
            if (json_is_number(off))
                fprintf(out, " %9.3f", json_number_value(off));
            else
                fprintf(out, " %9s", "-");
            if (json_is_number(share))
                fprintf(out, " %6.0f%%", 100.0 * json_number_value(share));
            else
                fprintf(out, " %7s", "n/a");
            fprintf(out, "%s%s\n", *sb_field_text(row, "note") ? "  " : "",
                    sb_field_text(row, "note"));
        }
        json_array_foreach(json_object_get(pair, "absent"), j, row)
            if (i == 0)
                fprintf(out, "  %-8s %-16s no row: %s\n", "", sb_text(json_object_get(row,
                                                                               "mechanism")),
                        sb_field_text(row, "why"));
    }
    json_array_foreach(json_object_get(t->emulation, "switches"), i, row)
        fprintf(out, "  %s\n", sb_text(row));
}

/* Mark Kirkwood's "searching for a new buffer": the buffer search's share of this host's time
 * per run at the thread's placements (measured: the report's buffer_search block). */
static void search_lines(FILE *out, const struct layout *t)
{
    const json_t *b = json_object_get(t->report, "buffer_search"), *v;
    size_t i;

    if (!json_array_size(json_object_get(b, "runs")))
        return;
    fprintf(out, "\nbuffer search (this host, measured: %s):\n",
            sb_field_text(b, "method"));
    json_array_foreach(json_object_get(b, "runs"), i, v) {
        const json_t *share = json_object_get(v, "share");
        fprintf(out, "  %-8s %-14s %6.2f visits/page (loop %.2f): %7.2f ns of %7.1f ns per "
                     "page",
                sb_field_text(v, "op"), sb_field_text(v, "placement"),
                json_number_value(json_object_get(v, "run_visits_per_page")),
                json_number_value(json_object_get(v, "loop_visits_per_page")),
                json_number_value(json_object_get(v, "search_ns_per_page")),
                json_number_value(json_object_get(v, "scan_ns_per_page")));
        if (json_is_number(share))
            fprintf(out, " = %.2f%% of the scan\n", 100.0 * json_number_value(share));
        else
            fprintf(out, "\n");
    }
}

/* A run's memory bytes per page (the derived per-table-byte figure, of the run or of one
 * phase, times its page size). */
static void mem_bytes_cells(FILE *out, const json_t *run, const json_t *d)
{
    const json_t *rd = json_object_get(d, "mem_read_bytes_per_table_byte");
    const json_t *wr = json_object_get(d, "mem_write_bytes_per_table_byte");
    double page = (double)json_integer_value(json_object_get(run, "page_size"));

    if (json_is_number(rd))
        fprintf(out, "%10.0f ", json_number_value(rd) * page);
    else
        fprintf(out, "%10s ", "n/a");
    if (json_is_number(wr))
        fprintf(out, "%10.0f", json_number_value(wr) * page);
    else
        fprintf(out, "%10s", "n/a");
}

/* One row of the counters per page: L2 write-backs and memory bytes, from derived (the run's
 * or a phase's). */
static void per_page_cells(FILE *out, const json_t *run, const json_t *derived)
{
    derived_cell(out, derived, "l2_writeback_per_page", " %10.1f");
    fprintf(out, " ");
    mem_bytes_cells(out, run, derived);
    fprintf(out, "\n");
}

/* Under a run whose counters were split by phase (the cache model): a row per phase. */
static void phase_lines(FILE *out, const json_t *run)
{
    if (!sb_run_has_phases(run))
        return;
    for (int p = 0; p < SB_REPORT_NPHASES; p++) {
        fprintf(out, "  %-41s", sb_report_phase_labels[p]);
        per_page_cells(out, run, sb_run_phase_derived(run, p));
    }
}

/* The counters per page of every run, measured or simulated (and, where the model split them,
 * per phase), or why there are none. */
static void counters_lines(FILE *out, const struct layout *t)
{
    const json_t *counters = json_object_get(json_array_get(t->runs, 0), "counters"), *v;
    bool any_phases = false;
    size_t i;

    if (!t->any_counters) {
        const json_t *reason = json_object_get(counters, "reason");
        fprintf(out, "\ncounters: none available (%s)\n",
                json_is_string(reason) ? sb_text(reason) : "no counter backend was used");
        return;
    }
    fprintf(out, "\ncounters per page, %s (%s%s%s):\n",
            json_is_true(json_object_get(counters, "simulated")) ? "SIMULATED" : "measured",
            sb_field_text(counters, "backend"),
            json_is_string(json_object_get(counters, "model")) ? ", model " : "",
            sb_field_text(counters, "model"));
    fprintf(out, "%-26s %-16s %10s %10s %10s\n", "placement", "op", "L2 wb", "mem rd B",
            "mem wr B");
    json_array_foreach(t->runs, i, v) {
        char p[64];
        sb_run_placement(v, p, sizeof p);
        fprintf(out, "%-26s %-16s", p, sb_field_text(v, "op"));
        per_page_cells(out, v, sb_field(v, "counters.derived"));
        phase_lines(out, v);
        any_phases |= sb_run_has_phases(v);
    }
    if (any_phases)
        fprintf(out, "%s\n", sb_report_phases_legend);
}

/* The verdict's sentences: each comparison, each knee, then the noise. */
static void verdict_lines(FILE *out, const struct layout *t)
{
    size_t i;
    const json_t *v;

    fprintf(out, "\nverdict:\n");
    json_array_foreach(json_object_get(t->verdict, "comparisons"), i, v)
        fprintf(out, "  %s\n", sb_field_text(v, "text"));
    json_array_foreach(json_object_get(t->verdict, "scaled"), i, v)
        fprintf(out, "  %s\n", sb_field_text(v, "text"));
    json_array_foreach(json_object_get(t->verdict, "knees"), i, v)
        fprintf(out, "  %s\n", sb_field_text(v, "text"));
    noise_lines(out, t->report);
}

/* --pg: the newest server at its own defaults (postgresql.defaults): a row with its MB/s and
 * placement in that server's column, per op. */
static void defaults_row(FILE *out, const struct layout *t)
{
    const json_t *d = sb_field(t->report, "postgresql.defaults");
    int server = (int)json_integer_value(json_object_get(d, "server"));
    char label[64], version[32];

    if (!json_is_object(d))
        return;
    snprintf(version, sizeof version, "%.*s",
             (int)strcspn(sb_text(sb_field(pg_block(t->report, server),
                                           "server.server_version")), " "),
             sb_text(sb_field(pg_block(t->report, server), "server.server_version")));
    snprintf(label, sizeof label, "pg %s at its defaults", version);
    fprintf(out, "%-26s", label);
    for (int k = 0; k < t->nops; k++) {
        const json_t *found = NULL, *run;
        size_t i;
        json_array_foreach(json_object_get(d, "runs"), i, run)
            if (strcmp(sb_field_text(run, "op"), t->ops[k]) == 0)
                found = run;
        fprintf(out, " | %*s", 39, "");
        for (int v = 0; v < t->pg; v++) {
            if (v == server)
                pg_cell(out, found);
            else
                fprintf(out, " %6s %-5s", "", "");
        }
        fprintf(out, "  ");
    }
    fprintf(out, "\n");
}

void sb_render_reproduction(FILE *out, const json_t *report)
{
    struct layout t;

    collect_layout(report, &t);
    heading(out, &t);
    column_heads(out, &t);
    for (int p = 0; p < t.np; p++)
        placement_row(out, &t, p);
    if (json_array_size(json_object_get(t.verdict, "comparisons")))
        ratio_row(out, &t);
    defaults_row(out, &t);
    legend(out, &t);
    scaled_lines(out, &t);
    prediction_lines(out, &t);
    attribution_lines(out, &t);
    search_lines(out, &t);
    counters_lines(out, &t);
    verdict_lines(out, &t);
}

void sb_reproduction_tally_add(struct sb_reproduction_tally *t, const json_t *report)
{
    const json_t *verdict = json_object_get(report, "verdict");
    const json_t *twice = json_object_get(report, "reproducibility");
    const json_t *cmp;
    size_t k;

    t->compared += (int)json_integer_value(json_object_get(verdict, "compared"));
    t->faster += (int)json_integer_value(json_object_get(verdict, "confined_faster"));
    t->same += (int)json_integer_value(json_object_get(verdict, "same"));
    t->slower += (int)json_integer_value(json_object_get(verdict, "confined_slower"));
    t->by_level += (int)json_integer_value(json_object_get(verdict, "by_level"));
    t->undecided += (int)json_integer_value(json_object_get(verdict, "undecided"));
    json_array_foreach(json_object_get(verdict, "comparisons"), k, cmp) {
        const json_t *ev = json_object_get(cmp, "counters");
        if (json_is_boolean(json_object_get(ev, "writebacks_lowered"))) {
            t->with_counters++;
            t->lowered += json_is_true(json_object_get(ev, "writebacks_lowered"));
        }
    }
    if (json_is_object(twice)) {
        t->twice++;
        t->reproducible += json_is_true(json_object_get(twice, "reproducible")) &&
                           !json_is_true(json_object_get(twice, "vacuous"));
    }
}

void sb_render_reproduction_overall(FILE *out, const struct sb_reproduction_tally *t)
{
    fprintf(out, "\n== overall: of %d slow/fast comparisons on this host, the L2-confined "
                 "placement was faster in %d, the same in %d, slower in %d, ",
            t->compared, t->faster, t->same, t->slower);
    if (t->by_level)
        fprintf(out, "called by the host's level (one call when it is quiet, one when busy) in "
                     "%d, ", t->by_level);
    fprintf(out, "undecided in %d", t->undecided);
    if (t->with_counters)
        fprintf(out, "; it had fewer L2 write-backs per page in %d of %d (see each experiment "
                     "for measured or simulated)", t->lowered, t->with_counters);
    else
        fprintf(out, "; no counters were available to say why");
    fprintf(out, ".\n");
    if (t->twice)
        fprintf(out, "== --twice: %d of %d experiments REPRODUCIBLE (and decided something).\n",
                t->reproducible, t->twice);
}
