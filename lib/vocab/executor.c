/* executor.c: count and vacuum with PostgreSQL 8.1's and 8.2's per-tuple work (executor.h).
 * Every step is named after the function of the sources that does it; the sources are the
 * CVS mirror's branches (github adunstan/pg-cvs-mirror), cited as SOURCES_81 and SOURCES_82
 * below with file and function. The page's own stores are heap.c's, expression for
 * expression, so that each pass leaves the bytes its minimal op leaves. */
#include "config.h"
#include "vocab/executor.h"

#include <stdatomic.h>
#include <string.h>

#include "vocab/heap.h"

/* REL8_1_STABLE and REL8_2_STABLE of the mirror; doc/executor.md has the commits. */
#define MAX_HELD_LWLOCKS 100 /* lwlock.c: held_lwlocks[MAX_SIMUL_LWLOCKS] */
#define BM_MAX_USAGE_COUNT 5 /* buf_internals.h */
#define RESOWNER_BUFFERS 16  /* resowner.c: the array starts at 16 (ResourceOwnerEnlargeBuffers) */
#define FROZEN_XID 2u        /* transam.h: FrozenTransactionId */
#define FIRST_NORMAL_XID 3u  /* transam.h: FirstNormalTransactionId */
#define BM_DIRTY 0x01u       /* buf_internals.h */
#define BM_JUST_DIRTIED 0x04u
/* MaxHeapTuplesPerPage of a 32KB page (htup.h: BLCKSZ - page header over MAXALIGN(tuple
 * header) + line pointer): rs_vistuples' size */
#define MAX_TUPLES_PER_PAGE ((32768 - SB_PAGE_HEADER_SIZE) / (SB_MAXALIGN(SB_TUPLE_HEADER_SIZE) + \
                                                             SB_LINE_POINTER_SIZE))

/* The stand-ins (executor.h): one lock, one buffer, one resource owner, one slot, the
 * snapshot, the aggregate's call, the vacuum's statistics. */
struct lwlock {
    atomic_flag mutex; /* slock_t: tas() is `lock; xchgb` on x86 (s_lock.h) */
    bool release_ok;
    char exclusive;
    int shared;
    void *head;
};

struct buffer_desc {
    uint32_t rnode[3], block; /* BufferTag: RelFileNode and block number */
    uint16_t flags, usage_count;
    unsigned refcount;
    atomic_flag buf_hdr_lock;
    struct lwlock content_lock;
    int buf_id;
};

struct function_call_info {
    void *flinfo;
    void *context;
    void *resultinfo;
    bool isnull;
    short nargs;
    int64_t arg[2];
    bool argnull[2];
};
typedef int64_t (*pg_function)(struct function_call_info *);

struct exec_state {
    struct lwlock mapping_lock; /* BufMappingLock (8.1: one; 8.2: a partition's) */
    struct buffer_desc buf;
    int32_t private_refcount;   /* PrivateRefCount[buf_id] */
    int held_lwlocks[MAX_HELD_LWLOCKS];
    int num_held_lwlocks;
    int interrupt_holdoff;
    struct {
        int nbuffers, maxbuffers;
        int buffers[RESOWNER_BUFFERS];
    } owner;
    struct {
        const uint8_t *tuple;
        int buffer;
        bool should_free, isempty;
        int nvalid;
    } slot;
    struct {
        uint32_t xmin, xmax, xcnt, xip[4];
    } snapshot;
    struct function_call_info fcinfo;
    int64_t trans_value;
    struct {
        uint64_t tuples_returned; /* PgStat_TableEntry's t_tuples_returned */
    } tabentry;
    struct {
        uint64_t num_tuples, tups_vacuumed, nonempty_pages;
        uint32_t num_dead, max_dead, num_free, max_free;
        uint32_t dead[256];     /* ItemPointerData of the dead tuples (block, offset) */
        uint32_t free_pages[8]; /* PageFreeSpaceInfo: the pages' free space */
    } vac;
    uint32_t oldest_xmin, freeze_limit;
    bool relhasoids; /* the relation's rd_rel->relhasoids: false, the tables have none */
    uint32_t hashcode; /* the buffer tag's, as BufTableLookup takes it */
    uint16_t vistuples[MAX_TUPLES_PER_PAGE];
    struct sb_exec_steps *steps;
};

