/*
 * The C example engine (Examples/engines/soa_springs.c) made slower by a
 * known amount, for measuring what `kinetics gate` detects
 * (scripts/gate-power.sh): after the example's own tick, a chain of
 * dependent multiply-adds, EXTRA of them per 1,000 springs, which no
 * compiler can vectorise or drop (its result is stored to a volatile).
 * Its engine is named soa-springs-slowed, so that `kinetics bench` can
 * measure it beside the original in one run.
 *
 *   cc -O2 -shared -fPIC -DEXTRA=100 -I Sources/CKineticsEngine/include -I Examples/engines \
 *      -o libslowed.so scripts/gate/soa_springs_slowed.c -lm
 */
#ifndef EXTRA
#error "define EXTRA, the multiply-adds per 1,000 springs per frame"
#endif

#define kinetics_engine_table soa_plain_table
#include "soa_springs.c"
#undef kinetics_engine_table

const kinetics_engine *kinetics_engine_table(void);

static kinetics_engine slowed;

static void slowed_tick(void *handle, double time) {
    table.tick(handle, time);
    const engine *e = handle;
    volatile double sink;
    double x = 1;
    for (int64_t i = 0; i < e->count * EXTRA / 1000; i++) x = x * 0.999999 + 1e-9;
    sink = x;
    (void)sink;
}

const kinetics_engine *kinetics_engine_table(void) {
    slowed = table;
    slowed.tick = slowed_tick;
    slowed.name = "soa-springs-slowed";
    return &slowed;
}
