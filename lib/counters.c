/* counters.c: the counter-backend registry and the `none` backend (nothing requested). */
#include "config.h"
#include "counters.h"

#include <stdlib.h>
#include <string.h>

const char *const sb_role_names[SB_NROLES] = {
    [SB_ROLE_CYCLES] = "cycles",
    [SB_ROLE_INSTRUCTIONS] = "instructions",
    [SB_ROLE_L2_MISS] = "l2_miss",
    [SB_ROLE_L2_WRITEBACK] = "l2_writeback",
    [SB_ROLE_MEM_READ_BYTES] = "mem_read_bytes",
    [SB_ROLE_MEM_WRITE_BYTES] = "mem_write_bytes",
};

static int none_open(struct sb_counters *c, const struct sb_run_params *run, struct sb_error *err)
{
    (void)run;
    (void)err;
    c->status = "not requested";
    return SB_OK;
}

static void none_region(struct sb_counters *c, unsigned rep)
{
    (void)c;
    (void)rep;
}

static void none_close(struct sb_counters *c) { (void)c; }

const struct sb_counter_backend sb_counter_backends[] = {
    {"none", "no counters: times only", none_open, none_region, none_region, NULL, none_close},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};

const struct sb_counter_backend *sb_counter_backend_find(const char *name)
{
    for (const struct sb_counter_backend *b = sb_counter_backends; b->name; b++)
        if (strcmp(b->name, name) == 0)
            return b;
    return NULL;
}

int sb_counters_open(struct sb_counters *c, const struct sb_counter_backend *backend,
                     const struct sb_run_params *run, unsigned nreps, struct sb_error *err)
{
    memset(c, 0, sizeof *c);
    c->backend = backend;
    c->nreps = nreps;
    c->values = calloc(nreps ? nreps : 1, sizeof *c->values);
    if (!c->values)
        return sb_fail(err, SB_ERR_RUN, "out of memory for counter values");
    return backend->open(c, run, err);
}

void sb_counters_close(struct sb_counters *c)
{
    if (c->backend)
        c->backend->close(c);
    free(c->values);
    c->values = NULL;
}
