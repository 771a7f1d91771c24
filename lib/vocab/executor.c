/* SPDX-License-Identifier: BSD-3-Clause */
/* executor.c: count and vacuum with PostgreSQL 8.1's and 8.2's per-tuple work (executor.h).
 * Every step is named after the function of the sources that does it; the sources are the
 * CVS mirror's branches (github adunstan/pg-cvs-mirror), REL8_1_STABLE at 1314e285 and
 * REL8_2_STABLE at 6ea98f5c (doc/executor.md has the full commits), cited below as
 * file:line of those commits (8.1's unless said). The page's own stores are heap.c's,
 * expression for expression, so that each pass leaves the bytes its minimal op leaves.
 *
 * One file, one translation unit, on purpose: its instructions a page are what was matched
 * against a live 8.1.21 backend (doc/executor.md). Split by job into six files (locks,
 * buffers, visibility, count, vacuum, passes) the same code ran 7-19% more instructions a
 * page for pg81 and 10-42% more for pg82 (callgrind, 20 pages of 55 tuples), the calls
 * between files losing GCC's inlining, constant specialisation and register allocation across
 * calls; the sections below keep the jobs apart instead. */
#include "config.h"
#include "vocab/executor.h"

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vocab/heap.h"

#define MAX_HELD_LWLOCKS 100 /* lwlock.c: held_lwlocks[MAX_SIMUL_LWLOCKS] */
#define BM_MAX_USAGE_COUNT 5 /* buf_internals.h:49 */
#define RESOWNER_BUFFERS 16  /* resowner.c:472: the array starts at 16 */
#define FROZEN_XID 2u        /* transam.h: FrozenTransactionId */
#define FIRST_NORMAL_XID 3u  /* transam.h: FirstNormalTransactionId */
/* buf_internals.h:31-37 */
#define BM_DIRTY 0x01u
#define BM_VALID 0x02u
#define BM_TAG_VALID 0x04u
#define BM_IO_IN_PROGRESS 0x08u
#define BM_IO_ERROR 0x10u
#define BM_JUST_DIRTIED 0x20u
#define BM_PIN_COUNT_WAITER 0x40u
#define FREENEXT_END_OF_LIST (-1) /* buf_internals.h */
#define FREENEXT_NOT_IN_LIST (-2)
#define INITIAL_AVERAGE (8192u / 32) /* freespace.c:75: GetAvgFSMRequestSize of a new relation */
#define PG_PAGE_LAYOUT_VERSION 4     /* the version heap.c writes (8.1 wrote 3) */
#define HASH_SEGSIZE 16              /* the stand-in table's one segment (dynahash.c: 256) */
/* MaxHeapTuplesPerPage of a 32KB page (htup.h: BLCKSZ - page header over MAXALIGN(tuple
 * header) + line pointer): rs_vistuples' size */
#define MAX_TUPLES_PER_PAGE ((32768 - SB_PAGE_HEADER_SIZE) / (SB_MAXALIGN(SB_TUPLE_HEADER_SIZE) + \
                                                             SB_LINE_POINTER_SIZE))
/* MaxHeapTuplesPerPage of 8.1's 8KB page (htup.h:330), lazy_scan_heap's room test */
#define MAX_HEAP_TUPLES_PER_PAGE ((8192 - SB_PAGE_HEADER_SIZE) / (SB_MAXALIGN(SB_TUPLE_HEADER_SIZE) + \
                                                                  SB_LINE_POINTER_SIZE))

enum { T_SEQSCAN_STATE = 106, T_AGG_STATE = 116 }; /* nodes.h: the nodes' tags */
enum { AGG_PLAIN, AGG_SORTED, AGG_HASHED };         /* plannodes.h AggStrategy */

/* The stand-ins (executor.h): one lock, one buffer, one resource owner, one slot, the
 * snapshot, the aggregate's call, the vacuum's statistics; for 8.1 also the shared buffer
 * table, the free list, the file, the plan's nodes and memory contexts. */
struct lwlock {
    atomic_flag mutex; /* slock_t: tas() is `lock; xchgb` on x86 (s_lock.h) */
    bool release_ok;
    char exclusive;
    int shared;
    void *head;
};

struct buffer_tag {
    uint32_t spc, db, rel, block; /* BufferTag: RelFileNode and block number */
};

/* 8.1's locks as its code reaches them: by LWLockId into LWLockArray (lwlock.c:255), each
 * padded to 32 bytes (LWLockPadded); the PGPROC a waiter queues. */
enum { LW_BUF_MAPPING, LW_BUF_FREELIST, LW_CONTENT, LW_IO_IN_PROGRESS, NUM_LWLOCKS81 };

struct pgproc {
    bool lw_waiting, lw_exclusive;
    struct pgproc *lw_wait_link;
};

struct lwlock81 {
    _Alignas(32) atomic_flag mutex;
    bool release_ok;
    char exclusive;
    int shared;
    struct pgproc *head, *tail;
};

/* BufferDesc (buf_internals.h:114, 8.1's: 48 bytes, its locks by LWLockId; 8.2's stand-in
 * keeps its content lock in the state, content_lock82). */
struct buffer_desc {
    uint32_t rnode[3], block; /* BufferTag: RelFileNode and block number */
    uint16_t flags, usage_count;
    unsigned refcount;
    int wait_backend_pid;
    atomic_flag buf_hdr_lock;
    int buf_id, free_next;
    int io_in_progress_lock_id, content_lock_id; /* LWLockIds */
};

/* dynahash.c's HTAB and HASHHDR: SharedBufHash. An element is HASHELEMENT and
 * BufferLookupEnt, each MAXALIGNed (dynahash.c:1041 element_alloc): 16 + 24 bytes. */
struct hash_element {
    struct hash_element *link;
    uint32_t hashvalue;
    uint32_t header_pad;
    struct buffer_tag key;
    int id; /* BufferLookupEnt's buffer id */
    int entry_pad;
};

struct shared_hash {
    uint32_t (*hash)(const void *key, size_t keysize);               /* tag_hash */
    int (*match)(const void *key1, const void *key2, size_t keysize);  /* memcmp */
    void *(*keycopy)(void *dest, const void *src, size_t keysize);     /* memcpy */
    size_t keysize;
    uint32_t high_mask, low_mask, max_bucket, sshift, ssize;
    long nentries, ffactor;
    struct hash_element *free_list;
    struct hash_element ***dir; /* the directory: segments of ssize buckets */
};

/* The one-buffer stand-in's table: one small segment, two elements. */
struct standin_hash {
    struct hash_element **dir[1];
    struct hash_element *segment[HASH_SEGSIZE];
    struct hash_element elements[2];
};

/* StrategyControl (freelist.c:29), 8.1's: the free list's ends and the clock hand. */
struct strategy_control {
    int first_free, last_free, next_victim, nbuffers;
};

/* 8.1's shared buffer structures at a pool's size (executor.h), bound to a thread. */
struct sb_exec_shared {
    uint32_t nbuffers, nlocks, nbuckets, nsegments, nelements;
    struct buffer_desc *descs;     /* BufferDescriptors (buf_init.c:88) */
    struct lwlock81 *locks;        /* LWLockArray (lwlock.c:196): NumLWLocks (lwlock.c:114) */
    int32_t *private_refcounts;    /* PrivateRefCount (buf_init.c:158) */
    struct hash_element **buckets; /* the table's segments, one after another */
    struct hash_element ***dir;    /* its directory */
    struct hash_element *elements; /* its elements, preallocated (dynahash.c:277) */
    struct shared_hash hash;
    struct strategy_control strategy;
    uint32_t next_block, relfilenode;
    uint64_t pages, unexpected; /* pages read through it; error paths taken (never) */
};

static _Thread_local struct sb_exec_shared *bound_region;
enum hash_action { HASH_FIND, HASH_ENTER, HASH_REMOVE };

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

/* A memory context (MemoryContextData with AllocSetContext's isReset). */
struct memory_context {
    void (*reset)(struct memory_context *context); /* methods->reset: AllocSetReset */
    struct memory_context *firstchild;
    bool is_reset;
};

struct exec_state;
struct slot;
typedef struct slot *(*access_mtd)(struct exec_state *st);
struct expr_state;
typedef int64_t (*expr_eval_fn)(struct expr_state *expr, struct memory_context *econtext,
                                bool *isnull, int *isdone);
struct expr_state { /* ExprState of the aggregate's argument: count(*) is count(1) (gram.y) */
    expr_eval_fn evalfunc; /* ExecEvalConst */
    int64_t constvalue;
    bool constisnull;
};

/* A tuple table slot (TupleTableSlot). */
struct slot {
    const uint8_t *tuple;
    int buffer;
    bool should_free, isempty;
    int nvalid;
};

/* HeapTupleData: the scan's current tuple (rs_ctup). */
struct heap_tuple {
    uint32_t t_len, t_table_oid;
    uint32_t self_block; /* t_self: ItemPointerData */
    uint16_t self_off;
    void *t_datamcxt;
    const uint8_t *t_data;
};

/* The scan's walk of the page: where heapgettup's next call starts. */
struct page_walk {
    uint8_t *page;
    uint32_t page_size, n, next, off, visible;
    bool stored; /* a hint bit stored on the page */
};

/* 8.1's relation, scan descriptor and executor state (RelationData, HeapScanDescData,
 * EState: the fields the scan's code reads). */
struct relation81 {
    uint32_t rd_id, relkind, node[3]; /* RelationGetRelid, rd_rel->relkind, rd_node */
};

struct heap_scan_desc {
    struct relation81 *rd;
    struct heap_tuple ctup;
    int cbuf;
    uint32_t nblocks;
    const void *snapshot;
    int nkeys;
    const void *key;
    void *pgstat_tabentry; /* rs_pgstat_info.tabentry */
};

struct estate81 {
    const uint8_t **evtuple; /* es_evTuple: EvalPlanQual's tuples, none */
    int direction;           /* es_direction */
};

/* The plan's nodes (PlanState with ScanState's fields, and AggState's tag first: the fields
 * their code reads). */
struct plan_state {
    int tag; /* nodeTag */
    void *chg_param, *instrument, *qual, *proj_info;
    struct estate81 *state;
    struct heap_scan_desc *scan_desc; /* ss_currentScanDesc */
    struct slot *scan_slot;           /* ss_ScanTupleSlot */
    int scanrelid;                    /* the SeqScan plan's */
    bool tup_from_tlist;              /* ps_TupFromTlist */
    struct memory_context *econtext;  /* ps_ExprContext's per-tuple memory */
    struct slot *ecxt_scantuple;
};

/* 8.1's Agg node (AggState and its per-aggregate and per-group states, the Aggref: the fields
 * advance_aggregates and advance_transition_function read). */
struct aggref81 {
    bool aggdistinct;
};

struct agg_per_agg {
    struct expr_state *target;     /* aggrefstate->target */
    const struct aggref81 *aggref;
    pg_function fn_addr;           /* transfn.fn_addr */
    bool fn_strict, transtype_byval;
};

struct agg_per_group {
    int64_t trans_value; /* int8 by reference: the state's address */
    bool trans_value_isnull, no_trans_value;
};

struct agg_state81 {
    struct plan_state ps; /* first: int8inc's IsA(context, AggState) reads its tag */
    int aggstrategy, numaggs;
    struct agg_per_agg *peragg;
    struct agg_per_group *pergroup;
    struct memory_context *tmpcontext, *aggcontext; /* their per-tuple memory */
    struct slot *ecxt_scantuple;
    struct agg_per_agg peragg_data[1];
    struct agg_per_group pergroup_data[1];
    struct expr_state target;
    struct aggref81 aggref;
    struct memory_context tmp_memory, agg_memory;
};

struct exec_state {
    struct lwlock mapping_lock;  /* BufMappingLock, 8.2's path (a partition's) */
    struct lwlock content_lock82; /* the stand-in buffer's content lock, 8.2's path */
    struct buffer_desc buf;      /* the stand-in buffer */
    struct buffer_desc *cur;     /* the page's buffer: buf, or 8.1's victim in a region */
    uint32_t block;              /* the page's block number (8.1) */
    int32_t private_refcount;   /* PrivateRefCount[buf_id] */
    int held_lwlocks[MAX_HELD_LWLOCKS];
    int num_held_lwlocks;
    int interrupt_holdoff;
    struct {
        int nbuffers, maxbuffers;
        int buffers[RESOWNER_BUFFERS];
    } owner;
    struct slot slot;
    struct {
        uint32_t xmin, xmax, xcnt, xip[4];
    } snapshot;
    struct function_call_info fcinfo;
    int64_t trans_value;
    struct {
        uint64_t tuples_returned; /* PgStat_TableEntry's t_tuples_returned */
    } tabentry;
    struct {
        uint64_t num_tuples, tups_vacuumed, nonempty_pages, nunused;
        uint32_t num_dead, max_dead, num_free, max_free, threshold;
        uint32_t dead[256];     /* ItemPointerData of the dead tuples (block, offset) */
        uint32_t free_pages[8]; /* PageFreeSpaceInfo: the pages' free space */
    } vac;
    uint32_t oldest_xmin, freeze_limit;
    bool relhasoids; /* the relation's rd_rel->relhasoids: false, the tables have none */
    uint32_t hashcode; /* the buffer tag's, as BufTableLookup takes it */
    uint16_t vistuples[MAX_TUPLES_PER_PAGE];
    struct sb_exec_steps *steps;
    /* 8.1's buffer manager below the hit: its locks, the globals its macros read (NBuffers,
     * NLocBuffer, BufferDescriptors, PrivateRefCount), the table, StrategyControl, the file */
    struct lwlock81 *lwlock_array; /* a region's, or the stand-in's standin_locks */
    struct lwlock81 standin_locks[NUM_LWLOCKS81];
    struct pgproc proc, *my_proc;
    volatile uint32_t holdoff; /* InterruptHoldoffCount (miscadmin.h: volatile) */
    int nbuffers, nloc_buffer;
    struct buffer_desc *buffer_descriptors;
    int32_t *private_refcounts;
    struct shared_hash *hash;          /* a region's, or standin_table */
    struct shared_hash standin_table;
    struct standin_hash standin_hash;
    struct strategy_control *strategy; /* a region's, or standin_strategy */
    struct strategy_control standin_strategy;
    bool strategy_hint_vacuum; /* freelist.c:197 StrategyHintVacuum: set by VACUUM */
    struct buffer_desc *in_progress_buf;
    uint64_t read_buffer_count; /* bufmgr.c ReadBufferCount */
    struct {
        int fd;
        long seek_pos;
        int lru_less_recently;
    } vfd[2]; /* VfdCache: [0] the LRU ring's head, [1] the table's file */
    struct {
        int which, mdfd_vfd;
        void *md_fd, *mdfd_chain;
    } smgr;
    /* 8.1's plan: Agg over SeqScan, the scan's descriptor, the executor's state */
    struct relation81 rel;
    struct heap_scan_desc scan;
    struct plan_state seqscan;
    struct estate81 estate;
    struct memory_context scan_context;
    struct agg_state81 agg;
    struct memory_context *current_context; /* CurrentMemoryContext */
    uint32_t current_xid, recent_xmin, cached_fetch_xid;
    int cached_fetch_status;
    struct page_walk walk;
};

