#!/usr/bin/env bash
# DocC, warnings as errors, for every product users import and for
# KineticsEngine, which two of them export: CI's documentation stage.
#
# It documents the modules the test build made (scripts/test.sh: the Tools
# trait, the debug configuration) instead of building them again. The
# symbol graphs are extracted as `swift package generate-documentation`
# extracts them (swift-symbolgraph-extract, public symbols, extension
# blocks: the same symbols, checked for Kinetics on 2026-12-02), then docc
# converts each module's catalog. `swift package --traits Tools
# generate-documentation --target …` gives the same archives, after a
# build of its own (100 to 250 s on the 2-core machine).
#
#   scripts/docs.sh                 the archives, in .build/documentation
#   scripts/docs.sh --planted       also shows that a broken link fails it
set -euo pipefail
cd "$(dirname "$0")/.."
modules=.build/debug/Modules
if [[ ! -f $modules/KineticsCommandLine.swiftmodule ]]; then
    echo "docs.sh: no test build in .build/debug; run scripts/test.sh first" >&2
    exit 66
fi
triple=$(uname -m)-unknown-linux-gnu
# The C modules the Swift ones import: their module maps and headers.
clang=()
for map in .build/debug/*.build/module.modulemap Sources/CGSL/module.modulemap \
    .build/checkouts/*/Sources/*/include/module.modulemap; do
    # A package plugin's tools are built apart, with the same C modules.
    [[ $map == *-tool.build/* ]] || clang+=(-Xcc "-fmodule-map-file=$PWD/$map")
done
for include in Sources/C*/include .build/checkouts/*/Sources/*/include; do clang+=(-Xcc -I -Xcc "$PWD/$include"); done
out=.build/documentation

document() { # TARGET [CATALOG]
    local target=$1 catalog=${2:-Sources/$1/$1.docc} graphs=$out/symbol-graphs/$1
    rm -rf "$graphs" "$out/$target.doccarchive"
    mkdir -p "$graphs"
    swift-symbolgraph-extract -module-name "$target" -target "$triple" -I "$modules" \
        -minimum-access-level public -emit-extension-block-symbols -output-dir "$graphs" "${clang[@]}"
    local arguments=(--additional-symbol-graph-dir "$graphs" --fallback-display-name "$target"
        --fallback-bundle-identifier "$target" --output-path "$out/$target.doccarchive" --warnings-as-errors)
    [[ -d $catalog ]] && arguments=("$catalog" "${arguments[@]}")
    docc convert "${arguments[@]}" >"$out/$target.log" 2>&1 ||
        { cat "$out/$target.log" >&2; echo "docs.sh: $target: DocC warnings or errors" >&2; return 1; }
    echo "docs.sh: $target: $(find "$graphs" -name '*.symbols.json' | wc -l) symbol graphs, no warning"
}

if [[ ${1:-} == --planted ]]; then
    planted=$(mktemp -d)
    trap 'rm -rf "$planted"' EXIT
    # KineticsEngine has no catalog: one of a single page, with a link to nothing.
    mkdir -p "$planted/KineticsEngine.docc"
    printf '# ``KineticsEngine``\n\nSee ``NoSuchSymbol``.\n' >"$planted/KineticsEngine.docc/KineticsEngine.md"
    if (document KineticsEngine "$planted/KineticsEngine.docc") >"$planted/log" 2>&1; then
        echo "docs.sh: a link to a symbol that does not exist was not caught" >&2
        exit 1
    fi
    echo "docs.sh: the planted broken link is caught: $(grep -m1 -o "'NoSuchSymbol'[^.]*" "$planted/log" || tail -1 "$planted/log")"
    exit 0
fi

mkdir -p "$out"
for target in Kinetics KineticsVerify KineticsReference KineticsBench KineticsCommandLine KineticsEngine; do
    document "$target"
done
