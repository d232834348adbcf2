#!/usr/bin/env bash
# Instructions per animation per frame for the key configurations (and per
# quiet completion when 10,000 springs finish together, and per fast bezier
# evaluation), counted by valgrind's callgrind: unlike times, these do not
# change with machine noise, so they can be compared tightly. From them, the
# cost of one interaction: a retarget (a retarget storm's frame less a
# steady one: every spring is retargeted once a frame) and a replacement
# (a churn frame less a steady one, over the tenth replaced per frame). An
# add is counted directly: the engine's add function, per spring added.
#
#   scripts/instructions.sh                  print the counts
#   scripts/instructions.sh --save FILE      also write them as JSON
#   scripts/instructions.sh --check FILE     compare with FILE; exit 2 if any
#                                            count grew by more than 2%, or an
#                                            interaction costs more than its
#                                            ceiling (below)
#   scripts/instructions.sh --compare BASE NOW
#                                            only the check, of two such files
#
# Ceilings (instructions per operation): a retarget in the animator 300; a
# replacement in the animator 3,000, in the batch path 1,500.
#
# Only the engines' frame functions are counted (callgrind's toggle), over
# every frame that kinetics bench runs for the configuration: warm-up,
# measured and allocation-counted frames; for mass completion, only the
# batches' and the animator's functions that finish quiet animations; for
# the bezier, only the bench's loop of one method (fast: a table's
# solve(_:into:); fast-single: solve(_:) per x) over its 65,536 x on its
# three curves, 8 times (an untimed round and 7 repetitions).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=print
file=
now=
case "${1:-}" in
    --save) mode=save; file=${2:?--save needs a file} ;;
    --check) mode=check; file=${2:?--check needs a file} ;;
    --compare) mode=compare; file=${2:?--compare needs two files}; now=${3:?--compare needs two files} ;;
    "") ;;
    *) echo "instructions.sh: error: unknown option '$1' (use --save FILE, --check FILE or --compare BASE NOW)" >&2; exit 64 ;;
esac
for given in "$file" "$now"; do
    if [[ ( $mode == check || $mode == compare ) && -n $given && ! -f $given ]]; then
        echo "instructions.sh: error: $given: no such file" >&2
        exit 66
    fi
done

# The check: every count against the baseline, and the interactions against
# their ceilings. Arguments: the baseline, the new counts.
check() {
    python3 - "$1" "$2" <<'PY'
import json, sys
CEILINGS = {("animator", "retarget"): 300, ("animator", "replacement"): 3000, ("batch", "replacement"): 1500}
def count(r):
    return next(r[k] for k in ("instructionsPerAnimationFrame", "instructionsPerCompletion", "instructionsPerAdd", "instructionsPerEvaluation") if k in r)
def key(r):
    return (r["engine"], r.get("mix", r.get("method")), r.get("scenario", "-"), r.get("animations", 0))
def load(path):
    try:
        report = json.load(open(path))
        return [r for r in report["results"] if "operation" not in r], [r for r in report["results"] if "operation" in r]
    except (ValueError, KeyError, TypeError) as error:
        print(f"instructions.sh: error: {path}: not an instruction report ({error})", file=sys.stderr)
        sys.exit(65)
base = {key(r): count(r) for r in load(sys.argv[1])[0]}
counts, operations = load(sys.argv[2])
worse = []
for r in counts:
    name = key(r)
    if name in base and count(r) > base[name] * 1.02:
        worse.append(f"{' '.join(map(str, name))}: {count(r)} > {base[name]} + 2%")
for r in operations:
    ceiling = CEILINGS.get((r["engine"], r["operation"]))
    if ceiling is not None and r["instructionsPerOperation"] > ceiling:
        worse.append(f"{r['engine']} {r['operation']}: {r['instructionsPerOperation']} instructions > ceiling {ceiling}")
if worse:
    print("instructions.sh: regression: " + "; ".join(worse), file=sys.stderr)
    sys.exit(2)
print("instruction counts within 2% of " + sys.argv[1] + ", interactions under their ceilings")
PY
}

if [[ $mode == compare ]]; then
    check "$file" "$now"
    exit
fi
command -v valgrind >/dev/null || { echo "instructions.sh: error: valgrind is not installed (apt-get install valgrind)" >&2; exit 69; }

