/* threads.c: concurrent scans: pinning, the barrier, the scanners' phases and the aggregate. */
#include "config.h"
#include "threads.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "scanner.h"
#include "shared_pool.h"
#include "stop.h"
#include "timer.h"

#ifdef HAVE_HWLOC
#include <hwloc.h>
#endif

/* --- where each scanner runs ------------------------------------------------------------- */

struct pin_plan {
    uint32_t n;
    bool pinnable;        /* hwloc gave a core per scanner */
    int *pu, *core, *node;
    char why[160];        /* why not pinnable */
#ifdef HAVE_HWLOC
    hwloc_topology_t topo;
#endif
};

static void pin_plan_free(struct pin_plan *pp)
{
#ifdef HAVE_HWLOC
    if (pp->topo)
        hwloc_topology_destroy(pp->topo);
#endif
    free(pp->pu);
    free(pp->core);
    free(pp->node);
    memset(pp, 0, sizeof *pp);
}

/* Scanner i on the (i mod cores)th core, on that core's first PU. */
static int pin_plan_make(struct pin_plan *pp, uint32_t n)
{
    memset(pp, 0, sizeof *pp);
    pp->n = n;
    pp->pu = malloc(n * sizeof *pp->pu);
    pp->core = malloc(n * sizeof *pp->core);
    pp->node = malloc(n * sizeof *pp->node);
    if (!pp->pu || !pp->core || !pp->node)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        pp->pu[i] = pp->core[i] = pp->node[i] = -1;
#ifdef HAVE_HWLOC
    {
        int ncores;
        if (hwloc_topology_init(&pp->topo) != 0 || hwloc_topology_load(pp->topo) != 0) {
            snprintf(pp->why, sizeof pp->why, "not pinned: hwloc could not read the topology");
            return 0;
        }
        ncores = hwloc_get_nbobjs_by_type(pp->topo, HWLOC_OBJ_CORE);
        if (ncores <= 0) {
            snprintf(pp->why, sizeof pp->why, "not pinned: hwloc found no cores");
            return 0;
        }
        for (uint32_t i = 0; i < n; i++) {
            hwloc_obj_t core = hwloc_get_obj_by_type(pp->topo, HWLOC_OBJ_CORE,
                                                     (unsigned)(i % (uint32_t)ncores));
            hwloc_obj_t pu = core ? hwloc_get_obj_inside_cpuset_by_type(
                                        pp->topo, core->cpuset, HWLOC_OBJ_PU, 0) : NULL;
            if (!pu) {
                snprintf(pp->why, sizeof pp->why, "not pinned: hwloc found no PU in core %u",
                         i % (uint32_t)ncores);
                return 0;
            }
            pp->pu[i] = (int)pu->os_index;
            pp->core[i] = (int)core->logical_index;
            pp->node[i] = sb_numa_node_of_cpu(pp->pu[i]);
        }
        pp->pinnable = true;
    }
#else
    snprintf(pp->why, sizeof pp->why, "not pinned: built without hwloc (configure --with-hwloc; "
             "Debian: libhwloc-dev)");
#endif
    return 0;
}

/* Binds the calling thread to scanner i's PU; false (with why) when it cannot. */
static bool pin_self(struct pin_plan *pp, uint32_t i, char *why, size_t len)
{
#ifdef HAVE_HWLOC
    hwloc_bitmap_t set;
    bool ok;

    if (!pp->pinnable) {
        snprintf(why, len, "%s", pp->why);
        return false;
    }
    set = hwloc_bitmap_alloc();
    if (!set) {
        snprintf(why, len, "not pinned: out of memory");
        return false;
    }
    hwloc_bitmap_only(set, (unsigned)pp->pu[i]);
    ok = hwloc_set_cpubind(pp->topo, set, HWLOC_CPUBIND_THREAD) == 0;
    if (!ok)
        snprintf(why, len, "not pinned: hwloc_set_cpubind to PU %d failed", pp->pu[i]);
    hwloc_bitmap_free(set);
    return ok;
#else
    snprintf(why, len, "%s", pp->why);
    (void)i;
    return false;
#endif
}

