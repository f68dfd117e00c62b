// What costs no device time: NVRTC cold and warm compile times through the compile cache, and
// ptxas's resource report (registers, spills, stack, shared memory) per kernel.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "culift/runtime/nvrtc.hpp"

namespace culift::bench {

struct SourceUnit {
  std::string name;    // "sat_overlap", "reference_kernels"
  std::string source;  // CUDA C
};

// Compiles `unit` three times: in a fresh cache directory (cold, NVRTC runs), with a new cache
// object on that directory (a disk hit), and again on that object (a memory hit). Prints the
// wall times.
void reportCompileTimes(const rt::Nvrtc& nvrtc, const SourceUnit& unit, const std::vector<std::string>& options,
                        int arch, std::FILE* out);

struct KernelResources {
  std::string unit;
  std::string kernel;
  int registers = -1;
  int stackBytes = 0, spillStores = 0, spillLoads = 0, sharedBytes = 0;
};

// Compiles each unit with --ptxas-options=-v (no cache) and parses the report. With `outDir`,
// writes <name>.cu, <name>.cubin and <name>.ptxas.txt there (cuobjdump -sass reads the cubins).
std::vector<KernelResources> reportResources(const rt::Nvrtc& nvrtc, const std::vector<SourceUnit>& units,
                                             const std::vector<std::string>& options, int arch,
                                             const std::string& outDir, std::FILE* out);

// Parses ptxas -v output ("Compiling entry function 'k'", "Used N registers", spills, smem).
std::vector<KernelResources> parsePtxasLog(const std::string& unit, const std::string& log);

}  // namespace culift::bench
