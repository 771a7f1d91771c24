/* sim_replay.c: a scan's accesses fed to the cache model, and the model's slices replayed on
 * threads (see sim_replay.h).
 *
 * Addresses: each region is given to the model relative to its own base, the IO cache at 1TB
 * and the pool at 2TB (SB_SIM_*_BASE). Both bases are aligned far beyond any way size of any
 * model, so page p of the table and buffer b of the pool start at offset 0 of a page, as the
 * real (page-aligned) mappings do, and map to the sets a huge-page-aligned allocation would.
 * The real virtual addresses are not used: the L2 and L3 are indexed by physical address,
 * which shares only the page offset with the virtual one, and mmap places regions differently
 * from run to run, so the same run gives the same counts only this way.
 *
 * Slices: every thread walks the whole trace (the op's walk of each page included) and its
 * slice keeps its own lines; the pages' streaming stores are whole lines, fenced after each
 * page, which keeps the slices exact (cachesim.h). */
#include "config.h"
#include "sim_replay.h"

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "iocache.h"
#include "plan.h"
#include "units.h"

#define MAX_SLICES (1u << SB_CACHESIM_MAX_SLICE_SHIFT)

/* HeapTupleSatisfiesMVCC as heap.c's passes decide it, from the tuple header's bytes. */
static bool tuple_is_live(const uint8_t *page, uint32_t off)
{
    uint16_t infomask = sb_tuple_infomask(page, off);

    if (infomask & SB_HEAP_XMIN_INVALID)
        return false;
    return sb_tuple_xmax(page, off) == 0 || (infomask & SB_HEAP_XMAX_INVALID);
}

/* The op's line accesses, gathered and fed to the model a list at a time
 * (sb_cachesim_access_lines), only those of the model's slice, numbered as it numbers them. */
#define BATCH_LINES 512
#define TUPLE_MAX_LINES 6 /* a line pointer, a tuple header (two lines), a write (two) */

/* Which lines the model keeps, and how it numbers them (sb_cachesim_slice_of), and the line
 * size: what the op's walk needs to make the model's entries. */
struct op_lines {
    unsigned line_shift, slice_shift;
    uint64_t slice_mask, slice_index;
};

/* The line, if the slice keeps it (a load, or a store if write is SB_CACHESIM_LINE_WRITE), as
 * an entry at *end; returns the new end. */
static inline uint64_t *add_line(uint64_t *end, const struct op_lines *o, uint64_t line,
                                 uint64_t write)
{
    if (((line ^ o->slice_index) & o->slice_mask) == 0)
        *end++ = (line >> o->slice_shift) << SB_CACHESIM_ENTRY_SHIFT | write;
    return end;
}

/* The lines of size bytes at address: at most two (size at most the smallest line size). */
static inline uint64_t *add_lines(uint64_t *end, const struct op_lines *o, uint64_t address,
                                  uint32_t size, uint64_t write)
{
    const uint64_t line = address >> o->line_shift, last = (address + size - 1) >> o->line_shift;

    end = add_line(end, o, line, write);
    if (last != line)
        end = add_line(end, o, last, write);
    return end;
}

/* The op's accesses to the page at dst, in the order heap.c makes them, walked on the source
 * page src (what the op saw: the copy is exact). count: pd_lower, then per line pointer its 4
 * bytes and, for a normal one, the tuple header bytes read (t_xmax at +4 .. t_infomask at +21).
 * vacuum: the same reads, then a live tuple's t_infomask written (hint bits) or a dead tuple's
 * line pointer written (unused); at the end pd_flags (if it pruned) and pd_prune_xid written. */
static uint64_t feed_op(struct sb_cachesim *sim, const struct op_lines *lines,
                        const struct sb_op *op, const uint8_t *src, uint64_t dst,
                        uint32_t page_size)
{
    const uint64_t W = SB_CACHESIM_LINE_WRITE;
    const struct op_lines o = *lines; /* in locals: the entries' stores may alias it */
    const bool vacuum = op->pass == sb_heap_vacuum;
    const uint32_t n = sb_page_nitems(src);
    uint64_t live = 0, entry[BATCH_LINES], *end = entry;
    bool pruned = false;

    _Static_assert(SB_T_INFOMASK + 2 - SB_T_XMAX <= SB_CACHESIM_MIN_LINE + 2 &&
                   SB_LINE_POINTER_SIZE <= SB_CACHESIM_MIN_LINE, "no access spans 3 lines");
    end = add_lines(end, &o, dst + SB_PD_LOWER, 2, 0);
    for (uint32_t i = 0; i < n; i++) {
        const uint64_t lp = dst + SB_PAGE_HEADER_SIZE + (uint64_t)i * SB_LINE_POINTER_SIZE;
        uint32_t off, flags, len;
        bool is_live;

        if (end > entry + BATCH_LINES - TUPLE_MAX_LINES) {
            sb_cachesim_access_lines(sim, entry, (size_t)(end - entry));
            end = entry;
        }
        end = add_line(end, &o, lp >> o.line_shift, 0); /* aligned: in one line */
        sb_page_item(src, i, &off, &flags, &len);
        if (flags != SB_LP_NORMAL || off + SB_TUPLE_HEADER_SIZE > page_size)
            continue;
        end = add_lines(end, &o, dst + off + SB_T_XMAX, SB_T_INFOMASK + 2 - SB_T_XMAX, 0);
        is_live = tuple_is_live(src, off);
        live += is_live;
        if (!vacuum)
            continue;
        if (is_live) {
            end = add_lines(end, &o, dst + off + SB_T_INFOMASK, 2, W); /* hint bits */
        } else {
            end = add_line(end, &o, lp >> o.line_shift, W); /* unused */
            pruned = true;
        }
    }
    if (vacuum) {
        if (pruned)
            end = add_lines(end, &o, dst + SB_PD_FLAGS, 2, W); /* pd_flags |= ... */
        end = add_lines(end, &o, dst + 20, 4, W);              /* pd_prune_xid = 0 */
    }
    sb_cachesim_access_lines(sim, entry, (size_t)(end - entry));
    return live;
}

