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

static void derived_cell(FILE *out, const json_t *run, const char *key, const char *fmt)
{
    const json_t *v = json_object_get(json_object_get(json_object_get(run, "counters"),
                                                      "derived"), key);
    if (json_is_number(v))
        fprintf(out, fmt, json_number_value(v));
    else
        fprintf(out, " %9s", "n/a");
}

void sb_render_reproduction(FILE *out, const json_t *report)
{
    const json_t *runs = json_object_get(report, "runs"), *thread = json_object_get(report,
                                                                                    "thread");
    const json_t *verdict = json_object_get(report, "verdict"), *exp = json_object_get(report,
                                                                                       "experiment");
    char placements[MAX_PLACEMENTS][64];
    const char *ops[8];
    int np = 0, nops = 0;
    uint64_t l2 = sb_report_cache_size(report, "L2"), l3 = sb_report_cache_size(report, "L3");
    char a[32], b[32], c[32];
    size_t i;
    json_t *run, *v;
    bool any_counters = false;
    bool pg = json_is_object(json_object_get(report, "postgresql"));

    json_array_foreach(runs, i, run) {
        char p[64];
        const char *op = text(json_object_get(run, "op"));
        int k;
        sb_run_placement(run, p, sizeof p);
        for (k = 0; k < np && strcmp(placements[k], p) != 0; k++)
            ;
        if (k == np && np < MAX_PLACEMENTS)
            snprintf(placements[np++], sizeof placements[0], "%s", p);
        for (k = 0; k < nops && strcmp(ops[k], op) != 0; k++)
            ;
        if (k == nops && nops < 8)
            ops[nops++] = op;
        any_counters |= json_is_number(json_object_get(
            json_object_get(json_object_get(run, "counters"), "derived"), "l2_writeback_per_page"));
    }
    run = json_array_get(runs, 0);
    fprintf(out, "== %s: %s\n", text(json_object_get(exp, "name")),
            text(json_object_get(exp, "description")));
    fprintf(out, "thread: %s\n", text(json_object_get(thread, "who")));
    fprintf(out, "table: %s; here %s (host L2 %s, L3 %s)\n\n", text(json_object_get(thread, "table")),
            sb_format_size((uint64_t)json_integer_value(json_object_get(run, "table_size")), a,
                           sizeof a),
            l2 ? sb_format_size(l2, b, sizeof b) : "unknown",
            l3 ? sb_format_size(l3, c, sizeof c) : "unknown");

    fprintf(out, "%-26s", "placement");
    for (int k = 0; k < nops; k++) {
        const struct sb_op *o = sb_op_find(ops[k]);
        fprintf(out, pg ? " | %-34s" : " | %-21s", o ? o->label : ops[k]);
    }
    fprintf(out, "\n%-26s", "");
    for (int k = 0; k < nops; k++)
        fprintf(out, pg ? " | %9s %9s %-12s " : " | %9s %9s  ", "thread", "here", "postgresql");
    fprintf(out, "\n");
    for (int p = 0; p < np; p++) {
        char label[64];
        const json_t *any = NULL;
        for (int k = 0; k < nops && !any; k++)
            any = sb_find_run(runs, ops[k], placements[p]);
        if (l2 && any)
            snprintf(label, sizeof label, "%s (%.3g L2)", placements[p],
                     (double)json_integer_value(json_object_get(any, "footprint")) / (double)l2);
        else
            snprintf(label, sizeof label, "%s", placements[p]);
        fprintf(out, "%-26s", label);
        for (int k = 0; k < nops; k++) {
            const json_t *r = sb_find_run(runs, ops[k], placements[p]);
            fprintf(out, " |");
            cell(out, json_object_get(sb_find_thread_figure(thread, ops[k], placements[p]), "mbps"));
            cell(out, r ? json_object_get(json_object_get(r, "mbps"), "median") : NULL);
            if (pg)
                pg_cell(out, pg_run_for(report, r));
            fprintf(out, "  ");
        }
        fprintf(out, "\n");
    }
    if (json_array_size(json_object_get(verdict, "comparisons"))) {
        fprintf(out, "%-26s", "fast/slow");
        for (int k = 0; k < nops; k++) {
            const json_t *cmp = NULL;
            json_array_foreach(json_object_get(verdict, "comparisons"), i, v)
                if (strcmp(text(json_object_get(v, "op")), ops[k]) == 0)
                    cmp = v;
            if (!cmp) {
                fprintf(out, pg ? " | %34s" : " | %21s", "");
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
            if (pg) {
                const json_t *f = pg_run_for(report, sb_find_run(runs, ops[k], text(json_object_get(
                                                 thread, "fast"))));
                const json_t *sl = pg_run_for(report, sb_find_run(runs, ops[k], text(json_object_get(
                                                  thread, "slow"))));
                if (f && sl && sb_run_median_mbps(sl) > 0)
                    fprintf(out, " %6.2f      ", sb_run_median_mbps(f) / sb_run_median_mbps(sl));
                else
                    fprintf(out, " %6s      ", "-");
            }
        }
        fprintf(out, "\n");
    }
    fprintf(out, "\nMB/s = table bytes / s / 10^6 (here: median of the timed scans; thread: as "
                 "posted, or its table size / elapsed s).\n");
    if (json_array_size(json_object_get(verdict, "comparisons")))
        fprintf(out, "fast/slow = %s / %s, paired by round: \"+\" faster, \"-\" slower, \"=\" "
                     "the same within the threshold, \"?\" inconclusive, \"!\" withheld (too "
                     "noisy); intervals in the verdict below.\n",
                text(json_object_get(thread, "fast")), text(json_object_get(thread, "slow")));
    if (pg) {
        const json_t *block = json_object_get(report, "postgresql");
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

    if (any_counters) {
        const json_t *counters = json_object_get(run, "counters");
        fprintf(out, "\ncounters per page, %s (%s%s%s):\n",
                json_is_true(json_object_get(counters, "simulated")) ? "SIMULATED" : "measured",
                text(json_object_get(counters, "backend")),
                json_is_string(json_object_get(counters, "model")) ? ", model " : "",
                text(json_object_get(counters, "model")));
        fprintf(out, "%-26s %-16s %10s %10s %10s\n", "placement", "op", "L2 wb", "mem rd B",
                "mem wr B");
        json_array_foreach(runs, i, v) {
            char p[64];
            sb_run_placement(v, p, sizeof p);
            fprintf(out, "%-26s %-16s", p, text(json_object_get(v, "op")));
            derived_cell(out, v, "l2_writeback_per_page", " %10.1f");
            fprintf(out, " ");
            {
                const json_t *d = json_object_get(json_object_get(v, "counters"), "derived");
                const json_t *rd = json_object_get(d, "mem_read_bytes_per_table_byte");
                const json_t *wr = json_object_get(d, "mem_write_bytes_per_table_byte");
                double page = (double)json_integer_value(json_object_get(v, "page_size"));
                if (json_is_number(rd))
                    fprintf(out, "%10.0f ", json_number_value(rd) * page);
                else
                    fprintf(out, "%10s ", "n/a");
                if (json_is_number(wr))
                    fprintf(out, "%10.0f", json_number_value(wr) * page);
                else
                    fprintf(out, "%10s", "n/a");
            }
            fprintf(out, "\n");
        }
    } else {
        const json_t *counters = json_object_get(json_object_get(run, "counters"), "reason");
        fprintf(out, "\ncounters: none available (%s)\n",
                json_is_string(counters) ? text(counters) : "no counter backend was used");
    }
    fprintf(out, "\nverdict:\n");
    json_array_foreach(json_object_get(verdict, "comparisons"), i, v)
        fprintf(out, "  %s\n", text(json_object_get(v, "text")));
    json_array_foreach(json_object_get(verdict, "knees"), i, v)
        fprintf(out, "  %s\n", text(json_object_get(v, "text")));
    noise_lines(out, report);
}
