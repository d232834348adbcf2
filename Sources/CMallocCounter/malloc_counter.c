/*
 * With the Standalone trait, malloc-interposer's own C source, compiled
 * into this module from the package's resolved checkout (the include paths
 * are Package.swift's): the binary then defines malloc and its kin itself,
 * and needs no library to count allocations exactly. Otherwise the
 * interposer's shared library defines them, and this file is empty.
 */
#if defined(KINETICS_STANDALONE_INTERPOSER)
#if defined(__APPLE__)
#error "the Standalone trait is for Linux; on macOS build with Tools (scripts/build-release.sh does)"
#endif
#include "interposer-unix.c"
#endif
