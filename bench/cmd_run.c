/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_run.c: `scanbench run [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json] [-q]
 * [--twice]`: reads the experiment (the embedded default without a file), plans it, runs it on
 * its schedule, writes (with -o) the JSON report and the CSV of its timed scans beside it, then
 * prints the table with the analysis' intervals on stdout. Progress goes to stderr. Stopped by a
 * signal, the watchdog or a failure, it writes and prints what was measured so far. --twice runs
 * the whole schedule a second time with another seed (its report: REPORT.2.json) and says
 * whether the two agree (reproducible.h). */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "core/core.h"
#include "host/host.h"
#include "plan/plan.h"
#include "render/render.h"
#include "report/report.h"
#include "run_args.h"
#include "runner/runner.h"
#include "runner/runner_setup.h"

const struct sb_options sb_options_run = {
    .command = "run",
    SB_RUN_OPERANDS,
    .options = {
        SB_OPTION_SET(SB_RUN_SET, SB_SET_HELP),
        SB_RUN_OPTION_OUTPUT,
        SB_RUN_OPTION_QUIET,
        {SB_RUN_TWICE, "--twice", NULL, SB_OPT_FLAG, NULL, false,
         "runs the whole schedule again with the next seed (its report\n"
         "REPORT.2.json) and says whether the two agree", NULL, 0, 0},
        {0},
    },
};

/* The report's files: the JSON and the CSV of its timed scans beside the name the report got
 * (outfile.h: never replacing a file; a name that appeared during the run gets -2). Where a
 * file cannot be written where asked it is kept under $TMPDIR (outkeep.h) and err says where
 * (or what was lost): a report kept there still gets its CSV beside it. */
static int write_outputs(json_t *report, const char *path, bool quiet, struct sb_error *err)
{
    static char used[SB_OUTFILE_MAX], report_used[SB_OUTFILE_MAX], csv_path[SB_OUTFILE_MAX];
    struct sb_error csv_err = {0};
    char *csv = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&csv, &len);
    int status = f && sb_report_csv(f, report) == 0 ? SB_OK
                                                     : sb_fail(&csv_err, SB_ERR_RUN, "%s: out "
                                                               "of memory for the CSV", path);
    int csv_status = status;

    if (f && fclose(f) != 0 && csv_status == SB_OK)
        csv_status = sb_fail(&csv_err, SB_ERR_RUN, "%s: out of memory for the CSV", path);
    status = sb_report_save(report, path, quiet, report_used, err);
    if (csv_status == SB_OK && report_used[0]) {
        sb_report_csv_path(report_used, csv_path, sizeof csv_path);
        csv_status = sb_outkeep_write(csv_path, csv, len, "timed scans' CSV", used, &csv_err);
    }
    if (csv_status == SB_OK && strcmp(used, csv_path) != 0)
        fprintf(stderr, "scanbench: %s appeared during the run; the timed scans are kept as %s\n",
                csv_path, used);
    else if (csv_status == SB_OK && !quiet)
        fprintf(stderr, "scanbench: timed scans written to %s\n", used);
    free(csv);
    if (status == SB_OK && csv_status != SB_OK)
        *err = csv_err;
    else if (csv_status != SB_OK && report_used[0])
        fprintf(stderr, "scanbench: %s\n", csv_err.msg); /* the report's own error follows */
    return status != SB_OK ? status : csv_status;
}

/* The host's fit, when runs have predictions for this host (report/fit.h). */
static void add_fit(json_t *report)
{
    json_t *fit = sb_fit_build(report);

    if (fit)
        json_object_set_new(report, "fit", fit);
}

/* One whole schedule: the runs and the analysis (the table is printed after the report is
 * written). *stopped: a signal, the watchdog or a failure stopped it (what was measured is still
 * written and printed). */
static int run_once(const struct sb_setup *s, const char *command, bool quiet, json_t **out,
                    bool *stopped, struct sb_error *err)
{
    json_t *report = sb_setup_report(s, command ? command : "scanbench run");
    int status;

    *out = report;
    if (!report)
        return sb_fail(err, SB_ERR_RUN, "cannot build the report");
    status = sb_runner_run(&s->plan, report, quiet, err);
    *stopped = status != SB_OK && json_is_true(json_object_get(report, "incomplete"));
    if (status != SB_OK && !*stopped)
        return status;
    json_object_set_new(report, "analysis", sb_analysis_build(report));
    add_fit(report);
    return status;
}

/* The table of a report with runs, on stdout. */
static void print_table(const json_t *report)
{
    if (report && json_array_size(json_object_get(report, "runs")))
        sb_render_table(stdout, report);
    fflush(stdout);
}

