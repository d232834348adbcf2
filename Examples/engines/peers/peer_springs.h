/* What the four peer adapters share: the check that a workload holds what
 * they run, scalar springs with tension > 0, mass > 0 and friction >= 0,
 * and the table's two readers. C and C++. */
#ifndef PEER_SPRINGS_H
#define PEER_SPRINGS_H

#include <math.h>
#include <stdio.h>

#include "kinetics_engine.h"

/* 1 when every animation of `workload` is such a spring; otherwise 0,
 * with a sentence naming `engine` and the first other animation in
 * `error`. */
static inline int peer_springs_usable(const char *engine, const kinetics_workload *workload, char *error,
                                      size_t size) {
    for (int64_t i = 0; i < workload->count; i++) {
        const kinetics_animation *a = &workload->animations[i];
        if (a->kind != KINETICS_KIND_SPRING) {
            snprintf(error, size, "%s runs scalar springs only; animation %lld is of kind %d", engine, (long long)i,
                     (int)a->kind);
            return 0;
        }
        if (!(a->tension > 0 && a->mass > 0 && a->friction >= 0)) {
            snprintf(error, size, "animation %lld: a spring needs tension > 0, mass > 0, friction >= 0", (long long)i);
            return 0;
        }
    }
    return 1;
}

/* Every adapter keeps its animations in `animations` of its engine type
 * (`engine` in C, with `count`; `Engine` in C++, a vector), each with the
 * value its last tick read, and counts those still running in `running`.
 * PEER_AT(e, index) is animation `index` of `e`, or null when there is no
 * such animation; PEER_REPLACED(e, index, spec) is the same where `spec`,
 * its replacement, is a spring, and null otherwise; PEER_READERS(PREFIX)
 * defines PREFIX_value and PREFIX_running of the engine table. */
#ifdef __cplusplus
template <class Engine> auto peer_at(Engine &e, int64_t index) -> decltype(&e.animations[0]) {
    return index >= 0 && index < int64_t(e.animations.size()) ? &e.animations[size_t(index)] : nullptr;
}
#define PEER_AT(e, index) peer_at(e, index)
#define PEER_REPLACED(e, index, spec) ((spec)->kind == KINETICS_KIND_SPRING ? peer_at(e, index) : nullptr)
#define PEER_READERS(PREFIX)                                                                                   \
    double PREFIX##_value(const void *handle, int64_t index) {                                                 \
        const auto *a = PEER_AT(*static_cast<const Engine *>(handle), index);                                  \
        return a ? a->value : NAN;                                                                             \
    }                                                                                                          \
    int64_t PREFIX##_running(const void *handle) { return static_cast<const Engine *>(handle)->running; }
#else
#define PEER_AT(e, index) ((index) >= 0 && (index) < (e)->count ? &(e)->animations[index] : NULL)
#define PEER_REPLACED(e, index, spec) ((spec)->kind == KINETICS_KIND_SPRING ? PEER_AT(e, index) : NULL)
#define PEER_READERS(PREFIX)                                                                                   \
    static double PREFIX##_value(const void *handle, int64_t index) {                                          \
        const animation *a = PEER_AT((const engine *)handle, index);                                           \
        return a ? a->value : NAN;                                                                             \
    }                                                                                                          \
    static int64_t PREFIX##_running(const void *handle) { return ((const engine *)handle)->running; }
#endif

#endif
