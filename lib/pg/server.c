/* SPDX-License-Identifier: BSD-3-Clause */
/* server.c: finding, creating, starting, stopping and removing a throwaway PostgreSQL
 * cluster (see server.h). */
#include "config.h"
#include "pg/server.h"
#include "pg/sql.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/core.h"
#include "pg/parse.h"
#include "pg/stale.h"

#define SERVER_PACKAGE "Debian package postgresql (apt-get install postgresql)"

const char *sb_pg_parent_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

int sb_pg_check_disk(const char *parent, uint64_t need, uint64_t largest_table,
                     struct sb_error *err)
{
    struct statvfs fs;
    uint64_t free_bytes;
    char a[32], b[32], c[32];

    if (statvfs(parent, &fs) != 0)
        return sb_fail(err, SB_ERR_INPUT, "%s: cannot put a cluster there: %s (set TMPDIR)",
                       parent, strerror(errno));
    free_bytes = (uint64_t)fs.f_bavail * fs.f_frsize;
    if (free_bytes < need)
        return sb_fail(err, SB_ERR_INPUT, "table_size: a %s table needs about %s of disk for its "
                       "cluster, and %s has %s free (set TMPDIR to a larger file system)",
                       sb_format_size(largest_table, a, sizeof a),
                       sb_format_size(need & ~((1ull << 20) - 1), b, sizeof b), parent,
                       sb_format_size(free_bytes & ~((1ull << 20) - 1), c, sizeof c));
    return SB_OK;
}

static bool has_server_programs(const char *dir)
{
    static const char *const programs[] = {"initdb", "pg_ctl", "postgres"};
    char path[600];

    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, programs[i]);
        if (access(path, X_OK) != 0)
            return false;
    }
    return true;
}

/* A version query's child: stdin and stderr on /dev/null (stdout is the pipe). */
static void quiet_setup(const void *arg)
{
    int devnull = open("/dev/null", O_RDWR);

    (void)arg;
    if (devnull >= 0) {
        dup2(devnull, 0);
        dup2(devnull, 2);
    }
}

/* Runs argv (as this process's user) with the limit of a version query and captures the first
 * len - 1 bytes of its stdout into buf; *exit_status its exit status. */
static int capture(char *const argv[], const char *what, double limit, char *buf, size_t len,
                   int *exit_status, struct sb_error *err)
{
    struct sb_program p = {.argv = argv, .what = what, .limit = limit,
                           .limit_env = SB_PG_LIMIT_ENV, .stoppable = true,
                           .setup = quiet_setup, .out = buf, .out_len = len};

    return sb_program_run(&p, exit_status, err);
}

/* Newest first: "15" before "9.6" (version order, not text order). */
static int newest_first(const void *a, const void *b)
{
    return strverscmp(*(const char *const *)b, *(const char *const *)a);
}

/* pg_config --bindir, when it names a directory with the server's programs: into s->bindir. */
static int ask_pg_config(struct sb_pg_server *s, double limit, struct sb_error *err)
{
    char *argv[] = {"pg_config", "--bindir", NULL}, out[512];
    int rc, status = capture(argv, "pg_config --bindir", limit, out, sizeof out, &rc, err);

    if (status != SB_OK || rc != 0)
        return status;
    out[strcspn(out, "\n")] = '\0';
    if (has_server_programs(out))
        snprintf(s->bindir, sizeof s->bindir, "%s", out);
    return SB_OK;
}

/* postgres --version: s->version, major and num; SB_ERR_INPUT when it is not a server
 * scanbench pg speaks. */
