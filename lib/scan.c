/* scan.c: the scan loop, its validation and its timing. */
#include "config.h"
#include "scan.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "timer.h"

struct pool {
    uint8_t *buffers;
    size_t bytes;
    uint32_t nbuffers;
    int64_t *tag; /* the block each buffer holds, -1 for none */
};

static int pool_create(struct pool *pool, const struct sb_run_params *p, struct sb_error *err)
{
    memset(pool, 0, sizeof *pool);
    pool->nbuffers = (uint32_t)(p->pool_size / p->page_size);
    pool->bytes = (size_t)p->pool_size;
    pool->buffers = sb_mem_alloc(pool->bytes);
    pool->tag = malloc(pool->nbuffers * sizeof *pool->tag);
    if (!pool->buffers || !pool->tag) {
        sb_mem_free(pool->buffers, pool->bytes);
        free(pool->tag);
        return sb_fail(err, SB_ERR_RUN, "cannot allocate the %zu-byte pool", pool->bytes);
    }
    for (uint32_t b = 0; b < pool->nbuffers; b++)
        pool->tag[b] = -1;
    return SB_OK;
}

static void pool_destroy(struct pool *pool)
{
    sb_mem_free(pool->buffers, pool->bytes);
    free(pool->tag);
}

/* The hot loop: no checks but the op's row count, which the caller validates. With victims
 * non-NULL (a tracing counter backend) it also records the buffer of every page. */
static uint64_t scan_table(const struct sb_run_params *p, const struct sb_iocache *ioc,
                           struct pool *pool, struct sb_policy_state *ps, uint32_t *victims)
{
    uint32_t (*const victim)(struct sb_policy_state *) = p->policy->victim;
    const sb_copy_fn copy = p->kernel->copy;
    const sb_op_fn pass = p->op->pass;
    const uint32_t page_size = p->page_size;
    const uint8_t *src = ioc->pages;
    uint64_t rows = 0;

    for (uint64_t block = 0; block < ioc->npages; block++, src += page_size) {
        uint32_t b = victim(ps);
        uint8_t *dst = pool->buffers + (size_t)b * page_size;
        copy(dst, src, page_size);
        pool->tag[b] = (int64_t)block;
        if (victims)
            victims[block] = b;
        if (pass)
            rows += pass(dst, page_size);
    }
    return rows;
}

/* The validation scan: the same work, with every page's checksum checked twice. */
static int scan_validating(const struct sb_run_params *p, const struct sb_iocache *ioc,
                           struct pool *pool, struct sb_policy_state *ps,
                           struct sb_validation *v, struct sb_error *err)
{
    uint64_t rows = 0;

    for (uint64_t block = 0; block < ioc->npages; block++) {
        uint32_t b = p->policy->victim(ps);
        uint8_t *dst = pool->buffers + (size_t)b * p->page_size;
        uint32_t sum;

        p->kernel->copy(dst, sb_iocache_page(ioc, block), p->page_size);
        pool->tag[b] = (int64_t)block;
        sum = sb_page_checksum(dst, p->page_size);
        if (sum != ioc->sum_copy[block])
            return sb_fail(err, SB_ERR_RUN,
                           "%s: validation failed: page %llu copied by kernel %s into buffer %u "
                           "has checksum %08x, expected %08x", p->name,
                           (unsigned long long)block, p->kernel->name, b, sum,
                           ioc->sum_copy[block]);
        v->pages_checked_after_copy++;
        if (p->op->pass)
            rows += p->op->pass(dst, p->page_size);
        sum = sb_page_checksum(dst, p->page_size);
        if (sum != ioc->sum_after_op[block])
            return sb_fail(err, SB_ERR_RUN,
                           "%s: validation failed: page %llu after op %s has checksum %08x, "
                           "expected %08x", p->name, (unsigned long long)block, p->op->name,
                           sum, ioc->sum_after_op[block]);
        v->pages_checked_after_op++;
    }
    if (p->op->counts_rows && rows != v->rows_expected)
        return sb_fail(err, SB_ERR_RUN, "%s: validation failed: op %s saw %llu live rows, the "
                       "table has %llu", p->name, p->op->name, (unsigned long long)rows,
                       (unsigned long long)v->rows_expected);
    return SB_OK;
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

/* After the timed scans: every buffer that holds a page must hold it as the op left it. */
static int check_pool(const struct sb_run_params *p, const struct sb_iocache *ioc,
                      const struct pool *pool, struct sb_run_result *res, struct sb_error *err)
{
    for (uint32_t b = 0; b < pool->nbuffers; b++) {
        uint32_t sum;
        if (pool->tag[b] < 0)
            continue;
        res->buffers_touched++;
        sum = sb_page_checksum(pool->buffers + (size_t)b * p->page_size, p->page_size);
        if (sum != ioc->sum_after_op[pool->tag[b]])
            return sb_fail(err, SB_ERR_RUN, "%s: validation failed: buffer %u holds page %lld "
                           "with checksum %08x, expected %08x", p->name, b,
                           (long long)pool->tag[b], sum, ioc->sum_after_op[pool->tag[b]]);
        res->validation.pool_pages_checked++;
    }
    return SB_OK;
}

int sb_scan_run(const struct sb_run_params *p, struct sb_iocache *ioc, struct sb_run_result *res,
                struct sb_error *err)
{
    struct pool pool;
    struct sb_policy_state ps;
    uint32_t *victims = NULL;
    uint64_t visits_before;
    int status;

