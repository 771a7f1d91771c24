/* SPDX-License-Identifier: BSD-3-Clause */
/* configs_path.h: where scanbench finds its data files at run time (configs/events/NAME.ini,
 * configs/machines/NAME.ini, ...): $SCANBENCH_CONFIGS first, then, for the programs of the
 * build tree (SB_BUILDDIR's bench/, tests/, fuzz/), the source tree's configs/
 * (SB_SRCDIR_CONFIGS, set by Makefile.am), then the installed $(pkgdatadir)/configs
 * (SB_PKGDATA_CONFIGS). An installed scanbench never reads the source tree. A name with a '/'
 * is a path and is taken as it is. */
#ifndef SB_CONFIGS_PATH_H
#define SB_CONFIGS_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

#define SB_CONFIGS_MAX_DIRS 3

/* The longest path (with its NUL) of a file scanbench reads: the experiment, machine and events
 * files, data_dir, $SCANBENCH_CONFIGS (with its subdirectory and file name). */
#define SB_PATH_MAX 1024

/* Whether path can be taken: shorter than SB_PATH_MAX and UTF-8 (it goes into the report);
 * SB_ERR_INPUT naming it otherwise. */
int sb_path_check(const char *path, struct sb_error *err);

/* $SCANBENCH_CONFIGS, when set and not empty, must be a directory and a path sb_path_check
 * takes (room left for a subdirectory and a file name): SB_ERR_INPUT naming it otherwise, so
 * that a typo is not quietly passed over for the next directory. */
int sb_configs_check_env(struct sb_error *err);

/* The configs directories to search, in order (only those that are set); returns how many. */
int sb_configs_dirs(const char *dirs[SB_CONFIGS_MAX_DIRS]);

/* Resolves name to an existing file: a path when name contains '/', else
 * DIR/subdir/name (".ini" appended when name has no extension) for each DIR in order.
 * SB_OK with the file in path; SB_ERR_INPUT naming every place tried otherwise, or naming a path
 * sb_path_check refuses or that does not fit len. */
int sb_configs_find(const char *subdir, const char *name, char *path, size_t len,
                    struct sb_error *err);

/* The names (less ".ini") of the .ini files of subdir in the configs directories, each once,
 * sorted: only those keep takes (keep NULL: all; it is given the file's path), names of fewer
 * than SB_CONFIGS_NAME_MAX bytes, and with first_only, only from the first directory that has
 * any. Their number, at most max. */
#define SB_CONFIGS_NAME_MAX 64
int sb_configs_names(const char *subdir, bool first_only, bool (*keep)(const char *file),
                     char names[][SB_CONFIGS_NAME_MAX], int max);

#endif
