/* SPDX-License-Identifier: BSD-3-Clause */
/* commands.h: the subcommands of the scanbench program, one file each. Each returns the exit
 * status: 0 done, 1 a run failed, 2 bad input, 3 counters required but unavailable. */
#ifndef SB_COMMANDS_H
#define SB_COMMANDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
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

/* A `scanbench pg` measurement from its command line (argv[0] "pg"), as `scanbench pg` makes
 * it, nothing printed or written: *report, a new reference (cmd_pg.c). */
int sb_pg_measure(int argc, char **argv, json_t **report, struct sb_error *err);

/* `scanbench power --pg` (cmd_power_pg.c): live A-A trials of pg's own path. */
#define SB_POWER_PG_SETS 256
#define SB_POWER_PG_TRIALS 20
#define SB_POWER_PG_QUICK_TRIALS 5
struct sb_power_pg {
    const char *server;     /* --server BINDIR, or NULL: pg's discovery */
    const char *const *sets; /* the command line's --set, applied on top of the trial's */
    int nsets;
    unsigned trials;
    uint64_t seed;          /* the first trial's schedule_seed; the others' follow from it */
    const char *outdir;     /* -o DIR, or NULL */
    bool quiet;
};
int sb_power_pg_run(const struct sb_power_pg *o, const char *command, struct sb_error *err);

#endif