static int ask_version(struct sb_pg_server *s, double limit, struct sb_error *err)
{
    char path[600], what[620], out[512];
    char *argv[] = {path, "--version", NULL};
    int rc, status;

    snprintf(path, sizeof path, "%s/postgres", s->bindir);
    snprintf(what, sizeof what, "%s --version", path);
    status = capture(argv, what, limit, out, sizeof out, &rc, err);
    if (status != SB_OK)
        return status;
    if (rc != 0 || !sb_pg_parse_version(out, s->version, sizeof s->version, &s->major) ||
        !(s->num = sb_pg_version_num(s->version)))
        return sb_fail(err, SB_ERR_INPUT, "%s --version: not a PostgreSQL server (%s)", path,
                       out[0] ? out : "no output");
    if (!sb_pg_sql_spoken(s->num))
        return sb_fail(err, SB_ERR_INPUT, "%s: PostgreSQL %s: scanbench pg measures 8.1 to 8.3 "
                       "and 9.6 on (8.4 to 9.5 may skip pages a VACUUM must read)", path,
                       s->version);
    return SB_OK;
}

int sb_pg_server_find(struct sb_pg_server *s, const char *bindir, struct sb_error *err)
{
    const char *env = bindir ? bindir : getenv("SCANBENCH_PG_BINDIR");
    glob_t g = {0};
    double limit;
    int status = sb_program_limit(SB_PG_LIMIT_ENV, "each server program", 0, &s->timeout, err);

    s->bindir[0] = '\0';
    if (status != SB_OK)
        return status;
    limit = s->timeout ? s->timeout : SB_PG_LIMIT_VERSION;
    if (env && *env) {
        if (!has_server_programs(env))
            return sb_fail(err, SB_ERR_INPUT, "%s%s: no PostgreSQL server programs there "
                           "(initdb, pg_ctl, postgres); install the server: %s",
                           bindir ? "--server " : "SCANBENCH_PG_BINDIR=", env, SERVER_PACKAGE);
        snprintf(s->bindir, sizeof s->bindir, "%s", env);
    }
    if (!s->bindir[0] && (status = ask_pg_config(s, limit, err)) != SB_OK)
        return status;
    if (!s->bindir[0] && glob("/usr/lib/postgresql/*/bin", 0, NULL, &g) == 0) {
        qsort(g.gl_pathv, g.gl_pathc, sizeof g.gl_pathv[0], newest_first);
        for (size_t i = 0; i < g.gl_pathc && !s->bindir[0]; i++)
            if (has_server_programs(g.gl_pathv[i]))
                snprintf(s->bindir, sizeof s->bindir, "%s", g.gl_pathv[i]);
    }
    globfree(&g);
    if (!s->bindir[0])
        return sb_fail(err, SB_ERR_INPUT, "no PostgreSQL server programs found (initdb, pg_ctl "
                       "and postgres: not in `pg_config --bindir` nor in "
                       "/usr/lib/postgresql/*/bin); install the server: %s", SERVER_PACKAGE);
    return ask_version(s, limit, err);
}

int sb_pg_server_choose_user(struct sb_pg_server *s, struct sb_error *err)
{
    const char *name = getenv("SCANBENCH_PG_USER");
    struct passwd *pw;

    if (geteuid() != 0) {
        pw = getpwuid(geteuid());
        snprintf(s->user, sizeof s->user, "%s", pw ? pw->pw_name : "this user");
        s->switch_user = false;
        return SB_OK;
    }
    if (!name || !*name)
        name = "postgres";
    pw = getpwnam(name);
    if (!pw)
        return sb_fail(err, SB_ERR_INPUT, "running as root: PostgreSQL will not run as root, "
                       "and there is no user `%s` to run it as (Debian's postgresql package "
                       "creates `postgres`; or set SCANBENCH_PG_USER to an unprivileged user, "
                       "or run scanbench as one)", name);
    if (pw->pw_uid == 0)
        return sb_fail(err, SB_ERR_INPUT, "SCANBENCH_PG_USER=%s: that is root; PostgreSQL "
                       "needs an unprivileged user", name);
    snprintf(s->user, sizeof s->user, "%s", name);
    s->uid = pw->pw_uid;
    s->gid = pw->pw_gid;
    s->switch_user = true;
    return SB_OK;
}

