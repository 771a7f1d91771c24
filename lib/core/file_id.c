/* SPDX-License-Identifier: BSD-3-Clause */
/* file_id.c: a file's identity from stat (see file_id.h). */
#include "config.h"
#include "core/file_id.h"

#include <sys/stat.h>

bool sb_file_id_of(const char *path, struct sb_file_id *id)
{
    struct stat st;

    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    *id = (struct sb_file_id){.dev = st.st_dev, .ino = st.st_ino, .size = st.st_size,
                              .mtime = st.st_mtim};
    return true;
}

bool sb_file_id_equal(const struct sb_file_id *a, const struct sb_file_id *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
           a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec;
}
