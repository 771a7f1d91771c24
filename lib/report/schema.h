/* SPDX-License-Identifier: BSD-3-Clause */
/* schema.h: what a report is: its schema's name and versions, and the bounds the readers
 * enforce. */
#ifndef SB_REPORT_SCHEMA_H
#define SB_REPORT_SCHEMA_H

#define SB_REPORT_SCHEMA "scanbench-report"
#define SB_REPORT_SCHEMA_VERSION 4
/* The oldest schema the readers take: version 1 had no rounds (compare and plot read it; its
 * analysis says that it needs rounds). */
#define SB_REPORT_SCHEMA_OLDEST 1
/* The most runs a report holds, and timed scans a run: what a plan can make (plan.h's
 * SB_MAX_RUNS, the key repetitions' largest value; test_report checks that they agree). A
 * report with more is refused by the readers (read.h). */
#define SB_REPORT_MAX_RUNS 10000
#define SB_REPORT_MAX_SCANS 1000

#endif
