/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_pg.c: `scanbench pg [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json] [-q]`: the
 * experiment run on a live PostgreSQL server instead of scanbench's own scan loop: a throwaway
 * cluster with shared_buffers = pool_size, a lineitem-like table of table_size, SELECT count(*)
 * and VACUUM timed on the client; PostgreSQL's own rule places the pages (its ring, or the
 * clock sweep). Prints the table on stdout, writes the same report format as `run` (source
 * `postgresql`). With no experiment file it asks the 2007 thread's question as the servers'
 * versions allow it (pg/question.h; a --set of pool_size, op or buffer_usage_limit asks the
 * user's own instead). Each run is bounded by run_timeout (the watchdog of stop.h cancels its
 * statement). Stopped by a signal or the watchdog, it prints and writes the runs finished so far,
 * marked incomplete. The cluster is removed on every path, the signals and the watchdog
 * included; the clusters a scanbench killed by SIGKILL left are removed by the next one, or by
 * `scanbench pg --cleanup`, which runs nothing else. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "core/core.h"
#include "host/host.h"
#include "pg/pg.h"
#include "plan/plan.h"
#include "render/render.h"
#include "report/report.h"
#include "run_args.h"
#include "runner/runner.h"
#include "runner/runner_setup.h"

/* Keys a server cannot be told make no runs of their own: a list keeps its first value (the
 * note of sb_pg_ignored_keys_note, taken before, says the key was ignored). */
static void collapse_ignored_lists(struct sb_experiment *exp)
{
    static const enum sb_key_id keys[] = {SB_K_SOURCE, SB_K_KERNEL, SB_K_POLICY, SB_K_RING_SIZE,
                                          SB_K_SEED, SB_K_MACHINE, SB_K_PREFETCH};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        sb_experiment_keep_first(exp, keys[k]);
}

/* A signal or the watchdog stopped the server runs: the report keeps the runs finished, marked
 * incomplete, naming the run stopped (jobs run in order, each finished one recorded). */
static void mark_stopped(const struct sb_pg_jobs *jobs, json_t *report, struct sb_error *err)
{
    size_t done = json_array_size(json_object_get(report, "runs"));
    const char *name = done < jobs->n ? jobs->jobs[done].run->name : "";
    char why[320], more[64] = "";

    sb_report_mark_interrupted(report, sb_stop_reason(why, sizeof why), name, done + 1,
                               jobs->n);
    if (!sb_stop_signal())
        return; /* the watchdog: err names the run already (pg/runner.c) */
    if (jobs->n > done + 1)
        snprintf(more, sizeof more, "; %zu more not run", jobs->n - done - 1);
    sb_fail(err, SB_ERR_RUN, "interrupted (%s) during pg run %zu/%zu %s: the report keeps the "
            "%zu runs finished, marked incomplete%s", why, done + 1, jobs->n, name, done, more);
}

/* every --server fits the rounds' servers */
_Static_assert(SB_RUN_ARGS_MAX_SERVERS <= SB_PG_SERVERS_MAX, "--server: more than pg measures");

static bool interleaved(const struct sb_experiment *exp)
{
    return strcmp(exp->settings[SB_K_SCHEDULE].values[0], "blocked") != 0;
}

/* Several servers and several backends need the interleaved schedule (clusters side by side);
 * backends at once, no more than the CPUs this process may use (taskset: the server inherits
 * them). */
static int check_servers_and_backends(const struct sb_experiment *exp,
                                      const struct sb_run_args *args, struct sb_error *err)
{
    const struct sb_setting *threads = &exp->settings[SB_K_THREADS];
    cpu_set_t allowed;
    char list[128];
    int cpus = sb_cpus_allowed(&allowed, list, sizeof list);

    if (!interleaved(exp) && args->nservers > 1)
        return sb_fail(err, SB_ERR_INPUT, "--server %s: %d servers, but %s: schedule = blocked "
                       "runs one server (interleaved runs them side by side)", args->servers[1],
                       args->nservers, exp->settings[SB_K_SCHEDULE].origin);
    for (int v = 0; v < threads->nvalues; v++)
        if (cpus > 0 && threads->numbers[v] > (uint64_t)cpus)
            return sb_fail(err, SB_ERR_INPUT, "%s: threads: %s backends at once, but this "
                           "process may use %s %s (sched_getaffinity: taskset or a cpuset)",
                           threads->origin, threads->values[v],
                           cpus == 1 ? "only CPU" : "the CPUs", list);
    return SB_OK;
}

