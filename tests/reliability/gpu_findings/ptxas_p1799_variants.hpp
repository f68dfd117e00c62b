// Variants of p1799 (ptxas_p1799.hpp), one change each, for scripts/compare-backends.sh on the
// GPU: which part of the program the device assembler's optimizer needs to get its tiled entry
// wrong. Each is a 2-D kernel whose loop reads a0 by (i, c1); before the tiled plan refused loops
// that overwrite their value (only the last step counts), each took the tiled entries. The
// program itself (a product, acc0 = acc0 * (a0[..i..] * a0[..j..])) still takes them, and is
// fixed since the tiled entries run the statements before the loop that every output runs alike
// once per thread (docs/reliability.md; ptxas_p1799_tiles.cu has the variants of the entry itself).
// On the H200 (8 x 8 outputs, VARIANTS=1 scripts/gpu-findings.sh), with those entries: V0, V3,
// V6 and V7 differed from the CPU in the outputs of register-tile columns 1-3 (column 0 right);
// V1 (a sum), V2 (no fold before the loop), V4 (no s0) and V5 (no checksum) were the same; with
// --ptxas-options=-O0 every variant was the same.
#include <cstdint>
#include <culift/annotate.hpp>

#include "checksum_folds.hpp"

// The program as reduced.
CULIFT_KERNEL void V0(short s1, unsigned long long s0, double* o0, int j, int i, const signed char* a0,
                      unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  s0 <<= 31;
  ck = culift_ck_mix(ck, s0);
  double acc0 = 0.0;
  ck = culift_ck_mixd(ck, acc0);
  for (int c1 = 0; c1 < 8; ++c1) acc0 = ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  ck = culift_ck_mixd(ck, acc0);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
}

// A sum instead of the last value.
CULIFT_KERNEL void V1(short s1, unsigned long long s0, double* o0, int j, int i, const signed char* a0,
                      unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  s0 <<= 31;
  ck = culift_ck_mix(ck, s0);
  double acc0 = 0.0;
  ck = culift_ck_mixd(ck, acc0);
  for (int c1 = 0; c1 < 8; ++c1) acc0 += ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  ck = culift_ck_mixd(ck, acc0);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
}

// No fold before the loop.
CULIFT_KERNEL void V2(short s1, unsigned long long s0, double* o0, int j, int i, const signed char* a0,
                      unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  s0 <<= 31;
  ck = culift_ck_mix(ck, s0);
  double acc0 = 0.0;
  for (int c1 = 0; c1 < 8; ++c1) acc0 = ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  ck = culift_ck_mixd(ck, acc0);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
}

// The value after the loop folded as an integer, not through the double fold's loops.
CULIFT_KERNEL void V3(short s1, unsigned long long s0, double* o0, int j, int i, const signed char* a0,
                      unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  s0 <<= 31;
  ck = culift_ck_mix(ck, s0);
  double acc0 = 0.0;
  ck = culift_ck_mixd(ck, acc0);
  for (int c1 = 0; c1 < 8; ++c1) acc0 = ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  ck = culift_ck_mix(ck, (unsigned long long)(long long)acc0);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
}

// No s0 in the checksum.
CULIFT_KERNEL void V4(short s1, unsigned long long s0, double* o0, int j, int i, const signed char* a0,
                      unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  double acc0 = 0.0;
  ck = culift_ck_mixd(ck, acc0);
  for (int c1 = 0; c1 < 8; ++c1) acc0 = ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  ck = culift_ck_mixd(ck, acc0);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
}

// The last value written as it is, no checksum.
CULIFT_KERNEL void V5(short s1, unsigned long long s0, double* o0, int j, int i, const signed char* a0,
                      unsigned long long* cko) {
  double acc0 = 0.0;
  for (int c1 = 0; c1 < 8; ++c1) acc0 = ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  o0[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = acc0;
}

// A float array instead of signed char.
CULIFT_KERNEL void V6(short s1, unsigned long long s0, double* o0, int j, int i, const float* a0,
                      unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  s0 <<= 31;
  ck = culift_ck_mix(ck, s0);
  double acc0 = 0.0;
  ck = culift_ck_mixd(ck, acc0);
  for (int c1 = 0; c1 < 8; ++c1) acc0 = ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  ck = culift_ck_mixd(ck, acc0);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
}

// 64 iterations (four full tiles of 16) instead of a partial one.
CULIFT_KERNEL void V7(short s1, unsigned long long s0, double* o0, int j, int i, const signed char* a0,
                      unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  s0 <<= 31;
  ck = culift_ck_mix(ck, s0);
  double acc0 = 0.0;
  ck = culift_ck_mixd(ck, acc0);
  for (int c1 = 0; c1 < 64; ++c1) acc0 = ((double)a0[(((int)((unsigned)i + (unsigned)c1))) & 63]);
  ck = culift_ck_mixd(ck, acc0);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
}
