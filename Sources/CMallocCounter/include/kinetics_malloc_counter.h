/*
 * kinetics_malloc_counter.h: the calls of malloc-interposer's C interface
 * (its interposer.h) that KineticsAllocations makes, declared by name so
 * that this module needs none of its headers. They are defined by the
 * interposer's shared library (the Bench and Tools traits), or by its C
 * source linked into the standalone binary (scripts/build-release.sh).
 */
#ifndef KINETICS_MALLOC_COUNTER_H
#define KINETICS_MALLOC_COUNTER_H

#include <stddef.h>

/* Counting on and off, process-wide. */
void malloc_interposer_enable(void);
void malloc_interposer_disable(void);

/* A function called on the allocating thread for every allocation counted
 * (NULL: none). */
typedef void (*malloc_interposer_allocation_hook_t)(size_t size);
void malloc_interposer_set_allocation_hook(malloc_interposer_allocation_hook_t hook);

#endif
