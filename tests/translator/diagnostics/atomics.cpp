// std::atomic_ref forms culift does not take, each with what to write instead.
#include <atomic>
#include <culift/annotate.hpp>

CULIFT_KERNEL void Named(int* c, int i) {
  std::atomic_ref<int> r(c[i % 4]);  // expected-error {{'std::atomic_ref<int>'}}
  r.fetch_add(1);  // expected-error {{std::atomic_ref is supported only as a temporary around an array element}}
}

CULIFT_KERNEL void Narrow(short* c, int i) {
  std::atomic_ref<short>(c[i % 4]).fetch_add(1);  // expected-error {{std::atomic_ref<short> is not supported: the device's atomics take 32- and 64-bit integers, float and double}}
}

CULIFT_KERNEL void Ordered(int* c, int i) {
  std::atomic_ref<int>(c[i % 4]).fetch_add(1, std::memory_order_relaxed);  // expected-error {{std::atomic_ref::fetch_add with a memory order is not supported}}
}

CULIFT_KERNEL void Exchange(int* c, int i) {
  std::atomic_ref<int>(c[i % 4]).exchange(i);  // expected-error {{std::atomic_ref::exchange is not supported}}
}

CULIFT_KERNEL void Bits(unsigned* c, int i) {
  std::atomic_ref<unsigned>(c[i % 4]).fetch_or(1u);  // expected-error {{std::atomic_ref::fetch_or is not supported}}
}

CULIFT_KERNEL int Local(int i) {
  int n = i;
  std::atomic_ref<int>(n).fetch_add(1);  // expected-error {{std::atomic_ref must refer to an element of an array parameter}}
  return n;
}
