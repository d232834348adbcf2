#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (a package of their own, built with
# -sanitize=fuzzer,address into .build-fuzz, and with KINETICS_INTERNAL_CHECKS:
# the animator checks its bookkeeping after every operation) and runs each
# for a bounded time.
#
#   scripts/fuzz.sh [SECONDS] [TARGET ...]     SECONDS per target (default 60);
#                                              TARGET: bezier, scenario, baseline, trace, animator
#   scripts/fuzz.sh --build                    only the build (CI makes it while other
#                                              stages leave a core idle)
#
# Each target starts from its committed corpus, Tests/Fuzz/TARGET, explores
# in a scratch folder, and merges back only the inputs that add coverage.
# A crash, a hang (over 10 s on one input), a failed check, a memory error
# or a leak that AddressSanitizer sees is saved as .build-fuzz/crash-TARGET-*
# (or leak-, timeout-); turn it into a regression test and fix it.
# Targets run two at a time. Exit status: 0 clean, 1 a target found a
# problem (64 an unknown target). CI runs every target for
# 20 s (without merging: CI's clone is thrown away).
set -euo pipefail
cd "$(dirname "$0")/.."

build_only=false
if [[ ${1:-} == --build ]]; then build_only=true; shift; fi
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(animator bezier scenario baseline trace)

scripts/ensure-gsl.sh
swift build --package-path Fuzz -c release --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DKINETICS_INTERNAL_CHECKS
$build_only && exit 0
# The toolchain's own leaks, as scripts/sanitize.sh suppresses them.
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"

# Let libFuzzer's own handler save a crashing input, not Swift's backtracer.
export SWIFT_BACKTRACE=enable=no
# Runs one target; its status is 1 when it found a problem.
fuzz_one() {
    local target=$1 binary dict
    case $target in
        # An operation is a byte or a few: 512 bytes are a hundred or so.
        animator) binary=FuzzAnimator dict=(-max_len=512) ;;
        bezier) binary=FuzzBezier dict=() ;;
        scenario) binary=FuzzScenario dict=(-dict=Tests/Fuzz/json.dict) ;;
        baseline) binary=FuzzBaseline dict=(-dict=Tests/Fuzz/json.dict) ;;
        trace) binary=FuzzTrace dict=(-dict=Tests/Fuzz/json.dict) ;;
        *) echo "fuzz.sh: unknown target $target (animator, bezier, scenario, baseline or trace)" >&2; return 64 ;;
    esac
    local scratch=.build-fuzz/corpus-$target log=.build-fuzz/$target.log
    mkdir -p "$scratch" "Tests/Fuzz/$target"
    if ".build-fuzz/release/$binary" "$scratch" "Tests/Fuzz/$target" "${dict[@]}" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
        -artifact_prefix=".build-fuzz/crash-$target-" >"$log" 2>&1; then
        local runs
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        if [[ "${CI:-}" != true ]]; then
            ".build-fuzz/release/$binary" -merge=1 "Tests/Fuzz/$target" "$scratch" >/dev/null 2>&1
        fi
        echo "$target: $runs inputs in ${seconds} s, no crash or hang; corpus $(ls "Tests/Fuzz/$target" | wc -l) files"
    else
        echo "$target: FOUND A PROBLEM, see $log and .build-fuzz/crash-$target-*" >&2
        grep -E "ERROR|Fatal error|precondition|SUMMARY" "$log" | head -5 >&2 || true
        return 1
    fi
}

# Two targets at a time (one per core here): each lane runs every other
# target in turn.
status=0
lanes=()
for lane in 0 1; do
    (
        lane_status=0
        for index in "${!targets[@]}"; do
            if (( index % 2 == lane )); then fuzz_one "${targets[$index]}" || lane_status=$?; fi
        done
        exit $lane_status
    ) &
    lanes+=($!)
done
for pid in "${lanes[@]}"; do
    wait "$pid" || status=$?
done
exit $status
