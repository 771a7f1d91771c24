/* SPDX-License-Identifier: BSD-3-Clause */
/* outfile.h: scanbench's one way to write a result file, never replacing anything: the whole
 * file goes under a temporary name in the target's directory (PATH.tmp.XXXXXX), is fsynced and
 * linked into place; if PATH appeared meanwhile, the file is linked under the first free name
 * made by inserting -2, -3, ... before the extension (r.json -> r-2.json, out -> out-2) and the
 * caller says so. The temporary name is removed on every path, a failed write (ENOSPC, EFBIG
 * under `ulimit -f`: SIGXFSZ is ignored while writing) and a stop signal included (they are
 * held until the file is in place). The check before any run refuses a PATH that exists. */
#ifndef SB_OUTFILE_H
#define SB_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

#define SB_OUTFILE_MAX 4096 /* the longest name a result file can have, NUL included */

/* 0 when files can be made in dir, else why: an errno value (ENOENT, ENOTDIR, EACCES...). */
int sb_outfile_dir_problem(const char *dir);

/* Before any run: SB_ERR_INPUT (exit 2) naming path when it is empty, ends in '/', exists
 * ("exists; scanbench never overwrites a WHAT"), or its directory is missing, not a directory
 * or not writable. */
int sb_outfile_check(const char *path, const char *what, struct sb_error *err);

/* path with "-n" inserted before the extension of its last component (n >= 2); false when it
 * does not fit in len. */
bool sb_outfile_numbered(const char *path, unsigned n, char *buf, size_t len);

/* Writes data (len bytes) as path, or as the first free numbered name when path exists; the
 * name used goes to used (SB_OUTFILE_MAX bytes). */
int sb_outfile_write(const char *path, const void *data, size_t len, char *used,
                     struct sb_error *err);

/* A new empty temporary file beside path, PATH.tmp.XXXXXX followed by suffix (e.g. ".png"),
 * with the mode a plain create would have under the umask; its name in tmp (SB_OUTFILE_MAX
 * bytes). Returns the open descriptor, or -1 with err. */
int sb_outfile_temp(const char *path, const char *suffix, char *tmp, struct sb_error *err);

/* Writes data to fd whole, through interrupted and short writes: 0, the errno of a write that
 * failed, or -1 when a write wrote nothing. */
int sb_outfile_write_all(int fd, const void *data, size_t len);

/* Writes data to fd (tmp names it in messages) whole and fsyncs it, SIGXFSZ ignored. */
int sb_outfile_put(int fd, const char *tmp, const void *data, size_t len, struct sb_error *err);

/* Links the finished temporary file tmp as path, or as the first free numbered name (into
 * used), then removes tmp, whatever happened. */
int sb_outfile_publish(const char *tmp, const char *path, char *used, struct sb_error *err);

/* Creates the first free of dir-2, dir-3, ... (its name into used, SB_OUTFILE_MAX bytes). */
int sb_outfile_mkdir_numbered(const char *dir, char *used, struct sb_error *err);

/* mkstemp creates files mode 0600; results are for sharing: give fd the mode a plain
 * open(O_CREAT, 0666) would have had under the process's umask. */
void sb_file_mode_from_umask(int fd);

#endif
