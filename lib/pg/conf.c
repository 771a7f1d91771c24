/* SPDX-License-Identifier: BSD-3-Clause */
/* conf.c: the throwaway cluster's postgresql.conf settings (see conf.h). */
#include "config.h"
#include "pg/conf.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void add(struct sb_pg_conf *conf, const char *name, const char *value, const char *why)
{
    struct sb_pg_setting *s;

    if (conf->n == SB_PG_CONF_MAX)
        return;
    s = &conf->settings[conf->n++];
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->value, sizeof s->value, "%s", value);
    s->why = why;
}

/* The version boundaries, from src/backend/utils/misc/postgresql.conf.sample of each stable
 * branch in adunstan/pg-cvs-mirror: 8.1 counts shared_buffers in 8KB buffers ("min 16 or
 * max_connections*2, 8KB each", REL8_1_STABLE 1314e285), 8.2 takes units ("min 128kB",
 * REL8_2_STABLE 6ea98f5c); synchronize_seqscans first in 8.3 (REL8_3_STABLE 51b0bd50); 8.1 to
 * 9.0 have unix_socket_directory, 9.0 brings wal_level and max_wal_senders (REL9_0_STABLE
 * 649b8dcb). Later ones from PostgreSQL's release notes: unix_socket_directories 9.3,
 * max_parallel_workers_per_gather 9.6, jit 11, wal_skip_threshold 13,
 * huge_pages 9.4, io_combine_limit 17, io_method and io_workers 18, io_min_workers and
 * io_max_workers (for io_workers) 19. */
/* The server settings the experiment asks for (keys io_method ... huge_pages; VACUUM's
 * BUFFER_USAGE_LIMIT is the statement's): each as PostgreSQL names it, the version's names
 * (19 replaced io_workers with io_min_workers and io_max_workers: both get the number). */
static void add_knobs(struct sb_pg_conf *conf, int version_num, const struct sb_pg_knobs *k)
{
    char value[64];

    if (k->io_method > 0)
        add(conf, "io_method", sb_io_method_names[k->io_method], "the experiment's io_method");
    if (k->io_workers >= 0) {
        snprintf(value, sizeof value, "%" PRId64, k->io_workers);
        if (version_num >= 190000) {
            add(conf, "io_min_workers", value, "the experiment's io_workers");
            add(conf, "io_max_workers", value, "the experiment's io_workers");
        } else
            add(conf, "io_workers", value, "the experiment's io_workers");
    }
    if (k->io_combine_limit >= 0) {
        snprintf(value, sizeof value, "%" PRId64 "kB", k->io_combine_limit / 1024);
        add(conf, "io_combine_limit", value, "the experiment's io_combine_limit");
        if (version_num >= 180000) /* io_combine_limit is at most io_max_combine_limit */
            add(conf, "io_max_combine_limit", value, "at least the experiment's "
                "io_combine_limit, which it caps");
    }
    if (k->effective_io_concurrency >= 0) {
        snprintf(value, sizeof value, "%" PRId64, k->effective_io_concurrency);
        add(conf, "effective_io_concurrency", value, "the experiment's "
            "effective_io_concurrency");
    }
    if (k->huge_pages > 0)
        add(conf, "huge_pages", sb_huge_pages_names[k->huge_pages], "the experiment's huge_pages");
}