static int64_t int8inc(struct function_call_info *fcinfo);

/* A function call the compiler cannot see through (fmgr's fn_addr). */
static const pg_function volatile transition_function = int8inc;

/* 8.1's process-wide settings, as the live server ran: no interrupt pending, stats_row_level
 * and stats_block_level off (postgresql.conf's defaults), vacuum_cost_delay 0. */
static const volatile bool interrupt_pending = false;
static const volatile bool pgstat_collect_tuplelevel = false;
static const volatile bool pgstat_collect_blocklevel = false;
static const volatile bool vacuum_cost_active = false;

/* Where 8.1 raises an error or meets another backend's work: never on these scans (the tests
 * check that it stays 0). */
static __attribute__((noinline, cold)) void unexpected(struct exec_state *st)
{
    st->steps->unexpected++;
    if (bound_region)
        bound_region->unexpected++;
}

/* --- locks (s_lock.h, lwlock.c) ---------------------------------------------------------- */

static inline void s_lock(struct exec_state *st, volatile atomic_flag *lock)
{
    st->steps->spinlock_ops++;
    while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire))
        ; /* the stand-ins are never contended */
}

static inline void s_unlock(volatile atomic_flag *lock)
{
    atomic_flag_clear_explicit(lock, memory_order_release);
}

/* LWLockAcquire(lockid, LW_SHARED or LW_EXCLUSIVE) (lwlock.c:253): the held-locks bound,
 * HOLD_INTERRUPTS, the mutex, the mode's test (never a wait here), the counts, the mutex
 * released, the lock remembered in held_lwlocks. */
static __attribute__((noinline)) void lwlock_acquire(struct exec_state *st, struct lwlock *lock,
                                                     int id, bool exclusive)
{
    st->steps->lwlock_ops++;
    if (st->num_held_lwlocks >= MAX_HELD_LWLOCKS) {
        unexpected(st); /* elog(ERROR, "too many LWLocks taken"): never */
        return;
    }
    st->interrupt_holdoff++;
    s_lock(st, &lock->mutex);
    lock->release_ok = true;
    if (exclusive) {
        if (lock->exclusive == 0 && lock->shared == 0)
            lock->exclusive++;
    } else if (lock->exclusive == 0) {
        lock->shared++;
    }
    s_unlock(&lock->mutex);
    st->held_lwlocks[st->num_held_lwlocks++] = id;
}

/* LWLockRelease(lockid) (lwlock.c:469): the lock found in held_lwlocks from the end and
 * removed, the mutex, the counts, no waiter to wake, RESUME_INTERRUPTS. */
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

/* PGSemaphoreLock and PGSemaphoreUnlock (pg_sema.c): a lock's waiter sleeps, or is woken;
 * never on these scans (one backend). */
static __attribute__((noinline, cold)) void pg_semaphore(struct exec_state *st,
                                                         struct pgproc *proc, bool lock)
{
    unexpected(st);
    if (lock)
        proc->lw_waiting = false;
}

/* LWLockAcquire's wait (lwlock.c:339-380): the backend queued on the lock, the mutex released,
 * the semaphore slept on until it is woken; the extra wake-ups counted. */
static __attribute__((noinline, cold)) int lwlock_wait(struct exec_state *st,
                                                       volatile struct lwlock81 *lock,
                                                       struct pgproc *proc, bool exclusive)
{
    int extra_waits = 0;

    if (proc == NULL)
        return 0; /* elog(FATAL, "cannot wait without a PGPROC structure") */
    proc->lw_waiting = true;
    proc->lw_exclusive = exclusive;
    proc->lw_wait_link = NULL;
    if (lock->head == NULL)
        lock->head = proc;
    else
        lock->tail->lw_wait_link = proc;
    lock->tail = proc;
    s_unlock(&lock->mutex);
    for (;;) {
        pg_semaphore(st, proc, true);
        if (!proc->lw_waiting)
            break;
        extra_waits++;
    }
    return extra_waits;
}

/* LWLockAcquire (lwlock.c:253), 8.1's shape: the lock by id through a volatile pointer, the
 * held-locks bound, HOLD_INTERRUPTS, then until it is got: the mutex, the releaseOK flag after a
 * wait, the mode's test and count, else the wait; the mutex released, the lock remembered in
 * held_lwlocks, the extra wake-ups given back. */
static __attribute__((noinline)) void lwlock_acquire81(struct exec_state *st, int lockid,
                                                       bool exclusive)
{
    volatile struct lwlock81 *lock = &st->lwlock_array[lockid];
    struct pgproc *proc = st->my_proc;
    bool retry = false;
    int extra_waits = 0;

    st->steps->lwlock_ops++;
    if (st->num_held_lwlocks >= MAX_HELD_LWLOCKS) {
        unexpected(st); /* elog(ERROR, "too many LWLocks taken"): never */
        return;
    }
    st->holdoff++;
    for (;;) {
        bool mustwait;

        s_lock(st, &lock->mutex);
        if (retry)
            lock->release_ok = true;
        if (exclusive)
            mustwait = !(lock->exclusive == 0 && lock->shared == 0);
        else
            mustwait = lock->exclusive != 0;
        if (!mustwait) {
            if (exclusive)
                lock->exclusive++;
            else
                lock->shared++;
            break;
        }
        extra_waits += lwlock_wait(st, lock, proc, exclusive);
        retry = true;
    }
    s_unlock(&lock->mutex);
    st->held_lwlocks[st->num_held_lwlocks++] = lockid;
    while (extra_waits-- > 0)
        pg_semaphore(st, proc, false);
}

/* LWLockRelease's waiters to wake (lwlock.c:511-539): the first, and shared ones after a
 * shared one; never here. */
static __attribute__((noinline, cold)) struct pgproc *lwlock_wakeable(volatile struct lwlock81 *lock)
{
    struct pgproc *head = lock->head, *proc = head;

    if (!proc->lw_exclusive)
        while (proc->lw_wait_link != NULL && !proc->lw_wait_link->lw_exclusive)
            proc = proc->lw_wait_link;
    lock->head = proc->lw_wait_link;
    proc->lw_wait_link = NULL;
    lock->release_ok = false;
    return head;
}

/* LWLockRelease (lwlock.c:469), 8.1's shape: the lock found in held_lwlocks from the end and
 * removed, the mutex, the count down, the waiters to wake when it is free (none), the mutex
 * released, each waiter woken, RESUME_INTERRUPTS. */
static __attribute__((noinline)) void lwlock_release81(struct exec_state *st, int lockid)
{
    volatile struct lwlock81 *lock = &st->lwlock_array[lockid];
    struct pgproc *head;
    int i;

    st->steps->lwlock_ops++;
    for (i = st->num_held_lwlocks; --i >= 0;)
        if (lockid == st->held_lwlocks[i])
            break;
    if (i < 0) {
        unexpected(st); /* elog(ERROR, "lock %d is not held"): never */
        return;
    }
    st->num_held_lwlocks--;
    for (; i < st->num_held_lwlocks; i++)
        st->held_lwlocks[i] = st->held_lwlocks[i + 1];
    s_lock(st, &lock->mutex);
    if (lock->exclusive > 0)
        lock->exclusive--;
    else
        lock->shared--;
    head = lock->head;
    if (head != NULL)
        head = lock->exclusive == 0 && lock->shared == 0 && lock->release_ok
                   ? lwlock_wakeable(lock) : NULL;
    s_unlock(&lock->mutex);
    while (head != NULL) {
        struct pgproc *proc = head;
        head = proc->lw_wait_link;
        proc->lw_wait_link = NULL;
        proc->lw_waiting = false;
        pg_semaphore(st, proc, false);
    }
    st->holdoff--;
}

/* BufferIsValid (bufmgr.h:72): not InvalidBuffer, and within the local and shared buffers
 * (the globals NLocBuffer and NBuffers); BufferIsLocal: negative. */
static inline bool buffer_is_valid(const struct exec_state *st, int b)
{
    return b != 0 && b >= -st->nloc_buffer && b <= st->nbuffers;
}

/* --- buffers (bufmgr.c, resowner.c) ------------------------------------------------------ */

/* ResourceOwnerEnlargeBuffers (resowner.c:462): room for one more buffer, the array grown only
 * when full (never here: a scan holds two pins at most). */
static __attribute__((noinline)) void resowner_enlarge_buffers(struct exec_state *st)
{
    if (st->owner.nbuffers < st->owner.maxbuffers)
        return;
    unexpected(st); /* repalloc of the array: never */
}

static __attribute__((noinline)) void resowner_remember_buffer(struct exec_state *st, int b)
{
    st->steps->resowner_ops++;
    if (st->owner.nbuffers < st->owner.maxbuffers)
        st->owner.buffers[st->owner.nbuffers++] = b;
}

/* ResourceOwnerForgetBuffer (resowner.c:512): searched from the end (the newest first), the
 * rest moved down. */
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

/* PinBuffer (bufmgr.c:776): the first pin of this backend takes the header spinlock, counts
 * the pin and the usage (up to BM_MAX_USAGE_COUNT, 8.2's rule); every pin counts in
 * PrivateRefCount and the owner. */
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

/* PinBuffer_Locked (bufmgr.c:814): the victim's pin, its header spinlock already held (taken
 * by StrategyGetBuffer) and released here; RESUME_INTERRUPTS. */
static __attribute__((noinline)) void pin_buffer_locked(struct exec_state *st,
                                                        struct buffer_desc *buf)
{
    st->steps->pins++;
    if (st->private_refcounts[buf->buf_id] == 0)
        buf->refcount++;
    s_unlock(&buf->buf_hdr_lock);
    st->private_refcounts[buf->buf_id]++;
    resowner_remember_buffer(st, buf->buf_id + 1);
    st->holdoff--;
}

/* IncrBufferRefCount (bufmgr.c:1670): one more pin of a buffer this backend holds; 8.1 makes
 * room in the owner first (ResourceOwnerEnlargeBuffers), then counts the pin in the owner and
 * in PrivateRefCount[buffer - 1]. */
static __attribute__((noinline)) void incr_buffer_refcount(struct exec_state *st, int buffer,
                                                           enum sb_exec_version v)
{
    st->steps->pins++;
    if (v == SB_EXEC_PG82) {
        st->private_refcount++;
        resowner_remember_buffer(st, buffer);
        return;
    }
    resowner_enlarge_buffers(st);
    resowner_remember_buffer(st, buffer);
    if (buffer < 0)
        unexpected(st); /* LocalRefCount: never */
    else
        st->private_refcounts[buffer - 1]++;
}

/* ReleaseBuffer: the owner forgets it; the last private pin unpins (UnpinBuffer: the header
 * spinlock, refcount down). 8.2's path; 8.1's is release_buffer81. */
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

/* StrategyFreeBuffer(buf, at_head = false) (freelist.c:141): BufFreelistLock, the buffer put
 * on the free list's tail unless it is on it. */
static __attribute__((noinline)) void strategy_free_buffer(struct exec_state *st,
                                                           struct buffer_desc *buf)
{
    lwlock_acquire81(st, LW_BUF_FREELIST, true);
    if (buf->free_next == FREENEXT_NOT_IN_LIST) {
        buf->free_next = FREENEXT_END_OF_LIST;
        if (st->strategy->first_free < 0)
            st->strategy->first_free = buf->buf_id;
        else
            st->buffer_descriptors[st->strategy->last_free].free_next = buf->buf_id;
        st->strategy->last_free = buf->buf_id;
    }
    lwlock_release81(st, LW_BUF_FREELIST);
}

/* UnpinBuffer(buf, fixOwner, normalAccess) (bufmgr.c:847), 8.1's: the owner forgets it when
 * asked; the last private pin takes the header spinlock, drops the refcount and, on a normal
 * access, raises the usage count, or under VACUUM's strategy hint (strategy_hint_vacuum) sends
 * an unused buffer back to the free list (StrategyFreeBuffer). */
