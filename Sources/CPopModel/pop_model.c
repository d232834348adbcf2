/*
 * A model of Pop's frame in C, written from Pop's structure (POPAnimator.mm,
 * POPSpringSolver.h, POPSpringAnimationInternal.h, POPDecayAnimationInternal.h,
 * POPBasicAnimationInternal.h and WebKit's UnitBezier.h as Pop ships it):
 *
 * - every animation is its own heap object, advanced through a function
 *   pointer (Pop's virtual `advance`), and holds its values in 4-vectors
 *   (Pop's Vector4d) whatever the property's width;
 * - each tick copies the list of running animations into a new array
 *   (POPAnimator copies its list into a vector every frame) and renders each;
 * - a finished animation is found in the list by linear search and removed;
 * - springs take Pop's RK4 steps of 1 ms (the float literal 0.001f) one at a
 *   time, blend the last two states by the leftover fraction and start the
 *   next frame from the blend; both of Pop's rest tests apply;
 * - decays compute Pop's factors in single precision; basics and keyframes
 *   solve their curves with WebKit's Newton-then-bisection at Pop's
 *   x-tolerance 1/(1000·duration).
 *
 * Its arithmetic is the Swift model's (KineticsBench/ReferenceEngine.swift)
 * operation for operation, so the two give the same values; the tests hold
 * them to 1e-12 of the amplitude.
 */
#include "pop_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No fused multiply-adds: the Swift model rounds every product. */
#pragma STDC FP_CONTRACT OFF

typedef struct { double lane[4]; } vector4;

struct pop_engine;
struct pop_animation;

/* Pop's per-class behaviour: advance to a time, write, say whether done. */
typedef struct {
    int (*render)(struct pop_animation *animation, struct pop_engine *engine, double time);
} pop_animation_class;

typedef struct pop_animation {
    const pop_animation_class *isa;
    int32_t kind;
    int64_t slot;
} pop_animation;

/* A zeroed animation of `size` bytes and of class `isa`, or NULL. */
static void *new_animation(size_t size, const pop_animation_class *isa) {
    pop_animation *animation = calloc(1, size);
    if (animation) animation->isa = isa;
    return animation;
}

typedef struct pop_engine {
    int64_t count;
    vector4 *values;               /* the animated object's properties */
    pop_animation **owned;         /* the animation last added to each property */
    pop_animation **list;          /* the running animations, in order added */
    int64_t list_count;
    int64_t list_capacity;
    double time;                   /* the last tick */
    double *keyframe_values;
    double *keyframe_times;
    double *keyframe_curves;
    int32_t keyframe_count;
    double keyframe_duration;
} pop_engine;

/* MARK: - Springs */

/* The float literal 0.001f widened to double, as Pop steps. */
static const double pop_step = (double)0.001f;

typedef struct {
    pop_animation base;
    int width;
    double threshold;
    double negative_stiffness; /* -k/m */
    double friction_per_mass;  /* c/m */
    double last_time;
    vector4 value, velocity, target;
    /* Pop's solver state: leftover time, last blended state, last slope. */
    double accumulator;
    vector4 last_p, last_v, last_dv;
    int started;
    int has_previous, has_previous2;
    vector4 previous, previous2;
} pop_spring;

/* One classic RK4 step in Pop's order; returns the step's dv/dt in slope. */
static void rk4_step(vector4 *p, vector4 *v, double negative_stiffness, double friction_per_mass, double h,
                     vector4 *slope) {
    const double half = h * 0.5;
    const double sixth = 1.0 / 6.0;
    for (int i = 0; i < 4; i++) {
        double a_dp = v->lane[i];
        double a_dv = p->lane[i] * negative_stiffness - v->lane[i] * friction_per_mass;
        double b_p = p->lane[i] + a_dp * half;
        double b_v = v->lane[i] + a_dv * half;
        double b_dv = b_p * negative_stiffness - b_v * friction_per_mass;
        double c_p = p->lane[i] + b_v * half;
        double c_v = v->lane[i] + b_dv * half;
        double c_dv = c_p * negative_stiffness - c_v * friction_per_mass;
        double d_p = p->lane[i] + c_v * h;
        double d_v = v->lane[i] + c_dv * h;
        double d_dv = d_p * negative_stiffness - d_v * friction_per_mass;
        double dpdt = (a_dp + (b_v + c_v) * 2.0 + d_v) * sixth;
        double dvdt = (a_dv + (b_dv + c_dv) * 2.0 + d_dv) * sixth;
        p->lane[i] = p->lane[i] + dpdt * h;
        v->lane[i] = v->lane[i] + dvdt * h;
        slope->lane[i] = dvdt;
    }
}