/* The servers' versions: found (by ask_default_question) or looked up here. */
struct server_versions {
    char text[SB_PG_SERVERS_MAX][SB_PG_VERSION_MAX];
    bool found;
};

/* The server keys (io_method...) against every server's version: a setting a server is too
 * old for is refused before any cluster starts. */
static int check_server_versions(const struct sb_experiment *exp, const struct sb_run_args *args,
                                 struct server_versions *versions, struct sb_error *err)
{
    size_t n = (size_t)args->nservers;
    int status = versions->found ? SB_OK : sb_pg_servers_find(args->servers, n, versions->text,
                                                               err);

    for (size_t v = 0; v < (n ? n : 1) && status == SB_OK; v++)
        status = sb_pg_check_server_keys(exp, versions->text[v], n ? args->servers[v] :
                                         "the server found", err);
    return status;
}

/* No experiment file: the thread's question as the servers' versions allow it (pg/question.h),
 * unless the user's --set decides; its note (what VACUUM cannot be asked) into note. A server
 * not found puts no question: check_server_versions says why later, after the checks of the
 * input, as with a file (a stop during the lookup ends it here). */
static int ask_default_question(struct sb_experiment *exp, const struct sb_run_args *args,
                                struct server_versions *versions, char *note, size_t len,
                                struct sb_error *err)
{
    const char *names[SB_PG_SERVERS_MAX];
    size_t n = (size_t)args->nservers;
    struct sb_pg_question q;
    struct sb_error not_found = {0};
    bool asked = false;
    int status = SB_OK;

    note[0] = '\0';
    if (sb_pg_question_user_decides(exp))
        return SB_OK;
    status = sb_pg_servers_find(args->servers, n, versions->text, &not_found);
    if (status != SB_OK && sb_stop_requested()) {
        *err = not_found;
        return status;
    }
    if (status != SB_OK)
        return SB_OK;
    versions->found = true;
    for (size_t v = 0; v < (n ? n : 1); v++)
        names[v] = versions->text[v];
    status = sb_pg_question_ask(exp, names, n ? n : 1, &q, &asked, err);
    if (status == SB_OK && asked)
        snprintf(note, len, "%s", q.note);
    return status;
}

/* The notes of the keys a server ignores, and the question's after them. */
static void join_note(char *notes, size_t size, const char *more)
{
    size_t used = strlen(notes);

    if (more[0] && used + 2 < size)
        snprintf(notes + used, size - used, "%s%s", used ? "; " : "", more);
}

const struct sb_options sb_options_pg = {
    .command = "pg",
    SB_RUN_OPERANDS,
    .options = {
        {SB_RUN_SERVER, "--server", NULL, SB_OPT_TEXT, "BINDIR", true,
         "a server's bin directory (8.1 to 8.3, 9.6 on); again for another,\n"
         "each measured side by side (default: SCANBENCH_PG_BINDIR, else\n"
         "pg_config --bindir, else the newest /usr/lib/postgresql/*/bin)", NULL, 0, 0},
        SB_OPTION_SET(SB_RUN_SET, SB_SET_HELP),
        SB_RUN_OPTION_OUTPUT,
        SB_RUN_OPTION_QUIET,
        {SB_RUN_CLEANUP, "--cleanup", NULL, SB_OPT_FLAG, NULL, false,
         "runs nothing: removes the clusters under TMPDIR (else /tmp) whose\n"
         "scanbench is gone (killed by SIGKILL), stopping their server", NULL, 0, 0},
        {0},
    },
};

