// The functions are all `static inline` in kinetics_support.h; a C target
// needs one source file.
#include "kinetics_support.h"
