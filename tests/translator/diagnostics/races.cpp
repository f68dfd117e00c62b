// Writes that two outputs of a launch may make to one element, and reads of elements other
// outputs write: warnings at the access, naming both and the fix. Provably distinct accesses
// (one element per output) and atomic updates stay silent.
#include <atomic>
#include <culift/annotate.hpp>

CULIFT_KERNEL void Histogram(const int* bin, int* counts, int i) {
  counts[bin[i]] += 1;  // expected-warning {{possible data race: 'counts[bin[i]]' (line 8) may be written by more than one output}}
}

CULIFT_KERNEL void Pairs(float* y, int i) {
  y[i / 2] = 1.0f;  // expected-warning {{'y[i / 2]' (line 12) may be written by more than one output}}
}

CULIFT_KERNEL void Total(const float* x, float* y, int i) {
  y[0] += x[i];  // expected-warning {{'y[0]' (line 16) may be written by more than one output}}
}

CULIFT_KERNEL void SmoothInPlace(float* x, int n, int i) {
  if (i > 0 && i < n - 1)
    x[i] = 0.5f * (x[i - 1] + x[i + 1]);  // expected-warning {{'x[i - 1]' (line 21) reads an element that another output of the launch may write at 'x[i]' (line 21)}} expected-warning {{'x[i + 1]' (line 21) reads an element}}
}

CULIFT_KERNEL void ShiftWrite(float* y, int i) {
  y[i] = 0.0f;
  y[i + 1] = 1.0f;  // expected-warning {{'y[i + 1]' (line 26) writes an element that another output of the launch may write at 'y[i]' (line 25)}}
}

CULIFT_KERNEL void RowOnly(float* y, int cols, int i, int j) {
  y[i] = static_cast<float>(cols * j);  // expected-warning {{'y[i]' (line 30) may be written by more than one output}}
}

CULIFT_KERNEL void CountDown(int* c, int i) {
  c[i % 3]--;  // expected-warning {{'c[i % 3]' (line 34) may be written by more than one output}}
}

void store(float* y, int k, float v) {
  y[k] = v;  // expected-warning {{'y[k]' (line 38) may be written by more than one output}}
}
CULIFT_KERNEL void ThroughHelper(float* y, int i) { store(y, i * 0, 1.0f); }

CULIFT_KERNEL void LoopPastRow(float* y, int n, int i) {
  for (int k = 0; k < 2 * n; ++k) y[i * n + k] = 0.0f;  // expected-warning {{'y[i * n + k]' (line 43) may be written by more than one output}}
}

CULIFT_KERNEL void CompactOver(float* kept, int* count, int i) {
  kept[std::atomic_ref<int>(count[0]).fetch_add(1)] = kept[i];  // expected-warning {{'kept[i]' (line 47) reads an element that another output of the launch may write at 'kept[std::atomic_ref(count[0]).fetch_add(1)]' (line 47)}}
}

// ---- silent: one element per output, separate arrays, records, atomics ----

CULIFT_KERNEL void Own(const float* x, float* y, int i) { y[i] = x[i] + x[i + 1]; }

CULIFT_KERNEL void Stencil(const float* x, float* y, int n, int i) {
  if (i > 0 && i < n - 1) y[i] = 0.5f * (x[i - 1] + x[i + 1]);
}

CULIFT_KERNEL void ReadModifyWrite(float* y, int i) { y[i] = y[i] * 2.0f + 1.0f; }

CULIFT_KERNEL void Cells(float* m, int cols, int i, int j) { m[i * cols + j] = static_cast<float>(i - j); }

CULIFT_KERNEL void ColumnMajor(float* m, int rows, int i, int j) { m[j * rows + i] += 1.0f; }

CULIFT_KERNEL void Cube(double* v, int nj, int nk, int i, int j, int k) { v[(i * nj + j) * nk + k] = 1.0; }

CULIFT_KERNEL void RowOfOutputs(const float* x, float* y, int n, int i) {
  const int row = i * n;
  for (int k = 0; k < n; ++k) y[row + k] = x[i] * static_cast<float>(k);
}

CULIFT_KERNEL void Records(float* p, int i) {
  p[3 * i] = 0.0f;
  p[3 * i + 1] = p[3 * i + 2] + 1.0f;
}

void put(float* y, int k, float v) { y[k] = v; }
CULIFT_KERNEL void Helper(float* y, int i) { put(y, i, 2.0f); }

CULIFT_KERNEL void AtomicHistogram(const int* bin, int* counts, int i) {
  std::atomic_ref<int>(counts[bin[i]]).fetch_add(1);
}

CULIFT_KERNEL float Sum(const float* x, float* total, int i) {
  return std::atomic_ref<float>(total[0]).fetch_add(x[i]) + x[i];
}

CULIFT_KERNEL void Compact(const float* x, float* kept, int* count, int i) {
  if (x[i] > 0) kept[std::atomic_ref<int>(count[0]).fetch_add(1)] = x[i];
}

// An index whose coefficients pass 64 bits (i times 2^64) is one the analysis cannot read: a warning.
CULIFT_KERNEL void Huge(float* y, long long n, int i) {
  y[(long long)i * 4611686018427387904LL * 4 + n] = 1.0f;  // expected-warning {{culift cannot prove its index}}
}
