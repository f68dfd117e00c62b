// The device assembler took fabsf(x) for a number: these compared true for a NaN x on the GPU
// (seed 20261205, p892), false in C++ and in the interpreter. Compare the backends:
//   culift launch fabs_nan_compare.hpp --function AbsAboveNegative --extent 8 \
//     --args '[["nan", "-nan", 1, -5, "inf", "-inf", 0, -0.0]]' --backend gpu --strict   (and --backend cpu)
#include <cmath>
#include <culift/annotate.hpp>
CULIFT_KERNEL int AbsAboveNegative(float x) { return (-3.25f < std::fabs(x)) ? 1 : 0; }
CULIFT_KERNEL int AbsAboveNegativeSwapped(float x) { return (std::fabs(x) > -3.25f) ? 1 : 0; }
CULIFT_KERNEL int AbsAboveNegativeDouble(double x) { return (-3.25 < std::fabs(x)) ? 1 : 0; }
CULIFT_KERNEL int AbsAtLeastZero(float x) { return (std::fabs(x) >= 0.0f) ? 1 : 0; }
CULIFT_KERNEL int SquareAboveNegative(float x) { return (x * x > -1.0f) ? 1 : 0; }
