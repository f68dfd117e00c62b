// Kernels built ahead of time: `culift emit --module --arch --depfile` (cubins when NVRTC is
// present, the files the module came from), `culift embed` (its checks), and, tagged [gpu], a
// GPU engine that loads a module's own cubin without NVRTC (EngineOptions::nvrtcOptional), falls
// back to NVRTC for an image of other options, and says why when it has neither.
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/ast/module_file.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "gpu_skip.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "temp_files.hpp"

namespace culift {
namespace {

using culift::test::readFile;
using culift::test::writeFile;

// Scratch directories named after this suite.
struct TempDir : culift::test::TempDir {
  TempDir() : culift::test::TempDir("culift-embedded") {}
};

const std::string kCulift = CULIFT_BINARY_DIR "/tools/culift";

struct Run {
  int code = -1;
  std::string err;
};

Run culift(std::vector<std::string> args, const TempDir& dir) {
  const std::string err = dir.file("stderr.txt");
  llvm::sys::fs::remove(err);
  std::vector<llvm::StringRef> argv = {kCulift};
  for (const std::string& a : args) argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, std::nullopt, llvm::StringRef(err)};
  const int code = culift::test::executeAndWait(kCulift, argv, std::nullopt, redirects);
  return {code, readFile(err)};
}

const char* kHeader =
    "#pragma once\n#include <culift/annotate.hpp>\n#include \"helper.hpp\"\n"
    "CULIFT_KERNEL float Twice(const float* x, int i) { return helper(x[i]) * FACTOR; }\n";

TEST_CASE("culift emit --module --depfile --arch: the files it came from, and cubins where NVRTC is") {
  TempDir dir;
  writeFile(dir.file("kernels.hpp"), kHeader);
  writeFile(dir.file("helper.hpp"), "#pragma once\ninline float helper(float v) { return v + 1.0f; }\n");
  const std::string module = dir.file("k.culift");
  Run r = culift({"emit", dir.file("kernels.hpp"), "--module", module, "--depfile", module + ".d", "--arch", "80",
                  "--arch", "sm_90", "--", "-I" CULIFT_SOURCE_DIR "/include", "-DFACTOR=2"},
                 dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string deps = readFile(module + ".d");
  CHECK(deps.rfind(module + ":", 0) == 0);
  CHECK(deps.find(dir.file("kernels.hpp")) != std::string::npos);
  CHECK(deps.find(dir.file("helper.hpp")) != std::string::npos);
  CHECK(deps.find(CULIFT_SOURCE_DIR "/include/culift/annotate.hpp") != std::string::npos);
  CHECK(deps.find("__culift__") == std::string::npos);  // culift's in-memory header is no file
  CHECK_FALSE(llvm::sys::fs::exists(module + ".d.clang"));

  const std::shared_ptr<Module> m = loadModuleFile(module);
  REQUIRE(m->find("Twice"));
  if (rt::Nvrtc::load()) {
    REQUIRE(m->images.size() == 2);
    CHECK(m->images[0].target == "sm_80");
    CHECK(m->images[1].target == "sm_90");
    // The engine's default options but -lineinfo (culift emit --lineinfo adds it).
    rt::EngineOptions noLines;
    noLines.lineInfo = false;
    CHECK(m->images[1].options == rt::RawModule::compileOptions(noLines, {}));
    CHECK(m->images[1].image().compare(0, 4,
                                       "\x7f"
                                       "ELF") == 0);
  } else {
    CHECK(m->images.empty());
    CHECK(r.err.find("warning: no NVRTC") != std::string::npos);
  }

  CHECK(culift({"emit", dir.file("kernels.hpp"), "--module", module, "--arch", "banana"}, dir).code == 2);
  CHECK(culift({"emit", dir.file("kernels.hpp"), "--arch", "90"}, dir).code == 2);  // --arch needs --module
}

TEST_CASE("culift embed writes a source and a header, and refuses what would not load") {
  TempDir dir;
  writeFile(dir.file("kernels.hpp"), kHeader);
  writeFile(dir.file("helper.hpp"), "inline float helper(float v) { return v; }\n");
  const std::string module = dir.file("k.culift");
  REQUIRE(culift({"emit", dir.file("kernels.hpp"), "--module", module, "--", "-I" CULIFT_SOURCE_DIR "/include",
                  "-DFACTOR=3"},
                 dir)
              .code == 0);
  Run r = culift({"embed", module, "--name", "my_kernels", "-o", dir.file("k.cpp"), "--header", dir.file("k.hpp")},
                 dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string header = readFile(dir.file("k.hpp")), source = readFile(dir.file("k.cpp"));
  CHECK(header.find("std::shared_ptr<culift::Module> my_kernels();") != std::string::npos);
  CHECK(header.find("(Twice)") != std::string::npos);
  CHECK(source.find("#include \"culift_kernels/my_kernels.hpp\"") != std::string::npos);
  CHECK(source.find("culift::loadModule(") != std::string::npos);

  CHECK(culift({"embed", module, "--name", "2bad", "-o", dir.file("x.cpp"), "--header", dir.file("x.hpp")}, dir).code ==
        2);
  std::string damaged = readFile(module);
  damaged[damaged.size() / 2] ^= 1;
  writeFile(dir.file("damaged.culift"), damaged);
  r = culift({"embed", dir.file("damaged.culift"), "--name", "k", "-o", dir.file("x.cpp"), "--header",
              dir.file("x.hpp")},
             dir);
  CHECK(r.code == 1);
  CHECK(r.err.find("corrupt") != std::string::npos);
  CHECK_FALSE(llvm::sys::fs::exists(dir.file("x.cpp")));
}

TEST_CASE("CULIFT_NVRTC_PATH=none turns NVRTC off") {
  setenv("CULIFT_NVRTC_PATH", "none", 1);
  std::string why;
  const auto nvrtc = rt::Nvrtc::load(&why);
  unsetenv("CULIFT_NVRTC_PATH");
  CHECK(nvrtc == nullptr);
  CHECK(why == "NVRTC is turned off ($CULIFT_NVRTC_PATH=none)");
}

std::shared_ptr<Module> twiceModule() {
  TranslateOptions options;
  options.compilerArgs = {"-DFACTOR=2"};
  const TranslateResult t =
      translateSource("[[clang::annotate(\"culift\")]] float Twice(const float* x, int i) { return x[i] * FACTOR; }\n",
                      "twice.cpp", options);
  REQUIRE(t.ok());
  return t.module;
}

std::vector<float> runTwice(rt::Engine& e, const std::shared_ptr<const Module>& m) {
  rt::DeviceBuffer<float> x(e, std::vector<float>{1, 2, 3}), out(e, 3);
  e.kernel(m, "Twice").launch(e, rt::LaunchPlanner::for1D(3), x, out);
  e.synchronize();
  return out.read();
}

TEST_CASE("a GPU engine runs a module's own cubin without NVRTC", "[gpu]") {
  std::string why;
  auto probe = rt::Engine::tryCreate({}, &why);
  if (!probe) {
    test::noGpu(why);
    return;
  }
  const int arch = probe->device().arch();
  const auto nvrtc = rt::Nvrtc::load();
  REQUIRE(nvrtc);  // to make the cubins this test embeds
  probe.reset();

  // A module carrying a cubin for the device made with the default engine's options but
  // -lineinfo, as culift emit --arch makes it: an engine that wants line info takes it too.
  auto withCubin = twiceModule();
  rt::CompileRequest request;
  request.source = withCubin->cudaSource;
  rt::EngineOptions noLines;
  noLines.lineInfo = false;
  request.options = rt::RawModule::compileOptions(noLines, {});
  REQUIRE(rt::EngineOptions{}.lineInfo);
  const rt::CompiledImage image = rt::compileImage(*nvrtc, nullptr, request, rt::CompileTarget{arch, true});
  withCubin->images.push_back(
      {image.target.name(), request.options, std::string(image.image->begin(), image.image->end())});
  // The same module round-tripped through a file, as culift_add_kernels embeds it.
  const std::shared_ptr<const Module> embedded = loadModule(saveModule(*withCubin));

  // Without NVRTC (turned off by CULIFT_NVRTC_PATH=none): the cubin runs, the other
  // module is an error that says what to do.
  setenv("CULIFT_NVRTC_PATH", "none", 1);
  rt::EngineOptions noNvrtc;
  noNvrtc.nvrtcOptional = true;
  auto engine = rt::Engine::tryCreate(noNvrtc, &why);
  unsetenv("CULIFT_NVRTC_PATH");
  REQUIRE(engine);
  CHECK(engine->nvrtc() == nullptr);
  CHECK(runTwice(*engine, embedded) == std::vector<float>{2, 4, 6});
  REQUIRE(engine->compileRecords().size() == 1);
  CHECK(engine->compileRecords()[0].embedded);
  CHECK(engine->compileRecords()[0].target == image.target.name());
  try {
    runTwice(*engine, twiceModule());
    FAIL("a module without a cubin ran without NVRTC");
  } catch (const rt::Error& e) {
    CHECK(std::string(e.what()).find("no NVRTC to compile twice.cpp") != std::string::npos);
  }

  // Strict math is another set of options: the cubin is not taken, NVRTC compiles the source.
  rt::EngineOptions strict;
  strict.math = rt::MathMode::Strict;
  strict.diskCache = false;
  auto strictEngine = rt::Engine::tryCreate(strict, &why);
  REQUIRE(strictEngine);
  CHECK(runTwice(*strictEngine, embedded) == std::vector<float>{2, 4, 6});
  REQUIRE(strictEngine->compileRecords().size() == 1);
  CHECK_FALSE(strictEngine->compileRecords()[0].embedded);
}

}  // namespace
}  // namespace culift
