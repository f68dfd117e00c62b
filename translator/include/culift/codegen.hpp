// Clang-free back half of the translator: classification by index convention, the CUDA C
// emitter and the pseudocode writer. Works on a Module the front end (or a test) built.
#pragma once

#include <string>

#include "culift/ast/module.hpp"
#include "culift/version.hpp"

namespace culift {

// Fills every function's mode, indexParams, signature, deviceName and kernelName.
// Reports misuse of index conventions (an index parameter that is not an integer scalar,
// `j` without `i`, ...) through `diags`.
// Ends by planning every kernel's loop (planLoops), warning where two outputs of a launch
// may access one array element, one of them writing (a data race on the GPU), and appending the
// fused kernels of pairs of kernels that reduce the same rows (Function::fusedOf; row statistics
// in one pass, docs/loop-plans.md).
void classify(Module& module, DiagnosticSink& diags);

// The loop planner: for each kernel, how its loop runs (Function::loopPlan), why it runs per
// thread where the planner did not lift it (loopPlanReason), and the entries the emitter adds
// for the plan (planEntries). Needs classify()'s results; classify() calls it.
void planLoops(Module& module);
// planLoops for one function of `module` (or one about to join it).
void planLoop(const Module& module, Function& function);

struct EmitOptions {
  bool lineDirectives = true;  // #line directives pointing at the user's C++ lines
  // Host functions culift_launch_<f>(..., cudaStream_t) that plan and launch each kernel with
  // <<<>>>, for CUDA projects built by nvcc without the culift runtime (compiled only there:
  // NVRTC never sees them).
  bool launchers = false;
};

// The whole CUDA C translation unit for the module: prelude, every __device__ function
// (callees before callers), then one extern "C" __global__ wrapper per kernel.
std::string emitCuda(const Module& module, const EmitOptions& options = {});

// One function's part of emitCuda's output, without #line directives: its __device__
// function and, for kernels, the __global__ wrapper (for display, e.g. in tutorials).
std::string emitCudaFunction(const Module& module, const Function& function);

// The name the emitted CUDA source goes by: the source's base name with ".cu"
// ("pearson_metrics.hpp" -> "pearson_metrics.cu"). Generated code (prelude, kernel wrappers)
// maps its #line directives to it; pass it to NVRTC as the program name.
std::string cudaFileName(const Module& module);

// Host launchers (docs/runtime.md#host-launchers): a C++ source that includes the translated
// file by `include` and defines, for each kernel C++ can name from the global scope
// (hasHostLauncher), a native CPU entry that calls the user's function, and
// `culift_kernels::detail::<name>_host_launchers()` listing them for culift embed's accessor.
bool hasHostLauncher(const Function& function);
std::string hostLauncherSource(const Module& module, const std::string& include, const std::string& name);

// A readable C-like print of one function's typed AST with every cast explicit.
std::string writePseudocode(const Module& module, const Function& function);

// Version of the translator (culift's version, culift/version.hpp), part of the compile-cache key.
inline constexpr const char* kTranslatorVersion = kVersion;

}  // namespace culift
