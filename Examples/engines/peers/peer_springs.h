/* What the four peer adapters share: the check that a workload holds what
 * they run, scalar springs with tension > 0, mass > 0 and friction >= 0.
 * C and C++. */
#ifndef PEER_SPRINGS_H
#define PEER_SPRINGS_H

#include <stdio.h>

#include "kinetics_engine.h"

/* 1 when animation `index` is such a spring; otherwise 0, with a sentence
 * naming `engine` and the animation in `error`. */
static inline int peer_spring_usable(const char *engine, const kinetics_animation *a, int64_t index, char *error,
                                     size_t size) {
    if (a->kind != KINETICS_KIND_SPRING) {
        snprintf(error, size, "%s runs scalar springs only; animation %lld is of kind %d", engine, (long long)index,
                 (int)a->kind);
        return 0;
    }
    if (!(a->tension > 0 && a->mass > 0 && a->friction >= 0)) {
        snprintf(error, size, "animation %lld: a spring needs tension > 0, mass > 0, friction >= 0", (long long)index);
        return 0;
    }
    return 1;
}

#endif