/* What a program's child needs before exec: the server and the log. */
struct program_setup {
    const struct sb_pg_server *s;
    const char *log;
};

/* In the child: the server's user, the cluster directory, stdout and stderr appended to the
 * log, the environment the programs read. */
static void program_setup(const void *arg)
{
    const struct program_setup *ps = arg;
    const struct sb_pg_server *s = ps->s;
    int fd;

    if (s->switch_user && (setgroups(0, NULL) != 0 || setgid(s->gid) != 0 ||
                           setuid(s->uid) != 0))
        _exit(126);
    if (chdir(s->dir) != 0)
        _exit(126);
    fd = open("/dev/null", O_RDONLY);
    if (fd >= 0)
        dup2(fd, 0);
    fd = open(ps->log, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
    }
    setenv("LC_ALL", "C", 1);
    unsetenv("PGDATA");
    /* pg_ctl -w before 10 checks readiness by connecting as libpq's defaults would
     * (REL8_1_STABLE pg_ctl.c, test_postmaster_connection: PQsetdbLogin(NULL, port, ...,
     * "postgres", NULL, NULL), 1314e285): to the cluster's private socket, as its user */
    setenv("PGHOST", s->dir, 1);
    setenv("PGUSER", "scanbench", 1);
}

/* How a program runs: its limit when SCANBENCH_PG_TIMEOUT sets none, whether a stop ends it
 * (not the cleanup's stop), whether its group is the server once it exits (pg_ctl start). */
struct program_kind {
    double limit;
    bool stoppable;
    bool keeps_group;
};

static const struct program_kind kind_initdb = {SB_PG_LIMIT_INITDB, true, false};
static const struct program_kind kind_start = {SB_PG_LIMIT_PG_CTL, true, true};
static const struct program_kind kind_stop = {SB_PG_LIMIT_PG_CTL, true, false};
static const struct program_kind kind_cleanup = {SB_PG_LIMIT_PG_CTL, false, false};

/* Runs argv as the server's user (program.h: its own process group, a time limit, reaped), from
 * the cluster directory, with stdout and stderr appended to log; *rc its exit status (128 + a
 * signal). SB_ERR_RUN when it could not run, ran past its limit or was stopped; what names
 * it in those lines. */
static int run_program(const struct sb_pg_server *s, char *const argv[], const char *log,
                       const char *what, const struct program_kind *kind, int *rc,
                       struct sb_error *err)
{
    struct program_setup ps = {s, log};
    char name[700];
    struct sb_program p = {.argv = argv, .what = name,
                           .limit = s->timeout ? s->timeout : kind->limit,
                           .limit_env = SB_PG_LIMIT_ENV, .stoppable = kind->stoppable,
                           .keeps_group = kind->keeps_group, .setup = program_setup,
                           .setup_arg = &ps};

    snprintf(name, sizeof name, "%s%s%s", argv[0], what[0] ? " " : "", what);
    return sb_program_run(&p, rc, err);
}

void sb_pg_log_tail(const char *path, int lines, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    char *text = NULL, *line, *starts[64];
    long size;
    int n = 0;
    size_t used = 0;

    buf[0] = '\0';
    if (!f) {
        snprintf(buf, len, "no log (%s: %s)", path, strerror(errno));
        return;
    }
    if (lines > 64)
        lines = 64;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0) {
        long from = size > 65536 ? size - 65536 : 0;
        text = calloc(1, (size_t)(size - from) + 1);
        if (text && fseek(f, from, SEEK_SET) == 0)
            text[fread(text, 1, (size_t)(size - from), f)] = '\0';
    }
    fclose(f);
    if (!text) {
        snprintf(buf, len, "log unreadable");
        return;
    }
    for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        while (*line == ' ' || *line == '\t')
            line++;
        if (!*line)
            continue;
        if (n == lines) {
            memmove(starts, starts + 1, sizeof starts[0] * (size_t)(lines - 1));
            n--;
        }
        starts[n++] = line;
    }
    for (int i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " | " : "", starts[i]);
    if (n == 0)
        snprintf(buf, len, "the log is empty");
    free(text);
}

