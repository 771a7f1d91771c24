/* SPDX-License-Identifier: BSD-3-Clause */
/* run_checks.h: a plan's runs checked before any runs: each run's sizes and the memory it
 * needs (sb_plan_check_run), its source file's directory and disk, its NUMA placements and its
 * concurrency; the experiment's data_dir and cache-model slices; the contention aggressor; an
 * interleaved schedule's memory all at once. Each SB_ERR_INPUT names the key and where it was
 * set. Internal to plan. */
#ifndef SB_PLAN_RUN_CHECKS_H
#define SB_PLAN_RUN_CHECKS_H

#include <stdbool.h>

#include "core/core.h"
#include "host/host.h"
#include "plan/plan.h"

/* What the checks learn of the host once per plan (build.c keeps one for all its runs). */
struct plan_host {
    bool data_dir_ok;          /* a scratch file was made in data_dir */
    struct sb_figure cores;    /* read when a run has threads > 1 */
    bool cores_read;
    int cpus;                  /* the CPUs this process may use (taskset), read with cores */
    char cpu_list[128];        /* them, as a list ("0-3") */
    uint64_t llc;              /* the last-level cache, read when a run may slice (slices.c) */
    bool llc_read;
};

/* Sizes (page, table, pool, ring, row), and the memory the run needs against limit. */
int sb_plan_check_run(const struct sb_experiment *exp, const int *idx, struct sb_run_params *run,
                      const struct sb_mem_limit *limit, struct sb_error *err);
int sb_plan_check_data_dir(const struct sb_experiment *exp, struct sb_error *err);
int sb_plan_check_sim_threads(const struct sb_experiment *exp, struct sb_error *err);
int sb_plan_check_source(const struct sb_experiment *exp, struct sb_run_params *run,
                         struct plan_host *host, struct sb_error *err);
/* The write-back's keys (issue 18): the write-back kernel resolved (auto: the copy-in
 * kernel's, pwrite for source file; NULL with writeback none), pwrite for source file only and
 * only pwrite for it, no write-back into a table or pool that scanners share. Run after
 * sb_plan_check_source (which decides a file run's copy). */
int sb_plan_check_writeback(const struct sb_experiment *exp, const int *idx,
                            struct sb_run_params *run, struct sb_error *err);
/* A half kernel (`read`, `write`) leaves no copy of the page in its buffer: op none, no
 * statements, no write-back, no extra copies, no shared pool. */
int sb_plan_check_half_kernel(const struct sb_experiment *exp, const int *idx,
                              const struct sb_run_params *run, struct sb_error *err);
int sb_plan_check_placements(const struct sb_experiment *exp, const struct sb_run_params *run,
                             struct sb_error *err);
int sb_plan_check_concurrency(const struct sb_experiment *exp, const int *idx,
                              const struct sb_run_params *run, struct plan_host *host,
                              struct sb_error *err);
/* Key contention into plan->contention: the aggressor's buffers sized from the L3 (with the
 * l3_size and l2_size overrides), its CPU (one the process may use beside the scanners: refused
 * where there is none), and its buffers beside each run's memory. After the runs are planned. */
int sb_plan_check_contention(const struct sb_experiment *exp, struct sb_plan *plan,
                             const struct sb_mem_limit *limit, struct sb_error *err);
/* Key slice_ms (slices.c): run->slice_seconds kept where the run may slice, else 0 with
 * run->slice_off saying why; run->settle_cap_pages from the last-level cache (the overrides
 * applied). After the other checks of the run. */
void sb_plan_slices(const struct sb_plan *plan, struct sb_run_params *run,
                    struct plan_host *host);
/* With the aggressor's buffers (sb_plan_check_contention first). */
int sb_plan_check_memory_together(const struct sb_experiment *exp, const struct sb_plan *plan,
                                  const struct sb_mem_limit *limit, struct sb_error *err);

#endif