int sb_threads_home_node(const struct sb_run_params *p, uint32_t i)
{
    struct pin_plan pp;
    int node = -1;

    if (!sb_run_concurrent(p))
        return sb_numa_node_here();
    if (pin_plan_make(&pp, i + 1) == 0)
        node = pp.pinnable ? pp.node[i] : sb_numa_node_here();
    pin_plan_free(&pp);
    return node;
}

/* --- a barrier whose party count can be lowered before the first wait -------------------- */

struct barrier {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    unsigned parties, waiting, generation;
};

static int barrier_init(struct barrier *b, unsigned parties)
{
    b->parties = parties;
    b->waiting = b->generation = 0;
    if (pthread_mutex_init(&b->mutex, NULL) != 0)
        return -1;
    if (pthread_cond_init(&b->cond, NULL) != 0) {
        pthread_mutex_destroy(&b->mutex);
        return -1;
    }
    return 0;
}

static void barrier_destroy(struct barrier *b)
{
    pthread_cond_destroy(&b->cond);
    pthread_mutex_destroy(&b->mutex);
}

static void barrier_set_parties(struct barrier *b, unsigned parties)
{
    pthread_mutex_lock(&b->mutex);
    b->parties = parties;
    pthread_mutex_unlock(&b->mutex);
}

static void barrier_wait(struct barrier *b)
{
    unsigned generation;

    pthread_mutex_lock(&b->mutex);
    generation = b->generation;
    if (++b->waiting >= b->parties) {
        b->waiting = 0;
        b->generation++;
        pthread_cond_broadcast(&b->cond);
    } else {
        while (generation == b->generation)
            pthread_cond_wait(&b->cond, &b->mutex);
    }
    pthread_mutex_unlock(&b->mutex);
}

/* --- the scanners ------------------------------------------------------------------------- */

enum phase { PHASE_VALIDATE, PHASE_SCAN, PHASE_QUIT };

struct run_state;

struct worker {
    struct run_state *run;
    uint32_t index;
    pthread_t thread;
    bool started;
    struct sb_pool pool;           /* own pool (shared_pool = no) */
    struct sb_policy_state ps;
    bool ps_ready;
    struct sb_scanner scanner;
    struct sb_validation v;        /* its part of the validation scan */
    uint64_t rows, pages;          /* of the last phase */
    double t_start, t_end;         /* of the last scan */
    bool timed;                    /* the last scan was timed: note the CPUs */
    struct sb_scanner_record *rec;
    int status;
    struct sb_error err;
};

struct run_state {
    const struct sb_run_params *p;
    struct sb_iocache *tables;
    uint32_t ntables, nthreads;
    struct pin_plan pins;
    struct barrier start, done;
    enum phase phase;              /* set by the main thread before the start barrier */
    bool timed;
    _Atomic uint64_t next_page;    /* shared table: the next page to hand out */
    _Atomic uint32_t *seen;        /* validation: reads of each page of each table */
    struct sb_shared_pool shared;
    bool use_shared;
    struct worker *workers;
};

/* The next range of the shared table, or false when it is all handed out. */
static bool next_range(struct run_state *run, uint64_t npages, uint64_t *first, uint64_t *end)
{
    uint64_t f = atomic_fetch_add_explicit(&run->next_page, SB_PARALLEL_CHUNK_PAGES,
                                           memory_order_relaxed);
    if (f >= npages)
        return false;
    *first = f;
    *end = f + SB_PARALLEL_CHUNK_PAGES < npages ? f + SB_PARALLEL_CHUNK_PAGES : npages;
    return true;
}

