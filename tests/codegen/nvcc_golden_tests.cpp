// The emitted CUDA compiles with nvcc too, not only with NVRTC: every golden input, translated
// and compiled as a CUDA project would (`nvcc -arch=sm_90 --cubin`), two compiles at a time.
// Without nvcc the check says "skipped: nvcc not found" — or fails, where the CUDA toolkit is
// required (CULIFT_REQUIRE_NVRTC=1).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/translate.hpp"
#include "gpu_skip.hpp"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"

namespace fs = std::filesystem;
using namespace culift;

TEST_CASE("every golden's emitted CUDA compiles with nvcc", "[codegen][golden][nvcc]") {
  const std::string nvcc = CULIFT_NVCC;
  if (nvcc.empty() || !fs::exists(nvcc)) {
    if (test::nvrtcRequired()) FAIL("nvcc not found, and CULIFT_REQUIRE_NVRTC=1 requires the CUDA toolkit");
    WARN("skipped: nvcc not found (CUDA toolkit not installed at build time)");
    return;
  }
  std::vector<fs::path> inputs;
  for (const auto& e : fs::directory_iterator(fs::path(CULIFT_TEST_DATA_DIR) / "codegen" / "golden"))
    if (e.is_regular_file() && e.path().extension() == ".cpp") inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(inputs.size() >= 20);
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-nvcc", dir));

  TranslateOptions options;
  options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
  std::vector<std::string> sources;
  for (const fs::path& input : inputs) {
    TranslateResult r = translate(input.string(), options);
    INFO(input.filename().string() << "\n" << r.formatDiagnostics());
    REQUIRE(r.ok());
    const std::string cu = std::string(dir) + "/" + input.stem().string() + ".cu";
    std::ofstream(cu) << r.module->cudaSource;
    sources.push_back(cu);
  }

  std::mutex mutex;
  std::vector<std::string> failures;
  llvm::ThreadPool pool(llvm::hardware_concurrency(2));
  for (const std::string& cu : sources)
    pool.async([&, cu] {
      const std::string cubin = cu + "bin", log = cu + ".log";
      llvm::StringRef args[] = {nvcc, "-arch=sm_90", "--cubin", cu, "-o", cubin};
      const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(log), llvm::StringRef(log)};
      const int status = llvm::sys::ExecuteAndWait(nvcc, args, std::nullopt, redirects, 300);
      if (status == 0 && fs::exists(cubin) && fs::file_size(cubin) > 0) return;
      std::ifstream in(log);
      std::ostringstream text;
      text << in.rdbuf();
      std::lock_guard lock(mutex);
      failures.push_back(fs::path(cu).filename().string() + " (exit " + std::to_string(status) + "):\n" +
                         text.str().substr(0, 2000));
    });
  pool.wait();
  llvm::sys::fs::remove_directories(std::string(dir));
  std::string listed;
  for (const std::string& f : failures) listed += f + "\n";
  INFO(listed);
  CHECK(failures.empty());
  WARN(sources.size() << " golden modules compiled by nvcc for sm_90");
}