/* Pop's SpringSolver::advance, the state rebuilt from value and velocity. */
static void spring_advance(pop_spring *spring, double dt) {
    if (!isfinite(dt) || dt < 0) return;
    spring->started = 1;
    if (dt > 30) {
        /* Pop's force shut-down: the solver state is zeroed. */
        memset(&spring->last_p, 0, sizeof spring->last_p);
        memset(&spring->last_v, 0, sizeof spring->last_v);
        memset(&spring->last_dv, 0, sizeof spring->last_dv);
        return;
    }
    spring->accumulator += dt;
    vector4 p, v;
    for (int i = 0; i < 4; i++) {
        p.lane[i] = spring->target.lane[i] - spring->value.lane[i];
        v.lane[i] = spring->velocity.lane[i] * -1.0;
    }
    vector4 previous_p = p, previous_v = v;
    while (spring->accumulator >= pop_step) {
        previous_p = p;
        previous_v = v;
        rk4_step(&p, &v, spring->negative_stiffness, spring->friction_per_mass, pop_step, &spring->last_dv);
        spring->accumulator -= pop_step;
    }
    const double alpha = spring->accumulator / pop_step;
    for (int i = 0; i < 4; i++) {
        p.lane[i] = p.lane[i] * alpha + previous_p.lane[i] * (1 - alpha);
        v.lane[i] = v.lane[i] * alpha + previous_v.lane[i] * (1 - alpha);
    }
    spring->last_p = p;
    spring->last_v = v;
    for (int i = 0; i < 4; i++) {
        spring->value.lane[i] = spring->target.lane[i] - p.lane[i];
        spring->velocity.lane[i] = v.lane[i] * -1.0;
    }
}

/* Pop's SpringSolver::hasConverged. */
static int spring_solver_at_rest(const pop_spring *spring) {
    if (!spring->started) return 0;
    const double t = spring->threshold;
    const double position_bound = t / 2;
    for (int i = 0; i < 4; i++) {
        if (!(fabs(spring->last_p.lane[i]) < position_bound)) return 0;
    }
    double v2 = 0, dv2 = 0;
    for (int i = 0; i < 4; i++) {
        v2 += spring->last_v.lane[i] * spring->last_v.lane[i];
        dv2 += spring->last_dv.lane[i] * spring->last_dv.lane[i];
    }
    return v2 < 25.0 * t && dv2 < 625.0 * t * t;
}

/* Pop's animation-level test on the last two written values. */
static int spring_animation_converged(const pop_spring *spring) {
    if (!spring->has_previous || !spring->has_previous2) return 0;
    const double bound = spring->threshold / 5;
    for (int i = 0; i < 4; i++) {
        double to_target = fabs(spring->target.lane[i] - spring->previous.lane[i]);
        double between = fabs(spring->previous2.lane[i] - spring->previous.lane[i]);
        if (!(to_target < bound) || !(between < bound)) return 0;
    }
    return 1;
}

static int spring_render(pop_animation *animation, pop_engine *engine, double time) {
    pop_spring *spring = (pop_spring *)animation;
    spring_advance(spring, time - spring->last_time);
    spring->last_time = time;
    engine->values[animation->slot] = spring->value;
    spring->previous2 = spring->previous;
    spring->has_previous2 = spring->has_previous;
    spring->previous = spring->value;
    spring->has_previous = 1;
    if (spring_animation_converged(spring) || spring_solver_at_rest(spring)) {
        engine->values[animation->slot] = spring->target;
        return 1;
    }
    return 0;
}

static const pop_animation_class spring_class = {spring_render};

