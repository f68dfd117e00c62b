// An int that wrapped (an unsigned sum converted to int), then extended to 64 bits: the device
// compiler's optimizer computed the extension of `(int)((unsigned)m + (unsigned)-3)` as the
// extension of m minus 3, wrong for m below INT_MIN + 3, unless the conversion to int goes through
// the prelude's culift_narrow (seed 20261206, program 2940 of the GPU leg, reduced: the record's
// sum feeds two checksums, and a floating compare with an opaque zero splits the code after).
// The GPU tests launch it with such m and compare the backends; the golden GPU test, with small
// values, cannot tell the forms apart.
#include <culift/annotate.hpp>

#include <cmath>

// The differential tester's checksum folds, as its programs carry them.
inline unsigned long long culift_ck_mix(unsigned long long h, unsigned long long v) { return h * 0x100000001b3ULL + v; }

inline unsigned long long culift_ck_final(unsigned long long h) {
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
  h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

inline unsigned long long culift_ck_mixd(unsigned long long h, double x) {
  if (!(x == x)) return culift_ck_mix(h, 1ULL);
  const unsigned long long s = std::signbit(x) ? 1ULL : 0ULL;
  double a = std::fabs(x);
  if (a > 1.7976931348623157e+308) return culift_ck_mix(h, 2ULL + s);
  if (a == 0.0) return culift_ck_mix(h, 4ULL + s);
  unsigned long long e = 4096ULL;
  while (a >= 0x1p+116) {
    a *= 0x1p-64;
    e += 64ULL;
  }
  while (a >= 0x1p+60) {
    a *= 0x1p-8;
    e += 8ULL;
  }
  while (a >= 0x1p+53) {
    a *= 0x1p-1;
    e += 1ULL;
  }
  while (a < 0x1p-11) {
    a *= 0x1p+64;
    e -= 64ULL;
  }
  while (a < 0x1p+45) {
    a *= 0x1p+8;
    e -= 8ULL;
  }
  while (a < 0x1p+52) {
    a *= 0x1p+1;
    e -= 1ULL;
  }
  return culift_ck_mix(culift_ck_mix(h, (unsigned long long)a), e * 2ULL + s);
}

struct WrapRecord {
  int m0 = 36;
  int m1;
  int m2 = (-3);
  WrapRecord operator+(const WrapRecord& o) const {
    WrapRecord r = *this;
    r.m0 = (int)((unsigned)m0 + (unsigned)o.m0);
    r.m1 = (int)((unsigned)m1 + (unsigned)o.m1);
    r.m2 = (int)((unsigned)m2 + (unsigned)o.m2);
    return r;
  }
};

CULIFT_KERNEL double IntWrapExtension(const int* v, long long i) {
  const long long k = (i & 63) * 3;
  unsigned long long ck = 0xcbf29ce484222325ULL;
  WrapRecord sv7{v[k], v[k + 1], v[k + 2]};
  ck = culift_ck_mix(ck, sv7.m0);
  ck = culift_ck_mix(ck, sv7.m1);
  ck = culift_ck_mix(ck, sv7.m2);
  WrapRecord sv8 = (WrapRecord{.m0 = (int)(27), .m1 = (int)(35)} + sv7);
  ck = culift_ck_mix(ck, sv8.m0);
  ck = culift_ck_mix(ck, sv8.m1);
  ck = culift_ck_mix(ck, sv8.m2);
  double v10 = (-6.0);
  ck = culift_ck_mixd(ck, v10);
  {
    unsigned long long ckl = 0xcbf29ce484222325ULL;
    WrapRecord sv18 = (WrapRecord{(int)(0)} + sv7);
    ckl = culift_ck_mix(ckl, sv18.m0);
    ckl = culift_ck_mix(ckl, sv18.m1);
    ckl = culift_ck_mix(ckl, sv18.m2);
    ckl = culift_ck_mix(ckl, sv7.m0);
    ckl = culift_ck_mix(ckl, sv7.m1);
    ckl = culift_ck_mix(ckl, sv7.m2);
    ck = culift_ck_mix(ck, culift_ck_final(ckl));
  }
  {
    const double ckr = 0.0;
    ck = culift_ck_mixd(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (double)(ck >> 11);
  }
}

// That int converted on to a char: one culift_narrow around both conversions.
CULIFT_KERNEL unsigned char IntWrapNarrowed(const unsigned* u, int i) { return (unsigned char)(int)(u[i] + 1u); }
