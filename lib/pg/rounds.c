/* SPDX-License-Identifier: BSD-3-Clause */
/* rounds.c: clusters side by side, timed in shuffled rounds (see rounds.h). */
#include "config.h"
#include "pg/rounds.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "pg/around.h"
#include "pg/client.h"
#include "pg/record.h"
#include "pg/runner.h"
#include "pg/server.h"
#include "pg/session.h"
#include "pg/table.h"
#include "stats/stats.h"

#define STATEMENT_MAX 160

/* One cluster: a server, a pool, a table, the server settings asked for, and which backend of
 * a job's several it is. */
struct cluster {
    size_t server;
    uint64_t pool;
    struct sb_pg_table_shape table;
    uint32_t backend;         /* which of a job's backends; from SB_PG_CLIENTS_MAX: the twin's */
    struct sb_pg_knobs knobs; /* the server settings it starts with (sb_pg_knobs_cluster) */
    struct sb_pg_session *session;
};

/* The timed scans of one timed item, in the order they ran. */
struct timings {
    double *seconds, *at, *backend_seconds;
    uint32_t *rounds, *positions, *layouts;
    struct sb_pg_around *around;
    uint32_t n;
};

/* What is timed once per round: a job on one server, on its clusters (one per backend). */
struct unit {
    const struct sb_pg_job *job;
    size_t server;
    struct cluster **clusters; /* job->threads of them */
    uint32_t nclusters;
    struct sb_pg_measurement m;
    struct timings t;
    char name[SB_RUN_NAME_MAX + 48];
};

struct sb_pg_fleet {
    struct sb_pg_rounds_params p;
    char versions[SB_PG_SERVERS_MAX][SB_PG_VERSION_MAX];
    size_t nservers;
    struct cluster *clusters;
    size_t nclusters;
    struct unit *units;
    size_t nunits;
    struct unit twin;         /* the first unit again, on clusters of its own: the A-A pair */
    struct timings reference; /* the twin's timing in each round */
    uint32_t cap;             /* rounds at most */
    uint32_t rounds;          /* rounds finished */
    uint32_t instance;        /* the clusters' instance: restarts of all of them so far */
    double restarts_seconds;  /* spent restarting and settling them */
    double asking_seconds;    /* spent asking whether the rounds have settled */
    double t0;                /* when the rounds began */
    size_t current;           /* the unit in flight (a stop's) */
    const char *stopped_by;
};

static int timings_alloc(struct timings *t, uint32_t cap, uint32_t backends)
{
    size_t n = cap ? cap : 1;

    t->seconds = calloc(n, sizeof *t->seconds);
    t->at = calloc(n, sizeof *t->at);
    t->backend_seconds = calloc(n * (backends ? backends : 1), sizeof *t->backend_seconds);
    t->rounds = calloc(n, sizeof *t->rounds);
    t->positions = calloc(n, sizeof *t->positions);
    t->layouts = calloc(n, sizeof *t->layouts);
    t->around = calloc(n, sizeof *t->around);
    return t->seconds && t->at && t->backend_seconds && t->rounds && t->positions &&
                   t->layouts && t->around
               ? 0 : -1;
}

static void timings_free(struct timings *t)
{
    free(t->seconds);
    free(t->at);
    free(t->backend_seconds);
    free(t->rounds);
    free(t->positions);
    free(t->layouts);
    free(t->around);
}

/* The server's version, short: "8.1.21", "15.20". */
static void short_version(const char *version, char *buf, size_t len)
{
    snprintf(buf, len, "%.*s", (int)strcspn(version, " "), version);
}

/* The cluster for (server, the job's pool and table, backend), made when there is none yet. */
static struct cluster *cluster_for(struct sb_pg_fleet *f, size_t server,
                                   const struct sb_pg_job *job, uint32_t backend)
{
    struct cluster *c;
    struct sb_pg_knobs knobs;

    sb_pg_knobs_cluster(&job->knobs, &knobs);
    for (size_t i = 0; i < f->nclusters; i++) {
        c = &f->clusters[i];
        if (c->server == server && c->pool == job->pool_size && c->backend == backend &&
            sb_pg_table_same(&c->table, &job->table) && sb_pg_knobs_same(&c->knobs, &knobs))
            return c;
    }
    c = &f->clusters[f->nclusters++];
    *c = (struct cluster){server, job->pool_size, job->table, backend, knobs, NULL};
    return c;
}

