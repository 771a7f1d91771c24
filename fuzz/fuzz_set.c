/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_set.c: fuzz target: the input as one `--set KEY=VALUE` argument (lib/plan/experiment.c's
 * sb_experiment_set over the defaults), then, when it is accepted, the checks of what was
 * accepted and the plan built from it (as fuzz_experiment). */
#include "config.h"
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_experiment exp;
    struct sb_error err = {0};
    char *argument = sb_fuzz_text(data, size);
    int status;

    if (!argument)
        return 0;
    status = sb_experiment_init(&exp, &err);
    if (status == SB_OK)
        status = sb_experiment_set(&exp, argument, &err);
    sb_fuzz_check_status(status, &err);
    if (status == SB_OK) {
        sb_fuzz_check_experiment(&exp);
        sb_fuzz_plan(&exp);
    }
    sb_experiment_free(&exp);
    free(argument);
    return 0;
}