static __attribute__((noinline)) void unpin_buffer81(struct exec_state *st,
                                                     struct buffer_desc *buf, bool fix_owner,
                                                     bool normal_access)
{
    bool immed_free_buffer = false;

    st->steps->unpins++;
    if (fix_owner)
        resowner_forget_buffer(st, buf->buf_id + 1);
    if (--st->private_refcounts[buf->buf_id] != 0)
        return;
    s_lock(st, &buf->buf_hdr_lock);
    buf->refcount--;
    if (normal_access) {
        if (!st->strategy_hint_vacuum) {
            if (buf->usage_count < BM_MAX_USAGE_COUNT)
                buf->usage_count++;
        } else if (buf->refcount == 0 && buf->usage_count == 0) {
            immed_free_buffer = true;
        }
    }
    if ((buf->flags & BM_PIN_COUNT_WAITER) && buf->refcount == 1)
        unexpected(st); /* ProcSendSignal to a waiter: never */
    s_unlock(&buf->buf_hdr_lock);
    if (immed_free_buffer)
        strategy_free_buffer(st, buf);
}

/* ReleaseBuffer (bufmgr.c:1631), 8.1's: the buffer checked (BufferIsValid), the owner forgets
 * it, not a local one; a pin not the last only counts down PrivateRefCount, the last is
 * UnpinBuffer(buf, false, true). */
static __attribute__((noinline)) void release_buffer81(struct exec_state *st, int buffer)
{
    struct buffer_desc *hdr;

    if (!buffer_is_valid(st, buffer)) {
        unexpected(st); /* elog(ERROR, "bad buffer id") */
        return;
    }
    resowner_forget_buffer(st, buffer);
    if (buffer < 0) {
        unexpected(st); /* a local buffer: never */
        return;
    }
    hdr = &st->buffer_descriptors[buffer - 1];
    if (st->private_refcounts[buffer - 1] > 1) {
        st->steps->unpins++;
        st->private_refcounts[buffer - 1]--;
    } else {
        unpin_buffer81(st, hdr, false, true);
    }
}

/* hash_any (hashfunc.c:217, the same in 8.2): Bob Jenkins' mix over the key byte by byte, 12
 * bytes a round, as tag_hash (hashfn.c:39) calls it for the 16-byte BufferTag. */
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
#define WORD_AT(k, i)                                                                         \
    ((uint32_t)(k)[i] + ((uint32_t)(k)[(i) + 1] << 8) + ((uint32_t)(k)[(i) + 2] << 16) +      \
     ((uint32_t)(k)[(i) + 3] << 24))

static __attribute__((noinline)) uint32_t hash_any(const unsigned char *k, int keylen)
{
    uint32_t a = 0x9e3779b9u, b = 0x9e3779b9u, c = 3923095u; /* the golden ratio, a seed */
    uint32_t len = (uint32_t)keylen;

    for (; len >= 12; len -= 12, k += 12) {
        a += WORD_AT(k, 0);
        b += WORD_AT(k, 4);
        c += WORD_AT(k, 8);
        MIX(a, b, c);
    }
    c += (uint32_t)keylen;
    switch (len) { /* all the cases fall through; the tag leaves 4 bytes */
    case 11: c += (uint32_t)k[10] << 24; /* fall through */
    case 10: c += (uint32_t)k[9] << 16;  /* fall through */
    case 9: c += (uint32_t)k[8] << 8;    /* fall through */
    case 8: b += (uint32_t)k[7] << 24;   /* fall through */
    case 7: b += (uint32_t)k[6] << 16;   /* fall through */
    case 6: b += (uint32_t)k[5] << 8;    /* fall through */
    case 5: b += k[4];                   /* fall through */
    case 4: a += (uint32_t)k[3] << 24;   /* fall through */
    case 3: a += (uint32_t)k[2] << 16;   /* fall through */
    case 2: a += (uint32_t)k[1] << 8;    /* fall through */
    case 1: a += k[0];                   /* fall through */
    default: break;
    }
    MIX(a, b, c);
    return c;
}

static __attribute__((noinline)) uint32_t tag_hash(const void *key, size_t keysize)
{
    return hash_any(key, (int)keysize);
}

/* The table's functions, called through its pointers as dynahash calls them. */
static uint32_t (*const volatile hash_fn)(const void *, size_t) = tag_hash;
static int (*const volatile match_fn)(const void *, const void *, size_t) = memcmp;
static void *(*const volatile keycopy_fn)(void *, const void *, size_t) = memcpy;

/* calc_bucket (dynahash.c:545). */
static inline uint32_t calc_bucket(const struct shared_hash *h, uint32_t hash_val)
{
    uint32_t bucket = hash_val & h->high_mask;

    if (bucket > h->max_bucket)
        bucket &= h->low_mask;
    return bucket;
}

/* hash_search (dynahash.c:581): the key hashed through the table's hash function, its bucket's
 * chain walked comparing hash values and keys (match), then FIND returns the entry, REMOVE
 * unlinks it onto the free list, ENTER takes a free element, copies the key (keycopy) and
 * tests the fill factor (expand_table: never here). */
static __attribute__((noinline)) struct hash_element *
hash_search(struct exec_state *st, const struct buffer_tag *key, enum hash_action action,
            bool *found)
{
    struct shared_hash *h = st->hash;
    uint32_t hashvalue = h->hash(key, h->keysize), bucket = calc_bucket(h, hashvalue);
    struct hash_element **prev = &h->dir[bucket >> h->sshift][bucket & (h->ssize - 1)];
    struct hash_element *cur = *prev;

    st->steps->hash_searches++;
    while (cur && !(cur->hashvalue == hashvalue && h->match(&cur->key, key, h->keysize) == 0)) {
        prev = &cur->link;
        cur = *prev;
    }
    if (found)
        *found = cur != NULL;
    if (action == HASH_FIND || (action == HASH_ENTER && cur))
        return cur;
    if (action == HASH_REMOVE) {
        if (cur) {
            h->nentries--;
            *prev = cur->link;
            cur->link = h->free_list;
            h->free_list = cur;
        }
        return cur;
    }
    cur = h->free_list;
    if (!cur) {
        unexpected(st); /* element_alloc: never, the stand-in has room */
        return NULL;
    }
    h->free_list = cur->link;
    *prev = cur;
    cur->link = NULL;
    cur->hashvalue = hashvalue;
    h->keycopy(&cur->key, key, h->keysize);
    if (++h->nentries / (long)(h->max_bucket + 1) >= h->ffactor)
        unexpected(st); /* expand_table: never, the stand-in's fill stays below the factor */
    return cur;
}

/* BufTableLookup, BufTableInsert, BufTableDelete (buf_table.c:78, 102, 128). */
static int buf_table_lookup(struct exec_state *st, const struct buffer_tag *tag)
{
    struct hash_element *e = hash_search(st, tag, HASH_FIND, NULL);
    return e ? e->id : -1;
}

static int buf_table_insert(struct exec_state *st, const struct buffer_tag *tag, int buf_id)
{
    bool found;
    struct hash_element *e = hash_search(st, tag, HASH_ENTER, &found);

    if (found)
        return e->id; /* another backend read the block meanwhile: never here */
    if (e)
        e->id = buf_id;
    return -1;
}

static void buf_table_delete(struct exec_state *st, const struct buffer_tag *tag)
{
    (void)hash_search(st, tag, HASH_REMOVE, NULL);
}

/* StrategyGetBuffer (freelist.c:59): BufFreelistLock, then the free list's head (VACUUM put
 * its buffers there: lines 72-91) or the clock sweep from the hand (lines 94-127, the hand
 * moved on before the test, an error after NBuffers pinned buffers), each candidate's header
 * spinlock taken to test refcount and usage_count; the victim is returned with its spinlock
 * held and BufFreelistLock still held. The hand finds its first buffer unused: the sweep's
 * other visits, which lower usage counts, are the pool policy's (policy.h; the page's set-up
 * clears the count the sweep would have). */
static __attribute__((noinline)) struct buffer_desc *strategy_get_buffer(struct exec_state *st)
{
    struct strategy_control *sc = st->strategy;
    struct buffer_desc *buf;
    int trycounter = sc->nbuffers;

    lwlock_acquire81(st, LW_BUF_FREELIST, true);
    while (sc->first_free >= 0) {
        buf = &st->buffer_descriptors[sc->first_free];
        sc->first_free = buf->free_next;
        buf->free_next = FREENEXT_NOT_IN_LIST;
        st->holdoff++; /* LockBufHdr: SpinLockAcquire's HOLD_INTERRUPTS */
        s_lock(st, &buf->buf_hdr_lock);
        if (buf->refcount == 0 && buf->usage_count == 0)
            return buf;
        s_unlock(&buf->buf_hdr_lock);
        st->holdoff--;
    }
    for (;;) {
        buf = &st->buffer_descriptors[sc->next_victim];
        if (++sc->next_victim >= sc->nbuffers)
            sc->next_victim = 0;
        st->holdoff++;
        s_lock(st, &buf->buf_hdr_lock);
        if (buf->refcount == 0 && buf->usage_count == 0)
            return buf;
        if (buf->usage_count > 0) {
            buf->usage_count--;
            trycounter = sc->nbuffers;
        } else if (--trycounter == 0) {
            unexpected(st); /* elog(ERROR, "no unpinned buffers available"): never */
            return buf;
        }
        s_unlock(&buf->buf_hdr_lock);
        st->holdoff--;
    }
}

/* StartBufferIO(buf, forInput) (bufmgr.c:1968): the buffer's io_in_progress_lock, its header
 * spinlock, BM_IO_IN_PROGRESS set unless the page is valid already. TerminateBufferIO
 * (bufmgr.c:2035): the header spinlock, the flags, the lock released. */
static __attribute__((noinline)) bool start_buffer_io(struct exec_state *st,
                                                      struct buffer_desc *buf)
{
    st->steps->buffer_ios++;
    lwlock_acquire81(st, buf->io_in_progress_lock_id, true);
    s_lock(st, &buf->buf_hdr_lock);
    if (buf->flags & BM_VALID) {
        s_unlock(&buf->buf_hdr_lock);
        lwlock_release81(st, buf->io_in_progress_lock_id);
        return false;
    }
    buf->flags |= BM_IO_IN_PROGRESS;
    s_unlock(&buf->buf_hdr_lock);
    st->in_progress_buf = buf;
    return true;
}

static __attribute__((noinline)) void terminate_buffer_io(struct exec_state *st,
                                                          struct buffer_desc *buf,
                                                          uint16_t set_flag_bits)
{
    s_lock(st, &buf->buf_hdr_lock);
    buf->flags &= (uint16_t)~(BM_IO_IN_PROGRESS | BM_IO_ERROR);
    buf->flags |= set_flag_bits;
    s_unlock(&buf->buf_hdr_lock);
    st->in_progress_buf = NULL;
    lwlock_release81(st, buf->io_in_progress_lock_id);
}

/* smgrread (smgr.c:525) through the storage manager switch to mdread (md.c:477): the segment
 * (_mdfd_getseg, md.c:1204: mdopen's open file, no segment to step over below 1GB), the
 * offset, FileSeek (fd.c:1136: no lseek, the file is where the last read left it) and
 * FileRead (fd.c:1010: FileAccess, fd.c:743, finds the file open and most recently used).
 * The read() itself is the engine's copy into the buffer (kernel.h), not done again here. */
static __attribute__((noinline)) long file_seek(struct exec_state *st, int file, long offset)
{
    if (st->vfd[file].fd < 0 || offset < 0 || st->vfd[file].seek_pos != offset)
        unexpected(st); /* a closed file, a bad offset, an lseek(): never, the scan is sequential */
    return st->vfd[file].seek_pos;
}

static __attribute__((noinline)) int file_read(struct exec_state *st, int file, int amount)
{
    if (st->vfd[file].fd < 0 || st->vfd[0].lru_less_recently != file)
        unexpected(st); /* LruInsert, or Delete and Insert in the ring: never, the file is open
                           and the most recently used */
    st->vfd[file].seek_pos += amount; /* read() returned amount: the engine's copy */
    return amount;
}

static __attribute__((noinline)) bool mdread(struct exec_state *st, uint32_t blocknum)
{
    const uint32_t relseg_size = 131072; /* pg_config_manual.h: 1GB segments of 8KB */
    long seekpos;

    if (!st->smgr.md_fd)
        unexpected(st); /* mdopen's open: never, the relation is open */
    for (uint32_t segstogo = blocknum / relseg_size; segstogo > 0; segstogo--)
        if (!st->smgr.mdfd_chain)
            unexpected(st); /* _mdfd_openseg: never below 1GB */
    seekpos = (long)(8192 * (blocknum % relseg_size));
    if (file_seek(st, st->smgr.mdfd_vfd, seekpos) != seekpos)
        return false;
    return file_read(st, st->smgr.mdfd_vfd, 8192) == 8192;
}

typedef bool (*smgr_read_fn)(struct exec_state *, uint32_t);
static const smgr_read_fn volatile smgrsw_read[1] = {mdread}; /* smgrsw[].smgr_read */

static void smgr_read(struct exec_state *st, uint32_t blocknum)
{
    st->steps->smgr_reads++;
    if (!smgrsw_read[st->smgr.which](st, blocknum))
        unexpected(st); /* ereport(ERROR, "could not read block"): never */
}

/* PageHeaderIsValid (bufpage.c:68): the header's size, version and bounds, checked on every
 * page read in; a page failing them is tested for all zeroes. */
