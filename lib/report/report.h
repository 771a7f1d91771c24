/* SPDX-License-Identifier: BSD-3-Clause */
/* report.h: the JSON report, scanbench's contract with every renderer and with other hosts:
 * {"schema": "scanbench-report", "schema_version": 2, "command": ..., "experiment": {...},
 *  "context": {...}, "schedule": {...}, "runs": [...], "analysis": {...}}. Documented field by
 * field in doc/report-schema.md (tests/tree/report_schema.sh keeps it true). Written to a
 * temporary name and linked into place (write.c, outfile.h), so a report is whole or absent,
 * and an existing file is never replaced; where its name ends in ".gz" it is written and read
 * gzip-compressed (gzip.h). The report subsystem reads and writes reports and analyses them,
 * JSON in and out: what builds one from a plan and its runs is the runner's (runner/record.h). */
#ifndef SB_REPORT_H
#define SB_REPORT_H

/* the subsystem's interface */
#include "report/schema.h"
#include "report/write.h"
#include "report/analysis.h"
#include "report/analysis_aa.h"
#include "report/analysis_knee.h"
#include "report/compare.h"
#include "report/csv.h"
#include "report/field.h"
#include "report/gzip.h"
#include "report/fit.h"
#include "report/read.h"
#include "report/reproducible.h"
#include "report/runs.h"
#include "report/verdict.h"
#include "report/emulation.h"

#endif