static int64_t int8inc(struct function_call_info *fcinfo);

/* A function call the compiler cannot see through (fmgr's fn_addr). */
static const pg_function volatile transition_function = int8inc;

/* --- locks (s_lock.h, lwlock.c REL8_1_STABLE) ------------------------------------------------ */

static inline void s_lock(struct exec_state *st, atomic_flag *lock)
{
    st->steps->spinlock_ops++;
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
        ; /* the stand-ins are never contended */
}

static inline void s_unlock(atomic_flag *lock)
{
    atomic_flag_clear_explicit(lock, memory_order_release);
}

/* LWLockAcquire(lockid, LW_SHARED or LW_EXCLUSIVE): HOLD_INTERRUPTS, the mutex, the counts,
 * the mutex released, the lock remembered in held_lwlocks. */
static __attribute__((noinline)) void lwlock_acquire(struct exec_state *st, struct lwlock *lock,
                                                     int id, bool exclusive)
{
    st->steps->lwlock_ops++;
    st->interrupt_holdoff++;
    s_lock(st, &lock->mutex);
    lock->release_ok = true;
    if (exclusive)
        lock->exclusive++;
    else
        lock->shared++;
    s_unlock(&lock->mutex);
    st->held_lwlocks[st->num_held_lwlocks++] = id;
}

/* LWLockRelease(lockid): the lock found in held_lwlocks from the end and removed, the mutex,
 * the counts, no waiter to wake, RESUME_INTERRUPTS. */
static __attribute__((noinline)) void lwlock_release(struct exec_state *st, struct lwlock *lock,
                                                     int id)
{
    int i;

    st->steps->lwlock_ops++;
    for (i = st->num_held_lwlocks; --i >= 0;)
        if (st->held_lwlocks[i] == id)
            break;
    st->num_held_lwlocks--;
    for (; i >= 0 && i < st->num_held_lwlocks; i++)
        st->held_lwlocks[i] = st->held_lwlocks[i + 1];
    s_lock(st, &lock->mutex);
    if (lock->exclusive > 0)
        lock->exclusive--;
    else
        lock->shared--;
    if (lock->head && lock->release_ok)
        lock->release_ok = false;
    s_unlock(&lock->mutex);
    st->interrupt_holdoff--;
}

/* --- buffers (bufmgr.c, buf_table.c, resowner.c REL8_1_STABLE) -------------------------------- */

static __attribute__((noinline)) void resowner_remember_buffer(struct exec_state *st, int b)
{
    st->steps->resowner_ops++;
    if (st->owner.nbuffers < st->owner.maxbuffers)
        st->owner.buffers[st->owner.nbuffers++] = b;
}

/* ResourceOwnerForgetBuffer: searched from the end (the newest first), the rest moved down. */
static __attribute__((noinline)) void resowner_forget_buffer(struct exec_state *st, int b)
{
    st->steps->resowner_ops++;
    for (int i = st->owner.nbuffers - 1; i >= 0; i--)
        if (st->owner.buffers[i] == b) {
            for (; i < st->owner.nbuffers - 1; i++)
                st->owner.buffers[i] = st->owner.buffers[i + 1];
            st->owner.nbuffers--;
            return;
        }
}

/* PinBuffer: the first pin of this backend takes the header spinlock, counts the pin and the
 * usage (up to BM_MAX_USAGE_COUNT); every pin counts in PrivateRefCount and the owner. */