static __attribute__((noinline)) bool page_header_is_valid(const uint8_t *page, uint32_t size)
{
    uint16_t lower = sb_page_lower(page), upper = sb_page_upper(page);
    uint16_t special = sb_load16(page + 16), version = sb_load16(page + 18);

    if ((version & 0xff00u) == (size & 0xff00u) && (version & 0xffu) == PG_PAGE_LAYOUT_VERSION &&
        lower >= SB_PAGE_HEADER_SIZE && lower <= upper && upper <= special && special <= size &&
        special == SB_MAXALIGN(special))
        return true;
    for (uint32_t i = 0; i < size; i++)
        if (page[i] != 0)
            return false;
    return true;
}

/* BufferAlloc (bufmgr.c:311) of a block not in the pool, as every page of the engine's scans
 * is: the tag looked up under BufMappingLock shared (lines 326-370), a victim from
 * StrategyGetBuffer pinned (PinBuffer_Locked) and BufFreelistLock released (381-392), the new
 * tag entered under BufMappingLock exclusive (438-447), the header retagged under its spinlock
 * (496-527), the old tag deleted (530), the lock released, StartBufferIO (539). A dirty victim's
 * write (FlushBuffer, 401-432) is the pool's write-back (writeback.h), not done here. */
static struct buffer_desc *buffer_alloc81(struct exec_state *st, uint32_t block, bool *found)
{
    struct buffer_tag new_tag = {st->rel.node[0], st->rel.node[1], st->rel.node[2], block};
    struct buffer_tag old_tag;
    struct buffer_desc *buf;
    uint16_t old_flags;
    int buf_id;

    lwlock_acquire81(st, LW_BUF_MAPPING, false);
    buf_id = buf_table_lookup(st, &new_tag);
    if (buf_id >= 0) { /* in the pool: never here; PinBuffer (bufmgr.c:776) */
        unexpected(st);
        buf = &st->buffer_descriptors[buf_id];
        if (st->private_refcounts[buf_id] == 0) {
            s_lock(st, &buf->buf_hdr_lock);
            buf->refcount++;
            s_unlock(&buf->buf_hdr_lock);
        }
        st->private_refcounts[buf_id]++;
        resowner_remember_buffer(st, buf_id + 1);
        lwlock_release81(st, LW_BUF_MAPPING);
        *found = true;
        return buf;
    }
    lwlock_release81(st, LW_BUF_MAPPING);
    buf = strategy_get_buffer(st);
    pin_buffer_locked(st, buf);
    lwlock_release81(st, LW_BUF_FREELIST);
    if (buf->flags & BM_DIRTY) { /* FlushBuffer (401-432): the pool's write-back wrote it */
        s_lock(st, &buf->buf_hdr_lock);
        buf->flags &= (uint16_t)~(BM_DIRTY | BM_JUST_DIRTIED);
        s_unlock(&buf->buf_hdr_lock);
    }
    lwlock_acquire81(st, LW_BUF_MAPPING, true);
    (void)buf_table_insert(st, &new_tag, buf->buf_id);
    s_lock(st, &buf->buf_hdr_lock);
    old_flags = buf->flags;
    if (!(buf->refcount == 1 && !(old_flags & BM_DIRTY)))
        unexpected(st); /* pinned or dirtied meanwhile: another try; never here */
    old_tag = (struct buffer_tag){buf->rnode[0], buf->rnode[1], buf->rnode[2], buf->block};
    memcpy(buf->rnode, &new_tag, sizeof buf->rnode);
    buf->block = block;
    buf->flags &= (uint16_t)~(BM_VALID | BM_DIRTY | BM_JUST_DIRTIED | BM_IO_ERROR);
    buf->flags |= BM_TAG_VALID;
    buf->usage_count = 0;
    s_unlock(&buf->buf_hdr_lock);
    if (old_flags & BM_TAG_VALID)
        buf_table_delete(st, &old_tag);
    lwlock_release81(st, LW_BUF_MAPPING);
    *found = !start_buffer_io(st, buf);
    return buf;
}

/* ReadBuffer (bufmgr.c:119), 8.1's: the owner made room for the pin, the block counted
 * (pgstat_count_buffer_read: stats_block_level off; ReadBufferCount), BufferAlloc, then the
 * read (smgrread), the header checked (PageHeaderIsValid), TerminateBufferIO setting
 * BM_VALID, the vacuum cost test. Returns the buffer (buf_id + 1). */
static int read_buffer81(struct exec_state *st, uint32_t block, const uint8_t *page,
                         uint32_t page_size)
{
    struct buffer_desc *buf;
    bool found;

    st->steps->buffer_reads++;
    resowner_enlarge_buffers(st);
    if (pgstat_collect_blocklevel)
        unexpected(st); /* t_blocks_fetched: stats_block_level is off */
    st->read_buffer_count++;
    buf = buffer_alloc81(st, block, &found);
    st->cur = buf;
    if (!found) {
        smgr_read(st, block);
        if (!page_header_is_valid(page, page_size))
            unexpected(st); /* ereport(ERROR, "invalid page header"): never */
        terminate_buffer_io(st, buf, BM_VALID);
    }
    if (vacuum_cost_active)
        unexpected(st); /* VacuumCostBalance += VacuumCostPageMiss: vacuum_cost_delay is 0 */
    return buf->buf_id + 1;
}

/* ReleaseAndReadBuffer (bufmgr.c:729): a valid shared buffer (BufferIsValid, BufferIsLocal)
 * already holding the block is kept (its descriptor's tag compared); another is unpinned (UnpinBuffer(buf, true, true)) before ReadBuffer of the next
 * block, which is the next page's pass. True when it kept the buffer. */
static __attribute__((noinline)) bool release_and_read_buffer81(struct exec_state *st,
                                                                int buffer, uint32_t block)
{
    struct buffer_desc *hdr;

    if (!buffer_is_valid(st, buffer))
        return false;
    if (buffer < 0) {
        unexpected(st); /* a local buffer: never */
        return false;
    }
    hdr = &st->buffer_descriptors[buffer - 1];
    if (hdr->block == block && hdr->rnode[2] == st->rel.node[2] &&
        hdr->rnode[1] == st->rel.node[1] && hdr->rnode[0] == st->rel.node[0])
        return true;
    unpin_buffer81(st, hdr, true, true);
    return false;
}

/* LockBuffer (bufmgr.c:1771): not a local buffer; the descriptor's content lock released, or
 * taken shared, or exclusive (the buffer then marked dirty). */
enum { BUFFER_LOCK_UNLOCK, BUFFER_LOCK_SHARE, BUFFER_LOCK_EXCLUSIVE }; /* bufmgr.h */

static __attribute__((noinline)) void lock_buffer81(struct exec_state *st, int buffer, int mode)
{
    struct buffer_desc *buf;

    if (buffer < 0) {
        unexpected(st); /* BufferIsLocal: never */
        return;
    }
    buf = &st->buffer_descriptors[buffer - 1];
    if (mode == BUFFER_LOCK_UNLOCK) {
        lwlock_release81(st, buf->content_lock_id);
    } else if (mode == BUFFER_LOCK_SHARE) {
        lwlock_acquire81(st, buf->content_lock_id, false);
    } else if (mode == BUFFER_LOCK_EXCLUSIVE) {
        lwlock_acquire81(st, buf->content_lock_id, true);
        s_lock(st, &buf->buf_hdr_lock); /* the buffer marked dirty (1795-1797): never here */
        buf->flags |= BM_DIRTY | BM_JUST_DIRTIED;
        s_unlock(&buf->buf_hdr_lock);
    } else {
        unexpected(st); /* elog(ERROR, "unrecognized buffer lock mode") */
    }
}

/* ReadBuffer of a page already in the pool (bufmgr.c BufferAlloc's hit): BufMappingLock shared,
 * BufTableLookup (the tag hashed, the entry's key compared), PinBuffer, the lock released.
 * 8.2's path (its scans' pages are the engine's, read as hits). */
static void read_buffer(struct exec_state *st, uint32_t block)
{
    uint32_t tag[4] = {st->buf.rnode[0], st->buf.rnode[1], st->buf.rnode[2], block};
    uint32_t key[4] = {st->buf.rnode[0], st->buf.rnode[1], st->buf.rnode[2], st->buf.block};

    st->steps->buffer_reads++;
    lwlock_acquire(st, &st->mapping_lock, 1, false);
    st->hashcode = hash_any((const unsigned char *)tag, (int)sizeof tag);
    if (memcmp(tag, key, sizeof tag) == 0)
        pin_buffer(st, &st->buf);
    lwlock_release(st, &st->mapping_lock, 1);
}

/* SetBufferCommitInfoNeedsSave (bufmgr.c:1702): a hint bit stored marks the buffer dirty under
 * its header spinlock, unless it is already. */
static void set_buffer_commit_info_needs_save(struct exec_state *st)
{
    struct buffer_desc *buf = st->cur;

    if ((buf->flags & (BM_DIRTY | BM_JUST_DIRTIED)) != (BM_DIRTY | BM_JUST_DIRTIED)) {
        s_lock(st, &buf->buf_hdr_lock);
        buf->flags |= BM_DIRTY | BM_JUST_DIRTIED;
        s_unlock(&buf->buf_hdr_lock);
    }
}

/* --- the executor's state for one page --------------------------------------------------- */

/* The state a scan keeps, as it is when the page's turn comes (set field by field: the
 * arrays are written before they are read). */
static void exec_begin(struct exec_state *st, struct sb_exec_steps *steps)
{
    st->steps = steps;
    st->mapping_lock = (struct lwlock){.mutex = ATOMIC_FLAG_INIT};
    st->content_lock82 = (struct lwlock){.mutex = ATOMIC_FLAG_INIT};
    st->buf = (struct buffer_desc){.rnode = {1663, 10793, 16384}, .refcount = 1,
                                   .buf_hdr_lock = ATOMIC_FLAG_INIT};
    st->cur = &st->buf;
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
    st->vac.num_tuples = st->vac.tups_vacuumed = st->vac.nonempty_pages = st->vac.nunused = 0;
    st->vac.num_dead = st->vac.num_free = 0;
    st->vac.max_dead = sizeof st->vac.dead / sizeof st->vac.dead[0];
    st->vac.max_free = sizeof st->vac.free_pages / sizeof st->vac.free_pages[0];
    st->vac.threshold = INITIAL_AVERAGE;
    st->agg.ps = (struct plan_state){.tag = T_AGG_STATE}; /* int8inc's IsA(context, AggState) */
    st->steps->pages++;
}

/* --- 8.1's shared buffer structures at a pool's size (executor.h: sb_exec_shared) --------- */

#define NUM_FIXED_LWLOCKS 22       /* lwlock.h:26-51: BufMappingLock to TablespaceCreateLock */
#define NUM_SLRU_BUFFERS 8         /* slru.h:24 */
#define NUM_USER_DEFINED_LWLOCKS 4 /* pg_config_manual.h:80 */
/* The buffers' locks come after those the SLRUs assign first (ipci.c:152-156: clog, subtrans,
 * multixact's offsets and members, slru.c:172), two a buffer (buf_init.c:128-129). */
#define FIRST_BUFFER_LWLOCK (NUM_FIXED_LWLOCKS + 4 * NUM_SLRU_BUFFERS)
#define DEF_SEGSIZE 256            /* dynahash.c: a segment's buckets */
#define DEF_SEGSIZE_SHIFT 8
#define RELSEG_SIZE 131072u        /* pg_config_manual.h: 1GB segments of 8KB blocks */

/* my_log2 (dynahash.c): the least i with 2^i >= num. */
static unsigned my_log2(uint64_t num)
{
    unsigned i = 0;

    for (uint64_t limit = 1; limit < num; limit <<= 1)
        i++;
    return i;
}

static void *zeroed(size_t n, size_t size)
{
    size_t bytes = (n * size + 63) & ~(size_t)63;
    void *p = bytes / size >= n ? aligned_alloc(64, bytes) : NULL;

    if (p)
        memset(p, 0, bytes);
    return p;
}

/* The buffer table as InitBufTable(NBuffers + 1) makes it (freelist.c:245, buf_table.c:62;
 * dynahash.c init_htab:366-381 and element_alloc:1041): buckets the next power of two of the
 * elements (fill factor 1), segments of 256 buckets, every element on the free list. */
static void region_table(struct sb_exec_shared *r)
{
    struct shared_hash *h = &r->hash;

    *h = (struct shared_hash){.hash = hash_fn, .match = match_fn, .keycopy = keycopy_fn,
                              .keysize = sizeof(struct buffer_tag),
                              .max_bucket = r->nbuckets - 1, .low_mask = r->nbuckets - 1,
                              .high_mask = (r->nbuckets << 1) - 1, .sshift = DEF_SEGSIZE_SHIFT,
                              .ssize = DEF_SEGSIZE, .ffactor = 1, .dir = r->dir};
    for (uint32_t i = 0; i < r->nsegments; i++)
        r->dir[i] = r->buckets + (size_t)i * DEF_SEGSIZE;
    for (uint32_t i = 0; i < r->nelements; i++) {
        r->elements[i].link = h->free_list;
        h->free_list = &r->elements[i];
    }
}

/* The pool as a fresh server has it (buf_init.c:110-133, freelist.c StrategyInitialize): every
 * buffer free, in order on the free list, its locks by id; no tag in the table. */
