// culift-difftest-gpu: the GPU leg of the differential tester. Generated kernels (only math
// the device computes exactly) are launched over a whole extent on the GPU with strict math
// (--fmad=false) and compared bit for bit with the interpreter's launch of the same kernel;
// then every transcendental function, float and double, is checked against the host library
// within CUDA's documented ULP bounds. Where there is no GPU it says so and fails: it has
// compared nothing. `--backend=cpu` runs the same leg on the CPU backend (a check of the leg
// itself on a machine without a GPU: every program must launch and compare).
//
//   culift-difftest-gpu --count 500 --seed 1 > $OUT/difftest-gpu.log
//   culift-difftest-gpu --seed 1 --first 951 --count 1 --reduce 500   # shrink one finding
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>

#include <llvm/Support/CommandLine.h>

#include "campaign.hpp"
#include "command_line.hpp"
#include "culift/interpreter.hpp"
#include "culift/runtime/nvrtc.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "launch_data.hpp"
#include "reducer.hpp"
#include "tensor_core_programs.hpp"
#include "type_rules.hpp"
#include "value_bytes.hpp"

namespace cl = llvm::cl;
using namespace culift;
using namespace culift::rel;

namespace {

// The input arrays' first elements (an element-wise kernel's per-element inputs too), for a
// native replay or `culift launch --args` (--show-args).
std::string describeInputs(const LaunchData& d) {
  std::string s;
  for (std::size_t k = 0; k < d.params.size(); ++k) {
    const KernelParam& p = *d.params[k];
    if (p.role != ParamRole::ReadOnlyArray && p.role != ParamRole::WritableArray &&
        p.role != ParamRole::PerElementScalar)
      continue;
    const unsigned size = byteSize(p.type.scalar);
    s += p.name + "={";
    for (std::size_t e = 0; e < 16 && (e + 1) * size <= d.bytes[k].size(); ++e)
      s += (e ? ", " : "") + formatValue(p.type.scalar, d.bytes[k].data() + e * size);
    s += d.bytes[k].size() > 16 * size ? ", ...} " : "} ";
  }
  return s;
}

// The arguments as `culift launch --args` takes them (the user's scalars and arrays in order,
// every element; an array of structs as its fields in a flat list): a finding replayed by
// scripts/compare-backends.sh with the leg's own arguments. A NaN is written "nan" (its payload
// and sign are lost), an infinity "inf" or "-inf".
std::string launchArgsJson(const LaunchData& d) {
  auto value = [](Scalar t, const std::uint8_t* bytes) -> std::string {
    const interp::Value v = valueFromBytes(t, bytes);
    char buf[64];
    switch (t) {
      case Scalar::Bool: return v.b ? "true" : "false";
      case Scalar::F32:
      case Scalar::F64: {
        const double x = t == Scalar::F32 ? static_cast<double>(v.f) : v.d;
        if (std::isnan(x)) return "\"nan\"";
        if (std::isinf(x)) return x < 0 ? "\"-inf\"" : "\"inf\"";
        std::snprintf(buf, sizeof buf, t == Scalar::F32 ? "%.9g" : "%.17g", x);
        return buf;
      }
      default: return isSignedInt(t) ? std::to_string(v.i) : std::to_string(v.u);
    }
  };
  std::string s = "[";
  bool first = true;
  for (std::size_t k = 0; k < d.params.size(); ++k) {
    const KernelParam& p = *d.params[k];
    if (p.role == ParamRole::Extent || p.role == ParamRole::ResultArray) continue;
    s += first ? "" : ", ";
    first = false;
    const unsigned size = byteSize(p.type.scalar);
    if (!isArrayRole(p.role)) {
      s += value(p.type.scalar, d.bytes[k].data());
      continue;
    }
    s += "[";
    for (std::size_t e = 0; (e + 1) * size <= d.bytes[k].size(); ++e)
      s += (e ? ", " : "") + value(p.type.scalar, d.bytes[k].data() + e * size);
    s += "]";
  }
  return s + "]";
}

// Runs on the GPU; returns the written arrays' bytes (by launch-argument position).
std::vector<std::vector<std::uint8_t>> runGpu(rt::Engine& engine, const std::shared_ptr<const Module>& module,
                                              const Function& fn, const LaunchData& d, unsigned rank) {
  rt::Kernel kernel = engine.kernel(module, fn.name);
  std::vector<std::unique_ptr<rt::Buffer>> buffers;
  std::vector<rt::LaunchArg> args;
  for (std::size_t k = 0; k < d.params.size(); ++k) {
    const KernelParam& p = *d.params[k];
    if (isArrayRole(p.role)) {
      const std::size_t count = d.bytes[k].size() / byteSize(p.type.scalar);
      buffers.push_back(std::make_unique<rt::Buffer>(engine, p.type.scalar, count));
      buffers.back()->writeBytes(d.bytes[k].data(), d.bytes[k].size(), 0);
      if (p.role == ParamRole::ReadOnlyArray || p.role == ParamRole::PerElementScalar)
        args.push_back(rt::LaunchArg::of(static_cast<const rt::Buffer&>(*buffers.back())));
      else args.push_back(rt::LaunchArg::of(*buffers.back()));
    } else {
      const interp::Value v = valueFromBytes(p.type.scalar, d.bytes[k].data());
      rt::ScalarValue s;
      s.type = v.type;
      s.u = v.u;
      args.push_back(rt::LaunchArg::of(s));
      buffers.push_back(nullptr);
    }
  }
  kernel.launchArgs(engine, kernel.plan(d.n[0], rank >= 2 ? d.n[1] : 1, rank >= 3 ? d.n[2] : 1), args);
  engine.synchronize();
  std::vector<std::vector<std::uint8_t>> out(d.params.size());
  for (std::size_t k = 0; k < d.params.size(); ++k)
    if (buffers[k]) {
      out[k].resize(d.bytes[k].size());
      buffers[k]->readBytes(out[k].data(), out[k].size(), 0);
    }
  return out;
}

// The interpreter's launch; a reassociating kernel adds in its plan's order where `engine`
// would take that plan's entry (as runGpu does), else in the loop's.
std::vector<std::vector<std::uint8_t>> runInterpreter(const interp::Program& program, rt::Engine& engine,
                                                      const std::shared_ptr<const Module>& module, const Function& fn,
                                                      const LaunchData& d, unsigned rank) {
  std::vector<std::vector<std::uint8_t>> out = d.bytes;
  const std::vector<interp::Arg> args = interpreterArgs(d, out);
  const rt::LaunchPlan plan =
      engine.kernel(module, fn.name).plan(d.n[0], rank >= 2 ? d.n[1] : 1, rank >= 3 ? d.n[2] : 1);
  program.launch(fn, d.extent(), args, /*loopAsWritten=*/!rt::choosePlanEntry(fn, plan, engine.device()));
  return out;
}

// CUDA C Programming Guide, "Mathematical Functions": maximum ulp error of each function
// (single, double). Both sides are compared with each other, not with the exact result, so
// the host library's own error is allowed on top (hostUlps).
const std::map<std::string, std::pair<unsigned, unsigned>> kUlpBounds = {
    {"cbrt", {1, 1}},    {"exp", {2, 1}},    {"exp2", {2, 1}},  {"expm1", {1, 1}}, {"log", {1, 1}},  {"log2", {1, 1}},
    {"log10", {2, 1}},   {"log1p", {1, 1}},  {"pow", {4, 2}},   {"sin", {2, 2}},   {"cos", {2, 2}},  {"tan", {4, 2}},
    {"asin", {2, 2}},    {"acos", {2, 2}},   {"atan", {2, 2}},  {"atan2", {3, 2}}, {"sinh", {3, 2}}, {"cosh", {2, 1}},
    {"tanh", {2, 1}},    {"asinh", {3, 3}},  {"acosh", {4, 3}}, {"atanh", {3, 2}}, {"erf", {2, 2}},  {"erfc", {4, 5}},
    {"tgamma", {5, 10}}, {"lgamma", {6, 4}}, {"hypot", {3, 2}}};

// The host library's error: glibc documents (libm-test-ulps, x86_64) at most 1-2 ulps for most
// functions, more for a few.
unsigned hostUlps(const std::string& fn, Scalar t) {
  if (fn == "cbrt") return t == Scalar::F64 ? 4 : 1;
  if (fn == "tgamma") return 9;
  if (fn == "lgamma") return t == Scalar::F64 ? 4 : 7;
  if (fn == "erfc") return 5;
  return 2;
}

// The first output element where the GPU and the interpreter differ, as a finding names it
// ("cko[0]: gpu 1, interpreter 2 (arguments: s0=3 ; extent 64x1x1)"); empty when all agree.
std::string compareLaunch(rt::Engine& engine, const interp::Program& program,
                          const std::shared_ptr<const Module>& module, const Function& fn, const ProgramSpec& p,
                          bool showArgs) {
  const LaunchData d = prepareLaunch(fn, p, /*quiet=*/true);
  const unsigned rank = d.rank;
  if (showArgs) {
    std::printf("ARGS %s: %s; %s\n", p.name.c_str(), describeLaunch(d).c_str(), describeInputs(d).c_str());
    std::string extent = std::to_string(rank == 0 ? d.elements : d.n[0]);
    for (unsigned axis = 1; axis < rank; ++axis) extent += "x" + std::to_string(d.n[axis]);
    std::printf("LAUNCH-EXTENT %s: %s\n", p.name.c_str(), extent.c_str());
    std::printf("LAUNCH-ARGS %s: %s\n", p.name.c_str(), launchArgsJson(d).c_str());
  }
  const auto cpu = runInterpreter(program, engine, module, fn, d, rank);
  const auto gpu = runGpu(engine, module, fn, d, rank);
  for (std::size_t k = 0; k < d.params.size(); ++k) {
    const KernelParam& q = *d.params[k];
    if (q.role != ParamRole::ResultArray && q.role != ParamRole::WritableArray) continue;
    const unsigned size = byteSize(q.type.scalar);
    for (std::size_t e = 0; e * size < gpu[k].size(); ++e)
      if (!sameValue(q.type.scalar, gpu[k].data() + e * size, cpu[k].data() + e * size))
        return q.name + "[" + std::to_string(e) + "]: gpu " + formatValue(q.type.scalar, gpu[k].data() + e * size) +
               ", interpreter " + formatValue(q.type.scalar, cpu[k].data() + e * size) +
               " (arguments: " + describeLaunch(d) + ")";
  }
  return {};
}

// The launch data of tensor-core program `p`'s kernel `fn` (it or its twin: the same parameters),
// its arrays' values from the program's seed.
LaunchData tensorCoreLaunch(const Function& fn, const TensorCoreProgram& p) {
  LaunchData d;
  d.rank = 2;
  d.n[0] = p.ni;
  d.n[1] = p.nj;
  d.elements = p.ni * p.nj;
  auto bytesOf = [](const auto& v) {
    std::vector<std::uint8_t> b(sizeof(v));
    std::memcpy(b.data(), &v, sizeof(v));
    return b;
  };
  auto arrayBytes = [](const std::vector<float>& v) {
    std::vector<std::uint8_t> b(v.size() * 4);
    if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
  };
  unsigned array = 0;
  const int scalars[] = {static_cast<int>(p.nk), p.lda, p.ldb, p.ldc};
  unsigned scalar = 0;
  for (const KernelParam& q : fn.signature.params) {
    if (q.role == ParamRole::Extent) continue;
    d.params.push_back(&q);
    if (q.role == ParamRole::ResultArray) {
      d.bytes.emplace_back(static_cast<std::size_t>(d.elements) * 4, 0);
    } else if (q.role == ParamRole::ReadOnlyArray) {
      const std::size_t counts[] = {p.aCount, p.bCount, p.cCount};
      d.bytes.push_back(arrayBytes(tensorCoreValues(p, array, counts[array])));
      ++array;
    } else if (q.name == "alpha") {
      d.bytes.push_back(bytesOf(p.alpha));
    } else if (q.name == "beta") {
      d.bytes.push_back(bytesOf(p.beta));
    } else {
      d.bytes.push_back(bytesOf(scalars[scalar++]));
    }
  }
  return d;
}

// Tensor-core programs `first` .. `first + count - 1` of `seed`: each kernel's launch (its
// tensor-core entry on the GPU) within the contract's bound of the interpreter's, the bound's
// magnitude from the twin. Returns the programs checked; counts those outside it in `failures`
// and those that could not run in `errors`.
unsigned checkTensorCores(rt::Engine& engine, const rt::Nvrtc* nvrtc, std::uint64_t seed, unsigned first,
                          unsigned count, const TranslateOptions& to, unsigned& failures, unsigned& errors,
                          unsigned& onTensorCores) {
  std::vector<TensorCoreProgram> programs;
  std::string source = kProgramIncludes;
  for (unsigned n = first; n < first + count; ++n) {
    programs.push_back(tensorCoreProgram(seed, n));
    source += programs.back().source;
  }
  TranslateResult tr = translateSource(source, "difftest_tensor_cores.cpp", to);
  if (!tr.ok()) {
    std::printf("TENSOR-CORES: translation failed:\n%s\n", tr.formatDiagnostics().substr(0, 3000).c_str());
    errors += count;
    return 0;
  }
  std::shared_ptr<const Module> module = tr.module;
  if (nvrtc) {  // on the CPU backend, compiled for sm_90 as the GPU would compile it
    const rt::CompileOutput cubin = nvrtc->compile(module->cudaSource, "difftest_tensor_cores.cu", 90, true,
                                                   {"--fmad=false"});
    if (!cubin.ok) {
      std::printf("TENSOR-CORES: NVRTC could not compile them for sm_90:\n%s\n", cubin.log.substr(0, 3000).c_str());
      errors += count;
      return 0;
    }
  }
  auto program = interp::Program::compile(module);
  unsigned checked = 0;
  for (const TensorCoreProgram& p : programs) {
    try {
      const Function* fn = module->find(p.name);
      const Function* twin = module->find(p.name + "_mag");
      if (!fn || !twin || fn->loopPlan != LoopPlan::TensorCoreContraction)
        throw std::runtime_error(fn ? "not planned on tensor cores: " + fn->loopPlanReason : "kernel missing");
      const LaunchData d = tensorCoreLaunch(*fn, p), dm = tensorCoreLaunch(*twin, p);
      const auto cpu = runInterpreter(*program, engine, module, *fn, d, 2);
      const auto mag = runInterpreter(*program, engine, module, *twin, dm, 2);
      const auto gpu = runGpu(engine, module, *fn, d, 2);
      const std::size_t out = d.params.size() - 1;
      const double factor = tensorCoreBoundFactor(p);
      std::int64_t outside = -1;
      bool differs = false;
      for (std::int64_t e = 0; e < d.elements; ++e) {
        float g, c, m;
        std::memcpy(&g, gpu[out].data() + e * 4, 4);
        std::memcpy(&c, cpu[out].data() + e * 4, 4);
        std::memcpy(&m, mag[out].data() + e * 4, 4);
        differs = differs || std::memcmp(&g, &c, 4) != 0;
        if (!(std::fabs(static_cast<double>(g) - c) <= factor * m)) {
          outside = e;
          std::printf(
              "TENSOR-CORES OUTSIDE %s (%s, seed %llu, %lldx%lld, k %lld): out[%lld] gpu %.9g, interpreter "
              "%.9g, bound %.3g\n%s\n",
              p.name.c_str(), std::string(name(p.format)).c_str(), static_cast<unsigned long long>(seed),
              static_cast<long long>(p.ni), static_cast<long long>(p.nj), static_cast<long long>(p.nk),
              static_cast<long long>(e), g, c, factor * m, p.source.c_str());
          break;
        }
      }
      failures += outside >= 0;
      onTensorCores += differs;
      ++checked;
    } catch (const std::exception& e) {
      std::printf("TENSOR-CORES ERROR %s: %s\n", p.name.c_str(), e.what());
      ++errors;
    }
  }
  return checked;
}

// Whether program `g` alone still differs on the GPU (the reducer's oracle). A candidate that
// no longer translates or launches does not count as the same finding.
bool stillDiffers(rt::Engine& engine, const ProgramSpec& p, const TranslateOptions& to) {
  try {
    TranslateResult tr = translateSource(std::string(kProgramIncludes) + p.functions, "reduce_" + p.name + ".cpp", to);
    if (!tr.ok()) return false;
    const Function* fn = tr.module->find(p.kernel);
    if (!fn) return false;
    auto program = interp::Program::compile(tr.module);
    return !compareLaunch(engine, *program, tr.module, *fn, p, false).empty();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  cl::OptionCategory category("culift-difftest-gpu options");
  cl::opt<unsigned> count("count", cl::desc("generated programs"), cl::init(300), cl::cat(category));
  cl::opt<unsigned long long> seed("seed", cl::desc("generator seed"), cl::init(1), cl::cat(category));
  cl::opt<unsigned> firstProgram("first", cl::desc("index of the first program (to replay part of a campaign)"),
                                 cl::init(0), cl::cat(category));
  cl::opt<unsigned> batchSize("batch", cl::desc("programs per translation"), cl::init(50), cl::cat(category));
  cl::opt<unsigned> mathSamples("math-samples", cl::desc("arguments per math function"), cl::init(4096),
                                cl::cat(category));
  cl::opt<bool> showArgs(
      "show-args",
      cl::desc("print each program's arguments and extent, and its arguments as `culift launch --args` takes them"),
      cl::cat(category));
  cl::opt<unsigned> reduceAttempts("reduce",
                                   cl::desc("shrink each mismatching program with at most this many candidates, each "
                                            "translated and launched on both sides, and print the reduced program"),
                                   cl::init(0), cl::cat(category));
  cl::opt<int> dumpProgram("dump", cl::desc("print program N of the seed as this leg generates it and exit"),
                           cl::init(-1), cl::cat(category));
  cl::opt<unsigned> tensorCorePrograms(
      "tensor-core-programs",
      cl::desc("contractions on tensor cores checked within the numerical contract's bound (default 32)"), cl::init(32),
      cl::cat(category));
  cl::opt<bool> wholeModules(
      "whole-modules",
      cl::desc("compile each batch's module whole at its first launch (default: kernel by kernel, each when first "
               "launched: the programs of a batch launch a few of its hundreds of kernels)"),
      cl::cat(category));
  cl::opt<std::string> backend("backend", cl::desc("gpu (default) or cpu: the CPU backend, a check of the leg itself"),
                               cl::init("gpu"), cl::cat(category));
  culift::cli::hideForeignOptions({&category});
  culift::cli::setVersionPrinter("culift-difftest-gpu");
  cl::ParseCommandLineOptions(argc, argv, "culift differential tester, GPU leg\n");

  GenOptions gen;
  gen.exactMathOnly = true;
  gen.argSets = 8;
  if (dumpProgram >= 0) {
    std::printf("%s", generateProgram(seed, static_cast<unsigned>(dumpProgram), gen).spec.source().c_str());
    return 0;
  }

  rt::EngineOptions eo;
  eo.math = rt::MathMode::Strict;
  eo.compileEachEntry = !wholeModules;
  std::string why;
  if (backend != "gpu" && backend != "cpu") {
    std::printf("--backend must be gpu or cpu, not '%s'\n", backend.c_str());
    return 2;
  }
  const bool onCpu = backend == "cpu";
  auto engine = onCpu ? rt::Engine::createCpu(eo) : rt::Engine::tryCreate(eo, &why);
  if (!engine) {
    // The GPU leg exists to run on a GPU: without one it has compared nothing, which is a failure.
    std::printf("no GPU (%s): nothing compared\n", why.c_str());
    return 3;
  }
  std::printf("device: %s, strict math (--fmad=false)\n",
              onCpu ? "the CPU backend" : engine->device().toString().c_str());
  // On the CPU backend each batch's CUDA is still compiled for sm_90 as the GPU would compile
  // it (the checksum folds included), so that a batch the GPU could not compile fails here too.
  std::shared_ptr<const rt::Nvrtc> nvrtc;
  if (onCpu) {
    nvrtc = rt::Nvrtc::load(&why);
    if (nvrtc) {
      std::printf("NVRTC %s: every batch compiled for sm_90\n", nvrtc->libraryPath().c_str());
    } else if (const char* required = std::getenv("CULIFT_REQUIRE_NVRTC"); required && *required == '1') {
      std::printf("no NVRTC (%s), and CULIFT_REQUIRE_NVRTC=1\n", why.c_str());
      return 3;
    } else {
      std::printf("no NVRTC (%s): batches are not compiled\n", why.c_str());
    }
  }
  TranslateOptions to;
  to.compilerArgs = {"-std=c++20"};
  unsigned compared = 0, mismatches = 0, errors = 0;
  const unsigned end = firstProgram + count;
  for (unsigned first = firstProgram; first < end; first += batchSize) {
    const unsigned n = std::min<unsigned>(batchSize, end - first);
    std::vector<ProgramSpec> batch = generateBatch(seed, first, n, gen);
    std::string source = kProgramIncludes;
    for (const ProgramSpec& p : batch) source += p.functions;
    TranslateResult tr = translateSource(source, "difftest_gpu_" + std::to_string(first) + ".cpp", to);
    if (!tr.ok()) {
      std::printf("batch %u: translation failed:\n%s\n", first, tr.formatDiagnostics().substr(0, 3000).c_str());
      ++errors;
      continue;
    }
    std::shared_ptr<const Module> module = tr.module;
    if (nvrtc) {
      const rt::CompileOutput cubin = nvrtc->compile(module->cudaSource,
                                                     "difftest_gpu_" + std::to_string(first) + ".cu", 90, true,
                                                     {"--fmad=false"});
      if (!cubin.ok) {
        std::printf("ERROR batch %u: NVRTC could not compile it for sm_90:\n%s\n", first,
                    cubin.log.substr(0, 3000).c_str());
        errors += n;
        continue;
      }
    }
    auto program = interp::Program::compile(module);
    for (const ProgramSpec& p : batch) {
      const Function* fn = module->find(p.kernel);
      if (!fn) {
        std::printf("ERROR %s: kernel '%s' not in the translated batch\n", p.name.c_str(), p.kernel.c_str());
        ++errors;
        continue;
      }
      std::string mismatch;
      try {
        mismatch = compareLaunch(*engine, *program, module, *fn, p, showArgs);
      } catch (const std::exception& e) {
        std::printf("ERROR %s: %s\n", p.name.c_str(), e.what());
        ++errors;
        continue;
      }
      ++compared;
      if (mismatch.empty()) continue;
      ++mismatches;
      std::printf("MISMATCH %s (seed %llu): %s\n%s\n", p.name.c_str(), static_cast<unsigned long long>(p.seed),
                  mismatch.c_str(), p.source().c_str());
      if (reduceAttempts) {
        Generated g = generateProgram(seed, first + static_cast<unsigned>(&p - batch.data()), gen);
        const ReduceStats rs = reduceProgram(
            g, [&](const ProgramSpec& candidate) { return stillDiffers(*engine, candidate, to); }, reduceAttempts);
        std::printf("REDUCED %s (%u of %u candidates kept):\n%s\n", p.name.c_str(), rs.accepted, rs.attempts,
                    g.spec.source().c_str());
      }
      std::fflush(stdout);
    }
    std::printf("programs %u..%u: %u compared so far, %u mismatches, %u errors\n", first, first + n - 1, compared,
                mismatches, errors);
    std::fflush(stdout);
  }

  // Contractions on tensor cores: within the contract's bound, not bit for bit.
  unsigned tcFailures = 0, tcErrors = 0, tcRounded = 0;
  const unsigned tcChecked = checkTensorCores(*engine, nvrtc.get(), seed, firstProgram, tensorCorePrograms, to,
                                              tcFailures, tcErrors, tcRounded);
  std::printf(
      "TENSOR-CORES: %u of %u programs checked, %u outside the bound, %u errors; %u differ from the loop "
      "as written\n",
      tcChecked, static_cast<unsigned>(tensorCorePrograms), tcFailures, tcErrors, tcRounded);
  std::fflush(stdout);

  // Transcendental functions within CUDA's ulp bounds.
  unsigned mathFailures = 0;
  for (const auto& [fnName, bounds] : kUlpBounds) {
    for (Scalar t : {Scalar::F32, Scalar::F64}) {
      const bool binary = fnName == "pow" || fnName == "atan2" || fnName == "hypot";
      const std::string ty = t == Scalar::F32 ? "float" : "double";
      const std::string src = "#include <culift/annotate.hpp>\n#include <cmath>\nCULIFT_KERNEL " + ty + " m(" + ty +
                              " x" +
                              (binary ? ", " + ty + " y) { return std::" + fnName + "(x, y); }\n"
                                      : ") { return std::" + fnName + "(x); }\n");
      TranslateResult tr = translateSource(src, "math_" + fnName + ".cpp", to);
      if (!tr.ok()) {
        std::printf("MATH %s(%s): translation failed\n%s", fnName.c_str(), ty.c_str(), tr.formatDiagnostics().c_str());
        ++mathFailures;
        continue;
      }
      std::shared_ptr<const Module> module = tr.module;
      const Function& fn = *module->find("m");
      ProgramSpec spec;
      spec.seed = seed + std::hash<std::string>{}(fnName);
      spec.params = {{"x", t}};
      if (binary) spec.params.push_back({"y", t});
      spec.argSets = generateArgSets(spec.params, spec.seed, mathSamples);
      // ElementWise over the samples: one element per argument set.
      LaunchData d;
      d.n[0] = d.elements = mathSamples;
      for (const KernelParam& p : fn.signature.params) {
        if (p.role == ParamRole::Extent) continue;
        d.params.push_back(&p);
        std::vector<std::uint8_t> b;
        if (p.role == ParamRole::ResultArray) b.assign(static_cast<std::size_t>(d.elements) * byteSize(t), 0);
        else
          for (const ArgSet& a : spec.argSets)
            b.insert(b.end(), a.values[static_cast<std::size_t>(p.userParam)].begin(),
                     a.values[static_cast<std::size_t>(p.userParam)].end());
        quietNaNs(t, b);
        d.bytes.push_back(std::move(b));
      }
      auto program = interp::Program::compile(module);
      auto cpu = runInterpreter(*program, *engine, module, fn, d, 1);
      auto gpu = runGpu(*engine, module, fn, d, 1);
      const unsigned bound = (t == Scalar::F32 ? bounds.first : bounds.second) + hostUlps(fnName, t);
      std::uint64_t worst = 0;
      std::size_t worstAt = 0;
      const std::size_t out = d.params.size() - 1;
      for (std::size_t e = 0; e < mathSamples; ++e) {
        const std::uint64_t u = ulpsBetween(t, gpu[out].data() + e * byteSize(t), cpu[out].data() + e * byteSize(t));
        // lgamma has no bound near its poles on the negative axis (CUDA documents the range).
        if (fnName == "lgamma") {
          const double x = valueFromBytes(t, d.bytes[0].data() + e * byteSize(t)).as<double>();
          if (x < 0) continue;
        }
        if (u > worst) worst = u, worstAt = e;
      }
      const bool ok = worst <= bound;
      mathFailures += !ok;
      std::printf("MATH %-7s %-6s max %llu ulp (bound %u)%s", fnName.c_str(), ty.c_str(),
                  static_cast<unsigned long long>(worst), bound, ok ? "\n" : "");
      if (!ok)
        std::printf("  FAIL at x = %s: gpu %s, interpreter %s\n",
                    formatValue(t, d.bytes[0].data() + worstAt * byteSize(t)).c_str(),
                    formatValue(t, gpu[out].data() + worstAt * byteSize(t)).c_str(),
                    formatValue(t, cpu[out].data() + worstAt * byteSize(t)).c_str());
    }
  }
  std::printf(
      "culift-difftest-gpu seed %llu: %u programs compared on the %s, %u mismatches, %u errors; "
      "%zu math functions x 2 types, %u outside their ulp bound\n",
      static_cast<unsigned long long>(seed.getValue()), compared, onCpu ? "CPU backend" : "GPU", mismatches, errors,
      kUlpBounds.size(), mathFailures);
  // Every generated program must have been compared: a batch that failed to translate, a kernel
  // missing or a launch that threw is counted above, and the totals must add up.
  if (compared != count.getValue())
    std::printf("FAIL: %u of %u programs compared\n", compared, static_cast<unsigned>(count.getValue()));
  return mismatches || errors || mathFailures || tcFailures || tcErrors || compared != count.getValue() ? 1 : 0;
}
