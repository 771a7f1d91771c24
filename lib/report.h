/* report.h: the JSON report, scanbench's contract with every renderer and with other hosts:
 * {"schema": "scanbench-report", "schema_version": 2, "command": ..., "experiment": {...},
 *  "context": {...}, "schedule": {...}, "runs": [...], "analysis": {...}}. Documented field by
 * field in doc/report-schema.md (tests/report_schema.sh keeps it true). Written to a
 * temporary name and linked into place (report_write.c, outfile.h), so a report is whole or
 * absent, and an existing file is never replaced. */
#ifndef SB_REPORT_H
#define SB_REPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "error.h"
#include "plan.h"
#include "scan.h"
#include "topo.h"

#define SB_REPORT_SCHEMA "scanbench-report"
#define SB_REPORT_SCHEMA_VERSION 2
/* The oldest schema the readers take: version 1 had no rounds (compare and plot read it; its
 * analysis says that it needs rounds). */
#define SB_REPORT_SCHEMA_OLDEST 1
/* The most runs a report holds, and timed scans a run: what a plan can make (plan.h's
 * SB_MAX_RUNS, the key repetitions' largest value; test_report checks that they agree). A
 * report with more is refused by the readers (report_read.h). */
#define SB_REPORT_MAX_RUNS 10000
#define SB_REPORT_MAX_SCANS 1000

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

/* The report's "thread" block: who, machine, table, slow/fast placements, the figures (with
 * MB/s derived from elapsed seconds where the thread gave a table size). */
json_t *sb_thread_json(const struct sb_thread *thread);

/* Fails (SB_ERR_INPUT) if path is empty, exists or its directory cannot be written: checked
 * before any run so that a long experiment does not end unable to save. */
int sb_report_check_target(const char *path, struct sb_error *err);

/* Whether the plan ran to its end: "incomplete": false, or, when it was stopped (a signal, the
 * watchdog: lib/stop.h), "incomplete": true and "interrupted": {by, run (the run stopped),
 * run_index (1-based), runs_planned, runs_done}. The runs finished before it stay in "runs". */
void sb_report_mark_complete(json_t *report);
void sb_report_mark_interrupted(json_t *report, const char *by, const char *run,
                                size_t run_index, size_t runs_planned);

/* The report as text (indented JSON and a newline; malloc'd, NULL when out of memory), its
 * peak_rss_bytes set first. */
char *sb_report_text(json_t *report);

/* Writes the report to path with outfile.h's writer: whole or not at all, never replacing a
 * file; when path appeared during the run, as path-2 (r-2.json), the first free name. The name
 * used goes to used (SB_OUTFILE_MAX bytes). */
int sb_report_write(json_t *report, const char *path, char *used, struct sb_error *err);

/* sb_report_write, then one line on stderr: "report written to PATH" (unless quiet; always for
 * an incomplete report, with " (incomplete)"), or "PATH appeared during the run; the report is
 * kept as PATH-2". The name used goes to used (SB_OUTFILE_MAX bytes). */
int sb_report_save(json_t *report, const char *path, bool quiet, char *used,
                   struct sb_error *err);

#endif