/* The first unit's twin: the same server and job on clusters of its own (their backend numbers
 * set apart), timed once a round as the reference, so that the A-A pair spans two clusters as
 * two settings do. */
static int plan_twin(struct sb_pg_fleet *f, struct sb_error *err)
{
    struct unit *u = &f->units[0], *t = &f->twin;

    *t = (struct unit){.job = u->job, .server = u->server, .nclusters = u->nclusters};
    t->clusters = calloc(t->nclusters, sizeof *t->clusters);
    if (!t->clusters || timings_alloc(&f->reference, f->cap, t->nclusters) != 0)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    for (uint32_t b = 0; b < t->nclusters; b++)
        t->clusters[b] = cluster_for(f, t->server, t->job, SB_PG_CLIENTS_MAX + b);
    snprintf(t->name, sizeof t->name, "%s (reference)", u->name);
    return SB_OK;
}

/* Every (server, job) a unit, with its clusters; every cluster listed once. */
static int plan_units(struct sb_pg_fleet *f, const struct sb_pg_jobs *jobs, struct sb_error *err)
{
    size_t most = 0;

    for (size_t j = 0; j < jobs->n; j++)
        most += jobs->jobs[j].threads ? jobs->jobs[j].threads : 1;
    f->units = calloc(jobs->n * f->nservers + 1, sizeof *f->units);
    f->clusters = calloc(most * f->nservers + SB_PG_CLIENTS_MAX, sizeof *f->clusters);
    if (!f->units || !f->clusters)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    for (size_t v = 0; v < f->nservers; v++)
        for (size_t j = 0; j < jobs->n; j++) {
            struct unit *u = &f->units[f->nunits++];
            char version[64];
            u->job = &jobs->jobs[j];
            u->server = v;
            u->nclusters = u->job->threads ? u->job->threads : 1;
            u->clusters = calloc(u->nclusters, sizeof *u->clusters);
            if (!u->clusters || timings_alloc(&u->t, f->cap, u->nclusters) != 0)
                return sb_fail(err, SB_ERR_RUN, "out of memory");
            for (uint32_t b = 0; b < u->nclusters; b++)
                u->clusters[b] = cluster_for(f, v, u->job, b);
            short_version(f->versions[v], version, sizeof version);
            if (f->nservers > 1)
                snprintf(u->name, sizeof u->name, "%s server=%s", u->job->run->name, version);
            else
                snprintf(u->name, sizeof u->name, "%s", u->job->run->name);
        }
    return plan_twin(f, err);
}

/* Every cluster's disk: twice its table and an eighth (it moves between tablespaces), and 256MB
 * for the cluster and its WAL. */
static int check_disk(const struct sb_pg_fleet *f, struct sb_error *err)
{
    uint64_t need = 0, largest = 0;

    for (size_t i = 0; i < f->nclusters; i++) {
        uint64_t t = f->clusters[i].table.table_size;
        need += 2 * t + t / 8 + (256ull << 20);
        largest = t > largest ? t : largest;
    }
    return sb_pg_check_disk(sb_pg_parent_dir(), need, largest, err);
}

int sb_pg_fleet_open(struct sb_pg_fleet **out, const struct sb_pg_jobs *jobs,
                     const struct sb_pg_rounds_params *params, struct sb_error *err)
{
    struct sb_pg_fleet *f = calloc(1, sizeof *f);
    int status;

    *out = f;
    if (!f)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    f->p = *params;
    f->cap = params->rounds ? params->rounds : SB_PG_ROUNDS_MAX;
    if (jobs->n == 0)
        return sb_fail(err, SB_ERR_INPUT, "no server runs");
    f->nservers = params->nservers ? params->nservers : 1;
    status = sb_pg_servers_find(params->servers, params->nservers, f->versions, err);
    if (status == SB_OK)
        status = plan_units(f, jobs, err);
    if (status == SB_OK)
        status = check_disk(f, err);
    for (size_t i = 0; i < f->nclusters && status == SB_OK; i++) {
        struct cluster *c = &f->clusters[i];
        status = sb_pg_session_open_at(&c->session, f->p.nservers ? f->p.servers[c->server] : NULL,
                                       c->pool, &c->knobs, jobs, f->p.quiet, err);
    }
    if (status == SB_OK)
        sb_pg_progress(f->p.quiet, "%zu clusters side by side (%zu server%s), timed in shuffled "
                       "rounds", f->nclusters, f->nservers, f->nservers == 1 ? "" : "s");
    return status;
}

