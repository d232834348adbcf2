#!/usr/bin/env bash
# What the bench harness adds to an engine's frame, in instructions: the
# frames of `abi-null` (an engine that does nothing, behind the C interface)
# against the frames of the C example engine (Examples/engines/soa_springs.c,
# built as a shared library), 10,000 springs, steady, each counted by
# `kinetics bench --count instructions` (callgrind inside the harness's
# frame call: the call itself, the indirect call to tick and the engine's
# work). The harness must stay under 1% of the engine's frame.
#
#   scripts/harness-overhead.sh        exit 0 under 1%, 2 at or above it
#
# ANIMATIONS (default 10000) sets the springs; KINETICS a kinetics binary to
# use instead of building the release one. With ANIMATIONS=10 the engine's
# frame is small and the gate fails, as a test shows.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "harness-overhead.sh: error: valgrind is not installed (apt-get install valgrind)" >&2; exit 69; }

animations=${ANIMATIONS:-10000}
kinetics=${KINETICS:-}
if [[ -z $kinetics ]]; then
    swift build -c release --product kinetics >/dev/null
    kinetics=.build/release/kinetics
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -O2 -shared -fPIC -I Sources/CKineticsEngine/include -o "$out/libsoa_springs.so" Examples/engines/soa_springs.c -lm

"$kinetics" bench --engine-library "$out/libsoa_springs.so" --engine soa-springs --engine abi-null --mix spring \
    --scenario steady --animations "$animations" --warmup 2 --frames 10 --repetitions 7 --no-bezier --no-value-check \
    --count instructions --format json --output "$out/counts.json"
python3 - "$out/counts.json" "$animations" <<'PY'
import json, sys
report, animations = json.load(open(sys.argv[1])), int(sys.argv[2])
frame = {r["configuration"]["engine"]: r["instructions"]["instructionsPerFrame"] for r in report["results"]}
engine, harness = frame["soa-springs"], frame["abi-null"]
share = harness / engine * 100
print(f"harness: {harness:.1f} instructions per frame; soa-springs ({animations:,} springs): "
      f"{engine:.1f} per frame; the harness is {share:.3f}% of it")
if share >= 1:
    print("harness-overhead.sh: the harness is 1% or more of the engine's frame", file=sys.stderr)
    sys.exit(2)
PY
