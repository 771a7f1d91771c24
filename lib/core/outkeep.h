/* SPDX-License-Identifier: BSD-3-Clause */
/* outkeep.h: where a finished result goes when it cannot go where it was asked to (a full disk,
 * a directory removed or made read-only during the run, a filesystem mounted over it): a new
 * directory under $TMPDIR (an absolute one; else /tmp), scanbench-kept-XXXXXX, that the caller
 * names to the user. Nothing is printed here. */
#ifndef SB_OUTKEEP_H
#define SB_OUTKEEP_H

#include <stddef.h>

#include "core/error.h"

/* Writes data as name in a new keeping directory (its name into dir, the file's
 * into used, both SB_OUTFILE_MAX bytes); SB_ERR_RUN with err, nothing left behind and used "",
 * when it cannot be kept. */
int sb_outkeep_put(const char *name, const void *data, size_t len, char *dir, char *used,
                   struct sb_error *err);

/* Writes data as path (outfile.h: never replacing a file); where that fails, keeps it in a new
 * keeping directory under path's last component (sb_outkeep_put). Returns SB_OK when path (or
 * its numbered name) has it; else SB_ERR_RUN, err saying "cannot write PATH: WHY; the WHAT is
 * kept as KEPT" (used: KEPT) or, where it could not be kept either, "...; the WHAT is lost:
 * WHY" (used: ""). */
int sb_outkeep_write(const char *path, const void *data, size_t len, const char *what,
                     char *used, struct sb_error *err);

#endif
