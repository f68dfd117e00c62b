// What every culift command-line program does with LLVM's option parser: list only its own
// options in --help, and print culift's version and license for --version. Used by `culift`,
// `culift-difftest` and `culift-difftest-gpu`.
#pragma once

#include <initializer_list>

#include "llvm/Support/CommandLine.h"

namespace culift::cli {

// LLVM registers hundreds of its own options at the top level (--amdgpu-..., --x86-...): hides
// every top-level option but --help, --version and those in `own` from --help. Call it after the
// program's own options exist and before llvm::cl::ParseCommandLineOptions. A program whose
// options live in subcommands (culift's verbs) passes no category.
void hideForeignOptions(std::initializer_list<const llvm::cl::OptionCategory*> own = {});

// --version prints "<program> 0.2.0 (LLVM/Clang 16)" and the license on a second line.
void setVersionPrinter(const char* program);

}  // namespace culift::cli
