/* SPDX-License-Identifier: BSD-3-Clause */
/* op.h: the registry of executor passes run over each page after it is copied into the pool:
 * `none`, `count` (SELECT COUNT(*)), `vacuum` (VACUUM), `vacuum-dirty` (vacuum storing into
 * every page: the write-back's experiments), a sentinel-terminated const table; and
 * the executors (key `executor`) that run count and vacuum: `minimal` (the page's own work, the
 * table's rows), `pg81` and `pg82` (the per-tuple work of PostgreSQL 8.1's and 8.2's code
 * besides: vocab/executor.h). Every executor leaves a page in the same bytes. */
#ifndef SB_OP_H
#define SB_OP_H

#include <stdbool.h>
#include <stdint.h>

/* Runs the pass over one page; returns the live tuples it saw (0 for `none`) and, when dirtied
 * is not NULL, whether it stored into the page (heap.h). */
typedef uint32_t (*sb_op_fn)(void *page, uint32_t page_size, bool *dirtied);

/* What an op does to a page (the cache model walks each kind's accesses: counters/sim_replay.c). */
enum sb_op_kind { SB_OP_KIND_NONE, SB_OP_KIND_COUNT, SB_OP_KIND_VACUUM };

struct sb_op {
    const char *name;
    const char *label; /* how the thread's tables name it: "SELECT COUNT(*)", "VACUUM" */
    const char *description;
    const char *executor; /* the executor whose work pass does (sb_executors' name) */
    sb_op_fn pass;      /* NULL for `none`: the scan loop skips the call */
    enum sb_op_kind kind;
    bool counts_rows;   /* true when the pass returns the live row count (validated) */
    bool dirties_always; /* stores into every page whether it changes it or not
                            (vacuum-dirty) */
};

extern const struct sb_op sb_ops[]; /* terminated by an entry whose name is NULL; executor
                                       minimal */

/* The op named name, executor minimal; NULL if none. */
const struct sb_op *sb_op_find(const char *name);

/* The executors (key executor), terminated by an entry whose name is NULL. */
struct sb_executor {
    const char *name;
    const char *description;
};
extern const struct sb_executor sb_executors[];
const struct sb_executor *sb_executor_find(const char *name);

/* op as executor runs it: op itself for minimal and for `none` (no executor pass), else the
 * registry's row of op's name and that executor; NULL when executor is not known or does not
 * run op (vacuum-dirty runs under minimal only). */
const struct sb_op *sb_op_with_executor(const struct sb_op *op, const char *executor);

/* Whether op's passes keep 8.1's shared buffer structures at the pool's size (executor pg81:
 * vocab/executor.h, sb_exec_shared), which the engine then makes for each pool. */
bool sb_op_uses_buffer_manager(const struct sb_op *op);

/* A statement of a sequence (key `statements`): an op's name, or `select` for `count`. */
#define SB_MAX_STATEMENTS 8
const struct sb_op *sb_statement_find(const char *name);

/* The page state (heap.h: enum sb_page_state) op leaves a page in at least: `none` 0, `count`
 * 1 (hinted), `vacuum` 2 (vacuumed); 0 for any other pass. A page in state s leaves the op in
 * state max(s, this). */
unsigned sb_op_state(const struct sb_op *op);

#endif
