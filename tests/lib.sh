# SPDX-License-Identifier: BSD-3-Clause
# tests/lib.sh: shared helpers for the shell tests (sourced): where the program is, a scratch
# directory removed at exit, and assertions that print what failed and exit 1.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
SCANBENCH="$top_builddir/bench/scanbench"
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-test.XXXXXX") || exit 99
trap 'rm -rf "$SCRATCH"' EXIT
FAILURES=0
PASSES=0

# ignored_at_entry SIG (INT, TERM, HUP or QUIT): whether it was ignored as this shell started
# (nohup ignores SIGHUP; a non-interactive shell's background job, SIGINT and SIGQUIT). No
# shell can undo that for its children, and scanbench keeps an ignore it inherits, on purpose
# (lib/core/stop.c), so a test leaves those cases out, saying so.
ignored_at_entry() {
    local n mask
    case $1 in HUP) n=1 ;; INT) n=2 ;; QUIT) n=3 ;; TERM) n=15 ;; *) return 1 ;; esac
    [ -r /proc/self/status ] || return 1
    # awk's own status: what a command the shell starts inherits (bash itself ignores SIGQUIT
    # while it runs, and gives its children the disposition it was started with)
    mask=$(awk '/^SigIgn:/ { print $2 }' /proc/self/status)
    [ $(((0x$mask >> (n - 1)) & 1)) -eq 1 ]
}
# The stop signals a test can send: those not ignored at entry.
STOP_SIGNALS=""
for _sig in INT TERM HUP QUIT; do
    if ignored_at_entry $_sig; then
        echo "note: SIG$_sig was ignored when this test started: its SIG$_sig cases are left out"
    else
        STOP_SIGNALS="$STOP_SIGNALS $_sig"
    fi
done

fail() { echo "FAIL: $*" >&2; FAILURES=$((FAILURES + 1)); }
pass() { PASSES=$((PASSES + 1)); }

# check DESCRIPTION COMMAND...: the command must succeed
check() {
    local what=$1; shift
    if "$@" >/dev/null; then pass; else fail "$what"; fi
}

# expect_status WANT DESCRIPTION COMMAND...: runs COMMAND, stdout to $SCRATCH/out, stderr to
# $SCRATCH/err, and checks its exit status
expect_status() {
    local want=$1 what=$2 got; shift 2
    "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
    got=$?
    if [ "$got" -eq "$want" ]; then pass; else
        fail "$what: exit status $got, want $want; stderr: $(head -c 400 "$SCRATCH/err")"
    fi
}

# err_is_one_line_containing TEXT: stderr of the last expect_status is one line holding TEXT
err_is_one_line_containing() {
    local lines
    lines=$(wc -l <"$SCRATCH/err")
    if [ "$lines" -ne 1 ]; then fail "stderr has $lines lines, want 1: $(cat "$SCRATCH/err")"; return; fi
    if grep -qF -- "$1" "$SCRATCH/err"; then pass; else
        fail "stderr lacks '$1': $(cat "$SCRATCH/err")"; fi
}

out_contains() {
    if grep -qF -- "$1" "$SCRATCH/out"; then pass; else fail "stdout lacks '$1'"; fi
}

# wait_for_stderr FILE PATTERN PID: waits (up to 120 s) until FILE holds a line matching the
# extended regular expression PATTERN (progress on stderr); false if PID ended first. Tests keep
# their patterns in variables at their top, so that a change of the progress lines is one edit.
wait_for_stderr() {
    local i
    for i in $(seq 1 2400); do
        grep -qE -- "$2" "$1" 2>/dev/null && return 0
        kill -0 "$3" 2>/dev/null || { grep -qE -- "$2" "$1" 2>/dev/null; return; }
        sleep 0.05
    done
    return 1
}

# in_parallel COMMAND...: runs a test case (a function that calls pass and fail) in the
# background, at most TEST_JOBS (2) at a time, its tally kept for gather. Cases that run this
# way must be independent: each in a directory of its own, waiting for its own progress lines.
TEST_JOBS=${TEST_JOBS:-2}
CASES_STARTED=0
in_parallel() {
    CASES_STARTED=$((CASES_STARTED + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$TEST_JOBS" ]; do wait -n; done
    # set -m again: a subshell starts without job control, and its background jobs would then
    # begin with SIGINT and SIGQUIT ignored
    (set -m; PASSES=0 FAILURES=0; "$@"; echo "$PASSES $FAILURES" >>"$SCRATCH/tallies") &
}

# gather: waits for the cases in_parallel started and adds their tallies; a case that ended
# before writing its tally is a failure
gather() {
    local passes failures ended=0
    wait
    touch "$SCRATCH/tallies"
    while read -r passes failures; do
        PASSES=$((PASSES + passes)); FAILURES=$((FAILURES + failures)); ended=$((ended + 1))
    done <"$SCRATCH/tallies"
    [ "$ended" -eq "$CASES_STARTED" ] ||
        fail "$((CASES_STARTED - ended)) case(s) ended without a tally"
    rm -f "$SCRATCH/tallies"
    CASES_STARTED=0
}

finish() {
    echo "$PASSES passed, $FAILURES failed"
    [ "$FAILURES" -eq 0 ]
}
