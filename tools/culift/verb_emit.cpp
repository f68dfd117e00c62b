// culift emit FILE [--function NAME]... [-o OUT.cu] [--module OUT.culift [--arch SM]... [--depfile OUT.d]]
//             [--host-launchers OUT.cpp [--name STEM]] [-p BUILD_DIR] [--no-line-directives] [--launchers]
//             [--reassociate] [--tensor-cores=tf32|bf16|fp16] [--no-fused-statistics] [-- CLANG_ARGS]
// Translates the annotated functions of FILE (or the ones named) into one CUDA C file, and with
// --module into a module file (docs/module-files.md): with --arch, it carries cubins compiled by
// NVRTC for those architectures (when NVRTC is present); --depfile lists the files it was made
// from, for build systems (culift_add_kernels); --host-launchers writes the kernels' native CPU
// entries, a C++ source the app compiles with the header (docs/runtime.md#host-launchers).
#include "culift/ast/module_file.hpp"
#include "culift/codegen.hpp"
#include "culift/runtime/compiler.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/raw_module.hpp"
#include "culift/translate.hpp"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "verb.hpp"

namespace culift::cli {
namespace {

llvm::cl::SubCommand emitCommand("emit", "Translate annotated C++ functions into one CUDA C file");
llvm::cl::opt<bool> emitReassociate(
    "reassociate", llvm::cl::desc("Let every kernel reassociate its loop's sums, as CULIFT_KERNEL_REASSOCIATE does"),
    llvm::cl::sub(emitCommand));
llvm::cl::opt<TensorCores> emitTensorCores("tensor-cores", llvm::cl::desc(kTensorCoresHelp), tensorCoreFormats(),
                                           llvm::cl::init(TensorCores::None), llvm::cl::sub(emitCommand));
llvm::cl::opt<bool> emitNoFused("no-fused-statistics",
                                llvm::cl::desc("Add no fused kernels for pairs that reduce the same rows"),
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
llvm::cl::list<std::string> emitArchs("arch",
                                      llvm::cl::desc("With --module: add a cubin for this architecture (90 or sm_90; "
                                                     "repeatable), compiled by NVRTC when it is present"),
                                      llvm::cl::value_desc("SM"), llvm::cl::sub(emitCommand));
llvm::cl::opt<bool> emitLineInfo("lineinfo",
                                 llvm::cl::desc("With --arch: compile the cubins with -lineinfo (line tables and the "
                                                "PTX text, about three times the size; default: without)"),
                                 llvm::cl::sub(emitCommand));
llvm::cl::opt<std::string> emitDepfile("depfile",
                                       llvm::cl::desc("With --module: write a Makefile-style list of the files the "
                                                      "module was translated from"),
                                       llvm::cl::value_desc("OUT.d"), llvm::cl::sub(emitCommand));
llvm::cl::opt<std::string> emitBuildDir("p", llvm::cl::desc("Build directory holding compile_commands.json"),
                                        llvm::cl::value_desc("BUILD_DIR"), llvm::cl::sub(emitCommand));
llvm::cl::opt<bool> emitNoLines("no-line-directives", llvm::cl::desc("Do not point #line directives at the C++ source"),
                                llvm::cl::sub(emitCommand));
llvm::cl::opt<bool> emitLaunchers("launchers",
                                  llvm::cl::desc("Add host functions culift_launch_<function>(..., stream) that launch "
                                                 "each kernel with <<<>>> (for nvcc; NVRTC skips them)"),
                                  llvm::cl::sub(emitCommand));
llvm::cl::opt<std::string> emitHostLaunchers(
    "host-launchers",
    llvm::cl::desc("Write the kernels' native CPU entries to this C++ source, which includes FILE: compiled "
                   "with the app, the CPU backend runs them instead of the JIT (culift embed --host-launchers)"),
    llvm::cl::value_desc("OUT.cpp"), llvm::cl::sub(emitCommand));
llvm::cl::opt<std::string> emitName("name",
                                    llvm::cl::desc("With --host-launchers: the name culift embed --name is given "
                                                   "(default: FILE's stem, as an identifier)"),
                                    llvm::cl::value_desc("STEM"), llvm::cl::sub(emitCommand));

const char* kUsage =
    "usage: culift emit FILE [--function NAME]... [-o OUT.cu] [--module OUT.culift [--arch SM]... [--lineinfo] "
    "[--depfile OUT.d]] "
    "[--host-launchers OUT.cpp [--name STEM]] [-p BUILD_DIR] [--no-line-directives] [--launchers] [--reassociate] [--tensor-cores=tf32|bf16|fp16] [--no-fused-statistics] "
    "[-- CLANG_ARGS]\n";

// "90", "sm_90" -> 90; 0 when it is neither.
int parseArch(llvm::StringRef text) {
  text.consume_front("sm_");
  int arch = 0;
  if (text.getAsInteger(10, arch) || arch < 30 || arch > 999) return 0;
  return arch;
}

// Cubins of the module's CUDA source for each architecture, compiled with the options a GPU
// engine with default EngineOptions uses (the runtime takes an image only when its options are
// the engine's), but -lineinfo unless asked: line tables and the PTX text the option adds make
// a cubin about three times larger, which every start of the app reads and hands to the driver;
// the runtime takes a cubin with or without them alike. Without NVRTC a warning, and no cubins:
// the runtime then compiles at run time.
bool addCubins(Module& module, const std::vector<int>& archs, bool lineInfo) {
  std::string why;
  auto nvrtc = rt::Nvrtc::load(&why);
  if (!nvrtc) {
    llvm::errs() << "culift emit: warning: no NVRTC (" << why << "): the module carries no cubins; the runtime "
                 << "compiles its CUDA source where it runs\n";
    return true;
  }
  rt::EngineOptions engineOptions;
  engineOptions.lineInfo = lineInfo;
  const std::vector<std::string> options = rt::RawModule::compileOptions(engineOptions, {});
  for (int arch : archs) {
    rt::CompileRequest request;
    request.source = module.cudaSource;
    request.programName = llvm::sys::path::filename(module.sourcePath).str() + ".cu";
    request.options = options;
    try {
      rt::CompiledImage compiled = rt::compileImage(*nvrtc, nullptr, request, rt::CompileTarget{arch, true});
      module.images.push_back(
          DeviceImage{compiled.target.name(), options, std::string(compiled.image->begin(), compiled.image->end())});
    } catch (const rt::Error& e) {
      llvm::errs() << "culift emit: compiling for sm_" << arch << ": " << e.what() << "\n";
      return false;
    }
  }
  return true;
}

// Clang's dependency list, without the annotation header culift provides in memory, written as
// `target: file file ...` (spaces in names escaped as Make and Ninja read them).
bool writeDepfile(const std::string& clangList, const std::string& target, const std::string& path) {
  auto list = llvm::MemoryBuffer::getFile(clangList, false, false);
  if (!list) {
    llvm::errs() << "culift emit: Clang wrote no dependency list: " << list.getError().message() << "\n";
    return false;
  }
  // Clang writes "target: a b", lines continued with a backslash; a space inside a name is
  // escaped with a backslash.
  std::vector<std::string> files;
  std::string current;
  bool afterColon = false;
  const llvm::StringRef text = (*list)->getBuffer();
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '\\' && next == ' ') {  // an escaped space: part of the name
      current += ' ';
      ++i;
      continue;
    }
    if (c == '\\' && next == '\n') ++i;  // a line continuation separates, as a space does
    else if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
      current += c;
      continue;
    }
    if (!current.empty()) {
      if (afterColon) files.push_back(current);
      else if (current.back() == ':') afterColon = true;
      current.clear();
    }
  }
  if (!current.empty() && afterColon) files.push_back(current);
  std::string out;
  auto escaped = [](const std::string& f) {
    std::string e;
    for (char c : f) e += c == ' ' ? std::string("\\ ") : std::string(1, c);
    return e;
  };
  out = escaped(target) + ":";
  for (const std::string& f : files)
    if (!llvm::StringRef(f).startswith("/__culift__/")) out += " \\\n  " + escaped(f);
  out += "\n";
  return writeTextFile(path, out, "culift emit");
}

