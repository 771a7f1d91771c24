/* SPDX-License-Identifier: BSD-3-Clause */
/* pg.c: the live server's runs as a table (see pg.h). */
#include "config.h"
#include "render/pg.h"

#include <stdbool.h>
#include <string.h>

#include "core/core.h"
#include "render/pg_variance.h"
#include "render/table_notes.h"
#include "report/report.h"
#include "vocab/vocab.h"

static uint64_t size_of(const json_t *run, const char *key)
{
    return (uint64_t)json_integer_value(json_object_get(run, key));
}

static const char *op_label(const json_t *run)
{
    const struct sb_op *o = sb_op_find(sb_field_text(run, "op"));
    return o ? o->label : sb_field_text(run, "op");
}

/* The server's version, short ("8.1.21", "15.20"). */
static void short_version(const json_t *run, char *buf, size_t len)
{
    const char *v = sb_field_text(run, "postgresql.server_version");
    snprintf(buf, len, "%.*s", (int)strcspn(v, " "), v);
}

/* The servers' versions, short, each once: "8.1.21, 8.2.23, 15.20". */
static void versions(const json_t *runs, char *buf, size_t len)
{
    size_t i, k;
    json_t *run;

    buf[0] = '\0';
    json_array_foreach(runs, i, run) {
        char v[64], w[64];
        bool seen = false;
        short_version(run, v, sizeof v);
        for (k = 0; k < i && !seen; k++) {
            short_version(json_array_get(runs, k), w, sizeof w);
            seen = strcmp(v, w) == 0;
        }
        if (!seen)
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "", v);
    }
}

/* Whether the runs are on more than one server. */
static bool several_servers(const json_t *runs)
{
    char all[256];

    versions(runs, all, sizeof all);
    return strchr(all, ',') != NULL;
}

/* Backends at once (threads; 0 or 1: one). */
static int backends_of(const json_t *run)
{
    int n = (int)json_integer_value(json_object_get(run, "threads"));
    return n > 1 ? n : 1;
}

/* The server settings the run asked for (postgresql.asked, those not `default`), e.g.
 * "io_method=worker buffer_usage_limit=2097152"; "" when none. */
static void asked(const json_t *run, char *buf, size_t len)
{
    const json_t *o = json_object_get(json_object_get(run, "postgresql"), "asked");
    const char *key;
    const json_t *v;
    size_t used = 0;

    buf[0] = '\0';
    json_object_foreach((json_t *)o, key, v) {
        char a[32];
        if (json_is_string(v) && strcmp(json_string_value(v), "default") == 0)
            continue;
        if (json_is_integer(v) && json_integer_value(v) == 0 &&
            strcmp(key, "buffer_usage_limit") == 0)
            snprintf(a, sizeof a, "0 (no ring)");
        else if (json_is_integer(v) && (strcmp(key, "buffer_usage_limit") == 0 ||
                                        strcmp(key, "io_combine_limit") == 0))
            sb_format_size((uint64_t)json_integer_value(v), a, sizeof a);
        else if (json_is_integer(v))
            snprintf(a, sizeof a, "%lld", (long long)json_integer_value(v));
        else
            snprintf(a, sizeof a, "%s", json_string_value(v));
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? " " : "", key, a);
    }
}

/* What tells a run apart in a line: "pool 16MB", with its server where there are several and
 * its backends where there are several. */
static void who(const json_t *run, bool servers, char *buf, size_t len)
{
    char a[32], v[64] = "", a2[192];

    if (servers)
        short_version(run, v, sizeof v);
    snprintf(buf, len, "%s%s%spool %s", servers ? "PostgreSQL " : "", v, servers ? ", " : "",
             sb_format_size(size_of(run, "pool_size"), a, sizeof a));
    if (backends_of(run) > 1)
        snprintf(buf + strlen(buf), len - strlen(buf), ", %d backends", backends_of(run));
    asked(run, a2, sizeof a2);
    if (a2[0])
        snprintf(buf + strlen(buf), len - strlen(buf), ", %s", a2);
}

static void placement(const json_t *run, char *buf, size_t len)
{
    char size[32];
    const char *policy = sb_field_text(run, "policy");

    if (strcmp(policy, "ring") == 0)
        snprintf(buf, len, "ring %s", sb_format_size(size_of(run, "ring_size"), size,
                                                      sizeof size));
    else
        snprintf(buf, len, "%s (scattered)", policy);
}

