#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# pg.sh: `scanbench pg` against a live PostgreSQL server. Always: bad input (no server programs,
# a pool below 128kB, a table too large for the free disk, keys the server runs cannot honour:
# bigtable, threads...) is refused with exit 2 in one line.
# When the server's programs are installed (pg_config --bindir, or /usr/lib/postgresql/*/bin;
# as root also the `postgres` user), a small end-to-end run: the server starts, both sides of
# PostgreSQL's ring rule show in the placements and in pg_buffercache's figures, every count(*)
# equals the live rows loaded, the report carries source postgresql and the server's version
# and `compare` reads it; the buffers written per scan beside scanbench's model in kind (the
# first COUNT or VACUUM after the load writes, later ones write nothing, and the model agrees); `reproduce --pg` adds the server's column; the cluster directory is gone afterwards and no server process of
# ours is left. A SIGTERM mid-run leaves no cluster and no server, nor does a run stopped by
# its run_timeout (exit 1, the run named); a server that cannot start
# (a socket path too long) is reported with its log's last lines. Otherwise exit 77 (skip).
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
SMALL="--set table_size=4M --set repetitions=2"
SCANS_STARTED='shared_buffers 16MB: ' # the progress line before a run's scans (stderr)

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

# Without libpq: one line naming the package, exit 2, and nothing else to test.
expect_status 2 "no server programs" env SCANBENCH_PG_BINDIR=/nonexistent $S pg $SMALL
if grep -q "built without libpq" "$SCRATCH/err"; then
    err_is_one_line_containing "libpq-dev"
    echo "scanbench was built without libpq: only its refusal tested" >&2
    finish || exit 1
    exit 77
fi
err_is_one_line_containing "install the server: Debian package postgresql"

expect_status 2 "pool below 128kB" $S pg $SMALL --set pool_size=64K
err_is_one_line_containing "--set pool_size=64K: pool_size: 64KB is below PostgreSQL's minimum shared_buffers (128kB)"
expect_status 2 "op none only" $S pg $SMALL --set op=none
err_is_one_line_containing "op: nothing a server can run"
expect_status 2 "row width the table cannot have" $S pg $SMALL --set row_width=20
err_is_one_line_containing "row_width: 20 bytes"

# a server whose SQL scanbench pg does not speak (8.4 to 9.5): refused, naming it and its version
mkdir -p "$SCRATCH/pg81/bin"
printf '%s\n' '#!/bin/sh' 'echo "postgres (PostgreSQL) 8.4.22"' >"$SCRATCH/pg81/bin/postgres"
printf '%s\n' '#!/bin/sh' 'exit 1' >"$SCRATCH/pg81/bin/initdb"
cp "$SCRATCH/pg81/bin/initdb" "$SCRATCH/pg81/bin/pg_ctl"
chmod +x "$SCRATCH/pg81/bin/postgres" "$SCRATCH/pg81/bin/initdb" "$SCRATCH/pg81/bin/pg_ctl"
expect_status 2 "an 8.4 server" env SCANBENCH_PG_BINDIR="$SCRATCH/pg81/bin" $S pg $SMALL
err_is_one_line_containing "$SCRATCH/pg81/bin/postgres: PostgreSQL 8.4.22: scanbench pg measures 8.1 to 8.3 and 9.6 on"

# a server key the server is too old for: refused before any cluster, naming key, server and
# the version that brought it; `run` has no server for any of them
mkdir -p "$SCRATCH/pg15/bin"
printf '%s\n' '#!/bin/sh' 'echo "postgres (PostgreSQL) 15.20"' >"$SCRATCH/pg15/bin/postgres"
cp "$SCRATCH/pg81/bin/initdb" "$SCRATCH/pg15/bin/initdb"
cp "$SCRATCH/pg81/bin/initdb" "$SCRATCH/pg15/bin/pg_ctl"
chmod +x "$SCRATCH/pg15/bin/postgres"
expect_status 2 "io_method on 15" $S pg $SMALL --server "$SCRATCH/pg15/bin" --set io_method=sync,worker
err_is_one_line_containing "--set io_method=sync,worker: io_method: PostgreSQL 15.20 ($SCRATCH/pg15/bin) has no such setting (it came with 18)"
expect_status 2 "buffer_usage_limit on 15" $S pg $SMALL --server "$SCRATCH/pg15/bin" --set buffer_usage_limit=2M
err_is_one_line_containing "buffer_usage_limit: PostgreSQL 15.20"
expect_status 2 "buffer_usage_limit out of range" $S pg $SMALL --set buffer_usage_limit=64K
err_is_one_line_containing "buffer_usage_limit: \"64K\" is out of range (128K to 16G, or 0 for no ring)"
expect_status 2 "a server key given to run" $S run $SMALL --set effective_io_concurrency=0
err_is_one_line_containing "effective_io_concurrency: a PostgreSQL server's setting, for scanbench pg; scanbench run has no server"

