#!/usr/bin/env bash
# The allocation gate that CI runs: package-benchmark's own baseline check.
# Every animator and batch frame of Benchmarks/ (steady, churn, retarget
# storm, mass completion, and a burst of adds with room reserved ahead)
# carries a threshold in its configuration: its worst iteration (p100 of
# mallocCountTotal) allocates no more than in the committed baseline
# Benchmarks/.benchmarkBaselines/KineticsBenchmarks/allocations, where every
# frame allocates nothing. A percentile would not do: a frame that
# allocates in one iteration of twenty passes a p90 check.
#
#   scripts/allocation-gate.sh             check the frames against the baseline
#   scripts/allocation-gate.sh --planted   the same with one allocation planted in
#                                          one iteration of one frame: the check
#                                          must fail, or this exits 1
#   scripts/allocation-gate.sh --update    write the baseline anew
#
# Exit status: 0 no frame allocated, 2 one did (--planted: 0 when the check
# caught the planted allocation), 1 the benchmarks did not run.
set -euo pipefail
cd "$(dirname "$0")/.."

# Benchmarks/ is a package of its own (package-benchmark stays out of this
# one's graph), built in a folder of its own: a dependency's modules build
# with other flags than a root package's (its package name, its warnings
# suppressed), so sharing .build with the release build would only make
# each rebuild what the other built.
benchmark=(swift package --package-path Benchmarks --scratch-path .build-benchmarks)
frames=(--target KineticsBenchmarks --metric mallocCountTotal --no-progress)
checked='(animator|batch)\..*'
planted=animator.steady.spring.1000
log=.build-benchmarks/allocation-gate.log
mkdir -p .build-benchmarks

check() { # FILTER: the benchmarks checked
    local status=0
    "${benchmark[@]}" benchmark baseline check allocations "${frames[@]}" --filter "$1" >"$log" 2>&1 || status=$?
    if grep -q "is WITHIN the 'allocations' baseline thresholds" "$log" && ((status == 0)); then
        return 0
    elif grep -q "benchmarkThresholdRegression" "$log"; then
        # The tool's table of the frames that allocated.
        sed -n '/^Threshold deviations/,/^New baseline/p' "$log" >&2
        return 2
    fi
    tail -20 "$log" >&2
    echo "allocation-gate.sh: error: the benchmarks did not run (exit $status; $log)" >&2
    return 1
}

case "${1:-}" in
    "")
        status=0
        check "$checked" || status=$?
        if ((status == 0)); then
            echo "allocation-gate: the animator's and the batch path's frames allocated nothing in any iteration (p100 = 0)"
        fi
        exit $status
        ;;
    --planted)
        status=0
        # Only the frame planted in runs: the check of the others is the run above.
        KINETICS_PLANTED_ALLOCATION=$planted check "${planted//./\\.}" 2>/dev/null || status=$?
        if ((status == 2)) && grep -q "$planted" "$log"; then
            echo "allocation-gate: caught the allocation planted in one iteration of $planted"
            exit 0
        fi
        echo "allocation-gate.sh: error: the allocation planted in $planted was not caught (exit $status; $log)" >&2
        exit 1
        ;;
    --update)
        "${benchmark[@]}" --allow-writing-to-package-directory benchmark baseline update allocations "${frames[@]}" \
            --filter "$checked"
        ;;
    *)
        echo "allocation-gate.sh: error: unknown option '$1' (use --planted or --update)" >&2
        exit 64
        ;;
esac
