/* SPDX-License-Identifier: BSD-3-Clause */
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
 * Slices: every thread walks the whole trace's copies and its slice keeps its own lines; the
 * op's walk of each page is shared (made once, each slice's lines in a list of its own); the
 * pages' streaming stores are whole lines, fenced after each page, which keeps the slices exact
 * (cachesim/model.h). */
#include "config.h"
#include "counters/sim_replay.h"

#include "cachesim/cachesim_model.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "vocab/vocab.h"

#define MAX_SLICES (1u << SB_CACHESIM_MAX_SLICE_SHIFT)

/* The op's line accesses, as the model's entries (sb_cachesim_access_lines: a line's distance
 * from the page's first line, in the slice's numbering): the lines of one slice, gathered and
 * fed to it a list at a time; or, for the slices' shared walk, every slice's lines in a list of
 * its own. The walk makes them from offsets in the page: it never needs the page's address. */
#define BATCH_LINES 512
#define TUPLE_MAX_LINES 6 /* a line pointer, a tuple header (two lines), a hint write (two), a
                          * line pointer write */

/* Which lines the model keeps, and how it numbers them (sb_cachesim_slice_of), and the line
 * size: what the op's walk needs to make the model's entries. For a shared walk, slice_mask
 * picks the slice a line goes to. */
struct op_lines {
    unsigned line_shift, slice_shift;
    uint64_t slice_mask, slice_index;
};

/* Where the walk puts the entries: end[0] up to limit[0] for one slice (fed to its model when
 * nearly full), end[j] up to limit[j] for slice j in a shared walk (overflow set when a list
 * is full: the walk is then of no use to that page). */
struct op_out {
    struct sb_cachesim *sim; /* one slice's model */
    uint64_t first;          /* the page's first line, in the slice's numbering */
    uint16_t *list[MAX_SLICES], *end[MAX_SLICES], *limit[MAX_SLICES];
    bool overflow;
};

/* The line of the page (its number in the page: a page starts a multiple of the slices' lines)
 * as an entry (a load, or a store if write is SB_CACHESIM_LINE_WRITE): of the one slice if it
 * keeps the line (split false), else of the line's slice. */
static inline void add_line(struct op_out *out, const struct op_lines *o, uint32_t line,
                            uint32_t write, const bool split)
{
    const uint16_t entry = (uint16_t)((line >> o->slice_shift) << SB_CACHESIM_ENTRY_SHIFT | write);

    if (!split) {
        if (((line ^ o->slice_index) & o->slice_mask) == 0)
            *out->end[0]++ = entry;
    } else {
        const uint64_t slice = line & o->slice_mask;
        if (out->end[slice] < out->limit[slice])
            *out->end[slice]++ = entry;
        else
            out->overflow = true;
    }
}

/* The lines of size bytes at offset in the page: at most two (size at most the smallest line
 * size). */
static inline void add_lines(struct op_out *out, const struct op_lines *o, uint32_t offset,
                             uint32_t size, uint32_t write, const bool split)
{
    const uint32_t line = offset >> o->line_shift, last = (offset + size - 1) >> o->line_shift;

    add_line(out, o, line, write, split);
    if (last != line)
        add_line(out, o, last, write, split);
}

/* Whether the op stores hint bits into the tuple at off of page src (heap.c, after
 * PostgreSQL's tqual.c: HeapTupleSatisfiesMVCC for count, HeapTupleSatisfiesVacuum under
 * vacuum, each followed by SetBufferCommitInfoNeedsSave): count, when t_infomask lacks
 * XMIN_COMMITTED and XMAX_COMMITTED (deleted: t_xmax set) or XMAX_INVALID; vacuum, when a live
 * tuple lacks XMIN_COMMITTED or XMAX_INVALID, a dead one XMIN_COMMITTED or XMAX_COMMITTED. */
static inline bool tuple_gets_hint(const uint8_t *src, uint32_t off, bool vacuum, bool is_live)
{
    const uint16_t infomask = sb_tuple_infomask(src, off);
    const uint16_t want =
        !vacuum ? sb_tuple_hint_want(sb_tuple_xmax(src, off))
        : is_live ? SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_INVALID
                  : SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_COMMITTED;
    return (infomask & want) != want;
}

/* Whether the op (kind) leaves page src dirty: count when some tuple gets hint bits (a `set`
 * table never); vacuum when some tuple gets hint bits or is dead (pruned), or pd_prune_xid is
 * set (cleared); vacuum-dirty always. The walk's verdict, without its accesses. */