size_t sb_pg_fleet_runs(const struct sb_pg_fleet *f) { return f ? f->nunits : 0; }

uint32_t sb_pg_fleet_rounds_done(const struct sb_pg_fleet *f, size_t *unit, const char **name)
{
    *unit = f && f->nunits ? f->current : 0;
    *name = f && f->nunits ? f->units[f->current].name : "";
    return f ? f->rounds : 0;
}

/* job prepared on cluster c (the table loaded, the untimed scans) into m (NULL: a scratch
 * measurement), under the watchdog as `what`. */
static int prepare_on(struct cluster *c, const struct sb_pg_job *job, const char *what,
                      bool quiet, struct sb_pg_measurement *m, struct sb_error *err)
{
    struct sb_pg_measurement scratch;
    int status;

    memset(&scratch, 0, sizeof scratch);
    scratch.counts_ok = true;
    sb_watchdog_arm(job->run->run_timeout, what);
    status = sb_pg_session_prepare(c->session, job, quiet, m ? m : &scratch, err);
    sb_watchdog_disarm();
    if (status != SB_OK && sb_watchdog_overran() && !sb_stop_signal())
        status = sb_fail(err, SB_ERR_RUN, "%s ran longer than its run_timeout of %.0f s: "
                         "stopped", what, job->run->run_timeout);
    return status;
}

/* The twin's clusters brought to the state of the first unit's: every job prepared on those
 * (their untimed scans change the table: a VACUUM's first removes the dead rows, which a
 * COUNT(*) would then not meet), in the same order, on the twin's. Without it the twin of a
 * COUNT(*) that shared its cluster with a VACUUM scanned a table with its dead rows, and the
 * A-A pair came out 7% apart. */
static int prepare_twin(struct sb_pg_fleet *f, struct sb_error *err)
{
    const struct unit *first = &f->units[0];
    struct unit *t = &f->twin;
    char what[SB_RUN_NAME_MAX + 96];
    int status = SB_OK;

    snprintf(what, sizeof what, "pg run 1/%zu %s (preparing)", f->nunits, t->name);
    t->m.counts_ok = true;
    for (uint32_t b = 0; b < t->nclusters && status == SB_OK; b++)
        for (size_t j = 0; j < f->nunits && status == SB_OK; j++) {
            const struct unit *u = &f->units[j];
            if (b < u->nclusters && u->clusters[b] == first->clusters[b])
                status = prepare_on(t->clusters[b], u->job, what, f->p.quiet,
                                    j == 0 && b == 0 ? &t->m : NULL, err);
        }
    return status;
}

/* Each unit's job prepared on each of its clusters (the table loaded, the untimed scans), then
 * the twin's: the first cluster's measurement is the record's, the others' a scratch one. */
static int prepare_units(struct sb_pg_fleet *f, struct sb_error *err)
{
    int status = SB_OK;

    for (size_t i = 0; i < f->nunits && status == SB_OK; i++) {
        struct unit *u = &f->units[i];
        char what[SB_RUN_NAME_MAX + 96];
        f->current = i;
        snprintf(what, sizeof what, "pg run %zu/%zu %s (preparing)", i + 1, f->nunits, u->name);
        u->m.counts_ok = true;
        for (uint32_t b = 0; b < u->nclusters && status == SB_OK; b++)
            status = prepare_on(u->clusters[b], u->job, what, f->p.quiet, b == 0 ? &u->m : NULL,
                                err);
        sb_pg_progress(f->p.quiet || status != SB_OK, "%s: %s", u->name, u->m.placement.why);
    }
    f->current = 0;
    return status == SB_OK ? prepare_twin(f, err) : status;
}

/* What the kernel will be asked about the unit's first backend: it, and every cluster's
 * server processes. */
