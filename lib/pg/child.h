/* SPDX-License-Identifier: BSD-3-Clause */
/* child.h: running one of a PostgreSQL server's programs (postgres --version, pg_config,
 * initdb, pg_ctl) for `scanbench pg` with a time limit: in its own process group (a terminal's
 * Ctrl-C reaches scanbench alone), killed by the kernel if scanbench dies first (Linux:
 * PR_SET_PDEATHSIG), waited for with its stdout optionally captured, and on every way out
 * reaped: the group killed (SIGKILL) and the program waited for. What the program leaves in its
 * group once it has exited is killed too. pg_ctl start is the exception: its postmaster may
 * stay in its group (a pg_ctl that does not give it a session of its own), so only pg_ctl is
 * killed, and the server is left to the cluster's cleanup. */
#ifndef SB_PG_CHILD_H
#define SB_PG_CHILD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* The limits of the programs (seconds) unless SCANBENCH_PG_TIMEOUT sets one for them all: a
 * version query, initdb, pg_ctl (its own wait, -t 60, and half a minute more). */
#define SB_PG_LIMIT_VERSION 10.0
#define SB_PG_LIMIT_INITDB 120.0
#define SB_PG_LIMIT_PG_CTL 90.0

struct sb_pg_program {
    char *const *argv;         /* argv[0]: a path, or a name looked up in PATH */
    const char *what;          /* in messages: "/usr/lib/postgresql/15/bin/pg_ctl start" */
    double limit;              /* seconds */
    bool stoppable;            /* a stop signal or the watchdog (stop.h) ends it at once */
    bool leaves_server;        /* pg_ctl start: its group may be the server (not killed) */
    void (*setup)(const void *arg); /* in the child before exec (stdout, user, directory):
                                     * _exit(126) when it cannot */
    const void *setup_arg;
    char *out;                 /* its stdout captured (NULL: setup's business) */
    size_t out_len;            /* the first out_len - 1 bytes kept, NUL-terminated */
};

/* The limit of a program whose own is def: SCANBENCH_PG_TIMEOUT when set, else def;
 * SB_ERR_INPUT naming the variable when it is not a number of seconds above 0. */
int sb_pg_program_limit(double def, double *limit, struct sb_error *err);

/* Runs p and waits for it: SB_OK with *exit_status its exit status (128 + the signal that
 * killed it); SB_ERR_RUN when it could not be started, ran past its limit ("WHAT: still running
 * after N s, its time limit (SCANBENCH_PG_TIMEOUT): stopped") or, stoppable, was interrupted
 * ("interrupted (SIGTERM) while WHAT ran"). */
int sb_pg_program_run(const struct sb_pg_program *p, int *exit_status, struct sb_error *err);

#endif
