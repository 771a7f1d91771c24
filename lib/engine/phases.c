/* SPDX-License-Identifier: BSD-3-Clause */
/* phases.c: one configuration's phases (validate, warm, settle, timed scan, finish and a
 * tracing backend's replay), the scanners' side (each scanner's part of a phase, on its team)
 * and the caller's (run a phase, check what it did). */
#include "config.h"
#include "engine/engine.h"

#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "engine/config_state.h"
#include "engine/scanner.h"
#include "engine/shared_pool.h"
#include "engine/source_ops.h"
#include "engine/team.h"

/* The most passes a timed scan may make (a tiny table and a long min_scan_seconds). */
#define MAX_PASSES 100000

/* --- the scanners' side of a phase ---------------------------------------------------------- */

/* Pages are handed out in chunks that never cross a pass: pass p's pages are the handed-out
 * numbers [p * stride, p * stride + npages) of a stride rounded up to a whole chunk. */
static uint64_t pass_stride(uint64_t npages)
{
    return (npages + SB_PARALLEL_CHUNK_PAGES - 1) / SB_PARALLEL_CHUNK_PAGES *
           SB_PARALLEL_CHUNK_PAGES;
}

static bool next_range(struct sb_config *cfg, uint64_t npages, uint64_t *first, uint64_t *end)
{
    const uint64_t stride = pass_stride(npages);

    for (;;) {
        uint64_t v = atomic_fetch_add_explicit(&cfg->next_page, SB_PARALLEL_CHUNK_PAGES,
                                               memory_order_relaxed);
        uint64_t at = v % stride;
        if (v >= cfg->handout_limit)
            return false;
        if (at >= npages)
            continue;
        *first = at;
        *end = at + SB_PARALLEL_CHUNK_PAGES < npages ? at + SB_PARALLEL_CHUNK_PAGES : npages;
        return true;
    }
}

static bool divides_table(const struct sb_config *cfg)
{
    return cfg->p->shared_table && cfg->nworkers > 1;
}

static void scan_range(struct slot *sl, const struct phase *ph, uint64_t first, uint64_t end,
                       _Atomic uint32_t *seen)
{
    if (ph->kind == PHASE_VALIDATE)
        sl->status = sb_scanner_validate(&sl->scanner, first, end, seen, &sl->rows, &sl->v,
                                         &sl->err);
    else
        sl->rows += sb_scanner_scan(&sl->scanner, first, end);
}

/* A scanner's part of a phase: its own table's pages (every pass), or chunks of the shared one. */
static void scan_part(struct sb_config *cfg, struct slot *sl, const struct phase *ph)
{
    struct sb_scanner *s = &sl->scanner;
    const uint64_t npages = s->ioc->npages;
    uint64_t first = ph->end ? ph->first : 0;
    uint64_t end = ph->end                                                      ? ph->end
                   : ph->kind == PHASE_SETTLE && cfg->settle_pages < npages ? cfg->settle_pages
                                                                              : npages;
    _Atomic uint32_t *seen = ph->kind == PHASE_VALIDATE
                                 ? cfg->seen + (uint64_t)s->table_id * npages : NULL;

    if (divides_table(cfg)) {
        while (sl->status == SB_OK && next_range(cfg, npages, &first, &end)) {
            s->victims = NULL;
            scan_range(sl, ph, first, end, seen);
        }
        return;
    }
    for (uint32_t pass = 0; pass < ph->passes && sl->status == SB_OK; pass++) {
        s->victims = pass == 0 && ph->trace                          ? ph->trace
                     : pass + 1 == ph->passes && sl == &cfg->slots[0] ? ph->record
                                                                      : NULL;
        scan_range(sl, ph, first, end, seen);
    }
    s->victims = NULL;
}

