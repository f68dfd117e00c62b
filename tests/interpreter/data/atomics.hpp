// Atomic updates (std::atomic_ref<T>(a[k]).fetch_*), compiled natively by the tests and
// translated by culift from this same file; and kernels whose outputs race, for checked launches.
#pragma once

#include <atomic>
#include <culift/annotate.hpp>

namespace atomics {

// Deterministic counts: every output adds one to its bin.
CULIFT_KERNEL void Histogram(const int* bin, int* counts, int i) { std::atomic_ref<int>(counts[bin[i]]).fetch_add(1); }

// The same without the atomic: outputs of one bin race (lost updates).
CULIFT_KERNEL void RacyHistogram(const int* bin, int* counts, int i) { counts[bin[i]] += 1; }

// The value fetch_add returns: each output gets a ticket of its own, 0 .. n-1 in some order.
CULIFT_KERNEL void Ticket(int* next, int* ticket, int i) { ticket[i] = std::atomic_ref<int>(next[0]).fetch_add(1); }

// Every operation and type: the old values go into the result.
CULIFT_KERNEL long long Mixed(int* n, unsigned* u, long long* w, unsigned long long* z, double* d, float* f, int i) {
  long long r = std::atomic_ref<int>(n[0]).fetch_sub(i);
  r += std::atomic_ref<unsigned>(u[i % 2]).fetch_add(3u);
  r += std::atomic_ref<long long>(w[0]).fetch_add(-5000000000LL + i);
  r += std::atomic_ref<long long>(w[1]).fetch_sub(i);
  r += static_cast<long long>(std::atomic_ref<unsigned long long>(z[0]).fetch_sub(1u));
  std::atomic_ref<double>(d[0]).fetch_add(0.5 * i);
  std::atomic_ref<float>(f[0]).fetch_sub(0.25f);
  return r;
}

// A sum of floats in whatever order the outputs arrive.
CULIFT_KERNEL void Total(const float* x, float* total, int i) { std::atomic_ref<float>(total[0]).fetch_add(x[i]); }

// A stencil updating its own input: output i reads what outputs i - 1 and i + 1 write.
CULIFT_KERNEL void SmoothInPlace(float* x, int n, int i) {
  if (i > 0 && i < n - 1) x[i] = 0.5f * (x[i - 1] + x[i + 1]);
}

// The same into a separate output array: no output reads what another writes.
CULIFT_KERNEL void Smooth(const float* x, float* y, int n, int i) {
  y[i] = (i > 0 && i < n - 1) ? 0.5f * (x[i - 1] + x[i + 1]) : x[i];
}

}  // namespace atomics
