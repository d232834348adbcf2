// Callgrind's client requests, where valgrind's headers were installed when
// this was built (Debian's valgrind package has them). `--count
// instructions` starts its runs with instrumentation off
// (`--instr-atstart=no`): valgrind then runs the program's start-up, the
// Swift runtime's and the command's, near native speed, and the measuring
// code turns instrumentation on before its first frame. What is counted is
// unchanged, as counting happens only inside the measured frame's function.

#ifndef KINETICS_CALLGRIND_H
#define KINETICS_CALLGRIND_H

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define KINETICS_CALLGRIND_REQUESTS 1
#endif
#endif

/// 1 when this build can turn callgrind's instrumentation on
/// (``kinetics_callgrind_start_instrumentation``), else 0.
static inline int kinetics_callgrind_requests(void) {
#ifdef KINETICS_CALLGRIND_REQUESTS
    return 1;
#else
    return 0;
#endif
}

/// Turns callgrind's instrumentation on; without callgrind, or without the
/// requests in this build, does nothing.
static inline void kinetics_callgrind_start_instrumentation(void) {
#ifdef KINETICS_CALLGRIND_REQUESTS
    CALLGRIND_START_INSTRUMENTATION;
#endif
}

#endif
