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

int sb_outkeep_dir(char *dir, struct sb_error *err)
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

int sb_outkeep_write(const char *path, const void *data, size_t len, const char *what,
                     char *used, struct sb_error *err)
{
    char dir[SB_OUTFILE_MAX] = "", kept[SB_OUTFILE_MAX], first[sizeof err->msg];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    struct sb_error keep_err = {0};
    int status = sb_outfile_write(path, data, len, used, err);

    if (status == SB_OK)
        return SB_OK;
    snprintf(first, sizeof first, "%s", err->msg);
    used[0] = '\0';
    status = sb_outkeep_dir(dir, &keep_err);
    if (status == SB_OK && snprintf(kept, sizeof kept, "%s/%s", dir, base) >= (int)sizeof kept)
        status = sb_fail(&keep_err, SB_ERR_RUN, "%s/%s: too long a name", dir, base);
    if (status == SB_OK)
        status = sb_outfile_write(kept, data, len, used, &keep_err);
    if (status != SB_OK && dir[0])
        rmdir(dir); /* nothing kept in it (or never made) */
    if (status == SB_OK)
        return sb_fail(err, SB_ERR_RUN, "%.900s; the %s is kept as %.900s", first, what, used);
    used[0] = '\0';
    return sb_fail(err, SB_ERR_RUN, "%.900s; the %s is lost: %.900s", first, what,
                   keep_err.msg);
}
