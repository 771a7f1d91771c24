/* SPDX-License-Identifier: BSD-3-Clause */
/* scratch.c: a nameless scratch file (see scratch.h). */
#include "config.h"
#include "core/scratch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sb_file_scratch_open(const char *dir, const char **how, char *why, size_t len)
{
    char path[1024];
    int fd;

#ifdef O_TMPFILE
    fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) {
        *how = "O_TMPFILE: the file never has a name";
        return fd;
    }
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
        snprintf(why, len, "cannot create a scratch file in %s: %s", dir, strerror(errno));
        return -1;
    }
#endif
    snprintf(path, sizeof path, "%s/scanbench-table.XXXXXX", dir);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, len, "cannot create a scratch file in %s: %s", dir, strerror(errno));
        return -1;
    }
    if (unlink(path) != 0) {
        snprintf(why, len, "cannot unlink the scratch file %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    *how = "mkstemp, unlinked at once: the file has no name after its first instant";
    return fd;
}
