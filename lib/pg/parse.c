/* parse.c: parsing the server's version, EXPLAIN JSON and VACUUM VERBOSE (see parse.h). */
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
    if (sscanf(p, "buffer usage: %lld hits, %lld misses, %lld dirtied", &hit, &miss,
               &dirtied) != 3)
        return false;
    out->hit = hit;
    out->read = miss;
    out->dirtied = dirtied;
    out->have = true;
    return true;
}