static bool op_dirties(const struct sb_op *op, const uint8_t *src, uint32_t page_size)
{
    const uint32_t n = sb_page_nitems(src);
    const bool vacuum = op->kind == SB_OP_KIND_VACUUM;
    uint32_t off;

    if (op->kind == SB_OP_KIND_NONE)
        return false;
    if (op->dirties_always)
        return true;
    if (vacuum && sb_load32(src + SB_PD_PRUNE_XID) != 0)
        return true;
    for (uint32_t i = 0; i < n; i++) {
        bool is_live;
        if (!sb_page_tuple(src, i, page_size, &off))
            continue;
        is_live = sb_tuple_is_live(src, off);
        if ((vacuum && !is_live) || tuple_gets_hint(src, off, vacuum, is_live))
            return true;
    }
    return false;
}

/* How walk_op walks an op: count's accesses, vacuum's, or vacuum-dirty's (vacuum's with a store
 * into every live tuple's t_infomask and pd_prune_xid). */
enum { WALK_COUNT, WALK_VACUUM, WALK_VACUUM_DIRTY };

static unsigned walk_mode(const struct sb_op *op)
{
    if (op->kind != SB_OP_KIND_VACUUM)
        return WALK_COUNT;
    return op->dirties_always ? WALK_VACUUM_DIRTY : WALK_VACUUM;
}

/* The op's accesses to its page, in the order heap.c makes them, walked on the source page src
 * (what the op saw: the copy is exact). count: pd_lower, then per line pointer its 4
 * bytes and, for a normal one, the tuple header bytes read (t_xmax at +4 .. t_infomask at +21),
 * then t_infomask written if the tuple lacks its hint bits (tuple_gets_hint).
 * vacuum: the same reads and hint writes (its own wants), then a dead tuple's line pointer
 * written (unused); at the end pd_flags written (if it pruned), pd_prune_xid read and written
 * (if set). vacuum-dirty: every live tuple's t_infomask written, pd_prune_xid written, unread.
 * split false: fed to out->sim (whose slice o is); true: into every slice's list. Returns the
 * live tuples; *dirtied: whether the op stored into the page. */
static inline __attribute__((always_inline)) uint64_t
walk_op(struct op_out *out, const struct op_lines *lines, unsigned mode, const uint8_t *src,
        uint32_t page_size, const bool split, bool *dirtied)
{
    const bool vacuum = mode != WALK_COUNT, always = mode == WALK_VACUUM_DIRTY;
    const uint32_t W = SB_CACHESIM_LINE_WRITE;
    const struct op_lines o = *lines; /* in locals: the entries' stores may alias it */
    const uint32_t n = sb_page_nitems(src);
    uint64_t live = 0;
    bool pruned = false, hinted = false;

    _Static_assert(SB_T_INFOMASK + 2 - SB_T_XMAX <= SB_CACHESIM_MIN_LINE + 2 &&
                   SB_LINE_POINTER_SIZE <= SB_CACHESIM_MIN_LINE, "no access spans 3 lines");
    add_lines(out, &o, SB_PD_LOWER, 2, 0, split);
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t lp = SB_PAGE_HEADER_SIZE + i * SB_LINE_POINTER_SIZE;
        uint32_t off;
        bool is_live;

        if (!split && out->end[0] > out->limit[0] - TUPLE_MAX_LINES) {
            sb_cachesim_access_lines(out->sim, out->first, out->list[0],
                                     (size_t)(out->end[0] - out->list[0]));
            out->end[0] = out->list[0];
        }
        add_line(out, &o, lp >> o.line_shift, 0, split); /* aligned: in one line */
        if (!sb_page_tuple(src, i, page_size, &off)) /* as the passes decide it */
            continue;
        add_lines(out, &o, off + SB_T_XMAX, SB_T_INFOMASK + 2 - SB_T_XMAX, 0, split);
        is_live = sb_tuple_is_live(src, off);
        live += is_live;
        if ((always && is_live) || tuple_gets_hint(src, off, vacuum, is_live)) {
            add_lines(out, &o, off + SB_T_INFOMASK, 2, W, split); /* hint bits */
            hinted = true;
        }
        if (vacuum && !is_live) {
            add_line(out, &o, lp >> o.line_shift, W, split); /* unused */
            pruned = true;
        }
    }
    if (vacuum) {
        if (pruned)
            add_lines(out, &o, SB_PD_FLAGS, 2, W, split);     /* pd_flags |= ... */
        if (!always)
            add_lines(out, &o, SB_PD_PRUNE_XID, 4, 0, split); /* pd_prune_xid read */
        if (always || sb_load32(src + SB_PD_PRUNE_XID) != 0) {
            add_lines(out, &o, SB_PD_PRUNE_XID, 4, W, split); /* pd_prune_xid = 0 */
            hinted = true;
        }
    }
    *dirtied = hinted || pruned || always;
    return live;
}

/* Page block of the table (what the op walks), and where the model sees the pool buffer it
 * was copied into. */