# keys the server runs cannot honour, set to anything but their default: refused before the
# server's programs are looked for (here there are none), naming the key, its origin and value
NOPG="env SCANBENCH_PG_BINDIR=/nonexistent"
f="$SCRATCH/bigtable.ini"
printf '%s\n' "[experiment]" "table_size = 4M" "bigtable = yes" >"$f"
expect_status 2 "bigtable" $NOPG $S pg "$f"
err_is_one_line_containing "$f:3: bigtable: scanbench pg scans a table the OS cache holds; bigtable = yes is not supported"
# threads: backends at once, each on a cluster of its own, on the interleaved schedule only, and
# no more than the CPUs this process may use
expect_status 2 "threads, blocked" $NOPG $S pg $SMALL --set threads=2 --set schedule=blocked
err_is_one_line_containing "--set threads=2: threads: reproduce --pg and schedule = blocked run one backend; threads = 2 is not supported"
expect_status 2 "threads above the CPUs" $NOPG $S pg $SMALL --set threads=1,256
err_is_one_line_containing "--set threads=1,256: threads: 256 backends at once, but this process may use"
# the CPUs this process may use (taskset), not the host's: the server's backends inherit them
if command -v taskset >/dev/null 2>&1; then
    cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[^0-9].*//')
    expect_status 2 "threads above the CPUs taskset gives" taskset -c "$cpu" $NOPG $S pg $SMALL \
        --set threads=2
    err_is_one_line_containing "--set threads=2: threads: 2 backends at once, but this process may use only CPU $cpu (sched_getaffinity"
fi
# several servers: side by side on the interleaved schedule only
expect_status 2 "two servers, blocked" $NOPG $S pg $SMALL --server /a/bin --server /b/bin \
    --set schedule=blocked
err_is_one_line_containing "--server /b/bin: 2 servers, but --set schedule=blocked: schedule = blocked runs one server"
expect_status 2 "a --server with no server" $S pg $SMALL --server "$SCRATCH/none"
err_is_one_line_containing "--server $SCRATCH/none: no PostgreSQL server programs there"
for kv in data_dir=/tmp iocache_node=remote pool_node=interleave shared_table=yes shared_pool=yes \
          oversubscribe=yes require_counters=yes; do
    expect_status 2 "$kv" $NOPG $S pg $SMALL --set "$kv"
    err_is_one_line_containing "--set $kv: ${kv%%=*}: scanbench pg "
    err_is_one_line_containing "; ${kv%%=*} = ${kv#*=} is not supported"
done
# their defaults, however spelled, are accepted: the refusal is then the missing server's
expect_status 2 "defaults of those keys" $NOPG $S pg $SMALL --set threads=1 --set bigtable=off \
    --set shared_pool=no --set iocache_node=local
err_is_one_line_containing "install the server: Debian package postgresql"

# a table too large for the free disk: on a small file system (tmpfs), when the table still
# fits in memory (the plan checks memory before the disk is looked at)
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    free_mb=$(df -Pm /dev/shm | awk 'NR == 2 { print $4 }')
    avail_mb=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
    table_mb=$((free_mb / 2 + 1))
    if [ "$table_mb" -lt $((avail_mb / 2)) ]; then
        expect_status 2 "table larger than the free disk" env TMPDIR=/dev/shm $S pg \
            --set table_size=${table_mb}M --set pool_size=1M
        err_is_one_line_containing "of disk for its cluster, and /dev/shm has"
    fi
