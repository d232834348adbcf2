// The atomic operations are `static inline` in kinetics_support.h, the
// next animation identity with them; its counter is a plain global here, so
// that taking the next identity needs no lazy initialisation.
#include "kinetics_support.h"

int64_t kinetics_animation_identities = 0;
