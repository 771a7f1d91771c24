#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# power-rules.sh: the trials of a `scanbench power` report (power.json) called again against
# two thresholds: delta = max(2%, floor), the analysis' rule since report schema 4, and
# delta = max(2%, bound), the rule until then (the A-A pair's bootstrap bound as the floor).
# Both from the same intervals: what the change of rule alone does to false calls and power.
# usage: bench/dev/power-rules.sh power.json   (needs jq; trials without a bound are skipped)
set -eu
[ $# -eq 1 ] || { echo "usage: $0 power.json" >&2; exit 2; }
jq -r '
  def call($lo; $hi; $d): (1 + $d) as $t |
    if $lo > $t then "faster" elif $hi < 1 / $t then "slower"
    elif $lo >= 1 / $t and $hi <= $t then "same" else "inconclusive" end;
  def detected($t; $c): ($t.arm == "second" and $c == "slower") or ($t.arm == "first" and $c == "faster");
  "kind             rule   calls",
  ([.trials[] | select(.bound != null)] | group_by(.size)[] as $g |
   ("floor", "bound") as $rule |
   [$g[] | . as $t | {t: $t, c: call($t.lo; $t.hi; ([0.02, $t[$rule]] | max))}] as $cs |
   ($g[0] | if .kind == "A-A" then "A-A" else "extra_copy \(.size)" end) as $kind |
   ($cs | group_by(.c) | map("\(.[0].c) \(length)") | join(", ")) as $counts |
   "\($kind | . + " " * (16 - length)) \($rule)  \($counts)" +
   (if $g[0].kind == "A-A" then "" else "; detected \([$cs[] | select(detected(.t; .c))] | length)" end))
' "$1"
