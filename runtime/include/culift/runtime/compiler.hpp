// Emitted CUDA source to a loadable image: picks the target for a device (its exact sm_XY as a
// cubin; PTX for the newest older architecture NVRTC knows when it lacks that one), builds the
// options, and goes through the compile cache.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "culift/runtime/cache.hpp"
#include "culift/runtime/nvrtc.hpp"

namespace culift::rt {

struct CompileTarget {
  int arch = 90;             // 90 = sm_90 / compute_90
  bool cubin = true;         // false: PTX, JIT-compiled by the driver
  std::string name() const;  // "sm_90" or "compute_90"
};

// The target for a device of compute capability `deviceArch` (90). Throws Error when NVRTC
// knows no architecture at or below it.
CompileTarget chooseTarget(const Nvrtc& nvrtc, int deviceArch);

struct CompileRequest {
  std::string source;                     // the emitted CUDA C (Module::cudaSource)
  std::string programName = "culift.cu";  // NVRTC's name for it (appears in the log)
  std::vector<std::string> options;       // "--fmad=false", "-lineinfo", ...
  std::string translatorVersion;          // part of the cache key
};

struct CompiledImage {
  std::shared_ptr<const std::vector<char>> image;  // cubin, or NUL-terminated PTX
  CompileTarget target;
  std::vector<std::string> options;  // every option NVRTC got (the -arch one first)
  std::string log;                   // NVRTC warnings (empty when cached)
  double milliseconds = 0;           // NVRTC time (0 when cached)
  bool fromCache = false;
  CacheKey key;
};

// Compiles `request` for `target`, through `cache` when not null. Throws CompileError (with the
// NVRTC log and the options) when NVRTC rejects the source.
CompiledImage compileImage(const Nvrtc& nvrtc, CompileCache* cache, const CompileRequest& request,
                           const CompileTarget& target);

}  // namespace culift::rt
