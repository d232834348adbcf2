#!/usr/bin/env bash
# Makes sure GSL (the GNU Scientific Library) and its pkg-config file are
# installed: Kinetics cross-checks every solver against it. SwiftPM finds GSL
# through pkg-config (the CGSL target), so pkg-config itself is needed too.
# On Debian or Ubuntu, as root, installs libgsl-dev and pkg-config with
# apt-get; on macOS, gsl and pkgconf with Homebrew; elsewhere says what to
# install and fails.
set -euo pipefail

if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists gsl 2>/dev/null; then
    exit 0
fi

if [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null 2>&1; then
    echo "ensure-gsl: installing gsl and pkgconf with Homebrew" >&2
    brew install gsl pkgconf >/dev/null
    pkg-config --exists gsl && exit 0
elif command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "ensure-gsl: installing libgsl-dev with apt-get" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq libgsl-dev pkg-config >/dev/null
    pkg-config --exists gsl && exit 0
fi

echo "ensure-gsl: GSL or pkg-config is missing. Install both (Debian/Ubuntu: sudo apt-get install libgsl-dev pkg-config; macOS: brew install gsl pkgconf) and run again." >&2
exit 1
