# Sourced by the scripts that build or read the release build: the flags
# of its one configuration (scripts/build-release.sh says why each). Sets
# `release_flags`, and on Linux PKG_CONFIG_PATH.
scripts/ensure-gsl.sh
if [[ $(uname -s) != Linux ]]; then
    # macOS carries the Swift runtime; the interposer's library is linked
    # as SwiftPM builds it, and GSL as Homebrew ships it.
    release_flags=(-c release --traits Tools)
    return 0
fi
# gsl.pc with its libraries as archives: -l:libgsl.a takes the archive
# where -lgsl would take the shared library.
pkgconfig=.build/static-pkgconfig
mkdir -p "$pkgconfig"
sed -e 's/^Libs: .*/Libs: -L${libdir} -l:libgsl.a -l:libgslcblas.a -lm/' \
    "$(pkg-config --variable=pcfiledir gsl)/gsl.pc" >"$pkgconfig/gsl.pc.new"
cmp -s "$pkgconfig/gsl.pc.new" "$pkgconfig/gsl.pc" || mv "$pkgconfig/gsl.pc.new" "$pkgconfig/gsl.pc"
rm -f "$pkgconfig/gsl.pc.new"
export PKG_CONFIG_PATH=$PWD/$pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
release_flags=(-c release --traits Standalone --static-swift-stdlib)
