// The requests are inline functions of include/kinetics_callgrind.h; SwiftPM
// wants a source file in a C target.
#include "kinetics_callgrind.h"
