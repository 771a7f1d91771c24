#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# signals_pg.sh: tests/cli/signals.sh for `scanbench pg`, where the PostgreSQL server is installed
# (else exit 77, a SKIP, saying why). SIGINT, SIGTERM, SIGHUP and SIGQUIT at three moments:
# before the table is loaded (a test pause), during the first run's scans, and during the final
# write (a test pause). Before the last run has finished: exit status 128 + the signal, the
# report (-o) valid JSON marked "incomplete": true with the interrupted block, the runs finished
# kept, the server's block in it. During the final write: exit 0, the report complete. SIGPIPE
# sent is ignored; a reader gone from stdout makes exit 1 with the report complete, from stderr
# exit 0. After each: the cluster directory is gone and no server process of the run is left
# (its children may show as zombies for a moment: waited for up to 5 s).
. "$top_srcdir/tests/lib.sh"
set -m # background jobs keep SIGINT and SIGQUIT (a script's ignore them, and so does scanbench)
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)"; exit 77; }
S=$SCANBENCH

# the progress lines waited for (stderr): one place to change them
LOAD_PAUSED='test pause: load'
WRITE_PAUSED='test pause: write'
SCANNING='round 1 done' # the rounds under way (the interleaved schedule, the default)

LONG=(--set table_size=4M --set pool_size=1M,16M --set repetitions=300)
SHORT=(--set table_size=4M --set pool_size=1M --set op=count --set repetitions=2)
declare -A SIGNAL_STATUS=([INT]=130 [TERM]=143 [HUP]=129 [QUIT]=131)

expect_status 2 "no server programs" env SCANBENCH_PG_BINDIR=/nonexistent "$S" pg "${SHORT[@]}"
if grep -q "built without libpq" "$SCRATCH/err"; then
    echo "scanbench was built without libpq: nothing to test" >&2; exit 77; fi
bindir=$(pg_config --bindir 2>/dev/null)
[ -x "$bindir/initdb" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
    echo "no PostgreSQL server programs (Debian: postgresql): skipped" >&2; exit 77; fi
if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "running as root and no postgres user: skipped" >&2; exit 77; fi

chmod 755 "$SCRATCH" # the clusters go below it: the server's user enters it

# no_server_left WHAT: the clusters' directory is empty, no live process names it
no_server_left() {
    local i
    for i in $(seq 1 100); do
        ps -eo stat=,args= | awk '$1 !~ /^Z/' | grep -F "$CASE/tmp" | grep -qv grep || break
        sleep 0.05
    done
    if ps -eo stat=,args= | awk '$1 !~ /^Z/' | grep -F "$CASE/tmp" | grep -qv grep; then
        fail "$1: a process still names the cluster: $(ps -eo pid,args | grep -F "$CASE/tmp" |
            grep -v grep)"; else pass; fi
    [ -z "$(find "$CASE/tmp" -mindepth 1)" ] && pass ||
        fail "$1: left in TMPDIR: $(find "$CASE/tmp" -mindepth 1 -maxdepth 1)"
    [ -z "$(find "$CASE" -name '*.tmp.*')" ] && pass ||
        fail "$1: temporary files left: $(find "$CASE" -name '*.tmp.*')"
}

# start MOMENT [REDIRECTIONS...]: `scanbench pg` in the background in a fresh case directory,
# its clusters in $CASE/tmp (which the server's user can enter), the report at $CASE/r.json;
# sets pid
start() {
    local moment=$1 pause="" args=("${LONG[@]}")
    case $moment in load) pause=load:60 ;; write) pause=write:60 ;; esac
    [ "$moment" = write ] || [ "$moment" = end ] && args=("${SHORT[@]}")
    mkdir -p "$CASE/tmp"
    chmod 755 "$CASE" "$CASE/tmp"
    env SCANBENCH_TEST_PAUSE="$pause" TMPDIR="$CASE/tmp" "$S" pg "${args[@]}" -o "$CASE/r.json" \
        >"$CASE/out" 2>"$CASE/err" &
    pid=$!
}

