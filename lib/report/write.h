/* SPDX-License-Identifier: BSD-3-Clause */
/* write.h: a report finished and saved: marked complete or interrupted, written whole under a
 * name that never replaces a file (core's outfile.h). */
#ifndef SB_REPORT_WRITE_H
#define SB_REPORT_WRITE_H

#include <jansson.h>
#include <stdbool.h>

#include "core/core.h"

/* Fails (SB_ERR_INPUT) if path is empty, exists or its directory cannot be written: checked
 * before any run so that a long experiment does not end unable to save. */
int sb_report_check_target(const char *path, struct sb_error *err);

/* Whether the plan ran to its end: "incomplete": false, or, when it was stopped (a signal, the
 * watchdog: lib/core/stop.h), "incomplete": true and "interrupted": {by, run (the run stopped),
 * run_index (1-based), runs_planned, runs_done}. The runs finished before it stay in "runs". */
void sb_report_mark_complete(json_t *report);
void sb_report_mark_interrupted(json_t *report, const char *by, const char *run,
                                size_t run_index, size_t runs_planned);

/* The report as text (indented JSON and a newline; malloc'd, NULL when out of memory), its
 * peak_rss_bytes set first. */
char *sb_report_text(json_t *report);

/* Writes the report to path with outfile.h's writer, gzip-compressed where path ends in ".gz"
 * (gzip.h): whole or not at all, never replacing a file; when path appeared during the run, as path-2 (r-2.json), the first free name. The name
 * used goes to used (SB_OUTFILE_MAX bytes). Where path cannot be written (a full disk, its
 * directory gone), the report is kept under $TMPDIR (outkeep.h): SB_ERR_RUN, err says where,
 * used names it; used is "" when it could not be kept anywhere (err says it is lost). */
int sb_report_write(json_t *report, const char *path, char *used, struct sb_error *err);

/* sb_report_write, then one line on stderr: "report written to PATH" (unless quiet; always for
 * an incomplete report, with " (incomplete)"), or "PATH appeared during the run; the report is
 * kept as PATH-2". The name used goes to used (SB_OUTFILE_MAX bytes). */
int sb_report_save(json_t *report, const char *path, bool quiet, char *used,
                   struct sb_error *err);

#endif
