/* stop.h: ending a sweep or a reproduction early, cleanly: SIGINT and SIGTERM, and the watchdog
 * that bounds each run. Neither kills the process at once: each raises a flag that the scan
 * loop reads between scans and the runner between runs; the runner keeps the runs finished so
 * far and marks the report incomplete, naming the run that was stopped; the command's one
 * cleanup path removes what it made (tables, scratch files, servers); sb_stop_finish() then
 * ends the process by the signal it received (exit status 130 or 143 from a shell). A second
 * SIGINT or SIGTERM ends the process at once. A run still inside one scan a grace period after
 * its limit is stuck: the watchdog then ends the process itself (exit 1), naming the run. A run
 * on a PostgreSQL server (pg_runner.c) is bounded the same way: at its limit the watchdog also
 * cancels the server statement in flight (pg_signals.h), and the runner stops before the next. */
#ifndef SB_STOP_H
#define SB_STOP_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* Handles SIGINT and SIGTERM from now on (before the first run). */
void sb_stop_install(void);

/* The signal received so far (SIGINT, SIGTERM), else 0. */
int sb_stop_signal(void);

/* Whether the run in progress must stop at its next scan boundary: a signal, or the watchdog. */
bool sb_stop_requested(void);

/* Why, in words: "SIGINT", "SIGTERM" or "run_timeout: <run> ran longer than N s". */
const char *sb_stop_reason(char *buf, size_t len);

/* Called between scans: SB_OK, or, once sb_stop_requested(), SB_ERR_RUN "stopped (why)". */
int sb_stop_check(struct sb_error *err);

/* Starts the watchdog for one run: after seconds, sb_stop_requested() turns true; after
 * seconds + grace (a tenth more, at least 30 s) the process ends with exit status 1 and a line
 * naming what (e.g. "run 3/12 default pool_size=16M"). seconds <= 0: no limit. */
void sb_watchdog_arm(double seconds, const char *what);

/* The run ended (finished, failed or stopped): the watchdog stops counting. */
void sb_watchdog_disarm(void);

/* Whether the watchdog stopped the run it was armed for. */
bool sb_watchdog_overran(void);

/* Restores the default handlers and, when a signal came, raises it again, so that the process
 * ends as the signal would have ended it. Returns when no signal came. */
void sb_stop_finish(void);

#endif
