#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# licence.sh: every source file says its licence. LICENSE holds the BSD 3-Clause text with the
# project's copyright line, and the first line of each file below (the second after a #! line)
# is "SPDX-License-Identifier: BSD-3-Clause" in the file's own comment: "/* ... */" in C, "# "
# in scripts, the build files and the suppression files, "; " or "# " in configs' INI files.
# The files: *.c and *.h of lib/, bench/, fuzz/ and tests/; *.sh, *.tap and *.py there too;
# every file of tools/ and .ci/; configs/*/*.ini; tests/*.supp; bootstrap, configure.ac,
# Makefile.am; m4/*.m4 but those under a licence of their own (autoconf-archive's, pkg.m4).
# Not: the measurements (results/), the fixtures and fuzz inputs (tests/data/'s data,
# fuzz/seeds/, fuzz/dict/, tests/fuzz/regressions/: their bytes are what is tested), the
# documents, and what make writes into an in-tree build (lib/plan/default_experiment.c,
# lib/core/git_hash.h). The tree is walked with find, so a clone, a VPATH build and a tarball
# without .git are checked alike.
. "$top_srcdir/tests/lib.sh"
SPDX="SPDX-License-Identifier: BSD-3-Clause"

LICENSE="$top_srcdir/LICENSE"
if grep -qx 'Copyright (c) 2026, the scanbench developers' "$LICENSE" 2>/dev/null &&
    grep -qx '3. Neither the name of the copyright holder nor the names of its' "$LICENSE"; then
    pass; else fail "LICENSE: not the BSD 3-Clause text with the scanbench developers' copyright"; fi

(cd "$top_srcdir" && {
    find lib bench fuzz tests -type f \( -name '*.[ch]' -o -name '*.sh' -o -name '*.tap' \
        -o -name '*.py' \)
    for d in tools .ci; do [ -d "$d" ] && find "$d" -type f; done
    find configs -type f -name '*.ini'
    find tests -maxdepth 1 -type f -name '*.supp'
    [ -d m4 ] && find m4 -type f -name '*.m4' | while IFS= read -r f; do
        grep -q -e 'Copying and distribution of this file' -e 'This file is free software' "$f" ||
            echo "$f"; done
    ls bootstrap configure.ac Makefile.am
}) | grep -vx -e lib/plan/default_experiment.c -e lib/core/git_hash.h | sort >"$SCRATCH/files"

# the walk found the tree: a file of each kind
for f in bench/scanbench.c lib/core/core.h tests/tree/licence.sh tools/install-deps \
    configs/experiments/default.ini configure.ac; do
    grep -qx "$f" "$SCRATCH/files" && pass || fail "$f: not among the files walked from $top_srcdir"
done

while IFS= read -r f; do
    first=$(head -n 1 "$top_srcdir/$f")
    case $first in '#!'*) first=$(sed -n 2p "$top_srcdir/$f") ;; esac
    case $f in
        *.[ch]) want="/* $SPDX */" ;;
        *.ini) want="; $SPDX" ;;
        *) want="# $SPDX" ;;
    esac
    if [ "$first" = "$want" ] || { [ "${f%.ini}" != "$f" ] && [ "$first" = "# $SPDX" ]; }; then
        pass; else fail "$f: its first line (after any #!) is not \"$want\""; fi
done <"$SCRATCH/files"
echo "checked $(wc -l <"$SCRATCH/files") files"
finish
