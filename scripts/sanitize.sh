#!/usr/bin/env bash
# Tests built and run under AddressSanitizer, in a build folder of their own
# (.build-asan), with the animator's internal checks on
# (KINETICS_INTERNAL_CHECKS, as the test command builds) and Swift's run-time
# exclusivity checks on everywhere (KINETICS_CHECKED_EXCLUSIVITY: the few
# stored properties that skip them in other builds are checked): every reader of
# untrusted input (scenario files, traces, baselines, reports, CSV; the CLI's
# hostile-file tests), the animator's suites, the property tests at their
# default sizes, and the bench engines' parity tests (the frames and
# interactions the allocation tests count, on the raw-pointer columns).
# CI runs it.
#
#   scripts/sanitize.sh            build and run
#   scripts/sanitize.sh FILTER     another test filter (a regular expression)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-gsl.sh
# Not the tests that count allocations: AddressSanitizer takes malloc over,
# so the interposer cannot count (the report then says so and fails). What
# they run is run here by EngineParityTests and the animator's suites.
inputs='ScenarioTests|CompareTests|ReferenceDataTests|HardeningTests|InputLimitTests|AnimateCommandTests|CompareCommandTests|BenchCommandTests'
animator='KineticsTests\.(Animator|BareSpring|ClockFault|FrameClock|ImplicitAnimation|FillAndAdditive|InternalCheck|QuietCompletion|KeyRegistry|RestTest)'
filter=${1:-"^$animator|^KineticsPropertyTests\.|EngineParityTests/(enginesAgree|popModelsAgree)|$inputs"}
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
swift build --build-tests --sanitize=address --scratch-path .build-asan -Xswiftc -DKINETICS_INTERNAL_CHECKS \
    -Xswiftc -DKINETICS_CHECKED_EXCLUSIVITY
swift test --skip-build --sanitize=address --scratch-path .build-asan --filter "$filter"