static void around_pids(const struct sb_pg_fleet *f, const struct unit *u,
                        struct sb_pg_around_pids *pids)
{
    pid_t postmasters[64];
    size_t n = 0;

    for (size_t i = 0; i < f->nclusters && n < 64; i++)
        postmasters[n++] = sb_pg_session_postmaster(f->clusters[i].session);
    sb_pg_around_pids(pids, sb_pg_session_backend(u->clusters[0]->session), postmasters, n);
}

/* One timed item: every cluster of the unit evicted, then its statement sent to all at once;
 * the time into t (round r, position p, at seconds since the rounds began), with what the
 * kernel says happened around it; t NULL: untimed (a new instance's settling scan). */
static int time_unit(struct sb_pg_fleet *f, struct unit *u, struct timings *t,
                     uint32_t r, uint32_t p, double t0, struct sb_error *err)
{
    /* the twin's evictions and counts are its original's: the record validates every scan */
    struct sb_pg_measurement *m = u == &f->twin ? &f->units[0].m : &u->m;
    struct sb_pg_around_pids pids;
    struct sb_pg_around_read before, after;
    struct sb_pg_client *clients[SB_PG_CLIENTS_MAX];
    char sql[SB_PG_CLIENTS_MAX][STATEMENT_MAX], values[SB_PG_CLIENTS_MAX][SB_PG_VALUE_MAX];
    const char *texts[SB_PG_CLIENTS_MAX];
    double each[SB_PG_CLIENTS_MAX], wall = 0.0, at = 0.0;
    int status = SB_OK;

    for (uint32_t b = 0; b < u->nclusters && status == SB_OK; b++) {
        struct sb_pg_session *s = u->clusters[b]->session;
        status = sb_pg_session_evict(s, b == 0 ? m : NULL, err);
        if (status == SB_OK)
            status = sb_pg_session_before(s, u->job, m, err);
        sb_pg_session_statement(s, u->job, sql[b], sizeof sql[b]);
        texts[b] = sql[b];
        clients[b] = sb_pg_session_client(s);
    }
    if (status == SB_OK) {
        around_pids(f, u, &pids);
        sb_pg_around_read(&pids, &before);
        at = sb_timer_now() - t0;
        status = sb_pg_client_exec_all(clients, u->nclusters, texts, values, each, &wall, err);
        sb_pg_around_read(&pids, &after);
    }
    for (uint32_t b = 0; b < u->nclusters && status == SB_OK; b++)
        status = sb_pg_session_check_count(u->job, values[b], m, err);
    if (status == SB_OK && t) {
        sb_pg_around_between(&before, &after, &t->around[t->n]);
        t->layouts[t->n] = f->instance;
        t->seconds[t->n] = wall;
        t->at[t->n] = at;
        t->rounds[t->n] = r;
        t->positions[t->n] = p;
        memcpy(&t->backend_seconds[(size_t)t->n * u->nclusters], each,
               u->nclusters * sizeof *each);
        t->n++;
    }
    return status;
}

/* Round r: every unit once in the round's shuffle, the first unit a second time. */
static int one_round(struct sb_pg_fleet *f, uint32_t r, double t0, struct sb_error *err)
{
    uint32_t n = (uint32_t)f->nunits + 1, *order = calloc(n, sizeof *order);
    int status = order ? SB_OK : sb_fail(err, SB_ERR_RUN, "out of memory");

    if (order)
        sb_schedule_round_order(f->p.seed, r, n, order);
    for (uint32_t p = 0; p < n && status == SB_OK; p++) {
        bool second = order[p] == n - 1;
        struct unit *u = second ? &f->twin : &f->units[order[p]];
        char what[SB_RUN_NAME_MAX + 96];
        f->current = second ? 0 : order[p];
        snprintf(what, sizeof what, "pg round %u, %s", r + 1, u->name);
        sb_watchdog_arm(u->job->run->run_timeout, what);
        status = time_unit(f, u, second ? &f->reference : &u->t, r, p, t0, err);
        sb_watchdog_disarm();
        if (status != SB_OK && sb_watchdog_overran() && !sb_stop_signal())
            status = sb_fail(err, SB_ERR_RUN, "%s: one scan ran longer than its run_timeout of "
                             "%.0f s: stopped", what, u->job->run->run_timeout);
    }
    free(order);
    return status;
}

