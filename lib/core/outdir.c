/* SPDX-License-Identifier: BSD-3-Clause */
/* outdir.c: a results directory that a run cannot lose (see outdir.h). */
#include "config.h"
#include "core/outdir.h"
#include "core/outkeep.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int sb_outdir_create(struct sb_outdir *d, const char *dir, const char *command,
                     struct sb_error *err)
{
    if (!dir[0])
        return sb_fail(err, SB_ERR_INPUT, "-o \"\": an empty name (%s needs a new "
                       "directory's name)", command);
    if (strlen(dir) + 64 > SB_OUTFILE_MAX)
        return sb_fail(err, SB_ERR_INPUT, "-o %.80s...: the name is too long", dir);
    if (mkdir(dir, 0777) != 0)
        return sb_fail(err, SB_ERR_INPUT, "-o %s: %s (%s writes into a new directory and "
                       "never overwrites)", dir, strerror(errno), command);
    snprintf(d->asked, sizeof d->asked, "%s", dir);
    snprintf(d->path, sizeof d->path, "%s", dir);
    d->note[0] = '\0';
    d->kept = false;
    return SB_OK;
}

/* The files from now on go into dir (made): note says why, after what failed. */
static void move_to(struct sb_outdir *d, const char *dir, const char *why, bool kept)
{
    snprintf(d->note, sizeof d->note, "%.900s: cannot be written into (%.700s); the results from "
             "here on are kept in %s", d->path, why, dir);
    snprintf(d->path, sizeof d->path, "%s", dir);
    d->kept |= kept;
}

int sb_outdir_write(struct sb_outdir *d, const char *name, const void *data, size_t len,
                    char *used, struct sb_error *err)
{
    char path[SB_OUTFILE_MAX], moved[SB_OUTFILE_MAX], why[1024];
    struct sb_error move_err = {0};
    int status;

    snprintf(path, sizeof path, "%s/%s", d->path, name);
    status = sb_outfile_write(path, data, len, used, err);
    if (status == SB_OK)
        return status;
    snprintf(why, sizeof why, "%s", err->msg);
    /* the directory itself is the trouble: a new one beside it keeps this file and the next */
    if (!d->kept && sb_outfile_dir_problem(d->path) &&
        sb_outfile_mkdir_numbered(d->asked, moved, &move_err) == SB_OK) {
        move_to(d, moved, why, false);
        snprintf(path, sizeof path, "%s/%s", d->path, name);
        if ((status = sb_outfile_write(path, data, len, used, err)) == SB_OK)
            return status;
        snprintf(why, sizeof why, "%s", err->msg);
    }
    /* no room there either (a full disk): a keeping directory under $TMPDIR */
    if (d->kept || sb_outkeep_put(name, data, len, moved, used, &move_err) != SB_OK)
        return sb_fail(err, SB_ERR_RUN, "%.900s; %.900s is lost: %.900s", why, name,
                       d->kept ? "nowhere left to keep it" : move_err.msg);
    move_to(d, moved, why, true);
    return SB_OK;
}