/* Whether runs a and b have the same op, table, server and backends. */
static bool alike(const json_t *a, const json_t *b)
{
    char va[64], vb[64];

    short_version(a, va, sizeof va);
    short_version(b, vb, sizeof vb);
    return strcmp(sb_field_text(a, "op"), sb_field_text(b, "op")) == 0 &&
           size_of(a, "table_size") == size_of(b, "table_size") && strcmp(va, vb) == 0 &&
           backends_of(a) == backends_of(b);
}

/* Median MB/s of the first run like `like` (alike), on one side of the rule. */
static double median_of(const json_t *runs, const json_t *like, const char *policy,
                        const json_t **which)
{
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run)
        if (alike(run, like) && strcmp(sb_field_text(run, "policy"), policy) == 0) {
            *which = run;
            return json_number_value(sb_field(run, "mbps.median"));
        }
    return 0;
}

static void ratios(FILE *out, const json_t *runs, bool servers)
{
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        uint64_t table = size_of(run, "table_size");
        const json_t *ring = NULL, *clock = NULL, *earlier = NULL;
        double r, c;
        char a[32], b[32], t[32], v[64] = "";
        size_t k;
        json_t *other;

        json_array_foreach(runs, k, other) {
            if (k >= i)
                break;
            if (alike(other, run))
                earlier = other;
        }
        if (earlier)
            continue; /* one line per op, table, server and backends */
        r = median_of(runs, run, "ring", &ring);
        c = median_of(runs, run, "clock", &clock);
        if (!ring || !clock || c <= 0)
            continue;
        if (servers)
            short_version(run, v, sizeof v);
        fprintf(out, "ring/scattered, %s, %s table%s%s: %.2f (ring in a %s pool / clock sweep "
                "over %s; medians, unpaired)\n", op_label(run), sb_format_size(table, t, sizeof t),
                servers ? ", PostgreSQL " : "", v, r / c,
                sb_format_size(size_of(ring, "pool_size"), a, sizeof a),
                sb_format_size(size_of(clock, "pool_size"), b, sizeof b));
    }
}

/* The title, the servers, how the scans were timed, and the table's column headings. */
static void pg_heading(FILE *out, const json_t *report, bool servers, bool backends,
                       bool settings)
{
    const json_t *pg = json_object_get(report, "postgresql");
    const json_t *exp = json_object_get(report, "experiment");
    const json_t *runs = json_object_get(report, "runs");
    const json_t *first = json_array_get(runs, 0);
    const json_t *schedule = json_object_get(report, "schedule");
    char all[256];

    fprintf(out, "scanbench pg %s: %s\n", sb_field_text(exp, "name"),
            sb_field_text(exp, "description"));
    if (strcmp(sb_field_text(schedule, "kind"), "interleaved") == 0) {
        versions(runs, all, sizeof all);
        fprintf(out, "PostgreSQL %s: %lld throwaway clusters side by side (one per server, pool, "
                "table and backend), %lld rounds, each run once per round in a shuffled order, "
                "after %d warm-up\n\n", all,
                (long long)json_integer_value(json_object_get(schedule, "clusters")),
                (long long)json_integer_value(json_object_get(schedule, "rounds")),
                (int)json_integer_value(json_object_get(first, "warmup")));
    } else
        fprintf(out, "PostgreSQL %s, a throwaway cluster, one backend (no parallel workers), "
                "%d timed scans after %d warm-up, each run alone\n\n",
                sb_field_text(pg, "server_version"),
                (int)json_array_size(json_object_get(first, "repetitions")),
                (int)json_integer_value(json_object_get(first, "warmup")));
    if (servers)
        fprintf(out, "%-8s | ", "server");
    fprintf(out, "%-16s | %6s | %8s | ", "Operation", "table", "pool");
    if (backends)
        fprintf(out, "%8s | ", "backends");
    fprintf(out, "%-17s | %7s %6s | %15s | %s%s\n", "placement", "MB/s", "cv", "shared hit/read",
            "table buffers after a scan", settings ? " | server settings asked" : "");
}