/* Keeps the first `rounds` rounds of t (a round stopped half-way is dropped). */
static void keep_rounds(struct timings *t, uint32_t rounds)
{
    while (t->n > 0 && t->rounds[t->n - 1] >= rounds)
        t->n--;
}

static json_t *records_json(struct sb_pg_fleet *f);
static json_t *schedule_json(const struct sb_pg_fleet *f);

/* A new instance of every cluster, in a shuffled order: each server restarted (its shared
 * memory mapped anew, its processes new), then each unit scanned once untimed on it, so that
 * the first timed scan does not pay for the first touch of the new shared memory. */
static int new_instance(struct sb_pg_fleet *f, struct sb_error *err)
{
    uint32_t n = (uint32_t)f->nclusters, *order = calloc(n, sizeof *order);
    double start = sb_timer_now();
    int status = order ? SB_OK : sb_fail(err, SB_ERR_RUN, "out of memory");

    f->instance++;
    if (order)
        sb_schedule_round_order(f->p.seed ^ 0x5ca1ab1eULL, f->instance, n, order);
    for (uint32_t k = 0; k < n && status == SB_OK; k++)
        status = sb_pg_session_restart(f->clusters[order[k]].session, err);
    for (size_t i = 0; i <= f->nunits && status == SB_OK; i++)
        status = time_unit(f, i < f->nunits ? &f->units[i] : &f->twin, NULL, 0, 0, 0.0, err);
    free(order);
    f->restarts_seconds += sb_timer_now() - start;
    return status;
}

/* The rounds so far, as the report's analysis reads them, settled at the precision; asked
 * only while asking has taken at most 5% of the rounds' time (elapsed), as run's auto does:
 * each asking is a two-stage bootstrap of every pair over every round so far. */
static bool settled(void *ctx)
{
    struct sb_pg_fleet *f = ctx;
    double start = sb_timer_now(), elapsed = start - f->t0;
    json_t *runs, *schedule;
    bool done;

    if (!f->p.settled || f->asking_seconds > 0.05 * elapsed)
        return false;
    runs = records_json(f);
    schedule = schedule_json(f);
    done = runs && schedule && f->p.settled(runs, schedule, SB_PG_PRECISION);
    json_decref(runs);
    json_decref(schedule);
    f->asking_seconds += sb_timer_now() - start;
    return done;
}

/* Whether auto stops after the rounds finished (sb_pg_auto_stop), saying why. */
static bool auto_stops(struct sb_pg_fleet *f, double round_seconds)
{
    struct sb_pg_auto a = {f->rounds, f->instance + 1, sb_timer_now() - f->t0, round_seconds,
                           f->p.time_budget};

    if (!f->p.rounds)
        f->stopped_by = sb_pg_auto_stop(&a, settled, f);
    return f->stopped_by != NULL;
}

/* The rounds: repetitions of them, or (auto) until every pair is precise or time_budget, within
 * the bounds; every SB_PG_INSTANCE_ROUNDS rounds, a new instance of every cluster. */
static int run_rounds(struct sb_pg_fleet *f, struct sb_error *err)
{
    double t0 = f->t0 = sb_timer_now();
    int status = SB_OK;

    for (uint32_t r = 0; r < f->cap && status == SB_OK; r++) {
        double start = sb_timer_now();
        if (r > 0 && r % SB_PG_INSTANCE_ROUNDS == 0)
            status = new_instance(f, err);
        if (status == SB_OK)
            status = one_round(f, r, t0, err);
        if (status != SB_OK)
            break;
        f->rounds = r + 1;
        sb_pg_progress(f->p.quiet, "round %u done (%.1f s, instance %u)", r + 1,
                       sb_timer_now() - start, f->instance + 1);
        if (auto_stops(f, sb_timer_now() - start))
            break;
    }
    if (!f->stopped_by)
        f->stopped_by = status == SB_OK ? (f->p.rounds ? "repetitions" : "max_rounds") : "stop";
    for (size_t i = 0; i < f->nunits; i++)
        keep_rounds(&f->units[i].t, f->rounds);
    keep_rounds(&f->reference, f->rounds);
    return status;
}

