// The extern "C" __global__ wrapper of a kernel function: grid-stride loops over every index of
// its launch (64-bit), the call of the __device__ function, the store into `out`.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "code_writer.hpp"
#include "culift/ast/module.hpp"

namespace culift::codegen {

// The identifier of an array-of-structs parameter's struct in emitted CUDA: its C++ name where
// that is one ("Particle"), else made one ("Body<float>": "Body_float"); a name of CUDA's
// vector types (float3, ...) gets the prefix culift_.
std::string recordTypeName(const RecordView& r);
// `name` (a kernel parameter) as the flat array of scalars the statements read: for an array of
// structs, reinterpret_cast<const float*>(name); else `name` itself.
std::string flatPointer(const KernelParam& p, const std::string& name);
// The struct of every array-of-structs parameter of the kernels among `functions`, once per
// type, with the host's layout (padding where the host has it) and static_asserts of its size,
// alignment and every field's offset. Throws std::logic_error for two layouts of one name.
void emitRecordTypes(const std::vector<const Function*>& functions, CodeWriter& out);

// A kernel's guard (kOnlyEntriesMacro, entryMacro): the `#if` before it, the `#endif` after.
void openEntryGuard(CodeWriter& out, const std::string& kernel);
void closeEntryGuard(CodeWriter& out, const std::string& kernel);

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

// The statement the 32-bit per-thread entry runs for one output of a 2-D or 3-D kernel: `out[<flat
// index>] = f(...);`, or the call alone for void functions and struct results, with the output's
// indices `loopVar` (ints) in extents `extent`. For an entry that maps threads to outputs its own
// way and runs each output exactly as the per-thread entry does (so with its bits).
// `callee` (non-empty) calls another device function than fn's, with `leading` (non-empty) before
// the user's arguments.
std::string perOutputStatement(const Function& fn, const std::array<std::string, 3>& loopVar,
                               const std::array<std::string, 3>& extent, const std::string& callee = "",
                               const std::string& leading = "");

// The same statement in parts: the element it stores to (`out[<flat index>]`; "" where the call is
// the whole statement) and the call whose value it stores.
struct PerOutput {
  std::string target, call;
  // `target = call;`, or `call;` where there is no target.
  std::string statement() const { return target.empty() ? call + ";" : target + " = " + call + ";"; }
};
PerOutput perOutputParts(const Function& fn, const std::array<std::string, 3>& loopVar,
                         const std::array<std::string, 3>& extent, const std::string& callee = "",
                         const std::string& leading = "");

// Writes the wrapper of `fn` (fn.isKernel(), a function of `module`). Throws std::logic_error when
// the signature is inconsistent with the mode (an extent missing): a classifier bug, not a user
// error.
void emitKernelWrapper(const Module& module, const Function& fn, CodeWriter& out);

// Writes culift_launch_<name>(kernel parameters..., cudaStream_t): the launch the runtime would
// make of the per-thread entries (the 32-bit entry where every index fits in an int and the
// arrays are aligned as it assumes, else the 64-bit one), with <<<>>>. Host code: the caller
// guards it from NVRTC.
void emitKernelLauncher(const Function& fn, CodeWriter& out);

}  // namespace culift::codegen
