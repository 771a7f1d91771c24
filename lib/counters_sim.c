/* counters_sim.c: the `sim` counter backend: the scan's memory accesses replayed through the
 * cache model after each timed scan (see counters_sim.h).
 *
 * Addresses: each region is given to the model relative to its own base, the IO cache at 1TB
 * and the pool at 2TB (SB_SIM_*_BASE). Both bases are aligned far beyond any way size of any
 * model, so page p of the table and buffer b of the pool start at offset 0 of a page, as the
 * real (page-aligned) mappings do, and map to the sets a huge-page-aligned allocation would.
 * The real virtual addresses are not used: the L2 and L3 are indexed by physical address,
 * which shares only the page offset with the virtual one, and mmap places regions differently
 * from run to run, so the same run gives the same counts only this way. */
#include "config.h"
#include "counters_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "iocache.h"
#include "machine.h"
#include "plan.h"

struct sim_state {
    struct sb_machine model; /* the run's machine, with the prefetcher as the run asked */
    struct sb_cachesim *sim;
};

/* The roles the model fills, and what each counts in it. */
static const struct {
    enum sb_role role;
    unsigned min_levels; /* the model must have this many levels */
    const char *what;
} model_roles[] = {
    {SB_ROLE_L1D_HIT, 1, "model: line accesses (copy loads and stores, op reads and writes) that "
                         "found their line in L1d"},
    {SB_ROLE_L1D_MISS, 1, "model: line accesses that missed L1d (a store miss reads the line "
                          "first: write-allocate)"},
    {SB_ROLE_L1D_WRITEBACK, 1, "model: dirty lines leaving L1d (evicted, or flushed by a "
                               "streaming store)"},
    {SB_ROLE_L2_HIT, 2, "model: L1d misses and prefetches found in L2"},
    {SB_ROLE_L2_MISS, 2, "model: L1d misses and prefetches not found in L2 (loads and "
                         "read-for-ownership; write-backs from L1d are not lookups)"},
    {SB_ROLE_L2_WRITEBACK, 2, "model: dirty lines leaving L2 (evicted to L3 or memory, or "
                              "flushed by a streaming store)"},
    {SB_ROLE_L3_HIT, 3, "model: L2 misses and prefetches found in L3"},
    {SB_ROLE_L3_MISS, 3, "model: L2 misses and prefetches not found in L3"},
    {SB_ROLE_L3_WRITEBACK, 3, "model: dirty lines leaving L3 (to memory)"},
    {SB_ROLE_MEM_READ_BYTES, 1, "model: bytes read from memory (line fills below the last "
                                "level: loads, read-for-ownership, prefetches)"},
    {SB_ROLE_MEM_WRITE_BYTES, 1, "model: bytes written to memory (dirty lines evicted from the "
                                 "last level, streaming-store lines, partial WC flushes' bytes)"},
};

int sb_sim_open(struct sb_counters *c, const struct sb_run_params *run, struct sb_error *err)
{
    struct sim_state *s = NULL;
    int status = SB_OK;

    c->simulated = true;
    if (!run->machine) {
        status = sb_fail(err, SB_ERR_INPUT, "%s: counters=sim: no machine model (machine=)",
                         run->name);
        goto out;
    }
    if (run->op->pass && run->op->pass != sb_heap_count && run->op->pass != sb_heap_vacuum) {
        c->status = "unavailable";
        snprintf(c->reason, sizeof c->reason, "the model does not know the accesses of op %s",
                 run->op->name);
        goto out;
    }
    s = calloc(1, sizeof *s);
    if (!s) {
        status = sb_fail(err, SB_ERR_RUN, "out of memory for the cache model");
        goto out;
    }
    s->model = *run->machine;
    if (run->prefetch >= 0)
        s->model.config.prefetch = run->prefetch != 0;
    status = sb_cachesim_create(&s->model.config, &s->sim, err);
    if (status != SB_OK) {
        sb_error_prefix(err, "%s: machine %s", run->name, s->model.file);
        goto out;
    }
    c->state = s;
    c->machine = &s->model;
    c->status = "ok";
    snprintf(c->model, sizeof c->model, "%s (%s), prefetch %s", s->model.name, s->model.file,
             s->model.config.prefetch ? "on" : "off");
    for (size_t i = 0; i < sizeof model_roles / sizeof *model_roles; i++) {
        if (s->model.config.nlevels < model_roles[i].min_levels) {
            snprintf(c->role_reason[model_roles[i].role], sizeof c->role_reason[0],
                     "the model %s has no L%u", s->model.name, model_roles[i].min_levels);
            continue;
        }
        c->have[model_roles[i].role] = true;
        snprintf(c->events[model_roles[i].role], sizeof c->events[0], "%s", model_roles[i].what);
    }
    snprintf(c->role_reason[SB_ROLE_CYCLES], sizeof c->role_reason[0], "not modelled (the model "
             "counts cache events, not time)");
    snprintf(c->role_reason[SB_ROLE_INSTRUCTIONS], sizeof c->role_reason[0], "not modelled");
    s = NULL;
out:
    if (s) {
        sb_cachesim_destroy(s->sim);
        free(s);
    }
    return status;
}

void sb_sim_start(struct sb_counters *c, unsigned rep)
{
    (void)c;
    (void)rep;
}

void sb_sim_stop(struct sb_counters *c, unsigned rep)
{
    (void)c;
    (void)rep;
}

/* HeapTupleSatisfiesMVCC as heap.c's passes decide it, from the tuple header's bytes. */
static bool tuple_is_live(const uint8_t *page, uint32_t off)
{
    uint16_t infomask = sb_tuple_infomask(page, off);

    if (infomask & SB_HEAP_XMIN_INVALID)
        return false;
    return sb_tuple_xmax(page, off) == 0 || (infomask & SB_HEAP_XMAX_INVALID);
}

