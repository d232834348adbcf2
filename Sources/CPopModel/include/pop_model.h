/*
 * pop_model.h: a model of Pop's frame in C, measured by `kinetics bench
 * --engine pop-c` beside the Swift model (`--engine reference`).
 */
#ifndef KINETICS_POP_MODEL_H
#define KINETICS_POP_MODEL_H

#include "kinetics_engine.h"

/* The engine table of the C model of Pop's frame. */
const kinetics_engine *kinetics_pop_c_engine(void);

#endif
