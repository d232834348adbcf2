#!/usr/bin/env bash
# The test command of the README and of CI: installs GSL when it is missing,
# then builds and runs every test (Swift Testing) in the debug configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-gsl.sh
swift build --build-tests
swift test --skip-build "$@"
