#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# outputs.sh: every output a command writes is kept whole and never replaces a file.
# - A report whose name appears during the run (a file, a second run's) is kept as r-2.json
#   (r-3.json when that exists too), exit 0, one line saying so; the file that appeared stays.
# - reproduce -o DIR: a report's name appearing in DIR keeps it as NAME-2.json; DIR removed or
#   replaced by a file during the run: the results go into DIR-2, exit 0, one line saying so.
# - plot: the image's name appearing while gnuplot draws keeps it as NAME-2.png; a plot
#   interrupted (SIGINT, gnuplot ended with it) or past `ulimit -f` leaves no temporary file.
# - A report past `ulimit -f`: exit 1, one line, no temporary file (not killed by SIGXFSZ).
# - stdout that cannot be written (/dev/full): exit 1 and one line, the report still written.
# - -o "" and an -o whose directory is missing, not a directory or the name ends in '/': exit 2,
#   one line, before anything runs.
# - A SIGALRM from outside during a run (the watchdog did not send it): nothing happens.
# The moment a name appears is a test pause before the final write (SCANBENCH_TEST_PAUSE=
# write:SECONDS, lib/core/stop.h), ended by a SIGALRM, which changes nothing else.
. "$top_srcdir/tests/lib.sh"
set -m # background jobs keep SIGINT and SIGQUIT (a script's ignore them, and so does scanbench)
command -v jq >/dev/null || { echo "jq is missing (Debian: jq)"; exit 77; }
S=$SCANBENCH

# the progress lines waited for (stderr): one place to change them
WRITE_PAUSED='test pause: write'
RUN_SCANNING='round 1/'
GNUPLOT_STARTED='gnuplot started' # the fake gnuplot's own line

SMALL=(--set table_size=1M --set pool_size=256K --set repetitions=2 --set warmup=0
       --set min_scan_ms=0)
SWEEP=(--set table_size=2M --set pool_size=256K,512K,1M,2M --set policy=clock,ring
       --set ring_size=128K --set repetitions=100 --set warmup=0 --set min_scan_ms=0)