uint64_t sb_sim_feed_scan(struct sb_cachesim *sim, const struct sb_scan_trace *t)
{
    const struct sb_run_params *run = t->run;
    const uint32_t page_size = t->ioc->page_size;
    const bool temporal = run->kernel->temporal;
    uint64_t live = 0;
    struct op_lines lines;

    lines.line_shift = (unsigned)__builtin_ctz(sb_cachesim_line_size(sim));
    sb_cachesim_slice_of(sim, &lines.slice_shift, &lines.slice_index);
    lines.slice_mask = (1ull << lines.slice_shift) - 1;

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
            live += feed_op(sim, &lines, run->op, src_page, dst, page_size);
    }
    return live;
}

struct sb_sim_model {
    unsigned nslices;
    struct sb_cachesim *slice[MAX_SLICES];
};

/* One slice's replay of one scan, on its own thread. */
struct slice_job {
    struct sb_cachesim *sim;
    const struct sb_scan_trace *trace;
    struct sb_cachesim_counts counts;
    uint64_t live;
};

static void *slice_replay(void *arg)
{
    struct slice_job *job = arg;

    sb_cachesim_reset_counts(job->sim);
    job->live = sb_sim_feed_scan(job->sim, job->trace);
    sb_cachesim_read_counts(job->sim, &job->counts);
    return NULL;
}

unsigned sb_sim_default_slices(void)
{
    cpu_set_t cpus;
    unsigned n = 1;
    int count;

    if (sched_getaffinity(0, sizeof cpus, &cpus) != 0)
        return 1;
    count = CPU_COUNT(&cpus);
    while (n * 2 <= (unsigned)count && n * 2 <= MAX_SLICES)
        n *= 2;
    return n;
}

int sb_sim_slices_wanted(unsigned *slices, struct sb_error *err)
{
    const char *v = getenv("SCANBENCH_SIM_THREADS");
    uint64_t n;

    *slices = sb_sim_default_slices();
    if (!v)
        return SB_OK;
    if (!sb_parse_uint(v, &n) || n < 1 || n > 64)
        return sb_fail(err, SB_ERR_INPUT, "SCANBENCH_SIM_THREADS=%s: not a number of threads "
                       "from 1 to 64", v);
    *slices = (unsigned)n;
    return SB_OK;
}

int sb_sim_model_create(const struct sb_cachesim_config *cfg, unsigned want_slices,
                        struct sb_sim_model **out, struct sb_error *err)
{
    struct sb_sim_model *m;
    unsigned shift = 0, max_shift = sb_cachesim_max_slice_shift(cfg);
    int status = SB_OK;

    *out = NULL;
    while (shift < max_shift && 2u << shift <= want_slices)
        shift++;
    m = calloc(1, sizeof *m);
    if (!m)
        return sb_fail(err, SB_ERR_RUN, "out of memory for the cache model");
    m->nslices = 1u << shift;
    for (unsigned i = 0; i < m->nslices && status == SB_OK; i++)
        status = sb_cachesim_create_slice(cfg, shift, i, &m->slice[i], err);
    if (status == SB_OK)
        *out = m;
    else
        sb_sim_model_destroy(m);
    return status;
}

void sb_sim_model_destroy(struct sb_sim_model *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->nslices; i++)
        sb_cachesim_destroy(m->slice[i]);
    free(m);
}

unsigned sb_sim_model_slices(const struct sb_sim_model *m) { return m->nslices; }

uint64_t sb_sim_model_replay(struct sb_sim_model *m, const struct sb_scan_trace *trace,
                             struct sb_cachesim_counts *counts)
{
    struct slice_job jobs[MAX_SLICES];
    pthread_t thread[MAX_SLICES];
    bool threaded[MAX_SLICES] = {false};

    for (unsigned i = 0; i < m->nslices; i++)
        jobs[i] = (struct slice_job){.sim = m->slice[i], .trace = trace};
    for (unsigned i = 1; i < m->nslices; i++)
        threaded[i] = pthread_create(&thread[i], NULL, slice_replay, &jobs[i]) == 0;
    /* slice 0 here, and any slice whose thread could not start (the same counts, later) */
    for (unsigned i = 0; i < m->nslices; i++)
        if (!threaded[i])
            slice_replay(&jobs[i]);
    memset(counts, 0, sizeof *counts);
    for (unsigned i = 0; i < m->nslices; i++) {
        if (threaded[i])
            pthread_join(thread[i], NULL);
        sb_cachesim_counts_add(counts, &jobs[i].counts);
    }
    return jobs[0].live;
}

size_t sb_sim_model_state_bytes(const struct sb_sim_model *m)
{
    size_t bytes = sizeof *m;

    for (unsigned i = 0; i < m->nslices; i++)
        bytes += sb_cachesim_state_bytes(m->slice[i]);
    return bytes;
}

uint64_t sb_sim_model_lines(const struct sb_sim_model *m)
{
    uint64_t lines = 0;

    for (unsigned i = 0; i < m->nslices; i++)
        lines += sb_cachesim_lines(m->slice[i]);
    return lines;
}
