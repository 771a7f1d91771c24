/* report.h: the JSON report, scanbench's contract with every renderer and with other hosts:
 * {"schema": "scanbench-report", "schema_version": 1, "command": ..., "experiment": {...},
 *  "context": {...}, "runs": [...]}. Documented field by field in README.md. Written to a
 * temporary name and linked into place, so a report is whole or absent, and an existing file
 * is never replaced. */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <jansson.h>

#include "error.h"
#include "plan.h"
#include "scan.h"
#include "topo.h"

#define SB_REPORT_SCHEMA "scanbench-report"
#define SB_REPORT_SCHEMA_VERSION 1

/* A report with its context and experiment blocks and no runs yet. */
json_t *sb_report_new(const struct sb_plan *plan, const struct sb_topology *topo,
                      const char *command_line);

/* Appends one run's record. */
void sb_report_add_run(json_t *report, const struct sb_run_params *p,
                       const struct sb_run_result *res);

/* Fails (SB_ERR_INPUT) if path exists or its directory cannot be written: checked before any
 * run so that a long experiment does not end unable to save. */
int sb_report_check_target(const char *path, struct sb_error *err);

/* Whether the plan ran to its end: "incomplete": false, or, when it was stopped (a signal, the
 * watchdog: lib/stop.h), "incomplete": true and "interrupted": {by, run (the run stopped),
 * run_index (1-based), runs_planned, runs_done}. The runs finished before it stay in "runs". */
void sb_report_mark_complete(json_t *report);
void sb_report_mark_interrupted(json_t *report, const char *by, const char *run,
                                size_t run_index, size_t runs_planned);

/* Writes the report to path.tmp.XXXXXX, fsyncs, links it to path (never replacing a file that
 * exists) and removes the temporary name. */
int sb_report_write(json_t *report, const char *path, struct sb_error *err);

/* mkstemp creates files mode 0600; results are for sharing: give fd the mode a plain
 * open(O_CREAT, 0666) would have had under the process's umask. */
void sb_file_mode_from_umask(int fd);

#endif
