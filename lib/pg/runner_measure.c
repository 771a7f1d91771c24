/* SPDX-License-Identifier: BSD-3-Clause */
/* runner_measure.c: a job measured on a session: the table and pool set up, the measurement
 * begun (where PostgreSQL's rule puts the pages), the untimed scans, the timed repetitions,
 * then the occupancy and the buffer figures into one run record; a job list run under the
 * watchdog (runner.h); and the same steps one at a time for the interleaved schedule
 * (session.h). */
#include "config.h"
#include "pg/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "pg/copier.h"
#include "pg/record.h"
#include "pg/rule.h"
#include "pg/session.h"
#include "pg/session_state.h"

/* The measurement's server, table and pool, and where PostgreSQL's rule puts the pages. */
static void measurement_start(const struct sb_pg_session *s, const struct sb_pg_job *job,
                              uint64_t nbuffers, const double *seconds,
                              struct sb_pg_measurement *m)
{
    struct sb_pg_rule_inputs in = s->rule;

    snprintf(m->server_version, sizeof m->server_version, "%s", s->server.version);
    sb_pg_session_statement(s, job, m->statement, sizeof m->statement);
    m->relation_bytes = s->relation_bytes;
    m->block_size = s->block_size;
    m->nbuffers = nbuffers;
    m->seconds = seconds;
    in.nbuffers = nbuffers;
    in.block_size = s->block_size;
    in.statement_limit_kb = job->knobs.buffer_usage_limit >= 0
                                ? job->knobs.buffer_usage_limit / 1024 : -1;
    m->rule = in;
    sb_pg_placement_rule(job->op, s->relation_bytes / s->block_size, &in, &m->placement);
    sb_pg_copier_text(s->server.num, s->io_method, s->pinned, m->copier, sizeof m->copier);
}

/* The first scan (hint bits set for count, dead rows removed for vacuum; instrumented when it
 * is the table's first since its load) and the warm-up; each after an eviction; then the
 * occupancy query warmed. */
static int untimed_scans(struct sb_pg_session *s, const struct sb_pg_job *job,
                         struct sb_pg_measurement *m, struct sb_error *err)
{
    int status = SB_OK;

    for (uint32_t w = 0; w <= job->warmup && status == SB_OK; w++) {
        status = sb_pg_session_evict(s, m, err);
        if (status == SB_OK)
            status = w == 0 ? sb_pg_session_first_scan(s, job, m, err)
                            : sb_pg_session_scan(s, job, NULL, m, err);
    }
    if (status == SB_OK)
        status = sb_pg_session_warm_occupancy(s, err);
    return status;
}

int sb_pg_session_before(struct sb_pg_session *s, const struct sb_pg_job *job,
                         struct sb_pg_measurement *m, struct sb_error *err)
{
    char sql[128], value[64];
    int status = SB_OK;

    for (uint32_t k = 0; k < job->nbefore && status == SB_OK; k++) {
        sb_pg_session_op_statement(s, job, job->before[k], sql, sizeof sql);
        status = sb_pg_client_exec(&s->client, sql, value, sizeof value, NULL, err);
        if (status == SB_OK && m && strcmp(job->before[k], "count") == 0)
            status = sb_pg_session_check_rows(job, value, " before the timed statement", m, err);
    }
    return status;
}

/* The untimed scans, then the timed repetitions into seconds[]; each after an eviction (and
 * the statements before the op). */
static int job_scans(struct sb_pg_session *s, const struct sb_pg_job *job, double *seconds,
                     struct sb_pg_measurement *m, struct sb_error *err)
{
    int status = untimed_scans(s, job, m, err);

    for (uint32_t r = 0; r < job->repetitions && status == SB_OK; r++) {
        status = sb_pg_session_evict(s, m, err);
        if (status == SB_OK)
            status = sb_pg_session_before(s, job, m, err);
        if (status == SB_OK)
            status = sb_pg_session_scan(s, job, &seconds[r], m, err);
        if (status == SB_OK)
            m->nreps++;
    }
    return status;
}

static int run_job(struct sb_pg_session *s, const struct sb_pg_job *job, json_t *runs, bool quiet,
                   struct sb_error *err)
{
    struct sb_pg_measurement m;
    double *seconds = calloc(job->repetitions ? job->repetitions : 1, sizeof *seconds);
    uint64_t nbuffers;
    char size[32], pool[32];
    int status;
    json_t *record;

