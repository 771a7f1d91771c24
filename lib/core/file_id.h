/* SPDX-License-Identifier: BSD-3-Clause */
/* file_id.h: a file's identity as it is now (device, inode, size, modification time), by which
 * a reader that keeps what it read (machine files, events maps) knows a path it read before is
 * still the same file: read again only when it changed; and the reader's memory of the files it
 * read (struct sb_file_memo). */
#ifndef SB_CORE_FILE_ID_H
#define SB_CORE_FILE_ID_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "core/configs_path.h"

struct sb_file_id {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
};

/* path's identity now; false when it is not a regular file (a FIFO, /dev/stdin, /proc: nothing
 * to know it by, read each time). */
bool sb_file_id_of(const char *path, struct sb_file_id *id);

/* Whether a and b are the same file, unchanged. */
bool sb_file_id_equal(const struct sb_file_id *a, const struct sb_file_id *b);

/* What a reader remembers of the files it read: each slot a path and the file's identity when
 * read; the reader keeps slot i's value in an array of its own, of cap entries. Full, the
 * oldest slot gives way. Initialise with .cap (at most SB_FILE_MEMO_MAX), the rest zero. */
#define SB_FILE_MEMO_MAX 16
struct sb_file_memo {
    int cap, n, next;
    struct {
        char path[SB_PATH_MAX];
        struct sb_file_id id;
    } slot[SB_FILE_MEMO_MAX];
};

/* The slot of path as it is now (id), or -1. */
int sb_file_memo_find(const struct sb_file_memo *m, const char *path,
                      const struct sb_file_id *id);

/* A slot for path, read as it was (id): a free one, else the oldest; the caller puts the value
 * there. -1 when path is too long to remember. */
int sb_file_memo_take(struct sb_file_memo *m, const char *path, const struct sb_file_id *id);

#endif
