/* SPDX-License-Identifier: BSD-3-Clause */
/* pg.h: `scanbench pg`'s table, from the report alone: per run the operation, table,
 * shared_buffers, the placement PostgreSQL's rule chose, MB/s (median, cv), EXPLAIN's or
 * VACUUM VERBOSE's shared blocks hit/read, the table's buffers after a scan (pg_buffercache)
 * against what the rule predicts; the ring/scattered ratio per op where both sides ran; the
 * rule in words; and, where the server used its ring, that no setting turns it off. */
#ifndef SB_RENDER_PG_H
#define SB_RENDER_PG_H

#include <jansson.h>
#include <stdio.h>

void sb_render_pg(FILE *out, const json_t *report);

#endif
