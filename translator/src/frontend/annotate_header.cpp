// The text of <culift/annotate.hpp>, served to Clang as an in-memory file so that
// `#include <culift/annotate.hpp>` always resolves, wherever the user's file lives. It must stay
// identical to include/culift/annotate.hpp (a test compares the two).
#include "annotate_header.hpp"

namespace culift::frontend {

std::string_view annotateHeaderText() {
  static constexpr std::string_view kText = R"culift_header(
// culift/annotate.hpp — marks ordinary C++ functions for lifting to CUDA kernels.
//
//   CULIFT_KERNEL float RowSum(const float* x, int cols, int i) { ... }
//   CULIFT_KERNEL_INDEX(row, col) float Cell(const float* m, int n, int row, int col) { ... }
//   CULIFT_KERNEL_REASSOCIATE float RowTotal(const float* x, int cols, int i) { ... }
//   CULIFT_KERNEL_TENSOR_CORES(tf32) float Gemm(const float* a, const float* b, int n, int i, int j) { ... }
//   CULIFT_UNIFORM(slope) float LeakyRelu(float x, float slope) { ... }
//
// The marker is the annotation string "culift" (index names override: "culift:index=a, b").
// CULIFT_KERNEL_REASSOCIATE marks a kernel whose loop's sums may be added in another order (a
// warp per output, 32 partial sums and a fixed tree: faster, within the error bound of
// docs/numerical-contract.md, the same bits on every run and on the CPU backend); it combines
// with CULIFT_KERNEL_INDEX.
// CULIFT_KERNEL_TENSOR_CORES(tf32) (or bf16, fp16) lets a kernel's contraction (a sum of
// products of two arrays, GEMM's loop) run on tensor cores: its operands rounded to that format,
// fp32 accumulation in the units' own order. Faster, not exact: the result is within the bound of
// docs/numerical-contract.md#tensor-cores of the exact one ("culift:tensor_cores=tf32").
// CULIFT_UNIFORM(a, b) names scalar parameters of an element-wise kernel that are the same for
// every element: they are passed once, the other scalars are read per element ("culift:uniform=a, b").
// Each of these macros marks the function as a kernel by itself; they combine.
// Under Clang the macros expand to [[clang::annotate(...)]]; other compilers, which would warn
// about an unknown attribute, see nothing, so annotated code compiles natively unchanged.
#pragma once

#if defined(__clang__)
#define CULIFT_KERNEL [[clang::annotate("culift")]]
#define CULIFT_KERNEL_INDEX(...) [[clang::annotate("culift:index=" #__VA_ARGS__)]]
#define CULIFT_KERNEL_REASSOCIATE [[clang::annotate("culift:reassociate")]]
#define CULIFT_KERNEL_TENSOR_CORES(format) [[clang::annotate("culift:tensor_cores=" #format)]]
#define CULIFT_UNIFORM(...) [[clang::annotate("culift:uniform=" #__VA_ARGS__)]]
#else
#define CULIFT_KERNEL
#define CULIFT_KERNEL_INDEX(...)
#define CULIFT_KERNEL_REASSOCIATE
#define CULIFT_KERNEL_TENSOR_CORES(format)
#define CULIFT_UNIFORM(...)
#endif
)culift_header";
  return kText.substr(1);  // the raw string starts with a line break
}

}  // namespace culift::frontend