/* Writes (mode "w") or appends (mode "a") text to path; -1 on any failure, the file closed. */
static int write_text(const char *path, const char *mode, const char *text)
{
    FILE *f = fopen(path, mode);
    int status = 0;

    if (!f)
        return -1;
    if (fputs(text, f) < 0)
        status = -1;
    if (fclose(f) != 0)
        status = -1;
    return status;
}

char *sb_pg_read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = NULL;
    long size;

    if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)size + 1)) && fread(text, 1, (size_t)size, f) == (size_t)size)
        text[size] = '\0';
    else {
        free(text);
        text = NULL;
    }
    if (f)
        fclose(f);
    return text;
}

/* Copies path to path + suffix (initdb's postgresql.conf, kept for the starts of a server
 * before 8.2, which has no include), owned by the server's user. */
static int copy_text(const struct sb_pg_server *s, const char *path, const char *suffix,
                     struct sb_error *err)
{
    char copy[420];
    char *text = sb_pg_read_text(path);
    int status = SB_OK;

    snprintf(copy, sizeof copy, "%s%s", path, suffix);
    if (!text || write_text(copy, "w", text) != 0 ||
        (s->switch_user && chown(copy, s->uid, s->gid) != 0))
        status = sb_fail(err, SB_ERR_RUN, "%s: cannot copy it to %s", path, copy);
    free(text);
    return status;
}

static int make_owned_dir(const struct sb_pg_server *s, const char *path)
{
    if (mkdir(path, 0700) != 0)
        return -1;
    if (s->switch_user && chown(path, s->uid, s->gid) != 0)
        return -1;
    return 0;
}

/* Run as root for another user: whether that user can enter every directory on the way to
 * parent (where the cluster goes); else SB_ERR_INPUT naming the first it cannot. Without it,
 * initdb fails in the child's chdir with nothing to say why (exit 126, no log). */
static int check_enterable(const struct sb_pg_server *s, const char *parent, struct sb_error *err)
{
    char path[400];
    size_t len = strlen(parent);
    struct stat st;

    if (!s->switch_user || parent[0] != '/' || len >= sizeof path)
        return SB_OK;
    for (size_t end = 1; end <= len; end++) {
        if (end < len && parent[end] != '/')
            continue;
        memcpy(path, parent, end);
        path[end] = '\0';
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue; /* mkdtemp says what is wrong with it */
        if ((st.st_mode & S_IXOTH) || (st.st_uid == s->uid && (st.st_mode & S_IXUSR)) ||
            (st.st_gid == s->gid && (st.st_mode & S_IXGRP)))
            continue;
        return sb_fail(err, SB_ERR_INPUT, "%s: the server's user %s cannot enter it (mode %04o, "
                       "owner uid %u): the cluster goes under TMPDIR; set TMPDIR to a directory "
                       "it can reach", path, s->user, (unsigned)(st.st_mode & 07777),
                       (unsigned)st.st_uid);
    }
    return SB_OK;
}

