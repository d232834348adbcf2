/*
 * The layout of versions 1 and 2 of the engine interface, fixed: an engine
 * built against either header and a Kinetics built against this one must
 * agree on every offset, so a change that moves a field fails this build
 * instead of misreading a library. (Version 2 moved nothing: it gave
 * springs the velocity field. A new field goes in a new version.)
 */
#include <stddef.h>

#include "kinetics_engine.h"

_Static_assert(KINETICS_ENGINE_ABI_VERSION == 2 && KINETICS_ENGINE_ABI_OLDEST_VERSION == 1,
               "the layout below is versions 1 and 2's");

_Static_assert(sizeof(kinetics_animation) == 104, "kinetics_animation is 104 bytes");
_Static_assert(offsetof(kinetics_animation, tension) == 8, "tension after kind and reserved");
_Static_assert(offsetof(kinetics_animation, velocity) == 40, "velocity at 40");
_Static_assert(offsetof(kinetics_animation, curve) == 72, "curve at 72");

_Static_assert(sizeof(kinetics_keyframes) == 40, "kinetics_keyframes is 40 bytes");
_Static_assert(offsetof(kinetics_keyframes, duration) == 32, "duration after the three arrays");

_Static_assert(sizeof(kinetics_workload) == 64, "kinetics_workload is 64 bytes");
_Static_assert(offsetof(kinetics_workload, keyframes) == 24, "keyframes after the arrays");

_Static_assert(sizeof(kinetics_engine) == 72, "kinetics_engine is 72 bytes");
_Static_assert(offsetof(kinetics_engine, create) == 16, "create after the version and name");
_Static_assert(offsetof(kinetics_engine, destroy) == 64, "destroy last");
