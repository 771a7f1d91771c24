/* SPDX-License-Identifier: BSD-3-Clause */
/* executor.h: count and vacuum with the per-tuple work of PostgreSQL 8.1's and 8.2's code
 * (key executor = pg81 | pg82; op.h). Each pass leaves a page in exactly the bytes the minimal
 * pass of its op leaves (heap.h: sb_heap_count, sb_heap_vacuum), returns the same live rows and
 * dirties the page in the same cases; besides, it does, as real instructions on this host, the
 * steps the server's code took for that page, each named after its function in the 8.1 or 8.2
 * sources (executor.c cites file, line and commit): the buffer lookup and pin (8.1: the whole
 * read of a block not in the pool, BufferAlloc's miss with the buffer table's hash searches, the
 * free list, the I/O locks and smgrread's bookkeeping), the content lock
 * (LWLockAcquire/LWLockRelease: a spinlock's test-and-set and the lock's counters), the
 * snapshot test, the statistics count, the slot store with its buffer pin and the resource
 * owner's bookkeeping, the aggregate's transition call through the function manager; 8.1's
 * plan calls per tuple (ExecProcNode, ExecSeqScan, ExecScan, SeqNext, heap_getnext, the Agg
 * node's loop with its argument's evaluation and per-tuple context reset); for VACUUM the
 * delay point (8.1), the vacuum test, the freeze test, the dead-tuple note and the free-space
 * note.
 *
 * What it is not: PostgreSQL's code. 8.1's buffer structures are the pool's (sb_exec_shared
 * below, laid out as 8.1's) where the engine binds a region, else one-buffer stand-ins that
 * live in L1, as every other structure (one resource owner, the plan's nodes, the snapshot)
 * does; the steps are what the functions do, not their every instruction. Its use: COUNT's and
 * VACUUM's CPU cost from the shape of their code, not from our simplest loops. The cache model
 * walks the page's accesses only (neither the region nor the stand-ins are pages). */
#ifndef SB_EXECUTOR_H
#define SB_EXECUTOR_H

#include <stdbool.h>
#include <stdint.h>

/* The steps a pass took over one page, counted where they happen. */
struct sb_exec_steps {
    uint64_t pages;            /* pages the pass ran over */
    uint64_t tuples;           /* normal line pointers it looked at */
    uint64_t buffer_reads;     /* ReadBuffer / ReleaseAndReadBuffer: the mapping lookup */
    uint64_t pins;             /* PinBuffer and IncrBufferRefCount */
    uint64_t unpins;           /* ReleaseBuffer (UnpinBuffer when the last) */
    uint64_t lwlock_ops;       /* LWLockAcquire and LWLockRelease (content and mapping locks) */
    uint64_t spinlock_ops;     /* test-and-set acquisitions (lock mutexes, buffer headers) */
    uint64_t resowner_ops;     /* ResourceOwnerRememberBuffer and ResourceOwnerForgetBuffer */
    uint64_t visibility_tests; /* HeapTupleSatisfiesSnapshot / HeapTupleSatisfiesVacuum */
    uint64_t slot_stores;      /* ExecStoreTuple */
    uint64_t stats_counted;    /* pgstat_count_heap_getnext: a returned tuple counted */
    uint64_t agg_calls;        /* advance_transition_function -> int8inc through fmgr */
    uint64_t freeze_tests;     /* the freeze test of a live tuple (8.1 inline, 8.2
                                  heap_freeze_tuple) */
    uint64_t oid_warnings;     /* 8.1 lazy_scan_heap: a live tuple without its OID (never) */
    uint64_t dead_noted;       /* lazy_record_dead_tuple */
    uint64_t free_space_notes; /* lazy_record_free_space */
    /* 8.1's steps below the ones above (executor.c cites each): */
    uint64_t plan_calls;       /* ExecProcNode -> ExecSeqScan -> ExecScan -> SeqNext */
    uint64_t interrupt_checks; /* CHECK_FOR_INTERRUPTS */
    uint64_t expr_evals;       /* ExecEvalExprSwitchContext of the aggregate's argument */
    uint64_t context_resets;   /* ResetExprContext (MemoryContextReset) */
    uint64_t hash_searches;    /* dynahash hash_search: BufTableLookup, Insert, Delete */
    uint64_t buffer_ios;       /* StartBufferIO (with its TerminateBufferIO) */
    uint64_t smgr_reads;       /* smgrread -> mdread -> FileSeek, FileRead */
    uint64_t xid_compares;     /* TransactionIdPrecedes, TransactionIdFollowsOrEquals */
    uint64_t xid_lookups;      /* an unhinted tuple's xid: IsCurrent, IsInProgress, DidCommit */
    uint64_t delay_points;     /* vacuum_delay_point */
    uint64_t unexpected;       /* an error path, or another backend's work: never (0) */
};

