/* SPDX-License-Identifier: BSD-3-Clause */
/* scan.h: what a run (one configuration) produced: its timed scans, each with where in the
 * schedule it ran, its validation, where its pages came from and who scanned them. Types only:
 * the engine (engine.h) fills them; runner/record.c writes them. */
#ifndef SB_SCAN_H
#define SB_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "counters/counters.h"
#include "host/host.h"
#include "stats/stats.h"
#include "vocab/vocab.h"

struct sb_validation {
    bool ok;
    uint64_t pages_checked_after_copy; /* validation scan: every page */
    uint64_t pages_checked_after_op;   /* validation scan: every page */
    uint64_t pool_pages_checked;       /* after the last timed scan: pages left in the pool */
    uint64_t rows_expected;            /* live rows in the table (per scan) */
    uint64_t scans_row_checked;        /* timed and warm-up scans whose row count was checked */
    uint64_t pages_read_once;          /* validation scan: pages of every table read exactly
                                          once (checked by a per-page count) */
    uint64_t writebacks_checked;       /* validation scan: pages written back, each checked
                                          (the IO cache page equals its buffer and the
                                          checksum of its state) */
    uint64_t pages_checked_after_writeback; /* after the last timed scan: table pages whose
                                               checksum is their state's (writeback only) */
    uint64_t extra_copies_checked;     /* validation scan: extra_copy's extra fetches, each
                                          checked against its page's checksum */
};

/* One scanner of a run: where it ran and what it did in the timed scans. */
#define SB_MAX_CPUS_SEEN 8
struct sb_scanner_record {
    uint32_t thread;
    bool pinned;                 /* bound to one PU (threads > 1, with hwloc) */
    int pu, core, node;          /* the PU (os index) it was bound to, its core (logical index)
                                    and NUMA node; -1 when not pinned or unknown */
    int cpus_seen[SB_MAX_CPUS_SEEN]; /* CPUs it ran on (sched_getcpu at each timed scan's start
                                        and end), distinct, the first SB_MAX_CPUS_SEEN */
    unsigned ncpus_seen;
    uint32_t table;              /* which table it scanned (0 with a shared table) */
    double *seconds;             /* each timed scan: from its start to its last page */
    uint64_t *pages;             /* each timed scan: the pages it read (all passes) */
    struct sb_stats mbps;        /* its own pages * page_size / its own seconds */
};

/* Where the pages came from, beyond the table itself (sources other than plain memory). */
struct sb_io_result {
    double device_mbps;          /* bigtable: the device's rate (a pass of fills, or a pread
                                    pass over the dropped file); 0: not measured */
    double resident_min;         /* warm file: lowest fraction resident before a timed scan */
    double resident_max_start;   /* bigtable file: highest fraction resident when a scan began */
    double resident_after_drop;  /* bigtable file: fraction resident right after the first drop */
    uint64_t drops;              /* bigtable file: DONTNEED calls in the timed scans */
    const char *scratch;         /* file: how the scratch file was made nameless */
    double write_seconds;        /* file: generating, writing and syncing the (first) table */
};

/* The shared pool's accounting (shared_pool = yes). */
struct sb_shared_accounting {
    bool used;
    uint32_t nbuffers;
    uint64_t acquisitions;       /* buffers pinned over the timed scans: must equal the pages */
    uint64_t pages;              /* pages read over the timed scans */
    uint32_t pins_left;          /* buffers still pinned after a scan (the largest seen): 0 */
};

/* One timed scan: where it ran in the schedule and what it measured. */
struct sb_scan_record {
    uint32_t round;                /* the round (0-based); blocked: the repetition */
    uint32_t layout;               /* the layout of the run's pools it ran on (0: as prepared;
                                      key layout) */
    uint32_t position;             /* its place in the round's order (0-based) */
    double at;                     /* sb_timer_now() at its start */
    double seconds;                /* its passes, from the first page to the last */
    uint32_t passes;               /* passes over the table(s) */
    uint64_t bytes;                /* table bytes scanned: passes * pages * page_size */
    int cpu_start, cpu_end;        /* the calling thread's CPU at its start and end, -1 unknown */
    double steal;                  /* the host's steal time over it, seconds (all CPUs; NaN:
                                      /proc/stat does not say) */
    uint64_t written_evict;        /* pages written back before their buffer was reused */
    uint64_t written_checkpoint;   /* pages written back by checkpoints */
    uint64_t bytes_copied_in;      /* bytes copied from the IO cache into the pool */
    uint64_t bytes_written_back;   /* bytes copied from the pool back into the IO cache */
    uint64_t bytes_copied_extra;   /* extra_copy: bytes fetched beyond the table's pages (into
                                      a spare buffer), never in bytes */
};

/* One statement of a sequence (key statements): what scanner 0 did with it in the timed scans
 * (the earlier statements run once, untimed, before each timed scan; the last is timed). */
struct sb_statement_result {
    const char *op;                /* the op's name */
    uint64_t pages, visits;        /* pages read and buffer headers examined, over the kept
                                      timed scans */
    uint32_t footprint;            /* distinct buffers it wrote into in the last timed scan's
                                      last pass (0: not recorded) */
    char shape[96];                /* that pass's buffer sequence in words (policy.h) */
};

/* One layout of a run's pools (key layout): when it was drawn and where its pages landed. */
struct sb_layout_record {
    uint32_t index;                /* 0: the pools as prepared; then each draw */
    uint32_t first_round;          /* the first round timed on it */
    double at;                     /* sb_timer_now() when it was drawn */
    double seconds;                /* the draw: mapping, populating, copying, unmapping */
    char pages[48];                /* the pages asked for ("4KB", "THP (madvise)", "hugetlb";
                                      "kept": a mapping freed before, taken again) */
    struct sb_frames frames;       /* the first pool's frames (host/frames.h) */
};

struct sb_run_result {
    uint32_t nreps;                /* timed scans recorded */
    uint32_t capacity;             /* timed scans there is room for */
    struct sb_scan_record *scans;  /* each timed scan, in the order run */
    struct sb_stats mbps;
    uint32_t passes;               /* passes over the table(s) per timed scan */
    uint64_t settle_pages;         /* pages of the settling pass before a timed scan (0: none) */
    uint64_t pages_per_scan;       /* pages of one pass over the table(s), or of one slice */
    uint64_t slice_pages;          /* key slice_ms: the pages of a timed scan's slice of the
                                      table (0: whole passes) */
    const char *slice_off;         /* slice_ms asked for slices and the run made whole passes:
                                      why (static text; NULL otherwise) */
    uint64_t bytes_per_scan;       /* table bytes of a timed scan: passes * pages * page_size,
                                      the MB/s numerator */
    uint64_t buffers_touched;      /* distinct pool buffers the policy wrote into */
    double clock_visits_per_page;  /* buffer headers examined per page (policy work) */
    double op_host_ns_per_page;    /* the op's time per L1-resident page on this host
                                      (runner/predict.h; 0: not measured) */
    struct sb_validation validation;
    struct sb_counters counters;
    struct sb_placement_found iocache_placement; /* the (first) table's */
    struct sb_placement_found pool_placement;    /* the (first) pool's */
    struct sb_io_result io;
    uint32_t nscanners;
    struct sb_scanner_record *scanners;        /* one per scanner */
    struct sb_shared_accounting shared;
    uint32_t nstatements;          /* key statements: its sequence (0: not set) */
    struct sb_statement_result statements[SB_MAX_STATEMENTS];
    struct sb_layout_record *layouts; /* each layout its pools had, in order (key layout) */
    uint32_t nlayouts, layouts_cap;
};

#endif
