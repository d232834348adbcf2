#!/usr/bin/env bash
# What of the GitHub Action (action.yml) can run without GitHub: its install
# step's shell, as a runner would run it (GITHUB_ACTION_PATH, GITHUB_PATH,
# GITHUB_OUTPUT, the inputs in the environment), against a release folder
# served from a file:// URL laid out as GitHub's (vVERSION/NAME), after
# scripts/artifact.sh has packed the artifacts. It checks that
#
# - the release's kinetics lands on the PATH the step writes, and reports
#   the version;
# - a second run uses the folder already there (what the cache restores);
# - an artifact whose checksum does not match is refused (exit 65);
# - with no artifact for the version and no Swift to build one, the step
#   fails saying so (exit 69).
#
#   scripts/action-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/KineticsBench/Text/KineticsBuildInfo.swift)
name=kinetics-$version-linux-$(uname -m).tar.gz
fail() { echo "action-check.sh: error: $*" >&2; exit 1; }
[[ -f .build/artifacts/$name ]] || fail ".build/artifacts/$name is missing: run scripts/artifact.sh first"
python3 -c 'import yaml' 2>/dev/null || python3 -m pip install --quiet pyyaml

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/releases/v$version"
cp ".build/artifacts/$name" ".build/artifacts/$name.sha256" "$work/releases/v$version/"
# The install step's script, as action.yml has it.
python3 - action.yml >"$work/step.sh" <<'EOF'
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["runs"]["steps"]
print(next(step for step in steps if step.get("id") == "install")["run"])
EOF

step() { # VERSION BASE-URL HOME [PATH]: runs the step; its status
    local status=0
    : >"$work/path" && : >"$work/output"
    env -i HOME="$3" PATH="${4:-$PATH}" GITHUB_ACTION_PATH="$root" GITHUB_PATH="$work/path" \
        GITHUB_OUTPUT="$work/output" KINETICS_VERSION="$1" KINETICS_BASE_URL="$2" \
        bash -e "$work/step.sh" >"$work/step.log" 2>&1 || status=$?
    return $status
}

step "$version" "file://$work/releases" "$work/home" || { cat "$work/step.log"; fail "the install step failed"; }
folder=$(cat "$work/path")
[[ $("$folder/kinetics" --version) == "$version "* ]] || fail "$folder/kinetics does not report $version"
grep -q "^path=$folder\$" "$work/output" || fail "the step's output 'path' is not $folder"
[[ -f $folder/include/kinetics_engine.h ]] && grep -q "^include=$folder/include\$" "$work/output" ||
    fail "the step gives no include folder with kinetics_engine.h"
echo "action: installed $("$folder/kinetics" --version) into $folder (on the PATH the step writes)"

step "$version" "file:///nowhere" "$work/home" || { cat "$work/step.log"; fail "a second run did not use the folder there"; }
grep -q "is in $folder already" "$work/step.log" || fail "a second run fetched again: $(cat "$work/step.log")"
echo "action: a second run keeps the installed (cached) folder, fetching nothing"

cp -R "$work/releases" "$work/tampered"
echo "0000000000000000000000000000000000000000000000000000000000000000  $name" >"$work/tampered/v$version/$name.sha256"
status=0
step "$version" "file://$work/tampered" "$work/other" || status=$?
[[ $status == 65 ]] && grep -q "its .sha256 says 0000" "$work/step.log" ||
    { cat "$work/step.log"; fail "a checksum that does not match gave exit $status, not 65"; }
echo "action: an artifact whose checksum does not match is refused (exit 65)"

status=0
step 99.0.0 "file://$work/releases" "$work/other" /usr/bin:/bin || status=$?
[[ $status == 69 ]] && grep -q "building from source needs Swift" "$work/step.log" ||
    { cat "$work/step.log"; fail "no artifact and no Swift gave exit $status, not 69"; }
echo "action: no artifact for the version and no Swift: exit 69, saying what building from source needs"
