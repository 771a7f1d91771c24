/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_experiment.c: fuzz target: the input as an experiment INI file (lib/plan/experiment.c, read
 * through lib/core/ini_lines.c), then, when it reads, the plan built from it (lib/plan/plan.c: the
 * cross-key checks, and the machine models and events maps the file names). What it accepts
 * is checked too (sb_fuzz_check_experiment, and the plan's text in sb_fuzz_plan). */
#include "config.h"
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_experiment exp;
    struct sb_error err = {0};
    char *text = sb_fuzz_text(data, size);
    int status;

    if (!text)
        return 0;
    status = sb_experiment_init(&exp, &err);
    if (status == SB_OK)
        status = sb_experiment_read_string(&exp, text, "fuzz.ini", &err);
    sb_fuzz_check_status(status, &err);
    if (status == SB_OK) {
        sb_fuzz_check_experiment(&exp);
        sb_fuzz_plan(&exp);
    }
    sb_experiment_free(&exp);
    free(text);
    return 0;
}