static __attribute__((noinline)) void pin_buffer(struct exec_state *st, struct buffer_desc *buf)
{
    st->steps->pins++;
    if (st->private_refcount == 0) {
        s_lock(st, &buf->buf_hdr_lock);
        buf->refcount++;
        if (buf->usage_count < BM_MAX_USAGE_COUNT)
            buf->usage_count++;
        s_unlock(&buf->buf_hdr_lock);
    }
    st->private_refcount++;
    resowner_remember_buffer(st, buf->buf_id + 1);
}

/* IncrBufferRefCount: one more pin of a buffer this backend holds. */
static __attribute__((noinline)) void incr_buffer_refcount(struct exec_state *st, int buffer)
{
    st->steps->pins++;
    st->private_refcount++;
    resowner_remember_buffer(st, buffer);
}

/* ReleaseBuffer: the owner forgets it; the last private pin unpins (UnpinBuffer: the header
 * spinlock, refcount down). */
static __attribute__((noinline)) void release_buffer(struct exec_state *st, int buffer)
{
    st->steps->unpins++;
    resowner_forget_buffer(st, buffer);
    if (--st->private_refcount == 0) {
        s_lock(st, &st->buf.buf_hdr_lock);
        st->buf.refcount--;
        s_unlock(&st->buf.buf_hdr_lock);
    }
}

/* hash_any (hashfunc.c): Bob Jenkins' mix over the 16-byte BufferTag, as tag_hash calls it. */
#define MIX(a, b, c)                                                                          \
    do {                                                                                      \
        a -= b; a -= c; a ^= (c >> 13);                                                       \
        b -= c; b -= a; b ^= (a << 8);                                                        \
        c -= a; c -= b; c ^= (b >> 13);                                                       \
        a -= b; a -= c; a ^= (c >> 12);                                                       \
        b -= c; b -= a; b ^= (a << 16);                                                       \
        c -= a; c -= b; c ^= (b >> 5);                                                        \
        a -= b; a -= c; a ^= (c >> 3);                                                        \
        b -= c; b -= a; b ^= (a << 10);                                                       \
        c -= a; c -= b; c ^= (b >> 15);                                                       \
    } while (0)

static __attribute__((noinline)) uint32_t hash_any(const uint32_t *k, int words)
{
    uint32_t a = 0x9e3779b9u, b = 0x9e3779b9u, c = 3923095u; /* the golden ratio, a seed */

    for (; words >= 3; words -= 3, k += 3) {
        a += k[0];
        b += k[1];
        c += k[2];
        MIX(a, b, c);
    }
    c += 16;
    if (words > 0)
        a += k[0];
    MIX(a, b, c);
    return c;
}

/* ReadBuffer of a page already in the pool (bufmgr.c BufferAlloc's hit): BufMappingLock shared,
 * BufTableLookup (the tag hashed, the entry's key compared), PinBuffer, the lock released. */
static void read_buffer(struct exec_state *st, uint32_t block)
{
    uint32_t tag[4] = {st->buf.rnode[0], st->buf.rnode[1], st->buf.rnode[2], block};
    uint32_t key[4] = {st->buf.rnode[0], st->buf.rnode[1], st->buf.rnode[2], st->buf.block};

    st->steps->buffer_reads++;
    lwlock_acquire(st, &st->mapping_lock, 1, false);
    st->hashcode = hash_any(tag, 4);
    if (memcmp(tag, key, sizeof tag) == 0)
        pin_buffer(st, &st->buf);
    lwlock_release(st, &st->mapping_lock, 1);
}

/* SetBufferCommitInfoNeedsSave (bufmgr.c): a hint bit stored marks the buffer dirty under its
 * header spinlock, unless it is already. */
static void set_buffer_commit_info_needs_save(struct exec_state *st)
{
    if ((st->buf.flags & (BM_DIRTY | BM_JUST_DIRTIED)) != (BM_DIRTY | BM_JUST_DIRTIED)) {
        s_lock(st, &st->buf.buf_hdr_lock);
        st->buf.flags |= BM_DIRTY | BM_JUST_DIRTIED;
        s_unlock(&st->buf.buf_hdr_lock);
    }
}

