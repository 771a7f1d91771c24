/* SPDX-License-Identifier: BSD-3-Clause */
/* setup.c: the setup run, pg and reproduce share (see runner_setup.h). */
#include "config.h"
#include "runner/runner_setup.h"

#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "runner/runner.h"

int sb_setup_read(struct sb_setup *s, const char *file, const char *const *sets, int nsets,
                  struct sb_error *err)
{
    int status = sb_experiment_init(&s->exp, err);

    s->exp_ready = true;
    if (status == SB_OK)
        status = sb_experiment_read_file(&s->exp, file, err);
    for (int i = 0; status == SB_OK && i < nsets; i++)
        status = sb_experiment_set(&s->exp, sets[i], err);
    return status;
}

int sb_setup_plan(struct sb_setup *s, const struct sb_mem_limit *limit, struct sb_error *err)
{
    struct sb_mem_limit host;
    int status;

    if (!limit) {
        sb_mem_limit_read(&host, "", "");
        limit = &host;
    }
    status = sb_plan_build(&s->exp, limit, &s->plan, err);
    if (status == SB_OK)
        sb_runner_topology(&s->plan, &s->topo);
    return status;
}

json_t *sb_setup_report(const struct sb_setup *s, const char *command)
{
    return sb_report_new(&s->plan, &s->topo, command);
}

void sb_setup_free(struct sb_setup *s)
{
    sb_plan_free(&s->plan);
    if (s->exp_ready)
        sb_experiment_free(&s->exp);
    s->exp_ready = false;
}

int sb_setup_outputs(const char *path, int nreports, struct sb_outputs *o, struct sb_error *err)
{
    size_t n = path ? strlen(path) : 0;
    int status = SB_OK;
    const char *gz = path && sb_report_gz_named(path) ? ".gz" : ""; /* kept after the name's ".2" */

    memset(o, 0, sizeof *o);
    if (!path)
        return SB_OK;
    n -= strlen(gz);
    snprintf(o->report[0], SB_SETUP_PATH_LEN, "%s", path);
    if (n > 5 && strncmp(path + n - 5, ".json", 5) == 0)
        snprintf(o->report[1], SB_SETUP_PATH_LEN, "%.*s.2.json%s", (int)(n - 5), path, gz);
    else
        snprintf(o->report[1], SB_SETUP_PATH_LEN, "%.*s.2%s", (int)n, path, gz);
    for (int k = 0; k < nreports && status == SB_OK; k++) {
        sb_report_csv_path(o->report[k], o->csv[k], SB_SETUP_PATH_LEN);
        status = sb_report_check_target(o->report[k], err);
        if (status == SB_OK)
            status = sb_report_check_target(o->csv[k], err);
    }
    return status;
}

int sb_setup_save(struct sb_outdir *dir, const char *name, const char *text, const char *what,
                  struct sb_error *err)
{
    char used[SB_OUTFILE_MAX], asked[SB_OUTFILE_MAX + 64];
    int status = sb_outdir_write(dir, name, text, strlen(text), used, err);

    if (dir->note[0])
        fprintf(stderr, "scanbench: %s\n", dir->note);
    dir->note[0] = '\0';
    snprintf(asked, sizeof asked, "%s/%s", dir->path, name);
    if (status == SB_OK && strcmp(asked, used) != 0)
        fprintf(stderr, "scanbench: %s appeared during the run; the %s is kept as %s\n", asked,
                what, used);
    return status;
}

int sb_setup_settle_write(int status, int written, const struct sb_error *write_err,
                          struct sb_error *err)
{
    if (written == SB_OK)
        return status;
    if (status == SB_OK) {
        *err = *write_err;
        return written;
    }
    fprintf(stderr, "scanbench: %s\n", write_err->msg);
    return status;
}
