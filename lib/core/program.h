/* SPDX-License-Identifier: BSD-3-Clause */
/* program.h: another program run for scanbench (a PostgreSQL server's postgres --version,
 * pg_config, initdb and pg_ctl; gnuplot) with a time limit: in its own process group (a
 * terminal's Ctrl-C reaches scanbench alone), killed by the kernel if scanbench dies first
 * (Linux: PR_SET_PDEATHSIG), waited for with its stdout optionally captured, and on every way out
 * reaped: the group killed (SIGKILL) and the program waited for. What the program leaves in its
 * group once it has exited is killed too, unless the caller keeps the group (pg_ctl start,
 * whose postmaster may stay in it: only pg_ctl is killed, the server is left to the cluster's
 * cleanup). */
#ifndef SB_CORE_PROGRAM_H
#define SB_CORE_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

struct sb_program {
    char *const *argv;         /* argv[0]: a path, or a name looked up in PATH */
    const char *what;          /* in messages: "/usr/lib/postgresql/15/bin/pg_ctl start" */
    double limit;              /* seconds */
    const char *limit_env;     /* the variable that sets the limit, named when it passes */
    bool stoppable;            /* a stop signal or the watchdog (stop.h) ends it at once */
    bool keeps_group;          /* its group may outlive it on purpose (not killed) */
    void (*setup)(const void *arg); /* in the child before exec (stdin, stdout, user,
                                     * directory): _exit(126) when it cannot */
    const void *setup_arg;
    char *out;                 /* its stdout captured (NULL: setup's business) */
    size_t out_len;            /* the first out_len - 1 bytes kept, NUL-terminated */
};

/* The limit of a program whose own is def: the variable env when set, else def; SB_ERR_INPUT
 * naming the variable when it is not a number of seconds above 0 (what: what it limits, in
 * the message). */
int sb_program_limit(const char *env, const char *what, double def, double *limit,
                     struct sb_error *err);

/* Runs p and waits for it: SB_OK with *exit_status its exit status (128 + the signal that
 * killed it); SB_ERR_RUN when it could not be started, ran past its limit ("WHAT: still running
 * after N s, its time limit (LIMIT_ENV): stopped") or, stoppable, was interrupted
 * ("interrupted (SIGTERM) while WHAT ran"). */
int sb_program_run(const struct sb_program *p, int *exit_status, struct sb_error *err);

#endif
