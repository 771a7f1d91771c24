/* SPDX-License-Identifier: BSD-3-Clause */
/* stop.h: ending a sweep or a reproduction early, cleanly: SIGINT, SIGTERM, SIGHUP, SIGQUIT and
 * every other catchable signal whose default ends the process (SIGUSR1, SIGUSR2, SIGXCPU from
 * `ulimit -t`, SIGVTALRM, SIGPROF, SIGSTKFLT, SIGPWR), and the watchdog that bounds each run.
 * Neither kills the process at once: each raises a flag that the scan loop reads between scans and
 * the runner between runs (and calls the hook a command registered, e.g. to cancel a PostgreSQL
 * statement in flight); the runner keeps the runs finished so far and marks the report incomplete,
 * naming the run that was stopped; the command's one cleanup path removes what it made (tables,
 * scratch files, servers); sb_stop_finish() then ends the process by the signal it received (exit
 * status 128 + the signal from a shell: 130, 143, 129, 131, ...). A signal that comes once every
 * run has finished (sb_stop_work_done) changes nothing: the results are complete and written whole,
 * exit status 0. A second signal ends the process at once. A run still inside one scan a grace
 * period after its limit is stuck: the watchdog then ends the process itself (exit 1), naming the
 * run. A SIGALRM the watchdog's timer did not send (kill -ALRM) is ignored. SIGPIPE and SIGXFSZ are
 * ignored for the whole process: a write to a closed pipe fails with EPIPE, one past `ulimit -f`
 * with EFBIG, and the command keeps what it can. */
#ifndef SB_STOP_H
#define SB_STOP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* Ignores SIGPIPE and SIGXFSZ (from the start of main: every command): a write to a pipe
 * nobody reads fails with EPIPE, one past `ulimit -f` with EFBIG, and the command goes on. */
void sb_stop_ignore_write_signals(void);

/* Handles the stop signals (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM,
 * SIGPROF, SIGSTKFLT, SIGPWR) and a stray SIGALRM from now on (before the first run); ignores
 * SIGPIPE and SIGXFSZ. A stop signal ignored when the process started stays ignored (nohup's
 * SIGHUP, SIGINT and SIGQUIT in a script's background job). */
void sb_stop_install(void);

/* hook(arg) is called, inside the signal handler, when a stop signal comes and when the
 * watchdog's limit passes: it must be async-signal-safe (PQcancel, kill). NULL: none. */
void sb_stop_on_signal(void (*hook)(void *), void *arg);

/* Blocks (and restores) the stop signals and SIGALRM: what the hook reads is changed, or a file
 * written and linked into place, with none of them in between. */
void sb_stop_block(sigset_t *old);
void sb_stop_unblock(const sigset_t *old);

/* In a child process before exec: the default disposition of SIGPIPE and SIGXFSZ (which an
 * exec keeps when ignored), no signal blocked. */
void sb_stop_child_defaults(void);

/* In a child process that goes on without exec (a watcher): every stop signal and SIGALRM at
 * its default disposition, no stop hook, then sb_stop_child_defaults. */
void sb_stop_fork_defaults(void);

/* The stop signal received so far, else 0. */
int sb_stop_signal(void);

/* Its name ("SIGINT"...; "a signal" for another). */
const char *sb_stop_signal_name(int sig);

/* Whether the run in progress must stop at its next scan boundary: a signal, or the watchdog. */
bool sb_stop_requested(void);

/* Why, in words: "SIGINT", "SIGHUP"... or "run_timeout: <run> ran longer than N s". */
const char *sb_stop_reason(char *buf, size_t len);

/* Called between scans: SB_OK, or, once sb_stop_requested(), SB_ERR_RUN "stopped (why)". */
int sb_stop_check(struct sb_error *err);

/* Every run finished: a signal received from now on (or since the last run's end) does not end
 * the process; sb_stop_finish() says in one line that it came too late to change anything. */
void sb_stop_work_done(void);

/* Starts the watchdog for one run: after seconds, sb_stop_requested() turns true; after
 * seconds + grace (a tenth more, at least 30 s) the process ends with exit status 1 and a line
 * naming what (e.g. "run 3/12 default pool_size=16M"). seconds <= 0: no limit. */
void sb_watchdog_arm(double seconds, const char *what);

/* The run ended (finished, failed or stopped): the watchdog stops counting. */
void sb_watchdog_disarm(void);

/* Whether the watchdog stopped the run it was armed for. */
bool sb_watchdog_overran(void);

/* Tests only: with SCANBENCH_TEST_PAUSE=MOMENT:SECONDS in the environment, says "scanbench:
 * test pause: MOMENT" on stderr and waits up to SECONDS where the code calls it with that moment
 * ("build": before a table is built, "load": before a PostgreSQL table is loaded, "write":
 * before a result file is written). A stop signal ends the wait (and stops the work, as it
 * would have without the pause); so does a SIGALRM, which changes nothing else. Each moment
 * pauses once, the first time it comes (a run writes its report, then its CSV). */
void sb_stop_test_pause(const char *moment);

/* Stops the watchdog and, when a signal came before the work was done, restores that signal's
 * default handler and raises it again, so that the process ends as the signal would have ended
 * it (SIGQUIT without a core file). Returns when no signal came, or after the work was done. */
void sb_stop_finish(void);

#endif
