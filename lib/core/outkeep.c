/* SPDX-License-Identifier: BSD-3-Clause */
/* outkeep.c: a result that cannot go where asked is kept in a new directory under $TMPDIR (see
 * outkeep.h). */
#include "config.h"
#include "core/outkeep.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/outfile.h"

/* A new directory to keep results in, its name into dir (SB_OUTFILE_MAX bytes). */
static int keeping_dir(char *dir, struct sb_error *err)
{
    const char *tmp = getenv("TMPDIR");

    if (!tmp || tmp[0] != '/')
        tmp = "/tmp";
    if (snprintf(dir, SB_OUTFILE_MAX, "%s/scanbench-kept-XXXXXX", tmp) >= SB_OUTFILE_MAX)
        return sb_fail(err, SB_ERR_RUN, "TMPDIR: too long a name to keep results under");
    if (!mkdtemp(dir))
        return sb_fail(err, SB_ERR_RUN, "cannot create %s: %s", dir, strerror(errno));
    return SB_OK;
}

int sb_outkeep_put(const char *name, const void *data, size_t len, char *dir, char *used,
                   struct sb_error *err)
{
    char kept[SB_OUTFILE_MAX];
    int status = keeping_dir(dir, err);

    used[0] = '\0';
    if (status != SB_OK)
        return status;
    if (snprintf(kept, sizeof kept, "%s/%s", dir, name) >= (int)sizeof kept)
        status = sb_fail(err, SB_ERR_RUN, "%s/%s: too long a name", dir, name);
    if (status == SB_OK)
        status = sb_outfile_write(kept, data, len, used, err);
    if (status != SB_OK) {
        rmdir(dir); /* nothing kept in it */
        used[0] = '\0';
    }
    return status;
}

int sb_outkeep_write(const char *path, const void *data, size_t len, const char *what,
                     char *used, struct sb_error *err)
{
    char dir[SB_OUTFILE_MAX], first[sizeof err->msg];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    struct sb_error keep_err = {0};

    if (sb_outfile_write(path, data, len, used, err) == SB_OK)
        return SB_OK;
    snprintf(first, sizeof first, "%s", err->msg);
    if (sb_outkeep_put(base, data, len, dir, used, &keep_err) == SB_OK)
        return sb_fail(err, SB_ERR_RUN, "%.900s; the %s is kept as %.900s", first, what, used);
    return sb_fail(err, SB_ERR_RUN, "%.900s; the %s is lost: %.900s", first, what,
                   keep_err.msg);
}