# pauses_seen FILE N PID: waits until FILE shows the N-th write pause
pauses_seen() {
    local i
    for i in $(seq 1 2400); do
        [ "$(grep -c -- "$WRITE_PAUSED" "$1" 2>/dev/null)" -ge "$2" ] && return 0
        kill -0 "$3" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# let_go FILE PID RELEASED: ends every write pause FILE shows after the RELEASED first ones (a
# SIGALRM each) until PID ends
let_go() {
    local released=$3
    while kill -0 "$2" 2>/dev/null; do
        if [ "$(grep -c -- "$WRITE_PAUSED" "$1")" -gt "$released" ]; then
            released=$((released + 1))
            kill -ALRM "$2" 2>/dev/null
        fi
        sleep 0.05
    done
}

# --- a report's name appears during the run ---
# appear NAMES...: `run -o r.json`; at the write pause the NAMES appear; then it goes on
appear() {
    rm -f "$SCRATCH"/r*.json
    : >"$SCRATCH/err" # emptied here: the background job truncates it only once it has started
    SCANBENCH_TEST_PAUSE=write:60 "$S" run "${SMALL[@]}" -o "$SCRATCH/r.json" \
        >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    if pauses_seen "$SCRATCH/err" 1 $pid; then
        for name in "$@"; do echo "appeared" >"$SCRATCH/$name"; done
        kill -ALRM $pid
    else fail "the write pause never came: $(cat "$SCRATCH/err")"; fi
    wait $pid
    status=$?
}
appear r.json
[ "$status" -eq 0 ] && pass || fail "r.json appeared: exit status $status, want 0: $(cat "$SCRATCH/err")"
grep -qx "scanbench: $SCRATCH/r.json appeared during the run; the report is kept as $SCRATCH/r-2.json" \
    "$SCRATCH/err" && pass || fail "r.json appeared: stderr: $(cat "$SCRATCH/err")"
jq -e '.incomplete == false and (.runs | length) > 0' "$SCRATCH/r-2.json" >/dev/null && pass ||
    fail "r.json appeared: r-2.json is not the whole report"
[ "$(cat "$SCRATCH/r.json")" = appeared ] && pass || fail "r.json appeared: the file that appeared changed"
appear r.json r-2.json
[ "$status" -eq 0 ] && pass || fail "r.json and r-2.json appeared: exit status $status"
jq -e '.incomplete == false' "$SCRATCH/r-3.json" >/dev/null && pass ||
    fail "r.json and r-2.json appeared: no r-3.json: $(cat "$SCRATCH/err")"
[ -z "$(find "$SCRATCH" -name '*.tmp.*')" ] && pass || fail "temporary files left: $(find "$SCRATCH" -name '*.tmp.*')"

# --- reproduce's directory ---
# repro_change ACTION: `reproduce x4500-memtable -o D`; at the first write pause (its report)
# ACTION runs; every pause after it is let go
repro_change() {
    local n
    rm -rf "$SCRATCH"/D*
    : >"$SCRATCH/err" # as in appear: no earlier pause line may be read as this one's
    SCANBENCH_TEST_PAUSE=write:60 "$S" reproduce x4500-memtable --quick --set table_size=4M \
        --set min_scan_ms=0 --set counters=none --set repetitions=3 -o "$SCRATCH/D" \
        >"$SCRATCH/out" 2>"$SCRATCH/err" &
    pid=$!
    if pauses_seen "$SCRATCH/err" 1 $pid; then # before the report
        eval "$1"
        kill -ALRM $pid
    else fail "reproduce: the write pause never came: $(cat "$SCRATCH/err")"; fi
    let_go "$SCRATCH/err" $pid 1
    wait $pid
    status=$?
}
repro_change 'echo appeared >"$SCRATCH/D/x4500-memtable.json"'
[ "$status" -eq 0 ] && pass || fail "a report's name appeared in D: exit status $status: $(cat "$SCRATCH/err")"
jq -e '.incomplete == false' "$SCRATCH/D/x4500-memtable-2.json" >/dev/null && pass ||
    fail "a report's name appeared in D: no x4500-memtable-2.json: $(ls "$SCRATCH/D")"
grep -q "D/x4500-memtable.json appeared during the run; the report is kept as $SCRATCH/D/x4500-memtable-2.json" \
    "$SCRATCH/err" && pass || fail "a report's name appeared in D: stderr: $(cat "$SCRATCH/err")"
[ -s "$SCRATCH/D/reproduction.txt" ] && pass || fail "a report's name appeared in D: no reproduction.txt"
for action in 'rm -rf "$SCRATCH/D"' 'rm -rf "$SCRATCH/D"; echo file >"$SCRATCH/D"'; do
    repro_change "$action"
    [ "$status" -eq 0 ] && pass || fail "$action: exit status $status: $(cat "$SCRATCH/err")"
    jq -e '.incomplete == false' "$SCRATCH/D-2/x4500-memtable.json" >/dev/null && pass ||
        fail "$action: the report is not in D-2: $(ls -R "$SCRATCH")"
    [ -s "$SCRATCH/D-2/reproduction.txt" ] && pass || fail "$action: reproduction.txt is not in D-2"
    grep -q "the results from here on are kept in $SCRATCH/D-2" "$SCRATCH/err" && pass ||
        fail "$action: stderr does not say where: $(cat "$SCRATCH/err")"
    grep -q "reports in $SCRATCH/D-2" "$SCRATCH/err" && pass ||
        fail "$action: the last line does not name D-2: $(tail -1 "$SCRATCH/err")"
done
rm -rf "$SCRATCH"/D*

# --- a report past `ulimit -f` (1KB): a write error, not SIGXFSZ ---
(ulimit -f 1; exec "$S" run "${SMALL[@]}" -o "$SCRATCH/big.json" >"$SCRATCH/out" 2>"$SCRATCH/err")
status=$?
[ "$status" -eq 1 ] && pass || fail "report past ulimit -f: exit status $status, want 1"
grep -q "File too large" "$SCRATCH/err" && pass || fail "report past ulimit -f: stderr: $(cat "$SCRATCH/err")"
[ -z "$(find "$SCRATCH" -name '*.tmp.*')" ] && pass || fail "report past ulimit -f: left $(find "$SCRATCH" -name '*.tmp.*')"
[ ! -e "$SCRATCH/big.json" ] && pass || fail "report past ulimit -f: a partial report"

# --- stdout that cannot be written ---
expect_status 1 "list > /dev/full" sh -c "exec \"$S\" list >/dev/full"
err_is_one_line_containing "scanbench: cannot write the output (stdout): No space left on device"
expect_status 1 "topo > /dev/full" sh -c "exec \"$S\" topo >/dev/full"
err_is_one_line_containing "cannot write the output (stdout)"
expect_status 1 "run > /dev/full" sh -c "exec \"$S\" run ${SMALL[*]} -q -o \"$SCRATCH/full.json\" >/dev/full"
err_is_one_line_containing "cannot write the output (stdout)"
jq -e '.incomplete == false' "$SCRATCH/full.json" >/dev/null && pass || fail "run > /dev/full: no report"

# --- -o that cannot be written: refused before anything runs ---
touch "$SCRATCH/plain"
for o in "" "$SCRATCH/missing/r.json" "$SCRATCH/plain/r.json" "$SCRATCH/dir/"; do
    expect_status 2 "run -o '$o'" "$S" run "${SMALL[@]}" -o "$o"
    err_is_one_line_containing "${o:-\"\"}"
done
err_is_one_line_containing "names a directory"
expect_status 2 "run -o ''" "$S" run -o ""
err_is_one_line_containing 'scanbench: -o "": an empty name (the report needs a file name)'
expect_status 2 "pg -o ''" "$S" pg --set table_size=4M -o ""
if grep -q "built without libpq" "$SCRATCH/err"; then
    echo "note: built without libpq: pg refuses to start before it reads -o"
else
    err_is_one_line_containing '-o "": an empty name'
fi
expect_status 2 "reproduce -o ''" "$S" reproduce x4500-memtable --quick -o ""
err_is_one_line_containing '-o "": an empty name'
expect_status 2 "plot -o ''" "$S" plot "$top_srcdir/tests/data/report-a.json" -o ""
err_is_one_line_containing '-o "": an empty name'

# --- text from a file printed as a terminal may show it: an experiment's name and description
# with an escape sequence and a bell come out as \xNN, not as the bytes ---
{ printf '[experiment]\nname = esc\x1b[2Jname\ndescription = a \x1b[31mred\x1b[0m bell \x07 here\n'
  printf '%s\n' 'table_size = 1M' 'pool_size = 256K' 'repetitions = 2' 'warmup = 0' 'min_scan_ms = 0'
} >"$SCRATCH/esc.ini"
expect_status 0 "run: an escape sequence in the description" "$S" run "$SCRATCH/esc.ini" -q \
    -o "$SCRATCH/esc.json"
[ "$(head -1 "$SCRATCH/out")" = 'scanbench esc\x1b[2Jname: a \x1b[31mred\x1b[0m bell \x07 here' ] &&
    pass || fail "run's header: $(head -1 "$SCRATCH/out" | od -c | head -3)"

# --- a SIGALRM the watchdog did not send ---
: >"$SCRATCH/err"
"$S" run "${SWEEP[@]}" -o "$SCRATCH/alrm.json" >"$SCRATCH/out" 2>"$SCRATCH/err" &
pid=$!
wait_for_stderr "$SCRATCH/err" "$RUN_SCANNING" $pid && kill -ALRM $pid
wait $pid
status=$?
[ "$status" -eq 0 ] && pass || fail "SIGALRM from outside: exit status $status, want 0: $(tail -1 "$SCRATCH/err")"
jq -e '.incomplete == false and .interrupted == null' "$SCRATCH/alrm.json" >/dev/null && pass ||
    fail "SIGALRM from outside: $(jq -c '{incomplete, interrupted}' "$SCRATCH/alrm.json")"

# --- plot: a fake gnuplot on PATH draws what the script names (a line, then a PNG's IEND chunk:
# plot checks the image is whole), and can be told to make the output's name appear, to sleep,
# or to fail ---
mkdir "$SCRATCH/bin"
cat >"$SCRATCH/bin/gnuplot" <<'EOF'
#!/bin/sh
out=$(sed -n "s/^set output '\(.*\)'$/\1/p" "$1")
printf 'fake image\n\000\000\000\000IEND\256B`\202' >"$out"
[ -n "${FAKE_APPEAR:-}" ] && echo appeared >"$FAKE_APPEAR"
[ -z "${FAKE_SLEEP:-}" ] && exit 0
echo "gnuplot started $$" >&2
exec sleep "$FAKE_SLEEP"
EOF
chmod +x "$SCRATCH/bin/gnuplot"
A="$top_srcdir/tests/data/report-a.json"
expect_status 0 "plot: the name appears while gnuplot draws" env PATH="$SCRATCH/bin:$PATH" \
    FAKE_APPEAR="$SCRATCH/p.png" "$S" plot "$A" -o "$SCRATCH/p.png"
err_is_one_line_containing "scanbench: $SCRATCH/p.png appeared while it was drawn; the plot is kept as $SCRATCH/p-2.png"
[ "$(head -n 1 "$SCRATCH/p-2.png")" = "fake image" ] && [ "$(cat "$SCRATCH/p.png")" = appeared ] && pass ||
    fail "plot: p.png or p-2.png is not what it should be"

# (SIGINT, or SIGTERM where SIGINT was ignored as the test started)
PSIG=INT PSTATUS=130
ignored_at_entry INT && PSIG=TERM PSTATUS=143
: >"$SCRATCH/err"
PATH="$SCRATCH/bin:$PATH" FAKE_SLEEP=60 "$S" plot "$A" -o "$SCRATCH/q.png" 2>"$SCRATCH/err" &
pid=$!
if wait_for_stderr "$SCRATCH/err" "$GNUPLOT_STARTED" $pid; then
    gnuplot_pid=$(sed -n 's/^gnuplot started //p' "$SCRATCH/err")
    kill -$PSIG $pid
    wait $pid
    status=$?
    [ "$status" -eq $PSTATUS ] && pass || fail "plot interrupted: exit status $status, want $PSTATUS"
    grep -q "interrupted (SIG$PSIG): gnuplot stopped, no plot written" "$SCRATCH/err" && pass ||
        fail "plot interrupted: stderr: $(cat "$SCRATCH/err")"
    kill -0 "$gnuplot_pid" 2>/dev/null && fail "plot interrupted: gnuplot still runs" || pass
else fail "plot: the fake gnuplot never started: $(cat "$SCRATCH/err")"; wait $pid; fi
[ ! -e "$SCRATCH/q.png" ] && pass || fail "plot interrupted: q.png written"

(ulimit -f 1; exec "$S" plot "$top_srcdir/tests/data/report-b.json" -o "$SCRATCH/u.png" \
    >"$SCRATCH/out" 2>"$SCRATCH/err")
status=$?
[ "$status" -eq 1 ] && pass || fail "plot past ulimit -f: exit status $status, want 1: $(cat "$SCRATCH/err")"
grep -q "File too large" "$SCRATCH/err" && pass || fail "plot past ulimit -f: stderr: $(cat "$SCRATCH/err")"
[ -z "$(find "$SCRATCH" -name '*.tmp.*')" ] && pass ||
    fail "plot: temporary files left: $(find "$SCRATCH" -name '*.tmp.*')"
finish
