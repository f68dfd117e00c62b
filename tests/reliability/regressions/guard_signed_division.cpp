// Regression: signed division and remainder at the edges (MIN / -1 is guarded, so the
// program is defined; MIN % 7, -7 / 2 round toward zero), shifts masked into range.
// Written by hand in the generator's format; keeps the replay machinery honest.
// culift-kernel: i32 guard_signed_division_kernel
// culift-param: s0 i32 value -1
// culift-param: s1 i32 value -1
// culift-param: s2 i8 value -1
// culift-args: 00000080 ffffffff f9
// culift-args: 00000080 07000000 80
// culift-args: f9ffffff 02000000 ff
#include <culift/annotate.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>

CULIFT_KERNEL int guard_signed_division_kernel(int s0, int s1, signed char s2) {
  int q = (((s1) == 0 || ((s0) == (-2147483647 - 1) && (s1) == -1)) ? (s0) : ((s0) / (s1)));
  int r = (((s1) == 0 || ((s0) == (-2147483647 - 1) && (s1) == -1)) ? (s0) : ((s0) % (s1)));
  // Combined in unsigned arithmetic: a signed sum of these could overflow.
  unsigned t = (unsigned)(s2 / 3) + (unsigned)(s2 % 3) + (unsigned)((int)((unsigned)s2 << ((s1) & 31))) +
               (unsigned)(s2 >> ((s1) & 31));
  return (int)((unsigned)q ^ (unsigned)r ^ t);
}
