/* SPDX-License-Identifier: BSD-3-Clause */
/* pg_runs.c: the reproduction on live PostgreSQL servers (see pg_runs.h and reproduce.h). */
#include "config.h"
#include "reproduce/pg_runs.h"

#include <stdbool.h>

int sb_reproduce_open_pg(struct sb_reproduction *r, struct sb_error *err)
{
    char why[256];
    int status = SB_OK;

    if (!sb_pg_built(why, sizeof why))
        return sb_fail(err, SB_ERR_INPUT, "--pg: %s", why);
    for (int i = 0; i < r->n && status == SB_OK; i++) {
        status = sb_pg_jobs_build(&r->setups[i].plan, &r->setups[i].exp, false, &r->pg_jobs[i],
                                  err);
        if (status == SB_OK)
            status = sb_pg_jobs_append(&r->pg_all, &r->pg_jobs[i], err);
        if (status == SB_OK)
            status = sb_pg_jobs_defaults(&r->pg_jobs[i], &r->pg_defaults[i], err);
        if (status == SB_OK)
            status = sb_pg_jobs_append(&r->pg_all, &r->pg_defaults[i], err);
    }
    if (status == SB_OK && r->nservers) {
        static char versions[SB_PG_SERVERS_MAX][SB_PG_VERSION_MAX];
        status = sb_pg_servers_find(r->servers, (size_t)r->nservers, versions, err);
    }
    for (int v = 0; v < (r->nservers ? r->nservers : 1) && status == SB_OK; v++) {
        status = sb_pg_session_open(&r->sessions[v], r->nservers ? r->servers[v] : NULL,
                                    &r->pg_all, false, err);
        r->nsessions = v + 1;
    }
    return status;
}

/* The newest of the sessions' servers (the highest version; the first of equals). */
static int newest_session(const struct sb_reproduction *r)
{
    int newest = 0;

    for (int v = 1; v < r->nsessions; v++)
        if (sb_pg_session_version_num(r->sessions[v]) >
            sb_pg_session_version_num(r->sessions[newest]))
            newest = v;
    return newest;
}

/* Experiment i's ops on the newest server at its own defaults (shared_buffers 128MB, its own
 * rings), as block's `defaults`. */
static int defaults_runs(struct sb_reproduction *r, int i, json_t *block, struct sb_error *err)
{
    int v = newest_session(r), status;
    json_t *runs = json_array();

    status = sb_pg_session_run(r->sessions[v], &r->pg_defaults[i], runs, true, err);
    if (status == SB_OK)
        json_object_set_new(block, "defaults", json_pack(
            "{s:I, s:I, s:o, s:s}", "server", (json_int_t)v, "shared_buffers",
            (json_int_t)SB_PG_DEFAULT_SHARED_BUFFERS, "runs", runs, "how",
            "the newest server (index into servers, 0 with one) at its own defaults: "
            "shared_buffers 128MB, its own rings, no server key set; the same table and ops"));
    else
        json_decref(runs);
    return status;
}

int sb_reproduce_pg_runs(struct sb_reproduction *r, int i, json_t *report, struct sb_error *err)
{
    json_t *servers = json_array(), *first = NULL;
    int status = SB_OK;

    for (int v = 0; v < r->nsessions && (status == SB_OK); v++) {
        json_t *runs = json_array();
        status = sb_pg_session_run(r->sessions[v], &r->pg_jobs[i], runs, true, err);
        if (status == SB_OK || sb_stop_requested())
            json_array_append_new(servers, json_pack("{s:o, s:o, s:s}", "server",
                                                     sb_pg_session_json(r->sessions[v]), "runs",
                                                     runs, "notes", r->pg_jobs[i].notes));
        else
            json_decref(runs);
    }
    first = json_array_get(servers, 0);
    if (first) {
        json_t *block = json_deep_copy(first);
        if (r->nsessions > 1)
            json_object_set(block, "servers", servers);
        json_object_set_new(report, "postgresql", block);
        if (status == SB_OK && r->pg_defaults[i].n)
            status = defaults_runs(r, i, block, err);
    }
    json_decref(servers);
    return status;
}
