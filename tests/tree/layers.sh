#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# layers.sh: lib/ stays in its layers. doc/design.md's table (The layers) names each subsystem
# of lib/, the subsystems it may depend on and the libraries it may use. Every #include of
# every lib/SUB/*.[ch] and of the program's bench/*.[ch] is checked, and each breach is named
# FILE:LINE:
#  - a header of lib/ is included by its folder ("engine/iocache.h"; config.h is autoconf's);
#    the header must exist;
#  - another subsystem is included only through its public headers: lib/SUB/SUB.h, and
#    lib/SUB/SUB_PART.h where a part of its interface has few users;
#  - only a subsystem the table lets it depend on (the program, bench/, may use every one);
#  - a library header (jansson, inih, hwloc, libnuma, PAPI, libpfm4, libpq) only where the
#    table allows that library;
#  - no cycle: not in the table, not among the subsystems the includes make, and not among the
#    files of one subsystem (a file and its header are one node);
#  - every folder of lib/ has a row, every row a folder and a public header.
# The tests (tests/), the developer benchmarks (bench/dev/) and the fuzz targets (fuzz/) look
# inside the subsystems on purpose and are not checked.
. "$top_srcdir/tests/lib.sh"
DOC="$top_srcdir/doc/design.md"
LIB="$top_srcdir/lib"

