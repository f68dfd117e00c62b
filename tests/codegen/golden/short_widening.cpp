// A char or short converted to a 64-bit integer keeps its own value on the device. The device
// compiler's optimizer took one short's 64-bit extension for another's: after a loop that
// folded a second short, a branch before the loop returned on a condition it could decide only
// once a call was inlined (`twice(3) > 7`), and the helper called after the loop read the second
// short for the first. The emitted CUDA widens chars and shorts through culift_widen, in 32 bits.
#include <culift/annotate.hpp>

inline unsigned long long mix(unsigned long long h, unsigned long long v) { return h * 1099511628211ULL + v; }
inline int twice(int a) { return a * 2; }
inline short fold(const short& v) {
  unsigned long long h = mix(14695981039346656037ULL, v);
  return (short)(h ^ (h >> 33));
}

inline void step(unsigned char q, unsigned long long& h) {
  int zero = 0;
  const short first = (short)(zero + 39);
  h = mix(h, first);
  if (twice(3) > 7) return;
  short c = 0;
  while (c < 1) {
    ++c;
    int n = 0;
    do ++n;
    while (n < 3);
    const short second = (short)n;
    h = mix(h, second);
  }
  if (q < 10u)
    for (int r = 0; r < 2; ++r) h = mix(h, fold(first));
}

CULIFT_KERNEL long long ShortWidening(unsigned long long seed) {
  unsigned long long h = seed;
  step(7, h);
  return (long long)h;
}

// Unsigned ones widen with zeros, signed ones with their sign.
CULIFT_KERNEL unsigned long long Widened(signed char a, short b, unsigned char c, unsigned short d) {
  const long long sa = a, sb = b;
  const unsigned long long uc = c, ud = d;
  return (unsigned long long)(sa + sb) ^ (uc << 8) ^ (ud << 16);
}
