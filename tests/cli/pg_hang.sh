#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# pg_hang.sh: `scanbench pg` against server programs that hang, and the clusters a scanbench
# killed by SIGKILL leaves. Fake programs (written here) stand for the server's: a postgres
# --version that never answers, or that answers and leaves a child holding its stdout; an
# initdb or a pg_ctl start that never ends. Each is stopped at its time limit
# (SCANBENCH_PG_TIMEOUT, 1 s here) with one line naming it and the limit, or at once by a
# SIGTERM or SIGINT (exit 143 or 130, the usual "interrupted" line), and nothing is left: no
# process naming this test's directory, nothing in the private TMPDIR. A scanbench killed by
# SIGKILL during a hanging pg_ctl start: the pg_ctl dies with it (Linux: PR_SET_PDEATHSIG), and
# the cluster's watcher stops the detached fake "postmaster" and removes the cluster. With the
# watcher killed too, the cluster and the "postmaster" stay: `scanbench pg --cleanup` then stops
# that server and removes the directory, and removes one whose owner's pid is now another
# process's, but leaves a live scanbench's alone; the next `scanbench pg` removes a stale one
# too. With a real server installed: a pg_ctl stop that hangs in a run ends at run_timeout.
. "$top_srcdir/tests/lib.sh"
set -m # background jobs keep SIGINT (a script's ignore it, and so does scanbench)
S=$SCANBENCH
SMALL=(--set table_size=4M --set repetitions=2)

expect_status 2 "no server programs" env SCANBENCH_PG_BINDIR=/nonexistent "$S" pg "${SMALL[@]}"
if grep -q "built without libpq" "$SCRATCH/err"; then
    echo "scanbench was built without libpq: nothing to test" >&2; exit 77; fi

# As root the fake initdb and pg_ctl run as the server's user: it must reach them and TMPDIR.
chmod 755 "$SCRATCH"
TMP="$SCRATCH/tmp"
mkdir -m 755 "$TMP"
HANG="$SCRATCH/hang" # sleep, under a name of this test's: every fake's process names $SCRATCH
cp "$(command -v sleep)" "$HANG"
export TMPDIR="$TMP"
# any process left naming this test's directory is ended when the test ends (a failure here)
trap 'for p in $(ps -eo pid=,args= | grep -F "$SCRATCH" | grep -v grep | awk "{print \$1}");
      do kill -KILL "$p" 2>/dev/null; done; rm -rf "$SCRATCH"' EXIT

# fake NAME PROGRAM LINES...: an executable script $SCRATCH/NAME/bin/PROGRAM
fake() {
    local dir="$SCRATCH/$1/bin"
    mkdir -p "$dir" && chmod 755 "$SCRATCH/$1" "$dir"
    printf '%s\n' '#!/bin/sh' "${@:3}" >"$dir/$2"
    chmod 755 "$dir/$2"
}
VERSION='echo "postgres (PostgreSQL) 15.4"'
INITDB_OK='while [ $# -gt 1 ]; do [ "$1" = -D ] && D=$2; shift; done
mkdir -p "$D" && touch "$D/postgresql.conf"'
# a server's three programs: NAME POSTGRES INITDB PG_CTL (each a script's body)
server() { fake "$1" postgres "$2"; fake "$1" initdb "$3"; fake "$1" pg_ctl "$4"; }
server version-hangs "exec $HANG 3600" 'exit 1' 'exit 1'
server version-leaves-child "$VERSION
$HANG 3600 &" 'exit 1' 'exit 1'
server initdb-hangs "$VERSION" "exec $HANG 3600" 'exit 1'
server start-hangs "$VERSION" "$INITDB_OK" "exec $HANG 3600"
# pg_ctl start that starts a "postmaster" (detached, in the data directory, as pg_ctl's is) and
# then hangs
server start-leaves-server "$VERSION" "$INITDB_OK" \
'while [ $# -gt 1 ]; do [ "$1" = -D ] && D=$2; shift; done'"
cd \"\$D\" && setsid -f sh -c 'echo \$\$ >postmaster.pid; pwd >>postmaster.pid; exec $HANG 3601' </dev/null >/dev/null 2>&1
exec $HANG 3600"

