// Seed 20261220, program 2281 of the GPU leg, reduced on the H200 (the GPU as the oracle), and
// variants of it, one change each, for scripts/compare-backends.sh: the result is a constant,
// the checksum of a loop of two steps that a comparison of two structs never leaves early
// (extent 2, arguments [[0, 0]]). On the H200 (2026-12-04), before the fix, P2281, P2281Counted
// and P2281NoFinal differed by default and at --ptxas-options=-O1 and -O2 (the loop ran once) and
// agreed at -O0; P2281Straight, P2281NoBreak and P2281Fields were right. With culift_narrow
// hiding its value from the device assembler too (the prelude's culift_hide) every variant is
// right.
//   culift-difftest-gpu --seed 20261220 --first 2281 --count 1
#include <array>
#include <cstdint>
#include <culift/annotate.hpp>

#include "checksum_folds.hpp"

struct P2281S {
  short m0 = 31;
  short m1 = 13;
  short m2;
  short m3 = -19;
  bool operator==(const P2281S& o) const { return (m0 == o.m0) && (m1 == o.m1) && (m2 == o.m2) && (m3 == o.m3); }
};

// As reduced.
CULIFT_KERNEL double P2281(bool s0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<float, 2> arr1 = {};
  ck = culift_ck_mixf(ck, arr1[0]);
  ck = culift_ck_mixf(ck, arr1[1]);
  for (float e2 : arr1) {
    int v7 = ((int)28ULL);
    ck = culift_ck_mix(ck, v7);
    if ((P2281S{(short)(((short)21)), (short)(((short)v7))} == P2281S{(short)(((short)v7)), (short)(((short)10))})) {
      break;
    }
  }
  {
    const double ckr = 1e-40;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}

// The loop's two steps by hand.
CULIFT_KERNEL double P2281Straight(bool s0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  ck = culift_ck_mixf(ck, 0.0f);
  ck = culift_ck_mixf(ck, 0.0f);
  ck = culift_ck_mix(ck, 28);
  ck = culift_ck_mix(ck, 28);
  ck = culift_ck_mixd(ck, 1e-40);
  ck = culift_ck_final(ck);
  return (double)(ck >> 11);
}

// Without the break.
CULIFT_KERNEL double P2281NoBreak(bool s0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<float, 2> arr1 = {};
  ck = culift_ck_mixf(ck, arr1[0]);
  ck = culift_ck_mixf(ck, arr1[1]);
  for (float e2 : arr1) {
    int v7 = 28;
    ck = culift_ck_mix(ck, v7);
  }
  ck = culift_ck_mixd(ck, 1e-40);
  ck = culift_ck_final(ck);
  return (double)(ck >> 11);
}

// The comparison of the fields themselves, without the structs.
CULIFT_KERNEL double P2281Fields(bool s0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<float, 2> arr1 = {};
  ck = culift_ck_mixf(ck, arr1[0]);
  ck = culift_ck_mixf(ck, arr1[1]);
  for (float e2 : arr1) {
    int v7 = 28;
    ck = culift_ck_mix(ck, v7);
    if ((short)21 == (short)v7 && (short)v7 == (short)10) break;
  }
  ck = culift_ck_mixd(ck, 1e-40);
  ck = culift_ck_final(ck);
  return (double)(ck >> 11);
}

// A counted loop of two steps instead of the range for.
CULIFT_KERNEL double P2281Counted(bool s0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  ck = culift_ck_mixf(ck, 0.0f);
  ck = culift_ck_mixf(ck, 0.0f);
  for (int e = 0; e < 2; ++e) {
    int v7 = 28;
    ck = culift_ck_mix(ck, v7);
    if ((P2281S{(short)21, (short)v7} == P2281S{(short)v7, (short)10})) break;
  }
  ck = culift_ck_mixd(ck, 1e-40);
  ck = culift_ck_final(ck);
  return (double)(ck >> 11);
}

// The checksum's final fold left out.
CULIFT_KERNEL unsigned long long P2281NoFinal(bool s0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<float, 2> arr1 = {};
  ck = culift_ck_mixf(ck, arr1[0]);
  ck = culift_ck_mixf(ck, arr1[1]);
  for (float e2 : arr1) {
    int v7 = 28;
    ck = culift_ck_mix(ck, v7);
    if ((P2281S{(short)21, (short)v7} == P2281S{(short)v7, (short)10})) break;
  }
  return ck;
}