/* A spring from the property's value `start` to `spec`'s target. */
static pop_animation *spring_make(const pop_engine *engine, const kinetics_animation *spec, vector4 start) {
    pop_spring *spring = new_animation(sizeof *spring, &spring_class);
    if (!spring) return NULL;
    spring->width = spec->kind == KINETICS_KIND_POINT_SPRING ? 2 : 1;
    for (int i = 0; i < spring->width; i++) spring->target.lane[i] = spec->to;
    spring->value = start;
    /* The initial velocity (interface version 2; 0 in bench workloads). */
    for (int i = 0; i < spring->width; i++) spring->velocity.lane[i] = spec->velocity;
    spring->threshold = spec->threshold;
    spring->negative_stiffness = -spec->tension / spec->mass;
    spring->friction_per_mass = spec->friction / spec->mass;
    spring->last_time = engine->time;
    return &spring->base;
}

/* MARK: - Decays */

typedef struct {
    pop_animation base;
    float deceleration_f;
    double deceleration;
    double threshold;
    double end;
    double last_time;
    vector4 value, velocity;
} pop_decay;

/* Pop's decay_position: kv, kx and v/1000 in single precision. */
static void decay_advance(vector4 *value, vector4 *velocity, double d, double dt) {
    if (!isfinite(dt) || dt < 0) return;
    const double milliseconds = dt * 1000;
    const float kv = powf((float)d, (float)milliseconds);
    const float kx = (float)(d * (double)(1 - kv) / (1 - d));
    for (int i = 0; i < 4; i++) {
        const float v0 = (float)(velocity->lane[i] / 1000.0);
        velocity->lane[i] = (double)(v0 * kv) * 1000.0;
        value->lane[i] = value->lane[i] + (double)(v0 * kx);
    }
}

static int decay_render(pop_animation *animation, pop_engine *engine, double time) {
    pop_decay *decay = (pop_decay *)animation;
    decay_advance(&decay->value, &decay->velocity, decay->deceleration, time - decay->last_time);
    decay->last_time = time;
    vector4 written = decay->value;
    /* Clamped at the computed end, never past it. */
    if (decay->velocity.lane[0] > 0) {
        written.lane[0] = decay->end < written.lane[0] ? decay->end : written.lane[0];
    } else {
        written.lane[0] = decay->end >= written.lane[0] ? decay->end : written.lane[0];
    }
    engine->values[animation->slot] = written;
    const double bound = decay->threshold * 5.0;
    for (int i = 0; i < 4; i++) {
        if (!(fabs(decay->velocity.lane[i]) < bound)) return 0;
    }
    engine->values[animation->slot].lane[0] = decay->end;
    return 1;
}

static const pop_animation_class decay_class = {decay_render};

/* Pop's decay computeToValue: one step over the duration to rest. */
static double decay_end(double from, double velocity, double d, double threshold) {
    double k = threshold * 5.0 / 1000.0;
    double rate = log(d) * 1000.0;
    double duration = log(fabs(k / (velocity / 1000.0))) / rate;
    if (isnan(duration) || duration < 0) duration = 0;
    vector4 value = {{from, 0, 0, 0}}, moving = {{velocity, 0, 0, 0}};
    decay_advance(&value, &moving, d, duration);
    return value.lane[0];
}

/* A decay thrown from the property's value `start`. */
static pop_animation *decay_make(const pop_engine *engine, const kinetics_animation *spec, vector4 start) {
    pop_decay *decay = new_animation(sizeof *decay, &decay_class);
    if (!decay) return NULL;
    decay->deceleration = spec->deceleration;
    decay->threshold = spec->threshold;
    decay->value = start;
    decay->velocity.lane[0] = spec->velocity;
    decay->end = decay_end(start.lane[0], spec->velocity, spec->deceleration, spec->threshold);
    decay->last_time = engine->time;
    return &decay->base;
}

/* MARK: - Curves (WebKit's UnitBezier) */

typedef struct {
    int linear;
    double ax, bx, cx, ay, by, cy;
} unit_bezier;

static unit_bezier bezier_make(const double *points) {
    unit_bezier curve;
    curve.linear = isnan(points[0]);
    curve.cx = 3.0 * points[0];
    curve.bx = 3.0 * (points[2] - points[0]) - curve.cx;
    curve.ax = 1.0 - curve.cx - curve.bx;
    curve.cy = 3.0 * points[1];
    curve.by = 3.0 * (points[3] - points[1]) - curve.cy;
    curve.ay = 1.0 - curve.cy - curve.by;
    return curve;
}