/* --cleanup: the clusters whose scanbench is gone removed (a line each on stderr), what was
 * done on stdout; alone on its command line (but -q). */
static int cleanup(const struct sb_run_args *args, struct sb_error *err)
{
    size_t removed, alive;
    const char *parent = sb_pg_parent_dir();

    if (args->file || args->nsets || args->output || args->nservers)
        return sb_fail(err, SB_ERR_INPUT, "--cleanup: runs nothing, so takes no %s",
                       args->file ? "experiment file" : args->nsets ? "--set" :
                       args->output ? "-o" : "--server");
    sb_pg_sweep(parent, &removed, &alive);
    printf("%zu stale cluster%s removed under %s; %zu of a scanbench still running left alone\n",
           removed, removed == 1 ? "" : "s", parent, alive);
    return SB_OK;
}

/* What a server run needs: the command line read, the experiment read (with no file, the
 * default question put) with the keys a server ignores noted (into ignored, the question's
 * note after them) and collapsed, planned, its server jobs made and -o checked; everything that
 * can refuse the input, before the cluster starts. */
static int prepare(int argc, char **argv, struct sb_run_args *args, struct sb_setup *s,
                   struct sb_pg_jobs *jobs, char *ignored, size_t ignored_size,
                   struct sb_error *err)
{
    char why[256], question_note[512] = "";
    struct server_versions versions = {.found = false};
    int status = sb_run_args_parse(&sb_options_pg, argc, argv, args, err);

    if (status == SB_OK && args->cleanup)
        return cleanup(args, err);
    if (status == SB_OK && !sb_pg_built(why, sizeof why))
        status = sb_fail(err, SB_ERR_INPUT, "pg: %s", why);
    if (status == SB_OK)
        status = sb_setup_read(s, args->file, args->sets, args->nsets, err);
    /* keys the server runs do not honour (bigtable...) are refused before planning, whose own
     * checks of them would not be the point; threads are backends at once when interleaved */
    if (status == SB_OK)
        status = sb_pg_check_keys(&s->exp, interleaved(&s->exp), err);
    if (status == SB_OK)
        status = check_servers_and_backends(&s->exp, args, err);
    if (status == SB_OK && !args->file)
        status = ask_default_question(&s->exp, args, &versions, question_note,
                                      sizeof question_note, err);
    if (status == SB_OK) {
        sb_pg_ignored_keys_note(&s->exp, ignored, ignored_size);
        join_note(ignored, ignored_size, question_note);
        collapse_ignored_lists(&s->exp);
        status = sb_setup_plan(s, NULL, err);
    }
    if (status == SB_OK)
        status = sb_pg_jobs_build(&s->plan, &s->exp, true, jobs, err);
    if (status == SB_OK && jobs->n == 0)
        status = sb_fail(err, SB_ERR_INPUT, "%s: op: nothing a server can run (count, vacuum)",
                         s->exp.settings[SB_K_OP].origin);
    if (status == SB_OK)
        status = check_server_versions(&s->exp, args, &versions, err);
    if (status == SB_OK && args->output)
        status = sb_report_check_target(args->output, err);
    return status;
}

/* The report begun: the plan and the host; blocked, the schedule it has (each run alone; the
 * interleaved schedule's block comes from its rounds). */
static json_t *begin_report(const struct sb_setup *s, const char *command)
{
    json_t *report = sb_setup_report(s, command ? command : "scanbench pg");

    if (report && !interleaved(&s->exp) &&
        json_object_set_new(report, "schedule", json_pack(
            "{s:s, s:s, s:n}", "kind", "blocked", "why", "each server run alone: "
            "shared_buffers is the server's, set when it starts", "reference")) != 0) {
        json_decref(report);
        return NULL;
    }
    if (report)
        sb_report_mark_complete(report);
    return report;
}

/* The cluster started, the jobs run on it into the report's runs; *stopped: a signal or the
 * watchdog stopped them (the report then says so). */