static const uint8_t *table_page(const struct sb_scan_trace *t, uint64_t block)
{
    return t->pages + block * t->page_size;
}

static uint64_t pool_address(const struct sb_scan_trace *t, uint64_t block)
{
    return SB_SIM_POOL_BASE + (uint64_t)t->victims[block] * t->page_size;
}

/* The first line of the pool buffer of page block, in the slice's numbering: what the op's
 * entries count from. */
static uint64_t first_line(const struct sb_scan_trace *t, uint64_t block,
                           const struct op_lines *lines)
{
    return pool_address(t, block) >> lines->line_shift >> lines->slice_shift;
}

/* The op's walk of page block, fed to sim (a slice, or the whole model); *dirtied: whether the
 * op stored into the page. */
static uint64_t feed_op(struct sb_cachesim *sim, const struct op_lines *lines, unsigned mode,
                        const struct sb_scan_trace *t, uint64_t block, bool *dirtied)
{
    uint16_t entry[BATCH_LINES];
    uint64_t live;
    struct op_out out;

    out.sim = sim;
    out.first = first_line(t, block, lines);
    out.list[0] = out.end[0] = entry;
    out.limit[0] = entry + BATCH_LINES;
    live = walk_op(&out, lines, mode, table_page(t, block), t->page_size, false, dirtied);
    sb_cachesim_access_lines(sim, out.first, entry, (size_t)(out.end[0] - entry));
    return live;
}

/* What the walk of sim's slice needs. */
static void op_lines_of(struct sb_cachesim *sim, struct op_lines *lines)
{
    lines->line_shift = (unsigned)__builtin_ctz(sb_cachesim_line_size(sim));
    sb_cachesim_slice_of(sim, &lines->slice_shift, &lines->slice_index);
    lines->slice_mask = (1ull << lines->slice_shift) - 1;
}

/* Page block's copy (and, for a bigtable, its DMA), as sb_sim_feed_scan feeds it. */
static void feed_copy(struct sb_cachesim *sim, const struct sb_scan_trace *t, uint64_t block)
{
    const uint32_t page_size = t->page_size;
    const bool temporal = t->temporal;
    const uint64_t src = SB_SIM_IOCACHE_BASE + block * page_size, dst = pool_address(t, block);

    /* a bigtable page arrives by the device's DMA: written to memory, out of every cache
     * (streamed line by line, then fenced) */
    if (t->bigtable) {
        sb_cachesim_stream_store(sim, src, page_size);
        sb_cachesim_fence(sim);
    }
    /* a half kernel: the source page loaded and its fold stored into the buffer's first line,
     * or the buffer stored whole */
    if (t->side == SB_KERNEL_READ) {
        sb_cachesim_access(sim, src, page_size, false);
        sb_cachesim_access(sim, dst, 8, true);
        return;
    }
    if (t->side == SB_KERNEL_WRITE) {
        sb_cachesim_access(sim, dst, page_size, true);
        return;
    }
    /* the copy, one source line then the destination line, through the page */
    sb_cachesim_copy(sim, src, dst, page_size, !temporal);
    if (!temporal)
        sb_cachesim_fence(sim);
}

/* --- the write-back ---------------------------------------------------------------------------
 * The replay keeps, per pool buffer, the block it holds (its tenant) and whether it is dirty;
 * a dirty buffer is copied back to its tenant's IO cache page before a page is copied into it
 * (writeback evict and checkpoint), and every checkpoint_pages pages (checkpoint) every dirty
 * buffer is, in buffer order, after that page's op. At the start of a scan each buffer's
 * tenant is the last block the trace put in it and it is dirty as the op left that page unless
 * a checkpoint came after it (what the same scan leaves for the next: the steady state of the
 * timed scans, whose replays then agree with each other). */
#define NO_TENANT UINT64_MAX

struct pool_state {
    uint32_t nbuffers;
    uint64_t *tenant; /* [nbuffers]: a block, or NO_TENANT */
    uint8_t *dirty;   /* [nbuffers] */
};

/* Every how many pages the trace's checkpoints write the dirty buffers (0: no checkpoints;
 * checkpoint_pages 0 stands for auto, the pool's buffers). */
static uint32_t checkpoint_every(const struct sb_scan_trace *t, uint32_t nbuffers)
{
    if (t->writeback != SB_WRITEBACK_CHECKPOINT)
        return 0;
    return t->checkpoint_pages ? t->checkpoint_pages : nbuffers;
}

/* The buffers the trace's pool has: its nbuffers, or more if a victim lies beyond. */
static uint32_t trace_buffers(const struct sb_scan_trace *t)
{
    uint32_t n = t->nbuffers;

    for (uint64_t block = 0; block < t->npages; block++)
        if (t->victims[block] >= n)
            n = t->victims[block] + 1;
    return n;
}

