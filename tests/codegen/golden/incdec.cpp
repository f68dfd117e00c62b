// Prefix and postfix increment and decrement, on locals and array elements.
#include <culift/annotate.hpp>

CULIFT_KERNEL void IncDec(int* counts, int i) {
  int a = i;
  int b = a++;
  int c = --a;
  counts[i]++;
  --counts[i];
  counts[i] += b + c;
}
