#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# man_page.sh: doc/scanbench.1 stays true: every subcommand `scanbench --help` lists and every
# key `scanbench list` prints has an entry in the manual page, every key the page documents
# exists, and groff reads the page without a warning.
. "$top_srcdir/tests/lib.sh"
MAN="$top_srcdir/doc/scanbench.1"

# the subcommands: "  scanbench NAME ..." lines of the usage
"$SCANBENCH" --help >"$SCRATCH/help" || fail "scanbench --help failed"
for command in $(sed -n 's/^  scanbench \([a-z][a-z]*\).*/\1/p' "$SCRATCH/help"); do
    if sed -n '/^\.SH COMMANDS/,/^\.SH OPTIONS/p' "$MAN" | grep -qx "\.B $command"; then pass; else
        fail "subcommand $command has no entry under COMMANDS in doc/scanbench.1"; fi
done

# the keys: "  NAME [*] default ..." lines after "experiment keys"
"$SCANBENCH" list >"$SCRATCH/list" || fail "scanbench list failed"
sed -n '/^experiment keys/,$p' "$SCRATCH/list" | sed -n 's/^  \([a-z0-9_]*\) .*/\1/p' \
    | sort >"$SCRATCH/keys.list"
# the page's keys: the .B/.BR lines of EXPERIMENT KEYS that follow a .TP, comma-separated
sed -n '/^\.SH EXPERIMENT KEYS/,/^\.SH FILES/p' "$MAN" | awk '
    prev == ".TP" && /^\.BR? / { sub(/^\.BR? /, ""); gsub(/"/, ""); gsub(/ *, */, " ");
                                  n = split($0, w, " "); for (i = 1; i <= n; i++) print w[i] }
    { prev = $0 }' | sort >"$SCRATCH/keys.man"
[ -s "$SCRATCH/keys.list" ] || fail "scanbench list printed no keys"
for key in $(comm -23 "$SCRATCH/keys.list" "$SCRATCH/keys.man"); do
    fail "key $key (scanbench list) is not documented in doc/scanbench.1"; done
for key in $(comm -13 "$SCRATCH/keys.list" "$SCRATCH/keys.man"); do
    fail "doc/scanbench.1 documents $key, which scanbench list does not print"; done
[ "$(comm -12 "$SCRATCH/keys.list" "$SCRATCH/keys.man" | wc -l)" -gt 20 ] && pass

# groff: no warnings (-ww), nothing written
if command -v groff >/dev/null 2>&1; then
    if groff -man -Tutf8 -ww -z "$MAN" >"$SCRATCH/groff" 2>&1 && [ ! -s "$SCRATCH/groff" ]; then
        pass; else fail "groff warns about doc/scanbench.1: $(head -5 "$SCRATCH/groff")"; fi
fi
finish
