/* op.h: the registry of executor passes run over each page after it is copied into the pool:
 * `none`, `count` (SELECT COUNT(*)), `vacuum` (VACUUM). A sentinel-terminated const table. */
#ifndef SB_OP_H
#define SB_OP_H

#include <stdbool.h>
#include <stdint.h>

/* Runs the pass over one page; returns the live tuples it saw (0 for `none`) and, when dirtied
 * is not NULL, whether it stored into the page (heap.h). */
typedef uint32_t (*sb_op_fn)(void *page, uint32_t page_size, bool *dirtied);

struct sb_op {
    const char *name;
    const char *label; /* how the thread's tables name it: "SELECT COUNT(*)", "VACUUM" */
    const char *description;
    sb_op_fn pass;      /* NULL for `none`: the scan loop skips the call */
    bool writes_page;   /* true when the pass dirties the page (vacuum) */
    bool counts_rows;   /* true when the pass returns the live row count (validated) */
};

extern const struct sb_op sb_ops[]; /* terminated by an entry whose name is NULL */

const struct sb_op *sb_op_find(const char *name);

/* A statement of a sequence (key `statements`): an op's name, or `select` for `count`. */
#define SB_MAX_STATEMENTS 8
const struct sb_op *sb_statement_find(const char *name);

/* The page state (heap.h: enum sb_page_state) op leaves a page in at least: `none` 0, `count`
 * 1 (hinted), `vacuum` 2 (vacuumed); 0 for any other pass. A page in state s leaves the op in
 * state max(s, this). */
unsigned sb_op_state(const struct sb_op *op);

#endif