fi

# Is there a server to run?
bindir=$(pg_config --bindir 2>/dev/null)
[ -x "$bindir/initdb" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/pg_ctl" ]; then
    echo "no PostgreSQL server programs (Debian: postgresql): the live runs are skipped" >&2
    finish || exit 1
    exit 77
fi
if [ "$(id -u)" -eq 0 ] && ! id postgres >/dev/null 2>&1; then
    echo "running as root and no postgres user: the live runs are skipped" >&2
    finish || exit 1
    exit 77
fi
version=$("$bindir/postgres" --version | sed 's/^postgres (PostgreSQL) //')
if [ "$(id -u)" -eq 0 ]; then
    expect_status 2 "root with no user to run the server as" env SCANBENCH_PG_USER=nosuchuser \
        $S pg $SMALL
    err_is_one_line_containing "running as root: PostgreSQL will not run as root, and there is no user \`nosuchuser\`"
    # a TMPDIR the server's user cannot enter: refused naming it (initdb failed with exit 126
    # and no log, saying nothing of why)
    mkdir -m 700 "$SCRATCH/private"
    expect_status 2 "a TMPDIR the server's user cannot enter" env TMPDIR="$SCRATCH/private" \
        $S pg $SMALL
    err_is_one_line_containing "the server's user postgres cannot enter it (mode 0700"
fi

# The clusters go into a directory of our own, which the server's user can enter.
PGTMP=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-pgtest.XXXXXX") || exit 99
chmod 755 "$PGTMP"
trap 'rm -rf "$SCRATCH" "$PGTMP"' EXIT

# no_cluster_left WHAT: the cluster directory is gone and no process of ours names it
no_cluster_left() {
    if [ -z "$(ls -A "$PGTMP")" ]; then pass; else fail "$1: left in $PGTMP: $(ls -A "$PGTMP")"; fi
    if ps -eo stat=,args= | awk '$1 !~ /^Z/' | grep -F "$PGTMP" | grep -v grep >/dev/null; then
        fail "$1: a process still names $PGTMP: $(ps -eo pid,args | grep -F "$PGTMP" | grep -v grep)"
    else pass; fi
}

R="$SCRATCH/pg.json"
expect_status 0 "live run" env TMPDIR="$PGTMP" $S pg $SMALL --set pool_size=1M,64M \
    --set op=count,vacuum -o "$R"
no_cluster_left "after a run"
out_contains "SELECT COUNT(*)"
out_contains "VACUUM"
out_contains "ring 128KB"
out_contains "clock (scattered)"
out_contains "ring/scattered, SELECT COUNT(*), 4MB table:"
out_contains "no setting turns a seqscan's ring off"
if grep -qF "cluster in $PGTMP/scanbench-pg." "$SCRATCH/err"; then pass; else
    fail "progress does not name the cluster: $(cat "$SCRATCH/err")"; fi

check "report is scanbench JSON v4" jq -e '.schema == "scanbench-report" and .schema_version == 4' "$R"
check "four runs, source and kernel postgresql" jq -e '[.runs[] | .source, .kernel] |
    length == 8 and all(. == "postgresql")' "$R"
check "the server's version in the report" jq -e --arg v "$version" '.postgresql.server_version == $v
    and (.runs | all(.postgresql.server_version == $v))' "$R"
check "PostgreSQL's rule: ring above NBuffers/4, clock below, VACUUM always ring" jq -e \
    '[.runs[] | .op + " " + (.pool_size | tostring) + " " + .policy] ==
    ["count 1048576 ring", "count 67108864 clock", "vacuum 1048576 ring", "vacuum 67108864 ring"]' "$R"
check "the ring is cut to NBuffers/8 in a 1MB pool" jq -e '.runs[0].ring_size == 131072 and
    .runs[2].ring_size == 131072 and .runs[3].ring_size == 262144 and .runs[1].ring_size == 0' "$R"
check "the table: 512 pages of 61 rows, 10% deleted" jq -e '.runs | all(.pages == 512 and
    .rows_per_page == 61 and .postgresql.rows_loaded == 31232 and .validation.rows_expected == 28103)' "$R"
