/*
 * A plain structure-of-arrays spring engine in C, benched by Kinetics
 * through the interface of kinetics_engine.h:
 *
 *   cc -O2 -shared -fPIC -I Sources/CKineticsEngine/include -o libsoa_springs.so Examples/engines/soa_springs.c
 *   kinetics bench --engine-library ./libsoa_springs.so --animations 10000
 *
 * Scalar springs only (the spring mix): a workload with anything else is
 * refused by create, with the reason. Each frame moves every spring by the
 * exact solution of m x'' = -k (x - to) - c x' over the frame's length: one
 * 2×2 transition matrix per distinct spring per frame (the workload shares
 * a few), then two multiply-adds per component per spring. A spring starts
 * with its animation's velocity (interface version 2). A spring stops
 * where Pop stops it: |x - to| and |v| both below its threshold, snapped to
 * its target.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "kinetics_engine.h"

#define MAX_KINDS 64

typedef struct { double k, c, m; } spring_kind;
typedef struct { double xx, xv, vx, vv; } transition;

typedef struct {
    int64_t count;
    double *offset;    /* x - to */
    double *velocity;
    double *target;
    double *threshold;
    int32_t *kind;     /* index into kinds */
    uint8_t *active;
    int64_t running;
    spring_kind kinds[MAX_KINDS];
    int32_t kind_count;
    double last_time;
} engine;

/* The exact transition over h of x'' = -(k/m) x - (c/m) x'. */
static transition exact(spring_kind s, double h) {
    double w0 = sqrt(s.k / s.m), zeta = s.c / (2 * sqrt(s.k * s.m));
    transition t;
    if (zeta < 1) {
        double wd = w0 * sqrt(1 - zeta * zeta), e = exp(-zeta * w0 * h);
        double co = cos(wd * h), si = sin(wd * h);
        t.xx = e * (co + zeta * w0 / wd * si);
        t.xv = e * si / wd;
        t.vx = -e * w0 * w0 / wd * si;
        t.vv = e * (co - zeta * w0 / wd * si);
    } else if (zeta == 1) {
        double e = exp(-w0 * h);
        t.xx = e * (1 + w0 * h);
        t.xv = e * h;
        t.vx = -e * w0 * w0 * h;
        t.vv = e * (1 - w0 * h);
    } else {
        double root = w0 * sqrt(zeta * zeta - 1);
        double r1 = -zeta * w0 + root, r2 = -zeta * w0 - root;
        double e1 = exp(r1 * h), e2 = exp(r2 * h), d = r2 - r1;
        t.xx = (r2 * e1 - r1 * e2) / d;
        t.xv = (e2 - e1) / d;
        t.vx = r1 * r2 * (e1 - e2) / d;
        t.vv = (r2 * e2 - r1 * e1) / d;
    }
    return t;
}

static int32_t kind_of(engine *e, const kinetics_animation *a) {
    for (int32_t i = 0; i < e->kind_count; i++) {
        if (e->kinds[i].k == a->tension && e->kinds[i].c == a->friction && e->kinds[i].m == a->mass) return i;
    }
    if (e->kind_count == MAX_KINDS) return -1;
    e->kinds[e->kind_count] = (spring_kind){a->tension, a->friction, a->mass};
    return e->kind_count++;
}

static void soa_destroy(void *handle) {
    engine *e = handle;
    if (!e) return;
    free(e->offset); /* the columns' one block */
    free(e);
}

static void *soa_create(const kinetics_workload *w, char *error, size_t error_size) {
    for (int64_t i = 0; i < w->count; i++) {
        if (w->animations[i].kind != KINETICS_KIND_SPRING) {
            snprintf(error, error_size, "animation %lld is not a scalar spring; this engine runs springs only (--mix spring)",
                     (long long)i);
            return NULL;
        }
    }
    engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    size_t n = (size_t)w->count;
    e->count = w->count;
    /* The columns in one block: the four of doubles, then the kinds and the flags. */
    e->offset = malloc(n * (4 * sizeof(double) + sizeof(int32_t) + 1));
    if (!e->offset) {
        snprintf(error, error_size, "out of memory for %lld springs", (long long)w->count);
        soa_destroy(e);
        return NULL;
    }
    e->velocity = e->offset + n;
    e->target = e->offset + 2 * n;
    e->threshold = e->offset + 3 * n;
    e->kind = (int32_t *)(e->offset + 4 * n);
    e->active = (uint8_t *)(e->kind + n);
    for (int64_t i = 0; i < w->count; i++) {
        const kinetics_animation *a = &w->animations[i];
        int32_t kind = kind_of(e, a);
        if (kind < 0) {
            snprintf(error, error_size, "more than %d distinct springs", MAX_KINDS);
            soa_destroy(e);
            return NULL;
        }
        e->kind[i] = kind;
        e->target[i] = a->to;
        e->offset[i] = w->initial[i] - a->to;
        e->velocity[i] = a->velocity;
        e->threshold[i] = a->threshold;
        e->active[i] = 1;
    }
    e->running = w->count;
    return e;
}

static void soa_replace(void *handle, int64_t i, const kinetics_animation *a) {
    engine *e = handle;
    int32_t kind = kind_of(e, a);
    if (kind < 0) return;
    double value = e->offset[i] + e->target[i];
    if (!e->active[i]) e->running++;
    e->active[i] = 1;
    e->kind[i] = kind;
    e->target[i] = a->to;
    e->offset[i] = value - a->to;
    e->velocity[i] = a->velocity;
    e->threshold[i] = a->threshold;
}

static void soa_retarget(void *handle, int64_t i, double to) {
    engine *e = handle;
    if (!e->active[i]) return;
    e->offset[i] += e->target[i] - to;
    e->target[i] = to;
}

static void soa_tick(void *handle, double time) {
    engine *e = handle;
    double h = time - e->last_time;
    e->last_time = time;
    if (!(h > 0)) return;
    transition t[MAX_KINDS];
    for (int32_t k = 0; k < e->kind_count; k++) t[k] = exact(e->kinds[k], h);
    int64_t finished = 0;
    for (int64_t i = 0; i < e->count; i++) {
        if (!e->active[i]) continue;
        const transition m = t[e->kind[i]];
        double x = e->offset[i], v = e->velocity[i];
        double nx = m.xx * x + m.xv * v, nv = m.vx * x + m.vv * v;
        if (fabs(nx) < e->threshold[i] && fabs(nv) < e->threshold[i]) {
            nx = 0;
            nv = 0;
            e->active[i] = 0;
            finished++;
        }
        e->offset[i] = nx;
        e->velocity[i] = nv;
    }
    e->running -= finished;
}

static double soa_value(const void *handle, int64_t i) {
    const engine *e = handle;
    return e->offset[i] + e->target[i];
}

static int64_t soa_running(const void *handle) { return ((const engine *)handle)->running; }

/* Spelled out, not KINETICS_ENGINE_EXPORT: faulty_springs.c and the gate's
 * slowed build include this file and start from `table`. */
static const kinetics_engine table = KINETICS_ENGINE_TABLE(soa, "soa-springs");

uint32_t kinetics_engine_abi_version(void) { return KINETICS_ENGINE_ABI_VERSION; }

const kinetics_engine *kinetics_engine_table(void) { return &table; }