/* The unit's measurement pointed at its timings. */
static void attach(struct sb_pg_measurement *m, const struct timings *t, uint32_t backends,
                   const char *name)
{
    m->nreps = t->n;
    m->seconds = t->seconds;
    m->rounds = t->rounds;
    m->positions = t->positions;
    m->at = t->at;
    m->backends = backends;
    m->backend_seconds = t->backend_seconds;
    m->layouts = t->layouts;
    m->around = t->around;
    m->name = name;
}

/* The schedule block as it was before instances: the rounds, the pairing, the reference. */
static json_t *schedule_base_json(const struct sb_pg_fleet *f)
{
    struct sb_pg_measurement ref = f->units[0].m;

    attach(&ref, &f->reference, f->units[0].nclusters, f->units[0].name);
    return json_pack(
        "{s:s, s:I, s:s, s:i, s:o, s:s, s:s, s:i, s:s, s:{s:s, s:i, s:s, s:o}}", "kind",
        "interleaved", "seed", (json_int_t)f->p.seed, "seed_from", "schedule_seed", "rounds",
        (int)f->rounds, "rounds_planned",
        f->p.rounds ? json_integer(f->p.rounds) : json_string("auto"), "stopped_by",
        f->stopped_by ? f->stopped_by : "running", "how",
        "every server and setting a cluster of its own, all running side by side (nothing "
        "restarted within an instance's rounds); each round times every run once in a seeded shuffle "
        "(each followed by its reverse), each scan after an eviction of its table's buffers",
        "clusters", (int)f->nclusters, "paired",
        "round by round, each run against the first run of its op and backends on its server, "
        "and (with several servers) against the same setting on the first server",
        "reference", "run", f->units[0].name, "run_index", 0, "why",
        "the first run timed a second time in each round, on clusters of its own (an A-A pair "
        "of two clusters): the noise floor",
        "scans", sb_pg_scans_json(&ref));
}

/* The runs whose jobs were prepared on the twin's clusters, as on the first run's. */
static json_t *twin_prepared(const struct sb_pg_fleet *f)
{
    json_t *list = json_array();

    for (size_t j = 0; j < f->nunits; j++)
        if (f->units[j].clusters[0] == f->units[0].clusters[0])
            json_array_append_new(list, json_string(f->units[j].name));
    return list;
}

/* The schedule block with its instances (the live path's layouts) and the stopping rule. */
static json_t *schedule_json(const struct sb_pg_fleet *f)
{
    json_t *block = schedule_base_json(f);

    json_object_set_new(block, "instances", json_integer(f->instance + 1));
    json_object_set_new(block, "instance", json_pack(
        "{s:i, s:f, s:s}", "rounds", SB_PG_INSTANCE_ROUNDS, "seconds", f->restarts_seconds,
        "how", "every cluster's server restarted, in a shuffled order, after every "
        "instance's rounds (its shared memory mapped anew, its processes new), then each run "
        "scanned once untimed; each timed scan names its instance (scans[].layout), and the "
        "analysis resamples instances, then rounds within them (two-stage)"));
    json_object_set_new(block, "precision", f->p.rounds ? json_null()
                                                        : json_real(SB_PG_PRECISION));
    json_object_set_new(block, "instances_min", json_integer(SB_PG_INSTANCES_MIN));
    json_object_set_new(block, "asking_seconds", json_real(f->asking_seconds));
    json_object_set_new(json_object_get(block, "reference"), "prepared", twin_prepared(f));
    return block;
}

/* After the rounds (all of them finished): each unit's evidence on its first cluster. */
static int finish_units(struct sb_pg_fleet *f, bool partial, struct sb_error *err)
{
    int status = SB_OK;

    for (size_t i = 0; i < f->nunits && status == SB_OK; i++) {
        struct unit *u = &f->units[i];
        if (partial) {
            snprintf(u->m.occupancy_why, sizeof u->m.occupancy_why, "not measured: the rounds "
                     "were stopped");
            snprintf(u->m.later_scan.why, sizeof u->m.later_scan.why, "not measured: the rounds "
                     "were stopped");
            continue;
        }
        sb_watchdog_arm(u->job->run->run_timeout, u->name);
        status = sb_pg_session_finish(u->clusters[0]->session, u->job, &u->m, err);
        sb_watchdog_disarm();
    }
    return status;
}

