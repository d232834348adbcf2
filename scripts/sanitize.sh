#!/usr/bin/env bash
# Tests built and run under AddressSanitizer, in a build folder of their own
# (.build-asan), with the animator's internal checks on
# (KINETICS_INTERNAL_CHECKS, as the test command builds) and Swift's run-time
# exclusivity checks on everywhere (KINETICS_CHECKED_EXCLUSIVITY: the few
# stored properties that skip them in other builds are checked): every reader of
# untrusted input (scenario files, traces, baselines, reports, CSV; the CLI's
# hostile-file tests), the animator's suites, the property tests at their
# default sizes, the bench engines' parity tests, and the allocation tests'
# frames (churn, retarget storms, mass completion and steady ticks of every
# kind, at smaller sizes: KINETICS_ADDRESS_SANITIZER tells them that
# nothing is counted here). CI runs it.
#
#   scripts/sanitize.sh            build and run
#   scripts/sanitize.sh FILTER     another test filter (a regular expression)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-gsl.sh
# AddressSanitizer takes malloc over and malloc-interposer compiles its own
# out, so the allocation tests run their frames here without counting.
inputs='ScenarioTests|CompareTests|ReferenceDataTests|HardeningTests|InputLimitTests|AnimateCommandTests|CompareCommandTests|BenchCommandTests'
animator='KineticsTests\.(Animator|BareSpring|ClockFault|FrameClock|ImplicitAnimation|FillAndAdditive|InternalCheck|QuietCompletion|KeyRegistry|RestTest)'
filter=${1:-"^$animator|^KineticsPropertyTests\.|^KineticsAllocationTests\.|EngineParityTests/(enginesAgree|popModelsAgree)|$inputs"}
# The numerical modules at -O with every debug check kept, as the test
# command builds them (the OptimizedTests trait, Package.swift): the
# sanitizer still sees every load and store left, the bounds of unsafe
# buffers are still checked, and the tests run faster (CONTRIBUTING.md).
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan-suppressions.txt:print_suppressions=0"
swift build --build-tests --traits OptimizedTests,Tools --sanitize=address --scratch-path .build-asan -Xswiftc -DKINETICS_INTERNAL_CHECKS \
    -Xswiftc -DKINETICS_CHECKED_EXCLUSIVITY -Xswiftc -DKINETICS_ADDRESS_SANITIZER
swift test --skip-build --traits OptimizedTests,Tools --sanitize=address --scratch-path .build-asan --filter "$filter"