    memset(&m, 0, sizeof m);
    m.counts_ok = true;
    m.name = job->label;
    if (!seconds)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    status = sb_pg_session_set_up(s, job, quiet, &nbuffers, err);
    if (status != SB_OK)
        goto out;
    measurement_start(s, job, nbuffers, seconds, &m);
    sb_pg_progress(quiet, "%s: %s, %s table, shared_buffers %s: %s", job->run->name, job->op,
                   sb_format_size(job->table.table_size, size, sizeof size),
                   sb_format_size(job->pool_size, pool, sizeof pool), m.placement.why);
    status = job_scans(s, job, seconds, &m, err);
    if (status == SB_OK)
        status = sb_pg_session_occupancy(s, &m, err);
    if (status == SB_OK)
        status = sb_pg_session_buffer_figures(s, job, &m, err);
    if (status != SB_OK)
        goto out;
    record = sb_pg_record(job, &m);
    if (!record) {
        status = sb_fail(err, SB_ERR_RUN, "cannot build the record of %s", job->run->name);
        goto out;
    }
    json_array_append_new(runs, record);
out:
    free(seconds);
    return status;
}

int sb_pg_session_run(struct sb_pg_session *s, const struct sb_pg_jobs *jobs, json_t *runs,
                      bool quiet, struct sb_error *err)
{
    int status = SB_OK;

    for (size_t j = 0; j < jobs->n && status == SB_OK; j++) {
        const struct sb_pg_job *job = &jobs->jobs[j];
        char what[320], more[64] = "";

        /* the watchdog bounds the job, its table's load included, as lib/runner/runner.c
         * bounds a run: past run_timeout it cancels the statement in flight and the job stops */
        snprintf(what, sizeof what, "pg run %zu/%zu %s", j + 1, jobs->n, job->run->name);
        sb_watchdog_arm(job->run->run_timeout, what);
        status = run_job(s, job, runs, quiet, err);
        sb_watchdog_disarm();
        if (status != SB_OK && sb_watchdog_overran() && !sb_stop_signal()) {
            if (jobs->n > j + 1)
                snprintf(more, sizeof more, "; %zu more not run", jobs->n - j - 1);
            status = sb_fail(err, SB_ERR_RUN, "%s ran longer than its run_timeout of %.0f s: "
                             "stopped%s", what, job->run->run_timeout, more);
        }
    }
    return status;
}

/* --- the steps of one session, for the interleaved schedule (session.h) ------------------- */

int sb_pg_session_prepare(struct sb_pg_session *s, const struct sb_pg_job *job, bool quiet,
                          struct sb_pg_measurement *m, struct sb_error *err)
{
    uint64_t nbuffers;
    int status = sb_pg_session_set_up(s, job, quiet, &nbuffers, err);

    if (status == SB_OK)
        measurement_start(s, job, nbuffers, NULL, m);
    if (status == SB_OK)
        status = untimed_scans(s, job, m, err);
    return status;
}

void sb_pg_session_statement(const struct sb_pg_session *s, const struct sb_pg_job *job,
                             char *buf, size_t len)
{
    sb_pg_session_op_statement(s, job, job->op, buf, len);
}

struct sb_pg_client *sb_pg_session_client(struct sb_pg_session *s)
{
    return &s->client;
}

int sb_pg_session_check_count(const struct sb_pg_job *job, const char *value,
                              struct sb_pg_measurement *m, struct sb_error *err)
{
    return strcmp(job->op, "count") == 0 ? sb_pg_session_check_rows(job, value, "", m, err)
                                         : SB_OK;
}

int sb_pg_session_finish(struct sb_pg_session *s, const struct sb_pg_job *job,
                         struct sb_pg_measurement *m, struct sb_error *err)
{
    int status = sb_pg_session_warm_occupancy(s, err);

    if (status == SB_OK)
        status = sb_pg_session_evict(s, m, err);
    if (status == SB_OK)
        status = sb_pg_session_scan(s, job, NULL, m, err);
    if (status == SB_OK)
        status = sb_pg_session_occupancy(s, m, err);
    if (status == SB_OK)
        status = sb_pg_session_buffer_figures(s, job, m, err);
    return status;
}
