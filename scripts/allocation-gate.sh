#!/usr/bin/env bash
# The allocation gate that CI runs: the package benchmarks' frames of the
# animator and the batch path (steady, churn, retarget storm, mass
# completion, and a burst of adds with room reserved ahead) must allocate
# nothing in every iteration. It reads the largest
# count of each (p100 of mallocCountTotal), not a percentile: a frame that
# allocates in one iteration of twenty passes a p90 check.
#
#   scripts/allocation-gate.sh               run the benchmarks and check them
#   scripts/allocation-gate.sh --check DIR   check percentile files already written
#
# Exit status: 0 every frame allocated nothing, 1 one did (or none was measured).
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1:-}" in
    --check) directory=${2:?--check needs a folder} ;;
    "")
        directory=$PWD/.build/allocation-gate
        rm -rf "$directory"
        mkdir -p "$directory"
        # Benchmarks/ is a package of its own (package-benchmark stays out
        # of this one's graph); it shares this one's build folder, so that
        # the release build of the library is reused.
        swift package --package-path Benchmarks --scratch-path .build --allow-writing-to-directory "$directory" \
            benchmark --target KineticsBenchmarks --filter '(animator|batch)\..*' \
            --metric mallocCountTotal \
            --format histogramPercentiles --path "$directory" --no-progress >"$directory.log" 2>&1 \
            || { tail -20 "$directory.log" >&2; exit 1; }
        ;;
    *) echo "allocation-gate.sh: error: unknown option '$1' (use --check DIR)" >&2; exit 64 ;;
esac

python3 - "$directory" <<'PY'
import os, re, sys
folder = sys.argv[1]
pattern = re.compile(r"KineticsBenchmarks\.((?:animator|batch)\..+)\.mallocCountTotal\.histogram\.percentiles\.tsv$")
checked, failed = 0, []
for name in sorted(os.listdir(folder)):
    match = pattern.search(name)
    if not match:
        continue
    rows = {}
    with open(os.path.join(folder, name)) as tsv:
        for line in tsv:
            fields = line.split("\t")
            if len(fields) == 2 and fields[0].isdigit():
                rows[int(fields[0])] = int(fields[1])
    if 100 not in rows:
        failed.append(f"{match.group(1)}: no p100 in {name}")
        continue
    checked += 1
    if rows[100] != 0:
        failed.append(f"{match.group(1)}: the worst iteration allocated {rows[100]} times (p90 {rows.get(90, '?')})")
if checked == 0:
    print(f"allocation-gate: error: no animator or batch benchmark results in {folder}", file=sys.stderr)
    sys.exit(1)
for line in failed:
    print("allocation-gate: " + line, file=sys.stderr)
if failed:
    print(f"allocation-gate: error: {len(failed)} of {checked} frames allocated", file=sys.stderr)
    sys.exit(1)
print(f"allocation-gate: {checked} animator and batch frames, no allocation in any iteration (p100 = 0)")
PY