void sb_config_work(void *ctx, uint32_t worker, const void *arg)
{
    struct sb_config *cfg = ctx;
    const struct phase *ph = arg;
    struct slot *sl = &cfg->slots[worker];
    struct sb_scanner *s = &sl->scanner;
    uint64_t pages = s->pages, acquisitions = s->acquisitions, drops = s->drops;
    uint64_t extra = s->extra_pages;
    uint64_t written_evict = s->written_evict, written_checkpoint = s->written_checkpoint;
    uint64_t visits = cfg->use_shared ? s->visits : sl->ps.visits;

    struct sb_placement_found thread_policy;

    sl->rows = 0;
    s->op = ph->op ? ph->op : cfg->p->op;
    if (sl->status != SB_OK)
        return;
    /* pages the kernel reads for a file go where the table was asked to be */
    if (s->ioc->ops->kernel_reads)
        sb_placement_thread_begin(&cfg->p->iocache_node, sl->rec->node, &thread_policy);
    if (ph->timed)
        sb_scanner_record_cpu(sl->rec);
    sl->t_start = sb_timer_now();
    scan_part(cfg, sl, ph);
    sl->t_end = sb_timer_now();
    if (ph->timed)
        sb_scanner_record_cpu(sl->rec);
    if (s->ioc->ops->kernel_reads)
        sb_placement_thread_end();
    sl->pages = s->pages - pages;
    sl->extra = s->extra_pages - extra;
    sl->acquisitions = s->acquisitions - acquisitions;
    sl->drops = s->drops - drops;
    sl->written_evict = s->written_evict - written_evict;
    sl->written_checkpoint = s->written_checkpoint - written_checkpoint;
    sl->visits = (cfg->use_shared ? s->visits : sl->ps.visits) - visits;
    if (sl->status == SB_OK)
        sl->status = sb_scanner_io_status(s, &sl->err);
}

/* --- the caller's side: run a phase and check what it did ----------------------------------- */

/* "scan 3: " for the warm-up and timed scans (numbered from 1 after the validation scan). */
static const char *scan_label(const struct sb_config *cfg, char *buf, size_t len)
{
    if (cfg->scans_total == 0)
        buf[0] = '\0';
    else
        snprintf(buf, len, "scan %u: ", cfg->scans_total);
    return buf;
}

static int check_rows(const struct sb_config *cfg, const struct sb_op *op, uint64_t rows,
                      uint64_t want, const char *who, struct sb_error *err)
{
    char scan[32];

    if (!op->counts_rows || rows == want)
        return SB_OK;
    return sb_fail(err, SB_ERR_RUN, "%s: validation failed: %s%sop %s saw %llu live rows, %s "
                   "has %llu", cfg->p->name, scan_label(cfg, scan, sizeof scan), who, op->name,
                   (unsigned long long)rows,
                   cfg->want_pages < cfg->tables[0].npages ? "its slice" : "the table",
                   (unsigned long long)want);
}

static int check_pages(const struct sb_config *cfg, uint64_t pages, uint64_t want,
                       const char *who, struct sb_error *err)
{
    char scan[32];

    if (pages == want)
        return SB_OK;
    return sb_fail(err, SB_ERR_RUN, "%s: validation failed: %s%sread %llu pages, not %llu",
                   cfg->p->name, scan_label(cfg, scan, sizeof scan), who,
                   (unsigned long long)pages, (unsigned long long)want);
}

/* After a whole scan of `passes` of op (numbered: a warm-up or timed scan): each scanner's
 * errors, rows and pages, the shared pool's pins. */
static int collect(struct sb_config *cfg, const struct sb_op *op, uint32_t passes, bool numbered,
                   struct sb_error *err)
{
    uint64_t rows = 0, pages = 0;
    int status = SB_OK;

    cfg->scans_total += numbered;
    for (uint32_t i = 0; i < cfg->nworkers; i++) {
        struct slot *sl = &cfg->slots[i];
        char who[32];
        if (sl->status != SB_OK) {
            *err = sl->err;
            return sl->status;
        }
        rows += sl->rows;
        pages += sl->pages;
        snprintf(who, sizeof who, "scanner %u: ", i);
        if (cfg->ntables > 1 && status == SB_OK)
            status = check_rows(cfg, op, sl->rows, passes * cfg->want_rows, who, err);
        if (cfg->ntables > 1 && status == SB_OK)
            status = check_pages(cfg, sl->pages, passes * cfg->want_pages, who, err);
    }
    if (cfg->ntables == 1 && status == SB_OK)
        status = check_rows(cfg, op, rows, passes * cfg->want_rows,
                            cfg->nworkers > 1 ? "all scanners: " : "", err);
    if (cfg->ntables == 1 && status == SB_OK)
        status = check_pages(cfg, pages, passes * cfg->want_pages,
                             cfg->nworkers > 1 ? "all scanners: " : "", err);
    if (cfg->use_shared && status == SB_OK) {
        uint32_t pinned = sb_shared_pool_pinned(&cfg->shared);
        if (pinned > cfg->res.shared.pins_left)
            cfg->res.shared.pins_left = pinned;
        if (pinned)
            status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: scan %u left %u buffers "
                             "of the shared pool pinned", cfg->p->name, cfg->scans_total, pinned);
    }
    return status;
}