/* --- the executor's state for one page --------------------------------------------------- */

/* The state a scan keeps, as it is when the page's turn comes (set field by field: the
 * arrays are written before they are read). */
static void exec_begin(struct exec_state *st, struct sb_exec_steps *steps)
{
    st->steps = steps;
    st->mapping_lock = (struct lwlock){.mutex = ATOMIC_FLAG_INIT};
    st->buf = (struct buffer_desc){.rnode = {1663, 10793, 16384}, .refcount = 1,
                                   .buf_hdr_lock = ATOMIC_FLAG_INIT,
                                   .content_lock = {.mutex = ATOMIC_FLAG_INIT}};
    st->private_refcount = 0;
    st->num_held_lwlocks = 0;
    st->interrupt_holdoff = 0;
    st->owner.nbuffers = 0;
    st->owner.maxbuffers = RESOWNER_BUFFERS;
    st->slot.tuple = NULL;
    st->slot.buffer = 0;
    st->slot.isempty = true;
    st->snapshot.xmin = st->snapshot.xmax = SB_XID_DELETE + 1; /* after every generated xact */
    st->snapshot.xcnt = 0;
    st->fcinfo = (struct function_call_info){0};
    st->trans_value = 0;
    st->tabentry.tuples_returned = 0;
    st->oldest_xmin = SB_XID_DELETE + 1;
    /* 8.1: OldestXmin - (MaxTransactionId >> 2) wrapped: no generated xid precedes it */
    st->freeze_limit = FIRST_NORMAL_XID;
    st->relhasoids = false;
    st->vac.num_tuples = st->vac.tups_vacuumed = st->vac.nonempty_pages = 0;
    st->vac.num_dead = st->vac.num_free = 0;
    st->vac.max_dead = sizeof st->vac.dead / sizeof st->vac.dead[0];
    st->vac.max_free = sizeof st->vac.free_pages / sizeof st->vac.free_pages[0];
    st->steps->pages++;
}

/* TransactionIdDidCommit for a tuple without its hint (transam.c through the clog): every
 * generated transaction committed; the lookup's work is a load of its status. */
static bool transaction_did_commit(uint32_t xid)
{
    static const volatile uint8_t clog[4] = {1, 1, 1, 1}; /* TRANSACTION_STATUS_COMMITTED */
    return xid != 0 && clog[xid & 3] == 1;
}

/* The hint bits a visibility test stores, heap.c's expression (want); stored once, with
 * SetBufferCommitInfoNeedsSave, where some are missing. */
static bool store_hints(struct exec_state *st, uint8_t *tup, uint16_t infomask, uint16_t want)
{
    if ((infomask & want) == want)
        return false;
    uint16_t v = (uint16_t)(infomask | want);
    memcpy(tup + SB_T_INFOMASK, &v, 2);
    set_buffer_commit_info_needs_save(st);
    return true;
}

/* HeapTupleSatisfiesSnapshot (tqual.c, REL8_1_STABLE; HeapTupleSatisfiesMVCC in 8.2): the
 * inserter committed (its hint, or the clog), not in the snapshot (xmin against the snapshot's
 * xmin, xmax and xip), then the deleter: none (XMAX_INVALID), or committed and not in the
 * snapshot: not visible. Its hint stores are heap.c's count's. */