int sb_pg_cluster_create(struct sb_pg_server *s, const char *parent, struct sb_error *err)
{
    char initdb[600], log[400], path[400], tail[600];
    int status = SB_OK, rc;
    size_t removed, alive;

    if ((status = check_enterable(s, parent, err)) != SB_OK) {
        s->dir[0] = '\0';
        goto out;
    }
    sb_pg_sweep(parent, &removed, &alive); /* the clusters of a scanbench killed (SIGKILL) */
    snprintf(s->dir, sizeof s->dir, "%s/scanbench-pg.XXXXXX", parent);
    if (!mkdtemp(s->dir)) {
        status = sb_fail(err, SB_ERR_INPUT, "%s: cannot create a directory there: %s (set "
                         "TMPDIR)", parent, strerror(errno));
        s->dir[0] = '\0';
        goto out;
    }
    s->created = true;
    if (sb_pg_cluster_mark(s->dir) != 0) {
        status = sb_fail(err, SB_ERR_RUN, "%s/%s: cannot write it: %s", s->dir, SB_PG_OWNER_FILE,
                         strerror(errno));
        goto out;
    }
    s->watch_fd = sb_pg_watch_start(s->dir, &s->watcher); /* none: the next run's sweep */
    snprintf(s->datadir, sizeof s->datadir, "%s/data", s->dir);
    if (s->switch_user && chown(s->dir, s->uid, s->gid) != 0) {
        status = sb_fail(err, SB_ERR_RUN, "%s: cannot give it to %s: %s", s->dir, s->user,
                         strerror(errno));
        goto out;
    }
    for (int t = 0; t < 2; t++) {
        snprintf(path, sizeof path, "%s/ts_%c", s->dir, 'a' + t);
        if (make_owned_dir(s, path) != 0) {
            status = sb_fail(err, SB_ERR_RUN, "%s: %s", path, strerror(errno));
            goto out;
        }
    }
    snprintf(initdb, sizeof initdb, "%s/initdb", s->bindir);
    snprintf(log, sizeof log, "%s/initdb.log", s->dir);
    {
        /* -N (no fsync of the new cluster) from 9.3; REL8_1_STABLE's initdb.c takes
         * "dD:E:L:nU:WA:s" and --locale (1314e285) */
        char *argv[] = {initdb, "-D", s->datadir, "-A", "trust", "-U", "scanbench", "-E", "UTF8",
                        "--locale=C", s->num >= 90300 ? "-N" : NULL, NULL};
        status = run_program(s, argv, log, "", &kind_initdb, &rc, err);
    }
    if (status != SB_OK)
        goto out;
    if (rc != 0) {
        sb_pg_log_tail(log, 4, tail, sizeof tail);
        status = sb_fail(err, SB_ERR_RUN, "initdb failed (as user %s, exit %d): %s", s->user, rc,
                         tail);
        goto out;
    }
    snprintf(path, sizeof path, "%s/postgresql.conf", s->datadir);
    if (s->num < 80200) /* no include before 8.2: each start writes the file (settings_path) */
        status = copy_text(s, path, ".initdb", err);
    else if (write_text(path, "a", "\n# scanbench: the settings of this measurement\n"
                                   "include 'scanbench.conf'\n") != 0)
        status = sb_fail(err, SB_ERR_RUN, "%s: cannot append to it", path);
out:
    if (status != SB_OK)
        sb_pg_cluster_remove(s);
    return status;
}

/* A server before 8.2 has no include: its postgresql.conf becomes initdb's (the copy) with
 * the settings after it (the last of a name wins). */
static int before_include(const struct sb_pg_server *s, const char *settings,
                          struct sb_error *err)
{
    char path[400], copy[420];
    char *text;
    int status = SB_OK;

    snprintf(path, sizeof path, "%s/postgresql.conf", s->datadir);
    snprintf(copy, sizeof copy, "%s.initdb", path);
    text = sb_pg_read_text(copy);
    if (!text || write_text(path, "w", text) != 0 || write_text(path, "a", "\n") != 0 ||
        write_text(path, "a", settings) != 0)
        status = sb_fail(err, SB_ERR_RUN, "%s: cannot write it from %s", path, copy);
    free(text);
    return status;
}

int sb_pg_server_start(struct sb_pg_server *s, const struct sb_pg_conf *conf,
                       struct sb_error *err)
{
    char path[400], pg_ctl[600], log[400], tail[700];
    static char text[8192];
    static const char header[] = "# written by scanbench pg for this run\n";
    int rc, status;