swift build -c release --product kinetics >/dev/null
# valgrind 3.19 cannot read the DWARF 5 that clang writes for the C target
# ("possibly corrupted debuginfo file"); callgrind needs only the symbol
# table, so it runs a copy without debug information (beside the original,
# whose run path finds the package's shared libraries).
binary=.build/release/kinetics-callgrind
objcopy --strip-debug .build/release/kinetics "$binary"
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
    "animator spring retarget-storm 10000"
    "batch spring retarget-storm 10000"
    "animator spring burst 10000"
    "batch spring burst 10000"
    "reference spring steady 1000"
    "pop-c spring steady 1000"
    "animator spring mass-completion 10000"
    "bezier fast - 0"
    "bezier fast-single - 0"
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
        pop-c) symbols=(--toggle-collect='*CEngineC5frame_2at*') ;;
    esac
    # Mass completion: only the work of finishing quietly (the batches'
    # removal and the animator's retirement), per completion; every
    # repetition and the allocation-counted run finish all the animations.
    metric=instructionsPerAnimationFrame
    divisor=$((total_frames * count))
    unit="per animation per frame"
    if [[ $scenario == mass-completion ]]; then
        # The animator's function itself (its name ends in yyF): a closure
        # inside it that the compiler outlines would match a looser pattern
        # and, being nested, toggle the collection off while it runs.
        symbols=(--toggle-collect='*finishQuietly*' --toggle-collect='*AnimatorC21retireQuietlyFinishedyyF')
        metric=instructionsPerCompletion
        divisor=$(((repetitions + 1) * count))
        unit="per quiet completion"
    fi
    # Burst: only the engine's add of a spring (Animator.add for a Double,
    # BatchSet.addSpring), per spring added: every repetition and the
    # allocation-counted run build an engine afresh, adding the workload's
    # springs, then the burst's tenth more. The animator's add renders the
    # spring's first frame; the batch path's leaves it to the next tick.
    # (The library's functions, not the bench's: the harness's frame is
    # left as the timed runs have it.)
    if [[ $scenario == burst ]]; then
        case $engine in
            animator) symbols=(--toggle-collect='*AnimatorC3add_2to6forKey*Sd_Ts5') ;;
            batch) symbols=(--toggle-collect='*BatchSetC9addSpring4slot4from2to8velocity10parameters6method9thresholds5Int32VAM_S3d*') ;;
        esac
        metric=instructionsPerAdd
        divisor=$(((repetitions + 1) * (count + count / 10)))
        unit="per spring added"
    fi
    arguments=(--engine "$engine" --mix "$mix" --scenario "$scenario" --animations "$count"
        --warmup "$warmup" --frames "$frames" --repetitions "$repetitions" --no-bezier --no-value-check)
    if [[ $engine == bezier ]]; then
        # The bench's own function for the method (mix names it), with one
        # small frame measurement beside it.
        case $mix in
            fast) symbols=(--toggle-collect='*BezierB0O13evaluateTableyy*') ;;
            fast-single) symbols=(--toggle-collect='*BezierB0O19evaluateTableSinglyyy*') ;;
        esac
        metric=instructionsPerEvaluation
        divisor=$(((repetitions + 1) * 65536 * 3))
        unit="per evaluation"
        arguments=(--engine animator --animations 1 --warmup 1 --frames 1 --repetitions "$repetitions")
    fi
    valgrind --tool=callgrind "${symbols[@]}" --callgrind-out-file="$out/cg" \
        "$binary" bench "${arguments[@]}" >/dev/null 2>"$out/log"
    total=$(callgrind_annotate "$out/cg" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    if [[ -z $total || $total == 0 ]]; then
        echo "instructions.sh: error: nothing counted for '$configuration' (a renamed function?)" >&2
        exit 1
    fi
    per=$(awk -v t="$total" -v d="$divisor" 'BEGIN { printf "%.1f", t / d }')
    if [[ $engine == bezier ]]; then
        printf '%-9s %-31s %8s instructions %s\n' "$engine" "$mix" "$per" "$unit"
        lines+=("{\"engine\": \"bezier\", \"method\": \"$mix\", \"$metric\": $per}")
    else
        printf '%-9s %-6s %-15s %7d animations: %8s instructions %s\n' \
            "$engine" "$mix" "$scenario" "$count" "$per" "$unit"
        lines+=("{\"engine\": \"$engine\", \"mix\": \"$mix\", \"scenario\": \"$scenario\", \"animations\": $count, \"$metric\": $per}")
    fi
done

# The interactions, from the frames: a retarget storm retargets every
# spring once a frame; churn replaces a tenth of them.
declare -A spring_frames
for line in "${lines[@]}"; do
    read -r engine mix scenario value < <(python3 -c 'import json, sys
r = json.loads(sys.argv[1])
print(r["engine"], r.get("mix", "-"), r.get("scenario", "-"), r.get("instructionsPerAnimationFrame", 0))' "$line")
    [[ $mix == spring ]] && spring_frames["$engine $scenario"]=$value
done
interaction() {  # engine operation scenario fraction description
    local frame=${spring_frames["$1 $3"]:-} steady=${spring_frames["$1 steady"]:-}
    [[ -n $frame && -n $steady ]] || return 0
    local cost
    cost=$(awk -v f="$frame" -v s="$steady" -v d="$4" 'BEGIN { printf "%.0f", (f - s) / d }')
    printf '%-9s %-11s %6s instructions per operation (%s)\n' "$1" "$2" "$cost" "$5"
    lines+=("{\"engine\": \"$1\", \"operation\": \"$2\", \"instructionsPerOperation\": $cost}")
}
interaction animator retarget retarget-storm 1 "a retarget-storm frame less a steady one, per spring"
interaction batch retarget retarget-storm 1 "a retarget-storm frame less a steady one, per spring"
interaction animator replacement churn 0.1 "a churn frame less a steady one, per spring replaced: a tenth"
interaction batch replacement churn 0.1 "a churn frame less a steady one, per spring replaced: a tenth"

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
        check "$file" "$out/now.json"
        ;;
esac
