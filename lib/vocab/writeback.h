/* SPDX-License-Identifier: BSD-3-Clause */
/* writeback.h: when a buffer the op dirtied goes back to the IO cache (key writeback):
 * `none` (never: the page is forgotten), `evict` (before its buffer is reused, by the backend
 * that needs the buffer: PostgreSQL's BufferAlloc -> FlushBuffer -> smgrwrite), `checkpoint`
 * (every checkpoint_pages pages read, every dirty buffer in buffer order, as a checkpointer's
 * BufferSync). A sentinel-terminated registry of names. */
#ifndef SB_WRITEBACK_H
#define SB_WRITEBACK_H

enum sb_writeback_mode { SB_WRITEBACK_NONE, SB_WRITEBACK_EVICT, SB_WRITEBACK_CHECKPOINT };

struct sb_writeback {
    const char *name;
    enum sb_writeback_mode mode;
    const char *description;
};

extern const struct sb_writeback sb_writebacks[]; /* terminated by an entry whose name is NULL */

const struct sb_writeback *sb_writeback_find(const char *name);

#endif
