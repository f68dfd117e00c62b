// A GPU test case on a machine without a usable GPU: a visible skip ("skipped: no GPU (why)"),
// or, where a GPU must be there (CULIFT_REQUIRE_GPU=1, set by the GPU scripts), a failure, so
// that a GPU run can never pass by skipping.
#pragma once

#include <cstdlib>
#include <string>

#include "catch.hpp"

namespace culift::test {

inline bool gpuRequired() {
  const char* required = std::getenv("CULIFT_REQUIRE_GPU");
  return required && std::string(required) == "1";
}

// Call where a [gpu] case finds no GPU, then return from the case.
inline void noGpu(const std::string& why) {
  if (gpuRequired()) FAIL("no GPU (" << why << "), and CULIFT_REQUIRE_GPU=1: this GPU check may not skip");
  WARN("skipped: no GPU (" << why << ")");
}

}  // namespace culift::test