static void pool_state_free(struct pool_state *ps)
{
    free(ps->tenant);
    free(ps->dirty);
    ps->tenant = NULL;
    ps->dirty = NULL;
}

static int pool_state_alloc(struct pool_state *ps, uint32_t nbuffers, struct sb_error *err)
{
    ps->nbuffers = nbuffers;
    ps->tenant = calloc(nbuffers ? nbuffers : 1, sizeof *ps->tenant);
    ps->dirty = calloc(nbuffers ? nbuffers : 1, sizeof *ps->dirty);
    if (ps->tenant && ps->dirty)
        return SB_OK;
    pool_state_free(ps);
    return sb_fail(err, SB_ERR_RUN, "out of memory for the cache model's pool of %u buffers",
                   nbuffers);
}

/* The buffers as a replayed scan finds them (see above): with checkpoints every n pages
 * (checkpoint_pages, 0: none), a buffer whose last page came before the scan's last
 * checkpoint (after page (npages / n) * n - 1, the replay counting pages from each scan's
 * start) was cleaned by it. */
static void pool_state_start(struct pool_state *ps, const struct sb_scan_trace *t,
                             uint32_t checkpoint_pages)
{
    const uint64_t cleaned = checkpoint_pages ? t->npages / checkpoint_pages * checkpoint_pages
                                              : 0; /* blocks below were checkpointed */

    for (uint32_t b = 0; b < ps->nbuffers; b++) {
        ps->tenant[b] = NO_TENANT;
        ps->dirty[b] = 0;
    }
    for (uint64_t block = 0; block < t->npages; block++)
        ps->tenant[t->victims[block]] = block;
    for (uint32_t b = 0; b < ps->nbuffers; b++)
        if (ps->tenant[b] != NO_TENANT && ps->tenant[b] >= cleaned)
            ps->dirty[b] = op_dirties(t->op, table_page(t, ps->tenant[b]), t->page_size);
}

static void pool_state_copy(struct pool_state *to, const struct pool_state *from)
{
    memcpy(to->tenant, from->tenant, from->nbuffers * sizeof *from->tenant);
    memcpy(to->dirty, from->dirty, from->nbuffers * sizeof *from->dirty);
}

/* Solaris 10's xcopyin_nta (kernel solaris-nta, vocab/kernel.c) of len bytes, line by line:
 * each 16-byte step prefetches src + 256 with prefetchnta, loads the source and stores the
 * destination with movnti; the steps of one line prefetch one line (256 is a multiple of
 * every line size), load one and fill one WC buffer whole. So per line: the prefetchnta of the
 * line 256 bytes ahead (past the end of the source for the last ones, as the real loop
 * does), the source line loaded, the destination line streamed; an mfence at the end. */
static void feed_copy_nta(struct sb_cachesim *sim, uint64_t src, uint64_t dst, uint64_t len)
{
    const uint32_t line = sb_cachesim_line_size(sim);

    for (uint64_t off = 0; off < len; off += line) {
        sb_cachesim_prefetch_nta(sim, src + off + 256);
        sb_cachesim_access(sim, src + off, line, false);
        sb_cachesim_stream_store(sim, dst + off, line);
    }
    sb_cachesim_fence(sim);
}

/* Buffer's write-back to its tenant's IO cache page with the trace's write-back kernel: a
 * temporal one (and pwrite, the kernel's copy_from_user, and none named) as a temporal copy,
 * `nt` streamed and fenced, solaris-nta as feed_copy_nta where Solaris takes xcopyin_nta (at
 * least 128 bytes, a multiple of 16: every page), else as its plain copy. */
static void feed_writeback(struct sb_cachesim *sim, const struct sb_scan_trace *t,
                           uint32_t buffer, uint64_t tenant)
{
    const struct sb_kernel *k = t->writeback_kernel;
    const uint64_t len = t->page_size;
    const uint64_t src = SB_SIM_POOL_BASE + (uint64_t)buffer * len;
    const uint64_t dst = SB_SIM_IOCACHE_BASE + tenant * len;

    if (k && k->prefetch_nta && len >= 128 && len % 16 == 0) {
        feed_copy_nta(sim, src, dst, len);
    } else if (!k || k->temporal || k->prefetch_nta) {
        sb_cachesim_copy(sim, src, dst, len, false);
    } else {
        sb_cachesim_copy(sim, src, dst, len, true);
        sb_cachesim_fence(sim);
    }
}

/* --- phases -----------------------------------------------------------------------------------
 * The counts of a scan split by what the model was fed: each phase's are the counts' growth
 * while its accesses were fed (read at each change of phase), so the phases add up to the
 * scan's counts exactly. */
