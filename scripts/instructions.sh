#!/usr/bin/env bash
# Instructions per animation per frame for the key configurations (and per
# quiet completion when 10,000 springs finish together), counted by
# valgrind's callgrind: unlike times, these do not change with machine noise,
# so they can be compared tightly.
#
#   scripts/instructions.sh                  print the counts
#   scripts/instructions.sh --save FILE      also write them as JSON
#   scripts/instructions.sh --check FILE     compare with FILE; exit 2 if any
#                                            count grew by more than 2%
#
# Only the engines' frame functions are counted (callgrind's toggle), over
# every frame that kinetics bench runs for the configuration: warm-up,
# measured and allocation-counted frames; for mass completion, only the
# batches' and the animator's functions that finish quiet animations.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=print
file=
case "${1:-}" in
    --save) mode=save; file=${2:?--save needs a file} ;;
    --check) mode=check; file=${2:?--check needs a file} ;;
    "") ;;
    *) echo "instructions.sh: error: unknown option '$1' (use --save FILE or --check FILE)" >&2; exit 64 ;;
esac
if [[ $mode == check && ! -f $file ]]; then
    echo "instructions.sh: error: $file: no such file" >&2
    exit 66
fi
command -v valgrind >/dev/null || { echo "instructions.sh: error: valgrind is not installed (apt-get install valgrind)" >&2; exit 69; }

swift build -c release --product kinetics >/dev/null
binary=.build/release/kinetics
# The same hash seed every run, so that dictionary work repeats exactly.
export SWIFT_DETERMINISTIC_HASHING=1
warmup=2
frames=10
repetitions=7
counted=3   # the frames kinetics bench counts allocations over
total_frames=$((warmup + frames * repetitions + counted))

# engine mix scenario animations
configurations=(
    "animator spring steady 10000"
    "batch spring steady 10000"
    "animator mixed steady 10000"
    "batch mixed steady 10000"
    "animator spring churn 10000"
    "batch spring churn 10000"
    "reference spring steady 1000"
    "animator spring mass-completion 10000"
)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lines=()
for configuration in "${configurations[@]}"; do
    read -r engine mix scenario count <<<"$configuration"
    case $engine in
        animator) symbols=(--toggle-collect='*AnimatorEngineC5frame_2at*') ;;
        batch) symbols=(--toggle-collect='*BatchEngineC5frame_2at*') ;;
        reference) symbols=(--toggle-collect='*ReferenceEngineC5frame_2at*') ;;
    esac
    # Mass completion: only the work of finishing quietly (the batches'
    # removal and the animator's retirement), per completion; every
    # repetition and the allocation-counted run finish all the animations.
    metric=instructionsPerAnimationFrame
    divisor=$((total_frames * count))
    unit="per animation per frame"
    if [[ $scenario == mass-completion ]]; then
        symbols=(--toggle-collect='*finishQuietly*' --toggle-collect='*retireQuietlyFinished*')
        metric=instructionsPerCompletion
        divisor=$(((repetitions + 1) * count))
        unit="per quiet completion"
    fi
    valgrind --tool=callgrind "${symbols[@]}" --callgrind-out-file="$out/cg" \
        "$binary" bench --engine "$engine" --mix "$mix" --scenario "$scenario" --animations "$count" \
        --warmup "$warmup" --frames "$frames" --repetitions "$repetitions" --no-bezier >/dev/null 2>"$out/log"
    total=$(callgrind_annotate "$out/cg" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    per=$(awk -v t="$total" -v d="$divisor" 'BEGIN { printf "%.1f", t / d }')
    printf '%-9s %-6s %-15s %7d animations: %8s instructions %s\n' \
        "$engine" "$mix" "$scenario" "$count" "$per" "$unit"
    lines+=("{\"engine\": \"$engine\", \"mix\": \"$mix\", \"scenario\": \"$scenario\", \"animations\": $count, \"$metric\": $per}")
done

json="{\"kind\": \"kinetics-instructions\", \"formatVersion\": 1, \"valgrind\": \"$(valgrind --version)\", \"results\": ["
for index in "${!lines[@]}"; do
    [[ $index -gt 0 ]] && json+=", "
    json+="${lines[$index]}"
done
json+="]}"

case $mode in
    save) printf '%s\n' "$json" | python3 -m json.tool >"$file"; echo "wrote $file" ;;
    check)
        printf '%s\n' "$json" >"$out/now.json"
        python3 - "$file" "$out/now.json" <<'PY'
import json, sys
def count(r):
    return r.get("instructionsPerAnimationFrame", r.get("instructionsPerCompletion"))
base = {(r["engine"], r["mix"], r["scenario"], r["animations"]): count(r)
        for r in json.load(open(sys.argv[1]))["results"]}
worse = []
for r in json.load(open(sys.argv[2]))["results"]:
    key = (r["engine"], r["mix"], r["scenario"], r["animations"])
    if key in base and count(r) > base[key] * 1.02:
        worse.append(f"{' '.join(map(str, key))}: {count(r)} > {base[key]} + 2%")
if worse:
    print("instructions.sh: regression: " + "; ".join(worse), file=sys.stderr)
    sys.exit(2)
print("instruction counts within 2% of " + sys.argv[1])
PY
        ;;
esac
