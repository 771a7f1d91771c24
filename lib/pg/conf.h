/* SPDX-License-Identifier: BSD-3-Clause */
/* conf.h: the postgresql.conf settings of scanbench's throwaway cluster, each with why it is
 * set: only a Unix socket in the cluster's own directory, shared_buffers from the experiment's
 * pool, one backend per scan (no parallel workers), no autovacuum, no synchronized scans, no
 * JIT, and no durability work (wal_level minimal, fsync and full_page_writes off: the cluster
 * is removed afterwards and the scans only read). Written as text into the cluster and as JSON
 * into the report. Pure. */
#ifndef SB_PG_CONF_H
#define SB_PG_CONF_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"

#define SB_PG_CONF_MAX 24

struct sb_pg_setting {
    char name[48];
    char value[320];
    const char *why;
};

struct sb_pg_conf {
    int n;
    struct sb_pg_setting settings[SB_PG_CONF_MAX];
};

/* The settings for a server of this version (as server_version_num: 80121, 150020), its
 * socket in socket_dir, with shared_buffers bytes of buffers (a multiple of 8kB before 8.2,
 * whose setting counts buffers; of 1kB after), `workers` parallel workers per gather (0: one
 * backend scans, as in the thread) and the server settings the experiment asks for (knobs;
 * NULL: none; the version is the caller's to have checked, sb_pg_knobs_check). A setting the
 * version does not have is left out. No setting changes a ring: the rings are the server's
 * defaults unless the knobs ask (from 18, max_connections keeps the default MaxBackends that
 * the bulk-read ring depends on). */
void sb_pg_conf_build(struct sb_pg_conf *conf, int version_num, const char *socket_dir,
                      uint64_t shared_buffers, uint32_t workers, const struct sb_pg_knobs *knobs);

/* The value of a setting, or NULL. */
const char *sb_pg_conf_get(const struct sb_pg_conf *conf, const char *name);

/* postgresql.conf lines: `name = 'value'    # why` (quotes doubled inside values). Returns
 * the length written, or -1 if buf is too small. */
int sb_pg_conf_text(const struct sb_pg_conf *conf, char *buf, size_t len);

/* {"name": "value", ...} in order. */
json_t *sb_pg_conf_json(const struct sb_pg_conf *conf);

#endif
