#include "compile_report.hpp"

#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>

#include "culift/runtime/cache.hpp"
#include "culift/runtime/compiler.hpp"
#include "culift/runtime/error.hpp"
#include "llvm/Support/FileSystem.h"

namespace culift::bench {
namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void writeFile(const std::string& path, const void* data, std::size_t bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
}

}  // namespace

void reportCompileTimes(const rt::Nvrtc& nvrtc, const SourceUnit& unit, const std::vector<std::string>& options,
                        int arch, std::FILE* out) {
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("culift-bench-cache", dir)) {
    std::fprintf(out, "  NVRTC compile of %s: cannot create a temporary cache directory\n", unit.name.c_str());
    return;
  }
  const rt::CompileTarget target = rt::chooseTarget(nvrtc, arch);
  const rt::CompileRequest request{unit.source, unit.name + ".cu", options, "bench"};
  auto timed = [&](rt::CompileCache& cache, const char* what) {
    const auto t0 = std::chrono::steady_clock::now();
    const rt::CompiledImage image = rt::compileImage(nvrtc, &cache, request, target);
    const double ms = msSince(t0);
    std::fprintf(out, "  %-28s %9.2f ms  (%s, %zu-byte %s)\n", what, ms, image.fromCache ? "cache hit" : "NVRTC ran",
                 image.image->size(), target.name().c_str());
  };
  std::fprintf(out, "  %s for %s, options:", unit.name.c_str(), target.name().c_str());
  for (const auto& o : options) std::fprintf(out, " %s", o.c_str());
  std::fprintf(out, "\n");
  {
    rt::CompileCache cold(rt::CompileCache::Options{std::string(dir), true, {}});
    timed(cold, "cold (empty cache dir)");
  }
  rt::CompileCache warm(rt::CompileCache::Options{std::string(dir), true, {}});
  timed(warm, "warm (disk cache)");
  timed(warm, "warm (memory cache)");
  llvm::sys::fs::remove_directories(dir);
}

std::vector<KernelResources> parsePtxasLog(const std::string& unit, const std::string& log) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::vector<KernelResources> out;
  std::istringstream lines(log);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, entry)) {
      out.push_back({unit, m[1].str()});
      continue;
    }
    if (out.empty()) continue;
    KernelResources& k = out.back();
    if (std::regex_search(line, m, frame)) {
      k.stackBytes = std::stoi(m[1].str());
      k.spillStores = std::stoi(m[2].str());
      k.spillLoads = std::stoi(m[3].str());
    }
    if (std::regex_search(line, m, used)) k.registers = std::stoi(m[1].str());
    if (std::regex_search(line, m, smem)) k.sharedBytes = std::stoi(m[1].str());
  }
  return out;
}

std::vector<KernelResources> reportResources(const rt::Nvrtc& nvrtc, const std::vector<SourceUnit>& units,
                                             const std::vector<std::string>& options, int arch,
                                             const std::string& outDir, std::FILE* out) {
  const rt::CompileTarget target = rt::chooseTarget(nvrtc, arch);
  std::vector<std::string> withReport = options;
  withReport.emplace_back("--ptxas-options=-v");
  std::vector<KernelResources> all;
  for (const SourceUnit& unit : units) {
    const rt::CompileOutput compiled = nvrtc.compile(unit.source, unit.name + ".cu", target.arch, target.cubin,
                                                     withReport);
    if (!outDir.empty()) {
      const std::string base = outDir + "/" + unit.name;
      writeFile(base + ".cu", unit.source.data(), unit.source.size());
      writeFile(base + ".ptxas.txt", compiled.log.data(), compiled.log.size());
      if (compiled.ok)
        writeFile(base + (target.cubin ? ".cubin" : ".ptx"), compiled.image.data(), compiled.image.size());
    }
    if (!compiled.ok) {
      std::fprintf(out, "  %s: NVRTC failed:\n%s\n", unit.name.c_str(), compiled.log.c_str());
      continue;
    }
    for (KernelResources& k : parsePtxasLog(unit.name, compiled.log)) all.push_back(std::move(k));
  }
  std::fprintf(out, "  %-20s %-34s %5s %6s %7s %7s %6s\n", "unit", "kernel", "regs", "stack", "spill-s", "spill-l",
               "smem");
  for (const KernelResources& k : all)
    std::fprintf(out, "  %-20s %-34s %5d %6d %7d %7d %6d\n", k.unit.c_str(), k.kernel.c_str(), k.registers,
                 k.stackBytes, k.spillStores, k.spillLoads, k.sharedBytes);
  return all;
}

}  // namespace culift::bench
