// What the seed-kernel examples share: translating their header and making a strict-math
// engine (the GPU, or the CPU backend where there is none), saying which.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/FileSystem.h"

namespace culift::examples {

// Translates `header`; where it does not exist (a binary copied to another machine runs from a
// checkout's root, and the build tree's path is gone) `checkoutPath` instead. Null, with the
// diagnostics printed, when translation fails.
inline std::shared_ptr<const Module> translateHeader(std::string header, const char* checkoutPath) {
  if (!llvm::sys::fs::exists(header) && llvm::sys::fs::exists(checkoutPath)) header = checkoutPath;
  TranslateResult translated = translate(header);
  if (!translated.ok()) {
    std::fputs(translated.formatDiagnostics().c_str(), stderr);
    return nullptr;
  }
  return translated.module;
}

// Strict math (no FMA contraction): results bit-exact with the native build. Prints the device.
inline std::shared_ptr<rt::Engine> strictEngine(bool forceCpu) {
  rt::EngineOptions options;
  options.math = rt::MathMode::Strict;
  std::string whyNot;
  auto engine = forceCpu ? rt::Engine::createCpu(options) : rt::Engine::createGpuOrCpu(options, &whyNot);
  if (engine->backend() != rt::Backend::Gpu && !forceCpu)
    std::printf("no GPU (%s): using the CPU backend\n", whyNot.c_str());
  std::printf("device: %s\n", engine->device().toString().c_str());
  return engine;
}

}  // namespace culift::examples