# each count: the first scan, the warm-up, 2 rounds, the scan whose buffers pg_buffercache
# reads after the rounds (the cluster's other runs scanned since) and the instrumented one; the
# reference (the first run) is timed again each round on its twin clusters, whose counts its
# record checks
check "every count(*) equals the live rows loaded" jq -e '.schedule.reference.run as $ref |
    [.runs[] | select(.op == "count")] | all(.validation.ok and .validation.rows_counted == 28103
    and .validation.scans_row_checked == (if .name == $ref then 8 else 6 end))' "$R"
check "interleaved: a cluster per pool side by side and the reference's twin, 2 rounds, every run in each" jq -e \
    '.schedule.kind == "interleaved" and .schedule.clusters == 3 and .schedule.rounds == 2 and
     (.postgresql.clusters | length == 3) and
     ([.postgresql.clusters[] | select(.reference)] | length == 1) and
     (.postgresql.clusters[0] | del(.reference)) == (.postgresql.clusters[2] | del(.reference)) and
     (.runs | all([.scans[].round] == [0, 1])) and (.schedule.reference.scans | length == 2)' "$R"
# the twin is brought to its original's state: every job of the first run's cluster prepared on
# it (a VACUUM's first scan removes the dead rows a COUNT(*) would otherwise meet)
check "the reference's twin prepared with every job of the first run's cluster" jq -e \
    '.schedule.reference.prepared == ["default op=count pool_size=1M",
                                      "default op=vacuum pool_size=1M"]' "$R"
check "each round a shuffle: five distinct positions (four runs and the reference again)" jq -e \
    '[.runs[].scans[], .schedule.reference.scans[]] | group_by(.round) |
     all(map(.position) | sort == [0, 1, 2, 3, 4])' "$R"
check "paired by round: each pool against its op's first" jq -e '.analysis.available and
    [.analysis.comparisons[] | .a + " / " + .b] ==
    ["default op=count pool_size=64M / default op=count pool_size=1M",
     "default op=vacuum pool_size=64M / default op=vacuum pool_size=1M"] and
    (.analysis.comparisons | all(.rounds == 2 and (.call | type == "string")))' "$R"
out_contains "Paired by round (2 rounds"
check "two timed repetitions, MB/s consistent" jq -e '.runs | all(.repetitions | length == 2 and
    all(. > 0)) and all(.mbps.min <= .mbps.median and .mbps.median <= .mbps.max)' "$R"
check "every scan read every page (EXPLAIN BUFFERS)" jq -e '[.runs[] | select(.op == "count") |
    .postgresql.buffers] | all(.shared_read == 512 and .shared_hit == 0)' "$R"
if jq -e '.postgresql.pg_buffercache == "available"' "$R" >/dev/null; then
    check "occupancy as the rule says: the ring's 16 buffers, the whole table" jq -e \
        '[.runs[] | .buffers_touched] as $b | $b[0] == 16 and $b[1] == 512 and
         (.runs | all(.postgresql.occupancy.consistent))' "$R"
fi
# Buffers written, beside scanbench's model in kind. The first count(*) after the load sets every
# tuple's hint bits: it dirties all 512 pages, and through its 16-buffer ring the backend writes
# back at least the pages it did not prune (a third of them have no dead row: 61 rows inside
# the 90 live ones of each 100 orderkeys), whose LSN needs no WAL flush; later counts dirty and
# write nothing. A later VACUUM finds no dead row and every page all-visible: it dirties none.
check "the first count after the load writes, as scanbench's model expects" jq -e '.runs[0] |
    .postgresql.writes.first_scan_after_load | .first_after_load and .shared_dirtied == 512 and
    .shared_written > 0 and .server == "writes" and .agreement == "agrees"' "$R"
# a cluster per pool: the first count on each is the first scan after its load
check "the first scan after the load is each cluster's first run's" jq -e '(.runs[1] |
    .postgresql.writes.first_scan_after_load.first_after_load) and ([.runs[2:][] |
    .postgresql.writes.first_scan_after_load.unavailable] | all(startswith("not in this run")))' "$R"
