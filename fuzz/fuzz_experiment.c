/* fuzz_experiment.c: fuzz target: the input as an experiment INI file (lib/experiment.c, read
 * through lib/ini_lines.c), then, when it reads, the plan built from it (lib/plan.c: the
 * cross-key checks, and the machine models and events maps the file names). What it accepts
 * is checked too (check_accepted). */
#include "config.h"
#include "fuzz.h"

#include <math.h>
#include <stdlib.h>

/* Aborts when what was accepted breaks the reader's promises: every key has a value, and every
 * figure of [thread] is a positive number the report can hold (JSON has no inf or nan). */
static void check_accepted(const struct sb_experiment *exp)
{
    for (int k = 0; k < SB_NKEYS; k++)
        if (exp->settings[k].nvalues < 1 || !exp->settings[k].values[0])
            abort();
    for (int i = 0; i < exp->thread.nfigures; i++)
        if (!(exp->thread.figures[i].value > 0) || !isfinite(exp->thread.figures[i].value))
            abort();
}

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
        check_accepted(&exp);
        sb_fuzz_plan(&exp);
    }
    sb_experiment_free(&exp);
    free(text);
    return 0;
}
