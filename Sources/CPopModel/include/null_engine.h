/*
 * null_engine.h: `abi-null`, an engine that does nothing, through which the
 * bench measures its own harness (kinetics bench --engine abi-null).
 */
#ifndef KINETICS_NULL_ENGINE_H
#define KINETICS_NULL_ENGINE_H

#include "kinetics_engine.h"

/* The table of the engine that does nothing. */
const kinetics_engine *kinetics_null_engine(void);

#endif
