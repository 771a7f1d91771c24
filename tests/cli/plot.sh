#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# plot.sh: `scanbench plot` draws the fixtures with gnuplot: a PNG and an SVG (the counters
# panel too), the default name, never over an existing file, no temporary files left, and an
# extension other than .png or .svg refused. Skipped (77) when gnuplot is not installed.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
A="$top_srcdir/tests/data/report-a.json"
B="$top_srcdir/tests/data/report-b.json"

command -v gnuplot >/dev/null || { echo "gnuplot is missing (Debian: gnuplot-nox): skipped" >&2; exit 77; }

expect_status 0 "plot A to PNG" $S plot "$A" -o "$SCRATCH/x.png"
check "stderr says where" grep -q "plot written to $SCRATCH/x.png" "$SCRATCH/err"
check "a PNG" [ "$(od -An -tx1 -N8 "$SCRATCH/x.png" | tr -d ' \n')" = "89504e470d0a1a0a" ]

expect_status 0 "plot B (with counters) to SVG" $S plot "$B" -o "$SCRATCH/x.svg"
check "an SVG" grep -q "<svg" "$SCRATCH/x.svg"
check "SVG ends" grep -q "</svg>" "$SCRATCH/x.svg"

# a role no run could read (null): its lines are left out, the rest drawn
sed 's/"l2_writeback_per_page": 65.0,/"l2_writeback_per_page": null,/' "$B" >"$SCRATCH/no-wb.json"
check "no-wb.json has no write-backs" [ "$(grep -c '"l2_writeback_per_page": null' "$SCRATCH/no-wb.json")" -eq 3 ]
expect_status 0 "plot with a counter role unread" $S plot "$SCRATCH/no-wb.json" -o "$SCRATCH/no-wb.svg"
check "an SVG without write-backs" grep -q "</svg>" "$SCRATCH/no-wb.svg"

cp "$A" "$SCRATCH/r.json"
expect_status 0 "default name" $S plot "$SCRATCH/r.json"
check "r.json -> r.png" [ "$(head -c 4 "$SCRATCH/r.png" | od -An -c | tr -d ' \n')" = "211PNG" ]

sum_before=$(cksum <"$SCRATCH/x.png")
expect_status 2 "existing file" $S plot "$B" -o "$SCRATCH/x.png"
err_is_one_line_containing "$SCRATCH/x.png: exists"
check "existing file unchanged" [ "$(cksum <"$SCRATCH/x.png")" = "$sum_before" ]

expect_status 2 "a .jpg" $S plot "$A" -o "$SCRATCH/x.jpg"
err_is_one_line_containing "$SCRATCH/x.jpg: the plot must end in .png or .svg"
check "no .jpg" [ ! -e "$SCRATCH/x.jpg" ]
check "no temporary files" [ "$(ls "$SCRATCH" | grep -c tmp)" -eq 0 ]

# issue 25, item 3: a disk that fills under gnuplot (it exits 0 with a truncated image) fails
# the command, and nothing is left behind; needs root for a 16KB tmpfs
mkdir "$SCRATCH/full"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=16k tmpfs "$SCRATCH/full" 2>/dev/null; then
    expect_status 1 "plot on a full disk" $S plot "$A" -o "$SCRATCH/full/p.png"
    err_is_one_line_containing "$SCRATCH/full/p.png: gnuplot left an incomplete image"
    check "nothing left on the full disk" [ -z "$(ls -A "$SCRATCH/full")" ]
    # no room even for the gnuplot script: the line names the plot asked for, not a temporary
    dd if=/dev/zero of="$SCRATCH/full/fill" bs=1k count=64 2>/dev/null
    expect_status 1 "plot on a disk too full for its script" $S plot "$A" -o "$SCRATCH/full/p.png"
    err_is_one_line_containing "cannot write $SCRATCH/full/p.png: No space left on device"
    check "only the filler left" [ "$(ls -A "$SCRATCH/full")" = fill ]
    umount "$SCRATCH/full"
else
    echo "plot on a full disk: skipped (needs root and a tmpfs mount)" >&2
fi
finish
