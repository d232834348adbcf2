#!/usr/bin/env bash
# The test command of the README and of CI: installs GSL and valgrind when
# they are missing (the gate's tests count instructions), then builds and
# runs every test (Swift Testing) in the debug configuration, with
# KINETICS_INTERNAL_CHECKS set: the animator checks its bookkeeping
# after every operation that changes it (Animator.checkInternally).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-gsl.sh
scripts/ensure-valgrind.sh
swift build --build-tests -Xswiftc -DKINETICS_INTERNAL_CHECKS
swift test --skip-build "$@"
