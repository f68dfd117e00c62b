// Compiles emitted CUDA with NVRTC for sm_90, as every emitted module must. Where NVRTC cannot
// be loaded the check says "skipped: NVRTC not found" visibly and passes.
#pragma once

#include <memory>
#include <string>

#include "catch.hpp"
#include "culift/runtime/nvrtc.hpp"
#include "gpu_skip.hpp"

namespace culift::test {

struct NvrtcFixture {
  std::shared_ptr<const rt::Nvrtc> nvrtc;
  std::string whyNot;
};

inline const NvrtcFixture& nvrtcFixture() {
  static const NvrtcFixture f = [] {
    NvrtcFixture x;
    x.nvrtc = rt::Nvrtc::load(&x.whyNot);
    return x;
  }();
  return f;
}

// Compiles `source`; fails the test with NVRTC's log on an error. Returns the compile time in
// milliseconds, or a negative value when NVRTC is unavailable (skipped).
inline double requireCompiles(const std::string& source, const std::string& programName) {
  const NvrtcFixture& f = nvrtcFixture();
  if (!f.nvrtc) {
    culift::test::noNvrtc(f.whyNot);
    return -1;
  }
  const rt::CompileOutput result = f.nvrtc->compile(source, programName, 90, true, {});
  INFO("NVRTC log for " << programName << ":\n" << result.log << "\nsource:\n" << source);
  REQUIRE(result.ok);
  CHECK_FALSE(result.image.empty());
  return result.milliseconds;
}

}  // namespace culift::test
