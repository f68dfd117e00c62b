// The CUDA device preludes the emitter writes before a module's functions. Each is a CUDA file
// of its own (prelude/*.cuh, compiled by nvcc in the tests), embedded at build time
// (cmake/embed_text.cmake) with its exact bytes.
#pragma once

#include <string_view>

namespace culift::codegen {

// culift_prelude.cuh: std::min, std::max, std::clamp and std::abs with their exact C++
// definitions (std::min(a, b) is `(b < a) ? b : a`, which differs from fminf for NaN and
// signed zeros), culift_opaque and what it serves, culift_vec. Every module.
extern const std::string_view kDevicePrelude;
// culift_assert_prelude.cuh: assert(cond) as culift_assert(cond, "cond", "file", line),
// compiled out as NDEBUG does unless the kernel is compiled with -DCULIFT_DEVICE_ASSERTS
// (EngineOptions::deviceAsserts). Modules with an assert.
extern const std::string_view kAssertPrelude;
// culift_plan_prelude.cuh: asynchronous global-to-shared copies for the loop plans' entries.
// Modules with a plan entry.
extern const std::string_view kPlanPrelude;
// culift_tensor_core_prelude.cuh: operands rounded to tf32, bf16 or fp16 and mma.sync with fp32
// sums. Modules with a tensor-core entry.
extern const std::string_view kTensorCorePrelude;

}  // namespace culift::codegen
