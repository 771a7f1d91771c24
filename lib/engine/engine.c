/* SPDX-License-Identifier: BSD-3-Clause */
/* engine.c: a configuration prepared (its results, pools and policy states or shared pool,
 * counters, sources and team of scanners) and released; one configuration run alone. Its
 * phases are phases.c's, its results' summary results.c's. */
#include "config.h"
#include "engine/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "engine/config_state.h"
#include "engine/scanner.h"
#include "engine/shared_pool.h"
#include "engine/source_ops.h"
#include "engine/team.h"

/* --- preparing and releasing ----------------------------------------------------------------- */

int sb_engine_home_node(const struct sb_run_params *p, uint32_t i)
{
    struct sb_cpu_place place;

    sb_team_place_of(sb_run_concurrent(p) ? p->threads : 1, i, &place);
    return place.node;
}

static int alloc_result(struct sb_config *cfg, uint32_t capacity, struct sb_error *err)
{
    struct sb_run_result *res = &cfg->res;
    const struct sb_iocache *t = &cfg->tables[0];

    res->capacity = capacity ? capacity : 1;
    res->passes = 1;
    res->pages_per_scan = t->npages * cfg->ntables;
    res->bytes_per_scan = res->pages_per_scan * t->page_size;
    res->validation.rows_expected = t->live_rows;
    res->nscanners = cfg->nworkers;
    res->scans = calloc(res->capacity, sizeof *res->scans);
    res->scanners = calloc(cfg->nworkers, sizeof *res->scanners);
    if (!res->scans || !res->scanners)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the results of %s", cfg->p->name);
    for (uint32_t i = 0; i < cfg->nworkers; i++) {
        struct sb_scanner_record *rec = &res->scanners[i];
        struct sb_cpu_place place;
        sb_team_place_of(cfg->nworkers, i, &place);
        rec->thread = i;
        rec->pu = place.pu;
        rec->core = place.core;
        rec->node = place.node;
        rec->table = cfg->ntables > 1 ? i : 0;
        rec->seconds = calloc(res->capacity, sizeof *rec->seconds);
        rec->pages = calloc(res->capacity, sizeof *rec->pages);
        if (!rec->seconds || !rec->pages)
            return sb_fail(err, SB_ERR_RUN, "out of memory for the results of %s", cfg->p->name);
    }
    return SB_OK;
}

/* Each scanner's pool and policy state (or the shared pool), and its scanner. */
static int prepare_slots(struct sb_config *cfg, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    struct sb_run_result *res = &cfg->res;
    int status = SB_OK;

    if (cfg->use_shared) {
        status = sb_shared_pool_create(&cfg->shared, (uint32_t)(p->pool_size / p->page_size),
                                       p->page_size, &p->pool_node, res->scanners[0].node, err);
        if (status != SB_OK)
            return status;
        res->pool_placement = cfg->shared.placement;
    }
    for (uint32_t i = 0; i < cfg->nworkers && status == SB_OK; i++) {
        struct slot *sl = &cfg->slots[i];
        sl->rec = &res->scanners[i];
        sl->scanner.p = p;
        sl->scanner.op = p->op;
        sl->scanner.ioc = &cfg->tables[sl->rec->table];
        sl->scanner.table_id = sl->rec->table;
        if (p->extra_ppm)
            status = sb_scanner_spare_alloc(&sl->scanner, err);
        if (status != SB_OK)
            break;
        if (cfg->use_shared) {
            sl->scanner.shared = &cfg->shared;
            continue;
        }
        status = sb_pool_create(&sl->pool, p, sl->rec->node, err);
        if (status != SB_OK)
            break;
        if (i == 0)
            res->pool_placement = sl->pool.placement;
        if (sb_policy_state_init(&sl->ps, sl->pool.nbuffers,
                                 (uint32_t)(p->ring_size / p->page_size), p->seed) != 0)
            return sb_fail(err, SB_ERR_RUN, "out of memory for the policy state of %s", p->name);
        sl->ps_ready = true;
        sl->scanner.pool = &sl->pool;
        sl->scanner.ps = &sl->ps;
        sl->scanner.to_checkpoint = sb_scanner_checkpoint_pages(&sl->scanner);
    }
    return status;
}