static void region_buffers(struct sb_exec_shared *r)
{
    for (uint32_t b = 0; b < r->nbuffers; b++) {
        struct buffer_desc *buf = &r->descs[b];
        buf->buf_id = (int)b;
        buf->free_next = b + 1 < r->nbuffers ? (int)b + 1 : FREENEXT_END_OF_LIST;
        buf->io_in_progress_lock_id = FIRST_BUFFER_LWLOCK + 2 * (int)b;
        buf->content_lock_id = FIRST_BUFFER_LWLOCK + 2 * (int)b + 1;
    }
    r->strategy = (struct strategy_control){.first_free = 0, .last_free = (int)r->nbuffers - 1,
                                            .nbuffers = (int)r->nbuffers};
}

struct sb_exec_shared *sb_exec_shared_create(uint32_t nbuffers)
{
    struct sb_exec_shared *r;

    if (nbuffers == 0 || nbuffers > (INT_MAX - FIRST_BUFFER_LWLOCK - NUM_USER_DEFINED_LWLOCKS) / 2)
        return NULL;
    r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->nbuffers = nbuffers;
    r->nlocks = FIRST_BUFFER_LWLOCK + 2 * nbuffers + NUM_USER_DEFINED_LWLOCKS;
    r->nelements = nbuffers + 1;
    r->nbuckets = 1u << my_log2(r->nelements);
    r->nsegments = 1u << my_log2((r->nbuckets - 1) / DEF_SEGSIZE + 1);
    r->descs = zeroed(nbuffers, sizeof *r->descs);
    r->locks = zeroed(r->nlocks, sizeof *r->locks);
    r->private_refcounts = zeroed(nbuffers, sizeof *r->private_refcounts);
    r->buckets = zeroed((size_t)r->nsegments * DEF_SEGSIZE, sizeof *r->buckets);
    r->dir = zeroed(r->nsegments, sizeof *r->dir);
    r->elements = zeroed(r->nelements, sizeof *r->elements);
    if (!r->descs || !r->locks || !r->private_refcounts || !r->buckets || !r->dir ||
        !r->elements) {
        sb_exec_shared_destroy(r);
        return NULL;
    }
    region_table(r);
    region_buffers(r);
    r->relfilenode = 16384;
    return r;
}

void sb_exec_shared_destroy(struct sb_exec_shared *shared)
{
    if (!shared)
        return;
    if (bound_region == shared)
        bound_region = NULL;
    free(shared->descs);
    free(shared->locks);
    free(shared->private_refcounts);
    free(shared->buckets);
    free(shared->dir);
    free(shared->elements);
    free(shared);
}

void sb_exec_shared_bind(struct sb_exec_shared *shared) { bound_region = shared; }

void sb_exec_shared_state(const struct sb_exec_shared *r, struct sb_exec_shared_state *out)
{
    *out = (struct sb_exec_shared_state){.nbuffers = r->nbuffers, .buckets = r->nbuckets,
                                         .entries = (uint32_t)r->hash.nentries,
                                         .pages = r->pages, .unexpected = r->unexpected,
                                         .first_free = r->strategy.first_free,
                                         .next_victim = r->strategy.next_victim};
    for (uint32_t b = 0; b < r->nbuffers; b++) {
        out->used += (r->descs[b].flags & BM_TAG_VALID) != 0;
        out->pinned += r->descs[b].refcount != 0 || r->private_refcounts[b] != 0;
    }
    for (uint32_t i = 0; i < r->nlocks; i++)
        out->locks_held += r->locks[i].exclusive != 0 || r->locks[i].shared != 0;
}

/* 8.1's buffer manager as the page's read finds it in a region: the next block of the
 * relation (a new relfilenode after 1GB, one segment's blocks: mdread reads below it), the file
 * where the last read left it (a scan starting over seeks: FileSeek's lseek, not done), the
 * clock hand's buffer with the usage count the pool policy's sweep leaves it, 0. */
static void exec_begin81_region(struct exec_state *st, struct sb_exec_shared *r)
{
    uint32_t block = r->next_block;

    if (block >= RELSEG_SIZE) {
        block = 0;
        r->relfilenode++;
    }
    r->next_block = block + 1;
    r->pages++;
    st->block = block;
    st->lwlock_array = r->locks;
    st->nbuffers = (int)r->nbuffers;
    st->buffer_descriptors = r->descs;
    st->private_refcounts = r->private_refcounts;
    st->hash = &r->hash;
    st->strategy = &r->strategy;
    if (r->strategy.first_free < 0)
        r->descs[r->strategy.next_victim].usage_count = 0;
    st->vfd[1].seek_pos = 8192 * (long)block;
    st->rel.node[0] = 1663;
    st->rel.node[1] = 10793;
    st->rel.node[2] = r->relfilenode;
}

/* The block the stand-in buffer held (its tag in the table) and the block read into it. */
#define OLD_BLOCK 0u
#define NEW_BLOCK 1u

/* The old tag's hash, for its place in the table (computed once a thread: the stand-in's
 * table is set up again for every page). */
static uint32_t old_tag_hash(const struct buffer_tag *tag)
{
    static _Thread_local uint32_t hash;
    static _Thread_local bool known;

    if (!known) {
        hash = tag_hash(tag, sizeof *tag);
        known = true;
    }
    return hash;
}

/* 8.1's buffer manager as the page's read finds it, without a region: the stand-in buffer
 * holds the block before (clean, unpinned, usage count 0, its tag in the table: one entry, one
 * free element), on the free list when VACUUM sent it there, the file open where the last read
 * left it. */
static void exec_begin81_standin(struct exec_state *st, bool vacuum)
{
    struct shared_hash *h = &st->standin_table;
    struct standin_hash *mem = &st->standin_hash;
    struct hash_element *e = &mem->elements[0];

    for (int i = 0; i < NUM_LWLOCKS81; i++)
        st->standin_locks[i] = (struct lwlock81){.mutex = ATOMIC_FLAG_INIT};
    st->lwlock_array = st->standin_locks;
    st->nbuffers = 2048; /* NBuffers of the measured pool, 16MB (BufferIsValid's bound) */
    st->buffer_descriptors = &st->buf;
    st->private_refcounts = &st->private_refcount;
    st->buf.content_lock_id = LW_CONTENT;
    st->buf.io_in_progress_lock_id = LW_IO_IN_PROGRESS;
    st->buf.refcount = 0;
    st->buf.flags = BM_TAG_VALID | BM_VALID;
    st->buf.block = OLD_BLOCK;
    st->buf.free_next = vacuum ? FREENEXT_END_OF_LIST : FREENEXT_NOT_IN_LIST;
    *h = (struct shared_hash){.hash = hash_fn, .match = match_fn, .keycopy = keycopy_fn,
                              .keysize = sizeof(struct buffer_tag), .high_mask = 2 * HASH_SEGSIZE - 1,
                              .low_mask = HASH_SEGSIZE - 1, .max_bucket = HASH_SEGSIZE - 1,
                              .sshift = 4, .ssize = HASH_SEGSIZE, .nentries = 1, .ffactor = 1,
                              .dir = mem->dir};
    mem->dir[0] = mem->segment;
    memset(mem->segment, 0, sizeof mem->segment);
    e->key = (struct buffer_tag){st->buf.rnode[0], st->buf.rnode[1], st->buf.rnode[2], OLD_BLOCK};
    e->hashvalue = old_tag_hash(&e->key);
    e->id = st->buf.buf_id;
    e->link = NULL;
    mem->segment[calc_bucket(h, e->hashvalue) & (HASH_SEGSIZE - 1)] = e;
    mem->elements[1].link = NULL;
    h->free_list = &mem->elements[1];
    st->hash = h;
    st->strategy = &st->standin_strategy;
    st->strategy->first_free = vacuum ? st->buf.buf_id : -1;
    st->strategy->last_free = st->strategy->first_free;
    st->strategy->next_victim = 0;
    st->strategy->nbuffers = 1;
    st->block = NEW_BLOCK;
    st->vfd[1].seek_pos = 8192 * (long)NEW_BLOCK;
    memcpy(st->rel.node, st->buf.rnode, sizeof st->rel.node);
}

static void exec_begin81_buffers(struct exec_state *st, bool vacuum)
{
    struct sb_exec_shared *r = bound_region;

    st->proc = (struct pgproc){0};
    st->my_proc = &st->proc;
    st->holdoff = 0;
    st->nloc_buffer = 0;
    st->strategy_hint_vacuum = vacuum;
    st->in_progress_buf = NULL;
    st->read_buffer_count = 0;
    st->vfd[0].fd = -1;
    st->vfd[0].lru_less_recently = 1;
    st->vfd[1].fd = 3;
    st->smgr.which = 0;
    st->smgr.mdfd_vfd = 1;
    st->smgr.md_fd = &st->vfd[1];
    st->smgr.mdfd_chain = NULL;
    st->rel.rd_id = 16384;
    st->rel.relkind = 'r';
    if (r)
        exec_begin81_region(st, r);
    else
        exec_begin81_standin(st, vacuum);
}

/* --- visibility (tqual.c, transam.c, xact.c, procarray.c) -------------------------------- */

/* TransactionIdDidCommit for a tuple without its hint (transam.c through the clog): every
 * generated transaction committed; the lookup's work is a load of its status. 8.2's path. */
static bool transaction_did_commit(uint32_t xid)
{
    static const volatile uint8_t clog[4] = {1, 1, 1, 1}; /* TRANSACTION_STATUS_COMMITTED */
    return xid != 0 && clog[xid & 3] == 1;
}

/* TransactionIdPrecedes and TransactionIdFollowsOrEquals (transam.c:333, 382): functions, not
 * macros, in 8.1: unsigned comparison when either is a permanent xid, else modulo 2^31. */
static __attribute__((noinline)) bool xid_precedes(struct exec_state *st, uint32_t id1,
                                                   uint32_t id2)
{
    st->steps->xid_compares++;
    if (id1 < FIRST_NORMAL_XID || id2 < FIRST_NORMAL_XID)
        return id1 < id2;
    return (int32_t)(id1 - id2) < 0;
}

static __attribute__((noinline)) bool xid_follows_or_equals(struct exec_state *st, uint32_t id1,
                                                            uint32_t id2)
{
    st->steps->xid_compares++;
    if (id1 < FIRST_NORMAL_XID || id2 < FIRST_NORMAL_XID)
        return id1 >= id2;
    return (int32_t)(id1 - id2) >= 0;
}

/* The status of an unhinted tuple's xid, 8.1: TransactionIdIsCurrentTransactionId (xact.c:480:
 * the bootstrap xid, then the transaction state's xid), TransactionIdIsInProgress
 * (procarray.c:203: older than RecentXmin, line 218, is not), TransactionIdDidCommit
 * (transam.c:159) through TransactionLogFetch (transam.c:52: the last xid's status cached,
 * else the clog's, cached when final). */
static __attribute__((noinline)) bool xid_is_current(struct exec_state *st, uint32_t xid)
{
    st->steps->xid_lookups++;
    return xid != 1 && xid != 0 && xid == st->current_xid;
}

static __attribute__((noinline)) bool xid_is_in_progress(struct exec_state *st, uint32_t xid)
{
    st->steps->xid_lookups++;
    if (xid_precedes(st, xid, st->recent_xmin))
        return false;
    unexpected(st); /* ProcArrayLock and the proc array's xids: never, every xid is older */
    return false;
}

static __attribute__((noinline)) bool xid_did_commit(struct exec_state *st, uint32_t xid)
{
    static const volatile uint8_t clog[4] = {1, 1, 1, 1}; /* TRANSACTION_STATUS_COMMITTED */
    int status;

    st->steps->xid_lookups++;
    if (xid == st->cached_fetch_xid)
        return st->cached_fetch_status == 1;
    if (xid < FIRST_NORMAL_XID)
        return xid == 1 || xid == FROZEN_XID; /* bootstrap and frozen committed, invalid not */
    status = clog[xid & 3]; /* TransactionIdGetStatus */
    st->cached_fetch_xid = xid;
    st->cached_fetch_status = status;
    return status == 1;
}

/* A hint bit stored where 8.1 stores it (tqual.c: `tuple->t_infomask |= ...;
 * SetBufferCommitInfoNeedsSave(buffer);`). */
static void set_hint(struct exec_state *st, uint8_t *tup, uint16_t bit, bool *stored)
{
    uint16_t v = (uint16_t)(sb_load16(tup + SB_T_INFOMASK) | bit);

    memcpy(tup + SB_T_INFOMASK, &v, 2);
    set_buffer_commit_info_needs_save(st);
    *stored = true;
}

/* The hint bits a visibility test stores, heap.c's expression (want); stored once, with
 * SetBufferCommitInfoNeedsSave, where some are missing. 8.2's path. */
static bool store_hints(struct exec_state *st, uint8_t *tup, uint16_t infomask, uint16_t want)
{
    if ((infomask & want) == want)
        return false;
    uint16_t v = (uint16_t)(infomask | want);
    memcpy(tup + SB_T_INFOMASK, &v, 2);
    set_buffer_commit_info_needs_save(st);
    return true;
}

/* htup.h:169-183 */
#define HEAP_IS_LOCKED 0x00c0u
#define HEAP_XMAX_IS_MULTI 0x1000u
#define HEAP_UPDATED 0x2000u
#define HEAP_MOVED 0xc000u

/* HeapTupleSatisfiesMVCC (tqual.c, REL8_2_STABLE): the inserter committed (its hint, or the
 * clog), not in the snapshot (xmin against the snapshot's xmin, xmax and xip), then the deleter:
 * none (XMAX_INVALID), or committed and not in the snapshot: not visible. Its hint stores are
 * heap.c's count's. 8.2's path. */
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

/* A snapshot's test of an xid that follows its xmin (tqual.c:959-976 and 1028-1045): at or
 * after its xmax, or in its xip: in progress for it. */
