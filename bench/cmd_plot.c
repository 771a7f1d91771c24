/* SPDX-License-Identifier: BSD-3-Clause */
/* cmd_plot.c: `scanbench plot REPORT [-o FILE.png|.svg]`: draws a report with gnuplot (the
 * default output is the report's name with .png for .json; never an existing file; one that
 * appears while gnuplot draws keeps the plot as NAME-2.png). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "core/core.h"
#include "render/render.h"
#include "report/report.h"

enum { OUTPUT = 1 };

const struct sb_options sb_options_plot = {
    .command = "plot",
    .operands = "REPORT",
    .operand_label = "REPORT",
    .operand_help = "a report of run or pg",
    .unknown = "unexpected",
    .options = {
        {OUTPUT, "-o", NULL, SB_OPT_TEXT, "FILE.png|FILE.svg", false,
         "the plot, .png or .svg (default: the report's name with .png; an\n"
         "existing file is refused)", NULL, 0, 0},
        {0},
    },
};

/* The arguments as parse_args gathers them. */
struct plot_args {
    const char *input, *output;
};

/* REPORT or -o FILE into ctx (sb_option_take): one of each. */
static int take(void *ctx, const struct sb_option_arg *arg, struct sb_error *err)
{
    struct plot_args *a = ctx;

    if (arg->id == OUTPUT && a->output)
        return sb_fail(err, SB_ERR_INPUT, "-o %s: -o given twice (already -o %s)", arg->text,
                       a->output);
    if (arg->id == OUTPUT)
        a->output = arg->text;
    else if (a->input)
        return sb_options_refuse(&sb_options_plot, arg->text, err);
    else
        a->input = arg->text;
    return SB_OK;
}

/* The arguments: REPORT and at most one -o FILE. */
static int parse_args(int argc, char **argv, const char **input, const char **output,
                      struct sb_error *err)
{
    struct plot_args a = {NULL, NULL};
    char line[SB_OPTIONS_LINE];
    int status = sb_options_parse(&sb_options_plot, argc, argv, take, &a, err);

    *input = a.input;
    *output = a.output;
    if (status != SB_OK || a.input)
        return status;
    sb_options_usage_line(&sb_options_plot, line, sizeof line);
    return sb_fail(err, SB_ERR_INPUT, "plot needs a report (usage: scanbench plot %s)", line);
}

/* The default output: the report's name with .png for .json (or .png added); NULL (and err)
 * on no memory. */
static char *default_output_name(const char *input, struct sb_error *err)
{
    size_t len = strlen(input);
    char *name = malloc(len + 5);

    if (!name) {
        sb_fail(err, SB_ERR_RUN, "out of memory");
        return NULL;
    }
    strcpy(name, input);
    if (len > 5 && strcmp(input + len - 5, ".json") == 0)
        name[len - 5] = '\0';
    strcat(name, ".png");
    return name;
}

int sb_cmd_plot(int argc, char **argv)
{
    struct sb_error err = {0};
    const char *input = NULL, *output = NULL;
    char *default_output = NULL, used[SB_OUTFILE_MAX];
    json_t *report = NULL;
    int status = parse_args(argc, argv, &input, &output, &err);

    if (status == SB_OK)
        status = sb_report_load(input, &report, &err);
    if (status == SB_OK)
        status = sb_plot_check(report, input, &err);
    if (status == SB_OK && !output) {
        output = default_output = default_output_name(input, &err);
        if (!default_output)
            status = SB_ERR_RUN;
    }
    if (status != SB_OK)
        goto out;
    /* a signal ends gnuplot and the plot, its temporary files removed (lib/core/stop.h) */
    sb_stop_install();
    status = sb_plot(report, output, used, &err);
    if (status == SB_OK)
        sb_stop_work_done();
    if (status == SB_OK && strcmp(used, output) != 0)
        fprintf(stderr, "scanbench: %s appeared while it was drawn; the plot is kept as %s\n",
                output, used);
    else if (status == SB_OK)
        fprintf(stderr, "scanbench: plot written to %s\n", output);
out:
    if (status != SB_OK)
        fprintf(stderr, "scanbench: %s\n", err.msg);
    json_decref(report);
    free(default_output);
    sb_stop_finish(); /* after every cleanup: a signal received ends the process here */
    return status;
}