static double bezier_x(const unit_bezier *c, double t) { return ((c->ax * t + c->bx) * t + c->cx) * t; }
static double bezier_y(const unit_bezier *c, double t) { return ((c->ay * t + c->by) * t + c->cy) * t; }
static double bezier_dx(const unit_bezier *c, double t) { return (3.0 * c->ax * t + 2.0 * c->bx) * t + c->cx; }

/* WebKit's solveCurveX: 8 Newton steps from t = x, then bisection. The
 * bisection stops where its state repeats (where WebKit would spin for
 * ever) or after 1,100 halvings, as Kinetics' webkit solver does; neither
 * happens for finite x and the tolerances used here. */
static double bezier_solve(const unit_bezier *c, double x, double epsilon) {
    if (c->linear) return x;
    double t2 = x;
    for (int i = 0; i < 8; i++) {
        double x2 = bezier_x(c, t2) - x;
        if (fabs(x2) < epsilon) return bezier_y(c, t2);
        double d2 = bezier_dx(c, t2);
        if (fabs(d2) < 1e-6) break;
        t2 = t2 - x2 / d2;
    }
    double t0 = 0.0, t1 = 1.0;
    t2 = x;
    if (t2 < t0) return bezier_y(c, t0);
    if (t2 > t1) return bezier_y(c, t1);
    for (int steps = 0; t0 < t1 && steps < 1100; steps++) {
        double x2 = bezier_x(c, t2);
        if (fabs(x2 - x) < epsilon) return bezier_y(c, t2);
        double before0 = t0, before1 = t1, before2 = t2;
        if (x > x2) t0 = t2; else t1 = t2;
        t2 = (t1 - t0) * 0.5 + t0;
        if (before0 == t0 && before1 == t1 && before2 == t2) break;
    }
    return bezier_y(c, t2);
}

/* MARK: - Timed animations: basic and keyframes */

/* A timed animation's progress at `time`, from 0 at `start` to 1 at `duration` on. */
static double timed_progress(double start, double duration, double time) {
    double elapsed = time - start;
    return (duration < elapsed ? duration : elapsed) / duration;
}

/* Writes `value` to the animation's property, or `end` once the progress
 * `t` is within 1e-6 of 1 (Pop's test); returns whether it is. */
static int timed_write(pop_animation *animation, pop_engine *engine, double t, double value, double end) {
    int done = t + 1e-6 >= 1;
    engine->values[animation->slot].lane[0] = done ? end : value;
    return done;
}

/* Pop's basic animation. */

typedef struct {
    pop_animation base;
    double from, to, duration, start;
    unit_bezier curve;
} pop_basic;

static int basic_render(pop_animation *animation, pop_engine *engine, double time) {
    pop_basic *basic = (pop_basic *)animation;
    double t = timed_progress(basic->start, basic->duration, time);
    double p = bezier_solve(&basic->curve, t, 1 / (1000 * basic->duration));
    return timed_write(animation, engine, t, basic->from + p * (basic->to - basic->from), basic->to);
}

static const pop_animation_class basic_class = {basic_render};

/* A basic animation from the property's value `start` to `spec`'s target. */
static pop_animation *basic_make(const pop_engine *engine, const kinetics_animation *spec, vector4 start) {
    pop_basic *basic = new_animation(sizeof *basic, &basic_class);
    if (!basic) return NULL;
    basic->from = start.lane[0];
    basic->to = spec->to;
    basic->duration = spec->duration;
    basic->curve = bezier_make(spec->curve);
    basic->start = engine->time;
    return &basic->base;
}

/* Keyframes (Pop has none): a segment search and WebKit's curve. */

typedef struct {
    pop_animation base;
    double start;
    unit_bezier *curves;
} pop_keyframes;

