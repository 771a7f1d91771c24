/* fuzz_common.c: helpers shared by the fuzz targets (see fuzz.h). */
#include "config.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "plan.h"

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

void sb_fuzz_plan(const struct sb_experiment *exp)
{
    /* a fixed limit, so that a finding replays the same on any host */
    const struct sb_mem_limit limit = {64ull << 30, "fuzz: fixed 64GB"};
    struct sb_error err = {0};
    struct sb_plan plan;
    int status = sb_plan_build(exp, &limit, &plan, &err);

    sb_fuzz_check_status(status, &err);
    if (status == SB_OK)
        sb_plan_free(&plan);
}
