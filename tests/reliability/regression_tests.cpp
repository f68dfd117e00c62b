// Replays every reduced finding in regressions/: native code (-O0, -O2) and the interpreter
// must agree on the recorded arguments, NVRTC must compile the kernel, and the compiled CPU
// backend's launches (checked and unchecked) must compute the interpreter's.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "catch.hpp"
#include "native_leg.hpp"
#include "oracle.hpp"
#include "regression_file.hpp"

using namespace culift::rel;
namespace fs = std::filesystem;

TEST_CASE("every recorded regression agrees on every leg", "[regression]") {
  if (hostCompiler().empty()) {
    WARN("skipped: no host C++ compiler (g++) for the native legs");
    return;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(CULIFT_SOURCE_DIR "/tests/reliability/regressions"))
    if (e.path().extension() == ".cpp") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  for (const fs::path& path : files) {
    DYNAMIC_SECTION(path.filename().string()) {
      std::ifstream in(path);
      std::stringstream text;
      text << in.rdbuf();
      std::string error;
      const auto spec = readRegression(text.str(), "regression", &error);
      INFO(error);
      REQUIRE(spec);
      OracleOptions o;
      o.includeDir = CULIFT_INCLUDE_DIR;
      o.compiled = true;
      const OracleReport r = runOracle({*spec}, o);
      INFO(r.summary());
      CHECK(r.counts.interpreted == 1);
      if (r.counts.compiledSkipped.empty()) CHECK(r.counts.compiled + r.counts.notLowered == 1);
      CHECK(r.findings.empty());
    }
  }
}
