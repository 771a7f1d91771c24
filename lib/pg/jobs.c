/* SPDX-License-Identifier: BSD-3-Clause */
/* jobs.c: the server measurements a plan asks for (see jobs.h). */
#include "config.h"
#include "pg/jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "pg/parse.h"
#include "pg/rule.h"
#include "plan/plan.h"
#include "vocab/vocab.h"

/* Keys the server cannot be told, and what it does instead. */
static const struct {
    enum sb_key_id key;
    const char *instead;
} ignored_keys[] = {
    {SB_K_SOURCE, "the pages come from the server's files in the OS cache"},
    {SB_K_KERNEL, "the server copies with its own code"},
    {SB_K_POLICY, "PostgreSQL's own rule places the pages"},
    {SB_K_RING_SIZE, "the server sizes its rings by its own rule (buffer_usage_limit, "
                     "effective_io_concurrency and io_combine_limit ask it)"},
    {SB_K_SEED, "no random policy"},
    {SB_K_COUNTERS, "the server's scans are not instrumented"},
    {SB_K_EVENTS, "the server's scans are not instrumented"},
    {SB_K_MACHINE, "no cache model"},
    {SB_K_PREFETCH, "no cache model"},
    {SB_K_WRITEBACK, "the server writes its dirty buffers back itself"},
    {SB_K_CHECKPOINT_PAGES, "the server's checkpoints are its own"},
    {SB_K_WRITEBACK_KERNEL, "the server writes back with write()"},
    {SB_K_HINT_BITS, "the server's table is loaded without hint bits; its first scan sets them"},
};

/* Keys that ask for a measurement the server runs do not make: refused by `scanbench pg`,
 * noted by `reproduce --pg`, when set to anything but their default. */
static const struct {
    enum sb_key_id key;
    const char *why;
} unsupported_keys[] = {
    {SB_K_BIGTABLE, "scanbench pg scans a table the OS cache holds"},
    {SB_K_DATA_DIR, "scanbench pg puts its cluster under $TMPDIR (else /tmp)"},
    {SB_K_IOCACHE_NODE, "scanbench pg does not place the server's memory"},
    {SB_K_POOL_NODE, "scanbench pg does not place the server's memory"},
    {SB_K_THREADS, "reproduce --pg and schedule = blocked run one backend"},
    {SB_K_SHARED_TABLE, "scanbench pg runs one client"},
    {SB_K_SHARED_POOL, "scanbench pg runs one client"},
    {SB_K_OVERSUBSCRIBE, "scanbench pg runs one client"},
    {SB_K_CONTENTION, "scanbench pg runs no aggressor beside the server"},
    {SB_K_REQUIRE_COUNTERS, "scanbench pg reads no counters"},
    {SB_K_EXTRA_COPY, "the server's scans copy what they read, nothing more"},
    {SB_K_LAYOUT, "the server allocates its own shared buffers"},
    {SB_K_LAYOUT_ROUNDS, "the server allocates its own shared buffers"},
};

/* Adds a note; one the notes cannot hold whole is cut between two characters (the report
 * holds the notes, and UTF-8 only). */
static void note(struct sb_pg_jobs *jobs, const char *fmt, const char *a, const char *b)
{
    size_t used = strlen(jobs->notes);

    if (used >= sizeof jobs->notes - 1)
        return;
    snprintf(jobs->notes + used, sizeof jobs->notes - used, used ? "; " : "");
    used = strlen(jobs->notes);
    snprintf(jobs->notes + used, sizeof jobs->notes - used, fmt, a, b);
    jobs->notes[sb_utf8_fit(jobs->notes, sizeof jobs->notes - 1)] = '\0';
}

void sb_pg_ignored_keys_note(const struct sb_experiment *exp, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t k = 0; k < sizeof ignored_keys / sizeof ignored_keys[0]; k++) {
        const struct sb_setting *s = &exp->settings[ignored_keys[k].key];
        const char *fallback = sb_keys[ignored_keys[k].key].default_value;
        bool set = s->nvalues > 1;
        for (int v = 0; v < s->nvalues; v++)
            set |= strcmp(s->values[v], fallback) != 0;
        if (set && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s ignored: %s",
                                     used ? "; " : "", sb_keys[ignored_keys[k].key].name,
                                     ignored_keys[k].instead);
    }
}

