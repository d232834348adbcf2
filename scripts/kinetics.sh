#!/usr/bin/env bash
# The main command of the README: installs GSL when it is missing, builds the
# release configuration and runs `kinetics` with the given arguments (none:
# the default report).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-gsl.sh
swift build -c release --product kinetics >&2
exec .build/release/kinetics "$@"