static void run_phase(struct sb_config *cfg, const struct phase *ph, bool timed_source)
{
    uint64_t npages = cfg->tables[0].npages;

    cfg->want_pages = ph->end ? ph->end - ph->first : npages;
    cfg->want_rows = sb_iocache_live_rows(&cfg->tables[0], ph->end ? ph->first : 0,
                                          ph->end ? ph->end : npages);

    for (uint32_t t = 0; t < cfg->ntables; t++)
        sb_source_before_scan(cfg->p, &cfg->tables[t], timed_source, &cfg->res.io);
    atomic_store(&cfg->next_page, 0);
    cfg->handout_limit = ph->kind == PHASE_SETTLE
                             ? (cfg->settle_pages < npages ? cfg->settle_pages : npages)
                             : pass_stride(npages) * (ph->passes ? ph->passes : 1);
    sb_team_run(cfg->team, ph);
}

/* statements: what scanner 0 did in statement i of a kept timed scan. */
static void note_statement(struct sb_config *cfg, uint32_t i)
{
    cfg->res.statements[i].pages += cfg->slots[0].pages;
    cfg->res.statements[i].visits += cfg->slots[0].visits;
}

/* statements: the ones before the last, in order, one untimed pass each, with their row checks;
 * keep: a kept timed scan's (noted, their buffers recorded). */
static int prelude(struct sb_config *cfg, bool keep, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    int status = SB_OK;

    for (uint32_t i = 0; i + 1 < p->nstatements && status == SB_OK; i++) {
        const struct phase ph = {PHASE_SCAN, 1, false, NULL, p->statements[i],
                                 keep ? cfg->statement_seq[i] : NULL, 0, 0};
        run_phase(cfg, &ph, false);
        status = collect(cfg, ph.op, 1, false, err);
        if (status == SB_OK && keep)
            note_statement(cfg, i);
    }
    return status;
}

/* A full untimed scan (the statements before the last, then the last) with its row checks;
 * *seconds: how long the last took (first start to last end). */
static int untimed_scan(struct sb_config *cfg, double *seconds, struct sb_error *err)
{
    const struct phase ph = {PHASE_SCAN, 1, false, NULL, NULL, NULL, 0, 0};
    double first, last;
    int status = prelude(cfg, false, err);

    if (status != SB_OK)
        return status;
    run_phase(cfg, &ph, false);
    first = cfg->slots[0].t_start;
    last = cfg->slots[0].t_end;
    for (uint32_t i = 1; i < cfg->nworkers; i++) {
        first = fmin(first, cfg->slots[i].t_start);
        last = fmax(last, cfg->slots[i].t_end);
    }
    *seconds = last - first;
    return collect(cfg, cfg->p->op, 1, true, err);
}

/* --- the phases -------------------------------------------------------------------------------- */

/* Every page of every table read exactly once by the validation scan (once per statement). */
static int check_seen(struct sb_config *cfg, uint32_t statements, struct sb_error *err)
{
    const uint64_t npages = cfg->tables[0].npages;

    for (uint64_t i = 0; i < npages * cfg->ntables; i++) {
        uint32_t n = atomic_load(&cfg->seen[i]);
        if (n != statements)
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: page %llu of table %llu was "
                           "read %u times by the validation scan, not %u", cfg->p->name,
                           (unsigned long long)(i % npages), (unsigned long long)(i / npages),
                           n, statements);
    }
    cfg->res.validation.pages_read_once = npages * cfg->ntables;
    return SB_OK;
}