# left WHAT: no process names this test's directory (a moment allowed for the kills), and the
# private TMPDIR is empty
left() {
    local i
    for i in $(seq 1 40); do
        ps -eo stat=,args= | awk '$1 !~ /^Z/' | grep -F "$SCRATCH" | grep -qv grep || break
        sleep 0.05
    done
    if ps -eo stat=,args= | awk '$1 !~ /^Z/' | grep -F "$SCRATCH" | grep -qv grep; then
        fail "$1: a process is left: $(ps -eo pid,args | grep -F "$SCRATCH" | grep -v grep)"
    else pass; fi
    [ -z "$(ls -A "$TMP")" ] && pass || fail "$1: left in TMPDIR: $(ls -A "$TMP")"
}

# timed WANT SECONDS WHAT COMMAND...: expect_status within SECONDS (killed past 20 s)
timed() {
    local want=$1 most=$2 what=$3 t0 elapsed
    shift 3
    t0=$(date +%s%N)
    expect_status "$want" "$what" timeout -s KILL 20 "$@"
    elapsed=$((($(date +%s%N) - t0) / 1000000))
    [ "$elapsed" -lt $((most * 1000)) ] && pass || fail "$what: took $elapsed ms"
}

# a time limit that is not a number of seconds: refused
timed 2 10 "SCANBENCH_PG_TIMEOUT=abc" env SCANBENCH_PG_TIMEOUT=abc \
    SCANBENCH_PG_BINDIR="$SCRATCH/version-hangs/bin" "$S" pg "${SMALL[@]}"
err_is_one_line_containing "SCANBENCH_PG_TIMEOUT=abc: not a number of seconds above 0"

# each hang stopped at its limit, one line naming the program and the limit
export SCANBENCH_PG_TIMEOUT=1
timed 1 10 "a --version that hangs" env SCANBENCH_PG_BINDIR="$SCRATCH/version-hangs/bin" \
    "$S" pg "${SMALL[@]}"
err_is_one_line_containing \
    "$SCRATCH/version-hangs/bin/postgres --version: still running after 1 s, its time limit (SCANBENCH_PG_TIMEOUT): stopped"
left "a --version that hangs"
# the version read, the child holding stdout ended; then the fake initdb fails
timed 1 10 "a --version that leaves a child" "$S" pg "${SMALL[@]}" \
    --server "$SCRATCH/version-leaves-child/bin"
err_is_one_line_containing "initdb failed"
left "a --version that leaves a child"
timed 1 10 "an initdb that hangs" "$S" pg "${SMALL[@]}" --set run_timeout=5 \
    --server "$SCRATCH/initdb-hangs/bin"
err_is_one_line_containing \
    "$SCRATCH/initdb-hangs/bin/initdb: still running after 1 s, its time limit"
left "an initdb that hangs"
timed 1 10 "a pg_ctl start that hangs" "$S" pg "${SMALL[@]}" --set run_timeout=5 -q \
    --server "$SCRATCH/start-hangs/bin"
err_is_one_line_containing \
    "$SCRATCH/start-hangs/bin/pg_ctl start: still running after 1 s, its time limit"
left "a pg_ctl start that hangs"
unset SCANBENCH_PG_TIMEOUT