    memset(res, 0, sizeof *res);
    res->nreps = p->repetitions;
    res->pages_per_scan = ioc->npages;
    res->bytes_per_scan = ioc->npages * ioc->page_size;
    res->validation.rows_expected = ioc->live_rows;
    res->seconds = calloc(p->repetitions, sizeof *res->seconds);
    if (!res->seconds)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    status = sb_iocache_expect_op(ioc, p->op, err);
    if (status != SB_OK)
        return status;
    status = pool_create(&pool, p, err);
    if (status != SB_OK)
        return status;
    if (sb_policy_state_init(&ps, pool.nbuffers, (uint32_t)(p->ring_size / p->page_size),
                             p->seed) != 0) {
        pool_destroy(&pool);
        return sb_fail(err, SB_ERR_RUN, "out of memory for the policy state");
    }
    status = sb_counters_open(&res->counters, p->counters, p, p->repetitions, err);
    if (status != SB_OK)
        goto out;
    if (p->counters->replay) {
        victims = malloc(ioc->npages * sizeof *victims);
        if (!victims) {
            status = sb_fail(err, SB_ERR_RUN, "out of memory for the scan trace");
            goto out;
        }
    }

    status = scan_validating(p, ioc, &pool, &ps, &res->validation, err);
    for (uint32_t w = 0; status == SB_OK && w < p->warmup; w++)
        status = check_rows(p, scan_table(p, ioc, &pool, &ps, NULL), w + 1, &res->validation,
                            err);
    visits_before = ps.visits;
    for (uint32_t r = 0; status == SB_OK && r < p->repetitions; r++) {
        double t0, t1;
        uint64_t rows;

        res->counters.backend->start(&res->counters, r);
        t0 = sb_timer_now();
        rows = scan_table(p, ioc, &pool, &ps, victims);
        t1 = sb_timer_now();
        res->counters.backend->stop(&res->counters, r);
        if (victims) {
            struct sb_scan_trace trace = {p, ioc, pool.buffers, victims};
            res->counters.backend->replay(&res->counters, r, &trace);
        }
        res->seconds[r] = t1 - t0;
        status = check_rows(p, rows, p->warmup + r + 1, &res->validation, err);
    }
    if (status == SB_OK)
        status = check_pool(p, ioc, &pool, res, err);
    if (status == SB_OK) {
        res->validation.ok = true;
        res->clock_visits_per_page = (double)(ps.visits - visits_before) /
                                     ((double)ioc->npages * p->repetitions);
        sb_stats_from_seconds(res->seconds, res->nreps, res->bytes_per_scan, &res->mbps);
    }
out:
    free(victims);
    sb_policy_state_destroy(&ps);
    pool_destroy(&pool);
    return status;
}

void sb_run_result_free(struct sb_run_result *res)
{
    free(res->seconds);
    res->seconds = NULL;
    sb_counters_close(&res->counters);
}
