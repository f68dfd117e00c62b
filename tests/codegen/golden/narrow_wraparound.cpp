// Increments and decrements that carry a signed char or short past the end of its range wrap
// around (the result converts modulo 2^N). The device compiler must not treat them as additions
// that cannot overflow: it turns `++c; c < 0` into `c < -1` unless they are written `c += 1`.
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
