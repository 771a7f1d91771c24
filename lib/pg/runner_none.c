/* runner_none.c: runner.h when scanbench is built without libpq:
 * `scanbench pg` and `reproduce --pg` say so (bad input, exit 2) and name the package. */
#include "config.h"
#include "pg/runner.h"

#include <stdio.h>

#define WHY "scanbench was built without libpq: install it (Debian package libpq-dev) and " \
            "run ./configure again (--with-libpq)"

bool sb_pg_built(char *why, size_t len)
{
    snprintf(why, len, "%s", WHY);
    return false;
}

int sb_pg_session_open(struct sb_pg_session **session, const struct sb_pg_jobs *jobs, bool quiet,
                       struct sb_error *err)
{
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

void sb_pg_session_close(struct sb_pg_session *session) { (void)session; }
