// The runtime under misuse, with kernels the generator made: wrong launch arguments and
// buffers that are too small are errors before anything runs; NVRTC failures carry the log;
// a full disk under the compile cache degrades it to memory only. On a GPU ([gpu]), a
// generated batch runs on the device and agrees with the CPU backend.
#include <sys/resource.h>

#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include "campaign.hpp"
#include "catch.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "gpu_skip.hpp"
#include "value_bytes.hpp"

using namespace culift;
using namespace culift::rel;

namespace {

// A generated 1-D kernel returning a value, translated.
struct GeneratedKernel {
  ProgramSpec spec;
  std::shared_ptr<const Module> module;
};

GeneratedKernel oneDimensional() {
  for (unsigned k = 0;; ++k) {
    Generated g = generateProgram(4242, k);
    unsigned rank = 0, arrays = 0;
    for (const ParamSpec& p : g.spec.params) rank += p.axis >= 0, arrays += p.array;
    if (rank != 1 || g.spec.returnType == Scalar::Void || arrays == 0) continue;
    TranslateOptions o;
    o.compilerArgs = {"-std=c++20"};
    TranslateResult r = translateSource(g.spec.source(), g.spec.name + ".cpp", o);
    INFO(r.formatDiagnostics());
    REQUIRE(r.ok());
    return {g.spec, r.module};
  }
}

// The elements of a buffer for kernel parameter `p`: its user parameter's array (some are longer
// than kArrayLength: ParamSpec::length), or the launch's 64 outputs.
std::size_t arrayElements(const ProgramSpec& spec, const KernelParam& p) {
  if (p.userParam >= 0 && static_cast<std::size_t>(p.userParam) < spec.params.size() &&
      spec.params[static_cast<std::size_t>(p.userParam)].array)
    return spec.params[static_cast<std::size_t>(p.userParam)].elements();
  return kArrayLength;
}

std::string launchError(rt::Kernel& k, rt::Engine& e, std::vector<rt::LaunchArg> args, std::int64_t n = 64) {
  try {
    k.launchArgs(e, k.plan(n), args);
  } catch (const rt::ArgumentError& err) {
    return err.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("generated kernels refuse wrong launch arguments before running", "[runtime][robustness]") {
  auto engine = rt::Engine::createCpu();
  GeneratedKernel g = oneDimensional();
  rt::Kernel kernel = engine->kernel(g.module, g.spec.kernel);
  const Function& fn = kernel.function();
  // The right arguments: one buffer or scalar per launch parameter.
  std::vector<std::unique_ptr<rt::Buffer>> buffers;
  std::vector<rt::LaunchArg> good;
  for (const KernelParam& p : fn.signature.params) {
    if (p.role == ParamRole::Extent) continue;
    if (p.role == ParamRole::Scalar) {
      rt::ScalarValue v;
      v.type = p.type.scalar;
      good.push_back(rt::LaunchArg::of(v));
    } else {
      buffers.push_back(std::make_unique<rt::Buffer>(*engine, p.type.scalar, arrayElements(g.spec, p)));
      good.push_back(p.role == ParamRole::ReadOnlyArray
                         ? rt::LaunchArg::of(static_cast<const rt::Buffer&>(*buffers.back()))
                         : rt::LaunchArg::of(*buffers.back()));
    }
  }
  CHECK(launchError(kernel, *engine, good) == "(accepted)");

  SECTION("one argument too few") {
    std::vector<rt::LaunchArg> fewer(good.begin(), good.end() - 1);
    CHECK(launchError(kernel, *engine, fewer).find(g.spec.kernel) != std::string::npos);
  }
  SECTION("an out buffer too small for the extent") {
    rt::Buffer small(*engine, fn.returnType.scalar, 3);
    std::vector<rt::LaunchArg> args = good;
    args.back() = rt::LaunchArg::of(small);
    const std::string msg = launchError(kernel, *engine, args);
    CHECK(msg != "(accepted)");
    CHECK(msg.find("culift_out") != std::string::npos);
  }
  SECTION("an input buffer of another element type") {
    std::vector<rt::LaunchArg> args = good;
    for (std::size_t k = 0; k < args.size(); ++k)
      if (args[k].kind == rt::LaunchArg::Kind::Buffer && !args[k].buffer.readOnly) continue;
      else if (args[k].kind == rt::LaunchArg::Kind::Buffer) {
        const Scalar other = args[k].buffer.element == Scalar::F64 ? Scalar::F32 : Scalar::F64;
        rt::Buffer wrong(*engine, other, kArrayLength);
        args[k] = rt::LaunchArg::of(static_cast<const rt::Buffer&>(wrong));
        CHECK(launchError(kernel, *engine, args) != "(accepted)");
        break;
      }
  }
  SECTION("a negative extent") {
    std::string msg;
    try {
      msg = launchError(kernel, *engine, good, -5);
    } catch (const rt::Error& e) {
      msg = e.what();
    }
    INFO(msg);
    CHECK(msg != "(accepted)");
  }
}

TEST_CASE("NVRTC rejecting emitted code is a CompileError with the log and the options", "[runtime][robustness]") {
  std::string why;
  auto nvrtc = rt::Nvrtc::load(&why);
  if (!nvrtc) {
    culift::test::noNvrtc(why);
    return;
  }
  rt::CompileRequest req;
  req.source = "extern \"C\" __global__ void broken(float* x) { x[0] = undefined_name; }\n";
  req.programName = "broken.cu";
  req.options = {"--fmad=false"};
  try {
    rt::compileImage(*nvrtc, nullptr, req, {90, true});
    FAIL("the compile succeeded");
  } catch (const rt::CompileError& e) {
    CHECK(e.log().find("undefined_name") != std::string::npos);
    CHECK(e.programName() == "broken.cu");
    bool fmad = false;
    for (const std::string& o : e.options()) fmad |= o == "--fmad=false";
    CHECK(fmad);
  }
}

TEST_CASE("a full disk under the compile cache leaves it in memory, with a warning", "[runtime][robustness]") {
  std::string why;
  auto nvrtc = rt::Nvrtc::load(&why);
  if (!nvrtc) {
    culift::test::noNvrtc(why);
    return;
  }
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-full-cache", dir));
  std::vector<std::string> warnings;
  rt::CompileCache::Options co;
  co.directory = std::string(dir);
  co.warn = [&](const std::string& m) { warnings.push_back(m); };
  rt::CompileCache cache(co);
  GeneratedKernel g = oneDimensional();
  rt::CompileRequest req;
  req.source = g.module->cudaSource;
  req.programName = "generated.cu";
  req.translatorVersion = "test";
  // Files may not grow past 16 bytes: every cache write fails as on a full disk (EFBIG).
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  auto previous = std::signal(SIGXFSZ, SIG_IGN);
  rlimit tiny = old;
  tiny.rlim_cur = 16;
  setrlimit(RLIMIT_FSIZE, &tiny);
  rt::CompiledImage first, second;
  CHECK_NOTHROW(first = rt::compileImage(*nvrtc, &cache, req, {90, true}));
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, previous);
  CHECK_NOTHROW(second = rt::compileImage(*nvrtc, &cache, req, {90, true}));
  CHECK_FALSE(first.fromCache);
  CHECK(second.fromCache);  // from memory
  CHECK(cache.stats().writeFailures >= 1);
  CHECK_FALSE(warnings.empty());
  CHECK_FALSE(cache.diskEnabled());
  llvm::sys::fs::remove_directories(dir);
}

TEST_CASE("a generated batch runs on the GPU and agrees with the CPU backend", "[gpu]") {
  rt::EngineOptions eo;
  eo.math = rt::MathMode::Strict;
  std::string why;
  auto gpu = rt::Engine::tryCreate(eo, &why);
  if (!gpu) {
    culift::test::noGpu(why);
    return;
  }
  auto cpu = rt::Engine::createCpu();
  GenOptions gen;
  gen.exactMathOnly = true;
  unsigned compared = 0;
  for (unsigned k = 0; k < 40; ++k) {
    Generated g = generateProgram(77, k, gen);
    unsigned rank = 0;
    for (const ParamSpec& p : g.spec.params) rank += p.axis >= 0;
    if (rank != 1 || g.spec.returnType == Scalar::Void) continue;
    TranslateResult r = translateSource(g.spec.source(), g.spec.name + ".cpp");
    REQUIRE(r.ok());
    std::shared_ptr<const Module> module = r.module;
    std::vector<std::vector<std::uint8_t>> results;
    for (rt::Engine* e : {gpu.get(), cpu.get()}) {
      rt::Kernel kernel = e->kernel(module, g.spec.kernel);
      std::vector<std::unique_ptr<rt::Buffer>> buffers;
      std::vector<rt::LaunchArg> args;
      for (const KernelParam& p : kernel.function().signature.params) {
        if (p.role == ParamRole::Extent) continue;
        if (p.role == ParamRole::Scalar) {
          rt::ScalarValue v;
          v.type = p.type.scalar;
          std::memcpy(&v.u, g.spec.argSets[0].values[static_cast<std::size_t>(p.userParam)].data(),
                      byteSize(p.type.scalar));
          if (isSigned(p.type.scalar) && !isFloating(p.type.scalar))
            v.i = static_cast<std::int64_t>(v.u << (64 - 8 * byteSize(p.type.scalar))) >>
                  (64 - 8 * byteSize(p.type.scalar));
          args.push_back(rt::LaunchArg::of(v));
          continue;
        }
        buffers.push_back(std::make_unique<rt::Buffer>(*e, p.type.scalar, arrayElements(g.spec, p)));
        if (p.role == ParamRole::ReadOnlyArray) {
          const auto& bytes = g.spec.argSets[0].values[static_cast<std::size_t>(p.userParam)];
          buffers.back()->writeBytes(bytes.data(), bytes.size(), 0);
          args.push_back(rt::LaunchArg::of(static_cast<const rt::Buffer&>(*buffers.back())));
        } else {
          args.push_back(rt::LaunchArg::of(*buffers.back()));
        }
      }
      kernel.launchArgs(*e, kernel.plan(kArrayLength), args);
      e->synchronize();
      std::vector<std::uint8_t> out(buffers.back()->bytes());
      buffers.back()->readBytes(out.data(), out.size(), 0);
      results.push_back(std::move(out));
    }
    INFO(g.spec.source());
    const unsigned size = byteSize(g.spec.returnType);
    bool same = results[0].size() == results[1].size();
    for (std::size_t e = 0; same && e * size < results[0].size(); ++e)
      same = sameValue(g.spec.returnType, results[0].data() + e * size, results[1].data() + e * size);
    CHECK(same);
    ++compared;
  }
  CHECK(compared > 0);
}
