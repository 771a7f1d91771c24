/* scan.c: a run with one scanner, the calling thread: its validation scan, warm-up, timed scans
 * and pool check (the loops themselves are scanner.c's). */
#include "config.h"
#include "scan.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "scanner.h"
#include "stop.h"
#include "timer.h"

void sb_scanner_record_cpu(struct sb_scanner_record *rec)
{
    int cpu = sched_getcpu();

    for (unsigned i = 0; i < rec->ncpus_seen; i++)
        if (rec->cpus_seen[i] == cpu)
            return;
    if (cpu >= 0 && rec->ncpus_seen < SB_MAX_CPUS_SEEN)
        rec->cpus_seen[rec->ncpus_seen++] = cpu;
}

static int check_rows(const struct sb_run_params *p, uint64_t rows, uint32_t scan,
                      struct sb_validation *v, struct sb_error *err)
{
    if (!p->op->counts_rows)
        return SB_OK;
    if (rows != v->rows_expected)
        return sb_fail(err, SB_ERR_RUN, "%s: validation failed: scan %u: op %s saw %llu live rows, "
                       "the table has %llu", p->name, scan, p->op->name,
                       (unsigned long long)rows, (unsigned long long)v->rows_expected);
    v->scans_row_checked++;
    return SB_OK;
}

/* The validation scan: every page's checksum after the copy and after the op, every page read
 * once, the rows the op counted. */
static int scan_validating(struct sb_scanner *s, struct sb_validation *v, struct sb_error *err)
{
    const struct sb_run_params *p = s->p;
    uint64_t rows = 0;
    int status = sb_scanner_validate(s, 0, s->ioc->npages, NULL, &rows, v, err);

    if (status != SB_OK)
        return status;
    v->pages_read_once = s->ioc->npages; /* one scanner reads them in order */
    if (p->op->counts_rows && rows != v->rows_expected)
        return sb_fail(err, SB_ERR_RUN, "%s: validation failed: op %s saw %llu live rows, the "
                       "table has %llu", p->name, p->op->name, (unsigned long long)rows,
                       (unsigned long long)v->rows_expected);
    return SB_OK;
}

static int alloc_result(const struct sb_run_params *p, const struct sb_iocache *ioc,
                        struct sb_run_result *res, struct sb_error *err)
{
    memset(res, 0, sizeof *res);
    res->nreps = p->repetitions;
    res->pages_per_scan = ioc->npages;
    res->bytes_per_scan = ioc->npages * ioc->page_size;
    res->validation.rows_expected = ioc->live_rows;
    res->nscanners = 1;
    res->seconds = calloc(p->repetitions, sizeof *res->seconds);
    res->scanners = calloc(1, sizeof *res->scanners);
    if (res->scanners) {
        res->scanners->seconds = calloc(p->repetitions, sizeof *res->scanners->seconds);
        res->scanners->pages = calloc(p->repetitions, sizeof *res->scanners->pages);
    }
    if (!res->seconds || !res->scanners || !res->scanners->seconds || !res->scanners->pages)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    res->scanners->pu = res->scanners->core = -1;
    res->scanners->node = sb_numa_node_here();
    return SB_OK;
}

int sb_scan_run(const struct sb_run_params *p, struct sb_iocache *ioc, struct sb_run_result *res,
                struct sb_error *err)
{
    struct sb_pool pool;
    struct sb_policy_state ps;
    struct sb_scanner scanner = {.p = p, .ioc = ioc, .pool = &pool, .ps = &ps};
    struct sb_scanner_record *rec;
    struct sb_placement_found thread_policy;
    uint64_t visits_before;
    int status;