report_is() {
    local what=$1 want=$2 sig=${3:-}
    if ! jq -e '.schema == "scanbench-report" and (.postgresql | type) == "object"' \
        "$CASE/r.json" >/dev/null 2>&1; then fail "$what: no valid report"; return; fi
    if [ "$want" = complete ]; then
        jq -e '.incomplete == false and .interrupted == null and (.runs | length) > 0' \
            "$CASE/r.json" >/dev/null && pass || fail "$what: not complete: $(jq -c \
            '{incomplete, interrupted}' "$CASE/r.json")"
    else
        # the interleaved schedule keeps the whole rounds of every run, or (none ended) no run
        jq -e --arg s "SIG$sig" '.incomplete == true and .interrupted.by == $s and
            .interrupted.runs_planned == 4 and .interrupted.runs_done == (.runs | length) and
            .schedule.kind == "interleaved" and (.runs | length == 0 or length == 4) and
            (.runs | all(.scans | length == $ARGS.named.r)) and
            all(.runs[]; .source == "postgresql")' \
            --argjson r "$(jq '.interrupted.rounds_done // -1' "$CASE/r.json")" \
            "$CASE/r.json" >/dev/null && pass ||
            fail "$what: not marked incomplete by SIG$sig: $(jq -c '{incomplete, interrupted}' \
            "$CASE/r.json")"
    fi
}

# check_case SIG MOMENT STATUS: what must follow the signal at that moment
check_case() {
    local sig=$1 moment=$2 status=$3 what="pg SIG$1 at $2" want=${SIGNAL_STATUS[$1]}
    CASE="$SCRATCH/$sig-$moment"
    [ $moment = write ] && want=0
    [ "$status" -eq "$want" ] && pass || fail "$what: exit status $status, want $want: \
$(tail -2 "$CASE/err")"
    if [ $moment = write ]; then
        report_is "$what" complete
        grep -q "SIG$sig came after the last run had finished" "$CASE/err" && pass ||
            fail "$what: stderr: $(tail -2 "$CASE/err")"
    else
        report_is "$what" incomplete $sig
        grep -q "interrupted (SIG$sig) during pg round" "$CASE/err" && pass ||
            fail "$what: stderr: $(tail -2 "$CASE/err")"
    fi
    if [ $moment = load ]; then
        jq -e '(.runs | length) == 0' "$CASE/r.json" >/dev/null && pass ||
            fail "$what: runs kept although none had finished"
    fi
    no_server_left "$what"
}

# the four signals at one moment run side by side (the server's start dominates: mostly waits)
declare -A pids statuses
for moment in load scans write; do
    line=$SCANNING
    case $moment in load) line=$LOAD_PAUSED ;; write) line=$WRITE_PAUSED ;; esac
    for sig in $STOP_SIGNALS; do
        CASE="$SCRATCH/$sig-$moment"
        start $moment
        pids[$sig]=$pid
    done
    for sig in $STOP_SIGNALS; do
        if wait_for_stderr "$SCRATCH/$sig-$moment/err" "$line" ${pids[$sig]}; then
            kill -$sig ${pids[$sig]}
        else
            fail "pg SIG$sig at $moment: never reached: $(tail -3 "$SCRATCH/$sig-$moment/err")"
        fi
    done
    for sig in $STOP_SIGNALS; do
        wait ${pids[$sig]}
        statuses[$sig]=$?
    done
    for sig in $STOP_SIGNALS; do
        check_case $sig $moment ${statuses[$sig]}
    done
done

# SIGPIPE sent (ignored), and a reader gone from stdout (exit 1) or from stderr (exit 0): the
# report complete each time; the three side by side
CASE="$SCRATCH/PIPE-sent"
start end
pids[sent]=$pid
for fd in 1 2; do
    CASE="$SCRATCH/PIPE-$fd"
    mkdir -p "$CASE/tmp"
    chmod 755 "$CASE" "$CASE/tmp"
    mkfifo "$CASE/fifo"
    exec 7<>"$CASE/fifo" # the FIFO's only reader, closed once scanbench holds the other end
    if [ $fd = 1 ]; then
        TMPDIR="$CASE/tmp" "$S" pg "${SHORT[@]}" -o "$CASE/r.json" >"$CASE/fifo" 2>"$CASE/err" 7<&- &
    else
        TMPDIR="$CASE/tmp" "$S" pg "${SHORT[@]}" -o "$CASE/r.json" 2>"$CASE/fifo" >"$CASE/out" 7<&- &
    fi
    pids[$fd]=$!
    for i in $(seq 1 400); do [ "/proc/${pids[$fd]}/fd/$fd" -ef "$CASE/fifo" ] && break; sleep 0.01; done
    exec 7<&-
done
wait_for_stderr "$SCRATCH/PIPE-sent/err" "$SCANNING" ${pids[sent]}
kill -PIPE ${pids[sent]} 2>/dev/null
for which in sent 1 2; do
    wait ${pids[$which]}
    status=$?
    CASE="$SCRATCH/PIPE-$which"
    what="pg SIGPIPE $which"
    want=0
    [ $which = 1 ] && want=1
    [ "$status" -eq $want ] && pass || fail "$what: exit status $status, want $want"
    report_is "$what" complete
    rm -f "$CASE/fifo"
    no_server_left "$what"
done
finish
