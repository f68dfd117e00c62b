// culift emit FILE [--function NAME]... [-o OUT.cu] [--module OUT.culift] [-p BUILD_DIR] [--no-line-directives]
//             [--reassociate] [-- CLANG_ARGS]
// Translates the annotated functions of FILE (or the ones named) into one CUDA C file, and with
// --module into a module file (docs/module-files.md).
#include "culift/ast/module_file.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "verb.hpp"

namespace culift::cli {
namespace {

llvm::cl::SubCommand emitCommand("emit", "Translate annotated C++ functions into one CUDA C file");
llvm::cl::opt<bool> emitReassociate("reassociate",
                                llvm::cl::desc("Let every kernel reassociate its loop's sums, as CULIFT_KERNEL_REASSOCIATE does"),
                                llvm::cl::sub(emitCommand));
llvm::cl::opt<std::string> emitInput(llvm::cl::Positional, llvm::cl::desc("FILE"), llvm::cl::sub(emitCommand));
llvm::cl::list<std::string> emitFunctions("function",
                                          llvm::cl::desc("Translate this function (repeatable; default: every "
                                                         "function annotated with CULIFT_KERNEL)"),
                                          llvm::cl::value_desc("NAME"), llvm::cl::sub(emitCommand));
llvm::cl::opt<std::string> emitOutput("o", llvm::cl::desc("Write the CUDA source to this file (default: stdout)"),
                                      llvm::cl::value_desc("OUT.cu"), llvm::cl::sub(emitCommand));
llvm::cl::opt<std::string> emitModule("module",
                                      llvm::cl::desc("Write the translated module to this module file (the CUDA "
                                                     "source then goes to stdout only with -o -)"),
                                      llvm::cl::value_desc("OUT.culift"), llvm::cl::sub(emitCommand));
llvm::cl::opt<std::string> emitBuildDir("p", llvm::cl::desc("Build directory holding compile_commands.json"),
                                        llvm::cl::value_desc("BUILD_DIR"), llvm::cl::sub(emitCommand));
llvm::cl::opt<bool> emitNoLines("no-line-directives",
                                llvm::cl::desc("Do not point #line directives at the C++ source"),
                                llvm::cl::sub(emitCommand));

const char* kUsage =
    "usage: culift emit FILE [--function NAME]... [-o OUT.cu] [--module OUT.culift] [-p BUILD_DIR] "
    "[--no-line-directives] [--reassociate] [-- CLANG_ARGS]\n";

int runEmit() {
  if (emitInput.empty()) {
    llvm::errs() << "culift emit: no input file\n" << kUsage;
    return kExitUsage;
  }
  if (auto readable = llvm::MemoryBuffer::getFile(emitInput, false, false); !readable) {
    llvm::errs() << "culift emit: cannot read '" << emitInput << "': " << readable.getError().message() << "\n";
    return kExitUsage;
  }
  TranslateOptions options;
  options.functions.assign(emitFunctions.begin(), emitFunctions.end());
  options.reassociate = emitReassociate;
  options.compilerArgs = clangArgs();
  options.buildDir = emitBuildDir;
  options.lineDirectives = !emitNoLines;
  TranslateResult result = translate(emitInput, options);
  llvm::errs() << result.formatDiagnostics(llvm::errs().has_colors());
  if (!result.ok()) return kExitError;

  if (!emitModule.empty()) {
    try {
      saveModuleFile(*result.module, emitModule);
    } catch (const ModuleFileError& e) {
      llvm::errs() << "culift emit: " << e.what() << "\n";
      return kExitError;
    }
    if (emitOutput.empty()) return kExitOk;
  }
  if (emitOutput.empty() || emitOutput == "-") {
    llvm::outs() << result.module->cudaSource;
    return kExitOk;
  }
  std::error_code ec;
  llvm::raw_fd_ostream out(emitOutput, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "culift emit: cannot write '" << emitOutput << "': " << ec.message() << "\n";
    return kExitError;
  }
  out << result.module->cudaSource;
  return kExitOk;
}

}  // namespace

CULIFT_VERB(emitCommand, runEmit);

}  // namespace culift::cli
