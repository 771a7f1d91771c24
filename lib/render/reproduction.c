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

static const char *text(const json_t *v) { return json_is_string(v) ? json_string_value(v) : ""; }

static void cell(FILE *out, const json_t *v)
{
    if (json_is_number(v))
        fprintf(out, " %9.0f", json_number_value(v));
    else
        fprintf(out, " %9s", "-");
}

/* --pg: the live server's run measured for the same op, table and pool as a run here. */
static const json_t *pg_run_for(const json_t *report, const json_t *run)
{
    static const char *const keys[] = {"op", "table_size", "pool_size", "page_size", "row_width",
                                        "dead_pct"};
    size_t i;
    json_t *pg;

    if (!run)
        return NULL;
    json_array_foreach(json_object_get(json_object_get(report, "postgresql"), "runs"), i, pg) {
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
        fprintf(out, " %6.0f %-5s", sb_run_median_mbps(pg), text(json_object_get(pg, "policy")));
    else
        fprintf(out, " %6s %-5s", "-", "");
}

/* The one-character call of a comparison in the table's fast/slow row. */
static char call_mark(const char *call)
{
    return strcmp(call, "faster") == 0 ? '+' : strcmp(call, "slower") == 0 ? '-'
           : strcmp(call, "same") == 0 ? '=' : strcmp(call, "withheld") == 0 ? '!' : '?';
}

/* The host's noise, as the analysis measured it, and the schedule that timed the runs. */
static void noise_lines(FILE *out, const json_t *report)
{
    const json_t *noise = json_object_get(json_object_get(report, "verdict"), "noise");
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
    fprintf(out, "; %s schedule, %lld rounds (%s), seed %lld.%s\n",
            text(json_object_get(schedule, "kind")),
            (long long)json_integer_value(json_object_get(schedule, "rounds")),
            text(json_object_get(schedule, "stopped_by")),
            (long long)json_integer_value(json_object_get(schedule, "seed")),
            json_is_true(json_object_get(noise, "too_noisy")) ? " TOO NOISY here: verdicts "
                                                                "withheld." : "");
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
    char placements[MAX_PLACEMENTS][64];
    const char *ops[8];
    int np, nops;
    uint64_t l2;
    bool pg, any_counters;
};

static void collect_layout(const json_t *report, struct layout *t)
{
    size_t i;
    json_t *run;

    memset(t, 0, sizeof *t);
    t->report = report;
    t->runs = json_object_get(report, "runs");
    t->thread = json_object_get(report, "thread");
    t->verdict = json_object_get(report, "verdict");
    t->l2 = sb_report_cache_size(report, "L2");
    t->pg = json_is_object(json_object_get(report, "postgresql"));
    json_array_foreach(t->runs, i, run) {
        char p[64];
        const char *op = text(json_object_get(run, "op"));
        int k;
        sb_run_placement(run, p, sizeof p);
        for (k = 0; k < t->np && strcmp(t->placements[k], p) != 0; k++)
            ;
        if (k == t->np && t->np < MAX_PLACEMENTS)
            snprintf(t->placements[t->np++], sizeof t->placements[0], "%s", p);
        for (k = 0; k < t->nops && strcmp(t->ops[k], op) != 0; k++)
            ;
        if (k == t->nops && t->nops < 8)
            t->ops[t->nops++] = op;
        t->any_counters |= json_is_number(json_object_get(
            json_object_get(json_object_get(run, "counters"), "derived"), "l2_writeback_per_page"));
    }
}

/* The experiment, the thread's post and the table's sizes there and here. */
static void heading(FILE *out, const struct layout *t)
{
    const json_t *exp = json_object_get(t->report, "experiment");
    const json_t *run = json_array_get(t->runs, 0);
    uint64_t l3 = sb_report_cache_size(t->report, "L3");
    char a[32], b[32], c[32];

    fprintf(out, "== %s: %s\n", text(json_object_get(exp, "name")),
            text(json_object_get(exp, "description")));
    fprintf(out, "thread: %s\n", text(json_object_get(t->thread, "who")));
    fprintf(out, "table: %s; here %s (host L2 %s, L3 %s)\n\n",
            text(json_object_get(t->thread, "table")),
            sb_format_size((uint64_t)json_integer_value(json_object_get(run, "table_size")), a,
                           sizeof a),
            t->l2 ? sb_format_size(t->l2, b, sizeof b) : "unknown",
            l3 ? sb_format_size(l3, c, sizeof c) : "unknown");
}

/* The two heading lines: the ops' labels, then thread/here(/postgresql) under each. */
static void column_heads(FILE *out, const struct layout *t)
{
    fprintf(out, "%-26s", "placement");
    for (int k = 0; k < t->nops; k++) {
        const struct sb_op *o = sb_op_find(t->ops[k]);
        fprintf(out, t->pg ? " | %-34s" : " | %-21s", o ? o->label : t->ops[k]);
    }
    fprintf(out, "\n%-26s", "");
    for (int k = 0; k < t->nops; k++)
        fprintf(out, t->pg ? " | %9s %9s %-12s " : " | %9s %9s  ", "thread", "here",
                "postgresql");
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
        cell(out, json_object_get(sb_find_thread_figure(t->thread, t->ops[k], placement), "mbps"));
        cell(out, r ? json_object_get(json_object_get(r, "mbps"), "median") : NULL);
        if (t->pg)
            pg_cell(out, pg_run_for(t->report, r));
        fprintf(out, "  ");
    }
    fprintf(out, "\n");
}

