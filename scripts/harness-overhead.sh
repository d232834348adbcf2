#!/usr/bin/env bash
# What the bench harness adds to an engine's frame, in instructions: the
# frames of `abi-null` (an engine that does nothing, behind the C interface)
# against the frames of the C example engine (Examples/engines/soa_springs.c,
# built as a shared library), 10,000 springs, steady, each counted by
# `kinetics bench --count instructions` (callgrind inside the harness's
# frame call: the call itself, the indirect call to tick and the engine's
# work). The harness must stay within 1% of the engine's frame
# (--max-instruction-ratio abi-null/soa-springs=0.01).
#
#   scripts/harness-overhead.sh        exit 0 within 1%, 2 above it
#
# ANIMATIONS (default 10000) sets the springs; KINETICS a kinetics binary to
# use instead of building the release one. With ANIMATIONS=10 the engine's
# frame is small and the gate fails, as a test shows.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "harness-overhead.sh: error: valgrind is not installed (apt-get install valgrind)" >&2; exit 69; }

animations=${ANIMATIONS:-10000}
# KINETICS, or the release build (made now).
kinetics=${KINETICS:-$(scripts/build-release.sh && echo .build/release/kinetics)}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cc -O2 -shared -fPIC -I Sources/CKineticsEngine/include -o "$out/libsoa_springs.so" Examples/engines/soa_springs.c -lm

# The ratio's line, and the regression when it is over, come on stderr.
"$kinetics" bench --engine-library "$out/libsoa_springs.so" --engine soa-springs --engine abi-null --mix spring \
    --scenario steady --animations "$animations" --warmup 2 --frames 10 --repetitions 7 --no-bezier --no-value-check \
    --count instructions --max-instruction-ratio abi-null/soa-springs=0.01 >/dev/null
