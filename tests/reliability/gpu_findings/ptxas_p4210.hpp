// Seed 20261220, program 4210 of the GPU leg, reduced by hand from the whole program (its path:
// the loop of five steps, then the early return), and variants of it, one change each, for
// scripts/compare-backends.sh (extent 2x2, arguments [-11, [0, 0, 0, 0]]). The five steps leave
// s1 a constant whatever its start: each shifts the previous value 16 bits to the left, so after
// four nothing of the start is left. On the H200 (2026-12-04), before the fix, P4210 and
// P4210NoComma differed by default and at --ptxas-options=-O1 and -O2 and agreed at -O0; every
// other variant was right. The device assembler used the third step's value for the fourth's and
// the fifth's; with the shift's count through the prelude's culift_hide (as a 64-bit left shift
// by a constant count is now emitted) every variant is right.
//   culift-difftest-gpu --seed 20261220 --first 4210 --count 1
#include <cstdint>
#include <culift/annotate.hpp>

#include "checksum_folds.hpp"

// As the program runs it (the statements that do not change the checksum left out).
CULIFT_KERNEL std::int8_t P4210(long long s1, const float* a1, int i, int j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  ck = culift_ck_mix(ck, (short)j);
  ck = culift_ck_mix(ck, (short)1);
  ck = culift_ck_mix(ck, (short)0);
  ck = culift_ck_mix(ck, (short)0);
  for (int c11 = 0; c11 < 5; ++c11) {
    s1 = (a1[3],
          ((long long)((unsigned long long)((long long)((unsigned long long)s1 - (unsigned long long)23LL)) << 16)));
    ck = culift_ck_mix(ck, s1);
  }
  const signed char ckr = ((signed char)(s1 % 13LL));
  ck = culift_ck_mix(ck, ckr);
  ck = culift_ck_final(ck);
  return (signed char)ck;
}

// The remainder alone, without the checksum.
CULIFT_KERNEL long long P4210Rem(long long s1, const float* a1, int i, int j) {
  for (int c11 = 0; c11 < 5; ++c11) s1 = (long long)((unsigned long long)(s1 - 23) << 16);
  return s1 % 13LL;
}

// The value before the remainder.
CULIFT_KERNEL long long P4210Value(long long s1, const float* a1, int i, int j) {
  for (int c11 = 0; c11 < 5; ++c11) s1 = (long long)((unsigned long long)(s1 - 23) << 16);
  return s1;
}

// The remainder of the loop's value, folded each step.
CULIFT_KERNEL long long P4210RemFolded(long long s1, const float* a1, int i, int j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  for (int c11 = 0; c11 < 5; ++c11) {
    s1 = (long long)((unsigned long long)(s1 - 23) << 16);
    ck = culift_ck_mix(ck, s1);
  }
  return (long long)(ck & 0xffff) * 100 + s1 % 13LL;
}

// The constant the loop leaves, written as a literal.
CULIFT_KERNEL long long P4210RemLiteral(long long s1, const float* a1, int i, int j) {
  const long long v = (long long)0xffe8ffe8ffe90000ULL;
  return v % 13LL + s1 * 0;
}

// A remainder by 13 of a value whose low 16 bits are zero, from a parameter.
CULIFT_KERNEL long long P4210RemShifted(long long s1, const float* a1, int i, int j) {
  return (long long)((unsigned long long)s1 << 16) % 13LL;
}

// The same remainder, unsigned.
CULIFT_KERNEL unsigned long long P4210RemUnsigned(long long s1, const float* a1, int i, int j) {
  unsigned long long v = (unsigned long long)s1;
  for (int c11 = 0; c11 < 5; ++c11) v = (v - 23) << 16;
  return v % 13ULL;
}

// Without the comma's read of a1.
CULIFT_KERNEL std::int8_t P4210NoComma(long long s1, const float* a1, int i, int j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  ck = culift_ck_mix(ck, (short)j);
  ck = culift_ck_mix(ck, (short)1);
  ck = culift_ck_mix(ck, (short)0);
  ck = culift_ck_mix(ck, (short)0);
  for (int c11 = 0; c11 < 5; ++c11) {
    s1 = (long long)((unsigned long long)(s1 - 23) << 16);
    ck = culift_ck_mix(ck, s1);
  }
  const signed char ckr = ((signed char)(s1 % 13LL));
  ck = culift_ck_mix(ck, ckr);
  ck = culift_ck_final(ck);
  return (signed char)ck;
}

// Without the folds before the loop.
CULIFT_KERNEL std::int8_t P4210NoPrefix(long long s1, const float* a1, int i, int j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  for (int c11 = 0; c11 < 5; ++c11) {
    s1 = (long long)((unsigned long long)(s1 - 23) << 16);
    ck = culift_ck_mix(ck, s1);
  }
  const signed char ckr = ((signed char)(s1 % 13LL));
  ck = culift_ck_mix(ck, ckr);
  ck = culift_ck_final(ck);
  return (signed char)ck;
}

// The loop's value folded in place of its remainder.
CULIFT_KERNEL std::int8_t P4210NoRem(long long s1, const float* a1, int i, int j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  for (int c11 = 0; c11 < 5; ++c11) {
    s1 = (long long)((unsigned long long)(s1 - 23) << 16);
    ck = culift_ck_mix(ck, s1);
  }
  ck = culift_ck_mix(ck, (signed char)s1);
  ck = culift_ck_final(ck);
  return (signed char)ck;
}

// The checksum before its final fold, whole.
CULIFT_KERNEL unsigned long long P4210NoFinal(long long s1, const float* a1, int i, int j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  for (int c11 = 0; c11 < 5; ++c11) {
    s1 = (long long)((unsigned long long)(s1 - 23) << 16);
    ck = culift_ck_mix(ck, s1);
  }
  ck = culift_ck_mix(ck, (signed char)(s1 % 13LL));
  return ck;
}

// The loop's folds without the remainder's.
CULIFT_KERNEL unsigned long long P4210LoopFolds(long long s1, const float* a1, int i, int j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  for (int c11 = 0; c11 < 5; ++c11) {
    s1 = (long long)((unsigned long long)(s1 - 23) << 16);
    ck = culift_ck_mix(ck, s1);
  }
  return ck;
}