/* The line the --twice block (sb_reproducibility_judge) says, after the second table. */
static void print_reproducible(const json_t *second)
{
    const json_t *r = json_object_get(second, "reproducibility");
    long long s1 = json_integer_value(json_object_get(r, "first_seed"));
    long long s2 = json_integer_value(json_object_get(json_object_get(second, "schedule"),
                                                      "seed"));

    if (!r)
        return;
    if (json_is_true(json_object_get(r, "vacuous")))
        printf("\nREPRODUCIBLE only vacuously (seeds %lld and %lld): neither schedule decided "
               "anything (every call inconclusive, no clear knee)\n", s1, s2);
    else if (json_is_true(json_object_get(r, "reproducible")))
        printf("\nREPRODUCIBLE: the two schedules (seeds %lld and %lld) agree on every "
               "comparison and knee\n", s1, s2);
    else
        printf("\nNOT REPRODUCIBLE (seeds %lld and %lld): %s\n", s1, s2,
               json_string_value(json_object_get(r, "why")));
    fflush(stdout);
}

/* Writes report k's files when -o asked for them; a failure to write after a stop is said, not
 * returned (the stop's status stands). */
static int save(json_t *report, const struct sb_run_args *args, const struct sb_outputs *o, int k,
                int status, struct sb_error *err)
{
    struct sb_error write_err = {0};

    if (!args->output || !report)
        return status;
    return sb_setup_settle_write(status, write_outputs(report, o->report[k], args->quiet,
                                                       &write_err), &write_err, err);
}

/* A --set changes what the experiment's description says: the heading says what ran (cut
 * between two characters where the sets are long). */
static void describe_sets(const struct sb_run_args *args, struct sb_plan *plan)
{
    char text[4096];
    size_t used;

    if (args->nsets == 0)
        return;
    used = (size_t)snprintf(text, sizeof text, "changed by --set");
    for (int i = 0; i < args->nsets && used < sizeof text; i++)
        used += (size_t)snprintf(text + used, sizeof text - used, " %s", args->sets[i]);
    sb_utf8_copy(plan->description, sizeof plan->description, text);
}

/* The experiment of the command line read and planned, its -o files checked: everything that
 * can refuse the input, before any run. */
static int prepare(int argc, char **argv, struct sb_run_args *args, struct sb_setup *s,
                   struct sb_outputs *o, struct sb_error *err)
{
    int status = sb_run_args_parse(&sb_options_run, argc, argv, args, err);

    if (status == SB_OK)
        status = sb_setup_read(s, args->file, args->sets, args->nsets, err);
    if (status == SB_OK)
        status = sb_experiment_check_no_server_keys(&s->exp, "scanbench run", err);
    if (status == SB_OK)
        status = sb_setup_plan(s, NULL, err);
    if (status == SB_OK)
        status = sb_setup_outputs(args->output, args->twice ? 2 : 1, o, err);
    return status;
}

/* The schedule once, or twice with --twice (another seed, then whether the two agree), each
 * report printed and written as it ends. */
static int run_schedules(struct sb_setup *s, const struct sb_run_args *args,
                         const struct sb_outputs *o, const char *command, json_t *reports[2],
                         struct sb_error *err)
{
    int status = SB_OK, passes = args->twice ? 2 : 1;
    bool stopped = false, measured;

    for (int k = 0; k < passes && status == SB_OK && !stopped; k++) {
        if (k == 1) {
            s->plan.schedule.seed += 1;
            printf("\n--twice: the whole schedule again, seed %llu\n\n",
                   (unsigned long long)s->plan.schedule.seed);
        }
        status = run_once(s, command, args->quiet, &reports[k], &stopped, err);
        if (status == SB_OK && k + 1 == passes)
            sb_stop_work_done();
        if (k == 1 && status == SB_OK)
            sb_reproducibility_judge(reports[0], reports[1]);
        /* the report first: a slow table or a second signal must not cost the files; the
         * table whatever happened to them */
        measured = status == SB_OK || stopped;
        if (measured) {
            status = save(reports[k], args, o, k, status, err);
            print_table(reports[k]);
        }
        if (k == 1)
            print_reproducible(reports[1]);
    }
    return status;
}

int sb_cmd_run(int argc, char **argv)
{
    struct sb_run_args args;
    struct sb_error err = {0};
    static struct sb_setup s;
    static struct sb_outputs o;
    json_t *reports[2] = {NULL, NULL};
    char *command = NULL;
    int status;

    memset(&s, 0, sizeof s);
    status = prepare(argc, argv, &args, &s, &o, &err);
    if (status != SB_OK)
        goto out;
    if (s.plan.notes[0] && !args.quiet)
        fprintf(stderr, "scanbench: note: %s\n", s.plan.notes);
    describe_sets(&args, &s.plan);
    command = sb_args_command_line(argc, argv);
    /* a signal (INT, TERM, HUP, QUIT) and the watchdog stop the schedule between scans
     * (lib/core/stop.h): what was measured is still printed and written, the report marked
     * incomplete; one that comes after the last scan changes nothing */
    sb_stop_install();
    status = run_schedules(&s, &args, &o, command, reports, &err);
out:
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    json_decref(reports[0]);
    json_decref(reports[1]);
    free(command);
    sb_setup_free(&s);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
