#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# report_schema.sh: doc/report-schema.md stays true to the reports scanbench writes. It writes
# small reports (a plain `run`; a `run` with the cache model over a clock sweep, --twice; a
# `reproduce`), lists every key path in them (array indices as [], one path per key) and checks
#  - that each is documented: a row of the page's tables names it, or a row with `*` for a data
#    key (a node, a role, a setting), or an array row above it, or a row whose type is "as `P`"
#    (its keys are P's);
#  - that each documented row whose "when" condition these reports meet is in them: `always` in
#    every report, the others (`compared`, `none`, `sim`, `sweep`, `twice`, `run twice`,
#    `reproduce`, and `phases` where the cache model split its counts by phase) in at least one
#    report made under that condition.
. "$top_srcdir/tests/lib.sh"
DOC="$top_srcdir/doc/report-schema.md"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is not installed"; exit 77; }
[ -r "$DOC" ] || { fail "$DOC is missing"; finish; exit 1; }

# The documented rows: path, type, when (4-cell rows whose first cell is a `path`).
awk -F'|' 'NF == 6 && $2 ~ /^ `[a-z]/ {
        for (i = 2; i <= 4; i++) { gsub(/^ +| +$/, "", $i); gsub(/`/, "", $i) }
        print $2 "\t" $3 "\t" $4 }' "$DOC" >"$SCRATCH/rows"
[ "$(wc -l <"$SCRATCH/rows")" -gt 300 ] && pass || fail "$DOC: fewer than 300 rows read"

# key_paths FILE: every key path of a JSON document, one per line, into FILE.paths
key_paths() {
    jq -r '[paths | map(if type == "number" then "[]" else . end) | join(".")] | unique[]' "$1" |
        sed 's/\.\[\]/[]/g' | sort -u >"$1.paths"
}

# undocumented FILE.paths...: the paths no row documents ("FILE: PATH"). A path is documented
# when, after the aliases (a row typed "as P" lends its path P's rows) and going up through
# array elements (x[] is documented by x), it matches a row, `*` standing for any one key.
undocumented() {
    awk -F'\t' '
        FNR == NR { if ($2 ~ /^as /) { alias[$1] = substr($2, 4); next }
                    p = $1; gsub(/[.[\]]/, "\\\\&", p); gsub(/\*/, "[^.[]+", p)
                    re[++n] = "^" p "$"; next }
        function known(p,    i) { for (i = 1; i <= n; i++) if (p ~ re[i]) return 1; return 0 }
        {
            p = $0
            for (x in alias)
                if (p == x || index(p, x ".") == 1 || index(p, x "[") == 1) {
                    p = alias[x] substr(p, length(x) + 1); break }
            while (!known(p) && p ~ /\[\]$/) p = substr(p, 1, length(p) - 2)
            if (!known(p)) { f = FILENAME; sub(/\.paths$/, "", f); print f ": " $0 }
        }' "$SCRATCH/rows" "$@"
}

# missing TAGS FILE.paths...: the rows whose "when" has an alternative made only of TAGS
# (space-separated; a tag's blanks written _) that no path of the files matches
missing() {
    local tags=$1; shift
    awk -F'\t' -v have=" $tags " '
        FNR == NR { if ($2 ~ /^as /) next
                    n = split($3, alt, / *, */)
                    for (i = 1; i <= n; i++) {
                        m = split(alt[i], part, / *\+ */); ok = m > 0
                        for (j = 1; j <= m; j++) {
                            gsub(/ /, "_", part[j])
                            if (index(have, " " part[j] " ") == 0) ok = 0
                        }
                        if (ok) {
                            p = $1; gsub(/[.[\]]/, "\\\\&", p); gsub(/\*/, "[^.[]+", p)
                            want[$1] = "^" p "$"; break
                        }
                    }
                    next }
        { for (w in want) if (!(w in found) && $0 ~ want[w]) found[w] = 1 }
        END { for (w in want) if (!(w in found)) print w }' "$SCRATCH/rows" "$@" | sort
}

SCANBENCH=$(cd "$(dirname "$SCANBENCH")" && pwd)/scanbench
B="--set table_size=4M --set min_scan_ms=0 --set repetitions=2 -q"
cd "$SCRATCH" || exit 99
# shellcheck disable=SC2086
"$SCANBENCH" run $B -o a.json >/dev/null 2>err || fail "run: $(head -c 300 err)"
# shellcheck disable=SC2086
"$SCANBENCH" run $B --set counters=sim --set op=count --set policy=clock \
    --set pool_size=256K,512K,1M,2M --twice -o b.json >/dev/null 2>err ||
    fail "run --twice with the cache model: $(head -c 300 err)"
"$SCANBENCH" reproduce x4500-memtable --quick --set table_size=4M --set min_scan_ms=0 \
    --set repetitions=2 -o r >/dev/null 2>err || fail "reproduce: $(head -c 300 err)"
REPORTS="a.json b.json b.2.json r/x4500-memtable.json"
for f in $REPORTS; do
    [ -s "$f" ] || { fail "$f was not written"; finish; exit 1; }
    jq empty "$f" 2>/dev/null || fail "$f: jq cannot read it"
    key_paths "$f"
done

# every key path documented
# shellcheck disable=SC2046
undocumented $(for f in $REPORTS; do echo "$f.paths"; done) >undocumented
if [ -s undocumented ]; then
    while read -r line; do fail "$line: not in doc/report-schema.md"; done <undocumented
else pass; fi

# every row whose condition the reports meet: `always` in each report, the others in a report
# made under them
check_missing() {
    local what=$1 tags=$2; shift 2
    missing "$tags" "$@" >missing
    if [ -s missing ]; then
        while read -r p; do fail "$what: no $p (doc/report-schema.md: when $tags)"; done <missing
    else pass; fi
}
for f in $REPORTS; do check_missing "$f" "always" "$f.paths"; done
# `phases`: the rows of counters split by phase, wherever the cache model split them
phases() { jq -e '[.runs[].counters.phases | objects] | length > 0' "$1" >/dev/null && echo phases; }
check_missing a.json "compared none" a.json.paths
check_missing "b.json and b.2.json" "compared sim sweep twice run_twice $(phases b.json)" \
    b.json.paths b.2.json.paths
check_missing r/x4500-memtable.json "compared sim reproduce $(phases r/x4500-memtable.json)" \
    r/x4500-memtable.json.paths
finish
