#!/usr/bin/env bash
# Makes sure GSL (the GNU Scientific Library) and its pkg-config file are
# installed: Kinetics cross-checks every solver against it.
# On Debian or Ubuntu, as root, installs libgsl-dev with apt-get; elsewhere
# says what to install and fails.
set -euo pipefail

if pkg-config --exists gsl 2>/dev/null; then
    exit 0
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "ensure-gsl: installing libgsl-dev with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq libgsl-dev pkg-config >/dev/null
    pkg-config --exists gsl && exit 0
fi

echo "ensure-gsl: GSL is missing. Install it (Debian/Ubuntu: sudo apt-get install libgsl-dev; macOS: brew install gsl) and run again." >&2
exit 1
