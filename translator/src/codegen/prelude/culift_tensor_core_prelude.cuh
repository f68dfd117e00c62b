// ---- culift tensor core prelude: operands rounded to tf32, bf16 or fp16, mma.sync with fp32 sums ----
// For the entries of kernels that opted into tensor cores (docs/numerical-contract.md#tensor-cores).
// Before sm_80 the same operations run on the CUDA cores: the roundings by hand and the fragments
// exchanged by warp shuffles, each output's products (exact: two rounded operands) added in k order.
//
// An fp32 value as tf32 (a 10-bit mantissa: round to nearest, ties away from zero, cvt.rna), in the
// 32-bit register an mma operand takes.
__device__ __forceinline__ unsigned culift_tf32(float x) {
#if __CUDA_ARCH__ >= 800
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
#else
  const unsigned b = __float_as_uint(x);
  if ((b & 0x7f800000u) == 0x7f800000u) return (b & 0x007fffffu) ? (b | 0x00400000u) & 0xffffe000u : b;
  return (b + 0x1000u) & 0xffffe000u;
#endif
}
// The bits of a bf16 value (round to nearest even); a NaN stays a NaN.
__device__ __forceinline__ unsigned culift_bf16_bits(float x) {
  const unsigned b = __float_as_uint(x);
  if ((b & 0x7fffffffu) > 0x7f800000u) return (b >> 16) | 0x0040u;
  return (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;
}
// Two fp32 values as fp16 (round to nearest even), `lo` in the low half: k and k + 1 of a fragment.
__device__ __forceinline__ unsigned culift_f16x2(float lo, float hi) {
#if __CUDA_ARCH__ >= 800
  unsigned r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
#else
  unsigned short l, h;
  asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(l) : "f"(lo));
  asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(h) : "f"(hi));
  return (unsigned)l | ((unsigned)h << 16);
