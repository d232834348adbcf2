/*
 * An engine that fails on purpose: soa_springs.c, made to crash, abort,
 * exit, hang or chatter once it runs 1,000 animations or more (smaller
 * workloads run as soa_springs.c does; -DARM_AT=N sets the count, and
 * -DARM_AT=1 fails on any workload, as `kinetics verify`'s tests use it). It is how Kinetics' tests, and
 * docs/bench.md's table of crashes, show what `kinetics gate` reports when
 * the engine under test dies. FAULT chooses the failure:
 *
 *   segv     writes through NULL in a tick after 0.5 s of animation time
 *   abort    calls abort() there
 *   exit     calls exit(3) there
 *   hang     never returns from that tick
 *   chatter  prints 10 MB to standard output in its first create, then runs
 *            normally
 *   leak     allocates (and touches) 64 MB blocks in create until malloc
 *            refuses, then aborts, as a program's out-of-memory handler does
 *   nan      runs normally but gives NaN for every value
 *   stop     stops its own process (SIGSTOP) in that tick, as a debugger
 *            or a job-control signal would
 *   fork     forks a helper that keeps every descriptor open and sleeps for
 *            an hour, then writes through NULL in that tick
 *
 *   cc -O2 -shared -fPIC -DFAULT=segv -I Sources/CKineticsEngine/include \
 *       -o libfaulty_springs.so Examples/engines/faulty_springs.c -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

/* soa_springs.c, with its exported table function renamed so that this
 * file exports its own. */
#define kinetics_engine_table soa_engine_table
#include "soa_springs.c"
#undef kinetics_engine_table

/* FAULT as a string: -DFAULT=segv gives "segv". */
#define FAULT_TEXT(name) #name
#define FAULT_NAME(name) FAULT_TEXT(name)
static const char *fault = FAULT_NAME(FAULT);

#ifndef ARM_AT
#define ARM_AT 1000
#endif

static int faulty_armed; /* the workload has ARM_AT animations or more */

static void *faulty_create(const kinetics_workload *w, char *error, size_t error_size) {
    faulty_armed = w->count >= ARM_AT;
    static int chattered;
    if (faulty_armed && strcmp(fault, "chatter") == 0 && !chattered) {
        chattered = 1;
        static char line[1000];
        memset(line, 'x', sizeof line - 1);
        line[sizeof line - 1] = '\n';
        for (int i = 0; i < 10000; i++) fwrite(line, 1, sizeof line, stdout);
        fflush(stdout);
    }
    if (faulty_armed && strcmp(fault, "leak") == 0) {
        for (;;) {
            char *block = malloc(64 << 20);
            if (block == NULL) abort();
            memset(block, 1, 64 << 20);
        }
    }
    return soa_create(w, error, error_size);
}

static void faulty_tick(void *handle, double time) {
    if (faulty_armed && time > 0.5) {
        if (strcmp(fault, "segv") == 0) *(volatile int *)NULL = 1;
        if (strcmp(fault, "abort") == 0) abort();
        if (strcmp(fault, "exit") == 0) exit(3);
        if (strcmp(fault, "hang") == 0)
            for (;;) pause();
        if (strcmp(fault, "stop") == 0) raise(SIGSTOP);
        if (strcmp(fault, "fork") == 0) {
            if (fork() == 0) {
                sleep(3600);
                _exit(0);
            }
            *(volatile int *)NULL = 1;
        }
    }
    soa_tick(handle, time);
}

static double faulty_value(const void *handle, int64_t i) {
    if (faulty_armed && strcmp(fault, "nan") == 0) return NAN;
    return soa_value(handle, i);
}

static kinetics_engine faulty;

const kinetics_engine *kinetics_engine_table(void) {
    faulty = table;
    faulty.name = "faulty-springs";
    faulty.create = faulty_create;
    faulty.tick = faulty_tick;
    faulty.value = faulty_value;
    return &faulty;
}
