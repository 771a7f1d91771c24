/* SPDX-License-Identifier: BSD-3-Clause */
/* experiments.c: which of the thread's experiments a reproduction runs, and what it holds
 * freed (see reproduce.h). */
#include "config.h"
#include "reproduce/reproduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the file holds a [thread] section. */
static bool has_thread(const char *file)
{
    FILE *f = fopen(file, "r");
    char line[256];
    bool thread = false;

    if (!f)
        return false;
    while (!thread && fgets(line, sizeof line, f))
        thread = strncmp(line, "[thread]", 8) == 0;
    fclose(f);
    return thread;
}

int sb_reproduce_known(char names[][SB_REPRODUCE_NAME_MAX], int max)
{
    return sb_configs_names("experiments", true, has_thread, names, max);
}

/* The experiments known, read into r the first time. */
static void read_known(struct sb_reproduction *r)
{
    if (!r->known_read)
        r->nknown = sb_reproduce_known(r->known, SB_REPRODUCE_MAX_EXPERIMENTS);
    r->known_read = true;
}

int sb_reproduce_name(struct sb_reproduction *r, const char *name, struct sb_error *err)
{
    char list[1024] = "";
    size_t used = 0;
    int k;

    read_known(r);
    for (k = 0; k < r->nknown && strcmp(r->known[k], name) != 0; k++)
        ;
    if (k < r->nknown) {
        for (int j = 0; j < r->n; j++)
            if (strcmp(r->names[j], name) == 0)
                return sb_fail(err, SB_ERR_INPUT, "%s: experiment named twice", name);
        snprintf(r->names[r->n++], sizeof r->names[0], "%s", name);
        return SB_OK;
    }
    for (k = 0; k < r->nknown; k++)
        used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0,
                                 "%s%s", k ? ", " : "", r->known[k]);
    return sb_fail(err, SB_ERR_INPUT, "%s: unknown experiment (known: %s)", name,
                   r->nknown ? list : "none found: no configs/experiments directory");
}

int sb_reproduce_name_all(struct sb_reproduction *r, struct sb_error *err)
{
    read_known(r);
    if (r->nknown == 0)
        return sb_fail(err, SB_ERR_INPUT, "no experiments found (configs/experiments/NAME.ini "
                       "with a [thread] section)");
    memcpy(r->names, r->known, sizeof r->known[0] * (size_t)r->nknown);
    r->n = r->nknown;
    return SB_OK;
}

void sb_reproduce_free(struct sb_reproduction *r)
{
    for (int v = 0; v < r->nsessions; v++)
        sb_pg_session_close(r->sessions[v]);
    r->nsessions = 0;
    for (int i = 0; i < SB_REPRODUCE_MAX_EXPERIMENTS; i++) {
        sb_setup_free(&r->setups[i]);
        sb_pg_jobs_free(&r->pg_jobs[i]);
        sb_pg_jobs_free(&r->pg_defaults[i]);
        json_decref(r->emulations[i]);
        r->emulations[i] = NULL;
    }
    sb_pg_jobs_free(&r->pg_all);
}
