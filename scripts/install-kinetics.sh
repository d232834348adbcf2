#!/usr/bin/env bash
# Puts a release's `kinetics` in a folder and prints the folder: what the
# GitHub Action (action.yml) runs, and what anyone can run in a shell.
#
#   scripts/install-kinetics.sh --version 0.2.0 [--base-url URL] [--into DIR] [--source DIR]
#
# It downloads kinetics-VERSION-linux-ARCH.tar.gz and its .sha256 from
# BASE-URL/vVERSION/ (default: the repository's GitHub releases; a file://
# URL works too), checks the checksum, unpacks it into DIR/VERSION (default
# ~/.kinetics) and checks that the binary runs and reports VERSION. A folder
# that already holds that version is used as it is (the Action caches it).
# Where no artifact fits the machine (not Linux, an architecture without
# one, or none published), it builds from the source in --source (the
# Action's own checkout, at the release's tag) with Swift, and says so.
#
# Exit status: 0 the folder is printed; 64 usage; 65 a checksum that does
# not match or a binary of another version; 69 nothing fits and Swift is
# missing.
set -euo pipefail

version="" base="https://github.com/OWNER/kinetics/releases/download" into="$HOME/.kinetics" source=""
while (($#)); do
    case $1 in
        --version) version=${2:?}; shift 2 ;;
        --base-url) base=${2:?}; shift 2 ;;
        --into) into=${2:?}; shift 2 ;;
        --source) source=${2:?}; shift 2 ;;
        *) echo "install-kinetics.sh: error: unknown argument '$1'" >&2; exit 64 ;;
    esac
done
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    { echo "install-kinetics.sh: error: --version must be MAJOR.MINOR.PATCH, got '$version'" >&2; exit 64; }
say() { echo "install-kinetics: $*" >&2; }
folder=$into/$version

# The binary in FOLDER reports VERSION.
reports() { [[ -x $1/kinetics ]] && "$1/kinetics" --version 2>/dev/null | grep -q "^$version "; }

if reports "$folder"; then
    say "kinetics $version is in $folder already"
    echo "$folder"
    exit 0
fi

system=$(uname -s) machine=$(uname -m)
name=kinetics-$version-linux-$machine.tar.gz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ $system == Linux ]] && curl -fsSL "$base/v$version/$name" -o "$work/$name" 2>"$work/curl.log" &&
    curl -fsSL "$base/v$version/$name.sha256" -o "$work/$name.sha256" 2>>"$work/curl.log"; then
    expected=$(cut -d' ' -f1 "$work/$name.sha256")
    actual=$(sha256sum "$work/$name" | cut -d' ' -f1)
    if [[ $expected != "$actual" ]]; then
        say "error: $name has SHA-256 $actual; its .sha256 says $expected"
        exit 65
    fi
    rm -rf "$folder"
    mkdir -p "$folder"
    tar -xzf "$work/$name" -C "$folder" --strip-components 1
    if ! reports "$folder"; then
        say "error: the kinetics in $name does not run here or is not $version: $("$folder/kinetics" --version 2>&1 | head -1)"
        exit 65
    fi
    say "kinetics $version for linux-$machine, checksum $actual, in $folder"
    echo "$folder"
    exit 0
fi

# No artifact fits: build it.
why="no artifact for $system $machine"
[[ $system == Linux ]] && why="could not fetch $base/v$version/$name ($(tail -1 "$work/curl.log"))"
if [[ -z $source ]] || ! command -v swift >/dev/null; then
    say "error: $why, and building from source needs Swift 6.2 or later and --source (docs/install.md says how)"
    exit 69
fi
say "$why: building kinetics $version from $source with $(swift --version 2>&1 | head -1)"
(cd "$source" && scripts/build-release.sh >&2)
mkdir -p "$folder/include"
# On Linux the standalone binary (scripts/build-release.sh): the other
# loads the interposer's library from beside it and the runtime from the
# toolchain.
built=$source/.build/release/kinetics
[[ -x $built-standalone ]] && built=$built-standalone
cp "$built" "$folder/kinetics"
cp "$source/Sources/CKineticsEngine/include/kinetics_engine.h" "$folder/include/"
reports "$folder" || { say "error: the build in $source is not kinetics $version"; exit 65; }
echo "$folder"
