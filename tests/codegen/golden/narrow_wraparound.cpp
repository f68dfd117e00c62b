// Arithmetic that carries a signed char or short past the end of its range wraps around (the
// result converts modulo 2^N). Left to itself the device compiler gets some of it wrong: it
// treats `++c` as an addition that cannot overflow (`++c; c < 0` became `c < -1`), and it turns
// `s = -s` into a 16-bit negation that, for -32768, widens to +32768. The emitted CUDA converts
// through culift_narrow, so that the arithmetic stays in 32 bits.
#include <culift/annotate.hpp>

// 100 + i passes 127 at i = 28.
CULIFT_KERNEL int PreIncChar(int i) {
  signed char c = (signed char)(100 + i);
  ++c;
  return c < 0 ? 1000 + c : c;
}
CULIFT_KERNEL int PostIncChar(int i) {
  signed char c = (signed char)(100 + i);
  const signed char before = c++;
  return (c < 0) * 1000 + before;
}
// -32768 for i = 0 and 1, which -- takes to 32767.
CULIFT_KERNEL int PreDecShort(int i) {
  short s = (short)(-32768 + i / 2);
  --s;
  return s > 0 ? 100000 + s : s;
}
CULIFT_KERNEL int PostDecShort(int i) {
  short s = (short)(-32768 + i / 2);
  const short before = s--;
  return (s > 0) * 100000 + before;
}
// A counter that ends its loop by wrapping: 28 - i passes (fewer from i = 28 on).
CULIFT_KERNEL int CountToWrap(int i) {
  int n = 0;
  for (signed char c = (signed char)(100 + i); c > 0; ++c) ++n;
  return n;
}
CULIFT_KERNEL void BumpElements(signed char* out, int i) {
  out[i] = (signed char)(100 + i);
  out[i]++;
  if (out[i] < 0) out[i] = (signed char)(out[i] - 1);
}
// -32768 for i % 4 == 0; its negation is -32768 again.
CULIFT_KERNEL long long NegateShort(int i) {
  short s = (short)(-32768 + i % 4);
  s = (short)-s;
  return s;
}
// s * 12^7 is s * -16384 modulo 2^16, a negation of s << 14: -32768 for odd s.
CULIFT_KERNEL long long ScaleShort(int i) {
  short s = (short)(1 + i % 5);
  long long h = 0;
  for (int k = 0; k < 8; ++k) {
    s *= 12;
    h = h * 31 + s;
  }
  return h;
}
CULIFT_KERNEL long long NegateChar(int i) {
  signed char c = (signed char)(-128 + i % 3);
  c = (signed char)(c * -1);
  unsigned short u = (unsigned short)(32768 + i);
  u = (unsigned short)-u;
  return c * 100000LL + u;
}