static bool satisfies_snapshot(struct exec_state *st, uint8_t *page, uint32_t off, bool *stored)
{
    uint8_t *tup = page + off;
    uint16_t infomask = sb_tuple_infomask(page, off);
    uint32_t xmin = sb_load32(tup), xmax = sb_tuple_xmax(page, off);
    bool visible = sb_tuple_is_live(page, off);

    st->steps->visibility_tests++;
    if (!(infomask & SB_HEAP_XMIN_COMMITTED) && !transaction_did_commit(xmin))
        visible = false;
    if (xmin >= st->snapshot.xmin) {
        if (xmin >= st->snapshot.xmax)
            visible = false;
        for (uint32_t i = 0; i < st->snapshot.xcnt; i++)
            if (xmin == st->snapshot.xip[i])
                visible = false;
    }
    if (!(infomask & SB_HEAP_XMAX_INVALID) && !(infomask & SB_HEAP_XMAX_COMMITTED))
        (void)transaction_did_commit(xmax);
    *stored |= store_hints(st, tup, infomask, sb_tuple_hint_want(xmax));
    return visible;
}

/* --- SELECT COUNT(*) (heapam.c, execTuples.c, nodeAgg.c, int8.c) ---------------------------- */

/* int8inc (int8.c): called as an aggregate, it increments its state in place. */
static int64_t int8inc(struct function_call_info *fcinfo)
{
    int64_t *arg = (int64_t *)(intptr_t)fcinfo->arg[0];
    if (fcinfo->context) {
        (*arg)++;
        return fcinfo->arg[0];
    }
    return *arg + 1;
}

/* ExecStoreTuple (execTuples.c): the old tuple freed if the slot owned it, the new one stored,
 * the extracted attributes invalidated. 8.1 clears the slot first (ExecClearTuple releases its
 * buffer pin) and pins the tuple's buffer for the slot on every store (IncrBufferRefCount);
 * 8.2 keeps the pin while the buffer is the same ("releasing and re-acquiring the pin is a
 * waste of cycles"): a page's tuples pin it once. */
static __attribute__((noinline)) void exec_store_tuple(struct exec_state *st, const uint8_t *tuple,
                                                       int buffer, enum sb_exec_version v)
{
    st->steps->slot_stores++;
    if (v == SB_EXEC_PG81 && st->slot.buffer != 0) {
        release_buffer(st, st->slot.buffer);
        st->slot.buffer = 0;
    }
    st->slot.should_free = false;
    st->slot.isempty = false;
    st->slot.tuple = tuple;
    st->slot.nvalid = 0;
    if (st->slot.buffer != buffer) {
        if (st->slot.buffer != 0)
            release_buffer(st, st->slot.buffer);
        st->slot.buffer = buffer;
        if (buffer != 0)
            incr_buffer_refcount(st, buffer);
    }
}

/* pgstat_count_heap_getnext (pgstat.h): heap_getnext counts a returned tuple in the table's
 * statistics entry. */
static void count_heap_getnext(struct exec_state *st)
{
    st->steps->stats_counted++;
    st->tabentry.tuples_returned++;
}

/* advance_aggregates -> advance_transition_function (nodeAgg.c): the call's frame filled
 * (fcinfo: the state as its argument, not null), the transition function called through the
 * function manager (FunctionCallInvoke: fn_addr), its result kept as the new state. */
static __attribute__((noinline)) void advance_transition_function(struct exec_state *st)
{
    struct function_call_info *fc = &st->fcinfo;

    st->steps->agg_calls++;
    fc->nargs = 1;
    fc->isnull = false;
    fc->arg[0] = (int64_t)(intptr_t)&st->trans_value;
    fc->argnull[0] = false;
    fc->arg[0] = transition_function(fc);
    if (fc->isnull)
        st->trans_value = 0;
}

/* The scan's end of a page: the slot's pin and the scan's own released. */
static void end_page(struct exec_state *st)
{
    if (st->slot.buffer)
        release_buffer(st, st->slot.buffer);
    st->slot.buffer = 0;
    release_buffer(st, st->buf.buf_id + 1);
}

/* A returned tuple through the plan: heap_getnext's statistics count, SeqNext's ExecStoreTuple, then the Agg node's
 * advance_aggregates (COUNT(*): no argument to evaluate, no qual, no projection). */
