// std::min of an unsigned short compares in 32 bits (the prelude's culift_min for chars and
// shorts): the device assembler answered a 16-bit min wrongly for an unsigned short decremented in
// a nested switch (seed 20261205, program 2630 of the GPU leg, as its reducer left it). The GPU
// golden test compares the backends.
#include <algorithm>
#include <culift/annotate.hpp>

// The differential tester's checksum folds, as its programs carry them.
inline unsigned long long culift_ck_mix(unsigned long long h, unsigned long long v) { return h * 0x100000001b3ULL + v; }

inline unsigned long long culift_ck_final(unsigned long long h) {
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
  h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

CULIFT_KERNEL unsigned short NarrowMinAfterSwitch(const signed char* a0, int s0, unsigned i) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  unsigned short v4 = ((unsigned short)0);
  ck = culift_ck_mix(ck, v4);
  long long c6 = 0LL;
  do {
    ++c6;
    switch (i) {
      case 4: {
      }
      case 1:
      case 0: {
        break;
      }
      default: {
        switch (0ULL) {
          case 7:
          case 5: {
          }
          case 3:
          case 2: {
          }
          default: {
            --v4;
            ck = culift_ck_mix(ck, v4);
            break;
          }
          case 6: {
          }
        }
      }
      case 5:
      case 7: {
        break;
      }
    }
  } while (c6 < 1LL);
  s0 = 0;
  ck = culift_ck_mix(ck, s0);
  v4 = std::min(((unsigned short)s0), v4);
  ck = culift_ck_mix(ck, v4);
  if (v4) {
    v4 = ((unsigned short)0);
    ck = culift_ck_mix(ck, v4);
  } else {
  }
  {
    const unsigned short ckr = ((unsigned short)0);
    ck = culift_ck_mix(ck, ckr);
    ck = culift_ck_final(ck);
    return (unsigned short)ck;
  }
}