void sb_pg_conf_build(struct sb_pg_conf *conf, int version_num, const char *socket_dir,
                      uint64_t shared_buffers, uint32_t workers, const struct sb_pg_knobs *knobs)
{
    char value[64];

    memset(conf, 0, sizeof *conf);
    add(conf, "listen_addresses", "", "no TCP: only the Unix socket below");
    add(conf, version_num >= 90300 ? "unix_socket_directories" : "unix_socket_directory",
        socket_dir, "the cluster's own private directory");
    if (version_num >= 80200)
        snprintf(value, sizeof value, "%" PRIu64 "kB", shared_buffers / 1024);
    else
        snprintf(value, sizeof value, "%" PRIu64, shared_buffers / 8192);
    add(conf, "shared_buffers", value, version_num >= 80200 ? "the experiment's pool_size"
        : "the experiment's pool_size, in 8kB buffers (no units before 8.2)");
    if (version_num >= 90600) {
        snprintf(value, sizeof value, "%u", workers);
        add(conf, "max_parallel_workers_per_gather", value,
            "one backend scans the table, as in the thread");
    }
    add(conf, "autovacuum", "off", "nothing runs beside the measured statements");
    if (version_num >= 80300)
        add(conf, "synchronize_seqscans", "off", "every scan starts at block 0");
    if (version_num >= 110000)
        add(conf, "jit", "off", "no compilation time inside a timed statement");
    if (version_num >= 90000) {
        add(conf, "wal_level", "minimal", "the load, in the transaction that creates the "
                                          "table, writes no WAL");
        add(conf, "max_wal_senders", "0", "required by wal_level = minimal");
    }
    if (version_num >= 130000)
        add(conf, "wal_skip_threshold", "0", "a file created in the transaction is synced, "
            "never WAL-logged through shared_buffers (which would put its pages there)");
    add(conf, "fsync", "off", "a throwaway cluster: no waiting for the disk");
    add(conf, "full_page_writes", "off", "a throwaway cluster: less WAL");
    if (version_num < 80400) {
        /* postmaster.c of 8.1 to 8.3 refuses NBuffers < 2 * MaxBackends (REL8_1_STABLE
         * 1314e285 line 612, REL8_3_STABLE 51b0bd50 line 693), and from 8.3 MaxBackends is
         * max_connections + autovacuum_max_workers (3 by default; guc.c line 7267): the
         * smallest pools (128kB: 16 buffers) get fewer connections, above the 3 reserved */
        uint64_t most = shared_buffers / 8192 / 2 - (version_num >= 80300 ? 3 : 0);
        snprintf(value, sizeof value, "%" PRIu64, most < 10 ? (most < 4 ? 4 : most) : 10);
        add(conf, "max_connections", value, most < 10 ? "one client; at most half of "
            "shared_buffers' buffers (with 8.3's autovacuum workers) before 8.4" : "one client");
    } else if (version_num >= 180000)
        /* postinit.c InitializeMaxBackends: MaxBackends sums max_connections (100 by
         * default) and max_wal_senders (10, here 0): 110 keeps the default's MaxBackends, so
         * the pin limit, NBuffers / (MaxBackends + NUM_AUXILIARY_PROCS), and with it 18's
         * bulk-read ring and its read streams' look-ahead, are the defaults' */
        add(conf, "max_connections", "110", "one client; with max_wal_senders = 0, the default "
            "MaxBackends, so the pin limit that bounds 18's bulk-read ring is the default's");
    else
        add(conf, "max_connections", "10", "one client");
    add(conf, "lc_messages", "C", "VACUUM VERBOSE is parsed in English");
    if (knobs)
        add_knobs(conf, version_num, knobs);
}

const char *sb_pg_conf_get(const struct sb_pg_conf *conf, const char *name)
{
    for (int i = 0; i < conf->n; i++)
        if (strcmp(conf->settings[i].name, name) == 0)
            return conf->settings[i].value;
    return NULL;
}

int sb_pg_conf_text(const struct sb_pg_conf *conf, char *buf, size_t len)
{
    size_t used = 0;

    for (int i = 0; i < conf->n; i++) {
        const struct sb_pg_setting *s = &conf->settings[i];
        int n = snprintf(buf + used, len - used, "%s = '", s->name);
        if (n < 0 || (size_t)n >= len - used)
            return -1;
        used += (size_t)n;
        for (const char *c = s->value; *c; c++) {
            if (used + 2 >= len)
                return -1;
            if (*c == '\'')
                buf[used++] = '\'';
            buf[used++] = *c;
        }
        n = snprintf(buf + used, len - used, "'\t# %s\n", s->why);
        if (n < 0 || (size_t)n >= len - used)
            return -1;
        used += (size_t)n;
    }
    if (used >= len)
        return -1;
    buf[used] = '\0';
    return (int)used;
}

json_t *sb_pg_conf_json(const struct sb_pg_conf *conf)
{
    json_t *o = json_object();

    for (int i = 0; i < conf->n; i++)
        json_object_set_new(o, conf->settings[i].name, json_string(conf->settings[i].value));
    return o;
}
