/* scan.h: one run, the only hot path. For each page of the table: the policy picks a buffer,
 * the kernel copies the page from the IO cache into it, the op runs over it. First one
 * untimed validation scan that checks every page's checksum after the copy and after the op,
 * then `warmup` untimed scans, then `repetitions` timed scans, each of which checks the op's
 * row count; after the last, every page left in the pool is checked against its checksum. */
#ifndef SB_SCAN_H
#define SB_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "error.h"
#include "iocache.h"
#include "plan.h"
#include "stats.h"

struct sb_validation {
    bool ok;
    uint64_t pages_checked_after_copy; /* validation scan: every page */
    uint64_t pages_checked_after_op;   /* validation scan: every page */
    uint64_t pool_pages_checked;       /* after the last timed scan: pages left in the pool */
    uint64_t rows_expected;            /* live rows in the table (per scan) */
    uint64_t scans_row_checked;        /* timed and warm-up scans whose row count was checked */
};

struct sb_run_result {
    uint32_t nreps;
    double *seconds;               /* each timed repetition */
    struct sb_stats mbps;
    uint64_t pages_per_scan;
    uint64_t bytes_per_scan;       /* table bytes: pages * page_size, the MB/s numerator */
    uint64_t buffers_touched;      /* distinct pool buffers the policy wrote into */
    double clock_visits_per_page;  /* buffer headers examined per page (policy work) */
    struct sb_validation validation;
    struct sb_counters counters;
};

/* Runs p over the table in ioc (built for p's layout and table size). On a validation
 * mismatch: SB_ERR_RUN with the page, buffer and checksums in the message. */
int sb_scan_run(const struct sb_run_params *p, struct sb_iocache *ioc, struct sb_run_result *res,
                struct sb_error *err);
void sb_run_result_free(struct sb_run_result *res);

#endif