static void do_phase(struct worker *w, enum phase phase)
{
    struct run_state *run = w->run;
    struct sb_scanner *s = &w->scanner;
    const uint64_t npages = s->ioc->npages;
    _Atomic uint32_t *seen = phase == PHASE_VALIDATE ? run->seen + (uint64_t)s->table_id * npages
                                                     : NULL;
    uint64_t pages_before = s->pages, first = 0, end = npages;
    bool more = true;

    w->rows = 0;
    if (w->timed)
        sb_scanner_record_cpu(w->rec);
    w->t_start = sb_timer_now();
    while (more && w->status == SB_OK) {
        if (run->p->shared_table && run->nthreads > 1 && !next_range(run, npages, &first, &end))
            break;
        if (phase == PHASE_VALIDATE)
            w->status = sb_scanner_validate(s, first, end, seen, &w->rows, &w->v, &w->err);
        else
            w->rows += sb_scanner_scan(s, first, end);
        more = run->p->shared_table && run->nthreads > 1;
    }
    w->t_end = sb_timer_now();
    if (w->timed)
        sb_scanner_record_cpu(w->rec);
    w->pages = s->pages - pages_before;
    if (w->status == SB_OK)
        w->status = sb_scanner_io_status(s, &w->err);
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct run_state *run = w->run;
    struct sb_placement_found thread_policy;
    char why[160];

    w->rec->pinned = pin_self(&run->pins, w->index, why, sizeof why);
    if (w->scanner.ioc->file)
        sb_placement_thread_begin(&run->p->iocache_node, w->rec->node, &thread_policy);
    for (;;) {
        enum phase phase;
        barrier_wait(&run->start);
        phase = run->phase;
        w->timed = run->timed;
        if (phase == PHASE_QUIT)
            break;
        if (w->status == SB_OK)
            do_phase(w, phase);
        barrier_wait(&run->done);
    }
    if (w->scanner.ioc->file)
        sb_placement_thread_end();
    return NULL;
}

/* --- the run ------------------------------------------------------------------------------ */

static int alloc_result(const struct sb_run_params *p, const struct run_state *run,
                        struct sb_run_result *res, struct sb_error *err)
{
    const struct sb_iocache *t = &run->tables[0];

    memset(res, 0, sizeof *res);
    res->nreps = p->repetitions;
    res->pages_per_scan = t->npages * run->ntables;
    res->bytes_per_scan = res->pages_per_scan * t->page_size;
    res->validation.rows_expected = t->live_rows;
    res->nscanners = run->nthreads;
    res->seconds = calloc(p->repetitions, sizeof *res->seconds);
    res->scanners = calloc(run->nthreads, sizeof *res->scanners);
    if (!res->seconds || !res->scanners)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    for (uint32_t i = 0; i < run->nthreads; i++) {
        struct sb_scanner_record *rec = &res->scanners[i];
        rec->thread = i;
        rec->pu = run->pins.pu[i];
        rec->core = run->pins.core[i];
        rec->node = run->pins.pinnable ? run->pins.node[i] : -1;
        rec->table = run->ntables > 1 ? i : 0;
        rec->seconds = calloc(p->repetitions, sizeof *rec->seconds);
        rec->pages = calloc(p->repetitions, sizeof *rec->pages);
        if (!rec->seconds || !rec->pages)
            return sb_fail(err, SB_ERR_RUN, "out of memory");
    }
    return SB_OK;
}

/* Pools, policy states and scanners for every worker. */
static int prepare_workers(struct run_state *run, struct sb_run_result *res, struct sb_error *err)
{
    const struct sb_run_params *p = run->p;
    int status = SB_OK;

    if (run->use_shared) {
        status = sb_shared_pool_create(&run->shared, (uint32_t)(p->pool_size / p->page_size),
                                       p->page_size, &p->pool_node, res->scanners[0].node, err);
        if (status != SB_OK)
            return status;
        res->pool_placement = run->shared.placement;
    }
    for (uint32_t i = 0; i < run->nthreads && status == SB_OK; i++) {
        struct worker *w = &run->workers[i];
        w->run = run;
        w->index = i;
        w->rec = &res->scanners[i];
        w->scanner.p = p;
        w->scanner.ioc = &run->tables[w->rec->table];
        w->scanner.table_id = w->rec->table;
        if (run->use_shared) {
            w->scanner.shared = &run->shared;
            continue;
        }
        status = sb_pool_create(&w->pool, p, w->rec->node, err);
        if (status != SB_OK)
            break;
        if (i == 0)
            res->pool_placement = w->pool.placement;
        if (sb_policy_state_init(&w->ps, w->pool.nbuffers,
                                 (uint32_t)(p->ring_size / p->page_size), p->seed) != 0)
            return sb_fail(err, SB_ERR_RUN, "out of memory for the policy state");
        w->ps_ready = true;
        w->scanner.pool = &w->pool;
        w->scanner.ps = &w->ps;
    }
    return status;
}

