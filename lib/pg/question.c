/* SPDX-License-Identifier: BSD-3-Clause */
/* question.c: scanbench pg's default question, the thread's, per the servers' versions (see
 * question.h). */
#include "config.h"
#include "pg/question.h"

#include <stdio.h>
#include <string.h>

#include "pg/parse.h"
#include "pg/rule.h"

#define PG83 80300
#define PG16 160000
#define PAGE 8192u
#define QUESTION_ORIGIN "the default question (scanbench pg with no experiment file)"

/* The servers' versions by kind: before 8.3 (no rings), 8.3 on, 16 on (VACUUM without a ring). */
struct versions_seen {
    size_t before_rings, rings, vacuum_limit, n;
};

static bool from_set(const struct sb_setting *s)
{
    return s->origin && strncmp(s->origin, "--set ", 6) == 0;
}

bool sb_pg_question_user_decides(const struct sb_experiment *exp)
{
    return from_set(&exp->settings[SB_K_POOL_SIZE]) || from_set(&exp->settings[SB_K_OP]) ||
           from_set(&exp->settings[SB_K_BUFFER_USAGE_LIMIT]);
}

static struct versions_seen versions_seen(const char *const *versions, size_t n)
{
    struct versions_seen seen = {0, 0, 0, n};

    for (size_t v = 0; v < n; v++) {
        int num = sb_pg_version_num(versions[v]);
        seen.before_rings += num < PG83;
        seen.rings += num >= PG83;
        seen.vacuum_limit += num >= PG16;
    }
    return seen;
}

/* "8.2.23 and 15.20": each version's first word (the packager's words left out). */
static void versions_text(const char *const *versions, size_t n, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t v = 0; v < n && used < len; v++) {
        int k = snprintf(buf + used, len - used, "%s%.*s",
                         v == 0 ? "" : v + 1 == n ? " and " : ", ",
                         (int)strcspn(versions[v], " "), versions[v]);
        used += k > 0 ? (size_t)k : 0;
    }
}

/* The ring op's scan reads through in the thread's 16MB pool, on each server from 8.3: "256KB"
 * where they agree, else "256KB on 15.20, 2MB on 17.6". */
static void ring_text(const char *op, const char *const *versions, size_t n, uint64_t table,
                      char *buf, size_t len)
{
    char first[32] = "", size[32];
    size_t used = 0;
    bool differ = false;

    for (size_t pass = 0; pass < 2; pass++)
        for (size_t v = 0; v < n; v++) {
            int num = sb_pg_version_num(versions[v]);
            struct sb_pg_placement p;
            if (num < PG83)
                continue;
            sb_pg_placement_decide(op, table / PAGE, SB_PG_THREAD_POOL / PAGE, PAGE, num, &p);
            sb_format_size(p.ring_size, size, sizeof size);
            if (pass == 0 && !first[0])
                snprintf(first, sizeof first, "%s", size);
            else if (pass == 0)
                differ |= strcmp(first, size) != 0;
            else if (differ && used < len) {
                int k = snprintf(buf + used, len - used, "%s%s on %.*s", used ? ", " : "", size,
                                 (int)strcspn(versions[v], " "), versions[v]);
                used += k > 0 ? (size_t)k : 0;
            }
        }
    if (!differ)
        snprintf(buf, len, "%s", first);
}

/* What VACUUM is asked: from 16 on every server, its ring against none; else its ring in both
 * pools, which the note says. */
static void vacuum_part(const struct sb_pg_question *q, const char *const *versions, size_t n,
                        char *buf, size_t len)
{
    char ring[160];

    ring_text("vacuum", versions, n, q->table_size, ring, sizeof ring);
    if (q->vacuum_without_ring)
        snprintf(buf, len, "; VACUUM through its ring (%s in 16MB) against none "
                 "(buffer_usage_limit = 0) in each pool (COUNT(*) ignores buffer_usage_limit: "
                 "its two are an A-A pair)", ring);
    else
        snprintf(buf, len, "; VACUUM through its ring (%s) in both pools, as it reads before 16",
                 ring);
}

