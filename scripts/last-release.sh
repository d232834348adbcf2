#!/usr/bin/env bash
# The last release: its version (the first dated section of CHANGELOG.md,
# `## 0.1.0 (2026-12-02)`), or with --commit the commit it was cut from: its
# tag vVERSION, or, in a clone without tags, the commit "Release VERSION".
# Exit 1 when there has been no release.
#
#   scripts/last-release.sh [--commit]
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n -E 's/^## ([0-9]+\.[0-9]+\.[0-9]+) \([0-9]{4}-[0-9]{2}-[0-9]{2}\)$/\1/p' CHANGELOG.md | head -1)
[[ -n $version ]] || { echo "last-release.sh: no release in CHANGELOG.md" >&2; exit 1; }
if [[ ${1:-} != --commit ]]; then
    echo "$version"
    exit 0
fi
commit=$(git rev-parse -q --verify "refs/tags/v$version^{commit}" ||
    git log --format='%H %s' | awk -v subject="Release $version" 'substr($0, 42) == subject { print $1; exit }')
[[ -n $commit ]] || { echo "last-release.sh: neither a tag v$version nor a commit 'Release $version'" >&2; exit 1; }
echo "$commit"