static int check_rows(const struct run_state *run, uint64_t rows, uint32_t scan,
                      const char *who, struct sb_validation *v, struct sb_error *err)
{
    const struct sb_run_params *p = run->p;

    if (!p->op->counts_rows || rows == v->rows_expected)
        return SB_OK;
    return sb_fail(err, SB_ERR_RUN, "%s: validation failed: scan %u: %s: op %s saw %llu live "
                   "rows, the table has %llu", p->name, scan, who, p->op->name,
                   (unsigned long long)rows, (unsigned long long)v->rows_expected);
}

/* After a phase: the workers' errors, their rows and pages, the shared pool's pins. */
static int collect(struct run_state *run, uint32_t scan, struct sb_run_result *res,
                   struct sb_error *err)
{
    const uint64_t npages = run->tables[0].npages;
    uint64_t rows = 0, pages = 0;
    int status = SB_OK;

    for (uint32_t i = 0; i < run->nthreads; i++) {
        struct worker *w = &run->workers[i];
        char who[32];
        if (w->status != SB_OK) {
            *err = w->err;
            return w->status;
        }
        rows += w->rows;
        pages += w->pages;
        snprintf(who, sizeof who, "scanner %u", i);
        if (run->ntables > 1 && status == SB_OK)
            status = check_rows(run, w->rows, scan, who, &res->validation, err);
        if (run->ntables > 1 && status == SB_OK && w->pages != npages)
            status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: scan %u: scanner %u read "
                             "%llu pages of its table of %llu", run->p->name, scan, i,
                             (unsigned long long)w->pages, (unsigned long long)npages);
    }
    if (run->ntables == 1 && status == SB_OK)
        status = check_rows(run, rows, scan, "all scanners", &res->validation, err);
    if (run->ntables == 1 && status == SB_OK && pages != npages)
        status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: scan %u: the scanners read "
                         "%llu pages of a table of %llu", run->p->name, scan,
                         (unsigned long long)pages, (unsigned long long)npages);
    if (run->use_shared && status == SB_OK) {
        uint32_t pinned = sb_shared_pool_pinned(&run->shared);
        if (pinned > res->shared.pins_left)
            res->shared.pins_left = pinned;
        if (pinned)
            status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: scan %u left %u buffers "
                             "of the shared pool pinned", run->p->name, scan, pinned);
    }
    return status;
}

/* Every page of every table read exactly once by the validation scan. */
static int check_seen(const struct run_state *run, struct sb_validation *v, struct sb_error *err)
{
    const uint64_t npages = run->tables[0].npages;

    for (uint64_t i = 0; i < npages * run->ntables; i++) {
        uint32_t n = atomic_load(&run->seen[i]);
        if (n != 1)
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: page %llu of table %llu was "
                           "read %u times by the validation scan, not once", run->p->name,
                           (unsigned long long)(i % npages), (unsigned long long)(i / npages),
                           n);
    }
    v->pages_read_once = npages * run->ntables;
    return SB_OK;
}

/* One phase for every scanner, started together; the main thread waits for them all. */
static int run_phase(struct run_state *run, enum phase phase, bool timed, uint32_t scan,
                     struct sb_run_result *res, struct sb_error *err)
{
    /* between scans, a signal or the watchdog may stop the run (lib/stop.h) */
    int status = sb_stop_check(err);

    if (status != SB_OK)
        return status;
    for (uint32_t t = 0; t < run->ntables; t++)
        sb_source_before_scan(run->p, &run->tables[t], timed, &res->io);
    atomic_store(&run->next_page, 0);
    run->phase = phase;
    run->timed = timed;
    barrier_wait(&run->start);
    barrier_wait(&run->done);
    return collect(run, scan, res, err);
}

