#!/usr/bin/env bash
# Cuts a release: scripts/release.sh VERSION
#
# Before it, CHANGELOG.md has a section `## VERSION` (the entries of
# `## Unreleased` moved under it: Added, Changed, Fixed). The script
#
# 1. refuses, with one line naming the problem: a VERSION that is not
#    MAJOR.MINOR.PATCH, one not above the last release, a tag vVERSION
#    that exists, a working tree with changes, a CHANGELOG without the
#    section or with an empty one;
# 2. sets the version in Sources/KineticsBench/Text/KineticsBuildInfo.swift
#    and the section's date, commits "Release VERSION", tags vVERSION;
# 3. builds the release at the tag (scripts/build-release.sh) and packs the
#    artifacts into .build/artifacts (scripts/artifact.sh --pack): the
#    tarball, its .sha256 and the wheel, to upload to the release vVERSION;
# 4. writes the public API of the library products at the tag into
#    data/api/ (the baseline CI's API check compares with) and commits it.
#
# Pushing the commits and the tag, and uploading, are left to the person
# releasing. Exit status: 0 released, 64 a VERSION that is not one, 1 a
# refusal (the line says which).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-}
refuse() { echo "release.sh: error: $*" >&2; exit 1; }

if ! [[ $version =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]]; then
    echo "release.sh: error: '$version' is not a version MAJOR.MINOR.PATCH (semantic versioning, no leading zeros)" >&2
    exit 64
fi
last=$(scripts/last-release.sh 2>/dev/null || true)
if [[ -n $last ]]; then
    highest=$(printf '%s\n%s\n' "$last" "$version" | sort -t. -k1,1n -k2,2n -k3,3n | tail -1)
    [[ $highest == "$version" && $version != "$last" ]] || refuse "$version is not above the last release, $last"
fi
git rev-parse -q --verify "refs/tags/v$version" >/dev/null && refuse "the tag v$version exists already"
[[ -z $(git status --porcelain) ]] || refuse "the working tree has changes; commit or stash them first"
section=$(awk -v heading="## $version" '$0 == heading || index($0, heading " ") == 1 { found = 1; next } /^## / { found = 0 } found' CHANGELOG.md)
grep -q -E "^## $version( |$)" CHANGELOG.md || refuse "CHANGELOG.md has no section '## $version'"
grep -q '[^[:space:]]' <<<"$section" || refuse "CHANGELOG.md's section '## $version' is empty"

date=$(date -u +%Y-%m-%d)
sed -i -E "s/^## $version( .*)?\$/## $version ($date)/" CHANGELOG.md
sed -i -E "s/(static let version = )\"[^\"]*\"/\\1\"$version\"/" Sources/KineticsBench/Text/KineticsBuildInfo.swift
git add CHANGELOG.md Sources/KineticsBench/Text/KineticsBuildInfo.swift
git commit -q -m "Release $version" -m "The version in the tool and the changelog's section dated $date."
git tag -a "v$version" -m "Kinetics $version"
echo "release: committed and tagged v$version"

# The artifacts from the tag's commit (the binary's --version names it).
scripts/build-release.sh
scripts/artifact.sh --pack

scripts/api-check.sh --save
git add data/api
git commit -q -m "API baseline of $version" -m "The public API of the library products at v$version, which CI's API check compares HEAD with."
echo "release: committed the API baseline of v$version"
echo "release: v$version is ready: push the commits and the tag, and upload .build/artifacts/kinetics-$version-*"
