/* SPDX-License-Identifier: BSD-3-Clause */
/* writeback.c: the write-back registry (see writeback.h). */
#include "config.h"
#include "vocab/writeback.h"

#include <string.h>

const struct sb_writeback sb_writebacks[] = {
    {"none", SB_WRITEBACK_NONE, "a dirtied buffer is never written back (the page is forgotten)"},
    {"evict", SB_WRITEBACK_EVICT,
     "a dirty buffer is written back to the IO cache before it is reused (PostgreSQL: "
     "BufferAlloc -> FlushBuffer -> smgrwrite, by the backend)"},
    {"checkpoint", SB_WRITEBACK_CHECKPOINT,
     "every checkpoint_pages pages, every dirty buffer is written back in buffer order (a "
     "checkpointer's BufferSync)"},
    {NULL, SB_WRITEBACK_NONE, NULL},
};

const struct sb_writeback *sb_writeback_find(const char *name)
{
    for (const struct sb_writeback *w = sb_writebacks; w->name; w++)
        if (strcmp(w->name, name) == 0)
            return w;
    return NULL;
}