static bool xid_in_snapshot(struct exec_state *st, uint32_t xid)
{
    if (xid_follows_or_equals(st, xid, st->snapshot.xmax))
        return true;
    for (uint32_t i = 0; i < st->snapshot.xcnt; i++) /* SubTransGetTopmostTransaction: xid */
        if (xid == st->snapshot.xip[i])
            return true;
    return false;
}

/* The inserter's commit, 8.1 (tqual.c:854-941; HeapTupleSatisfiesVacuum's, 1079-1145, does not
 * ask whether it is our own): an unhinted xmin's transaction looked up and its hint stored.
 * False when the tuple is invisible for it (never here: every generated transaction
 * committed). */
static bool xmin_committed81(struct exec_state *st, uint8_t *tup, uint16_t infomask,
                             bool check_current, bool *stored)
{
    uint32_t xmin = sb_load32(tup);

    if (infomask & SB_HEAP_XMIN_COMMITTED)
        return true;
    if (infomask & SB_HEAP_XMIN_INVALID)
        return false;
    if ((infomask & HEAP_MOVED) || (check_current && xid_is_current(st, xmin)) ||
        xid_is_in_progress(st, xmin)) {
        unexpected(st); /* VACUUM FULL's moves, our own or a running inserter: never */
        return false;
    }
    if (!xid_did_commit(st, xmin)) {
        set_hint(st, tup, SB_HEAP_XMIN_INVALID, stored);
        return false;
    }
    set_hint(st, tup, SB_HEAP_XMIN_COMMITTED, stored);
    return true;
}

/* HeapTupleSatisfiesSnapshot (tqual.c:851), a function called for every used line pointer
 * through HeapTupleSatisfies (valid.h:82) and HeapTupleSatisfiesVisibility (tqual.h:75): the
 * inserter committed, not in the snapshot (TransactionIdFollowsOrEquals against its xmin);
 * the deleter none (XMAX_INVALID), locking only, or committed (its hint, or the clog: the hint
 * stored) and not in the snapshot: then invisible. */
static __attribute__((noinline)) bool satisfies_snapshot81(struct exec_state *st, uint8_t *tup,
                                                           bool *stored)
{
    uint16_t infomask = sb_load16(tup + SB_T_INFOMASK);
    uint32_t xmin = sb_load32(tup), xmax = sb_load32(tup + SB_T_XMAX);

    st->steps->visibility_tests++;
    if (!xmin_committed81(st, tup, infomask, true, stored))
        return false;
    if (xid_follows_or_equals(st, xmin, st->snapshot.xmin) && xid_in_snapshot(st, xmin))
        return false;
    infomask = sb_load16(tup + SB_T_INFOMASK);
    if (infomask & (SB_HEAP_XMAX_INVALID | HEAP_IS_LOCKED | HEAP_XMAX_IS_MULTI))
        return true;
    if (!(infomask & SB_HEAP_XMAX_COMMITTED)) {
        if (xid_is_current(st, xmax) || xid_is_in_progress(st, xmax))
            return true;
        if (!xid_did_commit(st, xmax)) {
            set_hint(st, tup, SB_HEAP_XMAX_INVALID, stored);
            return true;
        }
        set_hint(st, tup, SB_HEAP_XMAX_COMMITTED, stored);
    }
    if (xid_follows_or_equals(st, xmax, st->snapshot.xmin) && xid_in_snapshot(st, xmax))
        return true;
    return false;
}

/* --- SELECT COUNT(*) (execProcnode.c, nodeSeqscan.c, execScan.c, heapam.c, execTuples.c,
 * nodeAgg.c, execQual.c, mcxt.c, aset.c, int8.c) ------------------------------------------ */

/* int8inc (int8.c:654): called by nodeAgg (its context an AggState) it increments its
 * pass-by-reference state in place, with the overflow test. */
static int64_t int8inc(struct function_call_info *fcinfo)
{
    int64_t *arg = (int64_t *)(intptr_t)fcinfo->arg[0];

    if (fcinfo->context && *(const int *)fcinfo->context == T_AGG_STATE) {
        int64_t result = (int64_t)((uint64_t)*arg + 1);
        if (result < 0 && *arg > 0)
            return 0; /* ereport(ERROR, "bigint out of range"): never */
        *arg = result;
        return fcinfo->arg[0];
    }
    return *arg + 1;
}

/* ExecClearTuple (execTuples.c:440): the slot's tuple dropped and its buffer pin released
 * (ReleaseBuffer), the slot marked empty. */
static __attribute__((noinline)) void exec_clear_tuple(struct exec_state *st, struct slot *slot)
{
    if (slot->should_free)
        unexpected(st); /* heap_freetuple: a scan's tuples are the page's */
    slot->tuple = NULL;
    slot->should_free = false;
    if (slot->buffer != 0)
        release_buffer81(st, slot->buffer);
    slot->buffer = 0;
    slot->isempty = true;
    slot->nvalid = 0;
}

/* ExecStoreTuple (execTuples.c:390): a slot not empty cleared first (ExecClearTuple), the
 * new tuple stored, the extracted attributes invalidated; 8.1 pins the tuple's buffer for the
 * slot on every store (IncrBufferRefCount); 8.2 keeps the pin while the buffer is the same
 * (REL8_2_STABLE execTuples.c:440-446: "releasing and re-acquiring the pin is a waste of
 * cycles"): a page's tuples pin it once. */
static __attribute__((noinline)) void exec_store_tuple(struct exec_state *st, const uint8_t *tuple,
                                                       int buffer, enum sb_exec_version v)
{
    st->steps->slot_stores++;
    if (v == SB_EXEC_PG81 && !st->slot.isempty)
        exec_clear_tuple(st, &st->slot);
    st->slot.should_free = false;
    st->slot.isempty = false;
    st->slot.tuple = tuple;
    st->slot.nvalid = 0;
    if (st->slot.buffer != buffer) {
        if (st->slot.buffer != 0)
            release_buffer(st, st->slot.buffer);
        st->slot.buffer = buffer;
        if (buffer != 0)
            incr_buffer_refcount(st, buffer, v);
    }
}

/* pgstat_count_heap_getnext (pgstat.h; 8.1: pgstat.h:432, only with stats_row_level on, off
 * by default): heap_getnext counts a returned tuple in the table's statistics entry. */
static void count_heap_getnext(struct exec_state *st, enum sb_exec_version v)
{
    st->steps->stats_counted++;
    if (v == SB_EXEC_PG82 || (pgstat_collect_tuplelevel && st->scan.pgstat_tabentry != NULL))
        st->tabentry.tuples_returned++;
}

/* advance_aggregates -> advance_transition_function (nodeAgg.c): the call's frame filled
 * (fcinfo: the state as its argument, not null), the transition function called through the
 * function manager (FunctionCallInvoke: fn_addr), its result kept as the new state. 8.2's
 * path; 8.1's is advance_aggregates81. */
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

/* --- 8.1's plan: Agg over SeqScan, a call down the plan per returned tuple --------------- */

/* CHECK_FOR_INTERRUPTS (miscadmin.h:81): the flag a signal handler sets, tested. */
static inline void check_for_interrupts(struct exec_state *st)
{
    st->steps->interrupt_checks++;
    if (interrupt_pending)
        unexpected(st); /* ProcessInterrupts: never */
}

/* MemoryContextSwitchTo (palloc.h:80, inline with gcc). */
static inline struct memory_context *context_switch_to(struct exec_state *st,
                                                       struct memory_context *context)
{
    struct memory_context *old = st->current_context;

    st->current_context = context;
    return old;
}

/* AllocSetReset (aset.c:394): nothing to do when nothing was allocated since the last reset
 * (count(*) allocates nothing a tuple). */
static void alloc_set_reset(struct memory_context *context)
{
    if (context->is_reset)
        return;
    context->is_reset = true; /* the blocks freed: never here */
}
static void (*const volatile alloc_set_reset_fn)(struct memory_context *) = alloc_set_reset;

/* ResetExprContext (executor.h:197) -> MemoryContextReset (mcxt.c:122): the children reset if
 * there are any, then the context's own reset through its methods. */
static __attribute__((noinline)) void memory_context_reset(struct exec_state *st,
                                                           struct memory_context *context)
{
    st->steps->context_resets++;
    if (context->firstchild != NULL)
        unexpected(st); /* MemoryContextResetChildren: the per-tuple context has none */
    context->reset(context);
}

/* ExecEvalConst (execQual.c:711): count(*)'s argument, the constant 1 (gram.y:6998, 8.1 makes
 * AGGREGATE(*) AGGREGATE(1)). */
static int64_t exec_eval_const(struct expr_state *expr, struct memory_context *econtext,
                               bool *isnull, int *isdone)
{
    (void)econtext;
    if (isdone)
        *isdone = 0; /* ExprSingleResult */
    *isnull = expr->constisnull;
    return expr->constvalue;
}
static const expr_eval_fn volatile exec_eval_const_fn = exec_eval_const;

/* ExecEvalExprSwitchContext (execQual.c:3042): the per-tuple context current around
 * ExecEvalExpr, a call through the expression's evalfunc (executor.h:25). */
static __attribute__((noinline)) int64_t
exec_eval_expr_switch_context(struct exec_state *st, struct expr_state *expr,
                              struct memory_context *econtext, bool *isnull)
{
    struct memory_context *old = context_switch_to(st, econtext);
    int64_t value;

    st->steps->expr_evals++;
    value = expr->evalfunc(expr, econtext, isnull, NULL);
    (void)context_switch_to(st, old);
    return value;
}

/* advance_transition_function (nodeAgg.c:320), 8.1: int8inc is strict, so a null input, a
 * state not yet set or a null state skip the call (328-366); the per-tuple context current;
 * the frame's two arguments, the state and the input (InitFunctionCallInfoData,
 * 374-379); FunctionCallInvoke through fn_addr; int8 is passed by reference in 8.1, so a result
 * other than the state would be copied into the aggregate's context (388-400: int8inc returns
 * its state); the state and its null flag kept. */
static __attribute__((noinline)) void
advance_transition_function81(struct exec_state *st, struct agg_state81 *aggstate,
                              const struct agg_per_agg *peraggstate,
                              struct agg_per_group *pergroupstate, int64_t new_val, bool isnull)
{
    struct function_call_info *fc = &st->fcinfo;
    struct memory_context *old;

    st->steps->agg_calls++;
    if (peraggstate->fn_strict &&
        (isnull || pergroupstate->no_trans_value || pergroupstate->trans_value_isnull)) {
        if (!isnull && pergroupstate->no_trans_value)
            unexpected(st); /* datumCopy of the first input: count's state starts at 0 */
        return;
    }
    old = context_switch_to(st, aggstate->tmpcontext);
    fc->flinfo = (void *)peraggstate;
    fc->context = aggstate;
    fc->resultinfo = NULL;
    fc->isnull = false;
    fc->nargs = 2;
    fc->arg[0] = pergroupstate->trans_value;
    fc->argnull[0] = pergroupstate->trans_value_isnull;
    fc->arg[1] = new_val;
    fc->argnull[1] = isnull;
    new_val = peraggstate->fn_addr(fc);
    if (!peraggstate->transtype_byval && new_val != pergroupstate->trans_value)
        unexpected(st); /* datumCopy and pfree: never, int8inc returns its state */
    pergroupstate->trans_value = new_val;
    pergroupstate->trans_value_isnull = fc->isnull;
    (void)context_switch_to(st, old);
}

/* advance_aggregates (nodeAgg.c:417): for each aggregate (count's one), its per-aggregate and
 * per-group states, its argument evaluated in the per-tuple context (ExecEvalExprSwitchContext),
 * not DISTINCT, then advance_transition_function. */
static __attribute__((noinline)) void advance_aggregates81(struct exec_state *st,
                                                           struct agg_state81 *aggstate,
                                                           struct agg_per_group *pergroup)
{
    struct memory_context *econtext = aggstate->tmpcontext;

    for (int aggno = 0; aggno < aggstate->numaggs; aggno++) {
        const struct agg_per_agg *peraggstate = &aggstate->peragg[aggno];
        struct agg_per_group *pergroupstate = &pergroup[aggno];
        bool isnull;
        int64_t value = exec_eval_expr_switch_context(st, peraggstate->target, econtext, &isnull);

        if (peraggstate->aggref->aggdistinct) {
            unexpected(st); /* tuplesort_putdatum: count(*) is not DISTINCT */
            continue;
        }
        advance_transition_function81(st, aggstate, peraggstate, pergroupstate, value, isnull);
    }
}


/* The snapshots HeapTupleSatisfiesVisibility (tqual.h:75) tells apart before the MVCC test:
 * SnapshotNow, SnapshotSelf, SnapshotAny, SnapshotToast, SnapshotDirty. */
static const char special_snapshots[5];
#define RELKIND_UNCATALOGED 'u'

/* heapgettup's walk (heapam.c:288-327): from the next line pointer, each used one's tuple set
 * up (t_data, t_len, t_self) and tested by HeapTupleSatisfies (valid.h:82: the scan keys if
 * any, a catalogued relation, then HeapTupleSatisfiesVisibility's tests of the snapshot's kind
 * down to HeapTupleSatisfiesSnapshot) until one is visible: true, the walk past it. */
