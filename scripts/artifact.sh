#!/usr/bin/env bash
# The tool as a release artifact, made from the release build
# (scripts/build-release.sh) and checked as a user without Swift would use it:
#
#   scripts/artifact.sh            packs and checks; prints what it made
#   scripts/artifact.sh --pack     packs only
#
# It makes, in .build/artifacts:
# - kinetics-VERSION-linux-ARCH.tar.gz: kinetics-VERSION-linux-ARCH/ holding
#   `kinetics` (its debug information stripped), include/kinetics_engine.h
#   (the C interface of an engine library), README.md (how to run it) and
#   LICENSES/ (this project's, GSL's, malloc-interposer's and the Swift
#   runtime's), and its
#   .sha256 (`sha256sum -c` reads it);
# - the wheel that carries the same binary (scripts/wheel.py).
#
# The check: `ldd` may list only the C and C++ runtime (libc, libm,
# libstdc++, libgcc_s and the loader); then, in a mount namespace where the
# Swift toolchain's folder and GSL's shared libraries are hidden (empty
# folders and /dev/null mounted over them; needs root), the unpacked binary
# runs the default report, summary, verify, compare, bench with an engine
# library (in a worker process, counting allocations exactly: Pop's model
# allocates once a frame, the animator never), gate, and bench --count
# instructions under valgrind; and the wheel, installed with pip into a
# fresh virtual environment, runs `kinetics summary` from there.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/KineticsBench/Text/KineticsBuildInfo.swift)
machine=$(uname -m)
name=kinetics-$version-linux-$machine
out=.build/artifacts
binary=.build/release/kinetics-standalone
fail() { echo "artifact.sh: error: $*" >&2; exit 1; }
[[ -x $binary ]] || fail "$binary is missing: run scripts/build-release.sh first"

# Pack.
rm -rf "${out:?}/$name" "$out/$name.tar.gz" "$out/$name.tar.gz.sha256" "$out"/kinetics-"$version"-*.whl
mkdir -p "$out/$name/LICENSES" "$out/$name/include"
# The C interface an engine library implements (kinetics bench and gate
# --engine-library), so that an engine builds against the release it runs in.
cp Sources/CKineticsEngine/include/kinetics_engine.h "$out/$name/include/"
# Debug information out; the symbol table stays: --count instructions
# finds the measured frame in callgrind by its function's name.
strip --strip-debug -o "$out/$name/kinetics" "$binary"
cp LICENSE "$out/$name/LICENSES/kinetics-Apache-2.0.txt"
cp /usr/share/doc/libgsl27/copyright "$out/$name/LICENSES/gsl-copyright.txt" 2>/dev/null ||
    cp /usr/share/doc/libgsl-dev/copyright "$out/$name/LICENSES/gsl-copyright.txt"
cp .build/checkouts/malloc-interposer/LICENSE "$out/$name/LICENSES/malloc-interposer-LICENSE.txt"
cp .build/checkouts/malloc-interposer/NOTICE "$out/$name/LICENSES/malloc-interposer-NOTICE.txt"
swift_root=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
for file in "$swift_root"/share/swift/LICENSE.txt "$swift_root"/../LICENSE.txt; do
    [[ -f $file ]] && { cp "$file" "$out/$name/LICENSES/swift-LICENSE.txt"; break; }
done
cat >"$out/$name/README.md" <<EOF
# kinetics $version for Linux ($machine)