# signal SIG STATUS LINE WHAT ARGS...: scanbench pg ARGS in the background, SIG once a hanging
# fake runs: exit STATUS within 5 s, stderr's last line holds LINE, nothing left
signal() {
    local sig=$1 want=$2 line=$3 what=$4 pid got i t0
    shift 4
    "$S" pg "${SMALL[@]}" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    for i in $(seq 1 200); do
        ps -eo args= | grep "^$HANG" | grep -qv grep && break
        sleep 0.05
    done
    t0=$(date +%s%N)
    kill -"$sig" "$pid"
    for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    got=$?
    [ "$got" -eq "$want" ] && pass ||
        fail "$what: exit status $got, want $want: $(cat "$SCRATCH/err")"
    [ $((($(date +%s%N) - t0) / 1000000)) -lt 5000 ] && pass || fail "$what: not at once"
    tail -1 "$SCRATCH/err" | grep -qF -- "$line" && pass ||
        fail "$what: stderr lacks '$line': $(cat "$SCRATCH/err")"
    left "$what"
}
if ! ignored_at_entry TERM; then
    signal TERM 143 \
        "interrupted (SIGTERM) while $SCRATCH/version-hangs/bin/postgres --version ran" \
        "SIGTERM during a --version that hangs" --server "$SCRATCH/version-hangs/bin"
    # no experiment file: the default question, two pools of each op on a 15 (4 runs)
    signal TERM 143 "interrupted (SIGTERM) during pg run 1/4" \
        "SIGTERM during a pg_ctl start that hangs" --server "$SCRATCH/start-hangs/bin" \
        --set schedule=blocked
fi
if ! ignored_at_entry INT; then
    signal INT 130 "interrupted (SIGINT) during pg round 1" "SIGINT during an initdb that hangs" \
        --server "$SCRATCH/initdb-hangs/bin" -o "$SCRATCH/r.json"
    command -v jq >/dev/null && jq -e '.incomplete and .interrupted.by == "SIGINT" and
        (.runs | length == 0)' "$SCRATCH/r.json" >/dev/null 2>&1 && pass || fail "SIGINT during initdb: no report"
fi

# start_killed: scanbench pg in the background with the pg_ctl start that starts a "postmaster"
# and hangs, until that pg_ctl runs; sets pid, and watcher (its cluster's watcher process)
start_killed() {
    local i
    "$S" pg "${SMALL[@]}" --server "$SCRATCH/start-leaves-server/bin" >/dev/null 2>"$SCRATCH/err" &
    pid=$!
    watcher=""
    for i in $(seq 1 200); do
        watcher=$(ps -eo pid=,comm=,args= | awk -v s="$SCRATCH/start-leaves-server" \
            '$2 == "scanbench-watch" && index($0, s) { print $1 }')
        ps -eo args= | grep -q "^$HANG 3600" && [ -n "$watcher" ] && break
        sleep 0.05
    done
    [ -n "$watcher" ] && pass ||
        fail "no watcher for the cluster: $(ps -eo pid,comm,args | grep -F "$SCRATCH")"
}
# gone WHAT: the pg_ctl that hung is gone (it died with scanbench)
pg_ctl_gone() {
    local i
    for i in $(seq 1 40); do ps -eo args= | grep -q "^$HANG 3600" || break; sleep 0.05; done
    ps -eo args= | grep -q "^$HANG 3600" && fail "$1: the pg_ctl outlived scanbench" || pass
}

# SIGKILL during a pg_ctl start that hangs: pg_ctl dies with scanbench, and the cluster's
# watcher stops the "postmaster" and removes the cluster
start_killed
kill -KILL $pid
wait $pid
pg_ctl_gone "SIGKILL"
left "SIGKILL (the watcher's cleanup)"

# the same with the watcher killed first (SIGKILL to both): the cluster and its "postmaster"
# stay, for the sweep
start_killed
kill -KILL $watcher
kill -KILL $pid
wait $pid
pg_ctl_gone "SIGKILL to scanbench and its watcher"
killed=$(ls -d "$TMP"/scanbench-pg.* 2>/dev/null)
[ -n "$killed" ] && [ -s "$killed/data/postmaster.pid" ] && pass ||
    fail "SIGKILL: no cluster left to clean up: $(ls -A "$TMP")"
