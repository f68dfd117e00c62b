// Seed 20261206, program 2940 of the GPU leg as the generator of that day wrote it (the plan shapes
// added to the generator since change a seed's programs), reduced again on the H200 with the build
// of 2026-12-04 (the GPU as the oracle), and variants of it, one change each, for
// scripts/compare-backends.sh (extent 4x4x4, arguments [a0, a1, ra0]). With the leg's arguments
// (nvvm_p2940_program.args.json: record members near INT_MIN) the reduced program and every
// variant but Q2940NoSv8 and Q2940NoAdd differed by default and with --ptxas-options=-O0 and
// agreed with -G: NVVM extended (int)((unsigned)-3 + (unsigned)sv7.m2) to 64 bits as the
// extension of sv7.m2 minus 3. With the conversion to int through culift_narrow<int>, all agree
// (2026-12-04); golden int_wrap_extension is the kernel reduced by hand.
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
CULIFT_KERNEL double Q2940(long long k, const unsigned short* a0, const signed char* a1, long long i,
                           const p2940_S0* ra0, long long j) {
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
      {
        const long long ckr = 0LL;
        ckl = culift_ck_mix(ckl, ckr);
        ckl = culift_ck_final(ckl);
        return (long long)ckl;
      }
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}


// The parameters in another order: arrays first, then i, j, k.
CULIFT_KERNEL double Q2940Params(const unsigned short* a0, const signed char* a1, const p2940_S0* ra0, long long i,
                                 long long j, long long k) {
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
      {
        const long long ckr = 0LL;
        ckl = culift_ck_mix(ckl, ckr);
        ckl = culift_ck_final(ckl);
        return (long long)ckl;
      }
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}


// The result without its NaN test.
CULIFT_KERNEL double Q2940NoNaNTest(long long k, const unsigned short* a0, const signed char* a1, long long i,
                                    const p2940_S0* ra0, long long j) {
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
      {
        const long long ckr = 0LL;
        ckl = culift_ck_mix(ckl, ckr);
        ckl = culift_ck_final(ckl);
        return (long long)ckl;
      }
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return (double)(ck >> 11);
  }
}


// The loop counts in int.
CULIFT_KERNEL double Q2940IntCounter(long long k, const unsigned short* a0, const signed char* a1, long long i,
                                     const p2940_S0* ra0, long long j) {
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
  for (int c12 = 0; c12 < 3; c12 += 2) {
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
      {
        const long long ckr = 0LL;
        ckl = culift_ck_mix(ckl, ckr);
        ckl = culift_ck_final(ckl);
        return (long long)ckl;
      }
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}


// The switch as the straight-line code it runs.
CULIFT_KERNEL double Q2940NoSwitch(long long k, const unsigned short* a0, const signed char* a1, long long i,
                                   const p2940_S0* ra0, long long j) {
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
      }
      {
        auto& [b15, b16, b17] = sv7;
        ckl = culift_ck_mix(ckl, b15);
        ckl = culift_ck_mix(ckl, b16);
        ckl = culift_ck_mix(ckl, b17);
      }
      {
        const long long ckr = 0LL;
        ckl = culift_ck_mix(ckl, ckr);
        ckl = culift_ck_final(ckl);
        return (long long)ckl;
      }
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}


// Without the second struct (sv8) and its folds.
CULIFT_KERNEL double Q2940NoSv8(long long k, const unsigned short* a0, const signed char* a1, long long i,
                                const p2940_S0* ra0, long long j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  p2940_S0 sv7 = ra0[(k)&63];
  ck = culift_ck_mix(ck, sv7.m0);
  ck = culift_ck_mix(ck, sv7.m1);
  ck = culift_ck_mix(ck, sv7.m2);
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
      {
        const long long ckr = 0LL;
        ckl = culift_ck_mix(ckl, ckr);
        ckl = culift_ck_final(ckl);
        return (long long)ckl;
      }
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}


// The lambda called without the inner loop of one step.
CULIFT_KERNEL double Q2940NoInnerLoop(long long k, const unsigned short* a0, const signed char* a1, long long i,
                                      const p2940_S0* ra0, long long j) {
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
      {
        const long long ckr = 0LL;
        ckl = culift_ck_mix(ckl, ckr);
        ckl = culift_ck_final(ckl);
        return (long long)ckl;
      }
    };
    {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}


// The default case copies sv7 instead of adding it to a struct of defaults.
CULIFT_KERNEL double Q2940NoAdd(long long k, const unsigned short* a0, const signed char* a1, long long i,
                                const p2940_S0* ra0, long long j) {
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
          p2940_S0 sv18 = sv7;
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
      {
        const long long ckr = 0LL;
        ckl = culift_ck_mix(ckl, ckr);
        ckl = culift_ck_final(ckl);
        return (long long)ckl;
      }
    };
    for (int c22 = 0; c22 < 1; ++c22) {
      long long v23 = f21();
      ck = culift_ck_mix(ck, v23);
    }
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}