#endif
}
// Two fp32 values as bf16 (round to nearest even), `lo` in the low half.
__device__ __forceinline__ unsigned culift_bf16x2(float lo, float hi) {
#if __CUDA_ARCH__ >= 800
  unsigned r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
#else
  return culift_bf16_bits(lo) | (culift_bf16_bits(hi) << 16);
#endif
}
#if __CUDA_ARCH__ < 800
// Half `h` (0: low, 1: high) of a packed register as fp32.
__device__ __forceinline__ float culift_f16_value(unsigned v, int h) {
  const unsigned short bits = (unsigned short)(h ? v >> 16 : v & 0xffffu);
  float f;
  asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(bits));
  return f;
}
__device__ __forceinline__ float culift_bf16_value(unsigned v, int h) {
  return __uint_as_float(h ? v & 0xffff0000u : v << 16);
}
#endif
// mma.sync of one shape and operand type with fp32 sums, on the d, a and b of the functions below.
#define CULIFT_MMA_F32(shape, type)                                                                     \
  asm volatile("mma.sync.aligned." shape ".row.col.f32." type "." type                                 \
               ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"                \
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)                                                 \
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
// D += A B for a warp's 16 x 8 tile of fp32 sums, k 8 (tf32 operands). Lane l = 4 g + t holds
// A's rows g, g + 8 at k = t (a0, a1) and k = t + 4 (a2, a3), B's column g at k = t (b0) and t + 4
// (b1), and the sums of rows g, g + 8 at columns 2 t, 2 t + 1 (d0, d1; d2, d3).
__device__ __forceinline__ void culift_mma_tf32(float& d0, float& d1, float& d2, float& d3, unsigned a0, unsigned a1,
                                                unsigned a2, unsigned a3, unsigned b0, unsigned b1) {
#if __CUDA_ARCH__ >= 800
  CULIFT_MMA_F32("m16n8k8", "tf32");
#else
  const int lane = threadIdx.x % 32, t = lane % 4;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    const int row = (lane & ~3) | (k & 3);
    const float x0 = __uint_as_float(__shfl_sync(0xffffffffu, k < 4 ? a0 : a2, row));
    const float x8 = __uint_as_float(__shfl_sync(0xffffffffu, k < 4 ? a1 : a3, row));
    const float y0 = __uint_as_float(__shfl_sync(0xffffffffu, k < 4 ? b0 : b1, 8 * t + (k & 3)));
    const float y1 = __uint_as_float(__shfl_sync(0xffffffffu, k < 4 ? b0 : b1, 8 * t + 4 + (k & 3)));
    d0 = __fadd_rn(d0, __fmul_rn(x0, y0));
    d1 = __fadd_rn(d1, __fmul_rn(x0, y1));
    d2 = __fadd_rn(d2, __fmul_rn(x8, y0));
    d3 = __fadd_rn(d3, __fmul_rn(x8, y1));
  }
#endif
}
// The same for k 16 with bf16 (`bf16` true) or fp16 operands, two to a register (k, k + 1): lane
// 4 g + t holds A's rows g, g + 8 at k = 2 t, 2 t + 1 (a0, a1) and 2 t + 8, 2 t + 9 (a2, a3), B's
// column g at k = 2 t, 2 t + 1 (b0) and 2 t + 8, 2 t + 9 (b1).
template <bool bf16>
__device__ __forceinline__ void culift_mma_half(float& d0, float& d1, float& d2, float& d3, unsigned a0, unsigned a1,
                                                unsigned a2, unsigned a3, unsigned b0, unsigned b1) {
#if __CUDA_ARCH__ >= 800
  if constexpr (bf16) CULIFT_MMA_F32("m16n8k16", "bf16");
  else CULIFT_MMA_F32("m16n8k16", "f16");
#else
  const int lane = threadIdx.x % 32, t = lane % 4;
#pragma unroll
  for (int k = 0; k < 16; ++k) {
    const int q = (k % 8) / 2, h = k % 2;
    const int row = (lane & ~3) | q;
    const unsigned x0 = __shfl_sync(0xffffffffu, k < 8 ? a0 : a2, row);
    const unsigned x8 = __shfl_sync(0xffffffffu, k < 8 ? a1 : a3, row);
    const unsigned y0 = __shfl_sync(0xffffffffu, k < 8 ? b0 : b1, 8 * t + q);
    const unsigned y1 = __shfl_sync(0xffffffffu, k < 8 ? b0 : b1, 8 * t + 4 + q);
    const float v0 = bf16 ? culift_bf16_value(x0, h) : culift_f16_value(x0, h);
    const float v8 = bf16 ? culift_bf16_value(x8, h) : culift_f16_value(x8, h);
    const float w0 = bf16 ? culift_bf16_value(y0, h) : culift_f16_value(y0, h);
    const float w1 = bf16 ? culift_bf16_value(y1, h) : culift_f16_value(y1, h);
    d0 = __fadd_rn(d0, __fmul_rn(v0, w0));
    d1 = __fadd_rn(d1, __fmul_rn(v0, w1));
    d2 = __fadd_rn(d2, __fmul_rn(v8, w0));
    d3 = __fadd_rn(d3, __fmul_rn(v8, w1));
  }
#endif
}
// ---- warpgroup tensor-core instructions (sm_90a: compiled for it, __CUDA_ARCH_FEAT_SM90_ALL) ----
// A tensor-core entry on warpgroups (<f>_wg256 and <f>_wg128, the TF32 contraction on sm_90a): each
// warpgroup of 128 threads multiplies 64 columns of the block (the column operand's fragments, from
// registers) by the block's 256 or 128 rows (the row operand's tile in shared memory, k contiguous,
// 128-byte swizzle) with wgmma.m64n256k8 or m64n128k8, k 8 a step, fp32 sums (128 or 64 a thread).
// The blocks a multiprocessor an entry on warpgroups is built for: one with wgmma (up to 255
// registers a thread), two with its mma.sync body (128).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define CULIFT_WARPGROUP_BLOCKS 1
#else
#define CULIFT_WARPGROUP_BLOCKS 2
#endif
// A tensor map the runtime encodes at each launch (culift::TensorMapOperand), passed by its 128
// bytes to the entries on warpgroups whose operands allow bulk tensor copies.
struct __align__(64) culift_tensor_map {
  unsigned long long bits[16];
};
// The barrier of the threads that multiply (and copy, but by tensor copy) in an entry with a
// copying warpgroup: the block's first 256 threads, named barrier 1 (the copying warpgroup does
// not wait at it; its threads may have left).
__device__ __forceinline__ void culift_sync_workers() { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// A shared-memory matrix descriptor: rows of 128 bytes (32 tf32 values of k) in atoms of 8 rows
// (1024 bytes, 1024-byte aligned), 16-byte chunk c of row r at chunk c ^ (r % 8) (the 128-byte
// swizzle), the atoms 1024 bytes apart; `shared` the first row's k of the step.
__device__ __forceinline__ unsigned long long culift_wgmma_descriptor(const void* shared) {
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  return (unsigned long long)((a & 0x3FFFFu) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}
// Bulk tensor copies (TMA): a stage's copies complete on an mbarrier in shared memory that every
// thread waits on (its phase: the stage's uses by tensor copy so far, modulo 2). With a copying
// warpgroup, a second mbarrier a stage that each worker arrives on when done with it (`count`
// arrivals a phase), which the copying thread waits on before it copies the stage again.
__device__ __forceinline__ void culift_barrier_init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\nfence.mbarrier_init.release.cluster;\n" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(bar))),
               "r"(count)
               : "memory");
}
__device__ __forceinline__ void culift_barrier_arrive(unsigned long long* bar) {
  asm volatile("{\n.reg .b64 s;\nmbarrier.arrive.shared::cta.b64 s, [%0];\n}\n" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(bar)))
               : "memory");
}
// The 128-byte line at `p` into L2 (a hint: nothing waits for it).
__device__ __forceinline__ void culift_prefetch_l2(const void* p) {
  asm volatile("prefetch.global.L2 [%0];\n" ::"l"(p));
}
// The copying warpgroup's registers given up (40 a thread), the workers' taken (232): 256 x 232 +
// 128 x 40 of the multiprocessor's 65536, with every warp of the warpgroup (setmaxnreg).
__device__ __forceinline__ void culift_registers_copier() { asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n"); }
__device__ __forceinline__ void culift_registers_worker() { asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n"); }
// Thread 0: the stage's `bytes` expected on `bar`, then a box of the map at (column c, row r) into `shared`.
__device__ __forceinline__ void culift_expect_bytes(unsigned long long* bar, unsigned bytes) {
  asm volatile("{\n.reg .b64 s;\nmbarrier.arrive.expect_tx.shared::cta.b64 s, [%0], %1;\n}\n" ::"r"(
                   static_cast<unsigned>(__cvta_generic_to_shared(bar))),
               "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void culift_tensor_copy(void* shared, const culift_tensor_map& map, int c, int r,
                                                   unsigned long long* bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
          static_cast<unsigned>(__cvta_generic_to_shared(shared))),
      "l"(reinterpret_cast<unsigned long long>(&map)), "r"(c), "r"(r),
      "r"(static_cast<unsigned>(__cvta_generic_to_shared(bar)))
      : "memory");
}
__device__ __forceinline__ void culift_barrier_wait(unsigned long long* bar, unsigned phase) {
  asm volatile(
      "{\n.reg .pred p;\nCULIFT_WAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra CULIFT_WAIT_%=;\n}\n" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(bar))),
      "r"(phase)
      : "memory");
}
// Shared memory written by the block's threads (copies and stores) that the tensor cores read
// next: each writing thread fences it before the barrier.
__device__ __forceinline__ void culift_fence_async_shared() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ __forceinline__ void culift_wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
// The warpgroup's multiplies issued so far, committed and waited for.
__device__ __forceinline__ void culift_wgmma_commit_wait() {
  asm volatile("wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n" ::: "memory");
}
// d (the lane's sums of a block of R rows, 128 or 256, as [R / 4][2]: sums (m, n) of rows
// 8 (m / 2) + 2 t + m % 2 of the block's R, column g + 8 n of the warp's 16) += A · B: A the
// warpgroup's 64 columns x 8 k, lane 4 g + t of warp w holding column 16 w + g at k t (a0) and t + 4
// (a2), column 16 w + g + 8 at k t (a1) and t + 4 (a3); B the R rows x 8 k at desc
// (wgmma.m64nRk8).
// The instruction's sums in the lane's registers: 4 j + q holds d[2 j + q % 2][q / 2].
#define CULIFT_WG_SUMS(j) "+f"(d[2 * (j)][0]), "+f"(d[2 * (j) + 1][0]), "+f"(d[2 * (j)][1]), "+f"(d[2 * (j) + 1][1])
#define CULIFT_WG_SUMS4(j) CULIFT_WG_SUMS(j), CULIFT_WG_SUMS(j + 1), CULIFT_WG_SUMS(j + 2), CULIFT_WG_SUMS(j + 3)
#define CULIFT_WG_SUMS16(j) CULIFT_WG_SUMS4(j), CULIFT_WG_SUMS4(j + 4), CULIFT_WG_SUMS4(j + 8), CULIFT_WG_SUMS4(j + 12)
__device__ __forceinline__ void culift_wgmma_tf32(float (&d)[32][2], unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                                  unsigned long long desc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
      : CULIFT_WG_SUMS16(0)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc));
}
__device__ __forceinline__ void culift_wgmma_tf32(float (&d)[64][2], unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                                  unsigned long long desc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
      : CULIFT_WG_SUMS16(0), CULIFT_WG_SUMS16(16)
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc));
}
#undef CULIFT_WG_SUMS16
#undef CULIFT_WG_SUMS4
#undef CULIFT_WG_SUMS
#endif
// ---- end of culift tensor core prelude ----
