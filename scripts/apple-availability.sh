#!/usr/bin/env bash
# The checks that stand in for a Mac's compiler, run by .ci/run:
#
# 1. Every Swift module of the package builds at its Apple floor (the
#    `platforms:` of Package.swift). The toolchain's interfaces of the
#    standard library, Synchronization and the other modules it ships carry
#    the Apple availability of each declaration; scripts/availability/
#    AppleFloor.swift copies them with every declaration newer than the floor
#    put in a disabled availability domain, and type-checks each module of
#    the package (with the flags of the debug build, which must exist: run
#    after scripts/test.sh) against the copies. Foundation and Dispatch carry
#    no Apple availability on Linux and are not checked. A use inside
#    `if #available(macOS 15, *)` fails too: the domains are not Apple's
#    versions, so no module may reach past the floor, even guarded.
# 2. Every use of a glibc-only name in Sources is in a Glibc or Linux branch
#    of an `#if` that has another branch.
#
#   scripts/apple-availability.sh              both checks on the package
#   scripts/apple-availability.sh --self-test  both checks on the planted
#       uses in scripts/availability/fixtures: each must be caught, and the
#       fixture that stays within the floor must pass
#   scripts/apple-availability.sh --package DIR  both checks on another
#       package's own modules (one that depends on Kinetics, after its
#       debug build: scripts/consumers.sh), at this package's floor
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=.build/apple-floor
mkdir -p "$work"
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift
platform=linux

tool=$work/apple-floor
if [[ ! -x $tool || scripts/availability/AppleFloor.swift -nt $tool ]]; then
    swiftc -O scripts/availability/AppleFloor.swift -o "$tool"
fi

# The copies of the interfaces, and a resource folder that is the
# toolchain's but for them (remade when the floor or the tool changes).
# Only the platforms matter: the rest of the dump is not even in the same
# order twice (trait conditions are sets).
swift package dump-package | python3 -c 'import json, sys; print(json.dumps({"platforms": json.load(sys.stdin)["platforms"]}, sort_keys=True))' >"$work/package.json.new"
if ! cmp -s "$work/package.json.new" "$work/package.json" || [[ $tool -nt $work/sdk ]]; then
    rm -rf "$work/sdk" "$work/copies" "$work/cache"
    mv "$work/package.json.new" "$work/package.json"
    "$tool" interfaces "$work/package.json" "$toolchain/$platform" "$work/copies" \
        Swift _Concurrency Synchronization _StringProcessing RegexBuilder Observation Distributed _Differentiation
    mkdir -p "$work/sdk/$platform"
    for entry in "$toolchain"/*; do
        [[ $(basename "$entry") == "$platform" ]] || ln -s "$entry" "$work/sdk/"
    done
    for entry in "$toolchain/$platform"/*; do
        [[ -e $work/copies/$platform/$(basename "$entry") ]] || ln -s "$entry" "$work/sdk/$platform/"
    done
    cp -R "$work/copies/$platform/." "$work/sdk/$platform/"
fi
rm -f "$work/package.json.new"

if [[ ${1:-} == --self-test ]]; then
    fixtures=scripts/availability/fixtures
    status=0
    expect() { # FIXTURE OUTCOME [NAME]: compiles one fixture, compares the outcome
        local file=$1 outcome=$2 name=${3:-} output
        if output=$(swiftc -typecheck -swift-version 6 -resource-dir "$work/sdk" -I "$work/copies/floor" \
            -module-cache-path "$work/cache" "$fixtures/$file" 2>&1); then
            got=builds
        else
            got=fails
        fi
        if [[ $got == "$outcome" && ( -z $name || $output == *"'$name' is only available in"* ) ]]; then
            echo "self-test: $file $got${name:+, naming $name} (as it must)"
        else
            echo "self-test: $file $got, but it must be '$outcome${name:+ naming $name}':"
            echo "$output" | grep "error:" | head -5
            status=1
        fi
    }
    expect InlineArraySeed.swift fails InlineArray
    expect AtomicCounter.swift fails Atomic
    expect PlantedInt128.swift fails Int128
    expect WithinFloor.swift builds
    if "$tool" platform-calls "$fixtures/platform" >"$work/platform.txt"; then
        echo "self-test: the planted glibc-only uses pass the platform-call check, but must fail"
        status=1
    else
        planted=$(grep -c "outside an #if" "$work/platform.txt" || true)
        if [[ $planted == 3 ]]; then
            echo "self-test: the platform-call check finds the 3 planted unguarded uses and passes the guarded ones"
        else
            echo "self-test: the platform-call check found $planted unguarded uses, not the 3 planted:"
            cat "$work/platform.txt"
            status=1
        fi
    fi
    exit $status
fi

if [[ ${1:-} == --package ]]; then
    other=$(cd "${2:?--package needs a folder}" && pwd)
    "$tool" modules "$other/.build/debug.yaml" "$other" "$work/sdk" "$work/copies/floor" "$work/cache"
    "$tool" platform-calls "$other/Sources"
    exit 0
fi
"$tool" modules .build/debug.yaml "$root" "$work/sdk" "$work/copies/floor" "$work/cache"
"$tool" platform-calls Sources
