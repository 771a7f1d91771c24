#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# installcheck.sh BINDIR PKGDATADIR MANDIR SRCDIR: `make installcheck` (and so `make distcheck`):
# the installed scanbench, run from a scratch directory with SCANBENCH_CONFIGS unset, finds its
# installed configs (never the source tree's), runs a small sweep with a named machine model
# and reproduces every experiment of the thread quickly (--quick on a 4MB table); the installed
# data and man page match the source tree's.
set -u
bindir=$1 pkgdatadir=$2 mandir=$3 srcdir=$4
scanbench="$bindir/scanbench"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/scanbench-installcheck.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "installcheck: FAIL: $*" >&2; failures=$((failures + 1)); }
unset SCANBENCH_CONFIGS
cd "$scratch" || exit 1

[ -x "$scanbench" ] || { echo "installcheck: $scanbench is not installed" >&2; exit 1; }
"$scanbench" --version >/dev/null || fail "scanbench --version"
for kind in experiments machines events; do
    want=$(ls "$srcdir/configs/$kind" | grep -c '\.ini$')
    got=$(ls "$pkgdatadir/configs/$kind" 2>/dev/null | grep -c '\.ini$')
    [ "$got" -eq "$want" ] || fail "$got of the $want configs/$kind/*.ini installed (Makefile.am's ${kind}_DATA)"
done
[ -f "$mandir/man1/scanbench.1" ] || fail "no man page in $mandir/man1"

# a sweep with the cache model: the machine file must come from the installed data
if "$scanbench" run -q --set table_size=1M --set pool_size=256K,1M --set repetitions=2 \
    --set warmup=0 --set counters=sim --set machine=x4500 -o run.json >run.txt 2>run.err; then
    grep -qF "$pkgdatadir/configs/machines/x4500.ini" run.json ||
        fail "the report's model is not the installed configs/machines/x4500.ini: $(grep -o '"model": "[^"]*"' run.json | head -1)"
    grep -q 'MB/s' run.txt || fail "scanbench run printed no table"
else
    fail "scanbench run: $(cat run.err)"
fi
# an events map by name, from the installed data
"$scanbench" events --set events=intel-skx >events.txt 2>&1 || fail "scanbench events: $(tail -3 events.txt)"
grep -qF "$pkgdatadir/configs/events/intel-skx.ini" events.txt || fail "scanbench events did not read the installed intel-skx map"

# every experiment of the thread, from the installed configs/experiments
if "$scanbench" reproduce all --quick --set table_size=4M --set min_scan_ms=0 -o repro >repro.txt 2>repro.err; then
    want=$(grep -l '^\[thread\]' "$srcdir"/configs/experiments/*.ini | wc -l)
    got=$(ls repro/*.json | wc -l)
    [ "$got" -eq "$want" ] || fail "reproduce wrote $got reports, want $want"
    grep -q 'verdict' repro.txt || fail "reproduce printed no verdict"
else
    fail "scanbench reproduce all --quick: $(tail -3 repro.err)"
fi
[ "$failures" -eq 0 ] && echo "installcheck: the installed scanbench ran from $scratch with its own data"
[ "$failures" -eq 0 ]
