// Seed 20261205, program 1799 of the GPU leg, as its reducer left it (with the GPU as the oracle):
// the GPU differs from the interpreter with the device assembler at -O1, -O2 and -O3 and agrees
// with --ptxas-options=-O0 and with -G. Worked around: the tiled entries run the statements before
// the loop that every output runs alike once per thread (docs/reliability.md).
//   culift-difftest-gpu --seed 20261205 --first 1799 --count 1
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <culift/annotate.hpp>

#include "checksum_folds.hpp"


CULIFT_KERNEL void p1799_kernel(short s1, unsigned long long s0, double* o0, int j, int i, const signed char* a0,
                                unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  s0 <<= 31;
  ck = culift_ck_mix(ck, s0);
  double acc0 = 0.0;
  ck = culift_ck_mixd(ck, acc0);
  for (int c1 = 0; c1 < 8; ++c1) {
    acc0 = ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  }
  ck = culift_ck_mixd(ck, acc0);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
  return;
}
