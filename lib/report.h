/* report.h: the JSON report, scanbench's contract with every renderer and with other hosts:
 * {"schema": "scanbench-report", "schema_version": 2, "command": ..., "experiment": {...},
 *  "context": {...}, "schedule": {...}, "runs": [...], "analysis": {...}}. Documented field by
 * field in doc/report-schema.md (tests/report_schema.sh keeps it true). Written to a
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
#define SB_REPORT_SCHEMA_VERSION 2
/* The oldest schema the readers take: version 1 had no rounds (compare and plot read it; its
 * analysis says that it needs rounds). */
#define SB_REPORT_SCHEMA_OLDEST 1

/* A report with its context and experiment blocks and no runs yet. */
json_t *sb_report_new(const struct sb_plan *plan, const struct sb_topology *topo,
                      const char *command_line);

/* Appends one run's record and returns it (NULL when it could not be built). t0: the
 * sb_timer_now() its scans' `at` is counted from (the schedule's start). */
json_t *sb_report_add_run(json_t *report, const struct sb_run_params *p,
                          const struct sb_run_result *res, double t0);

/* A run's identity (its keys) and its timed scans: what the analysis reads. */
json_t *sb_report_run_brief(const struct sb_run_params *p, const struct sb_run_result *res,
                            double t0);
json_t *sb_report_scans_json(const struct sb_scan_record *scans, uint32_t n, double t0);

/* The report's "schedule" block: kind, seed, rounds, why they stopped, the settling pass, the
 * timer, and the reference run's second timings (the A-A pair). */
json_t *sb_report_schedule_json(const struct sb_plan *plan, const struct sb_scan_record *reference,
                                uint32_t nreference, uint32_t rounds, const char *stopped_by,
                                double t0);

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

/* Writes text to a new file at path (never replacing one). */
int sb_report_write_text(const char *text, const char *path, struct sb_error *err);

/* mkstemp creates files mode 0600; results are for sharing: give fd the mode a plain
 * open(O_CREAT, 0666) would have had under the process's umask. */
void sb_file_mode_from_umask(int fd);

#endif
