// Seed 20261206, program 2940 of the GPU leg, whole, as the generator of 2026-12-02 wrote it (the
// generator has changed since: the seed now names another program). Its arguments in the leg, as
// `culift launch --args` takes them: nvvm_p2940_program.args.json (extent 4x4x4, function
// p2940_kernel). Differs on the H200 by default and with --ptxas-options=-O0, agrees with -G.
#include <culift/annotate.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#ifndef CULIFT_CHECKSUM_FOLDS
#define CULIFT_CHECKSUM_FOLDS
inline unsigned long long culift_ck_mix(unsigned long long h, unsigned long long v) {
  return h * 0x100000001b3ULL + v;
}

inline unsigned long long culift_ck_final(unsigned long long h) {
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
  h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

inline unsigned long long culift_ck_mixf(unsigned long long h, float x) {
  if (!(x == x)) return culift_ck_mix(h, 1ULL);
  const unsigned long long s = std::signbit(x) ? 1ULL : 0ULL;
  float a = std::fabs(x);
  if (a > 3.40282347e+38f) return culift_ck_mix(h, 2ULL + s);
  if (a == 0.0f) return culift_ck_mix(h, 4ULL + s);
  unsigned long long e = 4096ULL;
  while (a >= 0x1p+55f) { a *= 0x1p-32f; e += 32ULL; }
  while (a >= 0x1p+31f) { a *= 0x1p-8f; e += 8ULL; }
  while (a >= 0x1p+24f) { a *= 0x1p-1f; e += 1ULL; }
  while (a < 0x1p-8f) { a *= 0x1p+32f; e -= 32ULL; }
  while (a < 0x1p+16f) { a *= 0x1p+8f; e -= 8ULL; }
  while (a < 0x1p+23f) { a *= 0x1p+1f; e -= 1ULL; }
  return culift_ck_mix(culift_ck_mix(h, (unsigned long long)a), e * 2ULL + s);
}

inline unsigned long long culift_ck_mixd(unsigned long long h, double x) {
  if (!(x == x)) return culift_ck_mix(h, 1ULL);
  const unsigned long long s = std::signbit(x) ? 1ULL : 0ULL;
  double a = std::fabs(x);
  if (a > 1.7976931348623157e+308) return culift_ck_mix(h, 2ULL + s);
  if (a == 0.0) return culift_ck_mix(h, 4ULL + s);
  unsigned long long e = 4096ULL;
  while (a >= 0x1p+116) { a *= 0x1p-64; e += 64ULL; }
  while (a >= 0x1p+60) { a *= 0x1p-8; e += 8ULL; }
  while (a >= 0x1p+53) { a *= 0x1p-1; e += 1ULL; }
  while (a < 0x1p-11) { a *= 0x1p+64; e -= 64ULL; }
  while (a < 0x1p+45) { a *= 0x1p+8; e -= 8ULL; }
  while (a < 0x1p+52) { a *= 0x1p+1; e -= 1ULL; }
  return culift_ck_mix(culift_ck_mix(h, (unsigned long long)a), e * 2ULL + s);
}

#endif

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

CULIFT_KERNEL double p2940_kernel(long long k, const unsigned short* a0, const signed char* a1, long long i, const p2940_S0* ra0, long long j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  if (false) {
    {
      const double ckr = (-4.75);
      ck = culift_ck_mixd(ck, ckr);
      ck = culift_ck_final(ck);
      return ckr != ckr ? ckr : (double)(ck >> 11);
    }
  }
  for (int c0 = 0; c0 < 5; ++c0) {
    if ((((3.5f > 154.63867f) ? ((unsigned short)40) : (false ? ((unsigned short)39) : ((unsigned short)40))) == ((unsigned char)30))) {
      long long c1 = 0LL;
      do {
        ++c1;
        p2940_S0 sv2{};
        ck = culift_ck_mix(ck, sv2.m0);
        ck = culift_ck_mix(ck, sv2.m1);
        ck = culift_ck_mix(ck, sv2.m2);
      } while (c1 < 3LL);
    } else {
    }
    p2940_S0 sv3 = ra0[(i) & 63];
    ck = culift_ck_mix(ck, sv3.m0);
    ck = culift_ck_mix(ck, sv3.m1);
    ck = culift_ck_mix(ck, sv3.m2);
    unsigned long long v4 = 18446744073709551615ULL;
    ck = culift_ck_mix(ck, v4);
  }
  std::array<unsigned char, 3> arr5 = {((unsigned char)39), ((unsigned char)17), ((unsigned char)((int)((unsigned)ra0[(i) & 63].m1 - (unsigned)(-2147483647 - 1))))};
  ck = culift_ck_mix(ck, arr5[0]);
  ck = culift_ck_mix(ck, arr5[1]);
  ck = culift_ck_mix(ck, arr5[2]);
  std::array<bool, 5> arr6 = {true, true, (38u == 2u), true};
  ck = culift_ck_mix(ck, arr6[0]);
  ck = culift_ck_mix(ck, arr6[1]);
  ck = culift_ck_mix(ck, arr6[2]);
  ck = culift_ck_mix(ck, arr6[3]);
  ck = culift_ck_mix(ck, arr6[4]);
  p2940_S0 sv7 = ra0[(k) & 63];
  ck = culift_ck_mix(ck, sv7.m0);
  ck = culift_ck_mix(ck, sv7.m1);
  ck = culift_ck_mix(ck, sv7.m2);
  if (true) {
    p2940_S0 sv8 = (p2940_S0{.m0 = (int)(27), .m1 = (int)(35)} + sv7);
    ck = culift_ck_mix(ck, sv8.m0);
    ck = culift_ck_mix(ck, sv8.m1);
    ck = culift_ck_mix(ck, sv8.m2);
  } else {
    std::array<signed char, 2> arr9 = {((signed char)15), ((signed char)29)};
    ck = culift_ck_mix(ck, arr9[0]);
    ck = culift_ck_mix(ck, arr9[1]);
    switch ((((unsigned char)6) % 5)) {
      case -3: {
        break;
      }
    }
    {
      const bool cks = true;
      arr6[(unsigned)(((short)(-34ULL))) % 5u] = cks;
      ck = culift_ck_mix(ck, cks);
    }
  }
  double v10 = (-6.0);
  ck = culift_ck_mixd(ck, v10);
  std::array<long long, 8> arr11 = {};
  ck = culift_ck_mix(ck, arr11[0]);
  ck = culift_ck_mix(ck, arr11[1]);
  ck = culift_ck_mix(ck, arr11[2]);
  ck = culift_ck_mix(ck, arr11[3]);
  ck = culift_ck_mix(ck, arr11[4]);
  ck = culift_ck_mix(ck, arr11[5]);
  ck = culift_ck_mix(ck, arr11[6]);
  ck = culift_ck_mix(ck, arr11[7]);
  for (unsigned char c12 = ((unsigned char)0); c12 < ((unsigned char)3); c12 += 2) {
    p2940_S0 sv13{(int)(((int)((unsigned)31 - (unsigned)2147483647))), (int)(12)};
    ck = culift_ck_mix(ck, sv13.m0);
    ck = culift_ck_mix(ck, sv13.m1);
    ck = culift_ck_mix(ck, sv13.m2);
    switch ((31u & 7)) {
      case 3:
      case 1: {
        {
          const int cks = sv13.m1;
          sv7.m1 = cks;
          ck = culift_ck_mix(ck, cks);
        }
        break;
      }
      case 5:
      case 4: {
        p2940_S0 sv14 = p2940_S0{(int)((false ? 37 : 26)), (int)(((int)j)), (int)(((int)34ULL))};
        ck = culift_ck_mix(ck, sv14.m0);
        ck = culift_ck_mix(ck, sv14.m1);
        ck = culift_ck_mix(ck, sv14.m2);
        break;
      }
      case 6:
      case 7: {
        if ((((false ? false : true) || (true || 31u)) ? false : std::isnan((true, (-731.46387f))))) {
          v10 /= ((37ULL % (-8LL)) + 27ULL);
          ck = culift_ck_mixd(ck, v10);
          if (arr6[(unsigned)(23ULL) % 5u]) {
            break;
          }
        } else {
          if ((!((-2147483647 - 1) || false))) {
            break;
          }
        }
        break;
      }
    }
    {
      const long long cks = ((long long)c12);
      arr11[(((false && 37) ? ((short)25) : ((short)((unsigned short)4)))) & 7] = cks;
      ck = culift_ck_mix(ck, cks);
    }
    auto f21 = [&sv7, &arr11, &arr6, &sv13, &i]() -> long long {
      unsigned long long ckl = 0xcbf29ce484222325ULL;
      switch ((11ULL & 7)) {
        default: {
          p2940_S0 sv18 = (p2940_S0{(int)(((int)((signed char)38)))} + sv7);
          ckl = culift_ck_mix(ckl, sv18.m0);
          ckl = culift_ck_mix(ckl, sv18.m1);
          ckl = culift_ck_mix(ckl, sv18.m2);
          if ((!((-12LL) != 11LL))) {
            {
              const long long ckr = arr11[(((signed char)5)) & 7];
              ckl = culift_ck_mix(ckl, ckr);
              ckl = culift_ck_final(ckl);
              return (long long)ckl;
            }
          }
        }
        case 1: {
          if (arr6[(unsigned)(29u) % 5u]) {
            {
              const long long ckr = ((long long)true);
              ckl = culift_ck_mix(ckl, ckr);
              ckl = culift_ck_final(ckl);
              return (long long)ckl;
            }
          }
          auto& [b15, b16, b17] = sv7;
          ckl = culift_ck_mix(ckl, b15);
          ckl = culift_ck_mix(ckl, b16);
          ckl = culift_ck_mix(ckl, b17);
          break;
        }
      }
      unsigned long long v19 = (((11u + 18u) & (9ULL >> ((38u) & 63))) & ((signed char)18));
      ckl = culift_ck_mix(ckl, v19);
      signed char v20 = ((signed char)(sv13.m2 % 1));
      ckl = culift_ck_mix(ckl, v20);
      {
        const long long ckr = ((((unsigned short)18) | ((signed char)33)), i);
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
  short c24 = ((short)0);
  while (c24 < ((short)4)) {
    ++c24;
    for (signed char e25 : arr11) {
      switch (((-11LL) & 7)) {
        default: {
        }
        case -4: {
          e25 = std::clamp(((signed char)21), ((signed char)30), ((signed char)32));
          ck = culift_ck_mix(ck, e25);
          break;
        }
        case 0:
        case -3: {
          {
            const bool cks = (std::min(339.63574f, 7.75f) >= 0.25f);
            arr6[(unsigned)((std::isnan(v10) ? (((signed char)(-9)) / 8u) : ((unsigned)((unsigned char)22)))) % 5u] = cks;
            ck = culift_ck_mix(ck, cks);
          }
        }
        case 6: {
          if ((!(19u == i))) {
            break;
          }
          sv7 = ra0[(c24) & 63];
          ck = culift_ck_mix(ck, sv7.m0);
          ck = culift_ck_mix(ck, sv7.m1);
          ck = culift_ck_mix(ck, sv7.m2);
          break;
        }
      }
    }
  }
  for (unsigned short e26 : arr5) {
    if ((arr11[(((unsigned char)255)) & 7] != ((long long)((unsigned long long)e26 - (unsigned long long)(i | j))))) {
      if (false) {
        if ((true || ((-12) <= e26))) {
          break;
        }
      } else {
        v10 = (std::fmax((-std::rint(v10)), std::trunc((true ? v10 : (-4.5)))) + 0.0);
        ck = culift_ck_mixd(ck, v10);
        unsigned long long v27 = 26ULL;
        ck = culift_ck_mix(ck, v27);
        e26 = ((unsigned short)((short)32));
        ck = culift_ck_mix(ck, e26);
      }
      p2940_S0 sv28 = sv7;
      ck = culift_ck_mix(ck, sv28.m0);
      ck = culift_ck_mix(ck, sv28.m1);
      ck = culift_ck_mix(ck, sv28.m2);
    } else {
      if (false) {
        {
          const double ckr = (v10 * (std::fmax(v10, v10) + 0.0));
          ck = culift_ck_mixd(ck, ckr);
          ck = culift_ck_final(ck);
          return ckr != ckr ? ckr : (double)(ck >> 11);
        }
      }
      if (arr6[(unsigned)(j) % 5u]) {
        continue;
      }
      unsigned char c29 = ((unsigned char)0);
      while (c29 < ((unsigned char)3)) {
        ++c29;
        p2940_S0 sv30 = sv7;
        ck = culift_ck_mix(ck, sv30.m0);
        ck = culift_ck_mix(ck, sv30.m1);
        ck = culift_ck_mix(ck, sv30.m2);
        {
          const int cks = ((((-4) || true) ? ((8 % 1073741824) + ((-2) % 1073741824)) : (arr6[(unsigned)(18u) % 5u] ? sv30.m1 : 38)) ^ (((-13) || false) ? ((unsigned char)29u) : ((unsigned char)24)));
          sv30.m1 = cks;
          ck = culift_ck_mix(ck, cks);
        }
        if (arr6[(unsigned)(((signed char)28)) % 5u]) {
          {
            const double ckr = (-0.25);
            ck = culift_ck_mixd(ck, ckr);
            ck = culift_ck_final(ck);
            return ckr != ckr ? ckr : (double)(ck >> 11);
          }
        }
        if (((-2.75) != v10)) {
          continue;
        }
      }
    }
    p2940_S0 sv31{(int)(((int)j)), (int)(((int)c24)), (int)(((4 % 46340) * (22 % 46340)))};
    ck = culift_ck_mix(ck, sv31.m0);
    ck = culift_ck_mix(ck, sv31.m1);
    ck = culift_ck_mix(ck, sv31.m2);
    e26 >>= 2;
    ck = culift_ck_mix(ck, e26);
  }
  p2940_S0 sa32[4] = {ra0[(c24) & 63], sv7};
  ck = culift_ck_mix(ck, sa32[0].m0);
  ck = culift_ck_mix(ck, sa32[0].m1);
  ck = culift_ck_mix(ck, sa32[0].m2);
  ck = culift_ck_mix(ck, sa32[1].m0);
  ck = culift_ck_mix(ck, sa32[1].m1);
  ck = culift_ck_mix(ck, sa32[1].m2);
  ck = culift_ck_mix(ck, sa32[2].m0);
  ck = culift_ck_mix(ck, sa32[2].m1);
  ck = culift_ck_mix(ck, sa32[2].m2);
  ck = culift_ck_mix(ck, sa32[3].m0);
  ck = culift_ck_mix(ck, sa32[3].m1);
  ck = culift_ck_mix(ck, sa32[3].m2);
  {
    const double ckr = (std::trunc((v10 + 16ULL)) + ((float)(0x1.7b752p+9 * (-0.0))));
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}

