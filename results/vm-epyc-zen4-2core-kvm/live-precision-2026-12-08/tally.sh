#!/bin/sh
# tally.sh: counts the live A-A trials' calls in the reports named (aa-*.json): how many A-A
# pairs the tool called different (faster or slower: analysis.noise.aa.call), and for each
# shift how many trials found it (analysis.noise.aa.shifted[].found), with a 95% Wilson
# interval of each count. Counting only: every call is the tool's own.
# usage: sh tally.sh aa-*.json
set -eu
jq -s '
  def wilson(k; n): (1.959964 * 1.959964) as $z2 | (k / n) as $p
    | (($p + $z2 / (2 * n)) / (1 + $z2 / n)) as $c
    | (1.959964 * ((($p * (1 - $p) / n) + $z2 / (4 * n * n)) | sqrt) / (1 + $z2 / n)) as $h
    | [($c - $h) * 1000 | round / 10, ($c + $h) * 1000 | round / 10];
  length as $n
  | { trials: $n,
      called_different: ([.[] | select(.analysis.noise.aa.call == "faster"
                                       or .analysis.noise.aa.call == "slower")] | length),
      calls: (group_by(.analysis.noise.aa.call) | map({(.[0].analysis.noise.aa.call): length}) | add),
      rounds: [.[] | .schedule.rounds], stopped_by: [.[] | .schedule.stopped_by],
      shifts: [range(0; .[0].analysis.noise.aa.shifted | length) as $k
               | { shift: .[0].analysis.noise.aa.shifted[$k].shift,
                   found: ([.[] | select(.analysis.noise.aa.shifted[$k].found)] | length) }] }
  | .called_different_pct_wilson = wilson(.called_different; $n)
  | .shifts |= map(. + {wilson_pct: wilson(.found; $n)})
  | .smallest_found_80 = ([.shifts[] | select(.found >= 0.8 * $n) | .shift] | first)' "$@"
