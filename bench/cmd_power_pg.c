/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_power_pg.c: `scanbench power --pg [--server BINDIR] [--trials N] [--set KEY=VALUE]...
 * [-o DIR] [-q]`: the live path's own false calls and power on this host. Each trial is a
 * `scanbench pg` measurement (pg's own path, sb_pg_measure, nothing printed) of one run,
 * COUNT(*) of a 64MB table in 16MB of shared_buffers, and its reference on twin clusters,
 * repetitions = auto, each trial with a schedule_seed of its own; --set applies on top. Each
 * trial's A-A pair as the analysis calls it (analysis.noise.aa): how often identical settings on
 * two clusters are called different, with its Wilson interval; for each shift of the trials'
 * real A-A differences (1% to 20%), how often it is found; the smallest found in 80% of the
 * trials. Printed on stdout; -o DIR (a new directory) keeps power.json. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "core/core.h"
#include "report/report.h"
#include "stats/stats.h"

#define ARGS_MAX (16 + 2 * SB_POWER_PG_SETS)
#define FOUND_SHARE 0.80 /* "found 80% of the time" */

static const char *const defaults[] = {"table_size=64M", "pool_size=16M", "op=count"};

/* Whether the user's --set names the key of def ("table_size=64M": "table_size="). */
static bool user_sets_key(const struct sb_power_pg *o, const char *def)
{
    size_t len = strcspn(def, "=") + 1;

    for (int i = 0; i < o->nsets; i++)
        if (strncmp(o->sets[i], def, len) == 0)
            return true;
    return false;
}

/* Trial k's command line: pg, the server, the defaults the user did not set, the user's sets,
 * the trial's seed, -q. */
static int trial_argv(const struct sb_power_pg *o, uint64_t seed, char *seed_set, size_t len,
                      char **argv)
{
    int n = 0;

    argv[n++] = (char *)"pg";
    if (o->server) {
        argv[n++] = (char *)"--server";
        argv[n++] = (char *)o->server;
    }
    for (size_t d = 0; d < sizeof defaults / sizeof defaults[0]; d++)
        if (!user_sets_key(o, defaults[d])) {
            argv[n++] = (char *)"--set";
            argv[n++] = (char *)defaults[d];
        }
    for (int i = 0; i < o->nsets; i++) {
        argv[n++] = (char *)"--set";
        argv[n++] = (char *)o->sets[i];
    }
    snprintf(seed_set, len, "schedule_seed=%llu", (unsigned long long)seed);
    argv[n++] = (char *)"--set";
    argv[n++] = seed_set;
    argv[n++] = (char *)"-q";
    argv[n] = NULL;
    return n;
}

/* One trial's line of power.json: its call, interval, rounds and which shifts were found. */
static json_t *trial_json(const json_t *report, uint64_t seed, double seconds)
{
    const json_t *aa = sb_field(report, "analysis.noise.aa"), *s;
    json_t *found = json_array();
    size_t i;

    json_array_foreach(json_object_get(aa, "shifted"), i, s)
        json_array_append_new(found, json_pack("{s:O, s:O}", "shift",
                                               json_object_get(s, "shift"), "found",
                                               json_object_get(s, "found")));
    return json_pack("{s:I, s:s, s:O, s:O, s:O, s:O, s:O, s:f, s:o}", "seed", (json_int_t)seed,
                     "call", sb_field_text_or(aa, "call", "inconclusive"), "ratio",
                     json_object_get(aa, "ratio"), "lo", json_object_get(aa, "lo"), "hi",
                     json_object_get(aa, "hi"), "rounds", sb_field(report, "schedule.rounds"),
                     "stopped_by", sb_field(report, "schedule.stopped_by"), "seconds", seconds,
                     "found", found);
}

/* The trials one after another (a stop ends them between two): their lines into trials. */
static int run_trials(const struct sb_power_pg *o, json_t *trials, char *version, size_t vlen,
                      struct sb_error *err)
{
    char *argv[ARGS_MAX + 1], seed_set[64];
    int status = SB_OK;

    for (unsigned k = 0; k < o->trials && status == SB_OK && !sb_stop_requested(); k++) {
        uint64_t seed = o->seed + 7919u * k;
        int argc = trial_argv(o, seed, seed_set, sizeof seed_set, argv);
        double start = sb_timer_now();
        json_t *report = NULL;
        status = sb_pg_measure(argc, argv, &report, err);
        if (status == SB_OK && !json_is_object(sb_field(report, "analysis.noise.aa")))
            status = sb_fail(err, SB_ERR_RUN, "trial %u: its report has no A-A pair", k + 1);
        if (status == SB_OK) {
            json_t *line = trial_json(report, seed, sb_timer_now() - start);
            snprintf(version, vlen, "%s", sb_field_text_or(report, "postgresql.server_version",
                                                           "?"));
            if (!o->quiet)
                fprintf(stderr, "scanbench: power --pg: trial %u/%u: the A-A pair %s (%lld "
                        "rounds)\n", k + 1, o->trials, sb_field_text(line, "call"),
                        (long long)json_integer_value(json_object_get(line, "rounds")));
            json_array_append_new(trials, line);
        }
        json_decref(report);
    }
    return status;
}

/* k of n, its share and Wilson interval, as {k, n, share, lo, hi}. */
static json_t *share_json(unsigned k, unsigned n)
{
    double lo, hi;

    sb_wilson_interval(k, n, SB_CONFIDENCE, &lo, &hi);
    return json_pack("{s:i, s:i, s:f, s:f, s:f}", "k", (int)k, "n", (int)n, "share",
                     n ? (double)k / n : 0.0, "lo", lo, "hi", hi);
}

/* The tally: A-A calls that say different, and each shift's trials that found it. */
static json_t *tally_json(const json_t *trials)
{
    json_t *shifts = json_array(), *t, *smallest = json_null();
    unsigned n = (unsigned)json_array_size(trials), different = 0;
    size_t i, k;

    json_array_foreach(trials, i, t) {
        const char *call = sb_field_text(t, "call");
        different += strcmp(call, "faster") == 0 || strcmp(call, "slower") == 0;
    }
    for (k = 0; n && k < json_array_size(sb_field(json_array_get(trials, 0), "found")); k++) {
        const json_t *first = json_array_get(sb_field(json_array_get(trials, 0), "found"), k);
        double shift = json_number_value(json_object_get(first, "shift"));
        unsigned found = 0;
        json_t *entry;
        json_array_foreach(trials, i, t)
            found += json_is_true(json_object_get(json_array_get(sb_field(t, "found"), k),
                                                  "found"));
        entry = share_json(found, n);
        json_object_set_new(entry, "shift", json_real(shift));
        json_array_append_new(shifts, entry);
        if (json_is_null(smallest) && (double)found >= FOUND_SHARE * n)
            smallest = json_real(shift);
    }
    return json_pack("{s:o, s:o, s:o}", "called_different", share_json(different, n),
                     "shifts", shifts, "smallest_found_80", smallest);
}

/* The text: the trials, the false calls, each shift, the smallest found 80% of the time. */
static void print_tally(FILE *out, const json_t *tally, const char *version, unsigned n)
{
    const json_t *d = json_object_get(tally, "called_different"), *s;
    const json_t *smallest = json_object_get(tally, "smallest_found_80");
    size_t i;

    fprintf(out, "live A-A on PostgreSQL %s: %u trial%s, each COUNT(*) of a table in the OS "
            "cache and its reference on two clusters, repetitions = auto\n", version, n,
            n == 1 ? "" : "s");
    fprintf(out, "  identical settings called different: %lld of %u (%.0f%% [%.0f%%, %.0f%%], "
            "95%% Wilson)\n", json_integer_value(json_object_get(d, "k")), n,
            100.0 * json_number_value(json_object_get(d, "share")),
            100.0 * json_number_value(json_object_get(d, "lo")),
            100.0 * json_number_value(json_object_get(d, "hi")));
    fprintf(out, "  found (called faster), each trial's real A-A differences shifted by a known "
            "factor (a shift of real data, not a measured difference):\n   ");
    json_array_foreach(json_object_get(tally, "shifts"), i, s)
        fprintf(out, " %.0f%%: %lld of %u;", 100.0 * json_number_value(json_object_get(s, "shift")),
                json_integer_value(json_object_get(s, "k")), n);
    if (json_is_number(smallest))
        fprintf(out, "\n  the smallest shift found in %.0f%% of the trials: %.0f%%\n",
                100.0 * FOUND_SHARE, 100.0 * json_number_value(smallest));
    else
        fprintf(out, "\n  no shift up to 20%% was found in %.0f%% of the trials\n",
                100.0 * FOUND_SHARE);
}

int sb_power_pg_run(const struct sb_power_pg *o, const char *command, struct sb_error *err)
{
    static struct sb_outdir dir;
    json_t *trials = json_array(), *tally, *doc;
    char version[128] = "?", used[SB_OUTFILE_MAX], *text;
    int status = o->outdir ? sb_outdir_create(&dir, o->outdir, "power", err) : SB_OK;

    if (status == SB_OK)
        status = run_trials(o, trials, version, sizeof version, err);
    if (json_array_size(trials) == 0) {
        json_decref(trials);
        return status;
    }
    tally = tally_json(trials);
    print_tally(stdout, tally, version, (unsigned)json_array_size(trials));
    doc = json_pack("{s:s, s:s, s:s, s:o, s:o}", "command", command ? command : "scanbench power",
                    "server_version", version, "what",
                    "live A-A trials: each a scanbench pg run of one run and its reference on twin "
                    "clusters; the A-A pair's call (analysis.noise.aa) and its shifted calls",
                    "tally", tally, "trials", trials);
    text = doc ? json_dumps(doc, JSON_INDENT(1)) : NULL;
    if (o->outdir && text && sb_outdir_write(&dir, "power.json", text, strlen(text), used,
                                             status == SB_OK ? err : &(struct sb_error){0}) != SB_OK)
        status = SB_ERR_RUN;
    free(text);
    json_decref(doc);
    return status;
}
