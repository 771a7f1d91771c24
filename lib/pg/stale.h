/* SPDX-License-Identifier: BSD-3-Clause */
/* stale.h: clusters whose scanbench is gone. A SIGKILL cannot be caught, and pg_ctl detaches
 * the postmaster from scanbench (PR_SET_PDEATHSIG cannot reach it), so a scanbench killed that
 * way would leave its cluster directory (scanbench-pg.XXXXXX under $TMPDIR, else /tmp) and its
 * server. Each cluster has a watcher, a process that removes it once scanbench is gone. For a
 * watcher killed too (or a reboot), each cluster directory says whose it is (scanbench.owner:
 * the pid, its start time since boot and the boot's id, so that a pid used again or a reboot
 * is not taken for the owner); the next cluster made, and `scanbench pg --cleanup`, find the
 * directories whose owner is gone, stop their postmaster (SIGQUIT, PostgreSQL's immediate
 * shutdown, then SIGKILL; only a process whose working directory is that cluster's data
 * directory) and remove them, one line each on stderr. Also here: the checked postmaster of a
 * data directory and a directory's removal, for the cluster's own cleanup (server.h). */
#ifndef SB_PG_STALE_H
#define SB_PG_STALE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The watcher of this process's cluster dir: a process (forked, in a process group of its own,
 * holding none of scanbench's descriptors but a pipe's read end) that waits for the pipe's
 * end, which comes when scanbench closes it or dies, SIGKILL included; then, if dir is still
 * there and still this process's (its owner file), it ends the postmaster and removes dir.
 * The server does not outlive scanbench by more than its shutdown. Returns the pipe's write
 * end (close-on-exec) and *watcher; -1 (and 0) when it cannot be started. Fork it while
 * scanbench has one thread. */
int sb_pg_watch_start(const char *dir, pid_t *watcher);

/* The cluster removed by this process: the watcher told (fd closed) and reaped. */
void sb_pg_watch_stop(int fd, pid_t watcher);

/* The owner file, in each cluster directory. */
#define SB_PG_OWNER_FILE "scanbench.owner"

/* Writes dir's owner file: this process. 0, or -1 (errno) when it cannot be written. */
int sb_pg_cluster_mark(const char *dir);

/* The pid in datadir's postmaster.pid when that process runs with datadir as its working
 * directory (a postmaster, or a backend, of that cluster); else 0. */
pid_t sb_pg_postmaster_of(const char *datadir);

/* Sends pid sig and waits up to 5 s for it to go (or to be a zombie): whether it went. */
bool sb_pg_process_end(pid_t pid, int sig);

/* Ends the postmaster pid: SIGQUIT (immediate shutdown: its backends end, its shared memory is
 * freed), then SIGKILL if it is still there after 5 s; waits up to 5 s more for it to go. */
void sb_pg_postmaster_end(pid_t pid);

/* Removes dir and everything in it (symbolic links removed, not followed). */
void sb_pg_dir_remove(const char *dir);

/* The cluster directories under parent whose scanbench is gone: stopped and removed, a line
 * each on stderr. *removed: how many; *alive: how many belong to a scanbench still running
 * (left alone; so are directories with no owner file of this user's). */
void sb_pg_sweep(const char *parent, size_t *removed, size_t *alive);

#endif
