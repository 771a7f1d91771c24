/* SPDX-License-Identifier: BSD-3-Clause */
/* op.c: the executor-pass registry (one row per op and executor; adding an op is one function +
 * one row) and the executors. */
#include "config.h"
#include "vocab/op.h"

#include <string.h>

#include "vocab/executor.h"
#include "vocab/heap.h"

#define COUNT_DESCRIPTION                                                                    \
    "SELECT COUNT(*): walk the line pointers, read each tuple header, count the visible, set " \
    "the hint bits it finds missing (dirtying the page)"
#define VACUUM_DESCRIPTION                                                                   \
    "VACUUM as 8.1's lazy_scan_heap: read every tuple header, set the hint bits it finds "  \
    "missing, prune dead tuples; a page it changed is dirtied, a clean one released untouched"

const struct sb_op sb_ops[] = {
    {.name = "none", .label = "copy only", .description = "no executor pass: the copy alone",
     .executor = "minimal", .pass = NULL, .kind = SB_OP_KIND_NONE, .counts_rows = false,
     .dirties_always = false},
    {.name = "count", .label = "SELECT COUNT(*)", .description = COUNT_DESCRIPTION,
     .executor = "minimal", .pass = sb_heap_count, .kind = SB_OP_KIND_COUNT,
     .counts_rows = true, .dirties_always = false},
    {.name = "vacuum", .label = "VACUUM", .description = VACUUM_DESCRIPTION,
     .executor = "minimal", .pass = sb_heap_vacuum, .kind = SB_OP_KIND_VACUUM,
     .counts_rows = true, .dirties_always = false},
    {.name = "vacuum-dirty", .label = "VACUUM (dirtying)",
     .description = "vacuum's bytes, but a store into every live tuple's hint bits and "
                    "pd_prune_xid whether they change or not: every page dirtied (scanbench's "
                    "vacuum before issue 28; for the write-back's experiments, not as PostgreSQL "
                    "did it)",
     .executor = "minimal", .pass = sb_heap_vacuum_dirty, .kind = SB_OP_KIND_VACUUM,
     .counts_rows = true, .dirties_always = true},
    {.name = NULL},
};

/* The same ops with the per-tuple work of another executor (vocab/executor.h). */
static const struct sb_op executor_ops[] = {
    {.name = "count", .label = "SELECT COUNT(*)", .description = COUNT_DESCRIPTION,
     .executor = "pg81", .pass = sb_exec81_count, .kind = SB_OP_KIND_COUNT,
     .counts_rows = true, .dirties_always = false},
    {.name = "vacuum", .label = "VACUUM", .description = VACUUM_DESCRIPTION,
     .executor = "pg81", .pass = sb_exec81_vacuum, .kind = SB_OP_KIND_VACUUM,
     .counts_rows = true, .dirties_always = false},
    {.name = "count", .label = "SELECT COUNT(*)", .description = COUNT_DESCRIPTION,
     .executor = "pg82", .pass = sb_exec82_count, .kind = SB_OP_KIND_COUNT,
     .counts_rows = true, .dirties_always = false},
    {.name = "vacuum", .label = "VACUUM", .description = VACUUM_DESCRIPTION,
     .executor = "pg82", .pass = sb_exec82_vacuum, .kind = SB_OP_KIND_VACUUM,
     .counts_rows = true, .dirties_always = false},
    {.name = NULL},
};

const struct sb_executor sb_executors[] = {
    {"minimal", "the page's own work: line pointers, tuple headers, hint bits, pruning"},
    {"pg81", "PostgreSQL 8.1's work besides: each page read into the pool (BufferAlloc's "
             "miss: the buffer table, the free list, the I/O locks, smgrread); a call down the "
             "plan per tuple (ExecProcNode to heapgettup, with its content lock), the slot's "
             "buffer pin, the snapshot test, the aggregate's argument and call through fmgr; "
             "lazy_scan_heap's delay point, vacuum test, freeze test and free-space note"},
    {"pg82", "PostgreSQL 8.2's: the page found in the pool, no plan calls; pg81's per-tuple "
             "steps otherwise, but the scan's visibility page at a time "
             "(heapgetpage: one lock per page)"},
    {NULL, NULL},
};

const struct sb_op *sb_op_find(const char *name)
{
    for (const struct sb_op *op = sb_ops; op->name; op++)
        if (strcmp(op->name, name) == 0)
            return op;
    return NULL;
}

const struct sb_executor *sb_executor_find(const char *name)
{
    for (const struct sb_executor *e = sb_executors; e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

bool sb_op_uses_buffer_manager(const struct sb_op *op)
{
    return op && (op->pass == sb_exec81_count || op->pass == sb_exec81_vacuum);
}

const struct sb_op *sb_op_with_executor(const struct sb_op *op, const char *executor)
{
    if (!sb_executor_find(executor))
        return NULL;
    if (strcmp(executor, "minimal") == 0 || op->kind == SB_OP_KIND_NONE)
        return op;
    if (op->dirties_always)
        return NULL; /* vacuum-dirty: scanbench's own, with no server's work to add */
    for (const struct sb_op *o = executor_ops; o->name; o++)
        if (strcmp(o->name, op->name) == 0 && strcmp(o->executor, executor) == 0)
            return o;
    return NULL;
}

const struct sb_op *sb_statement_find(const char *name)
{
    return sb_op_find(strcmp(name, "select") == 0 ? "count" : name);
}

unsigned sb_op_state(const struct sb_op *op)
{
    if (op->kind == SB_OP_KIND_VACUUM)
        return SB_PAGE_VACUUMED;
    return op->kind == SB_OP_KIND_COUNT ? SB_PAGE_HINTED : SB_PAGE_GENERATED;
}
