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

int sb_reproduce_name(struct sb_reproduction *r, const char *name, struct sb_error *err)
{
    char known[SB_REPRODUCE_MAX_EXPERIMENTS][SB_REPRODUCE_NAME_MAX], list[1024] = "";
    int nknown = sb_reproduce_known(known, SB_REPRODUCE_MAX_EXPERIMENTS), k;
    size_t used = 0;

    for (k = 0; k < nknown && strcmp(known[k], name) != 0; k++)
        ;
    if (k < nknown) {
        for (int j = 0; j < r->n; j++)
            if (strcmp(r->names[j], name) == 0)
                return sb_fail(err, SB_ERR_INPUT, "%s: experiment named twice", name);
        snprintf(r->names[r->n++], sizeof r->names[0], "%s", name);
        return SB_OK;
    }
    for (k = 0; k < nknown; k++)
        used += (size_t)snprintf(list + used, used < sizeof list ? sizeof list - used : 0,
                                 "%s%s", k ? ", " : "", known[k]);
    return sb_fail(err, SB_ERR_INPUT, "%s: unknown experiment (known: %s)", name,
                   nknown ? list : "none found: no configs/experiments directory");
}

int sb_reproduce_name_all(struct sb_reproduction *r, struct sb_error *err)
{
    int n = sb_reproduce_known(r->names, SB_REPRODUCE_MAX_EXPERIMENTS);

    if (n == 0)
        return sb_fail(err, SB_ERR_INPUT, "no experiments found (configs/experiments/NAME.ini "
                       "with a [thread] section)");
    r->n = n;
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
        json_decref(r->emulations[i]);
        r->emulations[i] = NULL;
    }
    sb_pg_jobs_free(&r->pg_all);
}
