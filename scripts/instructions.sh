#!/usr/bin/env bash
# The instruction-count gate: `kinetics bench --count instructions` on the
# animator's and the batch path's frames (10,000 animations: steady
# springs and mixed animations, churn, retarget storms, bursts and mass
# completion; steady and burst again with keys made once, animator-keys,
# and with none, animator-unkeyed),
# on the two reference engines (1,000 springs) and on the
# bezier, compared with data/baselines/instructions.json. Counts do not
# move with machine noise, so the gate can be tight: 2%.
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
# What is counted is what `--count instructions` counts (docs/bench.md):
# the measured frames alone (for mass completion and bursts, the frame of
# the event, once a repetition), and each bezier method's loop over the
# bench's 65,536 x on its three curves. From the frames, per spring, the
# cost of one interaction: a retarget (a retarget-storm frame less a
# steady one: every spring is retargeted once a frame), a replacement (a
# churn frame less a steady one, over the tenth replaced), an add (the
# burst frame less a steady one, over the tenth added) and a quiet
# completion (the mass-completion frame less a steady one, over all).
#
# Ceilings (instructions per operation): a retarget in the animator 300; a
# replacement in the animator 3,000, in the batch path 1,500.
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

# The check: every count against the baseline, and the interactions
# against their ceilings. Arguments: the baseline, the new counts.
check() {
    python3 - "$1" "$2" <<'PY'
import json, sys
CEILINGS = {("animator", "retarget"): 300, ("animator", "replacement"): 3000, ("batch", "replacement"): 1500}
def load(path):
    try:
        report = json.load(open(path))
        if report.get("kind") != "kinetics-instructions" or report.get("formatVersion") != 2:
            raise ValueError("not format 2 of kinetics-instructions; save it again with --save")
        counts = {tuple(map(str, r["configuration"])): r["instructionsPerFrame"] for r in report["frames"]}
        counts.update({("bezier", r["method"]): r["instructionsPerEvaluation"] for r in report["bezier"]})
        return counts, report["operations"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"instructions.sh: error: {path}: not an instruction report ({error})", file=sys.stderr)
        sys.exit(65)
base, _ = load(sys.argv[1])
counts, operations = load(sys.argv[2])
compared = [name for name in counts if name in base]
if not compared:
    print(f"instructions.sh: error: nothing in {sys.argv[2]} is in {sys.argv[1]}", file=sys.stderr)
    sys.exit(65)
worse = [f"{' '.join(name)}: {counts[name]:.1f} > {base[name]:.1f} + 2%" for name in compared if counts[name] > base[name] * 1.02]
for r in operations:
    ceiling = CEILINGS.get((r["engine"], r["operation"]))
    if ceiling is not None and r["instructionsPerOperation"] > ceiling:
        worse.append(f"{r['engine']} {r['operation']}: {r['instructionsPerOperation']:.0f} instructions > ceiling {ceiling}")
for name in base:
    if name not in counts:
        print(f"instructions.sh: not counted this time: {' '.join(name)}", file=sys.stderr)
if worse:
    print("instructions.sh: regression: " + "; ".join(worse), file=sys.stderr)
    sys.exit(2)
print(f"{len(compared)} instruction counts within 2% of {sys.argv[1]}, interactions under their ceilings")
PY
}

if [[ $mode == compare ]]; then
    check "$file" "$now"
    exit
fi

scripts/ensure-valgrind.sh >/dev/null
swift build -c release --product kinetics >/dev/null
binary=.build/release/kinetics
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
counted=(--count instructions --warmup 2 --frames 10 --repetitions 7 --no-value-check --format json)

# The springs in every scenario; mixed animations in the steady and churn
# frames, with the bezier; the reference engines; the animator's steady and
# burst frames with its keys made once (animator-keys) and with none
# (animator-unkeyed). Two at a time (a count
# does not depend on what else runs): the springs (about 80 s here) beside
# the other two in turn (about as long together).
"$binary" bench "${counted[@]}" --engine animator --engine batch --mix spring --animations 10000 \
    --scenario steady --scenario churn --scenario retarget-storm --scenario burst --scenario mass-completion \
    --no-bezier --output "$out/springs.json" &
springs=$!
"$binary" bench "${counted[@]}" --engine animator --engine batch --mix mixed --animations 10000 \
    --scenario steady --scenario churn --output "$out/mixed.json"
"$binary" bench "${counted[@]}" --engine reference --engine pop-c --mix spring --animations 1000 \
    --scenario steady --no-bezier --output "$out/references.json"
"$binary" bench "${counted[@]}" --engine animator-keys --engine animator-unkeyed --mix spring --animations 10000 \
    --scenario steady --scenario burst --no-bezier --output "$out/keys.json"
wait "$springs"

python3 - "$out" <<'PY' >"$out/now.json"
import json, sys
folder = sys.argv[1]
frames, bezier, valgrind = [], [], None
for name in ("springs", "mixed", "references", "keys"):
    report = json.load(open(f"{folder}/{name}.json"))
    for r in report["results"]:
        c, count = r["configuration"], r["instructions"]
        valgrind = count["valgrind"]
        frames.append({"configuration": [c["engine"], c["mix"], c["scenario"], c["animations"]],
                       "instructionsPerFrame": count["instructionsPerFrame"],
                       "instructionsPerAnimation": count["instructionsPerAnimation"]})
    bezier += [{"method": b["method"], "instructionsPerEvaluation": b["instructionsPerEvaluation"]}
               for b in report.get("bezierInstructions") or []]
frame = {tuple(f["configuration"][:3]): f for f in frames}
operations = []
# (operation, scenario, the share of the animations it touches, what it is)
for operation, scenario, share, what in [
    ("retarget", "retarget-storm", 1, "a retarget-storm frame less a steady one, per spring"),
    ("replacement", "churn", 0.1, "a churn frame less a steady one, per spring replaced: a tenth"),
    ("add", "burst", 0.1, "the burst frame less a steady one, per spring added: a tenth"),
    ("completion", "mass-completion", 1, "the mass-completion frame less a steady one, per spring"),
]:
    for engine in ("animator", "batch", "animator-keys", "animator-unkeyed"):
        event, steady = frame.get((engine, "spring", scenario)), frame.get((engine, "spring", "steady"))
        if event and steady:
            touched = share * event["configuration"][3]
            cost = (event["instructionsPerFrame"] - steady["instructionsPerFrame"]) / touched
            operations.append({"engine": engine, "operation": operation, "instructionsPerOperation": round(cost, 1),
                               "derivation": what})
json.dump({"kind": "kinetics-instructions", "formatVersion": 2, "valgrind": valgrind,
           "frames": frames, "bezier": bezier, "operations": operations}, sys.stdout, indent=2)
print()
PY

python3 - "$out/now.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
for f in report["frames"]:
    engine, mix, scenario, animations = f["configuration"]
    print(f"{engine:<16} {mix:<6} {scenario:<15} {animations:>6} animations: {f['instructionsPerFrame']:>12.1f} a frame,"
          f" {f['instructionsPerAnimation']:>7.1f} an animation")
for b in report["bezier"]:
    print(f"bezier    {b['method']:<15} {b['instructionsPerEvaluation']:>8.1f} an evaluation")
for o in report["operations"]:
    print(f"{o['engine']:<16} {o['operation']:<11} {o['instructionsPerOperation']:>8.1f} an operation ({o['derivation']})")
PY

case $mode in
    save) cp "$out/now.json" "$file"; echo "wrote $file" ;;
    check) check "$file" "$out/now.json" ;;
esac