static void return_tuple(struct exec_state *st, const uint8_t *tuple, enum sb_exec_version v)
{
    count_heap_getnext(st);
    exec_store_tuple(st, tuple, st->buf.buf_id + 1, v);
    advance_transition_function(st);
}

/* 8.1's heapgettup, one call per returned tuple: the content lock taken (shared), the line
 * pointers walked from where the last call stopped until a tuple satisfies the snapshot, the
 * lock released; a call that finds none moves to the next page (the last call of a page). */
static uint32_t count81(void *page_mem, uint32_t page_size, bool *dirtied,
                        struct sb_exec_steps *steps)
{
    uint8_t *page = page_mem;
    const uint32_t n = sb_page_nitems(page);
    struct exec_state st;
    uint32_t i = 0, visible = 0, off;
    bool stored = false, found;

    exec_begin(&st, steps);
    st.fcinfo.context = &st; /* an AggState */
    read_buffer(&st, st.buf.block);
    do {
        found = false;
        lwlock_acquire(&st, &st.buf.content_lock, 2, false);
        for (; i < n && !found; i++) {
            if (!sb_page_tuple(page, i, page_size, &off))
                continue;
            st.steps->tuples++;
            found = satisfies_snapshot(&st, page, off, &stored);
        }
        lwlock_release(&st, &st.buf.content_lock, 2);
        if (found) {
            visible++;
            return_tuple(&st, page + off, SB_EXEC_PG81);
        }
    } while (found);
    end_page(&st);
    if (dirtied)
        *dirtied = stored;
    return visible;
}

/* 8.2's heapgetpage: the content lock once for the page, every line pointer's visibility into
 * rs_vistuples, the lock released; then heapgettup_pagemode returns them one by one. */
static uint32_t count82(void *page_mem, uint32_t page_size, bool *dirtied,
                        struct sb_exec_steps *steps)
{
    uint8_t *page = page_mem;
    const uint32_t n = sb_page_nitems(page);
    struct exec_state st;
    uint32_t ntup = 0, off;
    bool stored = false;

    exec_begin(&st, steps);
    st.fcinfo.context = &st;
    read_buffer(&st, st.buf.block);
    lwlock_acquire(&st, &st.buf.content_lock, 2, false);
    for (uint32_t i = 0; i < n; i++) {
        if (!sb_page_tuple(page, i, page_size, &off))
            continue;
        st.steps->tuples++;
        if (satisfies_snapshot(&st, page, off, &stored) && ntup < MAX_TUPLES_PER_PAGE)
            st.vistuples[ntup++] = (uint16_t)i;
    }
    lwlock_release(&st, &st.buf.content_lock, 2);
    for (uint32_t k = 0; k < ntup; k++) {
        uint32_t flags, len;
        sb_page_item(page, st.vistuples[k], &off, &flags, &len);
        return_tuple(&st, page + off, SB_EXEC_PG82);
    }
    end_page(&st);
    if (dirtied)
        *dirtied = stored;
    return ntup;
}

/* --- VACUUM (vacuumlazy.c lazy_scan_heap, tqual.c HeapTupleSatisfiesVacuum) ------------------ */

enum vacuum_verdict { HEAPTUPLE_DEAD, HEAPTUPLE_LIVE, HEAPTUPLE_RECENTLY_DEAD };

/* HeapTupleSatisfiesVacuum: the inserter committed (hint or clog); no deleter (XMAX_INVALID):
 * live; a committed deleter (hint or clog) older than OldestXmin: dead. Its hint stores are
 * heap.c's vacuum's. */
