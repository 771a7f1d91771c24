#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# dontneed.sh: a bigtable file really leaves the page cache: mincore finds none of its pages
# resident after the drop (posix_fadvise DONTNEED) before the first scan and before every scan,
# and the device rate is recorded. Skipped (77), saying why, where the file system keeps the
# pages whatever DONTNEED asks (tmpfs, ramfs: the page cache is the file).
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
D="${TMPDIR:-/tmp}"
R="$SCRATCH/drop.json"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }
fs=$(stat -f -c %T "$D" 2>/dev/null || echo unknown)
case $fs in
tmpfs | ramfs)
    echo "SKIP: $D is on $fs: its pages are the file, DONTNEED cannot evict them (set TMPDIR to a disk)"
    exit 77 ;;
esac

expect_status 0 "file bigtable" $S run --set source=file --set bigtable=yes --set data_dir="$D" \
    --set table_size=8M --set pool_size=1M --set ring_size=256K --set repetitions=2 \
    --set op=count --set min_scan_ms=0 -o "$R"
resident=$(jq -r '[.runs[].io.residency.resident_after_first_drop] | max' "$R")
if [ "$resident" != 0 ]; then
    echo "SKIP: $D ($fs): $resident of the file still resident after DONTNEED (mincore): this file system or kernel keeps it"
    exit 77
fi
check "none resident at any scan's start" jq -e '[.runs[].io.residency.max_resident_at_scan_start] | max == 0' "$R"
check "device rate recorded" jq -e '[.runs[] | .io.device_mbps > 0] | all' "$R"
check "drops behind the scan: 1024 pages, every 256" jq -e '[.runs[].io.drops_per_scan] | all(. == 4)' "$R"
check "validated" jq -e '[.runs[].validation.ok] | all' "$R"
finish
