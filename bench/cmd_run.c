/* cmd_run.c: `scanbench run [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json] [-q]`: reads
 * the experiment (the embedded default without a file), plans it, runs every run, prints the
 * thread-style table on stdout and, with -o, writes the JSON report. Progress goes to stderr.
 * Stopped by a signal or the watchdog, it prints and writes the runs finished so far. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "experiment.h"
#include "plan.h"
#include "render.h"
#include "report.h"
#include "run_args.h"
#include "runner.h"
#include "stop.h"
#include "topo.h"

int sb_cmd_run(int argc, char **argv)
{
    struct sb_run_args args;
    struct sb_error err = {0};
    struct sb_experiment exp;
    struct sb_mem_limit limit;
    struct sb_plan plan = {0};
    struct sb_topology topo;
    json_t *report = NULL;
    char *command = NULL;
    int status, exp_ready = 0;
    bool stopped = false;

    status = sb_run_args_parse(argc, argv, "scanbench run " SB_ARGS_RUN, &args, &err);
    if (status != SB_OK)
        goto out;
    status = sb_experiment_init(&exp, &err);
    exp_ready = 1;
    if (status == SB_OK)
        status = sb_run_args_read_experiment(&args, &exp, &err);
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
    command = sb_args_command_line(argc, argv);
    report = sb_report_new(&plan, &topo, command ? command : "scanbench run");
    if (!report) {
        status = sb_fail(&err, SB_ERR_RUN, "cannot build the report");
        goto out;
    }
    /* a signal (INT, TERM, HUP, QUIT) and the watchdog stop the sweep between scans
     * (lib/stop.h): the runs finished so far are still printed and written, the report marked
     * incomplete; one that comes after the last run changes nothing */
    sb_stop_install();
    status = sb_runner_run(&plan, report, args.quiet, &err);
    stopped = status != SB_OK && sb_stop_requested();
    if (status == SB_OK)
        sb_stop_work_done();
    if (status != SB_OK && !stopped)
        goto out;
    if (json_array_size(json_object_get(report, "runs")))
        sb_render_table(stdout, report);
    fflush(stdout);
    if (args.output) {
        struct sb_error write_err = {0};
        int written = sb_report_save(report, args.output, args.quiet, &write_err);
        if (written != SB_OK && !stopped) {
            status = written;
            err = write_err;
        } else if (written != SB_OK) {
            fprintf(stderr, "scanbench: %s\n", write_err.msg);
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
