/* SPDX-License-Identifier: BSD-3-Clause */
/* file_id.c: a file's identity from stat, and a reader's memory of the files it read (see
 * file_id.h). */
#include "config.h"
#include "core/file_id.h"

#include <stdio.h>
#include <string.h>
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

int sb_file_memo_find(const struct sb_file_memo *m, const char *path,
                      const struct sb_file_id *id)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->slot[i].path, path) == 0 && sb_file_id_equal(&m->slot[i].id, id))
            return i;
    return -1;
}

int sb_file_memo_take(struct sb_file_memo *m, const char *path, const struct sb_file_id *id)
{
    int i = m->next;

    if (strlen(path) >= sizeof m->slot[0].path || m->cap < 1 || m->cap > SB_FILE_MEMO_MAX)
        return -1;
    m->next = (m->next + 1) % m->cap;
    m->n += m->n < m->cap;
    snprintf(m->slot[i].path, sizeof m->slot[i].path, "%s", path);
    m->slot[i].id = *id;
    return i;
}