/* The runs unit u is compared against, round by round (report/analysis.h's paired_with): the
 * first run of its op and backends on its server (the pool's or table's effect, at as many
 * backends), and with several servers the same job on the first server (the version's). */
static json_t *paired_with(const struct sb_pg_fleet *f, size_t u)
{
    const struct unit *me = &f->units[u];
    json_t *list = json_array();

    for (size_t i = 0; i < f->nunits; i++) {
        const struct unit *o = &f->units[i];
        if (o->server == me->server && strcmp(o->job->op, me->job->op) == 0 &&
            o->nclusters == me->nclusters) {
            if (i != u)
                json_array_append_new(list, json_string(o->name));
            break;
        }
    }
    if (me->server != 0)
        for (size_t i = 0; i < f->nunits; i++)
            if (f->units[i].server == 0 && f->units[i].job == me->job)
                json_array_append_new(list, json_string(f->units[i].name));
    return list;
}

/* One record per unit, from its timings so far, naming the runs it is paired with. */
static json_t *records_json(struct sb_pg_fleet *f)
{
    json_t *runs = json_array();

    for (size_t i = 0; runs && i < f->nunits; i++) {
        struct unit *u = &f->units[i];
        json_t *record;
        attach(&u->m, &u->t, u->nclusters, u->name);
        record = sb_pg_record(u->job, &u->m);
        json_object_set_new(record, "paired_with", paired_with(f, i));
        json_array_append_new(runs, record);
    }
    return runs;
}

int sb_pg_fleet_run(struct sb_pg_fleet *f, json_t *runs, json_t **schedule, bool *partial,
                    struct sb_error *err)
{
    int status = prepare_units(f, err);

    *partial = false;
    *schedule = NULL;
    if (status != SB_OK) {
        if (sb_stop_requested()) /* the report says what was planned */
            *schedule = schedule_json(f);
        return status;
    }
    status = run_rounds(f, err);
    *partial = status != SB_OK && sb_stop_requested() && f->rounds > 0;
    if (status != SB_OK && !*partial)
        return status;
    if (status == SB_OK)
        status = finish_units(f, false, err);
    else
        finish_units(f, true, err);
    if (status == SB_OK || *partial) {
        json_t *records = records_json(f);
        json_array_extend(runs, records);
        json_decref(records);
    }
    *schedule = schedule_json(f);
    return status;
}

json_t *sb_pg_fleet_json(const struct sb_pg_fleet *f)
{
    json_t *block = sb_pg_session_json(f->clusters[0].session), *servers = json_array();
    json_t *clusters = json_array();

    for (size_t v = 0; v < f->nservers; v++) {
        const struct cluster *first = NULL;
        for (size_t i = 0; i < f->nclusters && !first; i++)
            if (f->clusters[i].server == v)
                first = &f->clusters[i];
        json_array_append_new(servers, first ? sb_pg_session_json(first->session) : json_null());
    }
    for (size_t i = 0; i < f->nclusters; i++) {
        const struct cluster *c = &f->clusters[i];
        bool twin = c->backend >= SB_PG_CLIENTS_MAX;
        json_array_append_new(clusters, json_pack(
            "{s:s, s:I, s:I, s:i, s:b}", "server", f->versions[c->server], "shared_buffers",
            (json_int_t)c->pool, "table_size", (json_int_t)c->table.table_size, "backend",
            (int)(twin ? c->backend - SB_PG_CLIENTS_MAX : c->backend), "reference", twin));
    }
    json_object_set_new(block, "servers", servers);
    json_object_set_new(block, "clusters", clusters);
    json_object_set_new(block, "cluster", json_string(
        "one per server, shared_buffers, table and backend, each initdb'd into a new directory "
        "under $TMPDIR (else /tmp) with its own Unix socket, all running side by side; removed "
        "at exit"));
    return block;
}

void sb_pg_fleet_close(struct sb_pg_fleet *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->nclusters; i++)
        sb_pg_session_close(f->clusters[i].session);
    for (size_t i = 0; i < f->nunits; i++) {
        free(f->units[i].clusters);
        timings_free(&f->units[i].t);
    }
    free(f->twin.clusters);
    timings_free(&f->reference);
    free(f->units);
    free(f->clusters);
    free(f);
}
