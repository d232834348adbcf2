#!/usr/bin/env bash
# The one release build of this package: what the README's main command,
# the performance gates, the package benchmarks and the release artifact
# all run, so that CI builds it once (`-c release --traits Tools`).
#
# On Linux it then links the same objects a second time into
# .build/release/kinetics-standalone, the binary the release artifact
# carries, which needs no Swift toolchain and no GSL where it runs:
#
# - the Swift runtime and Foundation linked statically (-static-stdlib);
# - malloc-interposer's C source (from its checkout in .build/checkouts)
#   compiled and linked in where SwiftPM links the interposer's shared
#   library, which loads the Swift runtime from the toolchain (SwiftPM
#   links that product only as a shared library), so that allocations are
#   still counted exactly;
# - GSL from its archives instead of its shared libraries.
#
# The second link is kinetics' own link command, from SwiftPM's build
# manifest (.build/release.yaml), with those three changes: a link, not a
# second build. What the standalone binary still loads is the C and C++
# runtime: libc, libm, libstdc++ and libgcc_s (scripts/artifact.sh checks
# that with ldd).
#
#   scripts/build-release.sh [PRODUCT...]   default: kinetics; the binaries are in .build/release
#
# Quiet when it succeeds; KINETICS_BUILD_LOG=1 prints the build's progress.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/release-flags.sh

products=("$@")
[[ ${#products[@]} -gt 0 ]] || products=(kinetics)
log=.build/build-release.log
mkdir -p .build
for product in "${products[@]}"; do
    if [[ -n ${KINETICS_BUILD_LOG:-} ]]; then
        swift build "${release_flags[@]}" --product "$product" >&2
    elif ! swift build "${release_flags[@]}" --product "$product" >"$log" 2>&1; then
        cat "$log" >&2
        echo "build-release.sh: error: the release build of $product failed" >&2
        exit 1
    fi
done
[[ " ${products[*]} " == *" kinetics "* && $(uname -s) == Linux ]] || exit 0

# The standalone kinetics.
interposer=.build/checkouts/malloc-interposer/Sources/MallocInterposerC
objects=.build/standalone
mkdir -p "$objects"
cc -O2 -fPIC -w -c -I "$interposer/include" -o "$objects/interposer.o" "$interposer/src/interposer-unix.c"
python3 - .build/release.yaml "$PWD/$objects" <<'PYTHON'
import json, os, subprocess, sys

manifest, objects = sys.argv[1], sys.argv[2]
for line in open(manifest):
    if not line.startswith("    args: [") or '"-emit-executable"' not in line:
        continue
    arguments = json.loads(line[len("    args: "):])
    output = arguments.index("-o") + 1
    if os.path.basename(arguments[output]) != "kinetics":
        continue
    linked = []
    for argument in arguments:
        if argument == "-lMallocInterposerSwift":
            linked.append(objects + "/interposer.o")
        elif argument in ("-lgsl", "-lgslcblas"):
            linked.append("-l:lib" + argument[2:] + ".a")
        else:
            linked.append(argument)
    if objects + "/interposer.o" not in linked:
        sys.exit("build-release.sh: error: kinetics' link names no -lMallocInterposerSwift to replace")
    linked[output] = os.path.join(os.path.dirname(arguments[output]), "kinetics-standalone")
    # The objects were compiled against the shared Foundation, whose
    # libraries name what they need; its archives do not, so the link names
    # them (twice: an archive's symbols resolve only what precedes it).
    foundation = ["-lFoundation", "-lFoundationInternationalization", "-lFoundationEssentials",
                  "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
                  "-lCoreFoundation", "-lswiftSynchronization", "-lswift_RegexParser",
                  "-lswift_StringProcessing", "-lswiftDispatch", "-lswift_Concurrency", "-lstdc++"]
    linked[1:1] = ["-static-stdlib"]
    linked += foundation + foundation
    sys.exit(subprocess.run(linked).returncode)
sys.exit("build-release.sh: error: no link of kinetics in " + manifest)
PYTHON