struct phase_split {
    struct sb_cachesim_counts *phase; /* [SB_NPHASES], or NULL: not split */
    struct sb_cachesim_counts last;   /* the counts at the last change */
    unsigned current;
};

static void phase_start(struct phase_split *ps, struct sb_cachesim *sim,
                        struct sb_cachesim_counts *phases)
{
    ps->phase = phases;
    ps->current = SB_PHASE_COPY_IN;
    if (!phases)
        return;
    memset(phases, 0, SB_NPHASES * sizeof *phases);
    sb_cachesim_read_counts(sim, &ps->last);
}

/* The counts since the last change go to the current phase; next is current from now on. */
static void phase_close(struct phase_split *ps, struct sb_cachesim *sim, unsigned next)
{
    struct sb_cachesim_counts now, diff;

    sb_cachesim_read_counts(sim, &now);
    sb_cachesim_counts_sub(&diff, &now, &ps->last);
    sb_cachesim_counts_add(&ps->phase[ps->current], &diff);
    ps->last = now;
    ps->current = next;
}

static inline void phase_enter(struct phase_split *ps, struct sb_cachesim *sim, unsigned next)
{
    if (ps->phase && ps->current != next)
        phase_close(ps, sim, next);
}

static void phase_end(struct phase_split *ps, struct sb_cachesim *sim)
{
    if (ps->phase)
        phase_close(ps, sim, ps->current);
}

/* --- one scan -------------------------------------------------------------------------------- */

/* What the feed of one scan to one model (a slice or the whole) keeps. */
struct scan_feed {
    struct sb_cachesim *sim;
    const struct sb_scan_trace *t;
    struct op_lines lines; /* the model's own */
    unsigned vacuum; /* walk_mode */
    struct pool_state *pool; /* NULL with writeback none */
    uint32_t checkpoint_pages; /* 0: no checkpoints */
    struct phase_split split;
};

static void scan_feed_start(struct scan_feed *f, struct sb_cachesim *sim,
                            const struct sb_scan_trace *t, struct pool_state *pool,
                            struct sb_cachesim_counts *phases)
{
    f->sim = sim;
    f->t = t;
    op_lines_of(sim, &f->lines);
    f->vacuum = walk_mode(t->op);
    f->pool = t->writeback != SB_WRITEBACK_NONE ? pool : NULL;
    f->checkpoint_pages = f->pool ? checkpoint_every(t, pool->nbuffers) : 0;
    phase_start(&f->split, sim, phases);
}

static void write_back(struct scan_feed *f, uint32_t buffer)
{
    phase_enter(&f->split, f->sim, SB_PHASE_WRITEBACK);
    feed_writeback(f->sim, f->t, buffer, f->pool->tenant[buffer]);
    f->pool->dirty[buffer] = 0;
}

/* Page block's way in: its buffer written back first if dirty, then the copy. */
static void feed_page_in(struct scan_feed *f, uint64_t block)
{
    const uint32_t buffer = f->t->victims[block];

    if (f->pool && f->pool->dirty[buffer])
        write_back(f, buffer);
    phase_enter(&f->split, f->sim, SB_PHASE_COPY_IN);
    feed_copy(f->sim, f->t, block);
    if (f->pool)
        f->pool->tenant[buffer] = block;
}

/* After page block's op (dirtied: whether it stored into the page): the buffer's dirty bit,
 * and a checkpoint when it is due. */
static void feed_page_done(struct scan_feed *f, uint64_t block, bool dirtied)
{
    if (!f->pool)
        return;
    f->pool->dirty[f->t->victims[block]] |= dirtied;
    if (f->checkpoint_pages && (block + 1) % f->checkpoint_pages == 0)
        for (uint32_t b = 0; b < f->pool->nbuffers; b++)
            if (f->pool->dirty[b])
                write_back(f, b);
}

/* sb_sim_feed_scan's loop, with the pool's state (NULL: writeback none) and the phases (NULL:
 * not split). */
static uint64_t feed_scan(struct sb_cachesim *sim, const struct sb_scan_trace *t,
                          struct pool_state *pool, struct sb_cachesim_counts *phases)
{
    uint64_t live = 0;
    struct scan_feed f;

    scan_feed_start(&f, sim, t, pool, phases);
    for (uint64_t block = 0; block < t->npages; block++) {
        bool dirtied = false;
        feed_page_in(&f, block);
        if (t->op->pass) {
            phase_enter(&f.split, sim, SB_PHASE_OP);
            live += feed_op(sim, &f.lines, f.vacuum, t, block, &dirtied);
        }
        feed_page_done(&f, block, dirtied);
    }
    phase_end(&f.split, sim);
    return live;
}

int sb_sim_feed_scan_phases(struct sb_cachesim *sim, const struct sb_scan_trace *t,
                            struct sb_cachesim_counts *phases, uint64_t *live,
                            struct sb_error *err)
{
    struct pool_state pool = {0, NULL, NULL};
    int status = SB_OK;

