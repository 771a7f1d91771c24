/* SPDX-License-Identifier: BSD-3-Clause */
/* pg.h: the pg subsystem's public header: `scanbench pg` and `reproduce --pg` on a live
 * PostgreSQL server. A plan becomes jobs (jobs.h: the table, the pool, the op, what
 * PostgreSQL's ring rule will do), run on a throwaway cluster in a session (runner.h: the
 * server, the client, a record per job). Without libpq the session says so (runner_none.c).
 * The clusters a killed scanbench left are found and removed (stale.h). With no experiment
 * file, the thread's question as the servers' versions allow it (question.h).
 * On core, stats, vocab and plan. */
#ifndef SB_PG_H
#define SB_PG_H

#include "pg/jobs.h"
#include "pg/question.h"
#include "pg/rounds.h"
#include "pg/runner.h"
#include "pg/server.h"
#include "pg/stale.h"

#endif