# The table: "SUB<TAB>DEP DEP...<TAB>LIB LIB..." for each row of the section "## The layers"
# whose first cell is a `name`.
awk -F'|' '/^## / { in_layers = ($0 ~ /^## The layers/) }
    in_layers && NF >= 5 && $2 ~ /^ *`[a-z]+` *$/ {
        for (i = 2; i <= 4; i++) { gsub(/`|,/, " ", $i); gsub(/^ +| +$/, "", $i); gsub(/ +/, " ", $i) }
        print $2 "\t" $3 "\t" $4 }' "$DOC" >"$SCRATCH/table"
[ -s "$SCRATCH/table" ] && pass || fail "$DOC: no table of layers read"

# The files: lib's headers (for existence; with those make generates in the build tree, e.g.
# core/git_hash.h, which a VPATH build has only there), then the files checked.
{ (cd "$LIB" && find . -name '*.h')
  [ -d "$top_builddir/lib" ] && (cd "$top_builddir/lib" && find . -name '*.h'); } |
    sed 's|^\./||' | sort -u >"$SCRATCH/headers"
(cd "$top_srcdir" && ls -d lib/*/ | sed 's|/$||; s|^lib/||') >"$SCRATCH/folders"
(cd "$top_srcdir" && ls lib/*/*.[ch] bench/*.[ch]) >"$SCRATCH/files"

(cd "$top_srcdir" && awk -v table="$SCRATCH/table" -v headers="$SCRATCH/headers" \
    -v folders="$SCRATCH/folders" '
function problem(msg) { print msg; bad++ }
# a library header and the name the table gives that library
function library(h) {
    if (h == "jansson.h") return "jansson"
    if (h == "ini.h") return "inih"
    if (h ~ /^hwloc(\/|\.h)/) return "hwloc"
    if (h == "numa.h" || h == "numaif.h") return "libnuma"
    if (h ~ /^papi/) return "PAPI"
    if (h ~ /^perfmon\//) return "libpfm4"
    if (h == "libpq-fe.h") return "libpq"
    return ""
}
# the cycles of graph g (edges "a b" as keys of g), each printed once, as "a -> b -> a"
function cycles(g, what,    e, n, a, k, i) {
    delete adj; delete state; delete nodes
    for (e in g) { split(e, a, " "); adj[a[1]] = adj[a[1]] " " a[2]; nodes[a[1]]; nodes[a[2]] }
    found = 0
    for (k in nodes) if (!state[k]) visit(k, what, 0)
    return found
}
function visit(v, what, depth,    list, n, i, w, j, path) {
    state[v] = 1; stack[depth] = v
    n = split(adj[v], list, " ")
    for (i = 1; i <= n; i++) {
        w = list[i]
        if (state[w] == 1) {
            path = w
            for (j = depth; j >= 0 && stack[j] != w; j--) ;
            for (j = j + 1; j <= depth; j++) path = path " -> " stack[j]
            problem(what ": a cycle: " path " -> " w); found++
        } else if (!state[w])
            visit(w, what, depth + 1)
    }
    state[v] = 2
}
BEGIN {
    while ((getline line < table) > 0) {
        split(line, cell, "\t")
        sub_ = cell[1]; known[sub_] = 1; order[++nsubs] = sub_
        n = split(cell[2], d, " ")
        for (i = 1; i <= n; i++) { may[sub_, d[i]] = 1; allowed[sub_ " " d[i]] = 1 }
        n = split(cell[3], d, " ")
        for (i = 1; i <= n; i++) uses[sub_, d[i]] = 1
    }
    while ((getline line < headers) > 0) exists[line] = 1
    while ((getline line < folders) > 0) {
        folder[line] = 1
        if (!(line in known)) problem("lib/" line ": a folder with no row in doc/design.md (The layers)")
        if (!exists[line "/" line ".h"]) problem("lib/" line ": no public header lib/" line "/" line ".h")
    }
    for (s in known) if (!(s in folder)) problem("doc/design.md (The layers): row " s ": no folder lib/" s)
    for (s in known) for (i = 1; i <= nsubs; i++)
        if (may[s, order[i]] && !(order[i] in known))
            problem("doc/design.md (The layers): " s " depends on " order[i] ", which has no row")
}
FNR == 1 {
    n = split(FILENAME, part, "/")
    program = part[1] == "bench"
    sub_ = program ? "bench" : part[2]
    node = sub_ "/" part[n]; sub(/\.[ch]$/, "", node)
}
/^[ \t]*#[ \t]*include[ \t]*[<"]/ {
    where = FILENAME ":" FNR
    quoted = $0 ~ /"/
    h = $0; sub(/^[^<"]*[<"]/, "", h); sub(/[>"].*$/, "", h)
    if (!quoted) {
        lib = library(h)
        if (lib != "" && !program && !uses[sub_, lib])
            problem(where ": <" h ">: " sub_ " may not use " lib " (doc/design.md, The layers)")
        next
    }
    if (h == "config.h") next
    if (program && h !~ /\// && system("test -f bench/" h) == 0) next
    if (h !~ /^[a-z_]+\/[a-z_0-9]+\.h$/) {
        problem(where ": \"" h "\": a header of lib/ is included by its folder (\"SUB/NAME.h\")"); next
    }
    if (!exists[h]) { problem(where ": \"" h "\": no such header in lib/"); next }
    split(h, hp, "/"); target = hp[1]
    if (target == sub_) {
        dest = h; sub(/\.h$/, "", dest)
        if (dest != node) files[node " " dest] = 1
        next
    }
    if (hp[2] != target ".h" && hp[2] !~ ("^" target "_[a-z_0-9]+\\.h$")) {
        problem(where ": \"" h "\": an internal header of " target " (other parts include \"" target "/" target ".h\" or \"" target "/" target "_PART.h\")"); next
    }
    if (!program && !may[sub_, target]) {
        problem(where ": \"" h "\": " sub_ " may not depend on " target " (doc/design.md, The layers)"); next
    }
    if (!program) made[sub_ " " target] = 1
}
END {
    cycles(allowed, "doc/design.md (The layers)")
    cycles(made, "the subsystems as included")
    cycles(files, "the files as included")
    exit bad > 0
}' $(cat "$SCRATCH/files")) >"$SCRATCH/problems" 2>&1
status=$?
if [ "$status" -eq 0 ] && [ ! -s "$SCRATCH/problems" ]; then pass; else
    fail "the layers of lib/ are broken:"
    cat "$SCRATCH/problems" >&2
fi
echo "checked $(wc -l <"$SCRATCH/files") files against $(wc -l <"$SCRATCH/table") subsystems"
finish