    if (t->writeback != SB_WRITEBACK_NONE) {
        status = pool_state_alloc(&pool, trace_buffers(t), err);
        if (status != SB_OK)
            return status;
        pool_state_start(&pool, t, checkpoint_every(t, pool.nbuffers));
    }
    *live = feed_scan(sim, t, t->writeback != SB_WRITEBACK_NONE ? &pool : NULL, phases);
    pool_state_free(&pool);
    return status;
}

uint64_t sb_sim_feed_scan(struct sb_cachesim *sim, const struct sb_scan_trace *t)
{
    struct sb_error err = {0};
    uint64_t live;

    return sb_sim_feed_scan_phases(sim, t, NULL, &live, &err) == SB_OK ? live : UINT64_MAX;
}

/* --- the slices' shared walk ------------------------------------------------------------------
 * The op's walk of a page is the same for every slice but for which lines each keeps: made
 * once, by whichever slice's thread claims the page (CLAIM_PAGES at a time, at most WALK_AHEAD
 * pages ahead of its own replay), into a list per slice, in a ring of RING_PAGES pages. Each
 * slice replays the page's copy, then its own list. A page whose list for some slice would not
 * fit (PAGE_ENTRIES / slices) is walked by each slice on its own, as without sharing. The ring is
 * reused once every slice has replayed the page it held; a claim waits for that, never for a
 * page claimed after it (RING_PAGES >= WALK_AHEAD + CLAIM_PAGES), so no thread waits for
 * itself. */
#define RING_PAGES 32
#define WALK_AHEAD 8
#define CLAIM_PAGES 4
#define PAGE_ENTRIES 1024 /* a page's, shared out evenly between the slices' lists */
_Static_assert(RING_PAGES >= WALK_AHEAD + CLAIM_PAGES, "a claim never waits for a later one");

struct walked_page { /* on a host cache line of its own: its walker writes it while the next
                      * page's is read */
    _Alignas(SB_HOST_LINE) _Atomic uint64_t ready; /* the page's number + 1 once walked */
    uint64_t live;
    bool overflow; /* a slice's list did not fit: each slice walks the page itself */
    bool dirtied;  /* the op stored into the page */
    uint32_t n[MAX_SLICES];
};

struct shared_walk {
    const struct sb_scan_trace *trace;
    struct op_lines lines; /* the whole model's, with slice_mask = slices - 1 */
    unsigned nslices;
    unsigned vacuum; /* walk_mode */
    _Alignas(SB_HOST_LINE) _Atomic uint64_t next; /* the next page to claim */
    struct {
        _Alignas(SB_HOST_LINE) _Atomic uint64_t pages; /* pages the slice has replayed: each
                                                         * on a line of its own */
    } done[MAX_SLICES];
    _Alignas(SB_HOST_LINE) struct walked_page page[RING_PAGES];
    uint16_t entries[]; /* [RING_PAGES][PAGE_ENTRIES]: each slice's list, PAGE_ENTRIES / nslices */
};

struct sb_sim_model {
    unsigned nslices;
    struct sb_cachesim *slice[MAX_SLICES];
    struct shared_walk *walk; /* the slices' shared walk (nslices > 1), set up at each replay */
    size_t walk_bytes;
};

static void wait_for(_Atomic uint64_t *value, uint64_t at_least)
{
    unsigned spins = 0;

    while (atomic_load_explicit(value, memory_order_acquire) < at_least)
        if (++spins % 64 == 0)
            sched_yield();
}

static uint16_t *slot_list(struct shared_walk *w, uint64_t page, unsigned slice)
{
    return w->entries + (page % RING_PAGES) * PAGE_ENTRIES + slice * (PAGE_ENTRIES / w->nslices);
}

/* Walks page into its place in the ring, once every slice is done with the page before. */
static void walk_shared(struct shared_walk *w, uint64_t page)
{
    const struct sb_scan_trace *t = w->trace;
    struct walked_page *wp = &w->page[page % RING_PAGES];
    struct op_out out;
    bool dirtied;

    if (page >= RING_PAGES)
        for (unsigned k = 0; k < w->nslices; k++)
            wait_for(&w->done[k].pages, page + 1 - RING_PAGES);
    out.overflow = false;
    for (unsigned k = 0; k < w->nslices; k++) {
        out.list[k] = out.end[k] = slot_list(w, page, k);
        out.limit[k] = out.list[k] + PAGE_ENTRIES / w->nslices;
    }
    wp->live = walk_op(&out, &w->lines, w->vacuum, table_page(t, page), t->page_size, true,
                       &dirtied);
    wp->dirtied = dirtied;
    wp->overflow = out.overflow;
    for (unsigned k = 0; k < w->nslices; k++)
        wp->n[k] = (uint32_t)(out.end[k] - out.list[k]);
    atomic_store_explicit(&wp->ready, page + 1, memory_order_release);
}

