// GPU test helpers: an engine when a device is usable, else a visible skip.
#pragma once

#include <cstdlib>
#include <memory>
#include <string>

#include "catch.hpp"
#include "culift/runtime/runtime.hpp"
#include "gpu_skip.hpp"
#include "llvm/Support/FileSystem.h"

namespace culift::rttest {

// A GPU engine (strict math: bit-exact with the CPU for + - * / sqrt), or null after printing
// "skipped: no GPU" with the reason (a failure where CULIFT_REQUIRE_GPU=1: see gpu_skip.hpp).
// Its launches take the entry the runtime's rules choose (no measured choices: a test that says
// which entries ran must know which one a launch takes) unless `tune`.
inline std::shared_ptr<rt::Engine> gpuOrSkip(rt::MathMode math = rt::MathMode::Strict, bool tune = false) {
  rt::EngineOptions options;
  options.math = math;
  options.tuneEntries = tune;
  std::string why;
  auto engine = rt::Engine::tryCreate(options, &why);
  if (!engine) culift::test::noGpu(why);
  return engine;
}

// A file of the source tree: under $CULIFT_SOURCE_ROOT, the source dir this test was built in,
// or the current directory (binaries copied to another machine run from a checkout's root).
inline std::string sourceFile(const std::string& relative) {
  const char* roots[] = {std::getenv("CULIFT_SOURCE_ROOT"), CULIFT_SOURCE_DIR, "."};
  for (const char* root : roots) {
    if (!root || !*root) continue;
    std::string path = std::string(root) + "/" + relative;
    if (llvm::sys::fs::exists(path)) return path;
  }
  return {};
}

}  // namespace culift::rttest