static int keyframes_render(pop_animation *animation, pop_engine *engine, double time) {
    pop_keyframes *keyframes = (pop_keyframes *)animation;
    const double duration = engine->keyframe_duration;
    const double *times = engine->keyframe_times;
    const double *values = engine->keyframe_values;
    const int32_t count = engine->keyframe_count;
    double t = timed_progress(keyframes->start, duration, time);
    int segment = 0;
    while (segment < count - 2 && times[segment + 1] <= t) segment++;
    double span = times[segment + 1] - times[segment];
    double local = span > 0 ? (t - times[segment]) / span : 1;
    double eased = bezier_solve(&keyframes->curves[segment], 1 < local ? 1 : local, 1 / (1000 * duration));
    return timed_write(
        animation, engine, t, values[segment] + eased * (values[segment + 1] - values[segment]), values[count - 1]);
}

static const pop_animation_class keyframes_class = {keyframes_render};

/* The workload's keyframes, each animation with its own curves, as an
 * object would hold them. */
static pop_animation *keyframes_make(const pop_engine *engine) {
    pop_keyframes *keyframes = new_animation(sizeof *keyframes, &keyframes_class);
    if (!keyframes) return NULL;
    keyframes->start = engine->time;
    int32_t segments = engine->keyframe_count - 1;
    keyframes->curves = malloc(sizeof(unit_bezier) * (size_t)segments);
    if (!keyframes->curves) {
        free(keyframes);
        return NULL;
    }
    for (int32_t s = 0; s < segments; s++) keyframes->curves[s] = bezier_make(engine->keyframe_curves + 4 * s);
    return &keyframes->base;
}

/* MARK: - The animator */

static pop_animation *make_animation(const pop_engine *engine, int64_t slot, const kinetics_animation *spec) {
    const vector4 start = engine->values[slot];
    switch (spec->kind) {
    case KINETICS_KIND_SPRING:
    case KINETICS_KIND_POINT_SPRING: return spring_make(engine, spec, start);
    case KINETICS_KIND_DECAY: return decay_make(engine, spec, start);
    case KINETICS_KIND_BASIC: return basic_make(engine, spec, start);
    case KINETICS_KIND_KEYFRAMES: return keyframes_make(engine);
    default: return NULL;
    }
}

static void free_animation(pop_animation *animation) {
    if (!animation) return;
    if (animation->kind == KINETICS_KIND_KEYFRAMES) free(((pop_keyframes *)animation)->curves);
    free(animation);
}

static int list_append(pop_engine *engine, pop_animation *animation) {
    if (engine->list_count == engine->list_capacity) {
        int64_t capacity = engine->list_capacity ? engine->list_capacity * 2 : 16;
        pop_animation **grown = realloc(engine->list, sizeof *grown * (size_t)capacity);
        if (!grown) return 0;
        engine->list = grown;
        engine->list_capacity = capacity;
    }
    engine->list[engine->list_count++] = animation;
    return 1;
}

/* Removal by linear search, keeping the order, as Pop's list does. */
static void list_remove(pop_engine *engine, const pop_animation *animation) {
    for (int64_t i = 0; i < engine->list_count; i++) {
        if (engine->list[i] == animation) {
            memmove(engine->list + i, engine->list + i + 1, sizeof *engine->list * (size_t)(engine->list_count - i - 1));
            engine->list_count--;
            return;
        }
    }
}

static int add_animation(pop_engine *engine, int64_t slot, const kinetics_animation *spec) {
    pop_animation *animation = make_animation(engine, slot, spec);
    if (!animation) return 0;
    animation->kind = spec->kind;
    animation->slot = slot;
    if (!list_append(engine, animation)) {
        free_animation(animation);
        return 0;
    }
    engine->owned[slot] = animation;
    /* Pop renders a new animation once right away. */
    (void)animation->isa->render(animation, engine, engine->time);
    return 1;
}

static void pop_destroy(void *handle) {
    pop_engine *engine = handle;
    if (!engine) return;
    if (engine->owned) {
        for (int64_t i = 0; i < engine->count; i++) free_animation(engine->owned[i]);
    }
    free(engine->owned);
    free(engine->list);
    free(engine->values);
    free(engine->keyframe_values);
    free(engine->keyframe_times);
    free(engine->keyframe_curves);
    free(engine);
}

static void *fail(pop_engine *engine, char *error, size_t size, const char *reason) {
    if (error && size > 0) snprintf(error, size, "%s", reason);
    pop_destroy(engine);
    return NULL;
}

