/* SPDX-License-Identifier: BSD-3-Clause */
/* options.h: a subcommand's command line as one table (perf's parse-options the model): each
 * option's spellings, the kind of its value, its name in the usage and its help. The same table
 * parses argv (getopt_long underneath, in order, operands where they stand) and prints the
 * usage line and the help `scanbench NAME --help` shows. The command keeps what an option
 * means: sb_options_parse hands each option and operand, in order, to its take function. */
#ifndef SB_OPTIONS_H
#define SB_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "core/core.h"

#define SB_OPTIONS_MAX 16   /* options in one table */
#define SB_OPTIONS_LINE 512 /* a usage line's bytes, at most */

enum sb_option_kind {
    SB_OPT_FLAG,  /* no value: --quick */
    SB_OPT_TEXT,  /* a value, any text: -o FILE, --set KEY=VALUE */
    SB_OPT_COUNT, /* a whole number from min to max: --trials N */
};

struct sb_option {
    int id;                   /* > 0: what the take function is handed */
    const char *name;         /* the spelling the usage shows: "--set", "-o" */
    const char *alias;        /* another spelling ("-s", "--quiet"), or NULL */
    enum sb_option_kind kind;
    const char *value;        /* the value's name ("KEY=VALUE"); NULL for a flag */
    bool repeats;             /* given again for another: "..." in the usage */
    const char *help;         /* what it does, lines cut by '\n' */
    const char *missing;      /* the words after the name when its value is missing, from their
                               * separator on ("-o needs a file name"); NULL: unknown's */
    unsigned long min, max;   /* SB_OPT_COUNT's range */
};

struct sb_options {
    const char *command;       /* "run" */
    const char *operands;      /* their usage ("[EXPERIMENT.ini]"); NULL: the command takes none */
    const char *operand_label; /* their name in the help ("EXPERIMENT.ini") */
    const char *operand_help;  /* and what they are */
    const char *prefix;        /* before each refusal ("probe: "), or NULL */
    const char *unknown;       /* an argument refused: "unknown option" */
    struct sb_option options[SB_OPTIONS_MAX]; /* ended by an id of 0 */
};

#define SB_OPT_OPERAND 0 /* the id an operand is handed with */

/* One argument as the take function is handed it: an option (its id) or an operand (id 0). */
struct sb_option_arg {
    int id;
    const char *spelling;  /* as given: "-s", "--set", "EXPERIMENT.ini" */
    const char *text;      /* the value or the operand; NULL for a flag */
    unsigned long count;   /* SB_OPT_COUNT's value */
};

typedef int (*sb_option_take)(void *ctx, const struct sb_option_arg *arg, struct sb_error *err);

/* Parses argv[1..argc-1] (argv[0] is the subcommand) by spec, handing each option and operand,
 * in order, to take(ctx, ...); the first status that is not SB_OK stops it. Refused, with one
 * line (SB_ERR_INPUT): an argument no option of the table spells exactly (no abbreviations,
 * no -ab clusters; --name=VALUE for a long option with a value) and an operand where the table
 * takes none ("ARG: UNKNOWN (usage: scanbench NAME LINE)"), a value missing (the option's
 * missing words, else unknown's), a value apart from its option that is itself one of the
 * table's options ("--server: missing value (got option -q)"), a count out of its range
 * ("--trials 0: want a whole number from 1 to 10000"). */
int sb_options_parse(const struct sb_options *spec, int argc, char **argv, sb_option_take take,
                     void *ctx, struct sb_error *err);

/* spec's refusal of arg: "PREFIXARG: UNKNOWN (usage: scanbench NAME LINE)"; SB_ERR_INPUT.
 * For a take function that refuses an operand. */
int sb_options_refuse(const struct sb_options *spec, const char *arg, struct sb_error *err);

/* The usage line after `scanbench NAME`: the operands, then each option in the table's order
 * ("[EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json] [-q]"). */
void sb_options_usage_line(const struct sb_options *spec, char *buf, size_t len);

/* The help: the operands, then each option, a line each (more where its help has '\n'): two
 * spaces, the spellings (short first) and the value's name, the help from column 21. */
void sb_options_help(FILE *out, const struct sb_options *spec);

#endif