/* The first value of the key that is not its default (compared as numbers for numbers and
 * yes/no, so `threads = 01` or `bigtable = off` is the default), or NULL. */
static const char *non_default_value(const struct sb_experiment *exp, enum sb_key_id key)
{
    const struct sb_setting *s = &exp->settings[key];
    const struct sb_ini_key *k = &sb_keys[key];

    for (int v = 0; v < s->nvalues; v++) {
        bool is_default;
        if (k->type == SB_INI_YESNO)
            is_default = s->numbers[v] == (strcmp(k->default_value, "yes") == 0);
        else if (k->type == SB_INI_UINT)
            is_default = s->numbers[v] == strtoull(k->default_value, NULL, 10);
        else if (key == SB_K_EXTRA_COPY) /* a fraction, its number in millionths */
            is_default = s->numbers[v] == 0;
        else
            is_default = strcmp(s->values[v], k->default_value) == 0;
        if (!is_default)
            return s->values[v];
    }
    return NULL;
}

int sb_pg_check_keys(const struct sb_experiment *exp, bool backends, struct sb_error *err)
{
    for (size_t k = 0; k < sizeof unsupported_keys / sizeof unsupported_keys[0]; k++) {
        enum sb_key_id key = unsupported_keys[k].key;
        const char *value = non_default_value(exp, key);
        if (value && !(backends && key == SB_K_THREADS))
            return sb_fail(err, SB_ERR_INPUT, "%s: %s: %s; %s = %s is not supported",
                           exp->settings[key].origin, sb_keys[key].name, unsupported_keys[k].why,
                           sb_keys[key].name, value);
    }
    return SB_OK;
}

/* The server keys and the first version that has each (release notes; guc_tables.c of the
 * stable branches: vacuum_buffer_usage_limit 16, io_combine_limit 17, io_method and io_workers
 * 18). */
static const struct {
    enum sb_key_id key;
    int since;
    const char *version;
} server_keys[] = {
    {SB_K_BUFFER_USAGE_LIMIT, 160000, "16"},
    {SB_K_IO_COMBINE_LIMIT, 170000, "17"},
    {SB_K_EFFECTIVE_IO_CONCURRENCY, 80400, "8.4"},
    {SB_K_IO_METHOD, 180000, "18"},
    {SB_K_IO_WORKERS, 180000, "18"},
    {SB_K_IO_WORKER_CPU, 180000, "18"},
    {SB_K_HUGE_PAGES, 90400, "9.4"},
};

/* No server key set: every setting the server's own. */
static const struct sb_pg_knobs no_knobs = {
    .buffer_usage_limit = -1, .io_combine_limit = -1, .effective_io_concurrency = -1,
    .io_method = 0, .io_workers = -1, .io_worker_cpu = 0, .huge_pages = 0};

void sb_pg_knobs_cluster(const struct sb_pg_knobs *knobs, struct sb_pg_knobs *cluster)
{
    if (cluster != knobs)
        *cluster = knobs ? *knobs : no_knobs;
    cluster->buffer_usage_limit = -1;
}

int sb_pg_check_server_keys(const struct sb_experiment *exp, const char *version,
                            const char *bindir, struct sb_error *err)
{
    const struct sb_setting *cpu = &exp->settings[SB_K_IO_WORKER_CPU];
    const struct sb_setting *threads = &exp->settings[SB_K_THREADS];
    int num = sb_pg_version_num(version);

    /* pinned, several backends at once would share the one CPU */
    for (int v = 0; v < cpu->nvalues; v++)
        for (int t = 0; t < threads->nvalues; t++)
            if (strcmp(cpu->values[v], "default") != 0 && threads->numbers[t] > 1)
                return sb_fail(err, SB_ERR_INPUT, "%s: io_worker_cpu = %s pins the backend to "
                               "one CPU, and %s: threads = %s would put its backends there "
                               "together; pin with one backend", cpu->origin, cpu->values[v],
                               threads->origin, threads->values[t]);

    for (size_t k = 0; k < sizeof server_keys / sizeof server_keys[0]; k++) {
        const struct sb_setting *s = &exp->settings[server_keys[k].key];
        for (int v = 0; v < s->nvalues; v++)
            if (strcmp(s->values[v], "default") != 0 && num < server_keys[k].since)
                return sb_fail(err, SB_ERR_INPUT, "%s: %s: PostgreSQL %.*s (%s) has no such "
                               "setting (it came with %s); %s = %s is not supported there",
                               s->origin, sb_keys[server_keys[k].key].name,
                               (int)strcspn(version, " "), version, bindir,
                               server_keys[k].version, sb_keys[server_keys[k].key].name,
                               s->values[v]);
    }
    return SB_OK;
}

