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
 * (cpDampedSpringSetAnchorA); a replacement takes the body out and puts a
 * new one in at the property's value.
 *
 * Chipmunk2D's step (cpSpace.c, cpSpaceStep): positions move first with the
 * old velocities, then the spring's force is applied as an impulse and its
 * damper takes the relative velocity towards zero by the factor
 * e^(-c h / m) (cpDampedSpring.c: v_coef), one step per frame: position-first
 * symplectic Euler with exponential damping. A spring stops where Pop stops
 * it (|x - to| and |v| both below its threshold; snapped to its target and
 * taken out of the space); a threshold of 0, as verify gives, never stops it.
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

/* One step per frame is unstable for the stiffest springs at low frame
 * rates; their state grows by a factor each frame until it overflows, and
 * Chipmunk2D then aborts the process (cpBody.c: "Body's velocity is
 * invalid"). A spring whose position or velocity passes this bound has
 * diverged: its value is NaN from then on and its body leaves the space. */
#define DIVERGED 1e100

typedef struct {
    cpBody *body;           /* NULL once finished */
    cpConstraint *spring;
    double to, threshold;
    double value;           /* the value once finished */
} animation;

typedef struct {
    cpSpace *space;
    int64_t count, running;
    animation *animations;
    double time;
} engine;

static int usable(const kinetics_animation *a, int64_t index, char *error, size_t size) {
    if (a->kind != KINETICS_KIND_SPRING) {
        snprintf(error, size, "chipmunk2d runs scalar springs only; animation %lld is of kind %d", (long long)index,
                 a->kind);
        return 0;
    }
    if (!(a->tension > 0 && a->mass > 0 && a->friction >= 0)) {
        snprintf(error, size, "animation %lld: a spring needs tension > 0, mass > 0, friction >= 0", (long long)index);
        return 0;
    }
    return 1;
}

static void stop(engine *e, animation *a) {
    if (!a->body) return;
    cpSpaceRemoveConstraint(e->space, a->spring);
    cpSpaceRemoveBody(e->space, a->body);
    cpConstraintFree(a->spring);
    cpBodyFree(a->body);
    a->body = NULL;
    a->spring = NULL;
    e->running--;
}

static void start(engine *e, animation *a, const kinetics_animation *spec, double x) {
    stop(e, a);
    a->body = cpSpaceAddBody(e->space, cpBodyNew(spec->mass, INFINITY));
    cpBodySetPosition(a->body, cpv(x, 0));
    cpBodySetVelocity(a->body, cpv(spec->velocity, 0));
    a->spring = cpSpaceAddConstraint(
        e->space, cpDampedSpringNew(cpSpaceGetStaticBody(e->space), a->body, cpv(spec->to, 0), cpvzero, 0,
                                    spec->tension, spec->friction));
    a->to = spec->to;
    a->threshold = spec->threshold;
    a->value = x;
    e->running++;
}

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

static void *chipmunk_create(const kinetics_workload *workload, char *error, size_t error_size) {
    for (int64_t i = 0; i < workload->count; i++)
        if (!usable(&workload->animations[i], i, error, error_size)) return NULL;
    engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->animations = calloc(workload->count > 0 ? (size_t)workload->count : 1, sizeof *e->animations);
    e->space = new_space();
    if (!e->animations || !e->space) {
        snprintf(error, error_size, "out of memory for %lld springs", (long long)workload->count);
        free(e->animations);
        if (e->space) cpSpaceFree(e->space);
        free(e);
        return NULL;
    }
    e->count = workload->count;
    for (int64_t i = 0; i < workload->count; i++)
        start(e, &e->animations[i], &workload->animations[i], workload->initial[i]);
    return e;
}

static void chipmunk_replace(void *handle, int64_t index, const kinetics_animation *spec) {
    engine *e = handle;
    if (index < 0 || index >= e->count || spec->kind != KINETICS_KIND_SPRING) return;
    animation *a = &e->animations[index];
    double x = a->body ? cpBodyGetPosition(a->body).x : a->value;
    start(e, a, spec, x);
}

static void chipmunk_retarget(void *handle, int64_t index, double to) {
    engine *e = handle;
    if (index < 0 || index >= e->count || !e->animations[index].body) return;
    e->animations[index].to = to;
    cpDampedSpringSetAnchorA(e->animations[index].spring, cpv(to, 0));
}

static void chipmunk_tick(void *handle, double time) {
    engine *e = handle;
    double dt = time - e->time;
    e->time = time;
    if (dt > 0) cpSpaceStep(e->space, dt);
    for (int64_t i = 0; i < e->count; i++) {
        animation *a = &e->animations[i];
        if (!a->body) continue;
        double x = cpBodyGetPosition(a->body).x, v = cpBodyGetVelocity(a->body).x;
        a->value = x;
        if (!(fabs(x) < DIVERGED && fabs(v) < DIVERGED)) {
            a->value = NAN;
            stop(e, a);
        } else if (fabs(x - a->to) < a->threshold && fabs(v) < a->threshold) {
            a->value = a->to;
            stop(e, a);
        }
    }
}

static double chipmunk_value(const void *handle, int64_t index) {
    const engine *e = handle;
    return index >= 0 && index < e->count ? e->animations[index].value : NAN;
}

static int64_t chipmunk_running(const void *handle) { return ((const engine *)handle)->running; }

static void chipmunk_destroy(void *handle) {
    engine *e = handle;
    for (int64_t i = 0; i < e->count; i++) stop(e, &e->animations[i]);
    cpSpaceFree(e->space);
    free(e->animations);
    free(e);
}

static const kinetics_engine table = KINETICS_ENGINE_TABLE(chipmunk, "chipmunk2d");

uint32_t kinetics_engine_abi_version(void) { return KINETICS_ENGINE_ABI_VERSION; }

const kinetics_engine *kinetics_engine_table(void) { return &table; }
