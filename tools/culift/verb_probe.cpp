// culift probe [--json]
// Reports what this machine offers for running lifted kernels (CUDA driver, devices, NVRTC)
// and how to fix what is missing. Exits 0 with or without a GPU.
#include "culift/runtime/probe.hpp"
#include "llvm/Support/raw_ostream.h"
#include "verb.hpp"

namespace culift::cli {
namespace {

llvm::cl::SubCommand probeCommand("probe", "Report the CUDA driver, GPUs and NVRTC, with fixes for what is missing");
llvm::cl::opt<bool> probeJson("json", llvm::cl::desc("Print the report as JSON"), llvm::cl::sub(probeCommand));

int runProbe() {
  rt::EnvironmentReport report = rt::probeEnvironment();
  std::vector<rt::FixSuggestion> fixes = rt::suggestFixes(report);
  if (probeJson) llvm::outs() << rt::reportJson(report, fixes) << "\n";
  else llvm::outs() << rt::formatReport(report, fixes);
  return kExitOk;
}

}  // namespace

CULIFT_VERB(probeCommand, runProbe);

}  // namespace culift::cli
