// The extern "C" __global__ wrapper of a kernel function: grid-stride loops over every index of
// its launch (64-bit), the call of the __device__ function, the store into `out`.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "code_writer.hpp"
#include "culift/ast/module.hpp"

namespace culift::codegen {

// "kernel RowSum_kernel(const float* x [input array], int cols [scalar], ...)": the kernel's
// signature with the role of each parameter, for comments and pseudocode.
std::string describeKernel(const Function& fn);

// The parameters every entry of a kernel takes: names by position (a user's name unless it would
// hide a CUDA built-in), the declaration list, the extent parameter of each axis and `out`.
struct EntryParams {
  std::vector<std::string> names;
  std::string declarations;
  std::array<std::string, 3> extent;
  std::string outName;  // "" for void functions
};
// Throws std::logic_error when an axis has no extent (a classifier bug).
EntryParams entryParams(const Function& fn);

// Writes the wrapper of `fn` (fn.isKernel()). Throws std::logic_error when the signature is
// inconsistent with the mode (an extent missing): a classifier bug, not a user error.
void emitKernelWrapper(const Function& fn, CodeWriter& out);

// Writes culift_launch_<name>(kernel parameters..., cudaStream_t): the launch the runtime would
// make of the per-thread entries (the 32-bit entry where every index fits in an int and the
// arrays are aligned as it assumes, else the 64-bit one), with <<<>>>. Host code: the caller
// guards it from NVRTC.
void emitKernelLauncher(const Function& fn, CodeWriter& out);

}  // namespace culift::codegen