static bool heapgettup_walk81(struct exec_state *st, const struct relation81 *relation,
                              struct heap_tuple *tuple, uint32_t page, const void *snapshot,
                              int nkeys, const void *key)
{
    struct page_walk *w = &st->walk;
    uint32_t off;

    for (; w->next < w->n; w->next++) {
        if (!sb_page_tuple(w->page, w->next, w->page_size, &off))
            continue;
        st->steps->tuples++;
        tuple->t_datamcxt = NULL;
        tuple->t_data = w->page + off;
        tuple->t_len = sb_load32(w->page + SB_PAGE_HEADER_SIZE + w->next * SB_LINE_POINTER_SIZE) >> 17;
        tuple->self_block = page;
        tuple->self_off = (uint16_t)(w->next + 1);
        if (key != NULL && nkeys > 0)
            unexpected(st); /* HeapKeyTest: a seqscan has no keys */
        if (relation->relkind == RELKIND_UNCATALOGED)
            unexpected(st); /* visible without a test: never */
        else if (snapshot == &special_snapshots[0] || snapshot == &special_snapshots[1] ||
                 snapshot == &special_snapshots[2] || snapshot == &special_snapshots[3] ||
                 snapshot == &special_snapshots[4])
            unexpected(st); /* a non-MVCC snapshot: never, the scan's is the query's */
        else if (satisfies_snapshot81(st, w->page + off, &w->stored)) {
            w->off = off;
            w->next++;
            return true;
        }
    }
    return false;
}

/* heapgettup (heapam.c:110), forward, a call after the scan's first: the tid of the last tuple
 * (127, 151), the tuple's table set (157), the relation's size tested (162), the direction
 * (175-259), ReleaseAndReadBuffer of the tid's block (261: the same buffer, kept), the content
 * lock (265), the page's line pointers counted (268), the walk, the lock released (308 or 333).
 * False when the page is exhausted: heapgettup then goes on to the next block (338-369), the
 * next page's pass. */
static __attribute__((noinline)) bool heapgettup81(struct exec_state *st,
                                                   const struct relation81 *relation, int dir,
                                                   struct heap_tuple *tuple, int *buffer,
                                                   const void *snapshot, int nkeys,
                                                   const void *key, uint32_t pages)
{
    bool found;
    uint32_t page;

    if (tuple->t_data == NULL || tuple->self_off == 0) {
        unexpected(st); /* the scan's first call: never within the page */
        return false;
    }
    tuple->t_table_oid = relation->rd_id;
    if (pages == 0 || dir <= 0) {
        unexpected(st); /* an empty table, a backward or no-movement scan: never */
        return false;
    }
    page = tuple->self_block;
    st->walk.next = tuple->self_off; /* OffsetNumberNext of the tid's offset, from 0 */
    if (!release_and_read_buffer81(st, *buffer, page))
        unexpected(st); /* another block: never within the page */
    lock_buffer81(st, *buffer, BUFFER_LOCK_SHARE);
    st->walk.n = sb_page_nitems(st->walk.page);
    found = heapgettup_walk81(st, relation, tuple, page, snapshot, nkeys, key);
    lock_buffer81(st, *buffer, BUFFER_LOCK_UNLOCK);
    return found;
}

/* heap_getnext (heapam.c:740): heapgettup with the scan's relation, tuple, buffer, snapshot,
 * keys and size (749-756), the end of the scan tested (758), the tuple counted in the
 * statistics (pgstat_count_heap_getnext, 772). The page exhausted returns no tuple here (the
 * real call goes on to the next page and returns its first). */
static __attribute__((noinline)) struct heap_tuple *heap_getnext81(struct exec_state *st,
                                                                   struct heap_scan_desc *scan,
                                                                   int direction)
{
    if (!heapgettup81(st, scan->rd, direction, &scan->ctup, &scan->cbuf, scan->snapshot,
                      scan->nkeys, scan->key, scan->nblocks))
        scan->ctup.t_data = NULL;
    if (scan->ctup.t_data == NULL && !buffer_is_valid(st, scan->cbuf))
        return NULL;
    if (scan->ctup.t_data != NULL)
        count_heap_getnext(st, SB_EXEC_PG81);
    return scan->ctup.t_data == NULL ? NULL : &scan->ctup;
}

/* SeqNext (nodeSeqscan.c:46): the executor state, scan descriptor, relation index, direction
 * and slot fetched (58-62), the slot cleared (ExecClearTuple, 71: its pin released), no
 * EvalPlanQual tuple (79), heap_getnext (102), the tuple stored in the slot with its buffer
 * (ExecStoreTuple, 113). Called through ExecScan's access method pointer. */
static struct slot *seq_next81(struct exec_state *st, struct plan_state *node)
{
    struct estate81 *estate = node->state;
    struct heap_scan_desc *scandesc = node->scan_desc;
    int scanrelid = node->scanrelid, direction = estate->direction;
    struct slot *slot = node->scan_slot;
    struct heap_tuple *tuple;

    exec_clear_tuple(st, slot);
    if (estate->evtuple != NULL && estate->evtuple[scanrelid - 1] != NULL) {
        unexpected(st); /* EvalPlanQual: never */
        return slot;
    }
    tuple = heap_getnext81(st, scandesc, direction);
    if (tuple)
        exec_store_tuple(st, tuple->t_data, scandesc->cbuf, SB_EXEC_PG81);
    return slot;
}
typedef struct slot *(*scan_access_mtd)(struct exec_state *, struct plan_state *);
static const scan_access_mtd volatile seq_next_mtd = seq_next81;

/* ExecQual and ExecProject (execQual.c): a qual's test, a projection; count(*)'s scan has
 * neither (its tlist is the relation's own: createplan.c's physical tlist), never called. */
static __attribute__((noinline, cold)) bool exec_qual(struct exec_state *st, void *qual)
{
    unexpected(st);
    return qual != NULL;
}

/* ExecScan (execScan.c:48): without a qual or a projection the access method's tuple is
 * returned as it is (60-68); else the per-tuple context reset and each tuple tested and
 * projected (75-165): never here. */
static __attribute__((noinline)) struct slot *exec_scan81(struct exec_state *st,
                                                          struct plan_state *node,
                                                          scan_access_mtd access)
{
    void *qual = node->qual, *proj_info = node->proj_info;
    struct slot *slot;

    if (!qual && !proj_info)
        return access(st, node);
    if (node->tup_from_tlist)
        unexpected(st); /* ExecProject of a set-returning tlist */
    memory_context_reset(st, node->econtext);
    for (;;) {
        check_for_interrupts(st);
        slot = access(st, node);
        if (slot == NULL || slot->isempty)
            return proj_info ? NULL : slot;
        node->ecxt_scantuple = slot;
        if (!qual || exec_qual(st, qual))
            return proj_info && exec_qual(st, proj_info) ? NULL : slot;
        memory_context_reset(st, node->econtext);
    }
}

/* ExecSeqScan (nodeSeqscan.c:133): ExecScan with SeqNext. */
static __attribute__((noinline)) struct slot *exec_seq_scan81(struct exec_state *st,
                                                              struct plan_state *node)
{
    return exec_scan81(st, node, seq_next_mtd);
}

/* ExecProcNode (execProcnode.c:288): CHECK_FOR_INTERRUPTS (292), no changed parameter (294),
 * no instrumentation (297, 402), the node's function by its tag (300-400). */
static __attribute__((noinline)) struct slot *exec_proc_node81(struct exec_state *st,
                                                               struct plan_state *node)
{
    struct slot *result = NULL;

    st->steps->plan_calls++;
    check_for_interrupts(st);
    if (node->chg_param != NULL || node->instrument != NULL)
        unexpected(st); /* ExecReScan, InstrStartNode: never */
    switch (node->tag) {
    case T_SEQSCAN_STATE:
        result = exec_seq_scan81(st, node);
        break;
    default:
        unexpected(st); /* another node: count(*)'s Agg has one child, the SeqScan */
        break;
    }
    if (node->instrument != NULL)
        unexpected(st); /* InstrStopNode: never */
    return result;
}

/* agg_retrieve_direct's loop (nodeAgg.c:779-815), a turn a tuple: the input advanced into the
 * aggregates, the per-tuple context reset (ResetExprContext), the next input asked of the scan
 * (ExecProcNode), tested (TupIsNull, tuptable.h:118) and taken; AGG_PLAIN has no group to
 * match. False when the scan found the page exhausted. */
static bool agg_turn81(struct exec_state *st)
{
    struct slot *outerslot;

    advance_aggregates81(st, &st->agg, st->agg.pergroup);
    memory_context_reset(st, st->agg.tmpcontext);
    outerslot = exec_proc_node81(st, &st->seqscan);
    if (outerslot == NULL || outerslot->isempty)
        return false;
    st->agg.ecxt_scantuple = outerslot;
    if (st->agg.aggstrategy == AGG_SORTED)
        unexpected(st); /* execTuplesMatch: count(*) is AGG_PLAIN */
    return true;
}

/* The Agg node of count(*): AGG_PLAIN, one aggregate, its argument the constant 1, not
 * DISTINCT, its transition function int8inc (strict, int8 by reference), its state not null. */
static void exec_begin81_agg(struct agg_state81 *agg, int64_t *state)
{
    agg->aggstrategy = AGG_PLAIN;
    agg->numaggs = 1;
    agg->target = (struct expr_state){.evalfunc = exec_eval_const_fn, .constvalue = 1};
    agg->aggref.aggdistinct = false;
    agg->peragg_data[0] = (struct agg_per_agg){.target = &agg->target, .aggref = &agg->aggref,
                                               .fn_addr = transition_function, .fn_strict = true};
    agg->pergroup_data[0] = (struct agg_per_group){.trans_value = (int64_t)(intptr_t)state};
    agg->peragg = agg->peragg_data;
    agg->pergroup = agg->pergroup_data;
    agg->tmp_memory = (struct memory_context){.reset = alloc_set_reset_fn, .is_reset = true};
    agg->agg_memory = agg->tmp_memory;
    agg->tmpcontext = &agg->tmp_memory;
    agg->aggcontext = &agg->agg_memory;
    agg->ecxt_scantuple = NULL;
}

/* 8.1's plan and transaction as the page's turn finds them: the scan's descriptor (its
 * snapshot the query's, no keys, no statistics entry), the SeqScan node (no qual, projection,
 * parameter or instrumentation), the Agg node (AGG_PLAIN, one strict aggregate over int8, its
 * argument the constant 1, its state not null), the per-query context current; the
 * transaction's own xid, RecentXmin and the last xid looked up (none). */
static void exec_begin81_plan(struct exec_state *st)
{
    st->scan = (struct heap_scan_desc){.rd = &st->rel, .nblocks = 16384,
                                       .snapshot = &st->snapshot};
    st->estate = (struct estate81){.direction = 1};
    st->scan_context = (struct memory_context){.reset = alloc_set_reset_fn, .is_reset = true};
    st->seqscan = (struct plan_state){.tag = T_SEQSCAN_STATE, .state = &st->estate,
                                      .scan_desc = &st->scan, .scan_slot = &st->slot,
                                      .scanrelid = 1, .econtext = &st->scan_context};
    exec_begin81_agg(&st->agg, &st->trans_value);
    st->current_context = st->agg.aggcontext;
    st->current_xid = st->recent_xmin = SB_XID_DELETE + 1;
    st->cached_fetch_xid = 0;
    st->cached_fetch_status = 0;
}

static void exec_begin81(struct exec_state *st, struct sb_exec_steps *steps, bool vacuum,
                         uint8_t *page, uint32_t page_size)
{
    exec_begin(st, steps);
    exec_begin81_buffers(st, vacuum);
    exec_begin81_plan(st);
    st->walk = (struct page_walk){.page = page, .page_size = page_size};
}

/* 8.1's COUNT(*) over one page, as its plan runs it (agg_retrieve_direct over ExecSeqScan, a
 * call down the plan per returned tuple). The call that found the page before exhausted goes on
 * to this one (heapam.c:338-369): ReadBuffer of a block not in the pool (ReleaseAndReadBuffer,
 * 352), the content lock, the walk to the first visible tuple, the lock released; the tuple
 * goes up the plan (heap_getnext's count, SeqNext's ExecStoreTuple). Then a turn of the Agg
 * node's loop per tuple, each calling down the plan for the next (ExecProcNode ... heapgettup);
 * the last call finds the page exhausted and unpins its buffer (ReleaseAndReadBuffer's
 * UnpinBuffer, 758), its ReadBuffer being the next page's. */
static uint32_t count81(void *page_mem, uint32_t page_size, bool *dirtied,
                        struct sb_exec_steps *steps)
{
    struct exec_state st;
    bool found;

    exec_begin81(&st, steps, false, page_mem, page_size);
    st.fcinfo.context = &st.agg.ps;
    st.scan.cbuf = read_buffer81(&st, st.block, page_mem, page_size);
    lock_buffer81(&st, st.scan.cbuf, BUFFER_LOCK_SHARE);
    st.walk.n = sb_page_nitems(page_mem);
    found = heapgettup_walk81(&st, &st.rel, &st.scan.ctup, st.block, st.scan.snapshot,
                              st.scan.nkeys, st.scan.key);
    lock_buffer81(&st, st.scan.cbuf, BUFFER_LOCK_UNLOCK);
    if (found) {
        count_heap_getnext(&st, SB_EXEC_PG81);
        exec_store_tuple(&st, st.scan.ctup.t_data, st.scan.cbuf, SB_EXEC_PG81);
        st.agg.ecxt_scantuple = &st.slot;
    }
    while (found) {
        st.walk.visible++;
        found = agg_turn81(&st);
    }
    (void)release_and_read_buffer81(&st, st.scan.cbuf, st.block + 1);
    if (dirtied)
        *dirtied = st.walk.stored;
    return st.walk.visible;
}

/* --- SELECT COUNT(*), 8.2 ---------------------------------------------------------------- */

