// culift-difftest: a differential campaign over generated programs (native -O0/-O2 vs the
// interpreter, NVRTC compiles, the compiled CPU backend's launches vs the interpreter's),
// reducing each finding to a regression file.
//
//   culift-difftest --count 2000 --seed 7 --regressions tests/reliability/regressions
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <llvm/Support/CommandLine.h>

#include "campaign.hpp"
#include "command_line.hpp"

namespace cl = llvm::cl;

int main(int argc, char** argv) {
  cl::OptionCategory category("culift-difftest options");
  cl::opt<unsigned> count("count", cl::desc("programs to generate"), cl::init(300), cl::cat(category));
  cl::opt<unsigned long long> seed("seed", cl::desc("generator seed"), cl::init(1), cl::cat(category));
  cl::opt<unsigned> first("first",
                          cl::desc("first program of the seed to run (a shard of a long campaign: programs "
                                   "first .. first + count - 1)"),
                          cl::init(0), cl::cat(category));
  cl::opt<unsigned> batch("batch", cl::desc("programs per native build"), cl::init(60), cl::cat(category));
  cl::opt<bool> noO2("no-o2", cl::desc("skip the -O2 native leg"), cl::cat(category));
  cl::opt<bool> noNvrtc("no-nvrtc", cl::desc("skip NVRTC compiles"), cl::cat(category));
  cl::opt<bool> noCompiled("no-compiled",
                           cl::desc("skip the compiled CPU leg (launches by checked and unchecked compiled code)"),
                           cl::cat(category));
  cl::opt<bool> onlyCompiled("only-compiled",
                             cl::desc("run the compiled CPU leg alone (no native legs, no NVRTC; the interpreter "
                                      "launches what it compares with)"),
                             cl::cat(category));
  cl::opt<bool> timing("time",
                       cl::desc("time unchecked compiled code per output against native -O2 per call, for every "
                                "program both agreed on (not with --only-compiled)"),
                       cl::cat(category));
  cl::opt<bool> ubsan("ubsan",
                      cl::desc("build the -O0 leg with UBSan: undefined behaviour is a finding (checks the generator)"),
                      cl::cat(category));
  cl::opt<bool> noReduce("no-reduce", cl::desc("save findings unreduced"), cl::cat(category));
  cl::opt<bool> exactMath("exact-math", cl::desc("only math functions the GPU computes exactly"), cl::cat(category));
  cl::opt<bool> noChecksum("no-checksum", cl::desc("generate programs without the checksum of every value"),
                           cl::cat(category));
  cl::opt<unsigned> argSets("arg-sets", cl::desc("argument sets per program"), cl::init(3), cl::cat(category));
  cl::opt<std::string> regressions("regressions", cl::desc("directory to save reduced findings in"), cl::init(""),
                                   cl::cat(category));
  cl::opt<std::string> dump("dump", cl::desc("print program N of the seed and exit"), cl::init(""), cl::cat(category));
  culift::cli::hideForeignOptions({&category});
  culift::cli::setVersionPrinter("culift-difftest");
  cl::ParseCommandLineOptions(argc, argv, "culift differential tester\n");

  culift::rel::CampaignOptions o;
  o.seed = seed;
  o.first = first;
  o.count = count;
  o.batchSize = batch;
  o.gen.exactMathOnly = exactMath;
  o.gen.argSets = argSets;
  o.gen.checksum = !noChecksum;
  // culift's headers for the native legs: under $CULIFT_SOURCE_ROOT where the binary runs away
  // from the tree it was built in (the GPU machine), else that tree's.
  const char* sourceRoot = std::getenv("CULIFT_SOURCE_ROOT");
  o.oracle.includeDir = sourceRoot && *sourceRoot ? std::string(sourceRoot) + "/include" : CULIFT_INCLUDE_DIR;
  o.oracle.nativeO2 = !noO2 && !onlyCompiled;
  o.oracle.nativeO0 = !onlyCompiled;
  o.oracle.interpreter = !onlyCompiled;
  o.oracle.nvrtc = !noNvrtc && !onlyCompiled;
  o.oracle.compiled = !noCompiled;
  o.oracle.ubsan = ubsan;
  o.oracle.timing = timing;
  o.oracle.log = [](const std::string& s) { std::fprintf(stderr, "%s\n", s.c_str()); };
  o.reduce = !noReduce;
  o.regressionDir = regressions;
  if (!dump.empty()) {
    auto g = culift::rel::generateProgram(seed, static_cast<unsigned>(std::stoul(dump)), o.gen);
    std::printf("%s", g.spec.source().c_str());
    return 0;
  }
  const culift::rel::CampaignResult r = culift::rel::runCampaign(o);
  const auto& t = r.totals;
  std::printf(
      "culift-difftest seed %llu: %u programs, %u argument sets; native -O0 %u, -O2 %u, interpreter %u; "
      "NVRTC %u module(s), %u kernel(s), %u with loop-plan entries%s; %zu finding(s); %.1f s\n"
      "  programs %u..%u; generated: %s\n"
      "  results depending on the arguments: %u of %u programs (%.0f %%)%s\n"
      "  compiled CPU leg: %u programs launched by checked and unchecked code (%u reassociating; %u launches "
      "by each, %u failed by the interpreter), %u not lowered%s%s\n",
      static_cast<unsigned long long>(o.seed), t.programs, t.calls, t.nativeO0, t.nativeO2, t.interpreted,
      t.nvrtcModules, t.nvrtcKernels, t.planned,
      t.nvrtcSkipped.empty() ? "" : (" [NVRTC skipped: " + t.nvrtcSkipped + "]").c_str(), r.findings.size(), t.seconds,
      o.first, o.first + o.count - 1, r.generated.summary().c_str(), t.argDependent, t.programs,
      t.programs ? 100.0 * t.argDependent / t.programs : 0.0,
      t.nativeO0 + t.nativeO2 ? "" : " [counted on the native legs, which did not run]", t.compiled,
      t.compiledReassociating, t.compiledLaunches, t.compiledInterpreterErrors, t.notLowered,
      t.firstNotLowered.empty() ? "" : (" (first: " + t.firstNotLowered + ")").c_str(),
      t.compiledSkipped.empty() ? "" : (" [skipped: " + t.compiledSkipped + "]").c_str());
  std::printf("  compiled CPU leg: %u of %u kernels run neighbouring outputs side by side\n", t.compiledLanes,
              t.compiled);
  if (!t.plans.empty()) {
    std::string plans;
    for (const auto& [plan, n] : t.plans) plans += (plans.empty() ? "" : ", ") + plan + " " + std::to_string(n);
    std::printf("  loop plans of the kernels NVRTC compiled: %s\n", plans.c_str());
  }
  if (!t.perElement.empty()) {
    auto v = t.perElement;
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.ratio < b.ratio; });
    double logSum = 0;
    for (const auto& x : v) logSum += std::log(x.ratio);
    auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * v.size()))].ratio; };
    std::printf(
        "  per element, unchecked compiled code / native -O2, one thread: geomean %.2fx over %zu programs "
        "(median %.2fx, 90th percentile %.2fx, max %.2fx: %s)\n",
        std::exp(logSum / v.size()), v.size(), at(0.5), at(0.9), v.back().ratio, v.back().program.c_str());
  }
  for (const auto& f : r.findings)
    std::printf("  %s: %s%s: %s\n", std::string(culift::rel::name(f.kind)).c_str(), f.program.c_str(),
                f.argSet >= 0 ? (" args #" + std::to_string(f.argSet)).c_str() : "", f.detail.substr(0, 600).c_str());
  for (const auto& p : r.savedFiles) std::printf("  saved %s\n", p.c_str());
  return r.findings.empty() ? 0 : 1;
}
