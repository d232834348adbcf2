#!/usr/bin/env bash
# Formats every Swift file with the toolchain's swift-format and the rules of
# .swift-format; with --lint, changes nothing and fails on any difference
# (what CI runs).
#
#   scripts/format.sh          format in place
#   scripts/format.sh --lint   check only
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Benchmarks Fuzz/Sources Package.swift Fuzz/Package.swift scripts/availability)
case "${1:-}" in
    "") swift format --in-place --recursive "${paths[@]}" ;;
    --lint) swift format lint --strict --recursive "${paths[@]}" ;;
    *) echo "format.sh: error: unknown option '$1' (use --lint)" >&2; exit 64 ;;
esac
