/* SPDX-License-Identifier: BSD-3-Clause */
/* outdir.h: the directory a command keeps its result files in (reproduce -o DIR). It is made
 * new before any run (one that exists is refused: bad input). A file whose name appears there
 * meanwhile is kept under a numbered name (outfile.h). When the directory cannot be written
 * into any more (removed, replaced by a file, made read-only), that file and the ones after it
 * go into a new directory, DIR-2 (the first free name), and note says so for the caller. Where
 * a file cannot be written there either (a full disk), it and the ones after it go into a new
 * directory under $TMPDIR (outkeep.h), note says so and `kept` is set: what was asked was not
 * done, and the caller's exit status says so. */
#ifndef SB_OUTDIR_H
#define SB_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/outfile.h"

struct sb_outdir {
    char asked[SB_OUTFILE_MAX]; /* as given */
    char path[SB_OUTFILE_MAX];  /* where the files go now */
    char note[2048];            /* set when the files moved to path: why (the caller prints it) */
    bool kept;                  /* path is a keeping directory under $TMPDIR */
};

/* Creates dir for command ("reproduce", "power": named in the refusal); SB_ERR_INPUT when it
 * exists, its name is empty or its parent is not writable. */
int sb_outdir_create(struct sb_outdir *d, const char *dir, const char *command,
                     struct sb_error *err);

/* Writes data (len bytes) as DIR/name, never replacing a file; the file's path goes to used
 * (SB_OUTFILE_MAX bytes). */
int sb_outdir_write(struct sb_outdir *d, const char *name, const void *data, size_t len,
                    char *used, struct sb_error *err);

#endif
