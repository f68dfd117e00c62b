// A helper the kernels call, in a header of its own: editing it makes culift_add_kernels
// translate signal-stats.hpp again (its depfile lists this file). Annotated, it is a kernel of
// its own too (element-wise); called from a kernel, a device function.
#pragma once

#include <culift/annotate.hpp>

CULIFT_KERNEL inline float clip(float v, float limit) { return v > limit ? limit : v < -limit ? -limit : v; }
