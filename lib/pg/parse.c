/* SPDX-License-Identifier: BSD-3-Clause */
/* parse.c: parsing the server's version, EXPLAIN JSON, VACUUM VERBOSE and the write counters
 * (see parse.h). */
#include "config.h"
#include "pg/parse.h"

#include <ctype.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sb_pg_parse_version(const char *text, char *version, size_t len, int *major)
{
    static const char prefix[] = "(PostgreSQL) ";
    const char *p = strstr(text, prefix);
    size_t n;

    if (!p)
        return false;
    p += sizeof prefix - 1;
    if (!isdigit((unsigned char)*p))
        return false;
    *major = atoi(p); /* "15.20" -> 15; "9.6.24" -> 9 */
    n = strcspn(p, "\n");
    snprintf(version, len, "%.*s", (int)n, p);
    return true;
}

/* The number at *p and where it ends (-1 when there is none). */
static int number_at(const char **p)
{
    int n = 0;

    if (!isdigit((unsigned char)**p))
        return -1;
    while (isdigit((unsigned char)**p) && n < 100000)
        n = n * 10 + (*(*p)++ - '0');
    return n;
}

int sb_pg_version_num(const char *version)
{
    const char *p = version;
    int major = number_at(&p), minor = 0, patch = 0;

    if (major < 6 || major > 999)
        return 0;
    if (*p == '.' && (p++, (minor = number_at(&p)) < 0))
        return 0;
    if (major < 10) {
        if (*p == '.' && (p++, (patch = number_at(&p)) < 0))
            return 0;
        return major * 10000 + minor * 100 + patch;
    }
    return major * 10000 + minor;
}

static bool block_count(const json_t *node, const char *key, int64_t *out)
{
    const json_t *v = json_object_get(node, key);

    if (!json_is_integer(v))
        return false;
    *out = (int64_t)json_integer_value(v);
    return true;
}

bool sb_pg_parse_explain(const char *json_text, struct sb_pg_buffers *out)
{
    json_t *doc = json_loads(json_text, 0, NULL);
    const json_t *plan = json_object_get(json_array_get(doc, 0), "Plan");
    bool ok;

    memset(out, 0, sizeof *out);
    ok = json_is_object(plan) && block_count(plan, "Shared Hit Blocks", &out->hit) &&
         block_count(plan, "Shared Read Blocks", &out->read) &&
         block_count(plan, "Shared Dirtied Blocks", &out->dirtied);
    out->have = ok;
    /* "Shared Written Blocks": since 9.0, as the others; optional all the same */
    out->have_written = ok && block_count(plan, "Shared Written Blocks", &out->written);
    out->have_rows = ok && block_count(json_array_get(json_object_get(plan, "Plans"), 0),
                                       "Actual Rows", &out->rows);
    json_decref(doc);
    return ok;
}

bool sb_pg_parse_vacuum_verbose(const char *messages, const char *relation,
                                struct sb_pg_buffers *out)
{
    char needle[160];
    const char *p;
    long long hit, miss, dirtied;

    memset(out, 0, sizeof *out);
    /* "vacuuming "postgres.public.lineitem"" (15) or "vacuuming "public.lineitem"" (older) */
    snprintf(needle, sizeof needle, "%s\"", relation);
    for (p = strstr(messages, needle); p; p = strstr(p + 1, needle)) {
        const char *line = p;
        while (line > messages && line[-1] != '\n')
            line--;
        if (strstr(line, "vacuuming ") && strstr(line, "vacuuming ") < p)
            break;
    }
    if (!p || !(p = strstr(p, "buffer usage: ")))
        return false;
    /* "misses" up to 17, "reads" from 18 (vacuumlazy.c, REL_18_STABLE 828d602f) */
    if (sscanf(p, "buffer usage: %lld hits, %lld misses, %lld dirtied", &hit, &miss,
               &dirtied) != 3 &&
        sscanf(p, "buffer usage: %lld hits, %lld reads, %lld dirtied", &hit, &miss,
               &dirtied) != 3)
        return false;
    out->hit = hit;
    out->read = miss;
    out->dirtied = dirtied;
    out->have = true;
    return true;
}

