// culift ast FILE [--function NAME]... [-p BUILD_DIR] [--reassociate] [--tensor-cores=tf32|bf16|fp16]
// [--no-fused-statistics] [--dump] [-- CLANG_ARGS] Shows what culift made of each function: index mode, device and
// kernel names, the kernel's parameters with their roles, and the typed AST as pseudocode with every cast explicit;
// with
// --dump, the typed AST itself as a tree (culift/ast/dump.hpp), checked by the verifier first.
#include "cli_records.hpp"
#include "culift/ast/dump.hpp"
#include "culift/codegen.hpp"
#include "culift/translate.hpp"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "verb.hpp"

namespace culift::cli {
namespace {

llvm::cl::SubCommand astCommand("ast", "Show the typed AST, index mode and kernel signature of each function");
llvm::cl::opt<bool> astReassociate(
    "reassociate", llvm::cl::desc("Let every kernel reassociate its loop's sums, as CULIFT_KERNEL_REASSOCIATE does"),
    llvm::cl::sub(astCommand));
llvm::cl::opt<TensorCores> astTensorCores("tensor-cores", llvm::cl::desc(kTensorCoresHelp), tensorCoreFormats(),
                                          llvm::cl::init(TensorCores::None), llvm::cl::sub(astCommand));
llvm::cl::opt<bool> astNoFused("no-fused-statistics",
                               llvm::cl::desc("Add no fused kernels for pairs that reduce the same rows"),
                               llvm::cl::sub(astCommand));
llvm::cl::opt<bool> astDump("dump",
                            llvm::cl::desc("Print the typed AST as a tree: each node's kind, type, source range "
                                           "(line:col-line:col) and names or values; the verifier checks it first"),
                            llvm::cl::sub(astCommand));
llvm::cl::opt<std::string> astInput(llvm::cl::Positional, llvm::cl::desc("FILE"), llvm::cl::sub(astCommand));
llvm::cl::list<std::string> astFunctions("function",
                                         llvm::cl::desc("Show this function (repeatable; default: every "
                                                        "function annotated with CULIFT_KERNEL)"),
                                         llvm::cl::value_desc("NAME"), llvm::cl::sub(astCommand));
llvm::cl::opt<std::string> astBuildDir("p", llvm::cl::desc("Build directory holding compile_commands.json"),
                                       llvm::cl::value_desc("BUILD_DIR"), llvm::cl::sub(astCommand));

void printFunction(llvm::raw_ostream& os, const Module& module, const Function& f) {
  os << "function " << f.name << (f.annotated ? "" : " (called by a kernel)");
  if (f.fusedOf.size() == 2)
    os << " (" << f.fusedOf[0] << " and " << f.fusedOf[1]
       << " in one pass: a pipeline runs it for adjacent launches of the two with the same arguments)";
  os << "\n";
  os << "  index mode: " << name(f.mode) << "\n";
  os << "  device:     " << f.deviceName << "\n";
  if (f.isKernel()) {
    os << "  kernel:     " << f.kernelName << " (32-bit indices, " << f.itemsPerThread << " item"
       << (f.itemsPerThread == 1 ? "" : "s") << " per thread"
       << (f.arrayAlignment ? ", arrays " + std::to_string(f.arrayAlignment) + "-byte aligned" : std::string()) << "), "
       << f.wideKernelName << " (64-bit)\n";
    os << "  loop plan:  " << name(f.loopPlan);
    if (f.loopPlan == LoopPlan::PerThread)
      os << " (" << (f.loopPlanReason.empty() ? std::string("the body has no loop") : f.loopPlanReason) << ")";
    else if (!f.loopPlanReason.empty()) os << " (" << f.loopPlanReason << ")";
    for (size_t e = 0; e < f.planEntries.size(); ++e) {
      const PlanEntry& entry = f.planEntries[e];
      os << (e ? ", " : "; entries ") << entry.kernelName;
      std::vector<std::string> notes;
      if (entry.sharedBytes)
        notes.push_back(std::to_string((entry.sharedBytes + 1023) / 1024) + " KiB of dynamic shared memory");
      if (entry.edgeKernel) notes.push_back("the blocks not whole: " + edgeKernelName(entry));
      if (!notes.empty()) os << " (" << llvm::join(notes, "; ") << ")";
    }
    os << "\n";
    os << "  signature:\n";
    for (const KernelParam& p : f.signature.params)
      os << "    " << (p.record ? recordPointerType(*p.record, p.type.constElements) : toString(p.type)) << " "
         << p.name << "  [" << roleName(f, p) << "]\n";
  }
  std::string pseudo = writePseudocode(module, f);
  if (!pseudo.empty()) {
    os << "\n" << pseudo;
    if (pseudo.back() != '\n') os << "\n";
  }
  os << "\n";
}

int runAst() {
  if (astInput.empty()) {
    llvm::errs()
        << "culift ast: no input file\n"
        << "usage: culift ast FILE [--function NAME]... [-p BUILD_DIR] [--reassociate] [--tensor-cores=tf32|bf16|fp16] [--dump] [-- CLANG_ARGS]\n";
    return kExitUsage;
  }
  if (auto readable = llvm::MemoryBuffer::getFile(astInput, false, false); !readable) {
    llvm::errs() << "culift ast: cannot read '" << astInput << "': " << readable.getError().message() << "\n";
    return kExitUsage;
  }
  TranslateOptions options;
  options.functions.assign(astFunctions.begin(), astFunctions.end());
  options.reassociate = astReassociate;
  options.tensorCores = astTensorCores;
  options.fuseRowStatistics = !astNoFused;
  options.compilerArgs = clangArgs();
  options.buildDir = astBuildDir;
  options.verify = options.verify || astDump;
  TranslateResult result = translate(astInput, options);
  llvm::errs() << result.formatDiagnostics(llvm::errs().has_colors());
  if (!result.ok()) return kExitError;
  for (const Function& f : result.module->functions) {
    if (astDump) llvm::outs() << ast::dumpTree(*result.module, f) << "\n";
    else printFunction(llvm::outs(), *result.module, f);
  }
  return kExitOk;
}

}  // namespace

CULIFT_VERB(astCommand, runAst);

}  // namespace culift::cli