/* Accesses gathered and fed to the model a list at a time (sb_cachesim_access_list), in order. */
struct access_batch {
    struct sb_cachesim *sim;
    size_t n;
    struct sb_cachesim_ref ref[256];
};

static void batch_flush(struct access_batch *b)
{
    sb_cachesim_access_list(b->sim, b->ref, b->n);
    b->n = 0;
}

static void batch_add(struct access_batch *b, uint64_t address, uint32_t size, bool is_write)
{
    if (b->n == sizeof b->ref / sizeof *b->ref)
        batch_flush(b);
    b->ref[b->n++] = (struct sb_cachesim_ref){address, size, is_write};
}

/* The op's accesses to the page at dst, in the order heap.c makes them, walked on the source
 * page src (what the op saw: the copy is exact). count: pd_lower, then per line pointer its 4
 * bytes and, for a normal one, the tuple header bytes read (t_xmax at +4 .. t_infomask at +21).
 * vacuum: the same reads, then a live tuple's t_infomask written (hint bits) or a dead tuple's
 * line pointer written (unused); at the end pd_flags (if it pruned) and pd_prune_xid written. */
static uint64_t feed_op(struct sb_cachesim *sim, const struct sb_op *op, const uint8_t *src,
                        uint64_t dst, uint32_t page_size)
{
    bool vacuum = op->pass == sb_heap_vacuum;
    uint32_t n = sb_page_nitems(src);
    uint64_t live = 0;
    bool pruned = false;
    struct access_batch b;

    b.sim = sim;
    b.n = 0;
    batch_add(&b, dst + 12, 2, false); /* pd_lower */
    for (uint32_t i = 0; i < n; i++) {
        uint64_t lp = dst + SB_PAGE_HEADER_SIZE + (uint64_t)i * SB_LINE_POINTER_SIZE;
        uint32_t off, flags, len;
        bool is_live;

        batch_add(&b, lp, SB_LINE_POINTER_SIZE, false);
        sb_page_item(src, i, &off, &flags, &len);
        if (flags != SB_LP_NORMAL || off + SB_TUPLE_HEADER_SIZE > page_size)
            continue;
        batch_add(&b, dst + off + 4, 18, false); /* t_xmax .. t_infomask */
        is_live = tuple_is_live(src, off);
        live += is_live;
        if (!vacuum)
            continue;
        if (is_live) {
            batch_add(&b, dst + off + 20, 2, true); /* hint bits */
        } else {
            batch_add(&b, lp, SB_LINE_POINTER_SIZE, true); /* unused */
            pruned = true;
        }
    }
    if (vacuum) {
        if (pruned)
            batch_add(&b, dst + 10, 2, true); /* pd_flags |= PD_HAS_FREE_LINES */
        batch_add(&b, dst + 20, 4, true);     /* pd_prune_xid = 0 */
    }
    batch_flush(&b);
    return live;
}

uint64_t sb_sim_feed_scan(struct sb_cachesim *sim, const struct sb_scan_trace *t)
{
    const struct sb_run_params *run = t->run;
    const uint32_t page_size = t->ioc->page_size;
    const bool temporal = run->kernel->temporal;
    uint64_t live = 0;

    for (uint64_t block = 0; block < t->ioc->npages; block++) {
        const uint8_t *src_page = t->ioc->pages + block * page_size;
        uint64_t src = SB_SIM_IOCACHE_BASE + block * page_size;
        uint64_t dst = SB_SIM_POOL_BASE + (uint64_t)t->victims[block] * page_size;

        /* a bigtable page arrives by the device's DMA: written to memory, out of every cache
         * (streamed line by line, then fenced) */
        if (run->bigtable) {
            sb_cachesim_stream_store(sim, src, page_size);
            sb_cachesim_fence(sim);
        }
        /* the copy, one source line then the destination line, through the page */
        sb_cachesim_copy(sim, src, dst, page_size, !temporal);
        if (!temporal)
            sb_cachesim_fence(sim);
        if (run->op->pass)
            live += feed_op(sim, run->op, src_page, dst, page_size);
    }
    return live;
}

void sb_sim_replay(struct sb_counters *c, unsigned rep, const struct sb_scan_trace *trace)
{
    struct sim_state *s = c->state;
    struct sb_cachesim_counts n;
    uint64_t *v;

    if (!s || rep >= c->nreps)
        return;
    sb_cachesim_reset_counts(s->sim);
    sb_sim_feed_scan(s->sim, trace);
    sb_cachesim_read_counts(s->sim, &n);
    v = c->values[rep];
    v[SB_ROLE_L1D_HIT] = n.level[0].hits;
    v[SB_ROLE_L1D_MISS] = n.level[0].misses;
    v[SB_ROLE_L1D_WRITEBACK] = n.level[0].writebacks;
    v[SB_ROLE_L2_HIT] = n.level[1].hits;
    v[SB_ROLE_L2_MISS] = n.level[1].misses;
    v[SB_ROLE_L2_WRITEBACK] = n.level[1].writebacks;
    v[SB_ROLE_L3_HIT] = n.level[2].hits;
    v[SB_ROLE_L3_MISS] = n.level[2].misses;
    v[SB_ROLE_L3_WRITEBACK] = n.level[2].writebacks;
    v[SB_ROLE_MEM_READ_BYTES] = n.mem_read_bytes;
    v[SB_ROLE_MEM_WRITE_BYTES] = n.mem_write_bytes;
}

void sb_sim_close(struct sb_counters *c)
{
    struct sim_state *s = c->state;

    if (s) {
        sb_cachesim_destroy(s->sim);
        free(s);
    }
    c->state = NULL;
    c->machine = NULL;
}
