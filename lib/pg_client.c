/* pg_client.c: the libpq connection, timed statements and signal handling (see pg_client.h). */
#include "config.h"
#include "pg_client.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stop.h"
#include "timer.h"

static volatile sig_atomic_t signal_received;
static PGcancel *volatile current_cancel;

void sb_pg_cancel_statement(void)
{
    char errbuf[256];
    PGcancel *cancel = current_cancel;

    if (cancel)
        PQcancel(cancel, errbuf, sizeof errbuf);
}

static void on_signal(int sig)
{
    signal_received = sig;
    sb_pg_cancel_statement();
}

void sb_pg_signals_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int sb_pg_signal_received(void) { return signal_received; }

void sb_pg_signals_finish(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (signal_received)
        raise(signal_received);
}

/* Sets or clears the cancel object the handlers use (signals, the watchdog's alarm), with
 * their signals blocked. */
static void set_cancel(PGcancel *cancel)
{
    sigset_t block, old;
    PGcancel *previous;

    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &old);
    previous = current_cancel;
    current_cancel = cancel;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (previous)
        PQfreeCancel(previous);
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
    if (signal_received)
        return sb_fail(err, SB_ERR_RUN, "interrupted by signal %d", (int)signal_received);
    if (sb_watchdog_overran())
        return sb_stop_check(err);
    return SB_OK;
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