/* The timed scan r: seconds of all together and of each. */
static void note_timed(struct run_state *run, uint32_t r, struct sb_run_result *res)
{
    double first = run->workers[0].t_start, last = run->workers[0].t_end;

    for (uint32_t i = 0; i < run->nthreads; i++) {
        struct worker *w = &run->workers[i];
        first = w->t_start < first ? w->t_start : first;
        last = w->t_end > last ? w->t_end : last;
        w->rec->seconds[r] = w->t_end - w->t_start;
        w->rec->pages[r] = w->pages;
    }
    res->seconds[r] = last - first;
}

/* The aggregate and per-scanner figures after the timed scans. */
static void summarise(struct run_state *run, uint64_t visits_before, uint64_t pages_before,
                      struct sb_run_result *res)
{
    const struct sb_run_params *p = run->p;
    uint64_t visits = 0, pages = 0;
    double *per_page = calloc(p->repetitions, sizeof *per_page);

    for (uint32_t i = 0; i < run->nthreads; i++) {
        struct worker *w = &run->workers[i];
        struct sb_scanner_record *rec = w->rec;
        size_t n = 0;
        visits += run->use_shared ? w->scanner.visits : w->ps.visits;
        pages += w->scanner.pages;
        res->io.drops += w->scanner.drops;
        res->shared.acquisitions += w->scanner.acquisitions;
        for (uint32_t r = 0; per_page && r < p->repetitions; r++)
            if (rec->pages[r] > 0)
                per_page[n++] = rec->seconds[r] / (double)rec->pages[r];
        if (n > 0)
            sb_stats_from_seconds(per_page, n, p->page_size, &rec->mbps);
    }
    free(per_page);
    res->clock_visits_per_page = (double)(visits - visits_before) /
                                 ((double)res->pages_per_scan * p->repetitions);
    res->shared.pages = pages - pages_before;
    sb_stats_from_seconds(res->seconds, res->nreps, res->bytes_per_scan, &res->mbps);
}

static uint64_t sum_visits(const struct run_state *run)
{
    uint64_t visits = 0;
    for (uint32_t i = 0; i < run->nthreads; i++)
        visits += run->use_shared ? run->workers[i].scanner.visits : run->workers[i].ps.visits;
    return visits;
}

static uint64_t sum_pages(const struct run_state *run)
{
    uint64_t pages = 0;
    for (uint32_t i = 0; i < run->nthreads; i++)
        pages += run->workers[i].scanner.pages;
    return pages;
}

/* The scans: validation, warm-up, timed; then the pools. */
static int scans(struct run_state *run, struct sb_run_result *res, struct sb_error *err)
{
    const struct sb_run_params *p = run->p;
    uint64_t visits_before, pages_before;
    int status = run_phase(run, PHASE_VALIDATE, false, 0, res, err);

    for (uint32_t i = 0; i < run->nthreads; i++) {
        res->validation.pages_checked_after_copy += run->workers[i].v.pages_checked_after_copy;
        res->validation.pages_checked_after_op += run->workers[i].v.pages_checked_after_op;
    }
    if (status == SB_OK)
        status = check_seen(run, &res->validation, err);
    for (uint32_t w = 0; status == SB_OK && w < p->warmup; w++) {
        status = run_phase(run, PHASE_SCAN, false, w + 1, res, err);
        res->validation.scans_row_checked += status == SB_OK && p->op->counts_rows;
    }
    visits_before = sum_visits(run);
    pages_before = sum_pages(run);
    for (uint32_t i = 0; i < run->nthreads; i++) {
        run->workers[i].scanner.drops = 0;
        run->workers[i].scanner.acquisitions = 0;
    }
    for (uint32_t r = 0; status == SB_OK && r < p->repetitions; r++) {
        status = run_phase(run, PHASE_SCAN, true, p->warmup + r + 1, res, err);
        if (status == SB_OK) {
            note_timed(run, r, res);
            res->validation.scans_row_checked += p->op->counts_rows;
        }
    }
    for (uint32_t i = 0; status == SB_OK && i < run->nthreads; i++)
        if (!run->use_shared)
            status = sb_pool_check(p, run->workers[i].scanner.ioc, &run->workers[i].pool,
                                   &res->buffers_touched, &res->validation.pool_pages_checked,
                                   err);
    if (status == SB_OK && run->use_shared)
        status = sb_shared_pool_check(p, run->tables, &run->shared, &res->buffers_touched,
                                      &res->validation.pool_pages_checked, err);
    if (status == SB_OK) {
        summarise(run, visits_before, pages_before, res);
        if (run->use_shared && res->shared.acquisitions != res->shared.pages)
            status = sb_fail(err, SB_ERR_RUN, "%s: validation failed: %llu buffers pinned for "
                             "%llu pages in the shared pool", p->name,
                             (unsigned long long)res->shared.acquisitions,
                             (unsigned long long)res->shared.pages);
    }
    if (status == SB_OK)
        res->validation.ok = true;
    return status;
}