static enum vacuum_verdict satisfies_vacuum(struct exec_state *st, uint8_t *page, uint32_t off,
                                            bool *stored)
{
    uint8_t *tup = page + off;
    uint16_t infomask = sb_tuple_infomask(page, off);
    uint32_t xmin = sb_load32(tup), xmax = sb_tuple_xmax(page, off);
    bool live = sb_tuple_is_live(page, off);
    enum vacuum_verdict verdict = live ? HEAPTUPLE_LIVE : HEAPTUPLE_DEAD;

    st->steps->visibility_tests++;
    if (!(infomask & SB_HEAP_XMIN_COMMITTED) && !transaction_did_commit(xmin))
        verdict = HEAPTUPLE_DEAD;
    if (!live && !(infomask & SB_HEAP_XMAX_COMMITTED))
        (void)transaction_did_commit(xmax);
    if (!live && xmax >= st->oldest_xmin)
        verdict = HEAPTUPLE_RECENTLY_DEAD; /* never: every deleter precedes OldestXmin */
    *stored |= store_hints(st, tup, infomask,
                           live ? SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_INVALID
                                : SB_HEAP_XMIN_COMMITTED | SB_HEAP_XMAX_COMMITTED);
    return verdict == HEAPTUPLE_RECENTLY_DEAD ? HEAPTUPLE_LIVE : verdict;
}

/* The freeze test of a live tuple (8.1 inline in lazy_scan_heap; 8.2 heap_freeze_tuple, which
 * also looks at xmax and xvac): xmin normal and before FreezeLimit. Never true here. */
static bool freeze_test(struct exec_state *st, const uint8_t *tup, enum sb_exec_version v)
{
    uint32_t xmin = sb_load32(tup);
    bool freeze = xmin >= FIRST_NORMAL_XID && xmin < st->freeze_limit;

    st->steps->freeze_tests++;
    if (v == SB_EXEC_PG82) {
        uint32_t xmax = sb_load32(tup + SB_T_XMAX);
        freeze |= xmax >= FIRST_NORMAL_XID && xmax < st->freeze_limit && xmax == FROZEN_XID;
    }
    return freeze;
}

/* lazy_record_dead_tuple: the tuple's ItemPointer appended while there is room. */
static void record_dead_tuple(struct exec_state *st, uint32_t block, uint32_t offnum)
{
    st->steps->dead_noted++;
    if (st->vac.num_dead < st->vac.max_dead)
        st->vac.dead[st->vac.num_dead++] = block << 16 | offnum;
}

/* lazy_record_free_space with PageGetFreeSpace (bufpage.c: pd_upper - pd_lower less one line
 * pointer, 0 if negative): appended while there is room, else it replaces the smallest. */
static void record_free_space(struct exec_state *st, const uint8_t *page)
{
    int space = (int)sb_page_upper(page) - (int)sb_page_lower(page) - (int)SB_LINE_POINTER_SIZE;
    uint32_t avail = space > 0 ? (uint32_t)space : 0, smallest = 0;

    st->steps->free_space_notes++;
    if (st->vac.num_free < st->vac.max_free) {
        st->vac.free_pages[st->vac.num_free++] = avail;
        return;
    }
    for (uint32_t i = 1; i < st->vac.num_free; i++)
        if (st->vac.free_pages[i] < st->vac.free_pages[smallest])
            smallest = i;
    if (avail > st->vac.free_pages[smallest])
        st->vac.free_pages[smallest] = avail;
}

/* lazy_scan_heap's page: ReadBuffer, the content lock (shared: "we only need shared access to
 * the buffer"), per used line pointer HeapTupleSatisfiesVacuum, a live tuple's freeze test, a
 * dead one noted; the free space noted for a page without dead tuples (8.1: the others are
 * noted when lazy_vacuum_heap has cleaned them); the lock released and the buffer released.
 * The page's stores are heap.c's vacuum's (the dead tuples pruned here, where 8.1's second
 * pass, lazy_vacuum_page, freed them). */