int sb_config_validate(struct sb_config *cfg, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    const uint32_t n = p->nstatements ? p->nstatements : 1;
    struct sb_validation *v = &cfg->res.validation;
    int status = SB_OK;

    /* statements: each in order, its every page checked after the copy and after its op */
    for (uint32_t s = 0; s < n && status == SB_OK; s++) {
        const struct phase ph = {PHASE_VALIDATE, 1, false, NULL,
                                 p->nstatements ? p->statements[s] : NULL, NULL, 0, 0};
        run_phase(cfg, &ph, false);
        status = collect(cfg, ph.op ? ph.op : p->op, 1, false, err);
    }
    for (uint32_t i = 0; i < cfg->nworkers; i++) {
        v->pages_checked_after_copy += cfg->slots[i].v.pages_checked_after_copy;
        v->pages_checked_after_op += cfg->slots[i].v.pages_checked_after_op;
        v->writebacks_checked += cfg->slots[i].v.writebacks_checked;
        v->extra_copies_checked += cfg->slots[i].v.extra_copies_checked;
    }
    if (status == SB_OK)
        status = check_seen(cfg, n, err);
    free(cfg->seen);
    cfg->seen = NULL;
    return status;
}

uint64_t sb_slice_pages(uint64_t npages, double pass_seconds, double slice_seconds,
                        uint64_t settle_pages)
{
    double pages;

    if (!(slice_seconds > 0) || !(pass_seconds >= SB_SLICES_PER_PASS * slice_seconds))
        return 0;
    pages = ceil((double)npages * slice_seconds / pass_seconds);
    return settle_pages + (uint64_t)pages <= npages ? (uint64_t)pages : 0;
}

/* Tests only: SCANBENCH_TEST_PASS_MS=N sizes the passes and slices as if the last warm-up scan
 * had taken N ms, so that what a run slices does not depend on the host's speed. */
static double test_pass_seconds(double seconds)
{
    const char *ms = getenv("SCANBENCH_TEST_PASS_MS");

    return ms && atof(ms) > 0 ? atof(ms) / 1000.0 : seconds;
}

/* slice_ms: a timed scan's slice of the table, once a pass took `seconds`, and its settling
 * pass (the pool's footprint, at most settle_cap_pages); false: whole passes, and why. */
static bool slice(struct sb_config *cfg, double seconds)
{
    const struct sb_run_params *p = cfg->p;
    struct sb_run_result *res = &cfg->res;
    uint64_t settle = cfg->settle_pages;
    uint64_t pages;

    if (p->settle_cap_pages && settle > p->settle_cap_pages)
        settle = p->settle_cap_pages;
    pages = sb_slice_pages(cfg->tables[0].npages, seconds, p->slice_seconds, settle);
    if (!pages) {
        res->slice_off = seconds < SB_SLICES_PER_PASS * p->slice_seconds
                             ? "a pass lasts less than 2 slices"
                             : "the table is too small for a slice after its settling pages";
        return false;
    }
    cfg->settle_pages = settle;
    cfg->slice_pages = pages;
    cfg->slice_at = settle;
    res->slice_pages = pages;
    res->passes = 1;
    res->pages_per_scan = pages;
    res->bytes_per_scan = pages * cfg->tables[0].page_size;
    return true;
}

int sb_config_warm(struct sb_config *cfg, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    double seconds = 0.0, passes;
    int status = SB_OK;
    uint32_t scans = p->warmup;

    cfg->res.slice_off = p->slice_off;
    if (scans == 0 && (p->min_scan_seconds > 0 || (p->slice_seconds > 0 && !p->slice_off)))
        scans = 1; /* one scan to size the timed scans' passes or slices */
    for (uint32_t w = 0; w < scans && status == SB_OK; w++) {
        status = untimed_scan(cfg, &seconds, err);
        cfg->res.validation.scans_row_checked += status == SB_OK && p->op->counts_rows;
        cfg->scans_warm++;
    }
    if (status != SB_OK)
        return status;
    seconds = test_pass_seconds(seconds);
    if (p->slice_seconds > 0 && !p->slice_off && slice(cfg, seconds))
        return SB_OK;
    if (p->min_scan_seconds <= 0)
        return SB_OK;
    passes = seconds > 0 ? ceil(p->min_scan_seconds / seconds) : MAX_PASSES;
    cfg->res.passes = passes < 1 ? 1 : passes > MAX_PASSES ? MAX_PASSES : (uint32_t)passes;
    cfg->res.bytes_per_scan = (uint64_t)cfg->res.passes * cfg->res.pages_per_scan *
                              cfg->tables[0].page_size;
    return SB_OK;
}

