/*
 * Declarations only (include/kinetics_malloc_counter.h): the interposer's
 * shared library defines them, or, in the standalone binary, its C source
 * compiled and linked in by scripts/build-release.sh. A C target needs a
 * source file; this is it.
 */
#include "kinetics_malloc_counter.h"
