// The atomic operations are `static inline` in kinetics_support.h; the
// counter of animation identities is a plain global here, so that taking the
// next identity needs no lazy initialisation.
#include "kinetics_support.h"

static int64_t animation_identities = 0;

int64_t kinetics_next_animation_identity(void) {
    return __atomic_add_fetch(&animation_identities, 1, __ATOMIC_RELAXED);
}
