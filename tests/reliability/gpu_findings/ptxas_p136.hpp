// Seed 20261207, program 136 of the GPU leg, reduced on the H200 (the GPU as the oracle), and
// variants of it, one change each, for scripts/compare-backends.sh: the result is a constant the
// device assembler computed wrongly at -O3 (right with --ptxas-options=-O0 and with -G): having
// folded `36.0f < culift_neg(7.5f)` to false, it ran the loop once. On the H200, P136, P136Counted,
// P136Wide and P136NoFinal differed, P136Straight and P136NoBreak were right; since a negated
// literal is emitted as the negative literal, every variant is right.
//   culift-difftest-gpu --seed 20261207 --first 136 --count 1
#include <array>
#include <cstdint>
#include <culift/annotate.hpp>

#include "checksum_folds.hpp"

// As reduced.
CULIFT_KERNEL std::int8_t P136(std::int8_t s0, std::int32_t i, std::int32_t j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<bool, 2> arr21 = {false};
  ck = culift_ck_mix(ck, arr21[0]);
  ck = culift_ck_mix(ck, arr21[1]);
  for (bool& e22 : arr21) {
    const std::array<std::int8_t, 2> arr23 = {((signed char)0)};
    ck = culift_ck_mix(ck, arr23[0]);
    ck = culift_ck_mix(ck, arr23[1]);
    if ((36ULL < (-7.5f))) break;
  }
  const std::int8_t ckr = ((signed char)0);
  ck = culift_ck_mix(ck, ckr);
  ck = culift_ck_final(ck);
  return (std::int8_t)ck;
}

// The loop unrolled by hand.
CULIFT_KERNEL std::int8_t P136Straight(std::int8_t s0, std::int32_t i, std::int32_t j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  for (int r = 0; r < 7; ++r) ck = culift_ck_mix(ck, 0);
  ck = culift_ck_final(ck);
  return (std::int8_t)ck;
}

// No break in the loop.
CULIFT_KERNEL std::int8_t P136NoBreak(std::int8_t s0, std::int32_t i, std::int32_t j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<bool, 2> arr21 = {false};
  ck = culift_ck_mix(ck, arr21[0]);
  ck = culift_ck_mix(ck, arr21[1]);
  for (bool& e22 : arr21) {
    const std::array<std::int8_t, 2> arr23 = {((signed char)0)};
    ck = culift_ck_mix(ck, arr23[0]);
    ck = culift_ck_mix(ck, arr23[1]);
  }
  ck = culift_ck_mix(ck, (std::int8_t)0);
  ck = culift_ck_final(ck);
  return (std::int8_t)ck;
}

// A counted loop instead of the range for over bool references.
CULIFT_KERNEL std::int8_t P136Counted(std::int8_t s0, std::int32_t i, std::int32_t j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<bool, 2> arr21 = {false};
  ck = culift_ck_mix(ck, arr21[0]);
  ck = culift_ck_mix(ck, arr21[1]);
  for (int k = 0; k < 2; ++k) {
    const std::array<std::int8_t, 2> arr23 = {((signed char)0)};
    ck = culift_ck_mix(ck, arr23[0]);
    ck = culift_ck_mix(ck, arr23[1]);
    if ((36ULL < (-7.5f))) break;
  }
  ck = culift_ck_mix(ck, (std::int8_t)0);
  ck = culift_ck_final(ck);
  return (std::int8_t)ck;
}

// The whole checksum returned, not its low byte.
CULIFT_KERNEL unsigned long long P136Wide(std::int8_t s0, std::int32_t i, std::int32_t j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<bool, 2> arr21 = {false};
  ck = culift_ck_mix(ck, arr21[0]);
  ck = culift_ck_mix(ck, arr21[1]);
  for (bool& e22 : arr21) {
    const std::array<std::int8_t, 2> arr23 = {((signed char)0)};
    ck = culift_ck_mix(ck, arr23[0]);
    ck = culift_ck_mix(ck, arr23[1]);
    if ((36ULL < (-7.5f))) break;
  }
  ck = culift_ck_mix(ck, (std::int8_t)0);
  return culift_ck_final(ck);
}

// No final mix: the checksum's low byte before the finalizer.
CULIFT_KERNEL std::int8_t P136NoFinal(std::int8_t s0, std::int32_t i, std::int32_t j) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<bool, 2> arr21 = {false};
  ck = culift_ck_mix(ck, arr21[0]);
  ck = culift_ck_mix(ck, arr21[1]);
  for (bool& e22 : arr21) {
    const std::array<std::int8_t, 2> arr23 = {((signed char)0)};
    ck = culift_ck_mix(ck, arr23[0]);
    ck = culift_ck_mix(ck, arr23[1]);
    if ((36ULL < (-7.5f))) break;
  }
  return (std::int8_t)ck;
}
