#!/usr/bin/env bash
# The Swift example engine (Examples/engines/SwiftSprings, its own bench
# executable through BenchSuite) against the animator, in instructions a
# spring: both frames counted by `swift-springs-bench --count instructions`
# (release build, 10,000 steady springs). The example teaches how a Swift
# engine is written for speed; it must stay within MAX_RATIO (1.5) times
# the animator's instructions a spring.
#
#   scripts/swift-example.sh        exit 0 within MAX_RATIO, 2 above it
#
# MAX_RATIO=1 shows the gate failing (the example counts about 1.3 times
# the animator's instructions).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "swift-example.sh: error: valgrind is not installed (apt-get install valgrind)" >&2; exit 69; }

ratio=${MAX_RATIO:-1.5}
[[ $ratio =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "swift-example.sh: error: MAX_RATIO must be a positive number, got '$ratio'" >&2; exit 64; }
swift build -c release --product swift-springs-bench >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
.build/release/swift-springs-bench --engine animator --engine swift-springs --animations 10000 --frames 10 \
    --no-bezier --no-value-check --count instructions --format csv --output "$out/counts.csv"
# Columns: engine (1), instructions_per_frame (21).
awk -F, -v most="$ratio" '
    NR > 1 { count[$1] = $21 }
    END {
        animator = count["animator"] / 10000; example = count["swift-springs"] / 10000
        printf "instructions a spring (10,000 steady springs): animator %.2f, swift-springs %.2f, %.2f times the animator'"'"'s (at most %s)\n", animator, example, example / animator, most
        exit (animator > 0 && example / animator <= most) ? 0 : 2
    }' "$out/counts.csv"