check "a later count writes nothing, as scanbench's model expects" jq -e '[.runs[] |
    select(.op == "count") | .postgresql.writes.later_scan] | all(.shared_dirtied == 0 and
    .shared_written == 0 and .server == "writes nothing" and .agreement == "agrees")' "$R"
check "a later VACUUM dirties nothing, as scanbench's model expects" jq -e '[.runs[] |
    select(.op == "vacuum") | .postgresql.writes.later_scan] | all(.shared_dirtied == 0 and
    .server == "writes nothing" and .scanbench_expects == "writes nothing" and
    .agreement == "agrees")' "$R"
out_contains "first scan after load: dirtied 512, written "
check "settings recorded" jq -e '.postgresql.settings | .listen_addresses == "" and
    .max_parallel_workers_per_gather == "0" and .autovacuum == "off"' "$R"
expect_status 0 "compare reads the report" $S compare "$R" "$R"
out_contains "ring"

# the same server twice: refused, naming both
expect_status 2 "the same server twice" $S pg $SMALL --server "$bindir" --server "$bindir/"
err_is_one_line_containing "--server $bindir/: PostgreSQL $version is given twice (also --server $bindir)"

# threads = 2: the statement sent at once to two clusters of the server and pool, each with its
# own copy of the table; a scan's bytes both tables', each backend's seconds recorded
if [ "$(nproc)" -ge 2 ]; then # the CPUs this test may use (taskset, a cpuset)
    expect_status 0 "two backends" env TMPDIR="$PGTMP" $S pg $SMALL --server "$bindir" \
        --set threads=1,2 --set op=count -q -o "$SCRATCH/backends.json"
    check "two backends: a cluster each, bytes summed, each backend timed" jq -e '
        .schedule.clusters == 3 and
        ([.postgresql.clusters[] | select(.reference | not) | .backend] == [0, 1]) and
        (.runs[1] | .threads == 2 and .postgresql.backends.count == 2 and
         .bytes_per_scan == 2 * .postgresql.relation_pages * 8192 and
         (.scans | all((.backend_seconds | length == 2) and
                       (.backend_seconds | max) <= .seconds))) and
        (.runs[0].scans | all(has("backend_seconds") | not))' "$SCRATCH/backends.json"
    out_contains "backends"
    no_cluster_left "after two backends"
fi

# statements = select, vacuum: the thread's VACUUM right after a SELECT; each count checked
expect_status 0 "VACUUM right after a SELECT" env TMPDIR="$PGTMP" $S pg $SMALL \
    --set "statements=select, vacuum" -q -o "$SCRATCH/statements.json"
check "a count before every timed VACUUM, checked" jq -e '.runs[0] | .op == "vacuum" and
    ([.statements[] | .op + " " + (.measured | tostring)] == ["count false", "vacuum true"]) and
    .validation.ok and .validation.rows_counted == 28103 and .validation.scans_row_checked >= 2' \
    "$SCRATCH/statements.json"
out_contains "shared_buffers): after each eviction SELECT COUNT(*) (untimed), then VACUUM (timed)"
no_cluster_left "after statements"

# PostgreSQL's minimum pool, 128kB (16 buffers), end to end: a 2-buffer ring
expect_status 0 "minimum pool" env TMPDIR="$PGTMP" $S pg --set table_size=1M --set pool_size=128K \
    --set op=count --set repetitions=1 -q -o "$SCRATCH/min.json"
check "minimum pool: ring of 16KB, counts right, evicted by moving" jq -e '.runs[0] |
    .ring_size == 16384 and .validation.ok and .validation.rows_counted == 7020 and
    .postgresql.evictions_by_restart == 0 and .postgresql.buffers.shared_read == 128' "$SCRATCH/min.json"
no_cluster_left "after the minimum pool"

# The first VACUUM after the load removes the dead rows and sets the hint bits and the pages'
# all-visible flags: it dirties every page (VACUUM VERBOSE), as scanbench's model expects
expect_status 0 "first VACUUM after the load" env TMPDIR="$PGTMP" $S pg --set table_size=1M \
    --set pool_size=1M --set op=vacuum --set repetitions=1 -q -o "$SCRATCH/vacuum.json"
