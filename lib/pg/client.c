/* SPDX-License-Identifier: BSD-3-Clause */
/* client.c: the libpq connection, timed statements, the cancel on a stop (see client.h). */
#include "config.h"
#include "pg/client.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

/* One cancel object per connected client (scanbench pg runs several servers side by side,
 * and concurrent backends): the stop hook cancels every statement in flight. */
#define CANCEL_SLOTS 64
static PGcancel *volatile cancels[CANCEL_SLOTS];

/* The stop hook (stop.h): a signal, or the watchdog past a run's limit, cancels the statements
 * in flight, if any (PQcancel is async-signal-safe). */
static void cancel_statement(void *arg)
{
    char errbuf[256];

    (void)arg;
    for (int k = 0; k < CANCEL_SLOTS; k++) {
        PGcancel *cancel = cancels[k];
        if (cancel)
            PQcancel(cancel, errbuf, sizeof errbuf);
    }
}

/* Sets (cancel, into a free slot, *slot its index) or clears (NULL, *slot's) a cancel object
 * of the hook, with the stop signals and SIGALRM blocked. */
static void set_cancel(PGcancel *cancel, int *slot)
{
    sigset_t old;
    PGcancel *previous = NULL;
    bool any = false;

    sb_stop_block(&old);
    if (cancel) {
        for (*slot = 0; *slot < CANCEL_SLOTS && cancels[*slot]; (*slot)++)
            ;
        if (*slot < CANCEL_SLOTS)
            cancels[*slot] = cancel;
        else
            previous = cancel; /* no slot: this client's statements are not cancelled */
    } else if (*slot >= 0 && *slot < CANCEL_SLOTS) {
        previous = cancels[*slot];
        cancels[*slot] = NULL;
    }
    for (int k = 0; k < CANCEL_SLOTS; k++)
        any |= cancels[k] != NULL;
    sb_stop_unblock(&old);
    if (previous)
        PQfreeCancel(previous);
    if (!cancel)
        *slot = -1;
    sb_stop_on_signal(any ? cancel_statement : NULL, NULL);
}

static void collect_notice(void *arg, const char *message)
{
    struct sb_pg_client *c = arg;
    size_t n = strlen(message);

    if (c->notices_len + n + 1 < sizeof c->notices) {
        memcpy(c->notices + c->notices_len, message, n);
        c->notices_len += n;
        c->notices[c->notices_len++] = '\n';
        c->notices[c->notices_len] = '\0';
    }
}

void sb_pg_client_notices_clear(struct sb_pg_client *c)
{
    c->notices_len = 0;
    c->notices[0] = '\0';
}

int sb_pg_client_connect(struct sb_pg_client *c, const char *socket_dir, struct sb_error *err)
{
    const char *keys[] = {"host", "port", "user", "dbname", "application_name", NULL};
    const char *values[] = {socket_dir, "5432", "scanbench", "postgres", "scanbench pg", NULL};

    memset(c, 0, sizeof *c);
    c->cancel_slot = -1;
    c->conn = PQconnectdbParams(keys, values, 0);
    if (!c->conn || PQstatus(c->conn) != CONNECTION_OK) {
        int status = sb_fail(err, SB_ERR_RUN, "cannot connect to the server in %s: %s",
                             socket_dir, c->conn ? PQerrorMessage(c->conn) : "out of memory");
        err->msg[strcspn(err->msg, "\n")] = '\0';
        sb_pg_client_close(c);
        return status;
    }
    PQsetNoticeProcessor(c->conn, collect_notice, c);
    set_cancel(PQgetCancel(c->conn), &c->cancel_slot);
    return SB_OK;
}

void sb_pg_client_close(struct sb_pg_client *c)
{
    if (c->conn)
        set_cancel(NULL, &c->cancel_slot);
    if (c->conn)
        PQfinish(c->conn);
    c->conn = NULL;
}

int sb_pg_client_stop_check(struct sb_error *err)
{
    return sb_stop_check(err);
}

/* A statement's result (NULL: none came): an error in err, else its first value into value
 * (may be NULL) and the rows it affected into c->affected (0 on an error). */
static int take_result(struct sb_pg_client *c, PGresult *res, const char *sql, char *value,
                       size_t len, struct sb_error *err)
{
    ExecStatusType st = PQresultStatus(res);

    c->affected = 0;
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(c->conn);
        int status = sb_fail(err, SB_ERR_RUN, "the server refused `%.120s%s`: %s", sql,
                             strlen(sql) > 120 ? "..." : "", msg);
        err->msg[strcspn(err->msg, "\n")] = '\0';
        return status;
    }
    if (value)
        snprintf(value, len, "%s", st == PGRES_TUPLES_OK && PQntuples(res) > 0 &&
                                   PQnfields(res) > 0 ? PQgetvalue(res, 0, 0) : "");
    c->affected = strtoull(PQcmdTuples(res), NULL, 10);
    return SB_OK;
}

