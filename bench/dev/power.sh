#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# power.sh: the developer benchmark of the rounds' power on the real host (doc/statistics.md,
# Power on this host): `scanbench power` with many trials under the default budget, (a) A-A
# trials, both arms alike: the share called different, with its Wilson interval; (b) trials
# where one arm, which one by the trial's seed, copies 2%, 5%, 10% more pages than it is
# credited for (extra_copy): the share detected per size and the seconds to a call. Beside it,
# the true ratio of each size from one long run of every size in the same rounds (not from the
# trials). Everything goes to a new directory with the commands that made it: power.json,
# power.txt, truth.json (+ .csv), commands.txt. A full run takes long (TRIALS x 4 trials of up
# to the budget each: about an hour with the defaults): run it on a quiet host, alone.
# usage: bench/dev/power.sh   (needs jq)
#   TRIALS        trials of each kind (default 100)
#   BUDGET        time_budget of a trial (default auto: the default budget of `scanbench run`)
#   TRUTH_ROUNDS  rounds of the long run of the true ratios (default 100)
#   SETS          more --set KEY=VALUE for both, e.g. "--set table_size=128M" (default none)
#   KINDS         all (default: A-A, 2%, 5%, 10%) or quick (A-A, 5%, 10%: a quarter less time)
#   HOST          the host's folder under results/ (default: hostname)
#   OUT           the directory to make (default results/HOST/power-DATE); it must not exist
set -eu
here=$(dirname "$0")
scanbench="$here/../scanbench"
trials=${TRIALS:-100}
budget=${BUDGET:-auto}
truth_rounds=${TRUTH_ROUNDS:-100}
sets=${SETS:-}
host=${HOST:-$(hostname)}
date=$(date +%Y-%m-%d-%H%M%S)
out=${OUT:-$here/../../results/$host/power-$date}
mkdir -p "$(dirname "$out")"

# the trials' experiment (bench/cmd_power.c's base_sets), every size in one run's rounds
trial_sets="--set op=count --set policy=ring --set ring_size=256K --set table_size=64M"
truth_sets="$trial_sets --set extra_copy=0,0.02,0.05,0.10 --set repetitions=$truth_rounds"
case ${KINDS:-all} in
all) kinds="" ;;
quick) kinds="--quick" ;;
*) echo "power.sh: KINDS=${KINDS}: all or quick" >&2; exit 2 ;;
esac
power_cmd="$scanbench power $kinds --trials $trials --set time_budget=$budget $sets -o $out"
truth_cmd="$scanbench run -q $truth_sets $sets -o $out/truth.json"

echo "power.sh: $power_cmd" >&2
# shellcheck disable=SC2086
$power_cmd >/dev/null
echo "power.sh: $truth_cmd" >&2
# shellcheck disable=SC2086
$truth_cmd >/dev/null
{
    echo "# bench/dev/power.sh on $host, $date, $("$scanbench" --version)"
    echo "$power_cmd"
    echo "$truth_cmd"
} >"$out/commands.txt"

cat "$out/power.txt"
echo
echo "true ratios (extra-copy arm / extra_copy 0, one run of $truth_rounds rounds):"
jq -r '.analysis.comparisons[] | "  \(.a): \(.ratio * 1000 | round / 1000) [\(.lo * 1000 |
    round / 1000), \(.hi * 1000 | round / 1000)] \(.call)"' "$out/truth.json"
echo "written to $out"
