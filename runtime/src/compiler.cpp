#include "culift/runtime/compiler.hpp"

#include <algorithm>

#include "culift/runtime/error.hpp"

namespace culift::rt {

std::string CompileTarget::name() const { return (cubin ? "sm_" : "compute_") + std::to_string(arch); }

CompileTarget chooseTarget(const Nvrtc& nvrtc, int deviceArch) {
  std::vector<int> archs = nvrtc.supportedArchs();
  // Old NVRTC without nvrtcGetSupportedArchs: trust it with the device's own architecture.
  if (archs.empty()) return {deviceArch, true};
  if (std::find(archs.begin(), archs.end(), deviceArch) != archs.end()) return {deviceArch, true};
  // PTX for the newest architecture NVRTC knows below the device's: the driver JIT-compiles it.
  int best = 0;
  for (int a : archs)
    if (a < deviceArch && a > best) best = a;
  if (best == 0)
    throw Error("NVRTC " + std::to_string(nvrtc.versionMajor()) + "." + std::to_string(nvrtc.versionMinor()) +
                " cannot compile for sm_" + std::to_string(deviceArch) + " (it supports sm_" +
                std::to_string(archs.front()) + " to sm_" + std::to_string(archs.back()) +
                "): use an older CUDA toolkit's NVRTC (set $CULIFT_NVRTC_PATH)");
  return {best, false};
}

CompiledImage compileImage(const Nvrtc& nvrtc, CompileCache* cache, const CompileRequest& request,
                           const CompileTarget& target) {
  CompiledImage result;
  result.target = target;
  result.options.push_back(nvrtcArchOption(target.arch, target.cubin));
  result.options.insert(result.options.end(), request.options.begin(), request.options.end());
  result.key = CacheKey::make(request.source, result.options, target.name(),
                              std::to_string(nvrtc.versionMajor()) + "." + std::to_string(nvrtc.versionMinor()),
                              request.translatorVersion);
  if (cache) {
    if (auto image = cache->find(result.key)) {
      result.image = std::move(image);
      result.fromCache = true;
      return result;
    }
  }
  CompileOutput out = nvrtc.compile(request.source, request.programName, target.arch, target.cubin, request.options);
  if (!out.ok) throw CompileError(request.programName, out.log, out.options, target.arch);
  result.log = std::move(out.log);
  result.milliseconds = out.milliseconds;
  if (cache) result.image = cache->store(result.key, std::move(out.image));
  else result.image = std::make_shared<const std::vector<char>>(std::move(out.image));
  return result;
}

}  // namespace culift::rt
