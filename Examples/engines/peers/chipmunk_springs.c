/*
 * Chipmunk2D 7 (Debian's libchipmunk-dev 7.0.3) behind the interface of
 * kinetics_engine.h (version 2), for `kinetics bench --engine-library` and
 * `kinetics verify --engine-library`. Built by scripts/engines/build-peers.sh.
 *
 * How a Chipmunk2D user makes a spring: the engine's own damped spring
 * constraint, cpDampedSpring (cpDampedSpring.h: "a spring with a damper"),
 * between the moving body and an anchor. Here each animation is one body
 * of the animation's mass, with no moment of inertia to turn (moment
 * INFINITY), no shapes (so no collision) and the space's default zero
 * gravity and no sleeping, joined to the space's static body by a
 * cpDampedSpring of rest length 0, stiffness = tension and damping =
 * friction, anchored at (to, 0). The property is the body's x. Every
 * frame is one cpSpaceStep of the frame's length, for every spring at
 * once, as a game steps its world. Retargeting moves the anchor
 * (cpDampedSpringSetAnchorA); a replacement gives the same body and spring
 * the new mass, stiffness, damping, anchor and velocity, from the
 * property's value.
 *
 * Chipmunk2D's step (cpSpace.c, cpSpaceStep): positions move first with the
 * old velocities, then the spring's force is applied as an impulse and its
 * damper takes the relative velocity towards zero by the factor
 * e^(-c h / m) (cpDampedSpring.c: v_coef), one step per frame: position-first
 * symplectic Euler with exponential damping. A spring stops where Pop stops
 * it (|x - to| and |v| both below its threshold; snapped to its target and
 * held there); a threshold of 0, as verify gives, never stops it.
 *
 * Scalar springs only; create refuses anything else, naming it.
 */
#define _POSIX_C_SOURCE 200809L
#include <chipmunk/chipmunk.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kinetics_engine.h"
#include "peer_springs.h"

/* One step per frame is unstable for the stiffest springs at low frame
 * rates; their state grows by a factor each frame until it overflows, and
 * Chipmunk2D then aborts the process (cpBody.c: "Body's velocity is
 * invalid"). A spring whose position or velocity passes this bound has
 * diverged: its value is NaN from then on and its body leaves the space. */
#define DIVERGED 1e100

typedef struct {
    cpBody *body;
    cpConstraint *spring;
    double to, threshold;
    double value;           /* the value written at the last tick */
    int running;
} animation;

typedef struct {
    cpSpace *space;
    int64_t count, running;
    double time;
    animation animations[]; /* count of them, allocated with the engine */
} engine;

/* A new space. Debian's Chipmunk2D is built with its debug checks, and the
 * first space a process makes prints a banner on standard output, which
 * would land in the middle of kinetics' own output (a JSON report): it is
 * sent to /dev/null. */
static cpSpace *new_space(void) {
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), sink = open("/dev/null", O_WRONLY);
    if (saved >= 0 && sink >= 0) dup2(sink, STDOUT_FILENO);
    cpSpace *space = cpSpaceNew();
    fflush(stdout);
    if (saved >= 0) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
    }
    if (sink >= 0) close(sink);
    return space;
}

/* Holds a finished spring still: at its anchor with no velocity, where its
 * spring pulls with no force and its damper has nothing to damp. It stays
 * in the space (Chipmunk2D removes a body by a linear search of the
 * space's bodies, far too slow for thousands a frame), as a game keeps a
 * body it will animate again. */
static void settle(engine *e, animation *a, double value) {
    cpBodySetPosition(a->body, cpv(a->to, 0));
    cpBodySetVelocity(a->body, cpvzero);
    a->value = value;
    if (a->running) e->running--;
    a->running = 0;
}

/* (Re)starts a's spring from x with the spec's velocity: on the same body
 * and constraint once they exist, given the new mass, stiffness, damping
 * and anchor. */
static void start(engine *e, animation *a, const kinetics_animation *spec, double x) {
    if (!a->body) {
        a->body = cpSpaceAddBody(e->space, cpBodyNew(spec->mass, INFINITY));
        a->spring = cpSpaceAddConstraint(
            e->space, cpDampedSpringNew(cpSpaceGetStaticBody(e->space), a->body, cpv(spec->to, 0), cpvzero, 0,
                                        spec->tension, spec->friction));
    } else {
        cpBodySetMass(a->body, spec->mass);
        cpDampedSpringSetStiffness(a->spring, spec->tension);
        cpDampedSpringSetDamping(a->spring, spec->friction);
        cpDampedSpringSetAnchorA(a->spring, cpv(spec->to, 0));
    }
    cpBodySetPosition(a->body, cpv(x, 0));
    cpBodySetVelocity(a->body, cpv(spec->velocity, 0));
    a->to = spec->to;
    a->threshold = spec->threshold;
    a->value = x;
    if (!a->running) e->running++;
    a->running = 1;
}

static void *chipmunk_create(const kinetics_workload *workload, char *error, size_t error_size) {
    if (!peer_springs_usable("chipmunk2d", workload, error, error_size)) return NULL;
    engine *e = calloc(1, sizeof *e + (size_t)workload->count * sizeof e->animations[0]);
    if (e) e->space = new_space();
    if (!e || !e->space) {
        snprintf(error, error_size, "out of memory for %lld springs", (long long)workload->count);
        free(e);
        return NULL;
    }
    e->count = workload->count;
    for (int64_t i = 0; i < workload->count; i++)
        start(e, &e->animations[i], &workload->animations[i], workload->initial[i]);
    return e;
}

static void chipmunk_replace(void *handle, int64_t index, const kinetics_animation *spec) {
    animation *a = PEER_REPLACED((engine *)handle, index, spec);
    /* A diverged spring's value is NaN, which Chipmunk2D's checks would
     * abort on: its replacement starts from the new target instead. */
    if (a) start(handle, a, spec, isfinite(a->value) ? a->value : spec->to);
}

static void chipmunk_retarget(void *handle, int64_t index, double to) {
    animation *a = PEER_AT((engine *)handle, index);
    if (!a || !a->running) return;
    a->to = to;
    cpDampedSpringSetAnchorA(a->spring, cpv(to, 0));
}

static void chipmunk_tick(void *handle, double time) {
    engine *e = handle;
    double dt = time - e->time;
    e->time = time;
    if (dt > 0) cpSpaceStep(e->space, dt);
    for (int64_t i = 0; i < e->count; i++) {
        animation *a = &e->animations[i];
        if (!a->running) continue;
        double x = cpBodyGetPosition(a->body).x, v = cpBodyGetVelocity(a->body).x;
        a->value = x;
        if (!(fabs(x) < DIVERGED && fabs(v) < DIVERGED))
            settle(e, a, NAN);
        else if (fabs(x - a->to) < a->threshold && fabs(v) < a->threshold)
            settle(e, a, a->to);
    }
}

PEER_READERS(chipmunk)

static void chipmunk_destroy(void *handle) {
    engine *e = handle;
    /* cpSpaceFree leaves the bodies and constraints to their owner. */
    cpSpaceFree(e->space);
    for (int64_t i = 0; i < e->count; i++) {
        if (e->animations[i].spring) cpConstraintFree(e->animations[i].spring);
        if (e->animations[i].body) cpBodyFree(e->animations[i].body);
    }
    free(e);
}

KINETICS_ENGINE_EXPORT(chipmunk, "chipmunk2d")
