#!/usr/bin/env bash
# The test command of the README and of CI: installs GSL, valgrind and the
# real engines of Examples/engines/peers when they are missing (the gate's
# tests count instructions; the peer tests build the engines), then builds and
# runs every test (Swift Testing) in the debug configuration, with
# KINETICS_INTERNAL_CHECKS set: the animator checks its bookkeeping
# after every operation that changes it (Animator.checkInternally).
#
# The package's OptimizedTests trait (Package.swift): the numerical modules
# (Kinetics, KineticsReference, KineticsCompare) are built with -O and with
# every debug check kept (-assert-config Debug); the rest, the tests
# included, at -Onone. CONTRIBUTING.md has what it costs and saves.
#
# The tests that count allocations run in a second process, one at a time.
# malloc-interposer 1.6.1 frees a thread's counter block in a thread-exit
# destructor but keeps using it: a thread that exits while counting is on
# and allocates in a later destructor writes into freed memory. In the
# parallel run, with threads ending all the time, that corrupted the heap
# now and then (malloc_consolidate(): invalid chunk size). Counting only
# where nothing else runs keeps thread exits out of the counting windows.
#
#   scripts/test.sh                 everything (KINETICS_LONG_TESTS=1: at full size)
#   scripts/test.sh ARGUMENTS...    one `swift test` run with these arguments
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-gsl.sh
scripts/ensure-valgrind.sh
# The real engines' adapters, which the peer tests use (the script keeps a
# library newer than its sources); installs their Debian packages when missing.
scripts/engines/build-peers.sh .build/peers >/dev/null
# With line tables only for debug information (backtraces keep their files
# and lines; a debugger sees no variables), which a fresh build spends less
# time writing and linking (CONTRIBUTING.md, "Where the test time goes"). The
# index store stays: SwiftPM's test discovery on Linux reads it.
swift build --build-tests --traits OptimizedTests,Tools -Xswiftc -DKINETICS_INTERNAL_CHECKS -Xswiftc -gline-tables-only
if [[ $# -gt 0 ]]; then
    exec swift test --skip-build --traits OptimizedTests,Tools "$@"
fi
counting='KineticsAllocationTests\.|KineticsBenchTests\.SwiftEngineTests'
swift test --skip-build --traits OptimizedTests,Tools --skip "$counting"
swift test --skip-build --traits OptimizedTests,Tools --filter "$counting" --no-parallel