/* One run's row: its op, sizes, placement, MB/s, buffer figures and occupancy. */
static void pg_row(FILE *out, const json_t *run, bool servers, bool backends, bool settings)
{
    char set[192];
    const json_t *p = json_object_get(run, "postgresql");
    const json_t *buffers = json_object_get(p, "buffers");
    const json_t *occ = json_object_get(p, "occupancy");
    const json_t *mbps = json_object_get(run, "mbps");
    char where[48], hitread[48], after[96], a[32], b[32];

    placement(run, where, sizeof where);
    if (json_is_object(buffers))
        snprintf(hitread, sizeof hitread, "%lld/%lld",
                 (long long)json_integer_value(json_object_get(buffers, "shared_hit")),
                 (long long)json_integer_value(json_object_get(buffers, "shared_read")));
    else
        snprintf(hitread, sizeof hitread, "n/a");
    if (json_is_integer(json_object_get(occ, "table_buffers")))
        snprintf(after, sizeof after, "%lld (%s)",
                 (long long)json_integer_value(json_object_get(occ, "table_buffers")),
                 json_is_true(json_object_get(occ, "consistent")) ? "as the rule says"
                                                                  : "NOT as the rule says");
    else
        snprintf(after, sizeof after, "n/a: %s", sb_field_text(occ, "unavailable"));
    if (servers) {
        char v[64];
        short_version(run, v, sizeof v);
        fprintf(out, "%-8s | ", v);
    }
    fprintf(out, "%-16s | %6s | %8s | ", op_label(run),
            sb_format_size(size_of(run, "table_size"), a, sizeof a),
            sb_format_size(size_of(run, "pool_size"), b, sizeof b));
    if (backends)
        fprintf(out, "%8d | ", backends_of(run));
    asked(run, set, sizeof set);
    fprintf(out, "%-17s | %7.0f %5.1f%% | %15s | %s%s%s\n", where,
            json_number_value(json_object_get(mbps, "median")),
            100.0 * json_number_value(json_object_get(mbps, "cv")), hitread, after,
            settings ? " | " : "", settings ? set : "");
}

/* PostgreSQL's placement rule as each run applied it, then how the figures were taken. */
static void pg_rules_and_method(FILE *out, const json_t *runs, bool any_ring, bool servers)
{
    size_t i;
    json_t *run;
    char a[320];
    bool copiers = false;

    fprintf(out, "\nPostgreSQL's rule, run by run:\n");
    json_array_foreach(runs, i, run) {
        who(run, servers, a, sizeof a);
        fprintf(out, "  %s, %s: %s\n", op_label(run), a,
                sb_field_text(run, "postgresql.rule"));
    }
    json_array_foreach(runs, i, run)
        copiers |= strstr(sb_field_text(run, "postgresql.copier"), "io_method") != NULL;
    if (copiers) {
        fprintf(out, "\nWho copies a page into shared_buffers, run by run:\n");
        json_array_foreach(runs, i, run) {
            who(run, servers, a, sizeof a);
            fprintf(out, "  %s, %s: %s\n", op_label(run), a,
                    sb_field_text(run, "postgresql.copier"));
        }
    }
    fprintf(out, "\nMB/s = pg_relation_size / seconds / 10^6, seconds on the client's monotonic "
                 "clock around the statement; median of the timed scans; cv: their coefficient "
                 "of variation.\nEvery scan starts with none of the table's pages in "
                 "shared_buffers and its file in the OS cache (it moves between two tablespaces "
                 "before each scan), so both sides of the rule read every page.\n");
    if (any_ring)
        fprintf(out, "note: no setting turns a seqscan's ring off (it has one whenever the "
                     "table is larger than shared_buffers / 4), and before 16 nothing turns "
                     "VACUUM's off (from 16, buffer_usage_limit = 0: VACUUM (BUFFER_USAGE_LIMIT "
                     "0)): PostgreSQL 8.2's clock sweep of a COUNT(*) over a pool smaller than "
                     "four times the table is only in scanbench's own column (scanbench run "
                     "--set policy=clock).\n");
}

/* Key statements: each run's sequence, the earlier ones untimed after each eviction. */
static void pg_statements(FILE *out, const json_t *runs, bool servers)
{
    size_t i, k;
    json_t *run, *st;
    char a[320];

    json_array_foreach(runs, i, run) {
        const json_t *list = json_object_get(run, "statements");
        if (!json_array_size(list))
            continue;
        who(run, servers, a, sizeof a);
        fprintf(out, "statements, %s, %s (the earlier leave some of the table's pages in "
                "shared_buffers): after each eviction", op_label(run), a);
        json_array_foreach(list, k, st) {
            const struct sb_op *o = sb_op_find(sb_field_text(st, "op"));
            fprintf(out, "%s%s (%s)", k ? ", then " : " ", o ? o->label : "?",
                    json_is_true(json_object_get(st, "measured")) ? "timed" : "untimed");
        }
        fprintf(out, "\n");
    }
}