/* reproduce --pg: the keys the server runs leave aside, said in the notes. */
static void note_unsupported_keys(const struct sb_experiment *exp, struct sb_pg_jobs *jobs)
{
    for (size_t k = 0; k < sizeof unsupported_keys / sizeof unsupported_keys[0]; k++) {
        enum sb_key_id key = unsupported_keys[k].key;
        const char *value = non_default_value(exp, key);
        char what[SB_DATA_DIR_MAX + 64]; /* data_dir, the longest value */
        if (!value)
            continue;
        snprintf(what, sizeof what, "%s = %s", sb_keys[key].name, value);
        note(jobs, "%s: not on the server (%s)", what, unsupported_keys[k].why);
    }
}

/* Backends a job's statement runs on at once: the run's threads for `scanbench pg` (strict),
 * one for reproduce --pg (which notes threads as left aside). */
static uint32_t backends_of(const struct sb_run_params *run, bool strict)
{
    return strict && run->threads > 1 ? run->threads : 1;
}

/* The ops the run's statements put before its op (the last is the op; none: no statement). */
static uint32_t before_of(const struct sb_run_params *run, const char **names)
{
    uint32_t n = 0;

    for (uint32_t k = 0; k + 1 < run->nstatements; k++)
        if (strcmp(run->statements[k]->name, "none") != 0)
            names[n++] = run->statements[k]->name;
    return n;
}

/* Whether the job runs the run's statements before its op. */
static bool same_before(const struct sb_pg_job *job, const struct sb_run_params *run)
{
    const char *names[SB_MAX_STATEMENTS];
    uint32_t n = before_of(run, names);

    if (job->nbefore != n)
        return false;
    for (uint32_t k = 0; k < n; k++)
        if (strcmp(job->before[k], names[k]) != 0)
            return false;
    return true;
}

static bool same_job(const struct sb_pg_job *job, const struct sb_run_params *run, bool strict)
{
    return strcmp(job->op, run->op->name) == 0 && job->pool_size == run->pool_size &&
           same_before(job, run) &&
           job->threads == backends_of(run, strict) &&
           job->table.table_size == run->table_size && job->table.page_size == run->page_size &&
           job->table.row_width == run->layout.row_width &&
           job->table.dead_pct == run->layout.dead_pct &&
           sb_pg_knobs_same(&job->knobs, &run->server);
}

/* What the notes already say was left out, so that each is said once. */
struct left_out {
    bool op_none, small_pool;
};

/* Makes plan run the next job, unless a job already stands for it or the server cannot run it:
 * an op without a statement, a pool below PostgreSQL's minimum, a row width the table cannot
 * have. strict: the last two are bad input; else the run is left out with a note. */
static int add_job(const struct sb_run_params *run, const struct sb_experiment *exp,
                   bool strict, struct sb_pg_jobs *jobs, struct left_out *left,
                   struct sb_error *err)
{
    struct sb_pg_job *job = &jobs->jobs[jobs->n];
    char why[256], size[32];

    if (sb_pg_jobs_find(jobs, run))
        return SB_OK;
    if (strcmp(run->op->name, "count") != 0 && strcmp(run->op->name, "vacuum") != 0) {
        if (!left->op_none)
            note(jobs, "op %s left out: a server has no statement for it%s", run->op->name, "");
        left->op_none = true;
        return SB_OK;
    }
    if (run->pool_size < SB_PG_MIN_SHARED_BUFFERS) {
        sb_format_size(run->pool_size, size, sizeof size);
        if (strict)
            return sb_fail(err, SB_ERR_INPUT, "%s: pool_size: %s is below PostgreSQL's minimum "
                           "shared_buffers (128kB)", exp->settings[SB_K_POOL_SIZE].origin, size);
        if (!left->small_pool)
            note(jobs, "pools below PostgreSQL's minimum shared_buffers (128kB) left out "
                 "(%s%s)", size, "");
        left->small_pool = true;
        return SB_OK;
    }
    if (!sb_pg_table_shape(run->table_size, run->page_size, run->layout.row_width,
                           run->layout.dead_pct, &job->table, why, sizeof why)) {
        if (strict)
            return sb_fail(err, SB_ERR_INPUT, "%s: row_width: %s",
                           exp->settings[SB_K_ROW_WIDTH].origin, why);
        note(jobs, "a run left out: %s%s", why, "");
        return SB_OK;
    }
    job->run = run;
    job->pool_size = run->pool_size;
    job->op = run->op->name;
    job->repetitions = run->repetitions;
    job->warmup = run->warmup;
    job->threads = backends_of(run, strict);
    job->nbefore = before_of(run, job->before);
    job->knobs = run->server;
    jobs->n++;
    return SB_OK;
}

