/* SPDX-License-Identifier: BSD-3-Clause */
/* scratch.h: a nameless scratch file in a directory (O_TMPFILE, else mkstemp and unlink at
 * once): nothing is left behind however the process ends, SIGKILL included. The file source's
 * table lives in one (engine); the plan makes one to check that data_dir can hold it. */
#ifndef SB_SCRATCH_H
#define SB_SCRATCH_H

#include <stddef.h>

/* Opens a new nameless file in dir, read-write; -1 with why on failure. *how says how. */
int sb_file_scratch_open(const char *dir, const char **how, char *why, size_t len);

#endif
