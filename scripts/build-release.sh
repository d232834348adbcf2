#!/usr/bin/env bash
# The one release build of this package: what the README's main command,
# the performance gates and the release artifact all run, so that CI builds
# it once. `kinetics` comes out as one binary that needs no Swift toolchain
# and no GSL on the machine it runs on:
#
# - the Swift runtime and Foundation linked statically (--static-swift-stdlib);
# - malloc-interposer's C source compiled in (the Standalone trait,
#   Package.swift), so that allocations are still counted exactly;
# - GSL linked statically, from its archives, through a pkg-config file of
#   this script's that names them (the system's names the shared library).
#
# What it still loads is the C and C++ runtime: libc, libm, libstdc++ and
# libgcc_s (scripts/artifact.sh checks that with ldd).
#
#   scripts/build-release.sh [PRODUCT...]   default: kinetics; the binaries are in .build/release
#
# KINETICS_BUILD_LOG=1 prints the build's progress as it goes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/release-flags.sh

products=("$@")
[[ ${#products[@]} -gt 0 ]] || products=(kinetics)
# Quiet when it succeeds (callers print their own results); the build's
# output on stderr when it fails.
log=.build/build-release.log
for product in "${products[@]}"; do
    if [[ -n ${KINETICS_BUILD_LOG:-} ]]; then
        swift build "${release_flags[@]}" --product "$product" >&2
    elif ! swift build "${release_flags[@]}" --product "$product" >"$log" 2>&1; then
        cat "$log" >&2
        echo "build-release.sh: error: the release build of $product failed" >&2
        exit 1
    fi
done