static void *pop_create(const kinetics_workload *workload, char *error, size_t size) {
    if (!workload || workload->count < 0) return fail(NULL, error, size, "no workload, or a negative count");
    pop_engine *engine = calloc(1, sizeof *engine);
    if (!engine) return fail(NULL, error, size, "out of memory");
    const int64_t count = workload->count;
    engine->count = count;
    engine->values = calloc((size_t)(count ? count : 1), sizeof *engine->values);
    engine->owned = calloc((size_t)(count ? count : 1), sizeof *engine->owned);
    if (!engine->values || !engine->owned) return fail(engine, error, size, "out of memory");
    const kinetics_keyframes *track = &workload->keyframes;
    if (track->count > 0) {
        if (track->count < 2 || !(track->duration > 0)) {
            return fail(engine, error, size, "a keyframe track needs at least 2 values and a duration > 0");
        }
        size_t n = (size_t)track->count;
        engine->keyframe_count = track->count;
        engine->keyframe_duration = track->duration;
        engine->keyframe_values = malloc(sizeof(double) * n);
        engine->keyframe_times = malloc(sizeof(double) * n);
        engine->keyframe_curves = malloc(sizeof(double) * 4 * (n - 1));
        if (!engine->keyframe_values || !engine->keyframe_times || !engine->keyframe_curves) {
            return fail(engine, error, size, "out of memory");
        }
        memcpy(engine->keyframe_values, track->values, sizeof(double) * n);
        memcpy(engine->keyframe_times, track->key_times, sizeof(double) * n);
        memcpy(engine->keyframe_curves, track->curves, sizeof(double) * 4 * (n - 1));
    }
    for (int64_t i = 0; i < count; i++) {
        const kinetics_animation *spec = &workload->animations[i];
        if (spec->kind < KINETICS_KIND_SPRING || spec->kind > KINETICS_KIND_KEYFRAMES) {
            return fail(engine, error, size, "an animation of unknown kind");
        }
        if (spec->kind == KINETICS_KIND_KEYFRAMES && engine->keyframe_count == 0) {
            return fail(engine, error, size, "a keyframe animation without a keyframe track");
        }
        double initial = workload->initial[i];
        engine->values[i].lane[0] = initial;
        if (spec->kind == KINETICS_KIND_POINT_SPRING) engine->values[i].lane[1] = initial;
        if (!add_animation(engine, i, spec)) return fail(engine, error, size, "out of memory");
    }
    return engine;
}

static void pop_replace(void *handle, int64_t index, const kinetics_animation *spec) {
    pop_engine *engine = handle;
    pop_animation *old = engine->owned[index];
    if (old) list_remove(engine, old);
    free_animation(old);
    engine->owned[index] = NULL;
    (void)add_animation(engine, index, spec);
}

static void pop_retarget(void *handle, int64_t index, double to) {
    pop_engine *engine = handle;
    pop_animation *animation = engine->owned[index];
    if (!animation) return;
    if (animation->kind != KINETICS_KIND_SPRING && animation->kind != KINETICS_KIND_POINT_SPRING) return;
    pop_spring *spring = (pop_spring *)animation;
    for (int i = 0; i < spring->width; i++) spring->target.lane[i] = to;
}

static void pop_tick(void *handle, double time) {
    pop_engine *engine = handle;
    engine->time = time;
    /* POPAnimator copies its list into a vector every frame. */
    int64_t count = engine->list_count;
    pop_animation **snapshot = malloc(sizeof *snapshot * (size_t)(count ? count : 1));
    if (!snapshot) abort();
    memcpy(snapshot, engine->list, sizeof *snapshot * (size_t)count);
    for (int64_t i = 0; i < count; i++) {
        pop_animation *animation = snapshot[i];
        if (animation->isa->render(animation, engine, time)) list_remove(engine, animation);
    }
    free(snapshot);
}

static double pop_value(const void *handle, int64_t index) {
    const pop_engine *engine = handle;
    return engine->values[index].lane[0];
}

static int64_t pop_running(const void *handle) {
    const pop_engine *engine = handle;
    return engine->list_count;
}

static const kinetics_engine pop_c_engine = KINETICS_ENGINE_TABLE(pop, "pop-c");

const kinetics_engine *kinetics_pop_c_engine(void) { return &pop_c_engine; }