static int run_server(struct sb_pg_session **session, const char *bindir,
                      const struct sb_pg_jobs *jobs, const char *notes, bool quiet,
                      json_t *report, bool *stopped, struct sb_error *err)
{
    int status = sb_pg_session_open(session, bindir, jobs, quiet, err);

    if (status == SB_OK && notes[0] && !quiet)
        fprintf(stderr, "scanbench: note: %s\n", notes);
    if (status == SB_OK)
        status = sb_pg_session_run(*session, jobs, json_object_get(report, "runs"), quiet, err);
    *stopped = status != SB_OK && sb_stop_requested();
    if (*stopped)
        mark_stopped(jobs, report, err);
    return status;
}

/* A stop during the rounds: the report keeps the whole rounds finished, marked incomplete,
 * naming the run in flight. */
static void mark_rounds_stopped(const struct sb_pg_fleet *fleet, json_t *report,
                                struct sb_error *err)
{
    size_t unit, runs = sb_pg_fleet_runs(fleet);
    const char *name;
    uint32_t rounds = sb_pg_fleet_rounds_done(fleet, &unit, &name);
    char why[320];

    sb_report_mark_interrupted(report, sb_stop_reason(why, sizeof why), name, unit + 1, runs);
    json_object_set_new(json_object_get(report, "interrupted"), "rounds_done",
                        json_integer(rounds));
    if (!sb_stop_signal())
        return; /* the watchdog: err names the round and the run already (pg/rounds.c) */
    sb_fail(err, SB_ERR_RUN, "interrupted (%s) during pg round %u, run %zu/%zu %s: the report "
            "keeps the %u whole rounds of its %zu runs, marked incomplete", why, rounds + 1,
            unit + 1, runs, name, rounds, runs);
}

/* repetitions = auto's question after a pair of rounds: does the analysis of the rounds so far
 * (run's, as the report will have it) have every pair within the precision, the A-A pair too
 * (it sets the threshold of every call, and a run of one setting has no other)? */
static bool rounds_settled(const json_t *runs, const json_t *schedule, double precision)
{
    json_t *report = json_pack("{s:O, s:O}", "runs", runs, "schedule", schedule);
    json_t *analysis = report ? sb_analysis_build_provisional(report) : NULL;
    bool done = analysis && sb_analysis_settled(analysis, precision) &&
                sb_analysis_aa_settled(report, precision);

    json_decref(analysis);
    json_decref(report);
    return done;
}

/* The interleaved schedule: every server and setting a cluster of its own, side by side, the
 * timed scans in shuffled rounds (pg/rounds.h), then the paired analysis of `run`'s reports.
 * time_budget = auto grows with the servers (it is per run, and each server runs the plan). */
static int run_fleet(struct sb_pg_fleet **fleet, const struct sb_pg_jobs *jobs,
                     const struct sb_setup *s, const struct sb_run_args *args, const char *notes,
                     json_t *report, bool *stopped, struct sb_error *err)
{
    struct sb_pg_rounds_params p;
    json_t *schedule = NULL;
    bool partial = false;
    int status;

    memset(&p, 0, sizeof p);
    for (int v = 0; v < args->nservers; v++)
        p.servers[p.nservers++] = args->servers[v];
    p.rounds = s->plan.schedule.rounds;
    p.time_budget = s->plan.schedule.time_budget_auto
                        ? SB_PG_BUDGET_PER_RUN * (double)jobs->n * (p.nservers ? p.nservers : 1)
                        : s->plan.schedule.time_budget;
    p.seed = s->plan.schedule.seed;
    p.settled = rounds_settled;
    p.quiet = args->quiet;
    status = sb_pg_fleet_open(fleet, jobs, &p, err);
    if (status == SB_OK && notes[0] && !args->quiet)
        fprintf(stderr, "scanbench: note: %s\n", notes);
    if (status == SB_OK)
        status = sb_pg_fleet_run(*fleet, json_object_get(report, "runs"), &schedule, &partial,
                                 err);
    /* a stop before the first round ends (the loads, the first round) keeps no run */
    *stopped = status != SB_OK && sb_stop_requested() && *fleet;
    if (!schedule && *stopped)
        schedule = json_pack("{s:s, s:i, s:s}", "kind", "interleaved", "rounds", 0, "stopped_by",
                             "stop");
    if (schedule)
        json_object_set_new(report, "schedule", schedule);
    if (*stopped)
        mark_rounds_stopped(*fleet, report, err);
    if (status == SB_OK || partial)
        json_object_set_new(report, "analysis", sb_analysis_build(report));
    return status;
}