/* The server's fast/slow ratio for op, from its runs at the thread's two placements. */
static void pg_ratio_cell(FILE *out, const struct layout *t, const char *op)
{
    const json_t *f = pg_run_for(t->report, sb_find_run(t->runs, op, text(json_object_get(
                                                            t->thread, "fast"))));
    const json_t *sl = pg_run_for(t->report, sb_find_run(t->runs, op, text(json_object_get(
                                                             t->thread, "slow"))));

    if (f && sl && sb_run_median_mbps(sl) > 0)
        fprintf(out, " %6.2f      ", sb_run_median_mbps(f) / sb_run_median_mbps(sl));
    else
        fprintf(out, " %6s      ", "-");
}

/* The fast/slow row: per op the thread's ratio, this host's with its call's mark and, with
 * --pg, the server's (the last comparison of an op stands). */
static void ratio_row(FILE *out, const struct layout *t)
{
    const json_t *comparisons = json_object_get(t->verdict, "comparisons");

    fprintf(out, "%-26s", "fast/slow");
    for (int k = 0; k < t->nops; k++) {
        const json_t *cmp = NULL, *v;
        size_t i;
        json_array_foreach(comparisons, i, v)
            if (strcmp(text(json_object_get(v, "op")), t->ops[k]) == 0)
                cmp = v;
        if (!cmp) {
            fprintf(out, t->pg ? " | %34s" : " | %21s", "");
            continue;
        }
        if (json_is_number(json_object_get(cmp, "ratio_thread")))
            fprintf(out, " | %9.2f", json_number_value(json_object_get(cmp, "ratio_thread")));
        else
            fprintf(out, " | %9s", "-");
        if (json_is_number(json_object_get(cmp, "ratio_here")))
            fprintf(out, " %9.2f %c", json_number_value(json_object_get(cmp, "ratio_here")),
                    call_mark(text(json_object_get(cmp, "call"))));
        else
            fprintf(out, " %9s %c", "-", call_mark(text(json_object_get(cmp, "call"))));
        if (t->pg)
            pg_ratio_cell(out, t, t->ops[k]);
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
                     "the same within the threshold, \"?\" inconclusive, \"!\" withheld (too "
                     "noisy); intervals in the verdict below.\n",
                text(json_object_get(t->thread, "fast")), text(json_object_get(t->thread, "slow")));
    if (t->pg) {
        const json_t *block = json_object_get(t->report, "postgresql");
        fprintf(out, "postgresql = PostgreSQL %s on this host: the same table and op, "
                     "shared_buffers = the pool, every scan reading every page from the OS "
                     "cache; `ring` or `clock` is what its own rule chose (its ring when the "
                     "table is larger than shared_buffers / 4, and always for VACUUM). No setting "
                     "turns the ring off: 8.2's clock sweep over a smaller pool is only in the "
                     "`here` column.%s%s\n",
                text(json_object_get(json_object_get(block, "server"), "server_version")),
                *text(json_object_get(block, "notes")) ? " Note: " : "",
                text(json_object_get(block, "notes")));
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
                json_is_string(reason) ? text(reason) : "no counter backend was used");
        return;
    }
    fprintf(out, "\ncounters per page, %s (%s%s%s):\n",
            json_is_true(json_object_get(counters, "simulated")) ? "SIMULATED" : "measured",
            text(json_object_get(counters, "backend")),
            json_is_string(json_object_get(counters, "model")) ? ", model " : "",
            text(json_object_get(counters, "model")));
    fprintf(out, "%-26s %-16s %10s %10s %10s\n", "placement", "op", "L2 wb", "mem rd B",
            "mem wr B");
    json_array_foreach(t->runs, i, v) {
        char p[64];
        sb_run_placement(v, p, sizeof p);
        fprintf(out, "%-26s %-16s", p, text(json_object_get(v, "op")));
        per_page_cells(out, v, json_object_get(json_object_get(v, "counters"), "derived"));
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
        fprintf(out, "  %s\n", text(json_object_get(v, "text")));
    json_array_foreach(json_object_get(t->verdict, "knees"), i, v)
        fprintf(out, "  %s\n", text(json_object_get(v, "text")));
    noise_lines(out, t->report);
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
    legend(out, &t);
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
                 "placement was faster in %d, the same in %d, slower in %d, undecided in %d",
            t->compared, t->faster, t->same, t->slower, t->undecided);
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
