#!/usr/bin/env bash
# The public API of the library products against the last release's, with
# swift-api-digester (what `swift package diagnose-api-breaking-changes`
# runs) on the modules of the release build: the release's API was dumped
# the same way when it was cut (data/api/VERSION/MODULE.json), so nothing of
# the old release is built again. (`diagnose-api-breaking-changes` builds
# the package anew with flags of its own: 219 s here, after which the
# release build had to be made again.) A break fails the check unless
# data/api/allowed-breaks.txt lists it, one message a line exactly as the
# digester prints it and nothing else (the digester takes any other line
# for an error): for a major release, or a 0.x minor one.
#
#   scripts/api-check.sh             exit 0 with no break, 1 naming each
#   scripts/api-check.sh --planted   the check against a copy of the baseline
#                                    in which SpringParameters.settlingDuration
#                                    is named settlingTime: HEAD lacks that, so
#                                    the check must fail, and pass once the
#                                    breaks are allowed (exit 0 when both hold)
#   scripts/api-check.sh --save      writes HEAD's API as the last release's
#                                    (release.sh does, at the release's tag)
#
# Run after scripts/build-release.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(Kinetics KineticsReference KineticsVerify KineticsEngine KineticsBench KineticsCommandLine)
release=$(scripts/last-release.sh) || { echo "api-check.sh: error: no release to compare with" >&2; exit 1; }
mode=${1:-check}
work=.build/api
digester=$(dirname "$(readlink -f "$(command -v swiftc)")")/swift-api-digester
mkdir -p "$work"

# The module search paths of the release build: those of the compile of
# KineticsCommandLine, which imports every other module.
python3 - .build/release.yaml >"$work/search-paths" <<'EOF'
import json, sys
for line in open(sys.argv[1]):
    if not line.startswith("    args: ["):
        continue
    arguments = json.loads(line[len("    args: "):])
    if "-module-name" not in arguments or arguments[arguments.index("-module-name") + 1] != "KineticsCommandLine":
        continue
    index = 0
    while index < len(arguments):
        if arguments[index] in ("-I", "-Xcc", "-target", "-module-cache-path"):
            print(arguments[index])
            print(arguments[index + 1])
            index += 2
        else:
            index += 1
    break
else:
    sys.exit("api-check.sh: error: the release build has no KineticsCommandLine: run scripts/build-release.sh")
EOF
mapfile -t search <"$work/search-paths"

dump() { # FOLDER: each module's API as JSON
    mkdir -p "$1"
    for module in "${modules[@]}"; do
        "$digester" -dump-sdk -module "$module" -o "$1/$module.json" "${search[@]}" \
            -abort-on-module-fail -avoid-location -avoid-tool-args
    done
}

diagnose() { # BASELINE-FOLDER [ALLOWLIST]: the breaks of HEAD against it, one a line, less the allowed ones
    dump "$work/head"
    for module in "${modules[@]}"; do
        "$digester" -diagnose-sdk -module "$module" -input-paths "$1/$module.json" \
            -input-paths "$work/head/$module.json" -breakage-allowlist-path "${2:-data/api/allowed-breaks.txt}" \
            -o "$work/$module.txt" 2>&1 || true
        grep -v -e '^\s*$' -e '^/\*' "$work/$module.txt" | sed "s/^/$module: /" || true
    done
}

case $mode in
    --save)
        rm -rf "data/api/$release"
        dump "data/api/$release"
        echo "api-check: the API of $release in data/api/$release (${modules[*]})"
        ;;
    check)
        [[ -d data/api/$release ]] ||
            { echo "api-check.sh: error: data/api/$release is missing: the API of $release (release.sh writes it)" >&2; exit 1; }
        breaks=$(diagnose "data/api/$release")
        if [[ -n $breaks ]]; then
            echo "$breaks" >&2
            echo "api-check.sh: error: the public API breaks against $release; list an intended break in data/api/allowed-breaks.txt" >&2
            exit 1
        fi
        echo "api-check: no API break against $release (${#modules[@]} modules: ${modules[*]})"
        ;;
    --planted)
        planted=$work/planted
        rm -rf "$planted"
        cp -R "data/api/$release" "$planted"
        sed -i 's/settlingDuration/settlingTime/g' "$planted/Kinetics.json"
        breaks=$(diagnose "$planted")
        caught=$(grep -m1 "settlingTime" <<<"$breaks" || true)
        if [[ -z $caught ]]; then
            echo "$breaks" >&2
            echo "api-check.sh: error: a public function renamed in the baseline was not reported as a break" >&2
            exit 1
        fi
        echo "api-check: the planted break is caught: $caught"
        # Listed as allowed, the same breaks pass.
        sed 's/^Kinetics: //' <<<"$breaks" | grep -v '^[A-Za-z]*: ' >"$planted/allowed.txt" || true
        [[ -z $(diagnose "$planted" "$planted/allowed.txt") ]] ||
            { echo "api-check.sh: error: the breaks listed as allowed were still reported" >&2; exit 1; }
        echo "api-check: listed in an allowlist, the same breaks pass"
        ;;
    *) echo "api-check.sh: error: unknown option '$mode' (use --save or --planted)" >&2; exit 64 ;;
esac
