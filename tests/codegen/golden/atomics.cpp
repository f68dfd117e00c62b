// std::atomic_ref<T>(a[k]).fetch_add / fetch_sub: the device's atomicAdd and atomicSub on the
// element's address (the prelude's culift_atomic_add / culift_atomic_sub where CUDA has no
// overload of the type); the old value may be used.
#include <atomic>
#include <culift/annotate.hpp>

CULIFT_KERNEL void Histogram(const int* bin, int* counts, int i) { std::atomic_ref<int>(counts[bin[i]]).fetch_add(1); }

CULIFT_KERNEL void Ticket(int* next, int* ticket, int i) { ticket[i] = std::atomic_ref<int>(next[0]).fetch_add(1); }

CULIFT_KERNEL float Accumulate(const float* x, float* total, double* wide, int i) {
  std::atomic_ref<double>(wide[i % 4]).fetch_add(x[i]);
  return std::atomic_ref<float>(total[0]).fetch_sub(x[i] * 0.5f);
}

CULIFT_KERNEL long long Counters(unsigned* u, long long* w, unsigned long long* z, int* n, int i) {
  std::atomic_ref<unsigned>(u[0]).fetch_sub(2u);
  std::atomic_ref(n[1]).fetch_sub(i);  // deduced: atomic_ref<int>
  std::atomic_ref<unsigned long long>(z[0]).fetch_add(i);
  std::atomic_ref<unsigned long long>(z[1]).fetch_sub(1);
  return std::atomic_ref<long long>(w[0]).fetch_add(i) + std::atomic_ref<long long>(w[1]).fetch_sub(i);
}

// In a loop: the planner leaves it per thread (the entries stage what one output reads).
CULIFT_KERNEL void RowHistogram(const int* bin, int* counts, int cols, int i) {
  for (int k = 0; k < cols; ++k) std::atomic_ref<int>(counts[bin[i * cols + k]]).fetch_add(1);
}
