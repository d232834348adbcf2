#!/usr/bin/env bash
# The main command of the README: installs GSL when it is missing, makes the
# release build (scripts/build-release.sh: the one binary the release
# artifact is) and runs `kinetics` with the given arguments (none: the
# default report).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "kinetics.sh: the release build (minutes the first time; its log: .build/build-release.log)" >&2
scripts/build-release.sh
exec .build/release/kinetics "$@"
