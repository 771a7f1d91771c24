/* SPDX-License-Identifier: BSD-3-Clause */
/* outfile.c: writing a result file whole, never replacing anything (see outfile.h). */
#include "config.h"
#include "core/outfile.h"

#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/stop.h"

#define NUMBERED_MAX 1000 /* r-2.json ... r-1000.json: then the write fails */

int sb_outfile_dir_problem(const char *dir)
{
    struct stat st;

    if (stat(dir, &st) != 0)
        return errno;
    if (!S_ISDIR(st.st_mode))
        return ENOTDIR;
    return access(dir, W_OK | X_OK) == 0 ? 0 : errno;
}

/* What the write will create, created once and removed: its temporary beside it (the longest
 * name it makes, NAME.tmp.XXXXXX.ext), so that a directory that refuses files (/proc, /sys, a
 * read-only mount) or a name too long for it fails now, before anything runs. */
static int probe(const char *path, const char *dir, struct sb_error *err)
{
    char tmp[SB_OUTFILE_MAX + 32];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX.png", path), fd;

    if (n < 0 || (size_t)n >= sizeof tmp)
        return sb_fail(err, SB_ERR_INPUT, "%.80s...: the name is too long", path);
    fd = mkstemps(tmp, 4);
    if (fd < 0)
        return sb_fail(err, SB_ERR_INPUT, "%s: cannot create files there (%s in %s): %s", path,
                       errno == ENAMETOOLONG ? "the name with its temporary suffix is too long"
                                             : "a test file", dir, strerror(errno));
    close(fd);
    unlink(tmp);
    return SB_OK;
}

int sb_outfile_check(const char *path, const char *what, struct sb_error *err)
{
    size_t len = strlen(path);
    struct stat st;
    char *copy;
    const char *dir;
    int status = SB_OK, why;

    if (len == 0)
        return sb_fail(err, SB_ERR_INPUT, "-o \"\": an empty name (the %s needs a file name)",
                       what);
    if (path[len - 1] == '/')
        return sb_fail(err, SB_ERR_INPUT, "%s: names a directory (the %s needs a file name)",
                       path, what);
    if (len + 32 > SB_OUTFILE_MAX)
        return sb_fail(err, SB_ERR_INPUT, "%.80s...: a name of %zu bytes is too long", path, len);
    if (lstat(path, &st) == 0)
        return sb_fail(err, SB_ERR_INPUT, "%s: exists; scanbench never overwrites a %s (choose a "
                       "new name)", path, what);
    copy = strdup(path);
    if (!copy)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    dir = dirname(copy);
    why = sb_outfile_dir_problem(dir);
    if (why)
        status = sb_fail(err, SB_ERR_INPUT, "%s: cannot write into %s: %s", path, dir,
                         strerror(why));
    else
        status = probe(path, dir, err);
    free(copy);
    return status;
}

/* path with "-n" inserted before the extension of its last component (a file), or at the
 * end of that component (a directory: out/ -> out-2/). */
static bool numbered(const char *path, unsigned n, bool before_extension, char *buf, size_t len)
{
    const char *end = path + strlen(path), *base, *cut;
    int written;

    while (end > path + 1 && end[-1] == '/')
        end--;
    for (base = end; base > path && base[-1] != '/'; base--)
        ;
    cut = end;
    for (const char *p = end - 1; before_extension && p > base; p--)
        if (*p == '.') {
            cut = p;
            break;
        }
    written = snprintf(buf, len, "%.*s-%u%s", (int)(cut - path), path, n, cut);
    return written > 0 && (size_t)written < len;
}

bool sb_outfile_numbered(const char *path, unsigned n, char *buf, size_t len)
{
    return numbered(path, n, true, buf, len);
}

void sb_file_mode_from_umask(int fd)
{
    mode_t mask = umask(0);

    umask(mask);
    fchmod(fd, 0666 & ~mask);
}

int sb_outfile_temp(const char *path, const char *suffix, char *tmp, struct sb_error *err)
{
    int n = snprintf(tmp, SB_OUTFILE_MAX, "%s.tmp.XXXXXX%s", path, suffix), fd;

    if (n < 0 || n >= SB_OUTFILE_MAX) {
        tmp[0] = '\0';
        sb_fail(err, SB_ERR_RUN, "%.80s...: the name is too long", path);
        return -1;
    }
    fd = mkstemps(tmp, (int)strlen(suffix));
    if (fd < 0) {
        sb_fail(err, SB_ERR_RUN, "%s: cannot create %s: %s", path, tmp, strerror(errno));
        tmp[0] = '\0';
        return -1;
    }
    sb_file_mode_from_umask(fd);
    return fd;
}

