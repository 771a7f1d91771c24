/* client.c: the libpq connection, timed statements, the cancel on a stop (see client.h). */
#include "config.h"
#include "pg/client.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static PGcancel *volatile current_cancel;

/* The stop hook (stop.h): a signal, or the watchdog past a run's limit, cancels the statement
 * in flight, if any (PQcancel is async-signal-safe). */
static void cancel_statement(void *arg)
{
    char errbuf[256];
    PGcancel *cancel = current_cancel;

    (void)arg;
    if (cancel)
        PQcancel(cancel, errbuf, sizeof errbuf);
}

/* Sets or clears the cancel object the hook uses, with the stop signals and SIGALRM blocked. */
static void set_cancel(PGcancel *cancel)
{
    sigset_t old;
    PGcancel *previous;

    sb_stop_block(&old);
    previous = current_cancel;
    current_cancel = cancel;
    sb_stop_unblock(&old);
    if (previous)
        PQfreeCancel(previous);
    sb_stop_on_signal(cancel ? cancel_statement : NULL, NULL);
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
    c->conn = PQconnectdbParams(keys, values, 0);
    if (!c->conn || PQstatus(c->conn) != CONNECTION_OK) {
        int status = sb_fail(err, SB_ERR_RUN, "cannot connect to the server in %s: %s",
                             socket_dir, c->conn ? PQerrorMessage(c->conn) : "out of memory");
        err->msg[strcspn(err->msg, "\n")] = '\0';
        sb_pg_client_close(c);
        return status;
    }
    PQsetNoticeProcessor(c->conn, collect_notice, c);
    set_cancel(PQgetCancel(c->conn));
    return SB_OK;
}

void sb_pg_client_close(struct sb_pg_client *c)
{
    set_cancel(NULL);
    if (c->conn)
        PQfinish(c->conn);
    c->conn = NULL;
}

int sb_pg_client_stop_check(struct sb_error *err)
{
    return sb_stop_check(err);
}

int sb_pg_client_exec(struct sb_pg_client *c, const char *sql, char *value, size_t len,
                      double *seconds, struct sb_error *err)
{
    PGresult *res;
    ExecStatusType st;
    double t0, t1;
    int status = SB_OK;

    status = sb_pg_client_stop_check(err);
    if (status != SB_OK)
        return status;
    t0 = sb_timer_now();
    res = PQexec(c->conn, sql);
    t1 = sb_timer_now();
    st = PQresultStatus(res);
    c->affected = 0;
    /* cancelled or to be stopped: the stop, not the server's message, says why */
    status = sb_pg_client_stop_check(err);
    if (status == SB_OK && st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        const char *msg = res ? PQresultErrorMessage(res) : PQerrorMessage(c->conn);
        status = sb_fail(err, SB_ERR_RUN, "the server refused `%.120s%s`: %s", sql,
                         strlen(sql) > 120 ? "..." : "", msg);
        err->msg[strcspn(err->msg, "\n")] = '\0';
    } else if (status == SB_OK) {
        c->affected = strtoull(PQcmdTuples(res), NULL, 10);
        if (seconds)
            *seconds = t1 - t0;
        if (value) {
            const char *v = st == PGRES_TUPLES_OK && PQntuples(res) > 0 && PQnfields(res) > 0
                                ? PQgetvalue(res, 0, 0) : "";
            snprintf(value, len, "%s", v);
        }
    }
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