/* The passes (op.h's sb_op_fn). */
uint32_t sb_exec81_count(void *page, uint32_t page_size, bool *dirtied);
uint32_t sb_exec81_vacuum(void *page, uint32_t page_size, bool *dirtied);
uint32_t sb_exec82_count(void *page, uint32_t page_size, bool *dirtied);
uint32_t sb_exec82_vacuum(void *page, uint32_t page_size, bool *dirtied);

/* 8.1's shared buffer structures at a pool's size: the buffer descriptors, the LWLock array
 * (the fixed locks, the SLRUs', then each buffer's I/O and content locks), the buffer table
 * (dynahash's directory, buckets and preallocated elements for NBuffers + 1 entries) and the
 * backend's PrivateRefCount, laid out and sized as 8.1 sizes them, so that a pass's steps
 * touch the memory the server's touch: another buffer's descriptor and locks every page, the
 * table's buckets by the tag's hash. A thread's pg81 passes use the region bound to it (the
 * engine binds its pool's for a scan); without one, a one-buffer stand-in that stays in L1.
 * Each page of a bound region is the next block of one relation read into the next victim
 * (the free list first, then the clock hand), the block it held leaving the table. */
struct sb_exec_shared;
/* A region for nbuffers buffers (1 or more), every buffer free; NULL when it cannot be
 * allocated. A pool of 2^k - 1 buffers fills 8.1's table to its buckets, which 8.1 then
 * expands (dynahash.c expand_table): not emulated, each page counts it as unexpected. */
struct sb_exec_shared *sb_exec_shared_create(uint32_t nbuffers);
void sb_exec_shared_destroy(struct sb_exec_shared *shared);
/* The calling thread's pg81 passes use shared from now on (NULL: the stand-in). */
void sb_exec_shared_bind(struct sb_exec_shared *shared);
/* What a region holds (the tests' structural checks): the buffers, the table's entries and
 * buckets, the buffers ever used as victims, pins still held, LWLocks held, the free list's
 * head and the clock hand (-1: the list is empty), the pages read through it and the error
 * paths they took (unexpected: never, but as said above). */
struct sb_exec_shared_state {
    uint32_t nbuffers, entries, buckets, used, pinned, locks_held;
    int first_free, next_victim;
    uint64_t pages, unexpected;
};
void sb_exec_shared_state(const struct sb_exec_shared *shared, struct sb_exec_shared_state *out);

/* The same, adding the steps they took to *steps (the tests' hand counts). */
enum sb_exec_version { SB_EXEC_PG81, SB_EXEC_PG82 };
uint32_t sb_exec_count_steps(enum sb_exec_version v, void *page, uint32_t page_size,
                             bool *dirtied, struct sb_exec_steps *steps);
uint32_t sb_exec_vacuum_steps(enum sb_exec_version v, void *page, uint32_t page_size,
                              bool *dirtied, struct sb_exec_steps *steps);

#endif
