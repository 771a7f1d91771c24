/* SPDX-License-Identifier: BSD-3-Clause */
/* run_values.h: the value of each key for one run of an experiment's product (idx: the
 * index of its value in each key's list), and the scratch directory a file run uses. Internal
 * to plan. */
#ifndef SB_PLAN_RUN_VALUES_H
#define SB_PLAN_RUN_VALUES_H

#include <stdint.h>
#include <stdlib.h>

#include "plan/experiment.h"

/* The value of key for the run at position idx of the product. */
static inline const char *text_of(const struct sb_experiment *exp, const int *idx,
                                  enum sb_key_id key)
{
    return exp->settings[key].values[idx[key]];
}

static inline uint64_t number_of(const struct sb_experiment *exp, const int *idx,
                                 enum sb_key_id key)
{
    return exp->settings[key].numbers[idx[key]];
}

/* The scratch directory of source file: data_dir, else $TMPDIR, else /tmp. */
static inline const char *data_dir_of(const struct sb_experiment *exp)
{
    const char *set = exp->settings[SB_K_DATA_DIR].values[0], *tmp = getenv("TMPDIR");
    return set[0] ? set : tmp && tmp[0] ? tmp : "/tmp";
}

#endif
