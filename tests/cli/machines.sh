#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# machines.sh: the cache model end to end: `scanbench run --set counters=sim` with every machine
# of configs/machines and with machine=auto (the report says simulated, names the model and
# carries the roles; cycles and instructions are absent), machines found through
# $SCANBENCH_CONFIGS, the same counts whatever $SCANBENCH_SIM_THREADS, and every kind of bad
# machine file or value: exit 2, one line naming the file, the line and the key.
. "$top_srcdir/tests/lib.sh"
S=$SCANBENCH
SMALL="--set table_size=2M --set pool_size=1M --set ring_size=256K --set repetitions=2 --set warmup=0"

command -v jq >/dev/null || { echo "jq is missing (Debian: jq)" >&2; exit 99; }

# every machine file runs
for f in "$top_srcdir"/configs/machines/*.ini; do
    m=$(basename "$f" .ini)
    expect_status 0 "machine $m" $S run $SMALL --set counters=sim --set machine="$m" \
        --set op=vacuum -o "$SCRATCH/$m.json"
    check "$m: simulated, model named" jq -e --arg m "$m" '.runs | all(.counters.simulated and
        .counters.status == "ok" and (.counters.model | startswith($m + " (")) and
        .counters.machine.name == $m and (.counters.machine.levels | length >= 2))' "$SCRATCH/$m.json"
    check "$m: roles" jq -e '.runs | all(.counters.values | has("l2_miss") and has("l2_writeback")
        and has("mem_read_bytes") and has("mem_write_bytes") and has("l1d_hit") and
        has("l1d_miss") and has("l1d_writeback") and has("l2_hit") and
        (has("cycles") | not) and (has("instructions") | not))' "$SCRATCH/$m.json"
    out_contains "Counters per scan (simulated: $m ("
done
check "zen4 has L3 roles" jq -e '.runs[0].counters.values | has("l3_hit") and has("l3_miss")
    and has("l3_writeback")' "$SCRATCH/epyc-zen4.json"
check "x4500 has none" jq -e '.runs[0].counters.values | has("l3_miss") | not' "$SCRATCH/x4500.json"
check "a ring of 256KB in a 1MB L2 writes nothing back after its first lap" jq -e \
    '[.runs[] | select(.policy == "ring") | .counters.values.l2_writeback[1]] == [0]' \
    "$SCRATCH/xeon-1mb.json"

# the replay's threads change nothing but the time: 1 thread and 4 slices count the same
expect_status 0 "one replay thread" env SCANBENCH_SIM_THREADS=1 $S run $SMALL --set counters=sim \
    --set machine=epyc-zen4 --set kernel=memcpy,nt --set op=vacuum -o "$SCRATCH/threads1.json"
expect_status 0 "four replay threads" env SCANBENCH_SIM_THREADS=4 $S run $SMALL --set counters=sim \
    --set machine=epyc-zen4 --set kernel=memcpy,nt --set op=vacuum -o "$SCRATCH/threads4.json"
check "1 and 4 replay threads: the same counts" jq -e -n --slurpfile a "$SCRATCH/threads1.json" \
    --slurpfile b "$SCRATCH/threads4.json" \
    '[$a[0].runs[].counters.values] == [$b[0].runs[].counters.values] and
     ($a[0].runs | length) == 4'
expect_status 2 "SCANBENCH_SIM_THREADS=0" env SCANBENCH_SIM_THREADS=0 $S run -q $SMALL \
    --set counters=sim
err_is_one_line_containing "SCANBENCH_SIM_THREADS=0: not a number of threads from 1 to 64"

# the default model: this host's topology
expect_status 0 "machine=auto" $S run $SMALL --set counters=sim -o "$SCRATCH/auto.json"
check "auto: simulated, model auto" jq -e '.runs | all(.counters.simulated and
    .counters.machine.name == "auto" and (.counters.machine.description | test("assumed")))' \
    "$SCRATCH/auto.json"
check "auto: derived figures" jq -e '.runs | all(.counters.derived.l2_miss_per_page > 0 and
    .counters.derived.mem_read_bytes_per_table_byte > 0)' "$SCRATCH/auto.json"
out_contains "simulated: auto ("

# the prefetcher: said either way
expect_status 0 "prefetch yes" $S run $SMALL --set op=count --set policy=clock --set counters=sim \
    --set machine=x4500 --set prefetch=no,yes -o "$SCRATCH/pf.json"
check "prefetch off then on" jq -e '[.runs[].counters.machine.prefetch] == [false, true] and
    (.runs[1].counters.model | endswith("prefetch on"))' "$SCRATCH/pf.json"

# SCANBENCH_CONFIGS comes first
mkdir -p "$SCRATCH/configs/machines"
sed -e 's/^name = x4500/name = tiny/' -e 's/^size = 1M/size = 128K/' \
    "$top_srcdir/configs/machines/x4500.ini" >"$SCRATCH/configs/machines/tiny.ini"
SCANBENCH_CONFIGS="$SCRATCH/configs" expect_status 0 "SCANBENCH_CONFIGS" $S run $SMALL \
    --set counters=sim --set machine=tiny -o "$SCRATCH/tiny.json"
check "tiny model read from SCANBENCH_CONFIGS" jq -e '.runs[0].counters.machine.levels[1].size
    == 131072' "$SCRATCH/tiny.json"

# bad input: exit 2, one line, file:line: key
bad() { # bad NAME LINES...: a machine file with a good [machine] head, then LINES
    local f="$SCRATCH/$1.ini"; shift
    printf '%s\n' "[machine]" "description = bad" "source = test" "wc_buffers = 4" "$@" >"$f"
    echo "$f"
}
L1="[L1d]
size = 32K
line_size = 64
associativity = 8"
expect_bad() { # expect_bad WHAT FILE TEXT
    expect_status 2 "$1" $S run $SMALL --set counters=sim --set machine="$2"
    err_is_one_line_containing "$3"
}
f=$(bad sets "$L1" "[L2]" "size = 96K" "line_size = 64" "associativity = 16")
expect_bad "non-power-of-two sets" "$f" "$f:10: size: [L2] 96KB makes 96 sets"
f=$(bad zerosets "$L1" "[L2]" "size = 512" "line_size = 64" "associativity = 16")
expect_bad "zero sets" "$f" "$f:10: size: [L2] 512B makes 0 sets"
f=$(bad line "[L1d]" "size = 32K" "line_size = 48" "associativity = 8")
expect_bad "line size not dividing the page" "$f" "$f:7: line_size: 48 does not divide the 8KB page"
f=$(bad repl "$L1" "replacement = random")
expect_bad "unknown replacement" "$f" "$f:9: replacement: \"random\" is not a replacement policy"
f=$(bad incl "$L1" "[L2]" "size = 1M" "line_size = 64" "associativity = 16" "inclusion = sometimes")
expect_bad "unknown inclusion" "$f" "$f:13: inclusion: \"sometimes\" is not an inclusion policy"
f=$(bad larger "[L1d]" "size = 2M" "line_size = 64" "associativity = 8" "[L2]" "size = 1M" \
    "line_size = 64" "associativity = 16" "inclusion = inclusive")
expect_bad "inclusive level smaller than the one above" "$f" \
    "$f:10: size: [L2] an inclusive L2 of 1MB must be larger than the L1d of 2MB above it"
f=$(bad key "$L1" "colour = blue")
expect_bad "unknown key" "$f" "$f:9: colour: unknown key in [L1d]"
f=$(bad section "$L1" "[L9]" "size = 1M")
expect_bad "unknown section" "$f" "$f:10: size: unknown section [L9]"
f="$SCRATCH/indented.ini" # a level's key indented under the description: refused, not joined
printf '%s\n' "[machine]" "description = d" "  size = 3" "source = test" "wc_buffers = 4" "$L1" \
    >"$f"
expect_bad "an indented key of another section" "$f" \
    "$f:3: description: \"size = 3\": an indented line goes on with the value above"
f=$(bad size "$L1" "[L2]" "size = lots")
expect_bad "bad size" "$f" "$f:10: size: \"lots\" is not a size"
f=$(bad nol2 "$L1")
expect_bad "no L2" "$f" "$f: L2: no [L2] section"
# the effective size and the write-allocate rule: each with its source, the evasion's figures
# exactly with full_line_loaded
L2="[L2]
size = 1M
line_size = 64
associativity = 16"
f=$(bad effnosrc "$L1" "$L2" "effective_size = 700K")
expect_bad "effective size without its source" "$f" "$f:13: effective_size: no effective_size_source"
f=$(bad effsrc "$L1" "$L2" "effective_size_source = a sweep")
expect_bad "a source without the effective size" "$f" \
    "$f:13: effective_size_source: [L2] has no effective_size"
f=$(bad efftiny "$L1" "$L2" "effective_size = 100" "effective_size_source = a sweep")
expect_bad "an effective size below 8 lines" "$f" "$f:13: effective_size: 100 bytes is less than 8 lines"
f=$(bad effbad "$L1" "$L2" "effective_size = most" "effective_size_source = a sweep")
expect_bad "an effective size that is not a size" "$f" "$f:13: effective_size: \"most\" is not a size"
f=$(bad wa "write_allocate = sometimes" "write_allocate_source = s" "$L1" "$L2")
expect_bad "unknown write-allocate rule" "$f" \
    "$f:5: write_allocate: \"sometimes\" is not a write-allocate rule (known: nt_stores, full_line_loaded, full_line)"
f=$(bad wanosrc "write_allocate = full_line" "$L1" "$L2")
expect_bad "a rule without its source" "$f" "$f:5: write_allocate: no write_allocate_source"
f=$(bad waloaded "write_allocate = full_line_loaded" "write_allocate_source = s" "$L1" "$L2")
expect_bad "full_line_loaded without its figures" "$f" \
    "$f:5: rfo_evasion_scanners: missing: write_allocate = full_line_loaded needs it"
f=$(bad wafig "write_allocate = full_line" "write_allocate_source = s" \
    "rfo_evasion_share = 0.5" "rfo_evasion_share_source = s" "$L1" "$L2")
expect_bad "evasion figures with another rule" "$f" \
    "$f:7: rfo_evasion_share: only with write_allocate = full_line_loaded"
f=$(bad washare "write_allocate = full_line_loaded" "write_allocate_source = s" \
    "rfo_evasion_scanners = 4" "rfo_evasion_scanners_source = s" "rfo_evasion_share = 2" \
    "rfo_evasion_share_source = s" "$L1" "$L2")
expect_bad "a share above 1" "$f" "$f:9: rfo_evasion_share: \"2\" is not a share above 0 and at most 1"
# a good file: the model takes the effective L2 (700KB: 8192 sets... of 64B lines in 8 to 16
# ways: 1024 sets of 11 ways, 704KB), the report keeps the nominal
f=$(bad good "write_allocate = full_line" "write_allocate_source = s" "$L1" "$L2" \
    "effective_size = 700K" "effective_size_source = a sweep")
expect_status 0 "a machine with an effective L2" $S run $SMALL --set counters=sim \
    --set machine="$f" -o "$SCRATCH/eff.json"
check "the model's L2: the effective size's geometry" jq -e \
    '.runs[0].counters.machine.levels[1].size == 720896 and
     .runs[0].counters.machine.levels[1].associativity == 11' "$SCRATCH/eff.json"
expect_bad "unknown machine" "pdp-11" "machine: \"pdp-11\" is not a known machine (known: auto, "
for m in epyc-zen4 piii-1260 x4500 xeon-1mb xeon-spr; do err_is_one_line_containing "$m"; done
expect_status 2 "missing machine file" $S run --set counters=sim --set machine="$SCRATCH/none.ini"
err_is_one_line_containing "$SCRATCH/none.ini: cannot read"
expect_status 2 "bad prefetch" $S run --set prefetch=maybe
err_is_one_line_containing '--set prefetch=maybe: prefetch: "maybe" is not a known prefetch (known: machine, no, yes)'
# a named model is checked before any run whatever the backend
f=$(bad any "$L1" "[L2]" "size = 96K" "line_size = 64" "associativity = 16")
expect_status 2 "bad machine with counters=none" $S run --set machine="$f"
err_is_one_line_containing "--set machine=$f: machine: $f:10: size:"
finish
