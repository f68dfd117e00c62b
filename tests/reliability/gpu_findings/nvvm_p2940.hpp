// Seed 20261206, program 2940 of the GPU leg, reduced on the H200 (the GPU as the oracle), and
// variants of it, one change each, for scripts/compare-backends.sh (extent 4x4x4): NVVM's optimizer
// is at fault (the GPU differs by default and with --ptxas-options=-O0, agrees with -G).
//   culift-difftest-gpu --seed 20261206 --first 2940 --count 1
#include <cstdint>
#include <culift/annotate.hpp>

#include "checksum_folds.hpp"

struct p2940_S0 {
  int m0 = 36;
  int m1;
  int m2 = (-3);
  p2940_S0 operator+(const p2940_S0& o) const {
    p2940_S0 r = *this;
    r.m0 = (int)((unsigned)m0 + (unsigned)o.m0);
    r.m1 = (int)((unsigned)m1 + (unsigned)o.m1);
    r.m2 = (int)((unsigned)m2 + (unsigned)o.m2);
    return r;
  }
  p2940_S0& operator+=(const p2940_S0& o) {
    m0 = (int)((unsigned)m0 + (unsigned)o.m0);
    m1 = (int)((unsigned)m1 + (unsigned)o.m1);
    m2 = (int)((unsigned)m2 + (unsigned)o.m2);
    return *this;
  }
};