check "the first VACUUM writes, a later one does not" jq -e '.runs[0].postgresql.writes |
    (.first_scan_after_load | .shared_dirtied >= 128 and .server == "writes" and
     .agreement == "agrees" and .counters.backend + .counters.checkpointer > 0) and
    (.later_scan | .shared_dirtied == 0 and .agreement == "agrees")' "$SCRATCH/vacuum.json"
no_cluster_left "after the first VACUUM"

# a sweep of a setting on one server: the best here against the first, with its interval
expect_status 0 "a sweep's best" env TMPDIR="$PGTMP" $S pg --set table_size=1M \
    --set pool_size=1M,2M,4M --set op=count --set repetitions=2 -q
if grep -E "^  SELECT COUNT\(\*\), pool 1MB \(ring 128KB\): (best here pool [24]MB \(.*\), [0-9.]+x \[[0-9.]+, [0-9.]+\], (faster|slower|same|inconclusive); the first runs at|no run of the 2 beside it beats it)" \
    "$SCRATCH/out" >/dev/null; then pass; else fail "no best-here line: $(cat "$SCRATCH/out")"; fi
no_cluster_left "after a sweep"

# reproduce --server: a column per server; the same one twice is refused before any run
expect_status 2 "reproduce, the same server twice" env TMPDIR="$PGTMP" $S reproduce \
    x4500-memtable --quick --server "$bindir" --server "$bindir/" --set table_size=4M
err_is_one_line_containing "--server $bindir/: PostgreSQL $version is given twice (also --server $bindir)"
no_cluster_left "after reproduce with the same server twice"

# reproduce --pg: a postgresql column beside this host's figures
expect_status 0 "reproduce --pg" env TMPDIR="$PGTMP" $S reproduce x4500-memtable --quick --pg \
    --set table_size=4M --set repetitions=2 -o "$SCRATCH/repro"
no_cluster_left "after reproduce --pg"
out_contains "postgresql"
out_contains "No setting turns a seqscan's ring off"
# a 4MB table: not larger than a quarter of 16MB (clock), larger than a quarter of 680KB (ring)
if grep -E '^clock 16MB .*\|.* [0-9]+ clock .*\|.* [0-9]+ ring' "$SCRATCH/out" >/dev/null &&
   grep -E '^clock 680KB .*\|.* [0-9]+ ring .*\|.* [0-9]+ ring' "$SCRATCH/out" >/dev/null; then
    pass; else fail "reproduce --pg: the postgresql column: $(cat "$SCRATCH/out")"; fi
# the thread's own pools, 16MB and 680KB (the scaled ones follow this host's L2 and L3)
check "reproduce --pg keeps the server's runs in the report" jq -e --arg v "$version" \
    '.postgresql.server.server_version == $v and
     ([.postgresql.runs[] | select(.pool_size == 16777216 or .pool_size == 696320) |
       .source + " " + .policy]
      == ["postgresql clock", "postgresql ring", "postgresql ring", "postgresql ring"])' \
    "$SCRATCH/repro/x4500-memtable.json"
# the server at its own defaults: a row, and its runs at shared_buffers 128MB (a 4MB table:
# the clock sweep for COUNT(*), VACUUM's own ring)
short=${version%% *}
out_contains "pg $short at its defaults"
check "reproduce --pg: the server at its defaults" jq -e '.postgresql.defaults |
    .server == 0 and .shared_buffers == 134217728 and
    ([.runs[] | .name + " " + .policy + " " + (.pool_size | tostring)]
     == ["defaults op=count clock 134217728", "defaults op=vacuum ring 134217728"])' \
    "$SCRATCH/repro/x4500-memtable.json"

