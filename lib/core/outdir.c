/* outdir.c: a results directory that a run cannot lose (see outdir.h). */
#include "config.h"
#include "core/outdir.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int sb_outdir_create(struct sb_outdir *d, const char *dir, struct sb_error *err)
{
    if (!dir[0])
        return sb_fail(err, SB_ERR_INPUT, "-o \"\": an empty name (reproduce needs a new "
                       "directory's name)");
    if (strlen(dir) + 64 > SB_OUTFILE_MAX)
        return sb_fail(err, SB_ERR_INPUT, "%.80s...: the name is too long", dir);
    if (mkdir(dir, 0777) != 0)
        return sb_fail(err, SB_ERR_INPUT, "%s: %s (reproduce writes into a new directory and "
                       "never overwrites)", dir, strerror(errno));
    snprintf(d->asked, sizeof d->asked, "%s", dir);
    snprintf(d->path, sizeof d->path, "%s", dir);
    d->note[0] = '\0';
    return SB_OK;
}

int sb_outdir_write(struct sb_outdir *d, const char *name, const void *data, size_t len,
                    char *used, struct sb_error *err)
{
    char path[SB_OUTFILE_MAX], moved[SB_OUTFILE_MAX], why[400];
    int status;

    snprintf(path, sizeof path, "%s/%s", d->path, name);
    status = sb_outfile_write(path, data, len, used, err);
    if (status == SB_OK || !sb_outfile_dir_problem(d->path))
        return status;
    /* the directory itself is the trouble: a new one keeps this file and the next ones */
    snprintf(why, sizeof why, "%s", err->msg);
    status = sb_outfile_mkdir_numbered(d->asked, moved, err);
    if (status != SB_OK)
        return status;
    snprintf(d->note, sizeof d->note, "%s: cannot be written into any more (%s); the results "
             "from here on are kept in %s", d->path, why, moved);
    snprintf(d->path, sizeof d->path, "%s", moved);
    snprintf(path, sizeof path, "%s/%s", d->path, name);
    return sb_outfile_write(path, data, len, used, err);
}
