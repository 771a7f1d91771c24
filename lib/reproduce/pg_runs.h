/* SPDX-License-Identifier: BSD-3-Clause */
/* pg_runs.h: a reproduction's runs on its live PostgreSQL servers (--pg), one experiment at a
 * time, as the report's `postgresql` block. Private to lib/reproduce. */
#ifndef SB_REPRODUCE_PG_RUNS_H
#define SB_REPRODUCE_PG_RUNS_H

#include <jansson.h>

#include "reproduce/reproduce.h"

/* Experiment i's server runs on every server, one after another, as report's `postgresql`
 * block: the first server's {server, runs, notes}, and with several `servers`, one such block
 * each (when stopped, the runs finished). */
int sb_reproduce_pg_runs(struct sb_reproduction *r, int i, json_t *report, struct sb_error *err);

#endif
