// Arithmetic, bitwise, shift, comparison, logical and conditional operators.
#include <culift/annotate.hpp>

CULIFT_KERNEL int Operators(int a, int b, unsigned m, bool flag) {
  int arith = a + b * 3 - a / (b | 1) % 7;
  unsigned bits = (m & 0xFFu) ^ (m >> 4) | (m << 2);
  int neg = -a + +b;
  bool cmp = (a < b) == (b >= a) && !(a != b) || flag;
  int pick = cmp ? arith : neg;
  int last = (a = a + 1, a * 2);
  return pick + (int)bits + ~b + last;
}