/* The counters, and the trace a replaying backend needs (one scanner, its own pool). A
 * replaying backend cannot follow several scanners: it says so instead of counting nothing. */
static int open_counters(struct sb_config *cfg, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    struct sb_counters *c = &cfg->res.counters;
    struct sb_counting counting;
    int status;

    sb_run_counting(p, &counting);
    status = sb_counters_open(c, p->counters, &counting, cfg->res.capacity, err);

    if (status != SB_OK || !p->counters->replay)
        return status;
    if (cfg->nworkers > 1 || cfg->use_shared) {
        c->status = "unavailable";
        snprintf(c->reason, sizeof c->reason, "the model replays one scanner into its own pool; "
                 "concurrent scans and the shared pool are not modelled");
        memset(c->have, 0, sizeof c->have);
        return SB_OK;
    }
    for (int r = 0; r < TRACED_SCANS; r++)
        if (!(cfg->victims[r] = malloc(cfg->tables[0].npages * sizeof *cfg->victims[r])))
            return sb_fail(err, SB_ERR_RUN, "out of memory for the scan traces of %s", p->name);
    return SB_OK;
}

/* statements: each one's report, and the buffer sequences scanner 0 records of them (its own
 * pool and its own table's pages; not when scanners divide one table). */
static int prepare_statements(struct sb_config *cfg, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    bool record = !cfg->use_shared && !(p->shared_table && cfg->nworkers > 1);

    cfg->res.nstatements = p->nstatements;
    for (uint32_t i = 0; i < p->nstatements; i++) {
        cfg->res.statements[i].op = p->statements[i]->name;
        if (record && !(cfg->statement_seq[i] = calloc(cfg->tables[0].npages, sizeof(uint32_t))))
            return sb_fail(err, SB_ERR_RUN, "out of memory for the statements of %s", p->name);
    }
    return SB_OK;
}

/* The settling pass: as many pages as a scanner's pool footprint holds (the table at most). */
static uint64_t settle_pages_of(const struct sb_run_params *p)
{
    uint64_t footprint = sb_policy_footprint(p->policy, p->pool_size, p->ring_size, p->page_size);
    uint64_t pages = footprint / p->page_size;
    return pages ? pages : 1;
}

static int prepare(struct sb_config *cfg, uint32_t capacity, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    int status = alloc_result(cfg, capacity, err);

    for (uint32_t t = 0; status == SB_OK && t < cfg->ntables; t++)
        status = sb_iocache_expect_op(&cfg->tables[t], p->op, err);
    for (uint32_t i = 0; status == SB_OK && i < p->nstatements; i++)
        for (uint32_t t = 0; status == SB_OK && t < cfg->ntables; t++)
            status = sb_iocache_expect_op(&cfg->tables[t], p->statements[i], err);
    if (status == SB_OK)
        status = prepare_statements(cfg, err);
    /* a table written back into: each page's state, and the checksums of each state */
    for (uint32_t t = 0; status == SB_OK && p->writeback != SB_WRITEBACK_NONE && t < cfg->ntables;
         t++)
        status = sb_iocache_expect_states(&cfg->tables[t], err);
    if (status != SB_OK)
        return status;
    cfg->res.iocache_placement = cfg->tables[0].placement;
    cfg->res.shared.used = cfg->use_shared;
    cfg->res.shared.nbuffers = (uint32_t)(p->pool_size / p->page_size);
    cfg->slots = calloc(cfg->nworkers, sizeof *cfg->slots);
    cfg->seen = calloc(cfg->tables[0].npages * cfg->ntables, sizeof *cfg->seen);
    if (!cfg->slots || !cfg->seen)
        return sb_fail(err, SB_ERR_RUN, "out of memory for %s", p->name);
    status = prepare_slots(cfg, err);
    if (status == SB_OK)
        status = open_counters(cfg, err);
    if (status == SB_OK) {
        uint8_t *scratch = cfg->use_shared ? cfg->shared.buffers : cfg->slots[0].pool.buffers;
        for (uint32_t t = 0; status == SB_OK && t < cfg->ntables; t++)
            status = sb_source_prepare(p, &cfg->tables[t], scratch, &cfg->res.io, err);
    }
    if (status == SB_OK)
        status = sb_team_start(&cfg->team, cfg->nworkers, sb_config_work, cfg, err);
    return status;
}

