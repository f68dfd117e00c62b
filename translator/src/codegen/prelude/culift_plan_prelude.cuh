// ---- culift plan prelude: asynchronous copies from global to shared memory (sm_80+) ----
// Elements of 4 and 8 bytes in flight; narrower ones (no such copy exists) at once.
template <typename T> __device__ __forceinline__ void culift_copy_async(T* shared, const T* global) {
#if __CUDA_ARCH__ >= 800
  if constexpr (sizeof(T) >= 4) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"((unsigned)__cvta_generic_to_shared(shared)),
                 "l"(global), "n"(sizeof(T)));
    return;
  }
#endif
  *shared = *global;
}
__device__ __forceinline__ void culift_copy_commit() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::);
#endif
}
// 16 bytes, of which the first `bytes` are read and the rest filled with zeros.
__device__ __forceinline__ void culift_copy_async16(void* shared, const void* global, int bytes) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"((unsigned)__cvta_generic_to_shared(shared)),
               "l"(global), "r"(bytes));
#else
  for (int b = 0; b < 16; ++b) ((char*)shared)[b] = b < bytes ? ((const char*)global)[b] : 0;
#endif
}
// A shared-memory address as the 16-byte copies below take it (32 bits on the device): taken once
// from a __shared__ array, then offset in bytes, so that a copy's address costs one addition.
typedef unsigned culift_saddr;
__device__ __forceinline__ culift_saddr culift_shared_at(const void* shared) {
  return (unsigned)__cvta_generic_to_shared(shared);
}
// 16 bytes, all read, to a shared address.
__device__ __forceinline__ void culift_copy_async16_at(culift_saddr shared, const void* global) {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared), "l"(global));
#else
  culift_copy_async16(__cvta_shared_to_generic(shared), global, 16);
#endif
}
// Four consecutive elements global[x0 .. x0 + 3] into shared[0 .. 3]: each one in [0, count)
// copied asynchronously, each outside it set to zero. Out of line: the entries call it only where a
// group of four crosses an end of the array or is not aligned to 16 bytes.
template <typename T>
__device__ __noinline__ void culift_copy_group4(T* shared, const T* global, long long x0, long long count) {
  for (int u = 0; u < 4; ++u) {
    if (x0 + u >= 0 && x0 + u < count)
      culift_copy_async(shared + u, global + (x0 + u));
    else
      shared[u] = T(0);
  }
}
// Waits until at most N committed groups of this thread's copies are still in flight.
template <int N> __device__ __forceinline__ void culift_copy_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}
// A store of an output the entry never reads back, marked evict-first (st.global.cs) so that it
// does not push what the entry still reads out of the caches; other sizes stored plainly.
template <typename T> __device__ __forceinline__ void culift_store_streaming(T* global, T value) {
  if constexpr (sizeof(T) == 4) {
    union {
      T value;
      unsigned bits;
    } v;
    v.value = value;
    asm volatile("st.global.cs.b32 [%0], %1;\n" ::"l"(global), "r"(v.bits) : "memory");
  } else if constexpr (sizeof(T) == 8) {
    union {
      T value;
      unsigned long long bits;
    } v;
    v.value = value;
    asm volatile("st.global.cs.b64 [%0], %1;\n" ::"l"(global), "l"(v.bits) : "memory");
  } else {
    *global = value;
  }
}
// An entry whose blocks an edge kernel completes lets it start once every block of the entry has
// started (programmatic dependent launch, sm_90+; the runtime launches the edge kernel so where the
// driver allows): the edge kernel's blocks then share the entry's last wave. Their outputs are
// disjoint and neither reads what the other writes. Elsewhere, or launched plainly, both are no-ops.
__device__ __forceinline__ void culift_start_edge() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}
// The edge kernel's first block waits for the whole entry (its writes done and visible), so that
// the edge kernel ends after the entry: the stream's next work waits for both.
__device__ __forceinline__ void culift_wait_for_entry() {
#if __CUDA_ARCH__ >= 900
  if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
// ---- end of culift plan prelude ----
