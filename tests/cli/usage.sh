#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# usage.sh: `scanbench --help` prints every subcommand's usage line on stdout and exits 0;
# `scanbench NAME --help` (or -h, anywhere among its arguments) prints that subcommand's usage,
# the same line, on stdout, nothing on stderr, and exits 0, running nothing, then a help line for
# each option the usage line names; without a command
# the usage goes to stderr with exit status 2.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH

expect_status 0 "scanbench --help" $S --help
if [ -s "$SCRATCH/err" ]; then fail "scanbench --help wrote to stderr: $(cat "$SCRATCH/err")"; else pass; fi
out_contains "usage: scanbench COMMAND [ARGS]"
cp "$SCRATCH/out" "$SCRATCH/help"
commands=$(sed -n 's/^  scanbench \([a-z][a-z]*\).*/\1/p' "$SCRATCH/help")
[ "$(echo "$commands" | wc -w)" -ge 8 ] && pass || fail "scanbench --help lists: $commands"

for command in $commands; do
    line=$(grep "^  scanbench $command\( \|\$\)" "$SCRATCH/help" | sed 's/^  //')
    for flag in --help -h; do
        expect_status 0 "scanbench $command $flag" $S "$command" $flag
        if [ "$(head -n 1 "$SCRATCH/out")" = "usage: $line" ]; then pass; else
            fail "scanbench $command $flag: first line '$(head -n 1 "$SCRATCH/out")', want 'usage: $line'"; fi
        if [ -s "$SCRATCH/err" ]; then
            fail "scanbench $command $flag wrote to stderr: $(cat "$SCRATCH/err")"; else pass; fi
    done
    # usage and help from the same table: every option of the usage line has its help line
    for opt in $(head -n 1 "$SCRATCH/out" | grep -o '\[-[-a-z]*' | tr -d '['); do
        if grep -Eq -- "^  (-[a-z], )?$opt( |,|\$)" "$SCRATCH/out"; then pass; else
            fail "scanbench $command --help: no help line for $opt"; fi
    done
done

# --help after other arguments: the usage, and nothing run (no report written)
expect_status 0 "run --set ... --help" $S run --set table_size=4M -o "$SCRATCH/r.json" --help
out_contains "usage: scanbench run [EXPERIMENT.ini] [--set KEY=VALUE]... [-o REPORT.json] [-q]"
if [ -e "$SCRATCH/r.json" ]; then fail "run --help wrote a report"; else pass; fi
expect_status 0 "pg --help without a server" env SCANBENCH_PG_BINDIR=/nonexistent $S pg --help
out_contains "usage: scanbench pg [EXPERIMENT.ini] [--server BINDIR]... [--set KEY=VALUE]... [-o REPORT.json] [-q]"

# no command: the usage on stderr, exit 2
expect_status 2 "no command" $S
if grep -q "^usage: scanbench COMMAND" "$SCRATCH/err"; then pass; else
    fail "no command: stderr lacks the usage: $(cat "$SCRATCH/err")"; fi
finish