const char *const sb_pg_io_context_names[SB_PG_IO_NCONTEXTS] = {"normal", "bulkread",
                                                                 "bulkwrite", "vacuum"};

/* pg_stat_io's rows of relations' writes, and the requested checkpoints from the view that has
 * them in that version. */
#define IO_ROWS                                                                                \
    "'io', (SELECT coalesce(json_agg(json_build_object('backend_type', backend_type, "         \
    "'context', context, 'writes', writes)), '[]') FROM pg_stat_io WHERE writes IS NOT NULL "  \
    "AND object = 'relation'))"

const char *sb_pg_write_counters_sql(int server_major)
{
    if (server_major >= 17)
        return "SELECT json_build_object('checkpoints_requested', (SELECT num_requested FROM "
               "pg_stat_checkpointer), " IO_ROWS;
    if (server_major == 16)
        return "SELECT json_build_object('checkpoints_requested', (SELECT checkpoints_req FROM "
               "pg_stat_bgwriter), " IO_ROWS;
    /* json_build_object: from 9.4 (9.0 to 9.3 refuse the query: the counters are then
     * unavailable) */
    if (server_major >= 9)
        return "SELECT json_build_object('checkpoints_requested', checkpoints_req, "
               "'buffers_backend', buffers_backend, 'buffers_checkpoint', buffers_checkpoint, "
               "'buffers_clean', buffers_clean) FROM pg_stat_bgwriter";
    return NULL;
}

/* One pg_stat_io row into the counters: client backends' writes by context, the
 * checkpointer's and the background writer's. */
static bool add_io_row(const json_t *row, struct sb_pg_write_counters *out)
{
    const char *type = json_string_value(json_object_get(row, "backend_type"));
    const char *context = json_string_value(json_object_get(row, "context"));
    int64_t writes;

    if (!type || !context || !block_count(row, "writes", &writes))
        return false;
    if (strcmp(type, "client backend") == 0) {
        out->backend += writes;
        for (int c = 0; c < SB_PG_IO_NCONTEXTS; c++)
            if (strcmp(context, sb_pg_io_context_names[c]) == 0)
                out->backend_by_context[c] += writes;
    } else if (strcmp(type, "checkpointer") == 0) {
        out->checkpointer += writes;
    } else if (strcmp(type, "background writer") == 0) {
        out->bgwriter += writes;
    }
    return true;
}

bool sb_pg_parse_write_counters(const char *json_text, struct sb_pg_write_counters *out)
{
    json_t *doc = json_loads(json_text, 0, NULL);
    const json_t *io = json_object_get(doc, "io");
    size_t i;
    json_t *row;
    bool ok;

    memset(out, 0, sizeof *out);
    ok = json_is_object(doc) && block_count(doc, "checkpoints_requested", &out->checkpoints_requested);
    if (ok && json_is_array(io)) {
        out->from_io = true;
        json_array_foreach(io, i, row)
            ok = ok && add_io_row(row, out);
    } else if (ok) {
        ok = block_count(doc, "buffers_backend", &out->backend) &&
             block_count(doc, "buffers_checkpoint", &out->checkpointer) &&
             block_count(doc, "buffers_clean", &out->bgwriter);
    }
    out->have = ok;
    json_decref(doc);
    return ok;
}

void sb_pg_write_counters_delta(const struct sb_pg_write_counters *before,
                                const struct sb_pg_write_counters *after,
                                struct sb_pg_write_counters *out)
{
    memset(out, 0, sizeof *out);
    out->have = before->have && after->have;
    out->from_io = after->from_io;
    out->checkpoints_requested = after->checkpoints_requested - before->checkpoints_requested;
    out->backend = after->backend - before->backend;
    for (int c = 0; c < SB_PG_IO_NCONTEXTS; c++)
        out->backend_by_context[c] = after->backend_by_context[c] - before->backend_by_context[c];
    out->checkpointer = after->checkpointer - before->checkpointer;
    out->bgwriter = after->bgwriter - before->bgwriter;
}
