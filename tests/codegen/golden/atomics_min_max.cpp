// fetch_min and fetch_max (C++26, P0493) of integers: atomicMin and atomicMax. The standard
// library this test is built with may not declare them yet: a stand-in atomic_ref with C++26's
// members takes its place (culift knows std::atomic_ref by name).
#include <culift/annotate.hpp>

namespace std {
template <typename T> struct atomic_ref {
  explicit atomic_ref(T& r) : p(&r) {}
  T fetch_min(T v) const {
    T old = *p;
    if (v < old) *p = v;
    return old;
  }
  T fetch_max(T v) const {
    T old = *p;
    if (old < v) *p = v;
    return old;
  }
  T* p;
};
}  // namespace std

CULIFT_KERNEL void Extremes(const int* x, int* lo, int* hi, unsigned* ulo, long long* whi, unsigned long long* zlo,
                            int i) {
  std::atomic_ref<int>(lo[0]).fetch_min(x[i]);
  std::atomic_ref<int>(hi[0]).fetch_max(x[i]);
  std::atomic_ref<unsigned>(ulo[0]).fetch_min(static_cast<unsigned>(x[i]));
  std::atomic_ref<long long>(whi[0]).fetch_max(x[i]);
  std::atomic_ref<unsigned long long>(zlo[0]).fetch_min(static_cast<unsigned long long>(x[i]));
}

CULIFT_KERNEL int Previous(int* best, int v, int i) { return std::atomic_ref<int>(best[i % 2]).fetch_max(v); }