/* Claims and walks the pages not yet claimed up to WALK_AHEAD pages past page. */
static void walk_ahead(struct shared_walk *w, uint64_t page)
{
    const uint64_t npages = w->trace->npages;

    for (;;) {
        uint64_t first = atomic_load_explicit(&w->next, memory_order_relaxed), stop;
        if (first >= npages || first >= page + WALK_AHEAD)
            return;
        stop = first + CLAIM_PAGES < npages ? first + CLAIM_PAGES : npages;
        if (!atomic_compare_exchange_weak_explicit(&w->next, &first, stop, memory_order_relaxed,
                                                   memory_order_relaxed))
            continue;
        for (uint64_t q = first; q < stop; q++)
            walk_shared(w, q);
    }
}

/* feed_scan for slice number slice (sim), with the op's walk shared. */
static uint64_t feed_scan_shared(struct shared_walk *w, struct sb_cachesim *sim, unsigned slice,
                                 struct pool_state *pool, struct sb_cachesim_counts *phases)
{
    const struct sb_scan_trace *t = w->trace;
    uint64_t live = 0;
    struct scan_feed f;

    scan_feed_start(&f, sim, t, pool, phases);
    for (uint64_t page = 0; page < t->npages; page++) {
        struct walked_page *wp = &w->page[page % RING_PAGES];
        bool dirtied;
        walk_ahead(w, page);
        wait_for(&wp->ready, page + 1);
        feed_page_in(&f, page);
        phase_enter(&f.split, sim, SB_PHASE_OP);
        if (wp->overflow) {
            live += feed_op(sim, &f.lines, w->vacuum, t, page, &dirtied);
        } else {
            sb_cachesim_access_lines(sim, first_line(t, page, &f.lines),
                                     slot_list(w, page, slice), wp->n[slice]);
            live += wp->live;
            dirtied = wp->dirtied;
        }
        feed_page_done(&f, page, dirtied);
        atomic_store_explicit(&w->done[slice].pages, page + 1, memory_order_release);
    }
    phase_end(&f.split, sim);
    return live;
}

/* --- slices on threads ----------------------------------------------------------------------- */

enum replay_mode {
    MODE_UNDECIDED,
    MODE_ALONE,  /* each slice walks the whole trace itself */
    MODE_SHARED, /* the slices share the op's walk: every slice's thread runs */
};

/* One slice's replay of one scan, on its own thread. */
struct slice_job {
    struct sb_cachesim *sim;
    unsigned index;
    const struct sb_scan_trace *trace;
    struct shared_walk *walk;
    _Atomic int *mode; /* set once every thread has started, or could not */
    struct pool_state *pool; /* the slice's own (writeback), else NULL */
    bool split;              /* phases wanted */
    struct sb_cachesim_counts counts, phases[SB_NPHASES];
    uint64_t live;
};

static void *slice_replay(void *arg)
{
    struct slice_job *job = arg;
    int mode;

    while ((mode = atomic_load_explicit(job->mode, memory_order_acquire)) == MODE_UNDECIDED)
        sched_yield();
    sb_cachesim_reset_counts(job->sim);
    if (mode == MODE_SHARED)
        job->live = feed_scan_shared(job->walk, job->sim, job->index, job->pool,
                                     job->split ? job->phases : NULL);
    else
        job->live = feed_scan(job->sim, job->trace, job->pool, job->split ? job->phases : NULL);
    sb_cachesim_read_counts(job->sim, &job->counts);
    return NULL;
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
    if (status == SB_OK && m->nslices > 1) {
        m->walk_bytes = sizeof *m->walk + (size_t)RING_PAGES * PAGE_ENTRIES * sizeof(uint16_t);
        m->walk_bytes = (m->walk_bytes + SB_HOST_LINE - 1) / SB_HOST_LINE * SB_HOST_LINE;
        m->walk = aligned_alloc(SB_HOST_LINE, m->walk_bytes); /* its counters' lines apart */
        if (!m->walk)
            status = sb_fail(err, SB_ERR_RUN, "out of memory for the cache model's slices");
    }
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
    free(m->walk);
    free(m);
}

unsigned sb_sim_model_slices(const struct sb_sim_model *m) { return m->nslices; }

/* The pools' states of a replay with write-back: pools[0] the scan's start (copied into the
 * others), pools[1 + i] slice i's own. */