static long long count_of(const json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

/* One instrumented scan's writes: the statement's figures, the server's counters in brackets,
 * the server's kind beside scanbench's. False when the scan was not measured. */
static bool pg_write_line(FILE *out, const json_t *run, const json_t *w, const char *which,
                          bool servers)
{
    const json_t *c = json_object_get(w, "counters");
    const json_t *written = json_object_get(w, "shared_written");
    char a[320], counters[160] = "", own[64] = "";

    if (!json_is_string(json_object_get(w, "server")))
        return false;
    if (json_is_integer(json_object_get(w, "shared_dirtied")))
        snprintf(own, sizeof own, "dirtied %lld", count_of(w, "shared_dirtied"));
    if (json_is_integer(written))
        snprintf(own + strlen(own), sizeof own - strlen(own), ", written %lld by the backend",
                 (long long)json_integer_value(written));
    if (json_is_integer(json_object_get(c, "backend")))
        snprintf(counters, sizeof counters, " (%s: backends %lld, checkpoint after it %lld, "
                 "bgwriter %lld)", json_is_object(json_object_get(c, "backend_by_context"))
                                       ? "pg_stat_io" : "pg_stat_bgwriter",
                 count_of(c, "backend"), count_of(c, "checkpointer"), count_of(c, "bgwriter"));
    who(run, servers, a, sizeof a);
    fprintf(out, "  %s, %s, %s: %s%s: %s; scanbench: %s (%s)\n", op_label(run), a, which, own,
            counters,
            sb_field_text(w, "server"), sb_field_text(w, "scanbench_expects"),
            strcmp(sb_field_text(w, "agreement"), "agrees") == 0 ? "agrees"
                                                                          : "DISAGREES");
    return true;
}

/* Buffers written per scan beside scanbench's model, in kind; nothing for reports made before
 * the server's writes were measured. */
static void pg_writes(FILE *out, const json_t *runs, bool servers)
{
    bool heading = false, vacuum_disagrees = false;
    size_t i;
    json_t *run;

    json_array_foreach(runs, i, run) {
        const json_t *w = sb_field(run, "postgresql.writes");
        const json_t *later = json_object_get(w, "later_scan");
        if (!json_is_object(w))
            continue;
        if (!heading)
            fprintf(out, "\nBuffers the server dirtied and wrote per scan (the statement's own "
                         "figures; the server's write counters across it in brackets), beside "
                         "scanbench's model with writeback = evict, in kind:\n");
        heading = true;
        pg_write_line(out, run, json_object_get(w, "first_scan_after_load"),
                      "first scan after load", servers);
        if (pg_write_line(out, run, later, "later scans", servers) &&
            strcmp(sb_field_text(run, "op"), "vacuum") == 0 &&
            strcmp(sb_field_text(later, "agreement"), "disagrees") == 0)
            vacuum_disagrees = true;
    }
    if (vacuum_disagrees)
        fprintf(out, "note: a later VACUUM that wrote found something to change: dead rows "
                     "left, hint bits missing, or (8.4 and later) a page not yet marked "
                     "all-visible; scanbench's vacuum finds nothing to change after the first "
                     "and writes nothing.\n");
}

/* The interleaved schedule's paired comparisons (report/analysis.h): each run against its op's
 * first, round by round, with its ratio, its interval (whatever the call) and call; the noise floor of the A-A pair. */
static void pg_paired(FILE *out, const json_t *report, bool servers)
{
    const json_t *analysis = json_object_get(report, "analysis");
    const json_t *runs = json_object_get(report, "runs"), *noise = json_object_get(analysis,
                                                                                  "noise");
    size_t i;
    json_t *c;

    if (!json_is_object(analysis))
        return;
    if (!json_is_true(json_object_get(analysis, "available"))) {
        fprintf(out, "\nno paired ratios: %s\n", sb_field_text(analysis, "why"));
        return;
    }
    fprintf(out, "\nPaired by round (%lld rounds; each run against its op's first on its "
            "server at as many backends, and against the same setting on the first server; "
            "exp(median of ln(a/b)) "
            "[95%% interval, Bonferroni over %zu comparisons]):\n",
            (long long)json_integer_value(json_object_get(analysis, "rounds")),
            json_array_size(json_object_get(analysis, "comparisons")));
    json_array_foreach(json_object_get(analysis, "comparisons"), i, c) {
        const json_t *a = sb_find_run_named(runs, sb_field_text(c, "a"));
        const json_t *b = sb_find_run_named(runs, sb_field_text(c, "b"));
        char la[320], lb[320], ratio[64];
        if (!a || !b)
            continue;
        who(a, servers, la, sizeof la);
        who(b, servers, lb, sizeof lb);
        fprintf(out, "  %s, %s / %s: %s: %s\n", op_label(a), la, lb,
                sb_comparison_ratio_text(c, ratio, sizeof ratio), sb_field_text(c, "text"));
    }
    if (json_is_number(json_object_get(noise, "floor")))
        fprintf(out, "noise floor %.1f%% (the first run timed again each round, on clusters of "
                "its own), so \"the same\" "
                "means within %.1f%%\n", 100.0 * json_number_value(json_object_get(noise,
                                                                                "floor")),
                100.0 * json_number_value(json_object_get(noise, "delta")));
    if (json_is_true(json_object_get(noise, "too_noisy")))
        fprintf(out, "a noisy host (warning): identical settings could differ by up to %.1f%% at "
                "these rounds (the A-A pair's bound)\n",
                100.0 * json_number_value(json_object_get(noise, "bound")));
    sb_render_pg_aa(out, report);
    sb_render_pg_stopping(out, report);
    sb_render_pg_variance(out, report);
}

/* The comparison against first (a run's name) on its own server with the highest ratio, and
 * how many there are. */
static const json_t *best_against(const json_t *report, const char *first, size_t *n)
{
    const json_t *runs = json_object_get(report, "runs"), *best = NULL, *c;
    const json_t *b = sb_find_run_named(runs, first);
    size_t i;

    *n = 0;
    json_array_foreach(json_object_get(json_object_get(report, "analysis"), "comparisons"), i, c) {
        const json_t *a = sb_find_run_named(runs, sb_field_text(c, "a"));
        if (strcmp(sb_field_text(c, "b"), first) != 0 || !a ||
            strcmp(sb_field_text(a, "postgresql.server_version"),
                   sb_field_text(b, "postgresql.server_version")) != 0)
            continue; /* another server's: the version's effect, not a setting's */
        (*n)++;
        if (!best || json_number_value(json_object_get(c, "ratio")) >
                         json_number_value(json_object_get(best, "ratio")))
            best = c;
    }
    return best;
}

/* A sweep of settings on a server (two or more runs paired with its op's first): the best
 * here, the one the pairs put highest whatever its call, and what the first (the server's
 * default when it comes first) costs against it. */
static void pg_best(FILE *out, const json_t *report, bool servers)
{
    const json_t *runs = json_object_get(report, "runs"), *run;
    bool heading = false;
    size_t i, n;

    json_array_foreach(runs, i, run) {
        const json_t *c = best_against(report, sb_field_text(run, "name"), &n);
        const json_t *a = c ? sb_find_run_named(runs, sb_field_text(c, "a")) : NULL;
        double r, lo, hi;
        char la[320], lb[320], where[48], first[48];
        if (!a || n < 2)
            continue;
        if (!heading)
            fprintf(out, "\nBest here, against each server's first run of an op (the highest "
                         "paired ratio, whatever its call):\n");
        heading = true;
        r = json_number_value(json_object_get(c, "ratio"));
        lo = json_number_value(json_object_get(c, "lo"));
        hi = json_number_value(json_object_get(c, "hi"));
        who(a, servers, la, sizeof la);
        who(run, servers, lb, sizeof lb);
        placement(a, where, sizeof where);
        placement(run, first, sizeof first);
        if (r <= 1.0)
            fprintf(out, "  %s, %s (%s): no run of the %zu beside it beats it; the closest, %s "
                    "(%s), %.2fx [%.2f, %.2f]\n", op_label(run), lb, first, n, la, where, r, lo,
                    hi);
        else
            fprintf(out, "  %s, %s (%s): best here %s (%s), %.2fx [%.2f, %.2f], %s; the first "
                    "runs at %.0f%% of it [%.0f%%, %.0f%%]\n", op_label(run), lb, first, la,
                    where, r, lo, hi, sb_field_text(c, "call"), 100.0 / r, 100.0 / hi,
                    100.0 / lo);
    }
}

void sb_render_pg(FILE *out, const json_t *report)
{
    const json_t *runs = json_object_get(report, "runs");
    bool any_ring = false, servers = several_servers(runs), backends = false, settings = false;
    size_t i;
    json_t *run;
    char set[192];

    json_array_foreach(runs, i, run) {
        backends |= backends_of(run) > 1;
        asked(run, set, sizeof set);
        settings |= set[0] != '\0';
    }
    pg_heading(out, report, servers, backends, settings);
    json_array_foreach(runs, i, run) {
        any_ring |= strcmp(sb_field_text(run, "policy"), "ring") == 0;
        pg_row(out, run, servers, backends, settings);
    }
    fprintf(out, "\n");
    ratios(out, runs, servers);
    pg_paired(out, report, servers);
    pg_best(out, report, servers);
    fprintf(out, "\n");
    sb_table_knees(out, report);
    pg_rules_and_method(out, runs, any_ring, servers);
    pg_statements(out, runs, servers);
    pg_writes(out, runs, servers);
}
