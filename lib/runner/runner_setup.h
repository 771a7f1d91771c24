/* SPDX-License-Identifier: BSD-3-Clause */
/* runner_setup.h: what run, pg and reproduce do before their first measurement and after
 * their last, in one place: the experiment read (a file, then KEY=VALUE sets in order), its
 * plan under the host's memory limits, the -o names checked, the topology and the report
 * begun; and the files written at the end (into an -o directory, saying where they went),
 * whose failure after a stop is said rather than returned. A part of runner's interface with
 * few users (the commands, the reproduction, the power check). */
#ifndef SB_RUNNER_SETUP_H
#define SB_RUNNER_SETUP_H

#include <jansson.h>
#include <stdbool.h>

#include "core/core.h"
#include "host/host.h"
#include "plan/plan.h"

#define SB_SETUP_PATH_LEN 4096

/* One experiment on its way to its runs. Zeroed before use; sb_setup_free frees what was
 * made. */
struct sb_setup {
    struct sb_experiment exp;
    struct sb_plan plan;
    struct sb_topology topo;
    bool exp_ready; /* exp initialised (sb_setup_free frees it) */
};

/* Reads the experiment: file (NULL: the embedded default), then every one of sets in order,
 * each checked like a line of the file. Errors as sb_experiment_read_file and
 * sb_experiment_set. */
int sb_setup_read(struct sb_setup *s, const char *file, const char *const *sets, int nsets,
                  struct sb_error *err);

/* Plans the experiment read, under limit (NULL: the host's, read here), and detects the
 * topology it runs on (the host's, with the plan's overrides). Errors as sb_plan_build. */
int sb_setup_plan(struct sb_setup *s, const struct sb_mem_limit *limit, struct sb_error *err);

/* The report begun, for the plan on its topology, recording command; NULL when out of
 * memory. */
json_t *sb_setup_report(const struct sb_setup *s, const char *command);

void sb_setup_free(struct sb_setup *s);

/* Where run's -o files go: the report (report[1]: --twice's second, REPORT.2.json) and the
 * CSV of its timed scans beside each. */
struct sb_outputs {
    char report[2][SB_SETUP_PATH_LEN], csv[2][SB_SETUP_PATH_LEN];
};

/* Names the files of -o path (none when path is NULL) and checks, before any run, that the
 * first nreports reports and their CSVs can be made (sb_report_check_target). */
int sb_setup_outputs(const char *path, int nreports, struct sb_outputs *o, struct sb_error *err);

/* Writes text as DIR/name without replacing anything (core/outdir.h), saying on stderr when
 * the files had to move to a new directory (dir->note, then cleared) or the name appeared
 * during the run (what names the file in those words: "the WHAT is kept as ..."). */
int sb_setup_save(struct sb_outdir *dir, const char *name, const char *text, const char *what,
                  struct sb_error *err);

/* The command's status once a file was written after its runs (written: the write's status,
 * write_err its error): a failed write becomes the command's failure (into err) when nothing
 * failed before; after a stop or a failure it is said on stderr and status stands. */
int sb_setup_settle_write(int status, int written, const struct sb_error *write_err,
                          struct sb_error *err);

#endif
