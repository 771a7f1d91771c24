/* counters.h: the counter interface. The code speaks of roles (what is measured), never of
 * event names; backends (rows of a const table) map roles to whatever they can read. Counters
 * are started and read only at region boundaries (one timed repetition), never per page.
 * A value that could not be read is absent (reported as null), never 0. */
#ifndef SB_COUNTERS_H
#define SB_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

enum sb_role {
    SB_ROLE_CYCLES,
    SB_ROLE_INSTRUCTIONS,
    SB_ROLE_L2_MISS,
    SB_ROLE_L2_WRITEBACK,
    SB_ROLE_MEM_READ_BYTES,
    SB_ROLE_MEM_WRITE_BYTES,
    SB_NROLES
};

extern const char *const sb_role_names[SB_NROLES];

#define SB_COUNTERS_MAX_REPS 1000

struct sb_counters {
    const struct sb_counter_backend *backend;
    const char *status;   /* "not requested", "ok", "estimated", "unavailable" */
    char reason[256];     /* why unavailable (empty otherwise) */
    unsigned nreps;
    bool have[SB_NROLES];                 /* role was read */
    uint64_t (*values)[SB_NROLES];        /* values[rep][role], valid where have[role] */
};

struct sb_counter_backend {
    const char *name;
    const char *description;
    /* Prepares the backend for a run of nreps repetitions; sets status and reason. */
    int (*open)(struct sb_counters *c, struct sb_error *err);
    void (*start)(struct sb_counters *c, unsigned rep);
    void (*stop)(struct sb_counters *c, unsigned rep);
    void (*close)(struct sb_counters *c);
};

extern const struct sb_counter_backend sb_counter_backends[]; /* NULL-name terminated */

const struct sb_counter_backend *sb_counter_backend_find(const char *name);

int sb_counters_open(struct sb_counters *c, const struct sb_counter_backend *backend,
                     unsigned nreps, struct sb_error *err);
void sb_counters_close(struct sb_counters *c);

#endif