// As reduced.
CULIFT_KERNEL double P2940(const p2940_S0* ra0, long long i, long long j, long long k) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  p2940_S0 sv7 = ra0[(k)&63];
  ck = culift_ck_mix(ck, sv7.m0);
  ck = culift_ck_mix(ck, sv7.m1);
  ck = culift_ck_mix(ck, sv7.m2);
  p2940_S0 sv8 = (p2940_S0{.m0 = (int)(27), .m1 = (int)(35)} + sv7);
  ck = culift_ck_mix(ck, sv8.m0);
  ck = culift_ck_mix(ck, sv8.m1);
  ck = culift_ck_mix(ck, sv8.m2);
  double v10 = (-6.0);
  ck = culift_ck_mixd(ck, v10);
  for (unsigned char c12 = ((unsigned char)0); c12 < ((unsigned char)3); c12 += 2) {
    auto f21 = [&sv7]() -> long long {
      unsigned long long ckl = 0xcbf29ce484222325ULL;
      switch (0ULL) {
        default: {
          p2940_S0 sv18 = (p2940_S0{(int)(0)} + sv7);
          ckl = culift_ck_mix(ckl, sv18.m0);
          ckl = culift_ck_mix(ckl, sv18.m1);
          ckl = culift_ck_mix(ckl, sv18.m2);
        }
        case 1: {
          auto& [b15, b16, b17] = sv7;
          ckl = culift_ck_mix(ckl, b15);
          ckl = culift_ck_mix(ckl, b16);
          ckl = culift_ck_mix(ckl, b17);
          break;
        }
      }
      ckl = culift_ck_mix(ckl, 0LL);
      ckl = culift_ck_final(ckl);
      return (long long)ckl;
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  ck = culift_ck_mixd(ck, 0.0);
  ck = culift_ck_final(ck);
  return (double)(ck >> 11);
}

// The switch's two cases as straight-line code.
CULIFT_KERNEL double P2940NoSwitch(const p2940_S0* ra0, long long i, long long j, long long k) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  p2940_S0 sv7 = ra0[(k)&63];
  ck = culift_ck_mix(ck, sv7.m0);
  ck = culift_ck_mix(ck, sv7.m1);
  ck = culift_ck_mix(ck, sv7.m2);
  p2940_S0 sv8 = (p2940_S0{.m0 = (int)(27), .m1 = (int)(35)} + sv7);
  ck = culift_ck_mix(ck, sv8.m0);
  ck = culift_ck_mix(ck, sv8.m1);
  ck = culift_ck_mix(ck, sv8.m2);
  double v10 = (-6.0);
  ck = culift_ck_mixd(ck, v10);
  for (unsigned char c12 = ((unsigned char)0); c12 < ((unsigned char)3); c12 += 2) {
    auto f21 = [&sv7]() -> long long {
      unsigned long long ckl = 0xcbf29ce484222325ULL;
      {
        p2940_S0 sv18 = (p2940_S0{(int)(0)} + sv7);
        ckl = culift_ck_mix(ckl, sv18.m0);
        ckl = culift_ck_mix(ckl, sv18.m1);
        ckl = culift_ck_mix(ckl, sv18.m2);
        ckl = culift_ck_mix(ckl, sv7.m0);
        ckl = culift_ck_mix(ckl, sv7.m1);
        ckl = culift_ck_mix(ckl, sv7.m2);
      }
      ckl = culift_ck_mix(ckl, 0LL);
      ckl = culift_ck_final(ckl);
      return (long long)ckl;
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  ck = culift_ck_mixd(ck, 0.0);
  ck = culift_ck_final(ck);
  return (double)(ck >> 11);
}

// The struct additions and the structured binding as field arithmetic.
CULIFT_KERNEL double P2940Fields(const p2940_S0* ra0, long long i, long long j, long long k) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  p2940_S0 sv7 = ra0[(k)&63];
  ck = culift_ck_mix(ck, sv7.m0);
  ck = culift_ck_mix(ck, sv7.m1);
  ck = culift_ck_mix(ck, sv7.m2);
  p2940_S0 sv8 = (p2940_S0{.m0 = (int)(27), .m1 = (int)(35)} + sv7);
  ck = culift_ck_mix(ck, sv8.m0);
  ck = culift_ck_mix(ck, sv8.m1);
  ck = culift_ck_mix(ck, sv8.m2);
  double v10 = (-6.0);
  ck = culift_ck_mixd(ck, v10);
  for (unsigned char c12 = ((unsigned char)0); c12 < ((unsigned char)3); c12 += 2) {
    auto f21 = [&sv7]() -> long long {
      unsigned long long ckl = 0xcbf29ce484222325ULL;
      switch (0ULL) {
        default: {
          ckl = culift_ck_mix(ckl, (int)(0u + (unsigned)sv7.m0));
          ckl = culift_ck_mix(ckl, (int)(0u + (unsigned)sv7.m1));
          ckl = culift_ck_mix(ckl, (int)((unsigned)-3 + (unsigned)sv7.m2));
        }
        case 1: {
          ckl = culift_ck_mix(ckl, sv7.m0);
          ckl = culift_ck_mix(ckl, sv7.m1);
          ckl = culift_ck_mix(ckl, sv7.m2);
          break;
        }
      }
      ckl = culift_ck_mix(ckl, 0LL);
      ckl = culift_ck_final(ckl);
      return (long long)ckl;
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  ck = culift_ck_mixd(ck, 0.0);
  ck = culift_ck_final(ck);
  return (double)(ck >> 11);
}

// The default case does both parts and breaks: no fall-through.
CULIFT_KERNEL double P2940NoFallthrough(const p2940_S0* ra0, long long i, long long j, long long k) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  p2940_S0 sv7 = ra0[(k)&63];
  ck = culift_ck_mix(ck, sv7.m0);
  ck = culift_ck_mix(ck, sv7.m1);
  ck = culift_ck_mix(ck, sv7.m2);
  p2940_S0 sv8 = (p2940_S0{.m0 = (int)(27), .m1 = (int)(35)} + sv7);
  ck = culift_ck_mix(ck, sv8.m0);
  ck = culift_ck_mix(ck, sv8.m1);
  ck = culift_ck_mix(ck, sv8.m2);
  double v10 = (-6.0);
  ck = culift_ck_mixd(ck, v10);
  for (unsigned char c12 = ((unsigned char)0); c12 < ((unsigned char)3); c12 += 2) {
    auto f21 = [&sv7]() -> long long {
      unsigned long long ckl = 0xcbf29ce484222325ULL;
      switch (0ULL) {
        default: {
          p2940_S0 sv18 = (p2940_S0{(int)(0)} + sv7);
          ckl = culift_ck_mix(ckl, sv18.m0);
          ckl = culift_ck_mix(ckl, sv18.m1);
          ckl = culift_ck_mix(ckl, sv18.m2);
          ckl = culift_ck_mix(ckl, sv7.m0);
          ckl = culift_ck_mix(ckl, sv7.m1);
          ckl = culift_ck_mix(ckl, sv7.m2);
          break;
        }
        case 1: {
          break;
        }
      }
      ckl = culift_ck_mix(ckl, 0LL);
      ckl = culift_ck_final(ckl);
      return (long long)ckl;
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  ck = culift_ck_mixd(ck, 0.0);
  ck = culift_ck_final(ck);
  return (double)(ck >> 11);
}
