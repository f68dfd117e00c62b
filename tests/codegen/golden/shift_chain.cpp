// A 64-bit left shift by a constant count (literals only) takes the count through the prelude's culift_hide: the
// device assembler, given five steps of `s = (s - 23) << 16` (the start is shifted out after the
// fourth), took the third step's value for the fourth's and the fifth's (seed 20261220, program
// 4210 of the GPU leg, reduced). The GPU golden test compares the backends.
#include <cstdint>
#include <culift/annotate.hpp>

// The differential tester's checksum folds, as its programs carry them.
inline unsigned long long culift_ck_mix(unsigned long long h, unsigned long long v) { return h * 0x100000001b3ULL + v; }

inline unsigned long long culift_ck_final(unsigned long long h) {
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
  h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

CULIFT_KERNEL std::int8_t ShiftChain(long long s1, int i, int j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  ck = culift_ck_mix(ck, (short)j);
  ck = culift_ck_mix(ck, (short)1);
  ck = culift_ck_mix(ck, (short)0);
  ck = culift_ck_mix(ck, (short)0);
  for (int c = 0; c < 5; ++c) {
    s1 = (long long)((unsigned long long)(s1 - 23) << 16);
    ck = culift_ck_mix(ck, s1);
  }
  const signed char ckr = (signed char)(s1 % 13LL);
  ck = culift_ck_mix(ck, ckr);
  ck = culift_ck_final(ck);
  return (signed char)ck;
}

// The same steps as a compound assignment.
CULIFT_KERNEL long long ShiftChainAssign(long long s1, int i, int j) {
  unsigned long long v = (unsigned long long)s1 + (unsigned long long)j;
  for (int c = 0; c < 5; ++c) {
    v -= 23;
    v <<= 16;
  }
  return (long long)(v % 13ULL) + i;
}

// The count as the differential tester writes it, `(16ULL) & 63`: literals only, so a constant to
// the device compiler, and hidden too (the whole program of p4210 shifted by such a count).
CULIFT_KERNEL long long ShiftChainMasked(long long s1, int i, int j) {
  for (int c = 0; c < 5; ++c) s1 = (long long)((unsigned long long)(s1 - 23) << ((16ULL) & 63));
  return s1 % 13LL + i + j;
}
