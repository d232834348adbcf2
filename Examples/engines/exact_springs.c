/*
 * Exact springs in C, behind the interface of kinetics_engine.h (version
 * 2): each spring's value at a tick is the closed-form solution of
 * m x'' = -k (x - to) - c x' at the time since it started, from the value
 * and velocity it started with. No state is stepped, so no error
 * accumulates from frame to frame; it is the engine that
 * `kinetics verify --engine-library` should find exact:
 *
 *   cc -O2 -shared -fPIC -I Sources/CKineticsEngine/include -o libexact_springs.so Examples/engines/exact_springs.c -lm
 *   kinetics verify --suite spring --engine-library ./libexact_springs.so
 *
 * Scalar springs only; create refuses anything else, naming it. A spring
 * stops where Pop stops it (|x - to| and |v| both below its threshold,
 * snapped to its target); a threshold of 0, as verify gives, never stops it.
 *
 * With a = c/(2m), w2 = k/m and q = w2 - a^2, the offset d = x - to moves as
 *   d(t) = e^{-at} [d0 (C + a S) + v0 S],  v(t) = e^{-at} [v0 (C - a S) - w2 d0 S]
 * with C = cos(sqrt(q) t), S = sin(sqrt(q) t)/sqrt(q) when q > 0 (C = 1,
 * S = t at q = 0). When q < 0 the hyperbolic form is written with the slow
 * root's exponential e^{r1 t}, r1 = -w2/(a + sqrt(-q)), so that nothing
 * overflows for strong damping, and with expm1 so that nothing cancels near
 * critical damping.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kinetics_engine.h"

typedef struct {
    double a, w2, q;     /* the spring: a = c/(2m), w2 = k/m, q = w2 - a^2 */
    double to, d0, v0;   /* target, start offset and velocity */
    double start;        /* time it started */
    double threshold;
    double value;        /* last value written */
    double velocity;     /* last velocity */
    int running;
} spring;

typedef struct {
    int64_t count;
    spring *springs;
    int64_t running;
    double time;
} engine;

/* The offset and velocity t seconds after the start. */
static void motion(const spring *s, double t, double *d, double *v) {
    double a = s->a, w2 = s->w2, q = s->q, d0 = s->d0, v0 = s->v0;
    double dd, dv, vd, vv;
    if (q >= 0) {
        double wd = sqrt(q), y = wd * t, e = exp(-a * t);
        double cosine = q == 0 ? 1 : cos(y);
        double sine = y == 0 ? t : sin(y) / wd;
        dd = e * (cosine + a * sine);
        dv = e * sine;
        vd = -w2 * (e * sine);
        vv = e * (cosine - a * sine);
    } else {
        double wp = sqrt(-q), fast = a + wp, slow = -w2 / fast;
        double e1 = exp(slow * t), em = expm1(-2 * wp * t);
        double sinh_term = e1 * (-em) / (2 * wp);
        dv = sinh_term;
        vd = -w2 * sinh_term;
        if (a * a < 2.25 * w2) {
            double cosh_term = e1 * (2 + em) / 2;
            dd = cosh_term + a * sinh_term;
            vv = cosh_term - a * sinh_term;
        } else {
            double e2 = exp(-fast * t), width = 2 * wp;
            dd = (fast * e1 + slow * e2) / width;
            vv = (slow * e1 + fast * e2) / width;
        }
    }
    *d = dd * d0 + dv * v0;
    *v = vd * d0 + vv * v0;
}

/* Starts s at time `time` from value x with velocity v. */
static void start(engine *e, spring *s, const kinetics_animation *animation, double x, double v, double time) {
    double m = animation->mass;
    s->a = animation->friction / (2 * m);
    s->w2 = animation->tension / m;
    s->q = fma(-s->a, s->a, s->w2);
    s->to = animation->to;
    s->d0 = x - animation->to;
    s->v0 = v;
    s->start = time;
    s->threshold = animation->threshold;
    s->value = x;
    s->velocity = v;
    if (!s->running) e->running++;
    s->running = 1;
}

static void *exact_create(const kinetics_workload *workload, char *error, size_t error_size) {
    for (int64_t i = 0; i < workload->count; i++) {
        const kinetics_animation *animation = &workload->animations[i];
        if (animation->kind != KINETICS_KIND_SPRING) {
            snprintf(error, error_size, "exact-springs runs scalar springs only; animation %lld is of kind %d",
                     (long long)i, animation->kind);
            return NULL;
        }
        if (!(animation->tension > 0 && animation->mass > 0 && animation->friction >= 0)) {
            snprintf(error, error_size, "animation %lld: a spring needs tension > 0, mass > 0, friction >= 0",
                     (long long)i);
            return NULL;
        }
    }
    engine *e = calloc(1, sizeof *e);
    spring *springs = calloc(workload->count > 0 ? (size_t)workload->count : 1, sizeof *springs);
    if (!e || !springs) {
        free(e);
        free(springs);
        snprintf(error, error_size, "out of memory for %lld springs", (long long)workload->count);
        return NULL;
    }
    e->count = workload->count;
    e->springs = springs;
    for (int64_t i = 0; i < workload->count; i++)
        start(e, &springs[i], &workload->animations[i], workload->initial[i], workload->animations[i].velocity, 0);
    return e;
}

static void exact_replace(void *handle, int64_t index, const kinetics_animation *animation) {
    engine *e = handle;
    if (index < 0 || index >= e->count || animation->kind != KINETICS_KIND_SPRING) return;
    spring *s = &e->springs[index];
    start(e, s, animation, s->value, animation->velocity, e->time);
}

static void exact_retarget(void *handle, int64_t index, double to) {
    engine *e = handle;
    if (index < 0 || index >= e->count) return;
    spring *s = &e->springs[index];
    if (!s->running) return;
    s->to = to;
    s->d0 = s->value - to;
    s->v0 = s->velocity;
    s->start = e->time;
}

static void exact_tick(void *handle, double time) {
    engine *e = handle;
    e->time = time;
    for (int64_t i = 0; i < e->count; i++) {
        spring *s = &e->springs[i];
        if (!s->running) continue;
        double d, v;
        motion(s, time - s->start, &d, &v);
        if (fabs(d) < s->threshold && fabs(v) < s->threshold) {
            s->value = s->to;
            s->velocity = 0;
            s->running = 0;
            e->running--;
        } else {
            s->value = s->to + d;
            s->velocity = v;
        }
    }
}

static double exact_value(const void *handle, int64_t index) {
    const engine *e = handle;
    return index >= 0 && index < e->count ? e->springs[index].value : NAN;
}

static int64_t exact_running(const void *handle) { return ((const engine *)handle)->running; }

static void exact_destroy(void *handle) {
    engine *e = handle;
    free(e->springs);
    free(e);
}

KINETICS_ENGINE_EXPORT(exact, "exact-springs")