/* The settling pass (and a warm file read again: another configuration may have dropped it). */
static int settle(struct sb_config *cfg, struct sb_error *err)
{
    /* before a slice: the pages just before it, as a continuous scan would have left them */
    const struct phase ph = {PHASE_SETTLE, 1, false, NULL, NULL, NULL,
                             cfg->slice_pages ? cfg->slice_at - cfg->settle_pages : 0,
                             cfg->slice_pages ? cfg->slice_at : 0};
    int status = SB_OK;

    for (uint32_t t = 0; t < cfg->ntables && status == SB_OK; t++)
        status = sb_source_settle(cfg->p, &cfg->tables[t], err);
    if (status != SB_OK)
        return status;
    run_phase(cfg, &ph, false);
    for (uint32_t i = 0; i < cfg->nworkers; i++)
        if (cfg->slots[i].status != SB_OK) {
            *err = cfg->slots[i].err;
            return cfg->slots[i].status;
        }
    /* what the pass read: the footprint, the table at most */
    cfg->res.settle_pages = cfg->settle_pages < cfg->tables[0].npages ? cfg->settle_pages
                                                                      : cfg->tables[0].npages;
    return SB_OK;
}

/* The timed scan's figures: all scanners together, and each one's own. */
static void note_timed(struct sb_config *cfg, struct sb_scan_record *rec, bool keep)
{
    struct sb_run_result *res = &cfg->res;
    double first = cfg->slots[0].t_start, last = cfg->slots[0].t_end;
    const uint32_t page_size = cfg->tables[0].page_size;

    rec->written_evict = rec->written_checkpoint = rec->bytes_copied_in = 0;
    rec->bytes_copied_extra = 0;
    for (uint32_t i = 0; i < cfg->nworkers; i++) {
        struct slot *sl = &cfg->slots[i];
        first = fmin(first, sl->t_start);
        last = fmax(last, sl->t_end);
        rec->written_evict += sl->written_evict;
        rec->written_checkpoint += sl->written_checkpoint;
        rec->bytes_copied_in += sl->pages * page_size;
        rec->bytes_copied_extra += sl->extra * page_size;
        if (!keep)
            continue;
        sl->rec->seconds[res->nreps] = sl->t_end - sl->t_start;
        sl->rec->pages[res->nreps] = sl->pages;
        res->shared.acquisitions += sl->acquisitions;
        res->shared.pages += sl->pages;
        res->io.drops += sl->drops;
        res->clock_visits_per_page += (double)sl->visits; /* a sum until finish divides it */
    }
    rec->at = first;
    rec->seconds = last - first;
    rec->passes = res->passes;
    rec->bytes = res->bytes_per_scan;
    rec->bytes_written_back = (rec->written_evict + rec->written_checkpoint) * page_size;
}

/* A tracing backend's replays of the traced scans, in order, then its finish. */
static void replay(struct sb_config *cfg)
{
    struct sb_counters *c = &cfg->res.counters;
    const struct sb_iocache *table = &cfg->tables[0];

    for (uint32_t rep = 0; cfg->victims[0] && rep < cfg->res.nreps && rep < TRACED_SCANS; rep++) {
        const struct sb_scanner *s = &cfg->slots[0].scanner;
        const bool wb = cfg->p->writeback != SB_WRITEBACK_NONE;
        struct sb_scan_trace trace = {
            .pages = table->pages,
            .npages = table->npages,
            .page_size = table->page_size,
            .op = s->op,
            .temporal = cfg->p->kernel->temporal,
            .bigtable = cfg->p->bigtable,
            .pool = cfg->slots[0].pool.buffers,
            .victims = cfg->victims[rep],
            .writeback = cfg->p->writeback,
            .checkpoint_pages = wb ? sb_scanner_checkpoint_pages(s) : 0,
            .writeback_kernel = wb ? sb_scanner_writeback_kernel(s) : NULL,
            .nbuffers = cfg->slots[0].pool.nbuffers,
            .side = cfg->p->kernel->side,
        };
        c->backend->replay(c, rep, &trace);
    }
    if (c->backend && c->backend->finish)
        c->backend->finish(c);
}

/* The next slice: the one after, or the table's first after its settling pages. */
static void next_slice(struct sb_config *cfg)
{
    if (!cfg->slice_pages)
        return;
    cfg->slice_at += cfg->slice_pages;
    if (cfg->slice_at + cfg->slice_pages > cfg->tables[0].npages)
        cfg->slice_at = cfg->settle_pages;
}

