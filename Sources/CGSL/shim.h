// The parts of GSL (the GNU Scientific Library) that KineticsReference uses.
// Debian and Ubuntu: apt-get install libgsl-dev; macOS: brew install gsl.
#ifndef KINETICS_CGSL_SHIM_H
#define KINETICS_CGSL_SHIM_H

#if !__has_include(<gsl/gsl_odeiv2.h>)
#error "GSL headers not found: install GSL (Debian/Ubuntu: apt-get install libgsl-dev; macOS: brew install gsl), then build again."
#endif

#include <gsl/gsl_errno.h>
#include <gsl/gsl_math.h>
#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_poly.h>
#include <gsl/gsl_roots.h>
#include <gsl/gsl_version.h>

// GSL exposes its steppers, solvers and version as global variables, which
// Swift 6 treats as shared mutable state; these accessors read them instead.
static inline const gsl_odeiv2_step_type *kinetics_gsl_rk8pd(void) { return gsl_odeiv2_step_rk8pd; }
static inline const gsl_root_fsolver_type *kinetics_gsl_brent(void) { return gsl_root_fsolver_brent; }
static inline const char *kinetics_gsl_version(void) { return gsl_version; }

#endif
