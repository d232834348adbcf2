#!/usr/bin/env bash
# The instruction-count gate: `kinetics bench --count instructions` on the
# animator's and the batch path's frames (10,000 animations: steady
# springs and mixed animations, churn, retarget storms, bursts and mass
# completion; steady, burst and churn again with keys made once,
# animator-keys, with none, animator-unkeyed, and with springs added from
# their numbers, animator-springs), on the two reference engines (1,000
# springs) and on the bezier, each group against its baseline in
# data/baselines/instructions/. Counts do not move with machine noise, so
# the gate can be tight: 2% (--compare-by instructions).
#
#   scripts/instructions.sh            print the counts (bench's tables)
#   scripts/instructions.sh --save     write them as the baselines
#   scripts/instructions.sh --check    compare them with the baselines; exit 2
#                                      if a count grew by 2% or more, or an
#                                      interaction costs more than its ceiling
#
# What is counted is what `--count instructions` counts (docs/bench.md):
# the measured frames alone (for mass completion and bursts, the frame of
# the event, once a repetition), and each bezier method's loop over the
# bench's evaluations. bench reads the cost of one interaction off the
# frames (an event's frame less the steady one, over the animations it
# touches), and --max-instructions holds three of them under a ceiling, in
# every mode: a retarget in the animator 300 instructions, a replacement in
# the animator 3,000 and in the batch path 1,500.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-print}
case $mode in
    print | --save | --check) ;;
    *) echo "instructions.sh: error: unknown option '$1' (use --save or --check)" >&2; exit 64 ;;
esac

scripts/ensure-valgrind.sh >/dev/null
scripts/build-release.sh
baselines=data/baselines/instructions
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
counted=(--count instructions --warmup 2 --frames 10 --repetitions 7 --no-value-check)

# One group: its name (and baseline's), then bench's arguments. Its table
# and what bench says on stderr go to files, shown in order at the end.
group() {
    local name=$1
    shift
    local against=()
    case $mode in
        --save) against=(--save-baseline "$baselines/$name.json") ;;
        --check) against=(--baseline "$baselines/$name.json" --compare-by instructions --max-count-increase 2) ;;
    esac
    local status=0
    .build/release/kinetics bench "${counted[@]}" "$@" "${against[@]}" >"$out/$name.out" 2>"$out/$name.err" ||
        status=$?
    echo "$status" >"$out/$name.status"
}

# Two at a time (a count does not depend on what else runs): the springs
# beside the other three in turn, about as long together.
group springs --engine animator --engine batch --mix spring --animations 10000 \
    --scenario steady --scenario churn --scenario retarget-storm --scenario burst --scenario mass-completion \
    --no-bezier --max-instructions animator.retarget=300 --max-instructions animator.replacement=3000 \
    --max-instructions batch.replacement=1500 &
springs=$!
group mixed --engine animator --engine batch --mix mixed --animations 10000 --scenario steady --scenario churn
group references --engine reference --engine pop-c --mix spring --animations 1000 --scenario steady --no-bezier
group keys --engine animator-keys --engine animator-unkeyed --engine animator-springs --mix spring --animations 10000 \
    --scenario steady --scenario burst --scenario churn --no-bezier
wait "$springs"

worst=0
for name in springs mixed references keys; do
    echo "== $name"
    cat "$out/$name.out"
    cat "$out/$name.err" >&2
    status=$(cat "$out/$name.status")
    if ((status > worst)); then worst=$status; fi
done
case $mode in
    --save) ((worst == 0)) && echo "wrote $baselines/{springs,mixed,references,keys}.json" ;;
    --check) ((worst == 0)) && echo "every instruction count within 2% of $baselines, interactions under their ceilings" ;;
esac
exit "$worst"
