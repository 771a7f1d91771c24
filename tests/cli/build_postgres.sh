#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build_postgres.sh: tools/build-postgres refuses bad input with exit 2 and one line naming it;
# then, given a PostgreSQL source tree in SCANBENCH_PG_SRC (doc/postgresql.md, Servers from their sources),
# builds it into the scratch directory and checks that the server it installed runs and says
# the tree's version, with pg_buffercache beside it. Without a tree that part is skipped
# (exit 77, saying why) after the bad-input checks: CI has no PostgreSQL sources.
. "$top_srcdir/tests/lib.sh"
B="$top_srcdir/tools/build-postgres"

expect_status 2 "no arguments" sh "$B"
err_is_one_line_containing "usage: tools/build-postgres SOURCE_DIR PREFIX"
expect_status 2 "missing source" sh "$B" "$SCRATCH/nope" "$SCRATCH/prefix"
err_is_one_line_containing "build-postgres: $SCRATCH/nope: no such directory"
mkdir -p "$SCRATCH/notpg"
expect_status 2 "not a source tree" sh "$B" "$SCRATCH/notpg" "$SCRATCH/prefix"
err_is_one_line_containing "$SCRATCH/notpg: not a PostgreSQL source tree"
mkdir -p "$SCRATCH/pg80/src/backend"
printf '%s\n' "#! /bin/sh" "PACKAGE_VERSION='8.0.26'" >"$SCRATCH/pg80/configure"
expect_status 2 "too old" sh "$B" "$SCRATCH/pg80" "$SCRATCH/prefix"
err_is_one_line_containing "PostgreSQL 8.0.26: scanbench pg takes servers from 8.1 on"
# a development branch's version (master's 20devel, a beta's 19beta2) is a version: the
# relative prefix after it is what is refused
for v in 20devel 19beta2; do
    sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION='$v'/" "$SCRATCH/pg80/configure"
    expect_status 2 "version $v" sh "$B" "$SCRATCH/pg80" "prefix"
    err_is_one_line_containing "prefix: the prefix must be an absolute path"
done
sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION='8.1.21'/" "$SCRATCH/pg80/configure"
expect_status 2 "relative prefix" sh "$B" "$SCRATCH/pg80" "prefix"
err_is_one_line_containing "prefix: the prefix must be an absolute path"
: >"$SCRATCH/file"
expect_status 2 "prefix is a file" sh "$B" "$SCRATCH/pg80" "$SCRATCH/file"
err_is_one_line_containing "$SCRATCH/file: exists and is not a directory"
[ -d "$SCRATCH/prefix" ] && fail "a refused build made its prefix"

if [ -z "${SCANBENCH_PG_SRC:-}" ]; then
    finish || exit 1
    echo "SKIP: the build itself: no PostgreSQL source tree (set SCANBENCH_PG_SRC to one)"
    exit 77
fi
want=$(sed -n "s/^PACKAGE_VERSION='\(.*\)'\$/\1/p" "$SCANBENCH_PG_SRC/configure")
expect_status 0 "build $SCANBENCH_PG_SRC" sh "$B" "$SCANBENCH_PG_SRC" "$SCRATCH/pg"
out_contains "postgres (PostgreSQL) $want in $SCRATCH/pg in "
check "the installed server runs" "$SCRATCH/pg/bin/postgres" --version
# under lib/postgresql/ when the prefix does not name PostgreSQL (its Makefile.global's rule)
check "pg_buffercache installed" sh -c "ls '$SCRATCH'/pg/lib/pg_buffercache.so '$SCRATCH'/pg/lib/postgresql/pg_buffercache.so 2>/dev/null | grep -q ."
check "initdb installed" test -x "$SCRATCH/pg/bin/initdb"
finish
