#!/usr/bin/env bash
# Kinetics as a user depends on it: Examples/consumers/ against a tag made
# from HEAD, reached through a source-control URL (a file:// URL to a tagged
# clone), as `.package(url:from:)` reaches a release.
#
# 1. App (the library alone): resolving it must clone Kinetics and nothing
#    else; it builds, links and runs in debug and in release, printing the
#    values its frames reached; its module type-checks at the Apple floor.
# 2. EngineTests (a Swift engine's package whose tests use KineticsVerify,
#    with the Verify trait): resolving it must clone Kinetics, swift-numerics
#    and CSV.swift and nothing else; its tests pass.
# 3. The Bench trait (KineticsBench) is resolved only: it must bring
#    malloc-interposer and hdrhistogram-swift (which itself takes
#    swift-numerics), and nothing else.
#
#   scripts/consumers.sh            exit 0 when all hold, 1 naming what did not
#   scripts/consumers.sh --planted  the same, then the checks on two faults
#       planted in the tag's manifest, each of which they must catch:
#       argument-parser and Plot no longer behind their trait (dependencies
#       leaking into the library), and libm no longer named (a link line
#       missing for an app)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# Outside the repository: the floor check takes only a package's own
# sources, and those under a .build folder for dependencies'.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/KineticsBench/Text/KineticsBuildInfo.swift)
fail() { echo "consumers.sh: error: $*" >&2; exit 1; }

# A clone of HEAD, tagged with this version (moved there if the tag names
# another commit: the clone is this script's own).
git clone --quiet --no-hardlinks "$root" "$work/kinetics"
git -C "$work/kinetics" tag -f "v$version" >/dev/null
head=$(git -C "$work/kinetics" rev-parse HEAD)
export KINETICS_URL="file://$work/kinetics" KINETICS_VERSION="$version"

# The packages a consumer's resolution cloned, sorted, on one line.
clones() { ls "$1/.build/checkouts" | sort | tr '\n' ' ' | sed 's/ $//'; }

# Copies a consumer out of the repository, resolves it and checks its clones.
resolved() { # NAME EXPECTED-CLONES [FOLDER: a copy of NAME under another name]
    local name=${3:-$1} expected=$2 got
    rm -rf "${work:?}/$name"
    cp -R "Examples/consumers/$1" "$work/$name"
    swift package --package-path "$work/$name" resolve >"$work/$name-resolve.log" 2>&1 ||
        { tail -5 "$work/$name-resolve.log" >&2; fail "$name does not resolve against $KINETICS_URL at $version"; }
    got=$(clones "$work/$name")
    [[ $got == "$expected" ]] || fail "resolving $name cloned '$got'; it must clone '$expected' and nothing else"
    echo "$name: resolving it clones $got"
}

# Builds the app in a configuration and runs it.
app() { # CONFIGURATION [FOLDER: a copy of App]
    local start=$SECONDS output folder=$work/${2:-App}
    swift build --package-path "$folder" -c "$1" >"$folder-$1.log" 2>&1 ||
        { grep -m5 -E "error|undefined reference" "$folder-$1.log" >&2; fail "App does not build in $1"; }
    output=$("$folder/.build/$1/App")
    # The spring has settled on its target and the fade has ended: both stopped.
    [[ $output == "x 100.0 opacity 0.0 running 0" ]] ||
        fail "App in $1 printed '$output', not 'x 100.0 opacity 0.0 running 0'"
    echo "App, $1: builds in $((SECONDS - start)) s and runs: $output"
}

# The tag moved to a commit on HEAD of the clone whose Package.swift has
# EXPRESSION applied.
plant() { # DESCRIPTION SED-EXPRESSION
    git -C "$work/kinetics" checkout --quiet -B planted "$head"
    sed -i "$2" "$work/kinetics/Package.swift"
    ! git -C "$work/kinetics" diff --quiet || fail "the planted fault ($1) changed nothing in Package.swift"
    git -C "$work/kinetics" commit --quiet -am "planted: $1"
    git -C "$work/kinetics" tag -f "v$version" >/dev/null
}

resolved App "kinetics"
app debug
app release
# Its module at the floor (the checks of scripts/apple-availability.sh, on
# the consumer's own build).
scripts/apple-availability.sh --package "$work/App" | sed 's/^/App: /'

resolved EngineTests "CSV.swift kinetics swift-numerics"
start=$SECONDS
swift test --package-path "$work/EngineTests" >"$work/EngineTests.log" 2>&1 ||
    { tail -30 "$work/EngineTests.log" >&2; fail "EngineTests' tests fail"; }
echo "EngineTests: builds and passes its verification test in $((SECONDS - start)) s"

# The Bench trait, resolved only: a manifest of one dependency.
mkdir -p "$work/BenchUser/Sources/BenchUser"
cat >"$work/BenchUser/Package.swift" <<EOF
// swift-tools-version: 6.2
import PackageDescription
let package = Package(
    name: "BenchUser",
    dependencies: [.package(url: "$KINETICS_URL", from: "$version", traits: ["Bench"])],
    targets: [.target(name: "BenchUser", dependencies: [.product(name: "KineticsBench", package: "kinetics")])])
EOF
touch "$work/BenchUser/Sources/BenchUser/BenchUser.swift"
swift package --package-path "$work/BenchUser" resolve >/dev/null 2>&1 || fail "BenchUser does not resolve"
got=$(clones "$work/BenchUser")
[[ $got == "hdrhistogram-swift kinetics malloc-interposer swift-numerics" ]] ||
    fail "resolving KineticsBench's user cloned '$got'; it must clone hdrhistogram-swift (and its swift-numerics), kinetics and malloc-interposer"
echo "BenchUser: resolving it clones $got"

[[ ${1:-} == --planted ]] || exit 0
plant "argument-parser and Plot without their trait" 's/, condition: .when(traits: \["Tools"\]))/)/'
if (resolved App "kinetics" Leak) >"$work/leak.log" 2>&1; then fail "a dependency leaking into the library was not caught"; fi
echo "consumers: the planted leak is caught: $(sed -n 's/^consumers.sh: error: //p' "$work/leak.log")"
plant "libm not named" '/linkedLibrary("m"/d'
resolved App "kinetics" Unlinked >/dev/null
if (app debug Unlinked) >"$work/link.log" 2>&1; then fail "a missing link line was not caught"; fi
echo "consumers: the planted missing libm is caught: $(grep -m1 -o "undefined reference to [^ ]*" "$work/link.log" || tail -1 "$work/link.log")"
