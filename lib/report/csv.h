/* SPDX-License-Identifier: BSD-3-Clause */
/* csv.h: a report's timed scans as CSV, one line per scan, for people who plot in R or
 * pandas: at (seconds since the schedule began), round, position (in the round's order),
 * configuration (the run's name), reference (1 for the A-A pair's second timing), passes,
 * bytes, seconds, mbps, cpu (at the scan's start), steal (seconds), level (its round's level:
 * analysis_level.h; empty where unknown). */
#ifndef SB_REPORT_CSV_H
#define SB_REPORT_CSV_H

#include <jansson.h>
#include <stdio.h>

/* Writes the CSV of report to out; 0, or -1 on a write error. */
int sb_report_csv(FILE *out, const json_t *report);

/* The CSV's path beside a report's: REPORT.json and REPORT.json.gz -> REPORT.csv (never
 * compressed), else REPORT.csv appended (to REPORT less its ".gz"). */
void sb_report_csv_path(const char *report_path, char *buf, size_t len);

#endif
