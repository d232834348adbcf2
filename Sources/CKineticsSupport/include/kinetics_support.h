// What Kinetics takes from C, the same on every platform: the C math
// library, whichever C library the platform has (glibc, Darwin's libSystem,
// musl, wasi-libc, Windows' ucrt), and atomic operations on plain 64-bit
// integers through the compiler's __atomic built-ins (GCC and Clang on every
// target, Windows' clang-cl included).
//
// Kinetics counts animation identities from any thread. The standard
// library's `Atomic` would do it, but it needs macOS 15 and iOS 18, above the
// floor Kinetics supports; these functions need nothing but the compiler.
// They are `static inline`, so the Swift compiler inlines them: a relaxed
// load or store is one move, as with `Atomic`.

#ifndef KINETICS_SUPPORT_H
#define KINETICS_SUPPORT_H

#include <math.h>
#include <stdint.h>
#include <time.h>

/// Adds `operand` to `*value` and returns the value before the addition.
static inline int64_t kinetics_atomic_fetch_add(int64_t *value, int64_t operand) {
    return __atomic_fetch_add(value, operand, __ATOMIC_RELAXED);
}

/// Reads `*value` (relaxed).
static inline int64_t kinetics_atomic_load(const int64_t *value) {
    return __atomic_load_n(value, __ATOMIC_RELAXED);
}

/// Writes `*value` (relaxed).
static inline void kinetics_atomic_store(int64_t *value, int64_t desired) {
    __atomic_store_n(value, desired, __ATOMIC_RELAXED);
}

/// Writes `desired` into `*value` and returns what was there.
static inline int64_t kinetics_atomic_exchange(int64_t *value, int64_t desired) {
    return __atomic_exchange_n(value, desired, __ATOMIC_SEQ_CST);
}

/// The process's count of animation identities given (support.c).
extern int64_t kinetics_animation_identities;

/// The next animation identity of the process: 1, 2, 3, … (relaxed; any
/// thread). Inline, so that an animation's construction makes no call.
static inline int64_t kinetics_next_animation_identity(void) {
    return __atomic_add_fetch(&kinetics_animation_identities, 1, __ATOMIC_RELAXED);
}

#endif
