// The culift command line: one verb per file (verb_emit.cpp, verb_run.cpp, ...). Each file
// declares an llvm::cl::SubCommand with its options and registers a handler with CULIFT_VERB.
#pragma once

#include <string>
#include <vector>

#include "culift/ast/module.hpp"
#include "llvm/Support/CommandLine.h"

namespace culift::cli {

// Exit codes shared by every verb.
enum ExitCode : int {
  kExitOk = 0,
  kExitError = 1,     // diagnostics in the input, a failed check, an interpreter error
  kExitUsage = 2,     // bad command line or arguments
  kExitInternal = 3,  // an unexpected failure of culift itself
};

using VerbHandler = int (*)();

struct VerbRegistration {
  VerbRegistration(llvm::cl::SubCommand& sub, VerbHandler handler);
};

// --tensor-cores: what it says and the formats it takes (ast, emit, launch).
inline constexpr const char* kTensorCoresHelp =
    "Let every kernel's contraction run on tensor cores in this format, as CULIFT_KERNEL_TENSOR_CORES does "
    "(not exact: docs/numerical-contract.md#tensor-cores)";
inline llvm::cl::ValuesClass tensorCoreFormats() {
  return llvm::cl::values(clEnumValN(TensorCores::TF32, "tf32", "TF32 operands (10-bit mantissa), fp32 sums"),
                          clEnumValN(TensorCores::BF16, "bf16", "bfloat16 operands (7-bit mantissa), fp32 sums"),
                          clEnumValN(TensorCores::FP16, "fp16",
                                     "half operands (10-bit mantissa, 5-bit exponent), fp32 sums"));
}

// Arguments after "--" on the command line: passed to Clang.
const std::vector<std::string>& clangArgs();

// Whether `s` is a C++ identifier; `text` made one (what cannot be in one as '_', a leading digit
// after a '_'), as culift_add_kernels names a header's kernels.
bool isIdentifier(const std::string& s);
std::string identifierFrom(const std::string& text);
// Writes `text` to `path` as bytes; on failure says so on stderr, after `who`.
bool writeTextFile(const std::string& path, const std::string& text, const char* who);

}  // namespace culift::cli

#define CULIFT_VERB_CONCAT2(a, b) a##b
#define CULIFT_VERB_CONCAT(a, b) CULIFT_VERB_CONCAT2(a, b)
#define CULIFT_VERB(subcommand, handler) \
  static ::culift::cli::VerbRegistration CULIFT_VERB_CONCAT(culiftVerb, __LINE__)(subcommand, handler)