static int pools_start(struct pool_state *pools, unsigned nslices,
                       const struct sb_scan_trace *trace, struct sb_error *err)
{
    const uint32_t nbuffers = trace_buffers(trace);
    int status = SB_OK;

    for (unsigned i = 0; i <= nslices && status == SB_OK; i++)
        status = pool_state_alloc(&pools[i], nbuffers, err);
    if (status != SB_OK)
        return status;
    pool_state_start(&pools[0], trace, checkpoint_every(trace, nbuffers));
    for (unsigned i = 1; i <= nslices; i++)
        pool_state_copy(&pools[i], &pools[0]);
    return SB_OK;
}

/* Runs the jobs: slices 1.. on threads of their own, slice 0 (and any slice whose thread did
 * not start) on the caller's; the walk shared only if every thread started. */
static void run_jobs(struct slice_job *jobs, unsigned nslices, bool shared, _Atomic int *mode)
{
    pthread_t thread[MAX_SLICES];
    bool threaded[MAX_SLICES] = {false}, all_started = true;

    for (unsigned i = 1; i < nslices; i++) {
        threaded[i] = pthread_create(&thread[i], NULL, slice_replay, &jobs[i]) == 0;
        all_started &= threaded[i];
    }
    /* shared only if every slice runs at once: a slice run later would wait for ever */
    atomic_store_explicit(mode, shared && all_started ? MODE_SHARED : MODE_ALONE,
                          memory_order_release);
    for (unsigned i = 0; i < nslices; i++)
        if (!threaded[i])
            slice_replay(&jobs[i]);
    for (unsigned i = 0; i < nslices; i++)
        if (threaded[i])
            pthread_join(thread[i], NULL);
}

int sb_sim_model_replay_phases(struct sb_sim_model *m, const struct sb_scan_trace *trace,
                               struct sb_cachesim_counts *counts,
                               struct sb_cachesim_counts *phases, uint64_t *live,
                               struct sb_error *err)
{
    struct slice_job jobs[MAX_SLICES];
    struct pool_state pools[MAX_SLICES + 1];
    const bool writeback = trace->writeback != SB_WRITEBACK_NONE;
    struct shared_walk *walk = NULL;
    _Atomic int mode = MODE_UNDECIDED;
    int status = SB_OK;

    memset(pools, 0, sizeof pools);
    if (writeback && (status = pools_start(pools, m->nslices, trace, err)) != SB_OK)
        goto out;
    /* the shared walk, when there is an op to walk and more than one slice: its counters and
     * the ring's pages (numbered from 0 again) start afresh */
    if (m->walk && trace->op->pass) {
        walk = m->walk;
        memset(walk, 0, sizeof *walk);
        walk->trace = trace;
        op_lines_of(m->slice[0], &walk->lines);
        walk->lines.slice_mask = m->nslices - 1;
        walk->lines.slice_index = 0;
        walk->nslices = m->nslices;
        walk->vacuum = walk_mode(trace->op);
    }
    for (unsigned i = 0; i < m->nslices; i++)
        jobs[i] = (struct slice_job){.sim = m->slice[i], .index = i, .trace = trace,
                                     .walk = walk, .mode = &mode,
                                     .pool = writeback ? &pools[1 + i] : NULL,
                                     .split = phases != NULL};
    run_jobs(jobs, m->nslices, walk != NULL, &mode);
    memset(counts, 0, sizeof *counts);
    if (phases)
        memset(phases, 0, SB_NPHASES * sizeof *phases);
    for (unsigned i = 0; i < m->nslices; i++) {
        sb_cachesim_counts_add(counts, &jobs[i].counts);
        for (unsigned p = 0; phases && p < SB_NPHASES; p++)
            sb_cachesim_counts_add(&phases[p], &jobs[i].phases[p]);
    }
    *live = jobs[0].live;
out:
    for (unsigned i = 0; i <= MAX_SLICES; i++)
        pool_state_free(&pools[i]);
    return status;
}

uint64_t sb_sim_model_replay(struct sb_sim_model *m, const struct sb_scan_trace *trace,
                             struct sb_cachesim_counts *counts)
{
    struct sb_error err = {0};
    uint64_t live;

    if (sb_sim_model_replay_phases(m, trace, counts, NULL, &live, &err) != SB_OK) {
        memset(counts, 0, sizeof *counts);
        return UINT64_MAX;
    }
    return live;
}

enum sb_cachesim_code sb_sim_model_code(const struct sb_sim_model *m)
{
    return sb_cachesim_code_of(m->slice[0]);
}

bool sb_sim_model_use_code(struct sb_sim_model *m, enum sb_cachesim_code code)
{
    for (unsigned i = 0; i < m->nslices; i++)
        if (!sb_cachesim_use_code(m->slice[i], code))
            return false; /* the first refuses, as the others would */
    return true;
}

size_t sb_sim_model_state_bytes(const struct sb_sim_model *m)
{
    size_t bytes = sizeof *m + m->walk_bytes;

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
