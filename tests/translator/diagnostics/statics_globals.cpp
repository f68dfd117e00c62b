// Static locals and non-const globals: state shared between threads is not allowed.
#include <culift/annotate.hpp>

int counter = 0;
float weights[3] = {1, 2, 3};
constexpr float kTable[2] = {1, 2};

CULIFT_KERNEL int readsGlobal(int i) { return counter + i; }  // expected-error {{non-const global variable 'counter'}}

CULIFT_KERNEL void writesGlobal(int* out, int i) {
  counter = i;  // expected-error {{non-const global variable 'counter'}}
  out[i] = 0;
}

CULIFT_KERNEL float globalArrays(int i) { return weights[i] + kTable[i]; }  // expected-error {{non-const global array 'weights'}}

CULIFT_KERNEL int staticLocal(int i) {
  static int calls = 0;  // expected-error {{static local variable 'calls' is not supported}}
  calls += i;
  return calls;
}
