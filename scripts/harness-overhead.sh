#!/usr/bin/env bash
# What the bench harness adds to an engine's frame, in instructions: the
# frames of `abi-null` (an engine that does nothing, behind the C interface)
# against the frames of the C example engine (Examples/engines/soa_springs.c,
# built as a shared library), 10,000 springs, steady, counted by callgrind
# over every frame kinetics bench runs (only the harness's frame function
# and what it calls: the indirect call to tick and the engine's work). The
# harness must stay under 1% of the engine's frame.
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
# As in instructions.sh: callgrind reads the symbol table of a copy without
# DWARF 5, which valgrind 3.19 cannot read; the copy stays beside the
# original, whose run path finds the package's shared libraries.
binary="$kinetics-callgrind"
objcopy --strip-debug "$kinetics" "$binary"
cc -O2 -shared -fPIC -I Sources/CPopModel/include -o "$out/libsoa_springs.so" Examples/engines/soa_springs.c -lm

frames=$((2 + 10 * 7 + 3))   # warm-up, 7 repetitions of 10, allocation-counted
count() {
    valgrind --tool=callgrind --toggle-collect='*CEngineC5frame_2at*' --callgrind-out-file="$out/cg" \
        "$binary" bench --engine-library "$out/libsoa_springs.so" --engine "$1" --mix spring --scenario steady \
        --animations "$animations" --warmup 2 --frames 10 --repetitions 7 --no-bezier --no-value-check >/dev/null 2>"$out/log"
    local total
    total=$(callgrind_annotate "$out/cg" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    if ! [[ $total =~ ^[0-9]+$ ]] || [[ $total == 0 ]]; then
        echo "harness-overhead.sh: error: nothing counted for $1: $(grep -v '^==' "$out/log" | tail -1)" >&2
        exit 1
    fi
    echo "$total"
}
# The library's engine is measured beside abi-null; each run counts both,
# so each is run alone with --engine and its own frames are the total.
engine=$(count soa-springs)
harness=$(count abi-null)
python3 - "$engine" "$harness" "$frames" "$animations" <<'PY'
import sys
engine, harness, frames, animations = (int(v) for v in sys.argv[1:5])
share = harness / engine * 100
print(f"harness: {harness / frames:.1f} instructions per frame; soa-springs ({animations:,} springs): "
      f"{engine / frames:.1f} per frame; the harness is {share:.3f}% of it")
if share >= 1:
    print("harness-overhead.sh: the harness is 1% or more of the engine's frame", file=sys.stderr)
    sys.exit(2)
PY
