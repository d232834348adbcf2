#!/usr/bin/env bash
# The Swift example engine (Examples/engines/SwiftSprings, its own bench
# executable through BenchSuite) against the animator, in instructions a
# spring: both frames counted by `swift-springs-bench --count instructions`
# (release build, 10,000 steady springs). The example teaches how a Swift
# engine is written for speed; it must stay within MAX_RATIO (1.6) times
# the animator's instructions a spring.
#
#   scripts/swift-example.sh        exit 0 within MAX_RATIO, 2 above it
#
# MAX_RATIO=1 shows the gate failing (the example counts more instructions
# a spring than the animator; docs/bench.md has the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "swift-example.sh: error: valgrind is not installed (apt-get install valgrind)" >&2; exit 69; }

ratio=${MAX_RATIO:-1.6}
scripts/build-release.sh swift-springs-bench 2>/dev/null
# The ratio's line, and the regression when it is over, come on stderr.
.build/release/swift-springs-bench --engine animator --engine swift-springs --animations 10000 --frames 10 \
    --no-bezier --no-value-check --count instructions --max-instruction-ratio "swift-springs/animator=$ratio" >/dev/null
