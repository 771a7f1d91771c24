/* op.c: the executor-pass registry (one row per op; adding an op is one function + one row). */
#include "config.h"
#include "vocab/op.h"

#include <string.h>

#include "vocab/heap.h"

const struct sb_op sb_ops[] = {
    {"none", "copy only", "no executor pass: the copy alone", NULL, false, false},
    {"count", "SELECT COUNT(*)", "SELECT COUNT(*): walk the line pointers, read each tuple "
     "header, count the visible, set the hint bits it finds missing (dirtying the page)",
     sb_heap_count, false, true},
    {"vacuum", "VACUUM", "VACUUM: read every tuple header, set hint bits, prune dead tuples (writes the page)",
     sb_heap_vacuum, true, true},
    {NULL, NULL, NULL, NULL, false, false},
};

const struct sb_op *sb_op_find(const char *name)
{
    for (const struct sb_op *op = sb_ops; op->name; op++)
        if (strcmp(op->name, name) == 0)
            return op;
    return NULL;
}

const struct sb_op *sb_statement_find(const char *name)
{
    return sb_op_find(strcmp(name, "select") == 0 ? "count" : name);
}

unsigned sb_op_state(const struct sb_op *op)
{
    if (op->pass == sb_heap_vacuum)
        return SB_PAGE_VACUUMED;
    return op->pass == sb_heap_count ? SB_PAGE_HINTED : SB_PAGE_GENERATED;
}