int sb_pg_client_exec(struct sb_pg_client *c, const char *sql, char *value, size_t len,
                      double *seconds, struct sb_error *err)
{
    PGresult *res;
    double t0, t1;
    int status = sb_pg_client_stop_check(err);

    if (status != SB_OK)
        return status;
    t0 = sb_timer_now();
    res = PQexec(c->conn, sql);
    t1 = sb_timer_now();
    c->affected = 0;
    /* cancelled or to be stopped: the stop, not the server's message, says why */
    status = sb_pg_client_stop_check(err);
    if (status == SB_OK)
        status = take_result(c, res, sql, value, len, err);
    if (status == SB_OK && seconds)
        *seconds = t1 - t0;
    PQclear(res);
    return status;
}

int sb_pg_client_u64(struct sb_pg_client *c, const char *sql, uint64_t *out,
                     struct sb_error *err)
{
    char value[64], *end;
    int status = sb_pg_client_exec(c, sql, value, sizeof value, NULL, err);

    if (status != SB_OK)
        return status;
    *out = strtoull(value, &end, 10);
    if (end == value || *end != '\0')
        return sb_fail(err, SB_ERR_RUN, "`%s` returned \"%s\", not a number", sql, value);
    return SB_OK;
}

/* Reads what client k's server sent; *done once its statement's results are all in. */
static int drain(struct sb_pg_client *c, const char *sql, char *value, size_t len, bool *got,
                 double *t1, bool *done, struct sb_error *err)
{
    int status = SB_OK;

    if (!PQconsumeInput(c->conn)) {
        *done = true; /* the connection is lost: nothing more comes */
        return sb_fail(err, SB_ERR_RUN, "lost the server: %s", PQerrorMessage(c->conn));
    }
    while (!*done && !PQisBusy(c->conn)) {
        PGresult *res = PQgetResult(c->conn);
        if (!res) {
            *done = true;
        } else {
            if (!*got) {
                *t1 = sb_timer_now();
                *got = true;
                status = take_result(c, res, sql, value, len, err);
            }
            PQclear(res);
        }
    }
    return status;
}

int sb_pg_client_exec_all(struct sb_pg_client *const *clients, size_t n, const char *const *sql,
                          char (*values)[SB_PG_VALUE_MAX], double *seconds, double *wall,
                          struct sb_error *err)
{
    struct pollfd fds[SB_PG_CLIENTS_MAX];
    double t0[SB_PG_CLIENTS_MAX], t1[SB_PG_CLIENTS_MAX];
    bool got[SB_PG_CLIENTS_MAX] = {false}, done[SB_PG_CLIENTS_MAX] = {false};
    size_t left = n;
    struct sb_error later = {0};
    int status = sb_pg_client_stop_check(err), first_error = SB_OK;

    if (status != SB_OK)
        return status;
    if (n == 0 || n > SB_PG_CLIENTS_MAX)
        return sb_fail(err, SB_ERR_RUN, "%zu statements at once (1 to %d)", n,
                       SB_PG_CLIENTS_MAX);
    for (size_t k = 0; k < n; k++) {
        /* the clock starts before the send: taken after it, a client descheduled while the
         * server scans (two CPUs, a backend and the OS's writeback) timed a 5 ms scan as 20 us */
        t0[k] = sb_timer_now();
        if (!PQsendQuery(clients[k]->conn, sql[k])) {
            first_error = sb_fail(err, SB_ERR_RUN, "cannot send `%.80s`: %s", sql[k],
                                  PQerrorMessage(clients[k]->conn));
            n = left = k; /* the statements sent are still waited for */
            break;
        }
        fds[k] = (struct pollfd){.fd = PQsocket(clients[k]->conn), .events = POLLIN};
    }
    /* every statement is waited for, an error or a stop included (the stop hook cancels them
     * all), so that no connection is left busy */
    while (left > 0) {
        if (poll(fds, n, 1000) < 0 && errno != EINTR)
            return sb_fail(err, SB_ERR_RUN, "poll: %s", strerror(errno));
        for (size_t k = 0; k < n; k++) {
            if (done[k])
                continue;
            /* the first error's message is the one kept */
            status = drain(clients[k], sql[k], values ? values[k] : NULL, SB_PG_VALUE_MAX,
                           &got[k], &t1[k], &done[k], first_error == SB_OK ? err : &later);
            if (status != SB_OK && first_error == SB_OK)
                first_error = status;
            if (done[k]) {
                fds[k].fd = -1;
                left--;
            }
        }
    }
    status = sb_pg_client_stop_check(err);
    if (status != SB_OK || first_error != SB_OK)
        return status != SB_OK ? status : first_error;
    *wall = 0.0;
    for (size_t k = 0; k < n; k++) {
        seconds[k] = t1[k] - t0[k];
        *wall = fmax(*wall, t1[k] - t0[0]);
    }
    return SB_OK;
}
