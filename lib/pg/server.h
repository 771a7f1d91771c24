/* SPDX-License-Identifier: BSD-3-Clause */
/* server.h: a throwaway PostgreSQL cluster's lifecycle, for `scanbench pg`: finding the
 * server's programs (SCANBENCH_PG_BINDIR, else `pg_config --bindir`, else Debian's
 * /usr/lib/postgresql/VERSION/bin, newest first), the user to run them as (PostgreSQL refuses
 * root: as root, the `postgres` system user, or SCANBENCH_PG_USER), the free disk (statvfs),
 * `initdb` into a new mkdtemp directory (under $TMPDIR, else /tmp) that also holds the Unix
 * socket, the log and two tablespaces, starting and stopping the server (`pg_ctl`), and
 * removing everything (`pg_ctl stop -m immediate`, then the directory). The programs run in
 * their own process group, so a terminal's Ctrl-C reaches scanbench alone and scanbench
 * decides how to stop, each with a time limit (SB_PG_LIMIT_*, core/program.h); a stop signal
 * ends the one running, but the cleanup's. Each cluster directory names its scanbench, and
 * making one first removes those whose scanbench is gone; a watcher process removes it if
 * scanbench dies (stale.h). No libpq here. */
#ifndef SB_PG_SERVER_H
#define SB_PG_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/core.h"
#include "pg/conf.h"

/* The limits of the server's programs (seconds, core/program.h) unless SCANBENCH_PG_TIMEOUT
 * sets one for them all: a version query, initdb, pg_ctl (its own wait, -t 60, and half a
 * minute more). */
#define SB_PG_LIMIT_ENV "SCANBENCH_PG_TIMEOUT"
#define SB_PG_LIMIT_VERSION 10.0
#define SB_PG_LIMIT_INITDB 120.0
#define SB_PG_LIMIT_PG_CTL 90.0

struct sb_pg_server {
    char bindir[512];
    char version[128];   /* "15.20 (Debian 15.20-0+deb12u1)" */
    int major;           /* 15 (9.6: 9; 8.1: 8) */
    int num;             /* as server_version_num: 150020, 90624, 80121 */
    double timeout;      /* SCANBENCH_PG_TIMEOUT: each program's limit (0: SB_PG_LIMIT_*) */
    char user[64];       /* who runs the programs ("" = this process's user) */
    bool switch_user;    /* running as root: the programs run as `user` */
    uid_t uid;
    gid_t gid;
    char dir[256];       /* the mkdtemp directory: data/, the socket, logs, tablespaces */
    char datadir[320];
    bool created;        /* dir exists (remove it) */
    pid_t watcher;       /* the process that removes dir if scanbench dies (stale.h), or 0 */
    int watch_fd;        /* its pipe (when watcher) */
    bool started;        /* a start was attempted (stop it) */
    struct sb_pg_conf conf; /* the settings the server runs with */
};

/* The directory clusters go under: $TMPDIR, else /tmp. */
const char *sb_pg_parent_dir(void);

/* Fails (SB_ERR_INPUT) when the file system of parent has less than need bytes free. */
int sb_pg_check_disk(const char *parent, uint64_t need, uint64_t largest_table,
                     struct sb_error *err);

/* Finds the programs and the version: in bindir (`--server`), else by the discovery above;
 * SB_ERR_INPUT naming the package when there are none. */
int sb_pg_server_find(struct sb_pg_server *s, const char *bindir, struct sb_error *err);

/* Decides who runs the programs; SB_ERR_INPUT when running as root with no user to run as. */
int sb_pg_server_choose_user(struct sb_pg_server *s, struct sb_error *err);

/* The clusters under parent whose scanbench is gone removed (stale.h), then mkdtemp under
 * parent, its owner file and its watcher, the tablespace directories, initdb. On failure the
 * directory is removed and the error carries initdb's last lines. */
int sb_pg_cluster_create(struct sb_pg_server *s, const char *parent, struct sb_error *err);

/* Writes the settings (conf) and starts the server, waiting until it accepts connections. On
 * failure the error carries the server log's last lines (joined into one line). */
int sb_pg_server_start(struct sb_pg_server *s, const struct sb_pg_conf *conf,
                       struct sb_error *err);

/* A clean stop (pg_ctl stop -m fast), so that the next start is quick. */
int sb_pg_server_stop(struct sb_pg_server *s, struct sb_error *err);

/* Stops the server if it may run (pg_ctl stop -m immediate; SIGKILL to the postmaster if that
 * fails) and removes the directory. Safe to call at any point, and twice. */
void sb_pg_cluster_remove(struct sb_pg_server *s);

/* A text file, whole, in a malloc'd string; NULL when it cannot be read. */
char *sb_pg_read_text(const char *path);

/* The last lines of a text file, joined by " | " into one line. */
void sb_pg_log_tail(const char *path, int lines, char *buf, size_t len);

#endif
