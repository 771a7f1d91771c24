/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_machine.c: fuzz target: the input as a machine file (lib/cachesim/machine.c); a model that
 * reads and is small enough is built (lib/cachesim/model.c), its size checked against the
 * estimate the plan counts before building one, and fed one page copy, a streamed page and a fence,
 * so that odd but accepted geometries run through the model too. */
#include "config.h"
#include "fuzz.h"

#include <stdlib.h>

#include "cachesim/cachesim.h"
#include "cachesim/machine.h"
#include "cachesim/model.h"

/* Models above this many simulated lines are read and checked but not built (time per input). */
#define MAX_MODEL_LINES (1u << 20)

static void run_model(const struct sb_machine *m)
{
    struct sb_cachesim *sim = NULL;
    struct sb_cachesim_counts counts;
    struct sb_error err = {0};
    uint64_t lines = 0;
    int status;

    for (unsigned l = 0; l < m->config.nlevels; l++)
        lines += m->config.level[l].size / m->config.level[l].line_size;
    if (lines > MAX_MODEL_LINES)
        return;
    status = sb_cachesim_create(&m->config, &sim, &err);
    if (status != SB_OK) {
        /* the reader accepted it, so only memory may be missing */
        if (status != SB_ERR_RUN)
            abort();
        return;
    }
    /* what the plan counts against the host's memory is what the model takes */
    if (sb_cachesim_state_bytes(sim) != sb_cachesim_config_state_bytes(&m->config))
        abort();
    for (uint64_t a = 0; a < SB_MACHINE_PAGE; a += 64) {
        sb_cachesim_access(sim, (1ull << 40) + a, 64, false);
        sb_cachesim_access(sim, (2ull << 40) + a, 64, true);
    }
    sb_cachesim_stream_store(sim, 3ull << 40, SB_MACHINE_PAGE);
    sb_cachesim_fence(sim);
    sb_cachesim_read_counts(sim, &counts);
    sb_cachesim_destroy(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sb_machine *m = malloc(sizeof *m);
    struct sb_error err = {0};
    char *text = sb_fuzz_text(data, size);
    char geometry[256];
    int status;

    if (text && m) {
        status = sb_machine_parse(text, "fuzz.ini", m, &err);
        sb_fuzz_check_status(status, &err);
        if (status == SB_OK) {
            sb_fuzz_check_utf8(m->name); /* the report has them */
            sb_fuzz_check_utf8(m->description);
            sb_fuzz_check_utf8(m->source);
            sb_machine_geometry(m, geometry, sizeof geometry);
            run_model(m);
        }
    }
    free(text);
    free(m);
    return 0;
}
