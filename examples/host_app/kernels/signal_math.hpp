// A helper the kernels call (lifted as a device function), in a header of its own: editing it
// makes culift_add_kernels translate signal-stats.hpp again (its depfile lists this file).
#pragma once

inline float clip(float v, float limit) { return v > limit ? limit : v < -limit ? -limit : v; }
