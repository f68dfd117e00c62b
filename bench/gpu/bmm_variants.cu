// The exact batched matmul (`BatchedGemmCell`, blas_cells.hpp: 128 batches of (512 x 1024) x
// (1024 x 2048), each output summing k in order) through its 128-wide entry as culift emits it,
// against forms of it that differ in one thing each:
//
// - "entry + edge":       `BatchedGemmCell_batched128` then `BatchedGemmCell_batched128_edge`, the
//                         grid the runtime gives (16 x 4 x 128: a block a batch, its loop over the
//                         batches run once), as the runtime launches them.
// - "entry alone":        the entry's kernel without its edge kernel (every block here is whole).
// - "whole form a block": a kernel of no loop over the batches, calling the whole form for its
//                         block's batch (`blockIdx.z`): what the loop costs.
//
// Built twice by scripts/gpu-harnesses.sh (HARNESSES="bmm"): once over the entry as emitted, once
// with its whole form inlined into the entry's kernel (`__forceinline__` for `__noinline__`; the
// label says "inlined"): ptxas, sm_90, keeps the inlined kernel at 127 registers without spills.
// Each line: the form, the median of 9 launches, TFLOP/s, and whether every output has the
// per-thread kernel's bits.
//
// Standalone:
//
//   culift emit bench/gpu/blas_cells.hpp -o .gpu/blas.cu -- -Iinclude   (development machine)
//   nvcc -O3 -arch=sm_90 -I.gpu -Ibench/gpu -o bmm_variants bench/gpu/bmm_variants.cu && ./bmm_variants
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "blas.cu"

#include "cuda_check.cuh"

#ifndef BMM_LABEL
#define BMM_LABEL "as emitted"
#endif

namespace {

constexpr int kBatches = 128, kM = 512, kK = 1024, kN = 2048, kTile = 128, kThreads = 256;
// The entry's dynamic shared memory: the whole form's 2 stages of 16 x 132 floats of each operand.
constexpr int kShared = 2 * 2 * 16 * 132 * 4;

__global__ void __launch_bounds__(kThreads, 2)
    wholePerBlock(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ out) {
  culift_BatchedGemmCell_batched128_whole(A, B, kM, kK, kN, out, kBatches, kM, kN, 0, (int)blockIdx.z);
}


}  // namespace

int main() {
  std::vector<float> ha((size_t)kBatches * kM * kK), hb((size_t)kBatches * kK * kN);
  fillUniform(ha, 31u);
  fillUniform(hb, 41u);
  const size_t outs = (size_t)kBatches * kM * kN;
  float *a, *b, *ref, *out;
  CHECK(cudaMalloc(&a, ha.size() * 4));
  CHECK(cudaMalloc(&b, hb.size() * 4));
  CHECK(cudaMalloc(&ref, outs * 4));
  CHECK(cudaMalloc(&out, outs * 4));
  CHECK(cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
  const double flops = 2.0 * kBatches * kM * (double)kN * kK;
  // The per-thread kernel's bits: the reference.
  BatchedGemmCell_kernel<<<dim3(kN / 32, kM / 4, kBatches / 2), dim3(32, 4, 2)>>>(a, b, kM, kK, kN, ref, kBatches, kM,
                                                                                  kN);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> want(outs), got(outs);
  CHECK(cudaMemcpy(want.data(), ref, outs * 4, cudaMemcpyDeviceToHost));
  for (auto* k : {BatchedGemmCell_batched128, BatchedGemmCell_batched128_edge})
    CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  CHECK(cudaFuncSetAttribute(wholePerBlock, cudaFuncAttributeMaxDynamicSharedMemorySize, kShared));
  const dim3 grid(kN / kTile, kM / kTile, kBatches), block(kThreads);
  auto report = [&](const char* form, double ms) {
    CHECK(cudaMemcpy(got.data(), out, outs * 4, cudaMemcpyDeviceToHost));
    const bool same = std::memcmp(got.data(), want.data(), outs * 4) == 0;
    std::printf("%s  %-22s  %.4f ms  %5.2f TFLOP/s  %s\n", BMM_LABEL, form, ms, flops / (ms * 1e9),
                same ? "same bits" : "DIFFERENT BITS");
  };
  auto entry = [&] {
    BatchedGemmCell_batched128<<<grid, block, kShared>>>(a, b, kM, kK, kN, out, kBatches, kM, kN, 0);
    BatchedGemmCell_batched128_edge<<<grid, block, kShared>>>(a, b, kM, kK, kN, out, kBatches, kM, kN, 0);
  };
  CHECK(cudaMemset(out, 0xff, outs * 4));
  report("entry + edge", medianMs(entry, 9));
  CHECK(cudaMemset(out, 0xff, outs * 4));
  report("entry alone",
         medianMs(
             [&] { BatchedGemmCell_batched128<<<grid, block, kShared>>>(a, b, kM, kK, kN, out, kBatches, kM, kN, 0); },
             9));
  CHECK(cudaMemset(out, 0xff, outs * 4));
  report("whole form a block", medianMs([&] { wholePerBlock<<<grid, block, kShared>>>(a, b, out); }, 9));
  CHECK(cudaMemset(out, 0xff, outs * 4));
  report("entry + edge (again)", medianMs(entry, 9));
  for (float* p : {a, b, ref, out}) CHECK(cudaFree(p));
  return 0;
}
