// libFuzzer target: source text in, diagnostics or a CUDA module out, never a crash.
// Build: CC=clang-16 CXX=clang++-16 cmake -DCULIFT_FUZZ=ON ... (see fuzz/README.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "culift/translate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  culift::TranslateResult r = culift::translateSource(source, "fuzz.cpp");
  (void)r.formatDiagnostics();
  if (r.ok() && r.module->cudaSource.empty()) __builtin_trap();  // a module always has source
  return 0;
}