One binary: the Swift runtime, GSL $(pkg-config --modversion gsl) and malloc-interposer are linked into it;
it loads only the C and C++ runtime (glibc, libstdc++). Put \`kinetics\` on your PATH and run
\`kinetics --help\`; \`kinetics\` alone writes the default report. \`--count instructions\` needs valgrind.
An engine library for \`kinetics bench --engine-library\` builds against include/kinetics_engine.h.

GSL is under the GNU GPL version 3 or later, so this binary as a whole is distributed under it;
its source is the Kinetics repository at tag v$version and GSL's own. LICENSES/ holds every licence.
EOF
tar -czf "$out/$name.tar.gz" -C "$out" "$name"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
wheel=$(python3 scripts/wheel.py "$out/$name/kinetics" "$version" "$out" "$out/$name"/LICENSES/*)
size() { du -h "$1" | cut -f1; }
echo "artifact: $out/$name.tar.gz ($(size "$out/$name.tar.gz"); the binary $(size "$out/$name/kinetics")), sha256 $(cut -d' ' -f1 "$out/$name.tar.gz.sha256")"
echo "artifact: $wheel ($(size "$wheel"))"
[[ ${1:-} == --pack ]] && exit 0

# What the binary loads.
unexpected=$(ldd "$out/$name/kinetics" | awk '{print $1}' |
    grep -Ev '^(linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|/lib/ld-linux-aarch64\.so\.1|ld-linux.*|libc\.so\.6|libm\.so\.6|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libdl\.so\.2|libpthread\.so\.0|librt\.so\.1)$' || true)
[[ -z $unexpected ]] || fail "the binary loads more than the C and C++ runtime: $unexpected"
echo "artifact: ldd lists $(ldd "$out/$name/kinetics" | awk '{print $1}' | tr '\n' ' ')"

# The checks, in a namespace without the toolchain or GSL's libraries.
[[ $(id -u) == 0 ]] || fail "the check hides the toolchain with a mount namespace, which needs root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$out/$name.tar.gz" -C "$work"
# The engines built against the archive's own header.
cc -O2 -shared -fPIC -I "$work/$name/include" -o "$work/libsoa_springs.so" Examples/engines/soa_springs.c -lm
cc -O2 -shared -fPIC -I "$work/$name/include" -I scripts/gate -I Examples/engines -DEXTRA=4000 \
    -o "$work/libslowed.so" scripts/gate/soa_springs_slowed.c -lm
"$binary" trace spring --bounciness 4 --speed 12 --method analytic >"$work/spring.csv"
python3 -m venv "$work/venv" >/dev/null
"$work/venv/bin/pip" install --quiet --no-index "$wheel"
cat >"$work/checks.sh" <<'EOF'
set -euo pipefail
cd "$WORK"
kinetics=$PWD/$NAME/kinetics
step() {
    local started=$SECONDS
    "$@" >"$WORK/step.log" 2>&1 || { tail -20 "$WORK/step.log"; echo "failed: $*"; exit 1; }
    echo "  $(basename "$1") ${2:-(the default report)}: ok, $((SECONDS - started)) s"
}
command -v swift >/dev/null && { echo "swift is still visible"; exit 1; }
ls /opt/swift 2>/dev/null | grep -q . && { echo "/opt/swift is still visible"; exit 1; }
"$kinetics" --version
step "$kinetics"
grep -q "counted exactly" step.log
step "$kinetics" summary
step "$kinetics" verify
step "$kinetics" compare spring spring.csv --bounciness 4 --speed 12
step "$kinetics" bench --engine-library ./libsoa_springs.so --engine soa-springs --engine animator --engine reference --animations 1000 --frames 5 --no-bezier
allocations() { awk -F'  +' -v engine="$1" '$1 == engine { print $11 }' step.log; }
[[ $(allocations animator) == 0 && $(allocations reference) == 1 ]] ||
    { cat step.log; echo "allocations per frame: animator $(allocations animator), reference $(allocations reference); 0 and 1 expected"; exit 1; }
grep -q "^soa-springs " step.log
status=0
"$kinetics" gate --before ./libsoa_springs.so --after ./libslowed.so --animations 1000 --max-seconds 20 >gate.log 2>&1 || status=$?
[[ $status == 2 ]] || { cat gate.log; echo "gate: exit $status, not 2, on a build 3 times slower"; exit 1; }
echo "  gate: a build about 3 times slower is a regression (exit 2)"
step "$kinetics" bench --engine animator --animations 1000 --frames 5 --no-bezier --no-value-check --count instructions
grep -q "instructions per measured frame" step.log
step "$WORK/venv/bin/kinetics" summary
EOF
mkdir -p "$work/empty"
export WORK=$work NAME=$name
gsl_libraries=$(ls /usr/lib/"$machine"-linux-gnu/libgsl*.so* 2>/dev/null || true)
unshare --mount --propagation private bash -c '
    set -e
    mount --bind "$1" "$2"
    shift 2
    for library in "$@"; do mount --bind /dev/null "$library"; done
    PATH=/usr/local/bin:/usr/bin:/bin bash "$WORK/checks.sh"
' unshare "$work/empty" "$swift_root/.." $gsl_libraries
echo "artifact: every check passed with $(readlink -f "$swift_root/..") and GSL's shared libraries hidden"