int sb_config_timed(struct sb_config *cfg, bool settle_first, bool reference,
                    struct sb_scan_record *rec, struct sb_error *err)
{
    struct sb_run_result *res = &cfg->res;
    struct sb_counters *c = &res->counters;
    const unsigned rep = res->nreps;
    const bool count = !reference;
    const uint32_t last = cfg->p->nstatements ? cfg->p->nstatements - 1 : 0;
    struct phase ph = {PHASE_SCAN, res->passes, count,
                       count && rep < TRACED_SCANS ? cfg->victims[rep] : NULL, NULL,
                       count ? cfg->statement_seq[last] : NULL, cfg->slice_at,
                       cfg->slice_pages ? cfg->slice_at + cfg->slice_pages : 0};
    int status = SB_OK;
    double steal;

    if (count && res->nreps >= res->capacity)
        return sb_fail(err, SB_ERR_RUN, "%s: no room for timed scan %u", cfg->p->name, rep + 1);
    if (settle_first)
        status = settle(cfg, err);
    if (status == SB_OK)
        status = prelude(cfg, count, err); /* statements: the ones before the measured one */
    if (status != SB_OK)
        return status;
    rec->cpu_start = sched_getcpu();
    steal = sb_host_steal_seconds();
    if (count)
        c->backend->start(c, rep);
    run_phase(cfg, &ph, true);
    if (count)
        c->backend->stop(c, rep);
    rec->steal = sb_host_steal_seconds() - steal;
    rec->cpu_end = sched_getcpu();
    status = collect(cfg, cfg->p->op, res->passes, true, err);
    if (status != SB_OK)
        return status;
    next_slice(cfg);
    note_timed(cfg, rec, count);
    if (!count)
        return SB_OK;
    if (cfg->p->nstatements)
        note_statement(cfg, last);
    if (ph.record && ph.trace && ph.passes == 1) /* that pass recorded the trace instead */
        memcpy(ph.record, ph.trace, cfg->tables[0].npages * sizeof *ph.record);
    res->scans[res->nreps++] = *rec;
    res->validation.scans_row_checked += cfg->p->op->counts_rows;
    return SB_OK;
}

int sb_config_finish(struct sb_config *cfg, struct sb_error *err)
{
    const struct sb_run_params *p = cfg->p;
    struct sb_run_result *res = &cfg->res;
    struct sb_validation *v = &res->validation;
    int status = SB_OK;

    for (uint32_t i = 0; status == SB_OK && !cfg->use_shared && i < cfg->nworkers; i++)
        status = sb_pool_check(&cfg->slots[i].scanner, &res->buffers_touched,
                               &v->pool_pages_checked, err);
    for (uint32_t i = 0; status == SB_OK && !cfg->use_shared && i < cfg->nworkers; i++)
        status = sb_iocache_check_states(&cfg->slots[i].scanner,
                                         &v->pages_checked_after_writeback, err);
    if (status == SB_OK && cfg->use_shared)
        status = sb_shared_pool_check(p, cfg->tables, &cfg->shared, &res->buffers_touched,
                                      &v->pool_pages_checked, err);
    if (status == SB_OK && cfg->use_shared && res->shared.acquisitions != res->shared.pages)
        status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: %llu buffers pinned for %llu "
                         "pages in the shared pool", p->name,
                         (unsigned long long)res->shared.acquisitions,
                         (unsigned long long)res->shared.pages);
    if (res->nreps)
        res->clock_visits_per_page /= (double)res->pages_per_scan * res->passes * res->nreps;
    for (uint32_t i = 0; res->nreps && i < res->nstatements && cfg->statement_seq[i]; i++)
        sb_policy_sequence_shape(cfg->statement_seq[i], cfg->tables[0].npages,
                                 cfg->slots[0].pool.nbuffers, &res->statements[i].footprint,
                                 res->statements[i].shape, sizeof res->statements[i].shape);
    if (res->counters.backend && res->counters.nreps > res->nreps)
        res->counters.nreps = res->nreps;
    if (cfg->victims[0] && res->counters.nreps > TRACED_SCANS)
        res->counters.nreps = TRACED_SCANS;
    res->counters.passes = cfg->victims[0] ? 1 : res->passes;
    if (res->counters.backend)
        replay(cfg);
    sb_run_result_summarise(res);
    v->ok = status == SB_OK;
    return status;
}
