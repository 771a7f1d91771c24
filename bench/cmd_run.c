/* cmd_run.c: `scanbench run [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json]`: reads
 * the experiment (the embedded default without a file), plans it, runs every run, prints the
 * thread-style table on stdout and, with -o, writes the JSON report. Progress goes to stderr.
 * Stopped by SIGINT/SIGTERM or the watchdog, it prints and writes the runs finished so far. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "experiment.h"
#include "plan.h"
#include "render.h"
#include "report.h"
#include "runner.h"
#include "stop.h"
#include "topo.h"

struct run_args {
    const char *file;
    const char *output;
    const char **sets;
    int nsets;
    bool quiet;
};

static int parse_args(int argc, char **argv, struct run_args *a, struct sb_error *err)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if ((strcmp(arg, "--set") == 0 || strcmp(arg, "-s") == 0) && i + 1 < argc) {
            a->sets[a->nsets++] = argv[++i];
        } else if (strncmp(arg, "--set=", 6) == 0) {
            a->sets[a->nsets++] = arg + 6;
        } else if (strcmp(arg, "-o") == 0 && i + 1 < argc) {
            if (a->output)
                return sb_fail(err, SB_ERR_INPUT, "-o given twice");
            a->output = argv[++i];
        } else if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
            a->quiet = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            return sb_fail(err, SB_ERR_INPUT, "%s: unknown option or missing value (usage: "
                           "scanbench run [EXPERIMENT.ini] [--set KEY=VALUE]... "
                           "[-o REPORT.json] [-q])", arg);
        } else if (a->file) {
            return sb_fail(err, SB_ERR_INPUT, "%s: only one experiment file (already %s)", arg,
                           a->file);
        } else {
            a->file = arg;
        }
    }
    return SB_OK;
}

static char *join_command(int argc, char **argv)
{
    size_t len = strlen("scanbench") + 1;
    char *s;

    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    s = malloc(len);
    if (!s)
        return NULL;
    strcpy(s, "scanbench");
    for (int i = 0; i < argc; i++) {
        strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

int sb_cmd_run(int argc, char **argv)
{
    const char *sets[256];
    struct run_args args = {.sets = sets};
    struct sb_error err = {0};
    struct sb_experiment exp;
    struct sb_mem_limit limit;
    struct sb_plan plan = {0};
    struct sb_topology topo;
    json_t *report = NULL;
    char *command = NULL;
    int status, exp_ready = 0;
    bool stopped = false;

    if (argc > 256) {
        status = sb_fail(&err, SB_ERR_INPUT, "too many arguments");
        goto out;
    }
    status = parse_args(argc, argv, &args, &err);
    if (status != SB_OK)
        goto out;
    status = sb_experiment_init(&exp, &err);
    exp_ready = 1;
    if (status == SB_OK)
        status = sb_experiment_read_file(&exp, args.file, &err);
    for (int i = 0; status == SB_OK && i < args.nsets; i++)
        status = sb_experiment_set(&exp, args.sets[i], &err);
    if (status != SB_OK)
        goto out;
    sb_mem_limit_read(&limit, "", "");
    status = sb_plan_build(&exp, &limit, &plan, &err);
    if (status == SB_OK && args.output)
        status = sb_report_check_target(args.output, &err);
    if (status != SB_OK)
        goto out;
    if (plan.notes[0] && !args.quiet)
        fprintf(stderr, "scanbench: note: %s\n", plan.notes);

    sb_runner_topology(&plan, &topo);
    command = join_command(argc, argv);
    report = sb_report_new(&plan, &topo, command ? command : "scanbench run");
    if (!report) {
        status = sb_fail(&err, SB_ERR_RUN, "cannot build the report");
        goto out;
    }
    /* SIGINT, SIGTERM and the watchdog stop the sweep between scans (lib/stop.h): the runs
     * finished so far are still printed and written, the report marked incomplete */
    sb_stop_install();
    status = sb_runner_run(&plan, report, args.quiet, &err);
    stopped = status != SB_OK && sb_stop_requested();
    if (status != SB_OK && !stopped)
        goto out;
    if (json_array_size(json_object_get(report, "runs")))
        sb_render_table(stdout, report);
    fflush(stdout);
    if (args.output) {
        struct sb_error write_err = {0};
        int written = sb_report_write(report, args.output, &write_err);
        if (written != SB_OK && !stopped) {
            status = written;
            err = write_err;
        } else if (written != SB_OK) {
            fprintf(stderr, "scanbench: %s\n", write_err.msg);
        } else if (!args.quiet || stopped) {
            fprintf(stderr, "scanbench: report written to %s%s\n", args.output,
                    stopped ? " (incomplete)" : "");
        }
    }
out:
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    json_decref(report);
    free(command);
    sb_plan_free(&plan);
    if (exp_ready)
        sb_experiment_free(&exp);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
