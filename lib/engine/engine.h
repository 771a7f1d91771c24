/* SPDX-License-Identifier: BSD-3-Clause */
/* engine.h: the run engine, one configuration at a time: the phases a schedule (rounds.h)
 * drives, the same for one scanner (the calling thread) and for n (team.h). A configuration is
 * prepared once (its pools, policy states, counters and scanners; they stay allocated across
 * the rounds), validated once (an untimed scan that checks every page's checksum after the copy
 * and after the op, and that every page is read once), warmed (its warm-up scans, then the
 * number of passes over the table that makes a timed scan last at least min_scan_seconds, or,
 * with slice_ms, the slice of the table a timed scan covers instead), and then timed any number
 * of times: each timed scan may be preceded by a settling pass (untimed: as many pages as the
 * pool's footprint holds, so that the caches hold what this configuration's own previous scan
 * left, whatever ran in between; before a slice, the pages just before it, at most
 * settle_cap_pages), and checks the op's row count. Successive slices walk the table. Finishing
 * checks every page left in the pools and summarises. Progress and errors are the caller's. */
#ifndef SB_ENGINE_H
#define SB_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "engine/iocache.h"
#include "engine/scan.h"

struct sb_run_params; /* plan.h */

struct sb_config;

/* A shared table's pages are handed out to its scanners this many at a time (as PostgreSQL's
 * parallel sequential scan hands out blocks). */
#define SB_PARALLEL_CHUNK_PAGES 16

/* The NUMA node scanner i of p will run on (-1: unknown): where "local" is for its table. */
int sb_engine_home_node(const struct sb_run_params *p, uint32_t i);

/* Prepares p over tables (sb_run_tables(p) of them, built for p) for up to capacity timed
 * scans. *cfg is set even on failure (release it). */
int sb_config_prepare(struct sb_config **cfg, const struct sb_run_params *p,
                      struct sb_iocache *tables, uint32_t capacity, struct sb_error *err);

/* The validation scan. */
int sb_config_validate(struct sb_config *cfg, struct sb_error *err);

/* The warm-up scans (at least one scan is timed, untimed, to size the passes of a timed scan:
 * the last warm-up scan, or one more when warmup is 0). */
int sb_config_warm(struct sb_config *cfg, struct sb_error *err);

/* Key slice_ms: the pages of a timed scan's slice of an npages table whose pass took
 * pass_seconds, so that it lasts about slice_seconds; 0 (whole passes) unless a pass lasts at
 * least SB_SLICES_PER_PASS slices and the table holds a slice after settle_pages. */
uint64_t sb_slice_pages(uint64_t npages, double pass_seconds, double slice_seconds,
                        uint64_t settle_pages);

/* One timed scan (its passes), after a settling pass when settle is set. rec's round and
 * position are the caller's; the engine fills the rest (at: sb_timer_now() at its start).
 * reference: an extra timing of the configuration (the A-A pair): not counted, not kept in the
 * result. Otherwise the scan is appended to the result and counted by the counter backend. */
int sb_config_timed(struct sb_config *cfg, bool settle, bool reference,
                    struct sb_scan_record *rec, struct sb_error *err);

/* Key layout: the layout the configuration's pools have now noted as layout `index`, first
 * timed in round first_round, with where its first pool's pages landed (those of its policy's
 * footprint: a ring's buffers are the pool's first; colour_bytes: the size
 * of one way of the cache whose page colours are counted; 0: none). */
int sb_config_layout_note(struct sb_config *cfg, uint32_t index, uint32_t first_round,
                          uint64_t colour_bytes, struct sb_error *err);

/* Key layout random or hugepages: every pool of the configuration copied into a fresh mapping,
 * the old one unmapped (its frames back to the kernel, for the next pool drawn), then noted as
 * sb_config_layout_note does. The pages' contents and every buffer's state stay as they were:
 * the validation's checks go on over the new memory. */
int sb_config_redraw(struct sb_config *cfg, uint32_t index, uint32_t first_round,
                     uint64_t colour_bytes, struct sb_error *err);

/* After the last timed scan: every page left in the pools checked, the summary made
 * (validation.ok set when every check passed). */
int sb_config_finish(struct sb_config *cfg, struct sb_error *err);

const struct sb_run_params *sb_config_params(const struct sb_config *cfg);
struct sb_run_result *sb_config_result(struct sb_config *cfg);
/* Timed scans appended so far. */
uint32_t sb_config_scans(const struct sb_config *cfg);

/* Frees the configuration (its result stays with the caller's copy only if taken before:
 * sb_config_take_result). */
void sb_config_take_result(struct sb_config *cfg, struct sb_run_result *res);
void sb_config_release(struct sb_config *cfg);

/* Two ways of running one configuration alone, with no schedule around it: validation,
 * warm-up, `repetitions` timed scans back to back, pool check.
 *
 * Runs p over the table in ioc (built for p's layout and table size) with one scanner, the
 * calling thread (threads = 1, no shared pool). On a validation mismatch: SB_ERR_RUN with the
 * page, buffer and checksums in the message. */
int sb_scan_run(const struct sb_run_params *p, struct sb_iocache *ioc, struct sb_run_result *res,
                struct sb_error *err);

/* Runs p with its scanners over tables[0 .. sb_run_tables(p) - 1] (threads > 1, or the shared
 * pool). The run's MB/s is that of all scanners together: the table bytes every scanner read /
 * the time from the first scanner's start to the last one's finish. */
int sb_scan_run_concurrent(const struct sb_run_params *p, struct sb_iocache *tables,
                           struct sb_run_result *res, struct sb_error *err);

/* Adds the CPU the caller runs on to rec's CPUs seen. */
void sb_scanner_record_cpu(struct sb_scanner_record *rec);

/* The MB/s of each timed scan into mbps (res->nreps values), then the summary into res->mbps. */
void sb_run_result_summarise(struct sb_run_result *res);
void sb_run_result_free(struct sb_run_result *res);

#endif
