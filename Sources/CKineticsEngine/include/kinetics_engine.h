/*
 * kinetics_engine.h: the C interface through which `kinetics bench` drives
 * an animation engine that is not written in Swift.
 *
 * An engine is a table of functions (struct kinetics_engine). The bench
 * creates the engine for a workload, then runs frames: between two ticks it
 * may replace or retarget animations (the churn and retarget-storm
 * scenarios); a tick advances every running animation to a time and writes
 * their values; the bench reads values back to check them.
 *
 * Version 2: `velocity` is a spring's initial velocity as well as a
 * decay's. Version 1 gave it to decays only, and its layout is the same.
 * Kinetics takes a table or library of version 1 or 2 and refuses any
 * other; it gives a version 1 engine only springs that start at rest
 * (velocity 0, as every bench workload's springs do), so a library built
 * against version 1 keeps working unchanged.
 *
 * An engine in a shared library (`kinetics bench --engine-library PATH`)
 * exports the two functions declared at the end of this header:
 * kinetics_engine_abi_version, which Kinetics calls first and refuses the
 * library unless it returns the version Kinetics speaks, and
 * kinetics_engine_table. The table's name names the engine in tables and
 * baselines: letters, digits, '.', '_' and '-', at most 40, not a built-in
 * engine's name. Kinetics calls the engine from one thread.
 */
#ifndef KINETICS_ENGINE_H
#define KINETICS_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KINETICS_ENGINE_ABI_VERSION 2
/* The oldest version Kinetics still takes. */
#define KINETICS_ENGINE_ABI_OLDEST_VERSION 1

/* What an animation is. */
enum kinetics_kind {
    /* A spring on a scalar property. */
    KINETICS_KIND_SPRING = 0,
    /* A spring on a two-component property; both components move alike. */
    KINETICS_KIND_POINT_SPRING = 1,
    /* A decay: a throw slowing down by a factor per millisecond. */
    KINETICS_KIND_DECAY = 2,
    /* A basic animation along a cubic bezier timing curve. */
    KINETICS_KIND_BASIC = 3,
    /* The workload's keyframe track (struct kinetics_keyframes). */
    KINETICS_KIND_KEYFRAMES = 4,
};

/* One animation of a workload. Fields a kind does not use are 0. Every
 * animation starts from its property's current value. */
typedef struct kinetics_animation {
    int32_t kind;        /* enum kinetics_kind */
    int32_t reserved;    /* 0 */
    double tension;      /* springs: stiffness k > 0 */
    double friction;     /* springs: damping c >= 0 */
    double mass;         /* springs: m > 0 */
    double to;           /* springs and basics: the target of every component */
    double velocity;     /* springs and decays: initial velocity, units per second
                          * (springs: version 2; 0 in every bench workload) */
    double deceleration; /* decays: velocity factor per millisecond, in (0, 1) */
    double threshold;    /* springs and decays: Pop's rest threshold */
    double duration;     /* basics: seconds, > 0 */
    double curve[4];     /* basics: the timing curve's x1, y1, x2, y2 */
} kinetics_animation;

/* The keyframe track that every KINETICS_KIND_KEYFRAMES animation plays. */
typedef struct kinetics_keyframes {
    int32_t count;            /* values, >= 2 (0 when the workload has none) */
    int32_t reserved;         /* 0 */
    const double *values;     /* count values */
    const double *key_times;  /* count fractions of the duration, 0 first, 1 last */
    const double *curves;     /* count - 1 segments × (x1, y1, x2, y2); a NaN x1 is linear */
    double duration;          /* seconds, > 0 */
} kinetics_keyframes;

/* What the bench asks an engine to run. Arrays stay valid until create returns. */
typedef struct kinetics_workload {
    int64_t count;                         /* properties, one animation each */
    const double *initial;                 /* count initial values (a point starts at (v, v)) */
    const kinetics_animation *animations;  /* animation i runs on property i, added at time 0 */
    kinetics_keyframes keyframes;
} kinetics_workload;

/* An engine. Every function but create takes the handle create returned. */
typedef struct kinetics_engine {
    /* KINETICS_ENGINE_ABI_VERSION. */
    uint32_t abi_version;
    uint32_t reserved;
    /* A short name for tables: "pop-c". */
    const char *name;
    /* Adds the workload's animations at time 0, each rendered once. Returns
     * NULL on failure with a reason in error (at most error_size bytes,
     * NUL-terminated). */
    void *(*create)(const kinetics_workload *workload, char *error, size_t error_size);
    /* Removes property index's animation (when it is running) and adds
     * animation in its place, at the time of the last tick (0 before the
     * first), starting from the property's current value with the
     * animation's own velocity; rendered once. */
    void (*replace)(void *engine, int64_t index, const kinetics_animation *animation);
    /* Gives property index's spring a new target; anything else ignores it. */
    void (*retarget)(void *engine, int64_t index, double to);
    /* Advances every running animation to time (seconds, non-decreasing),
     * writes their values and removes those that finished. */
    void (*tick)(void *engine, double time);
    /* Property index's value (a point's first component). */
    double (*value)(const void *engine, int64_t index);
    /* How many animations are running. */
    int64_t (*running)(const void *engine);
    /* Frees the engine. */
    void (*destroy)(void *engine);
} kinetics_engine;

/* The table of an engine whose functions are named PREFIX_create,
 * PREFIX_replace, PREFIX_retarget, PREFIX_tick, PREFIX_value, PREFIX_running
 * and PREFIX_destroy, under the name NAME:
 *     static const kinetics_engine table = KINETICS_ENGINE_TABLE(soa, "soa-springs"); */
#define KINETICS_ENGINE_TABLE(PREFIX, NAME)                                                      \
    {                                                                                            \
        .abi_version = KINETICS_ENGINE_ABI_VERSION, .reserved = 0, .name = (NAME),               \
        .create = PREFIX##_create, .replace = PREFIX##_replace, .retarget = PREFIX##_retarget,   \
        .tick = PREFIX##_tick, .value = PREFIX##_value, .running = PREFIX##_running,             \
        .destroy = PREFIX##_destroy,                                                             \
    }

/* What a library for `kinetics bench --engine-library` exports. Kinetics
 * looks them up by name; the library does not link against Kinetics. */
typedef uint32_t (*kinetics_engine_abi_version_function)(void);
typedef const kinetics_engine *(*kinetics_engine_table_function)(void);

/* The KINETICS_ENGINE_ABI_VERSION the library was built with. */
uint32_t kinetics_engine_abi_version(void);
/* The engine's table, valid while the library is loaded. */
const kinetics_engine *kinetics_engine_table(void);

/* Both, for the table of KINETICS_ENGINE_TABLE(PREFIX, NAME), written once at
 * file scope of the library's source (C, or C++ after this header):
 *     KINETICS_ENGINE_EXPORT(soa, "soa-springs") */
#define KINETICS_ENGINE_EXPORT(PREFIX, NAME)                                                              \
    static const kinetics_engine kinetics_engine_exported_table = KINETICS_ENGINE_TABLE(PREFIX, NAME);  \
    uint32_t kinetics_engine_abi_version(void) { return KINETICS_ENGINE_ABI_VERSION; }                   \
    const kinetics_engine *kinetics_engine_table(void) { return &kinetics_engine_exported_table; }

#ifdef __cplusplus
}
#endif

#endif
