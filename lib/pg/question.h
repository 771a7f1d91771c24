/* SPDX-License-Identifier: BSD-3-Clause */
/* question.h: what `scanbench pg` asks with no experiment file: the 2007 thread's question, as
 * the servers' versions allow it (doc/postgresql.md, "The default question"). A table of 64MB
 * in the OS cache (a --set table_size wins), COUNT(*) and VACUUM, its pages confined to a few
 * hundred KB against scattered over a pool, in the pairs of the interleaved rounds:
 *   - 8.1, 8.2 (no rings): shared_buffers 16MB, then 680KB (the thread's memtable table):
 *     the clock sweep over a pool inside L2 against over 16MB;
 *   - 8.3 on: shared_buffers 5x the table (no ring: the table is at most a quarter of it, rule.h),
 *     then 16MB (COUNT(*) through its bulk-read ring); VACUUM has its ring in both before 16 (a
 *     note says so); from 16 (every server given) buffer_usage_limit = 0, default as well: VACUUM
 *     without a ring against with it;
 *   - servers on both sides of 8.3: the three pools, 5x the table first (scattered on every
 *     version), each server's confined side against it (680KB before 8.3, the ring in 16MB on).
 * The user's word wins: a --set of pool_size, op or buffer_usage_limit asks a question of its
 * own, and no question is put. Pure. */
#ifndef SB_PG_QUESTION_H
#define SB_PG_QUESTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "plan/plan.h"

#define SB_PG_QUESTION_TABLE (64ull << 20)     /* the default table: a scan of real time */
#define SB_PG_QUESTION_SCATTER 5               /* the scattered pool: 5x the table */
#define SB_PG_THREAD_POOL (16ull << 20)        /* the thread's shared_buffers */
#define SB_PG_THREAD_SMALL_POOL (680ull << 10) /* its pool inside L2 (8.1, 8.2) */

struct sb_pg_question {
    uint64_t table_size;       /* the largest table of the experiment */
    uint64_t pools[3];         /* pool_size, in order: the scattered side first */
    int npools;
    bool vacuum_without_ring;  /* buffer_usage_limit = 0, default (every server 16 on) */
    char description[SB_DESCRIPTION_MAX]; /* the question, for the header and the report */
    char note[512];            /* what VACUUM cannot be asked there ("" for nothing) */
};

/* Whether the user's --set decides the experiment (pool_size, op or buffer_usage_limit set by
 * --set): then no question is put. */
bool sb_pg_question_user_decides(const struct sb_experiment *exp);

/* The question for the n servers' versions ("8.1.21", "15.20 (Debian ...)"; n >= 1) over a
 * table of table_size bytes. */
void sb_pg_question_for(const char *const *versions, size_t n, uint64_t table_size,
                        struct sb_pg_question *q);

/* exp (the embedded default, --set applied) asks q: its pools, buffer_usage_limit, and the
 * description (the table too where --set did not name it; a --set description stays). */
int sb_pg_question_apply(const struct sb_pg_question *q, struct sb_experiment *exp,
                         struct sb_error *err);

/* The two above: exp's largest table (64MB where --set names none), the question for the
 * versions, applied; *asked false (exp unchanged) where the user decides. */
int sb_pg_question_ask(struct sb_experiment *exp, const char *const *versions, size_t n,
                       struct sb_pg_question *q, bool *asked, struct sb_error *err);

#endif
