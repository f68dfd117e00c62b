// An annotated function without index parameters that cannot run element-wise gives no kernel,
// and a warning saying why and what to write instead; the translation still succeeds.
#include <culift/annotate.hpp>

// A loop over a count, the natural first try: the warning shows the one-output-per-call form.
CULIFT_KERNEL void saxpy_loop(int n, float a, const float* x, float* y) {  // expected-warning {{'saxpy_loop' gives no kernel: it has no index parameter (i, j or k) and writes the array 'y'}}
  for (int k = 0; k < n; ++k) y[k] = a * x[k] + y[k];
}

// Only arrays: nothing to run element-wise over.
CULIFT_KERNEL float Dot3(const float* a, const float* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }  // expected-warning {{'Dot3' gives no kernel: it has no index parameter (i, j or k) and no scalar parameter to run element-wise over}}

// A writable array in a function returning a value: every element would write it.
CULIFT_KERNEL float Scratch(float* tmp, float x) { tmp[0] = x; return tmp[0] * 2.0f; }  // expected-warning {{'Scratch' gives no kernel: it has no index parameter (i, j or k) and writes the array 'tmp'}}

// void, no index, no array written: no output at all.
CULIFT_KERNEL void Nothing(const float* table, float x) { (void)(table[0] + x); }  // expected-warning {{'Nothing' gives no kernel: it has no index parameter (i, j or k) and returns nothing}}

// These give kernels and no warning: element-wise over the scalars, the table the same for all.
CULIFT_KERNEL float Horner(const float* coeff, int degree, float x) {
  float acc = 0.f;
  for (int k = 0; k <= degree; ++k) acc = acc * x + coeff[k];
  return acc;
}
CULIFT_KERNEL void saxpy(float a, const float* x, float* y, int i) { y[i] = a * x[i] + y[i]; }
