/* pg_signals.h: what stops `scanbench pg` (and `reproduce --pg`) cleanly: SIGINT and SIGTERM set
 * a flag and cancel the server statement in flight, so the caller's one cleanup path stops the
 * server and removes the cluster; sb_pg_signals_finish() then lets the signal end the process
 * as it would have. The run watchdog (stop.h) cancels the statement in flight too. Implemented
 * with libpq (pg_client.c), or as no-ops without it. */
#ifndef SB_PG_SIGNALS_H
#define SB_PG_SIGNALS_H

/* Installs the SIGINT/SIGTERM handlers (before the cluster is created). */
void sb_pg_signals_install(void);

/* The signal received so far (0: none). */
int sb_pg_signal_received(void);

/* Cancels the server statement in flight, if any (async-signal-safe: PQcancel). The
 * watchdog's alarm calls it when a run passes its run_timeout. */
void sb_pg_cancel_statement(void);

/* Restores the default handlers and, if a signal came, raises it again. */
void sb_pg_signals_finish(void);

#endif
