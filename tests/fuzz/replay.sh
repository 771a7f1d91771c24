#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# replay.sh: every fuzz target's entry point (fuzz/fuzz_*.c, linked with fuzz/replay.c
# instead of libFuzzer) on its seed corpus and on tests/fuzz/regressions/NAME/, the inputs that
# once crashed a reader, hung it or broke its contract: each must now be read, or refused with
# a message, and nothing else (in the sanitizer build, also without an ASan or UBSan report;
# under `make check-valgrind`, SB_VALGRIND runs each replay under memcheck).
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
failed=0
for target in experiment set machine events report; do
    case $target in
    experiment) seeds="$top_srcdir/configs/experiments $top_srcdir/fuzz/seeds/experiment" ;;
    set) seeds="$top_srcdir/fuzz/seeds/set" ;;
    machine) seeds="$top_srcdir/configs/machines $top_srcdir/fuzz/seeds/machine" ;;
    events) seeds="$top_srcdir/configs/events $top_srcdir/fuzz/seeds/events" ;;
    report) seeds="$top_srcdir/fuzz/seeds/report" ;;
    esac
    regressions="$top_srcdir/tests/fuzz/regressions/$target"
    [ -d "$regressions" ] && seeds="$seeds $regressions"
    # shellcheck disable=SC2086
    inputs=$(find $seeds -type f ! -name '.*' | wc -l)
    # shellcheck disable=SC2086
    # shellcheck disable=SC2086
    if ${SB_VALGRIND:-} "$top_builddir/tests/fuzz_replay_$target" $seeds 2>"fuzz_replay_$target.err"; then
        echo "PASS: $target: $inputs inputs replayed"
    else
        echo "FAIL: $target: the replay failed (exit $?):"
        tail -n 30 "fuzz_replay_$target.err"
        failed=1
    fi
    rm -f "fuzz_replay_$target.err"
done
exit $failed
