/* SPDX-License-Identifier: BSD-3-Clause */
/* runner_none.c: runner.h when scanbench is built without libpq:
 * `scanbench pg` and `reproduce --pg` say so (bad input, exit 2) and name the package. */
#include "config.h"
#include "pg/runner.h"
#include "pg/rounds.h"

#include <stdio.h>

#define WHY "scanbench was built without libpq: install it (Debian package libpq-dev) and " \
            "run ./configure again (--with-libpq)"

bool sb_pg_built(char *why, size_t len)
{
    snprintf(why, len, "%s", WHY);
    return false;
}

int sb_pg_session_open(struct sb_pg_session **session, const char *bindir,
                       const struct sb_pg_jobs *jobs, bool quiet,
                       struct sb_error *err)
{
    (void)bindir;
    (void)jobs;
    (void)quiet;
    *session = NULL;
    return sb_fail(err, SB_ERR_INPUT, "%s", WHY);
}

int sb_pg_session_run(struct sb_pg_session *session, const struct sb_pg_jobs *jobs, json_t *runs,
                      bool quiet, struct sb_error *err)
{
    (void)session;
    (void)jobs;
    (void)runs;
    (void)quiet;
    return sb_fail(err, SB_ERR_INPUT, "%s", WHY);
}

json_t *sb_pg_session_json(const struct sb_pg_session *session)
{
    (void)session;
    return json_null();
}

int sb_pg_session_version_num(const struct sb_pg_session *session)
{
    (void)session;
    return 0;
}

void sb_pg_session_close(struct sb_pg_session *session) { (void)session; }

int sb_pg_servers_find(const char *const *bindirs, size_t n,
                       char (*versions)[SB_PG_VERSION_MAX], struct sb_error *err)
{
    (void)bindirs;
    (void)n;
    (void)versions;
    return sb_fail(err, SB_ERR_INPUT, "%s", WHY);
}

int sb_pg_fleet_open(struct sb_pg_fleet **fleet, const struct sb_pg_jobs *jobs,
                     const struct sb_pg_rounds_params *params, struct sb_error *err)
{
    (void)jobs;
    (void)params;
    *fleet = NULL;
    return sb_fail(err, SB_ERR_INPUT, "%s", WHY);
}

size_t sb_pg_fleet_runs(const struct sb_pg_fleet *fleet)
{
    (void)fleet;
    return 0;
}

uint32_t sb_pg_fleet_rounds_done(const struct sb_pg_fleet *fleet, size_t *unit,
                                 const char **name)
{
    (void)fleet;
    *unit = 0;
    *name = "";
    return 0;
}

int sb_pg_fleet_run(struct sb_pg_fleet *fleet, json_t *runs, json_t **schedule, bool *partial,
                    struct sb_error *err)
{
    (void)fleet;
    (void)runs;
    *schedule = NULL;
    *partial = false;
    return sb_fail(err, SB_ERR_INPUT, "%s", WHY);
}

json_t *sb_pg_fleet_json(const struct sb_pg_fleet *fleet)
{
    (void)fleet;
    return json_null();
}

void sb_pg_fleet_close(struct sb_pg_fleet *fleet) { (void)fleet; }