# sigterm_mid_run WHAT STARTED INTERRUPTED ARGS...: scanbench pg with ARGS in the background,
# a SIGTERM once stderr says STARTED: exit 143, stderr says INTERRUPTED (a grep pattern), no
# cluster or server left
sigterm_mid_run() {
    local what=$1 started=$2 interrupted=$3 pid got
    shift 3
    TMPDIR="$PGTMP" $S pg --set table_size=64M --set pool_size=16M --set repetitions=100 "$@" \
        >"$SCRATCH/sig.out" 2>"$SCRATCH/sig.err" &
    pid=$!
    wait_for_stderr "$SCRATCH/sig.err" "$started" "$pid" ||
        fail "$what: the scans never started: $(cat "$SCRATCH/sig.err")"
    sleep 0.5
    kill -TERM "$pid"
    wait "$pid"
    got=$?
    if [ "$got" -eq 143 ]; then pass; else fail "$what: exit status $got, want 143: $(cat "$SCRATCH/sig.err")"; fi
    if grep -q "$interrupted" "$SCRATCH/sig.err"; then pass; else
        fail "$what: no 'interrupted' line: $(cat "$SCRATCH/sig.err")"; fi
    no_cluster_left "after $what"
}

# SIGTERM while the servers work: the clusters and the servers go, the signal ends scanbench;
# on the interleaved schedule the report keeps the whole rounds finished
sigterm_mid_run "SIGTERM" "round 1 done" \
    "interrupted (SIGTERM) during pg round .*: the report keeps the [0-9]* whole rounds of its 2 runs" \
    -o "$SCRATCH/sig.json"
check "SIGTERM: the whole rounds kept, marked incomplete" jq -e '.incomplete and
    .interrupted.by == "SIGTERM" and .interrupted.rounds_done >= 1 and
    (.runs | length == 2 and all(.scans | length == $r)) and .analysis.available' \
    --argjson r "$(jq .interrupted.rounds_done "$SCRATCH/sig.json" 2>/dev/null || echo -1)" \
    "$SCRATCH/sig.json"
# the same on the blocked schedule: the runs finished kept
sigterm_mid_run "SIGTERM, blocked" "$SCANS_STARTED" "interrupted (SIGTERM) during pg run 1/2" \
    --set schedule=blocked

# run_timeout bounds each server run, its table's load included (the watchdog cancels the
# statement in flight): exit 1 naming the run, long before the 1000 scans would end and before
# the watchdog's 30 s grace; the cluster removed
t0=$(date +%s)
expect_status 1 "a run over its run_timeout" env TMPDIR="$PGTMP" $S pg --set table_size=64M \
    --set pool_size=16M --set op=count,vacuum --set repetitions=1000 --set run_timeout=1 -q \
    --set schedule=blocked
elapsed=$(($(date +%s) - t0))
err_is_one_line_containing "pg run 1/2 default op=count ran longer than its run_timeout of 1 s: stopped; 1 more not run"
if [ "$elapsed" -lt 30 ]; then pass; else fail "run_timeout=1: stopped after $elapsed s"; fi
no_cluster_left "after run_timeout"
# interleaved: the table's load is each run's preparing; the load is held for 30 s
# (SCANBENCH_TEST_PAUSE) so that it outlasts run_timeout on any host (a 64MB load took less
# than 1 s on a fast one), the watchdog ending the pause
expect_status 1 "a run over its run_timeout, interleaved" env SCANBENCH_TEST_PAUSE=load:30 \
    TMPDIR="$PGTMP" $S pg --set table_size=4M --set pool_size=16M --set op=count,vacuum \
    --set run_timeout=1 -q
grep -v '^scanbench: test pause: load$' "$SCRATCH/err" >"$SCRATCH/err.rest" &&
    mv "$SCRATCH/err.rest" "$SCRATCH/err"
err_is_one_line_containing "pg run 1/2 default op=count (preparing) ran longer than its run_timeout of 1 s: stopped"
no_cluster_left "after run_timeout, interleaved"

# A server that cannot start: the socket path is too long (over 107 bytes)
LONG="$PGTMP/$(printf '%075d' 0)"
mkdir "$LONG" && chmod 755 "$LONG"
expect_status 1 "server that cannot start" env TMPDIR="$LONG" $S pg $SMALL -q
err_is_one_line_containing "the PostgreSQL server did not start"
err_is_one_line_containing "is too long (maximum 107 bytes)"
if [ -z "$(ls -A "$LONG")" ]; then pass; else fail "failed start: left $(ls -A "$LONG")"; fi
rmdir "$LONG"
no_cluster_left "after a failed start"
finish
