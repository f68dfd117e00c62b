// The command-line programs as a user runs them: `--version` names culift's version and license,
// `--help` lists the program's own options and none of the hundreds LLVM registers, and the
// start-up benchmark finds its default header at run time (no source path baked in).
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/version.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "temp_files.hpp"

namespace {

using culift::test::readFile;

// Scratch directories named after this suite.
struct TempDir : culift::test::TempDir {
  TempDir() : culift::test::TempDir("culift-tools") {}
};

const std::string kBin = CULIFT_BINARY_DIR;
const std::string kCulift = kBin + "/tools/culift";
const std::string kDifftest = kBin + "/tests/reliability/culift-difftest";
const std::string kDifftestGpu = kBin + "/tests/reliability/culift-difftest-gpu";
const std::string kStartupBench = kBin + "/bench/gpu/culift_startup_bench";
const std::string kPearson = kBin + "/examples/pearson/pearson";

struct Run {
  int code;
  std::string out, err;
};

// Runs `program` with `args` and an environment without $CULIFT_SOURCE_ROOT.
Run run(const std::string& program, const std::vector<std::string>& args) {
  TempDir dir;
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  std::vector<llvm::StringRef> argv = {program};
  for (const std::string& a : args) argv.push_back(a);
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (llvm::StringRef(*e).startswith("CULIFT_SOURCE_ROOT=") == false) env.emplace_back(*e);
  std::vector<llvm::StringRef> envRefs(env.begin(), env.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), llvm::StringRef(err)};
  const int code = culift::test::executeAndWait(program, argv, envRefs, redirects);
  return {code, readFile(out), readFile(err)};
}

unsigned lines(const std::string& text) { return static_cast<unsigned>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("--version names the version from CMake and the license", "[tools]") {
  const std::string version = culift::kVersion;
  CHECK(version == CULIFT_VERSION_STRING);
  CHECK(std::count(version.begin(), version.end(), '.') == 2);
  const Run r = run(kCulift, {"--version"});
  CHECK(r.code == 0);
  CHECK(r.out == "culift " + version + " (LLVM/Clang 16)\nLicense: Apache-2.0 WITH LLVM-exception\n");
  for (const std::string& tool : {kDifftest, kDifftestGpu}) {
    const Run t = run(tool, {"--version"});
    CHECK(t.code == 0);
    const std::string name = tool.substr(tool.rfind('/') + 1);
    CHECK(t.out == name + " " + version + " (LLVM/Clang 16)\nLicense: Apache-2.0 WITH LLVM-exception\n");
  }
}

TEST_CASE("--help lists each program's own options, none of LLVM's", "[tools]") {
  struct Expected {
    std::string program;
    std::vector<std::string> own;
  };
  const Expected programs[] = {
      {kCulift, {"--help", "--version", "emit", "launch"}},
      {kDifftest,
       {"--count", "--seed", "--batch", "--no-o2", "--no-nvrtc", "--ubsan", "--no-reduce", "--exact-math", "--arg-sets",
        "--regressions", "--dump", "--version"}},
      {kDifftestGpu, {"--count", "--seed", "--batch", "--math-samples", "--version"}},
      {kPearson, {"--size", "--seed", "--cpu", "--strict", "--brief", "--header", "--version"}},
  };
  for (const Expected& p : programs) {
    INFO(p.program);
    const Run r = run(p.program, {"--help"});
    CHECK(r.code == 0);
    for (const std::string& option : p.own) CHECK(r.out.find(option) != std::string::npos);
    for (const char* llvmOption : {"--x86-", "--amdgpu", "--arm-", "--debug-pass", "--print-after"})
      CHECK(r.out.find(llvmOption) == std::string::npos);
    CHECK(lines(r.out) < 40);
  }
}

TEST_CASE("a mistyped option is matched against the program's own options only", "[tools]") {
  const Run r = run(kPearson, {"--sise=8"});
  CHECK(r.code != 0);
  CHECK(r.err.find("Did you mean '--size=8'?") != std::string::npos);
  const Run culift = run(kCulift, {"launch", "--extnt=4"});
  CHECK(culift.code != 0);
  CHECK(culift.err.find("Did you mean '--extent=4'?") != std::string::npos);
}

TEST_CASE("the start-up benchmark carries no source path and finds its header at run time", "[tools]") {
  // The build's source tree is nowhere in the binary.
  CHECK(readFile(kStartupBench).find(CULIFT_SOURCE_DIR "/examples") == std::string::npos);

  // A copy with no checkout above it says what to do, and exits 2 (a set-up error).
  TempDir dir;
  const std::string copy = dir.file("culift_startup_bench");
  REQUIRE_FALSE(llvm::sys::fs::copy_file(kStartupBench, copy));
  REQUIRE_FALSE(llvm::sys::fs::setPermissions(copy, llvm::sys::fs::all_exe | llvm::sys::fs::owner_all));
  const Run lost = run(copy, {"--cache-dir", dir.file("cache")});
  CHECK(lost.code == 2);
  CHECK(lost.err.find("cannot find examples/pearson/pearson_metrics.hpp under any folder above the executable") !=
        std::string::npos);
  CHECK(lost.err.find("--source-root DIR") != std::string::npos);

  const Run wrongRoot = run(copy, {"--cache-dir", dir.file("cache"), "--source-root", dir.file("nowhere")});
  CHECK(wrongRoot.code == 2);
  CHECK(wrongRoot.err.find("under --source-root") != std::string::npos);

  // Given the source root, it translates the tutorial: then it measures (0) or finds no GPU (3).
  const Run found = run(copy, {"--cache-dir", dir.file("cache"), "--source-root", CULIFT_SOURCE_DIR});
  INFO(found.err);
  CHECK((found.code == 0 || found.code == 3));
  CHECK(found.err.find("cannot") == std::string::npos);
}