int sb_pg_jobs_build(const struct sb_plan *plan, const struct sb_experiment *exp, bool strict,
                     struct sb_pg_jobs *jobs, struct sb_error *err)
{
    struct left_out left = {false, false};
    int status = SB_OK;

    memset(jobs, 0, sizeof *jobs);
    jobs->jobs = calloc(plan->nruns ? plan->nruns : 1, sizeof *jobs->jobs);
    if (!jobs->jobs)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    jobs->strict = strict;
    if (strict) /* threads: the caller knows its schedule (cmd_pg.c) */
        status = sb_pg_check_keys(exp, true, err);
    else
        note_unsupported_keys(exp, jobs);
    for (size_t r = 0; r < plan->nruns && status == SB_OK; r++)
        status = add_job(&plan->runs[r], exp, strict, jobs, &left, err);
    if (status != SB_OK)
        sb_pg_jobs_free(jobs);
    return status;
}

void sb_pg_jobs_free(struct sb_pg_jobs *jobs)
{
    free(jobs->jobs);
    jobs->jobs = NULL;
    jobs->n = 0;
}

int sb_pg_jobs_append(struct sb_pg_jobs *dst, const struct sb_pg_jobs *src, struct sb_error *err)
{
    struct sb_pg_job *grown = realloc(dst->jobs, (dst->n + src->n + 1) * sizeof *grown);

    if (!grown)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    memcpy(grown + dst->n, src->jobs, src->n * sizeof *grown);
    dst->jobs = grown;
    dst->n += src->n;
    return SB_OK;
}

int sb_pg_jobs_defaults(const struct sb_pg_jobs *src, struct sb_pg_jobs *out,
                        struct sb_error *err)
{
    memset(out, 0, sizeof *out);
    out->jobs = calloc(2, sizeof *out->jobs);
    if (!out->jobs)
        return sb_fail(err, SB_ERR_RUN, "out of memory");
    for (size_t j = 0; j < src->n; j++) {
        const struct sb_pg_job *job = &src->jobs[j];
        bool count = strcmp(job->op, "count") == 0, seen = false;
        for (size_t k = 0; k < out->n; k++)
            seen |= strcmp(out->jobs[k].op, job->op) == 0;
        if (seen || job->nbefore)
            continue;
        out->jobs[out->n] = *job;
        out->jobs[out->n].pool_size = SB_PG_DEFAULT_SHARED_BUFFERS;
        out->jobs[out->n].knobs = no_knobs;
        out->jobs[out->n].label = count ? "defaults op=count" : "defaults op=vacuum";
        out->n++;
    }
    return SB_OK;
}

const struct sb_pg_job *sb_pg_jobs_find(const struct sb_pg_jobs *jobs,
                                        const struct sb_run_params *run)
{
    for (size_t j = 0; j < jobs->n; j++)
        if (same_job(&jobs->jobs[j], run, jobs->strict))
            return &jobs->jobs[j];
    return NULL;
}

uint64_t sb_pg_jobs_largest_table(const struct sb_pg_jobs *jobs)
{
    uint64_t largest = 0;

    for (size_t j = 0; j < jobs->n; j++)
        if (jobs->jobs[j].table.table_size > largest)
            largest = jobs->jobs[j].table.table_size;
    return largest;
}

uint64_t sb_pg_jobs_disk_need(const struct sb_pg_jobs *jobs)
{
    uint64_t largest = sb_pg_jobs_largest_table(jobs);

    /* the table, its copy while it moves between tablespaces (evicting its buffers), an
     * eighth for its free space map and visibility map, and the cluster with its WAL */
    return 2 * largest + largest / 8 + (256ull << 20);
}