static uint32_t vacuum8x(enum sb_exec_version v, void *page_mem, uint32_t page_size,
                         bool *dirtied, struct sb_exec_steps *steps)
{
    uint8_t *page = page_mem;
    const uint32_t n = sb_page_nitems(page);
    struct exec_state st;
    uint32_t off, live = 0, pruned = 0;
    bool changed = false;

    exec_begin(&st, steps);
    read_buffer(&st, st.buf.block);
    lwlock_acquire(&st, &st.buf.content_lock, 2, false);
    for (uint32_t i = 0; i < n; i++) {
        if (!sb_page_tuple(page, i, page_size, &off))
            continue;
        st.steps->tuples++;
        if (satisfies_vacuum(&st, page, off, &changed) == HEAPTUPLE_LIVE) {
            if (freeze_test(&st, page + off, v))
                changed = true; /* never: see freeze_test */
            /* 8.1's "OID is invalid" warning: HeapTupleGetOid lies before the data */
            if (v == SB_EXEC_PG81 && st.relhasoids &&
                sb_load32(page + off + SB_MAXALIGN(SB_TUPLE_HEADER_SIZE) - 4) == 0)
                st.steps->oid_warnings++;
            st.vac.num_tuples++;
            live++;
        } else {
            uint32_t item = 0; /* lp_flags unused, as heap.c writes it */
            record_dead_tuple(&st, st.buf.block, i + 1);
            st.vac.tups_vacuumed++;
            memcpy(page + SB_PAGE_HEADER_SIZE + i * SB_LINE_POINTER_SIZE, &item, sizeof item);
            pruned++;
        }
    }
    if (pruned) {
        uint16_t flags = (uint16_t)(sb_page_flags(page) | SB_PD_HAS_FREE_LINES);
        memcpy(page + SB_PD_FLAGS, &flags, 2);
        changed = true;
    } else {
        record_free_space(&st, page);
    }
    if (sb_load32(page + SB_PD_PRUNE_XID) != 0) {
        uint32_t zero = 0;
        memcpy(page + SB_PD_PRUNE_XID, &zero, 4);
        changed = true;
    }
    if (live)
        st.vac.nonempty_pages = st.buf.block + 1;
    lwlock_release(&st, &st.buf.content_lock, 2);
    release_buffer(&st, st.buf.buf_id + 1); /* WriteBuffer when changed: the same unpin */
    if (dirtied)
        *dirtied = changed;
    return live;
}

/* --- the passes -------------------------------------------------------------------------- */

uint32_t sb_exec_count_steps(enum sb_exec_version v, void *page, uint32_t page_size,
                             bool *dirtied, struct sb_exec_steps *steps)
{
    return v == SB_EXEC_PG81 ? count81(page, page_size, dirtied, steps)
                             : count82(page, page_size, dirtied, steps);
}

uint32_t sb_exec_vacuum_steps(enum sb_exec_version v, void *page, uint32_t page_size,
                              bool *dirtied, struct sb_exec_steps *steps)
{
    return vacuum8x(v, page, page_size, dirtied, steps);
}

uint32_t sb_exec81_count(void *page, uint32_t page_size, bool *dirtied)
{
    struct sb_exec_steps steps = {0};
    return sb_exec_count_steps(SB_EXEC_PG81, page, page_size, dirtied, &steps);
}

uint32_t sb_exec81_vacuum(void *page, uint32_t page_size, bool *dirtied)
{
    struct sb_exec_steps steps = {0};
    return sb_exec_vacuum_steps(SB_EXEC_PG81, page, page_size, dirtied, &steps);
}

uint32_t sb_exec82_count(void *page, uint32_t page_size, bool *dirtied)
{
    struct sb_exec_steps steps = {0};
    return sb_exec_count_steps(SB_EXEC_PG82, page, page_size, dirtied, &steps);
}

uint32_t sb_exec82_vacuum(void *page, uint32_t page_size, bool *dirtied)
{
    struct sb_exec_steps steps = {0};
    return sb_exec_vacuum_steps(SB_EXEC_PG82, page, page_size, dirtied, &steps);
}
