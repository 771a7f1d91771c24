/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_common.c: helpers shared by the fuzz targets (see fuzz.h). */
#include "config.h"
#include "fuzz.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "plan/plan.h"

char *sb_fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);

    if (!text)
        return NULL;
    if (size)
        memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

void sb_fuzz_check_status(int status, const struct sb_error *err)
{
    if (status < SB_OK || status > SB_ERR_INPUT)
        abort();
    if (status != SB_OK && err->msg[0] == '\0')
        abort();
}

void sb_fuzz_check_utf8(const char *text)
{
    if (!sb_utf8_valid(text))
        abort();
}

void sb_fuzz_check_experiment(const struct sb_experiment *exp)
{
    const struct sb_thread *t = &exp->thread;

    for (int k = 0; k < SB_NKEYS; k++) {
        if (exp->settings[k].nvalues < 1 || !exp->settings[k].values[0])
            abort();
        for (int v = 0; v < exp->settings[k].nvalues; v++)
            sb_fuzz_check_utf8(exp->settings[k].values[v]);
    }
    sb_fuzz_check_utf8(t->who);
    sb_fuzz_check_utf8(t->machine);
    sb_fuzz_check_utf8(t->table);
    if ((t->slow.policy && !t->slow.footprint) || (t->fast.policy && !t->fast.footprint))
        abort(); /* a placement read has a size */
    for (int i = 0; i < t->nfigures; i++)
        if (!(t->figures[i].value > 0) || !isfinite(t->figures[i].value))
            abort();
}

void sb_fuzz_plan(const struct sb_experiment *exp)
{
    /* a fixed limit, so that a finding replays the same on any host */
    const struct sb_mem_limit limit = {64ull << 30, "fuzz: fixed 64GB"};
    struct sb_error err = {0};
    struct sb_plan plan;
    int status = sb_plan_build(exp, &limit, &plan, &err);

    sb_fuzz_check_status(status, &err);
    if (status != SB_OK)
        return;
    sb_fuzz_check_utf8(plan.experiment);
    sb_fuzz_check_utf8(plan.description);
    sb_fuzz_check_utf8(plan.config_source);
    sb_fuzz_check_utf8(plan.notes);
    for (size_t r = 0; r < plan.nruns; r++)
        sb_fuzz_check_utf8(plan.runs[r].name);
    sb_plan_free(&plan);
}