    s->conf = *conf;
    snprintf(path, sizeof path, "%s/scanbench.conf", s->datadir);
    memcpy(text, header, sizeof header);
    if (sb_pg_conf_text(conf, text + sizeof header - 1, sizeof text - sizeof header + 1) < 0)
        return sb_fail(err, SB_ERR_RUN, "the settings do not fit in %zu bytes", sizeof text);
    if (write_text(path, "w", text) != 0)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot write it", path);
    if (s->num < 80200 && before_include(s, text, err) != SB_OK)
        return err->status;
    if (s->switch_user && chown(path, s->uid, s->gid) != 0)
        return sb_fail(err, SB_ERR_RUN, "%s: cannot give it to %s", path, s->user);
    snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", s->bindir);
    snprintf(log, sizeof log, "%s/server.log", s->dir);
    s->started = true;
    {
        /* -t from 8.3 (REL8_3_STABLE pg_ctl.c 51b0bd50: "cD:l:m:N:o:p:P:st:U:wW"); before
         * it, pg_ctl -w waits its fixed 60 s */
        char *argv[] = {pg_ctl, "-D", s->datadir, "-l", log, "-w", "-s", "start",
                        s->num >= 80300 ? "-t" : NULL, "60", NULL};
        char ctl_log[400];
        snprintf(ctl_log, sizeof ctl_log, "%s/pg_ctl.log", s->dir);
        status = run_program(s, argv, ctl_log, "start", &kind_start, &rc, err);
    }
    if (status != SB_OK)
        return status;
    if (rc != 0) {
        sb_pg_log_tail(log, 4, tail, sizeof tail);
        return sb_fail(err, SB_ERR_RUN, "the PostgreSQL server did not start (pg_ctl exit %d, "
                       "shared_buffers %s); its log ends: %s", rc,
                       sb_pg_conf_get(conf, "shared_buffers"), tail);
    }
    return SB_OK;
}

int sb_pg_server_stop(struct sb_pg_server *s, struct sb_error *err)
{
    char pg_ctl[600], log[400], tail[600];
    int rc, status;

    snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", s->bindir);
    snprintf(log, sizeof log, "%s/pg_ctl.log", s->dir);
    {
        char *argv[] = {pg_ctl, "-D", s->datadir, "-m", "fast", "-w", "-s", "stop",
                        s->num >= 80300 ? "-t" : NULL, "60", NULL};
        status = run_program(s, argv, log, "stop", &kind_stop, &rc, err);
    }
    if (status != SB_OK)
        return status;
    if (rc != 0) {
        sb_pg_log_tail(log, 3, tail, sizeof tail);
        return sb_fail(err, SB_ERR_RUN, "the PostgreSQL server did not stop (pg_ctl exit %d): "
                       "%s", rc, tail);
    }
    return SB_OK;
}

void sb_pg_cluster_remove(struct sb_pg_server *s)
{
    if (s->started && sb_pg_postmaster_of(s->datadir) > 0) {
        char pg_ctl[600], log[400];
        char *argv[] = {pg_ctl, "-D", s->datadir, "-m", "immediate", "-w", "-t", "30", "-s",
                        "stop", NULL};
        struct sb_error ignored = {0};
        int rc;
        snprintf(pg_ctl, sizeof pg_ctl, "%s/pg_ctl", s->bindir);
        snprintf(log, sizeof log, "%s/pg_ctl.log", s->dir);
        run_program(s, argv, log, "stop", &kind_cleanup, &rc, &ignored);
        sb_pg_process_end(sb_pg_postmaster_of(s->datadir), SIGKILL); /* still there: killed */
    }
    s->started = false;
    if (s->created)
        sb_pg_dir_remove(s->dir);
    s->created = false;
    sb_pg_watch_stop(s->watch_fd, s->watcher);
    s->watcher = 0;
}