/* The file a temporary name stands for (sb_outfile_temp's PATH.tmp.XXXXXX.suffix -> PATH, the
 * file the user asked for, whatever the suffix: a plot's script p.png.tmp.XXXXXX.gp stands for
 * p.png): what a message names, the temporary being gone by the time the user reads it. */
static const char *target_of(const char *tmp, char *buf, size_t len)
{
    const char *at = NULL, *p = tmp;

    while ((p = strstr(p, ".tmp.")) != NULL)
        at = p++;
    if (!at || strlen(at) < strlen(".tmp.XXXXXX"))
        return tmp;
    snprintf(buf, len, "%.*s", (int)(at - tmp), tmp);
    return buf;
}

int sb_outfile_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;

    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int sb_outfile_put(int fd, const char *tmp, const void *data, size_t len, struct sb_error *err)
{
    char target[SB_OUTFILE_MAX];
    struct sigaction ignore, before;
    int status = SB_OK, failed;

    /* past `ulimit -f` the write fails with EFBIG instead of killing the process */
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &ignore, &before);
    if ((failed = sb_outfile_write_all(fd, data, len)) != 0)
        status = sb_fail(err, SB_ERR_RUN, "cannot write %s: %s",
                         target_of(tmp, target, sizeof target),
                         failed > 0 ? strerror(failed) : "nothing written");
    if (status == SB_OK && fsync(fd) != 0)
        status = sb_fail(err, SB_ERR_RUN, "cannot write %s: %s",
                         target_of(tmp, target, sizeof target), strerror(errno));
    sigaction(SIGXFSZ, &before, NULL);
    return status;
}

/* Links tmp as path, else as the first free numbered name (before_extension: r-2.json). */
static int link_first_free(const char *tmp, const char *path, char *used, struct sb_error *err)
{
    snprintf(used, SB_OUTFILE_MAX, "%s", path);
    for (unsigned n = 2; link(tmp, used) != 0; n++) {
        if (errno != EEXIST)
            return sb_fail(err, SB_ERR_RUN, "%s: cannot link %s there: %s", used, tmp,
                           strerror(errno));
        if (n > NUMBERED_MAX || !numbered(path, n, true, used, SB_OUTFILE_MAX))
            return sb_fail(err, SB_ERR_RUN, "%s: exists, and so do %s-2 to -%u: kept nothing",
                           path, path, n - 1);
    }
    return SB_OK;
}

int sb_outfile_publish(const char *tmp, const char *path, char *used, struct sb_error *err)
{
    int status = link_first_free(tmp, path, used, err);

    unlink(tmp);
    return status;
}

int sb_outfile_write(const char *path, const void *data, size_t len, char *used,
                     struct sb_error *err)
{
    char tmp[SB_OUTFILE_MAX];
    sigset_t old;
    int fd, status;

    sb_stop_test_pause("write");
    sb_stop_block(&old); /* a stop signal waits until the file is in place or gone */
    fd = sb_outfile_temp(path, "", tmp, err);
    status = fd < 0 ? SB_ERR_RUN : sb_outfile_put(fd, tmp, data, len, err);
    if (fd >= 0 && close(fd) != 0 && status == SB_OK)
        status = sb_fail(err, SB_ERR_RUN, "cannot write %s: %s",
                         target_of(tmp, (char[SB_OUTFILE_MAX]){0}, SB_OUTFILE_MAX),
                         strerror(errno));
    if (status == SB_OK)
        status = sb_outfile_publish(tmp, path, used, err);
    else if (fd >= 0)
        unlink(tmp);
    sb_stop_unblock(&old);
    return status;
}

int sb_outfile_mkdir_numbered(const char *dir, char *used, struct sb_error *err)
{
    for (unsigned n = 2;; n++) {
        if (n > NUMBERED_MAX || !numbered(dir, n, false, used, SB_OUTFILE_MAX))
            return sb_fail(err, SB_ERR_RUN, "%s-2 to -%u: all exist: no new directory", dir,
                           n - 1);
        if (mkdir(used, 0777) == 0)
            return SB_OK;
        if (errno != EEXIST)
            return sb_fail(err, SB_ERR_RUN, "%s: cannot create the directory: %s", used,
                           strerror(errno));
    }
}