/* The scan's end of a page: the slot's pin and the scan's own released. */
static void end_page(struct exec_state *st)
{
    if (st->slot.buffer)
        release_buffer(st, st->slot.buffer);
    st->slot.buffer = 0;
    release_buffer(st, st->buf.buf_id + 1);
}

/* A returned tuple through the plan: heap_getnext's statistics count, SeqNext's
 * ExecStoreTuple, then the Agg node's advance_aggregates (COUNT(*): no qual, no projection). */
static void return_tuple(struct exec_state *st, const uint8_t *tuple, enum sb_exec_version v)
{
    count_heap_getnext(st, v);
    exec_store_tuple(st, tuple, st->buf.buf_id + 1, v);
    advance_transition_function(st);
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
    st.fcinfo.context = &st.agg.ps;
    read_buffer(&st, st.buf.block);
    lwlock_acquire(&st, &st.content_lock82, 2, false);
    for (uint32_t i = 0; i < n; i++) {
        if (!sb_page_tuple(page, i, page_size, &off))
            continue;
        st.steps->tuples++;
        if (satisfies_snapshot(&st, page, off, &stored) && ntup < MAX_TUPLES_PER_PAGE)
            st.vistuples[ntup++] = (uint16_t)i;
    }
    lwlock_release(&st, &st.content_lock82, 2);
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

/* HeapTupleSatisfiesVacuum, 8.2's path: the inserter committed (hint or clog); no deleter
 * (XMAX_INVALID): live; a committed deleter (hint or clog) older than OldestXmin: dead. Its
 * hint stores are heap.c's vacuum's. */
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

/* HeapTupleSatisfiesVacuum (tqual.c:1070), 8.1, a function called for every used line
 * pointer: the inserter committed (1079-1145; no TransactionIdIsCurrentTransactionId here), no
 * deleter (XMAX_INVALID, 1151): live; else the deleter committed (its hint, or the clog: the
 * hint stored, 1193-1213), not the inserter itself (1219), and before OldestXmin
 * (TransactionIdPrecedes, 1232): dead, else recently dead (kept: never here). */
static __attribute__((noinline)) enum vacuum_verdict
satisfies_vacuum81(struct exec_state *st, uint8_t *tup, bool *stored)
{
    uint16_t infomask = sb_load16(tup + SB_T_INFOMASK);
    uint32_t xmax = sb_load32(tup + SB_T_XMAX);

    st->steps->visibility_tests++;
    if (!xmin_committed81(st, tup, infomask, false, stored))
        return HEAPTUPLE_DEAD;
    infomask = sb_load16(tup + SB_T_INFOMASK);
    if (infomask & SB_HEAP_XMAX_INVALID)
        return HEAPTUPLE_LIVE;
    if (infomask & (HEAP_IS_LOCKED | HEAP_XMAX_IS_MULTI)) {
        unexpected(st); /* a locker, a MultiXact: never */
        return HEAPTUPLE_LIVE;
    }
    if (!(infomask & SB_HEAP_XMAX_COMMITTED)) {
        if (xid_is_in_progress(st, xmax))
            return HEAPTUPLE_LIVE; /* HEAPTUPLE_DELETE_IN_PROGRESS: kept */
        if (!xid_did_commit(st, xmax)) {
            set_hint(st, tup, SB_HEAP_XMAX_INVALID, stored);
            return HEAPTUPLE_LIVE;
        }
        set_hint(st, tup, SB_HEAP_XMAX_COMMITTED, stored);
    }
    if (sb_load32(tup) == xmax && !(infomask & HEAP_UPDATED))
        return HEAPTUPLE_DEAD;
    if (!xid_precedes(st, xmax, st->oldest_xmin))
        return HEAPTUPLE_RECENTLY_DEAD;
    return HEAPTUPLE_DEAD;
}

/* The freeze test of a live tuple (8.1 inline in lazy_scan_heap, vacuumlazy.c:403-405:
 * TransactionIdIsNormal and the function TransactionIdPrecedes against FreezeLimit; 8.2
 * heap_freeze_tuple, which also looks at xmax and xvac). Never true here. */
static bool freeze_test(struct exec_state *st, const uint8_t *tup, enum sb_exec_version v)
{
    uint32_t xmin = sb_load32(tup);
    bool freeze;

    st->steps->freeze_tests++;
    if (v == SB_EXEC_PG81)
        return xmin >= FIRST_NORMAL_XID && xid_precedes(st, xmin, st->freeze_limit);
    freeze = xmin >= FIRST_NORMAL_XID && xmin < st->freeze_limit;
    uint32_t xmax = sb_load32(tup + SB_T_XMAX);
    freeze |= xmax >= FIRST_NORMAL_XID && xmax < st->freeze_limit && xmax == FROZEN_XID;
    return freeze;
}

/* lazy_record_dead_tuple (vacuumlazy.c:988): the tuple's ItemPointer appended while there is
 * room. */
static void record_dead_tuple(struct exec_state *st, uint32_t block, uint32_t offnum)
{
    st->steps->dead_noted++;
    if (st->vac.num_dead < st->vac.max_dead)
        st->vac.dead[st->vac.num_dead++] = block << 16 | offnum;
}

/* lazy_record_free_space (vacuumlazy.c:1007) with PageGetFreeSpace (bufpage.c:424: pd_upper -
 * pd_lower less one line pointer, 0 if less): 8.1 forgets a page with less than the threshold
 * (1028: GetAvgFSMRequestSize, BLCKSZ / 32 for a new relation); appended while there is room,
 * else it replaces the smallest. */
static void record_free_space(struct exec_state *st, const uint8_t *page, enum sb_exec_version v)
{
    int space = (int)sb_page_upper(page) - (int)sb_page_lower(page) - (int)SB_LINE_POINTER_SIZE;
    uint32_t avail = space > 0 ? (uint32_t)space : 0, smallest = 0;

    st->steps->free_space_notes++;
    if (v == SB_EXEC_PG81 && avail < st->vac.threshold)
        return;
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

/* heap.c's vacuum stores of a dead tuple: its line pointer unused (8.1 frees it in its second
 * pass, lazy_vacuum_page, which we do not run); and of the page: PD_HAS_FREE_LINES when it
 * pruned, pd_prune_xid cleared. */
static void prune_dead(uint8_t *page, uint32_t i)
{
    uint32_t item = 0; /* lp_flags unused, as heap.c writes it */
    memcpy(page + SB_PAGE_HEADER_SIZE + i * SB_LINE_POINTER_SIZE, &item, sizeof item);
}

static void prune_page(uint8_t *page, uint32_t pruned, bool *changed)
{
    if (pruned) {
        uint16_t flags = (uint16_t)(sb_page_flags(page) | SB_PD_HAS_FREE_LINES);
        memcpy(page + SB_PD_FLAGS, &flags, 2);
        *changed = true;
    }
    if (sb_load32(page + SB_PD_PRUNE_XID) != 0) {
        uint32_t zero = 0;
        memcpy(page + SB_PD_PRUNE_XID, &zero, 4);
        *changed = true;
    }
}

/* 8.2's lazy_scan_heap page: ReadBuffer, the content lock (shared: "we only need shared access
 * to the buffer"), per used line pointer HeapTupleSatisfiesVacuum, a live tuple's freeze test, a
 * dead one noted; the free space noted for a page without dead tuples; the lock released and
 * the buffer released. The page's stores are heap.c's vacuum's. */
static uint32_t vacuum82(void *page_mem, uint32_t page_size, bool *dirtied,
                         struct sb_exec_steps *steps)
{
    uint8_t *page = page_mem;
    const uint32_t n = sb_page_nitems(page);
    struct exec_state st;
    uint32_t off, live = 0, pruned = 0;
    bool changed = false;

    exec_begin(&st, steps);
    read_buffer(&st, st.buf.block);
    lwlock_acquire(&st, &st.content_lock82, 2, false);
    for (uint32_t i = 0; i < n; i++) {
        if (!sb_page_tuple(page, i, page_size, &off))
            continue;
        st.steps->tuples++;
        if (satisfies_vacuum(&st, page, off, &changed) == HEAPTUPLE_LIVE) {
            if (freeze_test(&st, page + off, SB_EXEC_PG82))
                changed = true; /* never: see freeze_test */
            st.vac.num_tuples++;
            live++;
        } else {
            record_dead_tuple(&st, st.buf.block, i + 1);
            st.vac.tups_vacuumed++;
            prune_dead(page, i);
            pruned++;
        }
    }
    if (!pruned)
        record_free_space(&st, page, SB_EXEC_PG82);
    prune_page(page, pruned, &changed);
    if (live)
        st.vac.nonempty_pages = st.buf.block + 1;
    lwlock_release(&st, &st.content_lock82, 2);
    release_buffer(&st, st.buf.buf_id + 1); /* WriteBuffer when changed: the same unpin */
    if (dirtied)
        *dirtied = changed;
    return live;
}

/* vacuum_delay_point (vacuum.c:3530), called for every page (vacuumlazy.c:279):
 * CHECK_FOR_INTERRUPTS, then the cost-based delay's test (vacuum_cost_delay 0: inactive). */
static __attribute__((noinline)) void vacuum_delay_point(struct exec_state *st)
{
    st->steps->delay_points++;
    check_for_interrupts(st);
    if (vacuum_cost_active && !interrupt_pending)
        unexpected(st); /* pg_usleep: never */
}

/* lazy_scan_heap's loop over the page's line pointers (vacuumlazy.c:364-450), 8.1: an unused
 * one counted (nunused); a used one's tuple set up (t_data, t_len, t_self), its verdict from
 * HeapTupleSatisfiesVacuum; a live tuple's freeze test and the OID check (relhasoids: the
 * tables have none), counted; a dead one noted (lazy_record_dead_tuple) and pruned by heap.c's
 * store. Returns the live tuples; *pruned the dead. */
static uint32_t vacuum_tuples81(struct exec_state *st, uint8_t *page, uint32_t page_size,
                                uint32_t *pruned, bool *changed)
{
    const uint32_t maxoff = sb_page_nitems(page);
    struct heap_tuple *tuple = &st->scan.ctup;
    uint32_t off, live = 0;

    for (uint32_t i = 0; i < maxoff; i++) {
        if (!sb_page_tuple(page, i, page_size, &off)) {
            st->vac.nunused++;
            continue;
        }
        st->steps->tuples++;
        tuple->t_datamcxt = NULL;
        tuple->t_data = page + off;
        tuple->t_len = sb_load32(page + SB_PAGE_HEADER_SIZE + i * SB_LINE_POINTER_SIZE) >> 17;
        tuple->self_block = st->block;
        tuple->self_off = (uint16_t)(i + 1);
        if (satisfies_vacuum81(st, page + off, changed) != HEAPTUPLE_DEAD) {
            if (freeze_test(st, page + off, SB_EXEC_PG81))
                unexpected(st); /* HeapTupleHeaderSetXmin(FrozenTransactionId): never */
            if (st->relhasoids &&
                sb_load32(page + off + SB_MAXALIGN(SB_TUPLE_HEADER_SIZE) - 4) == 0)
                st->steps->oid_warnings++;
            st->vac.num_tuples++;
            live++;
        } else {
            record_dead_tuple(st, st->block, i + 1);
            st->vac.tups_vacuumed++;
            prune_dead(page, i);
            (*pruned)++;
        }
    }
    return live;
}

/* 8.1's lazy_scan_heap page (vacuumlazy.c:268-474): vacuum_delay_point (279), the dead-tuple
 * array's room (285), ReadBuffer of a block not in the pool (301: VACUUM's victims come off
 * the free list, where its UnpinBuffer puts them back), the content lock shared (304), the new
 * and empty page tests (308, 350), the line pointers, the free space noted for a page without
 * dead tuples (458-462), the last page with tuples (465), the lock released (468), ReleaseBuffer
 * (473: pgchanged is only set by freezing). The page's stores are heap.c's vacuum's. */
static uint32_t vacuum81(void *page_mem, uint32_t page_size, bool *dirtied,
                         struct sb_exec_steps *steps)
{
    uint8_t *page = page_mem;
    struct exec_state st;
    uint32_t live, pruned = 0, prev_dead_count;
    bool changed = false;
    int buf;

    exec_begin81(&st, steps, true, page, page_size);
    vacuum_delay_point(&st);
    if (st.vac.max_dead - st.vac.num_dead < MAX_HEAP_TUPLES_PER_PAGE && st.vac.num_dead > 0)
        unexpected(&st); /* lazy_vacuum_index and lazy_vacuum_heap: never, the array has room */
    buf = read_buffer81(&st, st.block, page, page_size);
    lock_buffer81(&st, buf, BUFFER_LOCK_SHARE);
    if (sb_page_upper(page) == 0 || sb_page_lower(page) <= SB_PAGE_HEADER_SIZE)
        unexpected(&st); /* PageIsNew, PageIsEmpty: never, every page has tuples */
    prev_dead_count = st.vac.num_dead;
    live = vacuum_tuples81(&st, page, page_size, &pruned, &changed);
    if (st.vac.num_dead == prev_dead_count)
        record_free_space(&st, page, SB_EXEC_PG81);
    prune_page(page, pruned, &changed);
    if (live)
        st.vac.nonempty_pages = st.block + 1;
    lock_buffer81(&st, buf, BUFFER_LOCK_UNLOCK);
    release_buffer81(&st, buf);
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
    return v == SB_EXEC_PG81 ? vacuum81(page, page_size, dirtied, steps)
                             : vacuum82(page, page_size, dirtied, steps);
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