/* The table printed, the report written with -o. */
static int finish(json_t *report, const struct sb_run_args *args, bool stopped, int status,
                  struct sb_error *err)
{
    struct sb_error write_err = {0};
    static char used[SB_OUTFILE_MAX];

    if (!stopped || json_array_size(json_object_get(report, "runs")))
        sb_render_pg(stdout, report);
    fflush(stdout);
    if (!args->output)
        return status;
    return sb_setup_settle_write(status, sb_report_save(report, args->output, args->quiet, used,
                                                        &write_err), &write_err, err);
}

/* A server measurement from its command line, nothing printed or written: *report (with its
 * postgresql block: the server's settings and the notes), *stopped when a signal or the
 * watchdog stopped it (the report says so); args->cleanup: the sweep alone. */
static int measure(int argc, char **argv, struct sb_run_args *args, json_t **report,
                   bool *stopped, struct sb_error *err)
{
    static struct sb_setup s;
    struct sb_pg_jobs jobs = {0};
    struct sb_pg_session *session = NULL;
    struct sb_pg_fleet *fleet = NULL;
    char *command = NULL, ignored[1280] = "", notes[2400];
    int status;

    memset(&s, 0, sizeof s);
    *report = NULL;
    *stopped = false;
    status = prepare(argc, argv, args, &s, &jobs, ignored, sizeof ignored, err);
    if (status != SB_OK || args->cleanup)
        goto out;
    snprintf(notes, sizeof notes, "%s%s%s", ignored, ignored[0] && jobs.notes[0] ? "; " : "",
             jobs.notes);
    command = sb_args_command_line(argc, argv);
    *report = begin_report(&s, command);
    if (!*report) {
        status = sb_fail(err, SB_ERR_RUN, "cannot build the report");
        goto out;
    }
    if (interleaved(&s.exp))
        status = run_fleet(&fleet, &jobs, &s, args, notes, *report, stopped, err);
    else
        status = run_server(&session, args->nservers ? args->servers[0] : NULL, &jobs, notes,
                            args->quiet, *report, stopped, err);
    if (status == SB_OK || *stopped) {
        json_t *block = fleet ? sb_pg_fleet_json(fleet)
                        : session ? sb_pg_session_json(session) : json_null();
        json_object_set_new(block, "notes", json_string(notes));
        json_object_set_new(*report, "postgresql", block);
    }
out:
    sb_pg_fleet_close(fleet);
    sb_pg_session_close(session);
    free(command);
    sb_pg_jobs_free(&jobs);
    sb_setup_free(&s);
    return status;
}

int sb_pg_measure(int argc, char **argv, json_t **report, struct sb_error *err)
{
    struct sb_run_args args;
    bool stopped;
    int status = measure(argc, argv, &args, report, &stopped, err);

    if (status == SB_OK && args.cleanup)
        status = sb_fail(err, SB_ERR_INPUT, "--cleanup measures nothing");
    return status;
}

int sb_cmd_pg(int argc, char **argv)
{
    struct sb_run_args args;
    struct sb_error err = {0};
    json_t *report = NULL;
    bool stopped = false;
    int status;

    /* a signal (INT, TERM, HUP, QUIT) ends a server program in flight (the version query of
     * prepare's included), cancels the statement in flight and stops the runs; the watchdog
     * stops a run past its run_timeout (lib/core/stop.h): the runs finished are kept */
    sb_stop_install();
    status = measure(argc, argv, &args, &report, &stopped, &err);
    if (status == SB_OK)
        sb_stop_work_done();
    if (report && (status == SB_OK || stopped))
        status = finish(report, &args, stopped, status, &err);
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    json_decref(report);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