int sb_scan_run_concurrent(const struct sb_run_params *p, struct sb_iocache *tables,
                           struct sb_run_result *res, struct sb_error *err)
{
    struct run_state run = {.p = p, .tables = tables, .ntables = sb_run_tables(p),
                            .nthreads = p->threads, .use_shared = p->shared_pool};
    uint32_t started = 0;
    bool barriers = false;
    int status;

    memset(res, 0, sizeof *res);
    if (pin_plan_make(&run.pins, run.nthreads) != 0) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    status = alloc_result(p, &run, res, err);
    for (uint32_t t = 0; status == SB_OK && t < run.ntables; t++)
        status = sb_iocache_expect_op(&tables[t], p->op, err);
    if (status != SB_OK)
        goto out;
    res->iocache_placement = tables[0].placement;
    res->shared.used = run.use_shared;
    res->shared.nbuffers = (uint32_t)(p->pool_size / p->page_size);
    run.workers = calloc(run.nthreads, sizeof *run.workers);
    run.seen = calloc(tables[0].npages * run.ntables, sizeof *run.seen);
    if (!run.workers || !run.seen) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory");
        goto out;
    }
    status = prepare_workers(&run, res, err);
    if (status == SB_OK)
        status = sb_counters_open(&res->counters, p->counters, p, p->repetitions, err);
    if (status == SB_OK) {
        uint8_t *scratch = run.use_shared ? run.shared.buffers : run.workers[0].pool.buffers;
        for (uint32_t t = 0; status == SB_OK && t < run.ntables; t++)
            status = sb_source_prepare(p, &tables[t], scratch, &res->io, err);
    }
    if (status != SB_OK)
        goto out;
    if (barrier_init(&run.start, run.nthreads + 1) != 0) {
        status = sb_fail(err, SB_ERR_RUN, "cannot make the scanners' barriers");
        goto out;
    }
    if (barrier_init(&run.done, run.nthreads + 1) != 0) {
        barrier_destroy(&run.start);
        status = sb_fail(err, SB_ERR_RUN, "cannot make the scanners' barriers");
        goto out;
    }
    barriers = true;
    for (; started < run.nthreads; started++) {
        run.workers[started].started =
            pthread_create(&run.workers[started].thread, NULL, worker_main,
                           &run.workers[started]) == 0;
        if (!run.workers[started].started)
            break;
    }
    if (started < run.nthreads) {
        status = sb_fail(err, SB_ERR_RUN, "cannot start scanner %u of %u", started, run.nthreads);
        barrier_set_parties(&run.start, started + 1);
        barrier_set_parties(&run.done, started + 1);
    } else {
        status = scans(&run, res, err);
    }
    run.phase = PHASE_QUIT;
    barrier_wait(&run.start);
    for (uint32_t i = 0; i < started; i++)
        pthread_join(run.workers[i].thread, NULL);
out:
    if (barriers) {
        barrier_destroy(&run.start);
        barrier_destroy(&run.done);
    }
    for (uint32_t i = 0; run.workers && i < run.nthreads; i++) {
        if (run.workers[i].ps_ready)
            sb_policy_state_destroy(&run.workers[i].ps);
        sb_pool_destroy(&run.workers[i].pool);
    }
    if (run.use_shared)
        sb_shared_pool_destroy(&run.shared);
    free(run.workers);
    free(run.seen);
    pin_plan_free(&run.pins);
    return status;
}