// The native CPU entries of the module's kernels, including the input by its absolute path. A
// kernel C++ cannot name from the global scope gets none, with a warning.
bool writeHostLaunchers(const Module& module, const std::string& stem) {
  llvm::SmallString<256> include(emitInput.getValue());
  llvm::sys::fs::make_absolute(include);
  llvm::sys::path::remove_dots(include, true);
  if (include.str().find_first_of("\"\n") != llvm::StringRef::npos) {
    llvm::errs() << "culift emit: --host-launchers: the source includes '" << include
                 << "', a path an #include cannot name (it holds a '\"' or a newline)\n";
    return false;
  }
  for (const Function* fn : module.kernels())
    if (!hasHostLauncher(*fn) && fn->fusedOf.empty())  // a fused kernel has no C++ function
      llvm::errs() << "culift emit: warning: '" << fn->name
                   << "' gets no host launcher: C++ cannot name it from the global scope\n";
  return writeTextFile(emitHostLaunchers, hostLauncherSource(module, include.str().str(), stem), "culift emit");
}

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
  options.tensorCores = emitTensorCores;
  options.fuseRowStatistics = !emitNoFused;
  options.compilerArgs = clangArgs();
  options.buildDir = emitBuildDir;
  options.lineDirectives = !emitNoLines;
  if ((!emitArchs.empty() || !emitDepfile.empty()) && emitModule.empty()) {
    llvm::errs() << "culift emit: --arch and --depfile go with --module\n" << kUsage;
    return kExitUsage;
  }
  if (!emitName.empty() && emitHostLaunchers.empty()) {
    llvm::errs() << "culift emit: --name goes with --host-launchers\n" << kUsage;
    return kExitUsage;
  }
  const std::string stem = emitName.empty() ? identifierFrom(llvm::sys::path::stem(emitInput).str())
                                            : emitName.getValue();
  if (!emitHostLaunchers.empty() && !isIdentifier(stem)) {
    llvm::errs() << "culift emit: --name '" << stem << "' is not a C++ identifier\n";
    return kExitUsage;
  }
  std::vector<int> archs;
  for (const std::string& a : emitArchs) {
    const int arch = parseArch(a);
    if (!arch) {
      llvm::errs() << "culift emit: --arch " << a << ": expected an architecture such as 90 or sm_90\n";
      return kExitUsage;
    }
    archs.push_back(arch);
  }
  std::string clangDepfile;
  if (!emitDepfile.empty()) {
    clangDepfile = emitDepfile + ".clang";
    for (const char* arg : {"-MD", "-MF"}) options.compilerArgs.push_back(arg);
    options.compilerArgs.push_back(clangDepfile);
  }
  TranslateResult result = translate(emitInput, options);
  llvm::errs() << result.formatDiagnostics(llvm::errs().has_colors());
  if (!result.ok()) return kExitError;

  if (!emitHostLaunchers.empty() && !writeHostLaunchers(*result.module, stem)) return kExitError;
  if (!emitModule.empty()) {
    if (!archs.empty() && !addCubins(*result.module, archs, emitLineInfo)) return kExitError;
    if (!clangDepfile.empty()) {
      const bool written = writeDepfile(clangDepfile, emitModule, emitDepfile);
      llvm::sys::fs::remove(clangDepfile);
      if (!written) return kExitError;
    }
    try {
      saveModuleFile(*result.module, emitModule);
    } catch (const ModuleFileError& e) {
      llvm::errs() << "culift emit: " << e.what() << "\n";
      return kExitError;
    }
  }
  if (emitOutput.empty() && (!emitModule.empty() || !emitHostLaunchers.empty())) return kExitOk;
  // The module keeps the CUDA the runtime compiles; the file written here may add launchers.
  const std::string cuda = emitLaunchers ? emitCuda(*result.module, EmitOptions{options.lineDirectives, true})
                                         : result.module->cudaSource;
  if (emitOutput.empty() || emitOutput == "-") {
    llvm::outs() << cuda;
    return kExitOk;
  }
  return writeTextFile(emitOutput, cuda, "culift emit") ? kExitOk : kExitError;
}

}  // namespace

CULIFT_VERB(emitCommand, runEmit);

}  // namespace culift::cli
