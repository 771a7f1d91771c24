/* SPDX-License-Identifier: BSD-3-Clause */
/* commands.h: the subcommands of the scanbench program, one file each. Each returns the exit
 * status: 0 done, 1 a run failed, 2 bad input, 3 counters required but unavailable. */
#ifndef SB_COMMANDS_H
#define SB_COMMANDS_H

#include "options.h"

/* Each subcommand's option table (options.h): it parses the command line, and `scanbench
 * NAME --help` prints its usage from it. */
extern const struct sb_options sb_options_run;
extern const struct sb_options sb_options_pg;
extern const struct sb_options sb_options_reproduce;
extern const struct sb_options sb_options_power;
extern const struct sb_options sb_options_plot;
extern const struct sb_options sb_options_events;
extern const struct sb_options sb_options_topo;
extern const struct sb_options sb_options_list;
extern const struct sb_options sb_options_compare;
extern const struct sb_options sb_options_probe;

int sb_cmd_run(int argc, char **argv);
int sb_cmd_topo(int argc, char **argv);
int sb_cmd_list(int argc, char **argv);
int sb_cmd_events(int argc, char **argv);
int sb_cmd_compare(int argc, char **argv);
int sb_cmd_plot(int argc, char **argv);
int sb_cmd_reproduce(int argc, char **argv);
int sb_cmd_pg(int argc, char **argv);
int sb_cmd_probe(int argc, char **argv);
int sb_cmd_power(int argc, char **argv);

#endif