static void describe(struct sb_pg_question *q, const struct versions_seen *seen,
                     const char *const *versions, size_t n)
{
    char all[160], table[32], scattered[32], ring[160], vacuum[320];
    size_t len = sizeof q->description;
    char *buf = q->description;

    versions_text(versions, n, all, sizeof all);
    sb_format_size(q->table_size, table, sizeof table);
    sb_format_size(q->pools[0], scattered, sizeof scattered);
    ring_text("count", versions, n, q->table_size, ring, sizeof ring);
    vacuum_part(q, versions, n, vacuum, sizeof vacuum);
    if (seen->rings == 0)
        snprintf(buf, len, "the thread's question on PostgreSQL %s: COUNT(*) and VACUUM of a %s "
                 "table in the OS cache, no ring before 8.3: the clock sweep over 680KB of "
                 "shared_buffers (inside L2) against over 16MB (the pages scattered); pool 680KB "
                 "/ pool 16MB above 1 is the thread's effect", all, table);
    else if (seen->before_rings == 0)
        snprintf(buf, len, "the thread's question on PostgreSQL %s: COUNT(*) of a %s table in the "
                 "OS cache through its %s ring (16MB shared_buffers) against scattered over %s "
                 "(no ring: the table is at most a quarter of it)%s", all, table, ring,
                 scattered, vacuum);
    else
        snprintf(buf, len, "the thread's question on PostgreSQL %s: COUNT(*) and VACUUM of a %s "
                 "table in the OS cache, confined (before 8.3 the clock sweep over 680KB of "
                 "shared_buffers, from 8.3 the ring in 16MB: %s) against scattered over %s (no "
                 "ring on any version); each server's confined pool / pool %s answers it",
                 all, table, ring, scattered, scattered);
    /* initscan's rule, the same from 8.3 on: a ring only for a table above NBuffers / 4 */
    if (seen->rings && q->table_size / PAGE <= SB_PG_THREAD_POOL / PAGE / 4 &&
        strlen(buf) + 1 < len)
        snprintf(buf + strlen(buf), len - strlen(buf), " (but a %s table is not larger than "
                 "a quarter of 16MB: COUNT(*) has no ring there either; the question needs a "
                 "table above 4MB)", table);
}

/* VACUUM before 16 (or a server before 16 beside later ones): it reads through its ring
 * whatever the pool, and no setting turns it off. */
static void vacuum_note(struct sb_pg_question *q, const struct versions_seen *seen)
{
    q->note[0] = '\0';
    if (seen->rings == 0 || q->vacuum_without_ring)
        return;
    snprintf(q->note, sizeof q->note, "the thread's question: VACUUM reads through its ring "
             "whatever the pool on a server from 8.3 before 16 (no setting turns it off), so "
             "its pairs compare that ring in the two pools%s",
             seen->vacuum_limit ? "; buffer_usage_limit = 0 (no ring, 16 on) is not asked: "
                                  "a server given is older than 16" : "");
}

void sb_pg_question_for(const char *const *versions, size_t n, uint64_t table_size,
                        struct sb_pg_question *q)
{
    struct versions_seen seen = versions_seen(versions, n);
    uint64_t scattered = SB_PG_QUESTION_SCATTER * table_size;

    memset(q, 0, sizeof *q);
    q->table_size = table_size;
    if (seen.rings == 0) {
        q->pools[q->npools++] = SB_PG_THREAD_POOL;
        q->pools[q->npools++] = SB_PG_THREAD_SMALL_POOL;
    } else {
        q->pools[q->npools++] = scattered;
        q->pools[q->npools++] = SB_PG_THREAD_POOL;
        if (seen.before_rings)
            q->pools[q->npools++] = SB_PG_THREAD_SMALL_POOL;
    }
    q->vacuum_without_ring = n > 0 && seen.vacuum_limit == n;
    describe(q, &seen, versions, n);
    vacuum_note(q, &seen);
}

int sb_pg_question_apply(const struct sb_pg_question *q, struct sb_experiment *exp,
                         struct sb_error *err)
{
    static const char *const limits[] = {"0", "default"};
    const char *description = q->description;
    int status = sb_experiment_set_sizes(exp, SB_K_POOL_SIZE, q->pools, q->npools,
                                         QUESTION_ORIGIN, err);

    if (status == SB_OK && !from_set(&exp->settings[SB_K_TABLE_SIZE]))
        status = sb_experiment_set_sizes(exp, SB_K_TABLE_SIZE, &q->table_size, 1,
                                         QUESTION_ORIGIN, err);
    if (status == SB_OK && q->vacuum_without_ring)
        status = sb_experiment_set_values(exp, SB_K_BUFFER_USAGE_LIMIT, limits, 2,
                                          QUESTION_ORIGIN, err);
    if (status == SB_OK && !from_set(&exp->settings[SB_K_DESCRIPTION]))
        status = sb_experiment_set_values(exp, SB_K_DESCRIPTION, &description, 1,
                                          QUESTION_ORIGIN, err);
    return status;
}

int sb_pg_question_ask(struct sb_experiment *exp, const char *const *versions, size_t n,
                       struct sb_pg_question *q, bool *asked, struct sb_error *err)
{
    const struct sb_setting *tables = &exp->settings[SB_K_TABLE_SIZE];
    uint64_t table = SB_PG_QUESTION_TABLE;

    *asked = false;
    if (sb_pg_question_user_decides(exp))
        return SB_OK;
    if (from_set(tables)) {
        table = 0;
        for (int v = 0; v < tables->nvalues; v++)
            table = tables->numbers[v] > table ? tables->numbers[v] : table;
    }
    sb_pg_question_for(versions, n, table, q);
    *asked = true;
    return sb_pg_question_apply(q, exp, err);
}
