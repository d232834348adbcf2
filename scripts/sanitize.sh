#!/usr/bin/env bash
# The tests of every reader of untrusted input (scenario files, traces,
# baselines, reports, CSV; the CLI's hostile-file tests), built and run under
# AddressSanitizer in a build folder of their own (.build-asan). CI runs it.
#
#   scripts/sanitize.sh            build and run
#   scripts/sanitize.sh FILTER     another test filter (a regular expression)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-gsl.sh
# (Not the tests that count allocations: AddressSanitizer takes malloc
# over, so the interposer cannot count; the report then says so and fails.)
filter=${1:-'ScenarioTests|CompareTests|ReferenceDataTests|HardeningTests|InputLimitTests|AnimateCommandTests|CompareCommandTests|BenchCommandTests'}
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
swift build --build-tests --sanitize=address --scratch-path .build-asan
swift test --skip-build --sanitize=address --scratch-path .build-asan --filter "$filter"
