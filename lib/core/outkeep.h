/* outkeep.h: where a finished result goes when it cannot go where it was asked to (a full disk,
 * a directory removed or made read-only during the run, a filesystem mounted over it): a new
 * directory under $TMPDIR (an absolute one; else /tmp), scanbench-kept-XXXXXX, that the caller
 * names to the user. Nothing is printed here. */
#ifndef SB_OUTKEEP_H
#define SB_OUTKEEP_H

#include <stddef.h>

#include "core/error.h"

/* A new directory to keep results in, its name into dir (SB_OUTFILE_MAX bytes); SB_ERR_RUN
 * with err when none can be made. */
int sb_outkeep_dir(char *dir, struct sb_error *err);

/* Writes data as path (outfile.h: never replacing a file); where that fails, keeps it in a new
 * keeping directory (sb_outkeep_dir) under path's last component. Returns SB_OK when path (or
 * its numbered name) has it; else SB_ERR_RUN, err saying "cannot write PATH: WHY; the WHAT is
 * kept as KEPT" (used: KEPT) or, where it could not be kept either, "...; the WHAT is lost:
 * WHY" (used: ""). */
int sb_outkeep_write(const char *path, const void *data, size_t len, const char *what,
                     char *used, struct sb_error *err);

#endif
