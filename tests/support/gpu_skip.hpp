// A GPU test case on a machine without a usable GPU: a visible skip ("skipped: no GPU (why)"),
// or, where a GPU must be there (CULIFT_REQUIRE_GPU=1, set by the GPU scripts), a failure, so
// that a GPU run can never pass by skipping. The same for NVRTC (CULIFT_REQUIRE_NVRTC=1, set by
// the test command of the README and CI, whose machines have the CUDA toolkit).
#pragma once

#include <cstdlib>
#include <string>

#include "catch.hpp"

namespace culift::test {

inline bool required(const char* variable) {
  const char* value = std::getenv(variable);
  return value && std::string(value) == "1";
}
inline bool gpuRequired() { return required("CULIFT_REQUIRE_GPU"); }
inline bool nvrtcRequired() { return required("CULIFT_REQUIRE_NVRTC"); }

// Call where a [gpu] case finds no GPU, then return from the case.
inline void noGpu(const std::string& why) {
  if (gpuRequired()) FAIL("no GPU (" << why << "), and CULIFT_REQUIRE_GPU=1: this GPU check may not skip");
  WARN("skipped: no GPU (" << why << ")");
}

// Call where a check that compiles with NVRTC finds none, then return from it.
inline void noNvrtc(const std::string& why) {
  if (nvrtcRequired()) FAIL("NVRTC not found (" << why << "), and CULIFT_REQUIRE_NVRTC=1: this check may not skip");
  WARN("skipped: NVRTC not found (" << why << ")");
}

}  // namespace culift::test
