/*
 * ODE, the Open Dynamics Engine (Debian's libode-dev 0.16.2, double
 * precision), behind the interface of kinetics_engine.h (version 2), for
 * `kinetics bench --engine-library` and `kinetics verify --engine-library`.
 * Built by scripts/engines/build-peers.sh.
 *
 * How an ODE user makes a spring: ODE has no spring object; its manual
 * ("Joint error and the Error Reduction Parameter", "How to make a spring")
 * makes one from a constraint softened by its error reduction parameter
 * and constraint force mixing, ERP = h·kp / (h·kp + kd) and
 * CFM = 1 / (h·kp + kd) for a step of h, stiffness kp and damping kd, and
 * says they give "the same effect as a spring-and-damper system simulated
 * with implicit first order integration". Here each animation is one body
 * of the animation's mass on a slider joint to the static world along x
 * (so it moves along x only and does not turn), whose low and high stops
 * are both at the target: a stop held from both sides is a two-sided
 * constraint (joint.cpp, dxJointLimitMotor::addLimot), and its stop ERP and
 * stop CFM make it the spring. No geoms (so no collision), no gravity (the
 * world's default), no auto-disabling (the default). Every frame is one
 * dWorldStep of the frame's length for every spring at once; a frame of a
 * new length sets every spring's ERP and CFM for it first. A retarget moves
 * the stops; a replacement gives the same body and joint the new mass,
 * parameters, velocity and stops.
 *
 * dWorldStep solves each island (one body and its joint here) exactly and
 * then moves the body with its new velocity: with that ERP and CFM the
 * constraint force is the spring's and the damper's at the new state,
 * backward Euler, one step per frame, in double precision. A spring stops
 * where Pop stops it (|x - to| and |v| both below its threshold; snapped to
 * its target and held there, its body disabled); a threshold of 0, as
 * verify gives, never stops it.
 *
 * Scalar springs only; create refuses anything else, naming it.
 */
#include <math.h>
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>

#include "kinetics_engine.h"
#include "peer_springs.h"

typedef struct {
    dBodyID body;
    dJointID slider;
    double origin;          /* the body's x where the slider's position is 0 */
    double tension, friction;
    double to, threshold;
    double value;           /* the value written at the last tick */
    int running;
} animation;

typedef struct {
    dWorldID world;
    int64_t count, running;
    double time;
    double step;            /* the step every spring's ERP and CFM are set for */
    animation animations[]; /* count of them, allocated with the engine */
} engine;

/* The manual's ERP and CFM for a's spring over a step of h. */
static void soften(animation *a, double h) {
    double hk = h * a->tension;
    dJointSetSliderParam(a->slider, dParamStopERP, hk / (hk + a->friction));
    dJointSetSliderParam(a->slider, dParamStopCFM, 1 / (hk + a->friction));
}

/* Both stops at a's target, in the slider's coordinate. Set in the order
 * that never has the low stop above the high one. */
static void aim(animation *a) {
    double stop = a->to - a->origin;
    if (stop > dJointGetSliderParam(a->slider, dParamHiStop)) {
        dJointSetSliderParam(a->slider, dParamHiStop, stop);
        dJointSetSliderParam(a->slider, dParamLoStop, stop);
    } else {
        dJointSetSliderParam(a->slider, dParamLoStop, stop);
        dJointSetSliderParam(a->slider, dParamHiStop, stop);
    }
}

/* (Re)starts a's spring from x with the spec's velocity: on the same body
 * and joint once they exist. */
static void start(engine *e, animation *a, const kinetics_animation *spec, double x) {
    dMass mass;
    dMassSetSphereTotal(&mass, spec->mass, 1);
    if (!a->body) {
        a->body = dBodyCreate(e->world);
        dBodySetPosition(a->body, x, 0, 0);
        a->slider = dJointCreateSlider(e->world, 0);
        dJointAttach(a->slider, a->body, 0);
        dJointSetSliderAxis(a->slider, 1, 0, 0);
        a->origin = x;
    } else {
        dBodySetPosition(a->body, x, 0, 0);
        dBodyEnable(a->body);
    }
    dBodySetMass(a->body, &mass);
    dBodySetLinearVel(a->body, spec->velocity, 0, 0);
    a->tension = spec->tension;
    a->friction = spec->friction;
    a->to = spec->to;
    a->threshold = spec->threshold;
    a->value = x;
    aim(a);
    if (e->step > 0) soften(a, e->step);
    if (!a->running) e->running++;
    a->running = 1;
}

/* Holds a finished spring at its target: its body disabled, which
 * dWorldStep skips, until a replacement enables it again. */
static void settle(engine *e, animation *a, double value) {
    dBodySetPosition(a->body, a->to, 0, 0);
    dBodySetLinearVel(a->body, 0, 0, 0);
    dBodyDisable(a->body);
    a->value = value;
    if (a->running) e->running--;
    a->running = 0;
}

static void *ode_create(const kinetics_workload *workload, char *error, size_t error_size) {
    if (!peer_springs_usable("ode", workload, error, error_size)) return NULL;
    engine *e = calloc(1, sizeof *e + (size_t)workload->count * sizeof e->animations[0]);
    if (!e || !dInitODE2(0)) {
        snprintf(error, error_size, "out of memory for %lld springs, or ODE did not start", (long long)workload->count);
        free(e);
        return NULL;
    }
    e->count = workload->count;
    e->world = dWorldCreate();
    for (int64_t i = 0; i < workload->count; i++)
        start(e, &e->animations[i], &workload->animations[i], workload->initial[i]);
    return e;
}

static void ode_replace(void *handle, int64_t index, const kinetics_animation *spec) {
    animation *a = PEER_REPLACED((engine *)handle, index, spec);
    if (a) start(handle, a, spec, a->value);
}

static void ode_retarget(void *handle, int64_t index, double to) {
    animation *a = PEER_AT((engine *)handle, index);
    if (!a || !a->running) return;
    a->to = to;
    aim(a);
}

static void ode_tick(void *handle, double time) {
    engine *e = handle;
    double dt = time - e->time;
    e->time = time;
    if (dt > 0) {
        if (dt != e->step) {
            e->step = dt;
            for (int64_t i = 0; i < e->count; i++) soften(&e->animations[i], dt);
        }
        dWorldStep(e->world, dt);
    }
    for (int64_t i = 0; i < e->count; i++) {
        animation *a = &e->animations[i];
        if (!a->running) continue;
        double x = dBodyGetPosition(a->body)[0], v = dBodyGetLinearVel(a->body)[0];
        a->value = x;
        if (fabs(x - a->to) < a->threshold && fabs(v) < a->threshold) settle(e, a, a->to);
    }
}

PEER_READERS(ode)

static void ode_destroy(void *handle) {
    engine *e = handle;
    /* The world destroys its bodies and joints. */
    dWorldDestroy(e->world);
    dCloseODE();
    free(e);
}

KINETICS_ENGINE_EXPORT(ode, "ode")
