/*
 * abi-null: an engine that does nothing, behind the C interface. Its frame
 * is the bench harness alone (the scenario's loop, one indirect call to
 * tick, the clock read around it): what the harness adds to any engine's
 * frame, measured the same way.
 */
#include <stdlib.h>

#include "null_engine.h"

typedef struct {
    int64_t count;
    double last_time;
} null_engine;

static void *null_create(const kinetics_workload *workload, char *error, size_t error_size) {
    (void)error;
    (void)error_size;
    null_engine *engine = malloc(sizeof *engine);
    if (!engine) return NULL;
    engine->count = workload->count;
    engine->last_time = 0;
    return engine;
}

static void null_replace(void *handle, int64_t index, const kinetics_animation *animation) {
    (void)handle;
    (void)index;
    (void)animation;
}

static void null_retarget(void *handle, int64_t index, double to) {
    (void)handle;
    (void)index;
    (void)to;
}

static void null_tick(void *handle, double time) { ((null_engine *)handle)->last_time = time; }

static double null_value(const void *handle, int64_t index) {
    (void)handle;
    (void)index;
    return 0;
}

/* Every animation runs for ever: nothing is ever done. */
static int64_t null_running(const void *handle) { return ((const null_engine *)handle)->count; }

static void null_destroy(void *handle) { free(handle); }

static const kinetics_engine null_table = KINETICS_ENGINE_TABLE(null, "abi-null");

const kinetics_engine *kinetics_null_engine(void) { return &null_table; }
