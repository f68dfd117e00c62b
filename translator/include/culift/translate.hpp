// culift::translate — C++ source with annotated functions in, translated module out.
// This header has no Clang dependency; only the translator's sources include Clang.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift {

struct TranslateOptions {
  std::vector<std::string> functions;     // translate only these (and their callees); empty: every annotated function
  std::vector<std::string> compilerArgs;  // extra Clang arguments ("-DN=4", "-I...")
  std::string buildDir;                   // directory with compile_commands.json ("-p"), optional
  std::string resourceDir;                // Clang resource dir; empty: found at run time
  bool lineDirectives = true;             // emit #line directives into the CUDA source
  // Every kernel may reassociate its loop's sums, as if marked CULIFT_KERNEL_REASSOCIATE
  // (docs/numerical-contract.md says what that changes).
  bool reassociate = false;
  // Every kernel's contraction may run on tensor cores in this format, as if marked
  // CULIFT_KERNEL_TENSOR_CORES (docs/numerical-contract.md#tensor-cores says what that changes).
  TensorCores tensorCores = TensorCores::None;
  // Adds the fused kernel of each pair of kernels that reduce the same rows (row statistics in one
  // pass, docs/loop-plans.md), which a pipeline launches for their adjacent launches. Off: no
  // fused kernels, and a module that compiles a little faster.
  bool fuseRowStatistics = true;
  // Checks the lifted module with the verifier (culift/ast/verify.hpp) before emitting it: a
  // violation, a bug in culift, is an error naming the node and the rule. On by default in debug
  // builds (of the code that includes this header); $CULIFT_VERIFY_AST=1 turns it on everywhere.
#ifdef NDEBUG
  bool verify = false;
#else
  bool verify = true;
#endif
};

struct TranslateResult {
  std::shared_ptr<Module> module;       // null when there were errors
  std::vector<Diagnostic> diagnostics;  // errors and warnings, in source order
  // For each name in TranslateOptions::functions, in order, the lifted functions it named
  // (Function::name): one for a function or a template instance (given as "Clip_float" or
  // "Clip<float>"), every explicit instance for a function template ("Clip": Clip_float,
  // Clip_int). Empty where the name named nothing (an error says so), and when Clang failed.
  std::vector<std::vector<std::string>> picked;

  bool ok() const { return module != nullptr; }
  std::string formatDiagnostics(bool color = false) const;
};

// Translates the file at `path`.
TranslateResult translate(const std::string& path, const TranslateOptions& options = {});
// Translates source text held in memory, under a virtual file name (tests and fuzzers).
TranslateResult translateSource(const std::string& source, const std::string& virtualFileName,
                                const TranslateOptions& options = {});

// The Clang resource directory used: $CULIFT_CLANG_RESOURCE_DIR, else next to the executable
// (../lib/clang/16), else /usr/lib/llvm-16/lib/clang/16.
std::string findClangResourceDir();

}  // namespace culift
