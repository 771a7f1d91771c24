/* SPDX-License-Identifier: BSD-3-Clause */
/* client.h: scanbench's libpq connection to its throwaway server. Statements are timed on
 * the client, with the monotonic clock (timer.h) around PQexec. While connected, a stop signal
 * or the watchdog (stop.h's hook) cancels the statement in flight (PQcancel is safe in a signal
 * handler). */
#ifndef SB_PG_CLIENT_H
#define SB_PG_CLIENT_H

#include <libpq-fe.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

struct sb_pg_client {
    PGconn *conn;
    char notices[16384];  /* messages (NOTICE, INFO) since the last sb_pg_client_notices_clear */
    size_t notices_len;
    uint64_t affected;    /* rows the last statement affected (PQcmdTuples), 0 if none */
    int cancel_slot;      /* the stop hook's cancel object for this connection; -1 none */
};

#define SB_PG_CLIENTS_MAX 64 /* statements sent at once */
#define SB_PG_VALUE_MAX 64

/* Connects as `scanbench` to database postgres over the socket in socket_dir. */
int sb_pg_client_connect(struct sb_pg_client *c, const char *socket_dir, struct sb_error *err);
void sb_pg_client_close(struct sb_pg_client *c);

/* Runs a statement; with value, copies the first column of the first row (or "" when none)
 * and, with seconds, the client-side elapsed time of PQexec. SB_ERR_RUN with the server's
 * message, or the stop's (sb_pg_client_stop_check) when a signal or the watchdog came. */
int sb_pg_client_exec(struct sb_pg_client *c, const char *sql, char *value, size_t len,
                      double *seconds, struct sb_error *err);

/* Sends sql[k] on clients[k], all n at once, and waits for every result: seconds[k] from
 * client k's send to its result, *wall from the first send to the last result, values[k] (may
 * be NULL) the first column of the first row. A failed statement fails the call (its
 * message), once every statement has finished; a stop cancels them all (the stop hook). */
int sb_pg_client_exec_all(struct sb_pg_client *const *clients, size_t n, const char *const *sql,
                          char (*values)[SB_PG_VALUE_MAX], double *seconds, double *wall,
                          struct sb_error *err);

/* Runs a statement that returns one whole number. */
int sb_pg_client_u64(struct sb_pg_client *c, const char *sql, uint64_t *out,
                     struct sb_error *err);

void sb_pg_client_notices_clear(struct sb_pg_client *c);

/* SB_OK, or SB_ERR_RUN when the work must stop (stop.h): "stopped (SIGTERM)", or the
 * watchdog's "stopped (run_timeout: ...)" once a run passed its limit. */
int sb_pg_client_stop_check(struct sb_error *err);

#endif
