// Translates a kernel, launches it on the CPU backend and checks the result: the headers, the
// libraries and their dependencies (Clang, LLVM, threads) all come from find_package(culift).
#include <cstdio>
#include <cstring>
#include <vector>

#include "culift/annotate.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "culift/version.hpp"

int main() {
  if (std::strcmp(culift::kVersion, CULIFT_PACKAGE_VERSION) != 0) {
    std::fprintf(stderr, "the headers say %s, the package %s\n", culift::kVersion, CULIFT_PACKAGE_VERSION);
    return 1;
  }
  const char* source =
      "[[clang::annotate(\"culift\")]] float Scale(const float* x, float a, int i) { return a * x[i]; }\n";
  culift::TranslateResult translated = culift::translateSource(source, "scale.hpp");
  if (!translated.ok()) {
    std::fputs(translated.formatDiagnostics().c_str(), stderr);
    return 1;
  }
  auto engine = culift::rt::Engine::createCpu();
  const std::vector<float> x = {1.0f, 2.0f, 3.0f};
  culift::rt::DeviceBuffer<float> dx(*engine, x), out(*engine, x.size());
  engine->kernel(translated.module, "Scale")
      .launch(*engine, culift::rt::LaunchPlanner::for1D(3, 256, engine->device().limits), dx, 2.0f, out);
  engine->synchronize();
  const std::vector<float> got = out.read();
  if (got != std::vector<float>{2.0f, 4.0f, 6.0f}) {
    std::fprintf(stderr, "wrong result: %g %g %g\n", got[0], got[1], got[2]);
    return 1;
  }
  std::printf("consumer: culift %s ok\n", culift::kVersion);
  return 0;
}