int sb_config_prepare(struct sb_config **out, const struct sb_run_params *p,
                      struct sb_iocache *tables, uint32_t capacity, struct sb_error *err)
{
    struct sb_config *cfg = calloc(1, sizeof *cfg);

    *out = cfg;
    if (!cfg)
        return sb_fail(err, SB_ERR_RUN, "out of memory for %s", p->name);
    cfg->p = p;
    cfg->tables = tables;
    cfg->ntables = sb_run_tables(p);
    cfg->nworkers = sb_run_concurrent(p) ? p->threads : 1;
    cfg->use_shared = p->shared_pool;
    cfg->settle_pages = settle_pages_of(p);
    return prepare(cfg, capacity, err);
}

void sb_config_take_result(struct sb_config *cfg, struct sb_run_result *res)
{
    *res = cfg->res;
    memset(&cfg->res, 0, sizeof cfg->res);
}

void sb_config_release(struct sb_config *cfg)
{
    if (!cfg)
        return;
    sb_team_stop(cfg->team);
    for (uint32_t i = 0; cfg->slots && i < cfg->nworkers; i++) {
        if (cfg->slots[i].ps_ready)
            sb_policy_state_destroy(&cfg->slots[i].ps);
        sb_pool_destroy(&cfg->slots[i].pool);
        free(cfg->slots[i].scanner.spare);
    }
    if (cfg->use_shared)
        sb_shared_pool_destroy(&cfg->shared);
    sb_run_result_free(&cfg->res);
    free(cfg->slots);
    free(cfg->seen);
    for (int r = 0; r < TRACED_SCANS; r++)
        free(cfg->victims[r]);
    for (int i = 0; i < SB_MAX_STATEMENTS; i++)
        free(cfg->statement_seq[i]);
    free(cfg);
}

const struct sb_run_params *sb_config_params(const struct sb_config *cfg) { return cfg->p; }
struct sb_run_result *sb_config_result(struct sb_config *cfg) { return &cfg->res; }
uint32_t sb_config_scans(const struct sb_config *cfg) { return cfg->res.nreps; }

/* --- one configuration alone ------------------------------------------------------------------ */

static int run_alone(const struct sb_run_params *p, struct sb_iocache *tables,
                     struct sb_run_result *res, struct sb_error *err)
{
    struct sb_config *cfg;
    int status = sb_config_prepare(&cfg, p, tables, p->repetitions, err);

    if (status == SB_OK)
        status = sb_config_validate(cfg, err);
    if (status == SB_OK)
        status = sb_config_warm(cfg, err);
    for (uint32_t r = 0; status == SB_OK && r < p->repetitions; r++) {
        struct sb_scan_record rec = {.round = r, .position = 0};
        status = sb_config_timed(cfg, false, false, &rec, err);
    }
    if (status == SB_OK)
        status = sb_config_finish(cfg, err);
    if (cfg)
        sb_config_take_result(cfg, res);
    else
        memset(res, 0, sizeof *res);
    sb_config_release(cfg);
    return status;
}

int sb_scan_run(const struct sb_run_params *p, struct sb_iocache *ioc, struct sb_run_result *res,
                struct sb_error *err)
{
    return run_alone(p, ioc, res, err);
}

int sb_scan_run_concurrent(const struct sb_run_params *p, struct sb_iocache *tables,
                           struct sb_run_result *res, struct sb_error *err)
{
    return run_alone(p, tables, res, err);
}