    status = alloc_result(p, ioc, res, err);
    if (status != SB_OK)
        return status;
    rec = res->scanners;
    status = sb_iocache_expect_op(ioc, p->op, err);
    if (status != SB_OK)
        return status;
    status = sb_pool_create(&pool, p, rec->node, err);
    if (status != SB_OK)
        return status;
    res->pool_placement = pool.placement;
    res->iocache_placement = ioc->placement;
    if (sb_policy_state_init(&ps, pool.nbuffers, (uint32_t)(p->ring_size / p->page_size),
                             p->seed) != 0) {
        sb_pool_destroy(&pool);
        return sb_fail(err, SB_ERR_RUN, "out of memory for the policy state");
    }
    /* pages the kernel reads for a file go where the table was asked to be */
    if (ioc->file)
        sb_placement_thread_begin(&p->iocache_node, rec->node, &thread_policy);
    status = sb_counters_open(&res->counters, p->counters, p, p->repetitions, err);
    if (status != SB_OK)
        goto out;
    if (p->counters->replay) {
        scanner.victims = malloc(ioc->npages * sizeof *scanner.victims);
        if (!scanner.victims) {
            status = sb_fail(err, SB_ERR_RUN, "out of memory for the scan trace");
            goto out;
        }
    }
    status = sb_source_prepare(p, ioc, pool.buffers, &res->io, err);
    if (status != SB_OK)
        goto out;

    /* between scans, a signal or the watchdog may stop the run (lib/stop.h) */
    status = sb_stop_check(err);
    if (status == SB_OK) {
        sb_source_before_scan(p, ioc, false, &res->io);
        status = scan_validating(&scanner, &res->validation, err);
    }
    for (uint32_t w = 0; status == SB_OK && w < p->warmup; w++) {
        uint64_t rows;
        if ((status = sb_stop_check(err)) != SB_OK)
            break;
        sb_source_before_scan(p, ioc, false, &res->io);
        rows = sb_scanner_scan(&scanner, 0, ioc->npages);
        status = sb_scanner_io_status(&scanner, err);
        if (status == SB_OK)
            status = check_rows(p, rows, w + 1, &res->validation, err);
    }
    visits_before = ps.visits;
    scanner.drops = 0;
    for (uint32_t r = 0; status == SB_OK && r < p->repetitions; r++) {
        double t0, t1;
        uint64_t rows;

        if ((status = sb_stop_check(err)) != SB_OK)
            break;
        sb_source_before_scan(p, ioc, true, &res->io);
        sb_scanner_record_cpu(rec);
        res->counters.backend->start(&res->counters, r);
        t0 = sb_timer_now();
        rows = sb_scanner_scan(&scanner, 0, ioc->npages);
        t1 = sb_timer_now();
        res->counters.backend->stop(&res->counters, r);
        sb_scanner_record_cpu(rec);
        if (scanner.victims) {
            struct sb_scan_trace trace = {p, ioc, pool.buffers, scanner.victims};
            res->counters.backend->replay(&res->counters, r, &trace);
        }
        res->seconds[r] = rec->seconds[r] = t1 - t0;
        rec->pages[r] = ioc->npages;
        status = sb_scanner_io_status(&scanner, err);
        if (status == SB_OK)
            status = check_rows(p, rows, p->warmup + r + 1, &res->validation, err);
    }
    res->io.drops = scanner.drops;
    if (status == SB_OK)
        status = sb_pool_check(p, ioc, &pool, &res->buffers_touched,
                               &res->validation.pool_pages_checked, err);
    if (status == SB_OK) {
        res->validation.ok = true;
        res->clock_visits_per_page = (double)(ps.visits - visits_before) /
                                     ((double)ioc->npages * p->repetitions);
        sb_stats_from_seconds(res->seconds, res->nreps, res->bytes_per_scan, &res->mbps);
        rec->mbps = res->mbps;
    }
out:
    if (ioc->file)
        sb_placement_thread_end();
    free(scanner.victims);
    sb_policy_state_destroy(&ps);
    sb_pool_destroy(&pool);
    return status;
}

void sb_run_result_free(struct sb_run_result *res)
{
    free(res->seconds);
    res->seconds = NULL;
    for (uint32_t i = 0; res->scanners && i < res->nscanners; i++) {
        free(res->scanners[i].seconds);
        free(res->scanners[i].pages);
    }
    free(res->scanners);
    res->scanners = NULL;
    res->nscanners = 0;
    sb_counters_close(&res->counters);
}