postmaster=$(head -1 "$killed/data/postmaster.pid" 2>/dev/null)
# a cluster whose owner pid is now another process's (this shell, started at another time), and
# one of a live owner (this shell)
mkdir -m 700 "$TMP/scanbench-pg.reused" "$TMP/scanbench-pg.alive"
start=$(awk '{ print $22 }' /proc/$$/stat)
boot=$(cat /proc/sys/kernel/random/boot_id)
owner() { printf 'pid %s\nstart %s\nboot %s\n' $$ "$2" "$boot" >"$TMP/$1/scanbench.owner"; }
owner scanbench-pg.reused $((start + 1))
owner scanbench-pg.alive "$start"
expect_status 0 "--cleanup" "$S" pg --cleanup
out_contains "2 stale clusters removed under $TMP; 1 of a scanbench still running left alone"
[ "$(wc -l <"$SCRATCH/err")" -eq 2 ] && pass || fail "--cleanup: stderr: $(cat "$SCRATCH/err")"
grep -qF "removed $killed, a cluster of scanbench pid $pid, which is gone (its server, pid \
$postmaster, stopped)" "$SCRATCH/err" && pass || fail "--cleanup: the killed one: $(cat "$SCRATCH/err")"
grep -qF "removed $TMP/scanbench-pg.reused, a cluster of scanbench pid $$, which is gone (no \
server running)" "$SCRATCH/err" && pass || fail "--cleanup: the reused pid: $(cat "$SCRATCH/err")"
[ "$(ls -A "$TMP")" = scanbench-pg.alive ] && pass || fail "--cleanup: left $(ls -A "$TMP")"
st=$(ps -o stat= -p "$postmaster" 2>/dev/null) # gone, or a zombie its new parent reaps later
[ -z "$st" ] || [ "${st#Z}" != "$st" ] && pass || fail "--cleanup: the server is still running"
expect_status 2 "--cleanup with --set" "$S" pg --cleanup --set table_size=4M
err_is_one_line_containing "--cleanup: runs nothing, so takes no --set"

# the next run removes a stale cluster too (before it makes its own)
rm -rf "$TMP/scanbench-pg.alive"
mkdir -m 700 "$TMP/scanbench-pg.stale"
owner scanbench-pg.stale $((start + 1))
timed 1 10 "the next run" env SCANBENCH_PG_TIMEOUT=1 "$S" pg "${SMALL[@]}" -q \
    --server "$SCRATCH/initdb-hangs/bin"
grep -qF "removed $TMP/scanbench-pg.stale, a cluster of scanbench pid $$, which is gone" \
    "$SCRATCH/err" && pass || fail "the next run: $(cat "$SCRATCH/err")"
left "the next run"

# With a server installed: its programs, but a pg_ctl whose fast stop (the restart after the
# table's load into a 16MB pool, inside run 1) hangs; run_timeout ends it, the watchdog's grace
# (30 s) not waited for, and the server and its cluster go
bindir=$(pg_config --bindir 2>/dev/null)
[ -x "$bindir/initdb" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ] ||
   { [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; }; then
    echo "no PostgreSQL server to run (Debian: postgresql): its case is skipped" >&2
    finish
    exit
fi
fake real pg_ctl "case \" \$* \" in *' -m fast '*) exec $HANG 3600 ;; esac" "exec $bindir/pg_ctl \"\$@\""
ln -s "$bindir/postgres" "$bindir/initdb" "$SCRATCH/real/bin/"
timed 1 25 "a pg_ctl stop that hangs in a run" "$S" pg "${SMALL[@]}" --set pool_size=1M \
    --set op=count --set schedule=blocked --set run_timeout=2 -q --server "$SCRATCH/real/bin"
err_is_one_line_containing "pg run 1/1 default ran longer than its run_timeout of 2 s: stopped"
left "a pg_ctl stop that hangs in a run"
finish
