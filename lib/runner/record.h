/* SPDX-License-Identifier: BSD-3-Clause */
/* record.h: the report's blocks made from a plan and its runs (the report itself, its
 * context and experiment, each run's record, the schedule, the thread's figures): what joins a
 * run's results (engine) to the report (report.h, JSON only). */
#ifndef SB_RECORD_H
#define SB_RECORD_H

#include <jansson.h>
#include <stdint.h>

struct sb_plan;            /* plan.h */
struct sb_run_params;      /* plan.h */
struct sb_thread;          /* experiment.h */
struct sb_topology;        /* topo.h */
struct sb_run_result;      /* scan.h */
struct sb_scan_record;     /* scan.h */
struct sb_aggressor_plan;  /* aggressor.h */
struct sb_aggressor_result; /* aggressor.h */

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

/* The schedule's "contention" block (key contention): {"kind": "none"}, or the aggressor's
 * kind, CPU, buffers, how they were sized, and what it moved (res) while it worked. */
json_t *sb_report_contention_json(const struct sb_aggressor_plan *plan,
                                  const struct sb_aggressor_result *res);

/* The report's "thread" block: who, machine, table, slow/fast placements, the figures (with
 * MB/s derived from elapsed seconds where the thread gave a table size). */
json_t *sb_thread_json(const struct sb_thread *thread);

#endif
