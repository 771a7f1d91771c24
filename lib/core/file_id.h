/* SPDX-License-Identifier: BSD-3-Clause */
/* file_id.h: a file's identity as it is now (device, inode, size, modification time), by which
 * a reader that keeps what it read (machine files, events maps) knows a path it read before is
 * still the same file: read again only when it changed. */
#ifndef SB_CORE_FILE_ID_H
#define SB_CORE_FILE_ID_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

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

#endif
