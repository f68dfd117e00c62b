// Module files over everything the front end translates here (the golden inputs and the
// examples): load(save(m)) saves to the same bytes, emits the same CUDA and pseudocode, gives
// the same results in the interpreter (a call per function) and on the CPU backend (a launch
// per kernel, through the runtime); and `culift emit --module` writes the module translate()
// gives.
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/ast/module_file.hpp"
#include "culift/codegen.hpp"
#include "culift/interpreter.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/sample_args.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "temp_files.hpp"

namespace culift {
namespace {

std::vector<std::string> inputs() {
  std::vector<std::string> files;
  std::error_code ec;
  for (const char* dir : {CULIFT_SOURCE_DIR "/tests/codegen/golden", CULIFT_SOURCE_DIR "/examples/pearson",
                          CULIFT_SOURCE_DIR "/examples/sat", CULIFT_SOURCE_DIR "/examples/masked_broadcast"})
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
      const llvm::StringRef ext = llvm::sys::path::extension(it->path());
      const bool golden = llvm::StringRef(dir).endswith("golden");
      if ((golden && ext == ".cpp") || (!golden && ext == ".hpp")) files.push_back(it->path());
    }
  std::sort(files.begin(), files.end());
  return files;
}

// What running something gave: its result, or its error message.
struct Outcome {
  std::string error;
  std::vector<std::vector<std::byte>> memory;  // the result's bytes, then every array after the run
  bool operator==(const Outcome&) const = default;
};

Outcome callOnce(const interp::Program& program, const Function& fn) {
  SampleArgs sample = sampleArgs(fn, 7);
  Outcome o;
  try {
    const interp::Value v = program.call(fn, sample.args);
    std::vector<std::byte> result(sizeof v.u);
    std::memcpy(result.data(), &v.u, sizeof v.u);
    o.memory.push_back(result);
  } catch (const interp::Error& e) {
    o.error = e.what();
  }
  for (auto& array : sample.storage) o.memory.push_back(array);
  return o;
}

// A launch of `fn` over a small extent on the CPU backend, through rt::Kernel, with the sample
// arguments: arrays as buffers, element inputs as buffers of the sample value, `out` sized.
Outcome launchOnce(rt::Engine& engine, const std::shared_ptr<const Module>& module, const Function& fn) {
  SampleArgs sample = sampleArgs(fn, 7);
  const std::int64_t extent[3] = {3, 4, 2};
  const unsigned axes = rank(fn.mode);
  std::int64_t elements = 1;
  for (unsigned a = 0; a < axes; ++a) elements *= extent[a];
  std::vector<std::unique_ptr<rt::Buffer>> buffers;
  std::vector<rt::LaunchArg> args;
  auto bufferOf = [&](Scalar element, std::size_t count, const void* bytes) {
    buffers.push_back(std::make_unique<rt::Buffer>(engine, element, count));
    if (bytes) buffers.back()->writeBytes(bytes, count * byteSize(element), 0);
    args.push_back(rt::LaunchArg::of(*buffers.back()));
  };
  for (const KernelParam& p : fn.signature.params) {
    switch (p.role) {
      case ParamRole::ReadOnlyArray:
      case ParamRole::WritableArray: {
        const auto& array = std::get<interp::ArrayRef>(sample.args[p.userParam]);
        bufferOf(array.element, array.size, array.data);
        break;
      }
      case ParamRole::PerElementScalar: {
        const auto& v = std::get<interp::Value>(sample.args[p.userParam]);
        std::vector<std::byte> repeated(elements * byteSize(v.type));
        for (std::int64_t e = 0; e < elements; ++e)
          std::memcpy(repeated.data() + e * byteSize(v.type), &v.u, byteSize(v.type));
        bufferOf(v.type, elements, repeated.data());
        break;
      }
      case ParamRole::ResultArray: bufferOf(p.type.scalar, elements, nullptr); break;
      case ParamRole::Scalar: {
        const auto& v = std::get<interp::Value>(sample.args[p.userParam]);
        rt::ScalarValue s;
        s.type = v.type;
        s.u = v.u;
        args.push_back(rt::LaunchArg::of(s));
        break;
      }
      case ParamRole::Extent: break;
    }
  }
  Outcome o;
  try {
    const rt::LaunchPlan plan = axes == 1   ? rt::LaunchPlanner::for1D(extent[0])
                                : axes == 2 ? rt::LaunchPlanner::for2D(extent[0], extent[1])
                                            : rt::LaunchPlanner::for3D(extent[0], extent[1], extent[2]);
    engine.kernel(module, fn.name).launchArgs(engine, plan, args);
    engine.synchronize();
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  for (const auto& b : buffers) {
    std::vector<std::byte> bytes(b->bytes());
    b->readBytes(bytes.data(), bytes.size(), 0);
    o.memory.push_back(bytes);
  }
  return o;
}

TEST_CASE("every golden input and example survives a module file unchanged") {
  const std::vector<std::string> files = inputs();
  REQUIRE(files.size() > 20);
  auto engine = rt::Engine::createCpu();
  unsigned modules = 0, kernels = 0, calls = 0;
  for (const std::string& file : files) {
    INFO(file);
    TranslateOptions options;
    options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
    const TranslateResult translated = translate(file, options);
    if (!translated.ok()) continue;  // inputs of diagnostics tests, if any
    ++modules;
    const std::shared_ptr<const Module> original = translated.module;
    const std::string bytes = saveModule(*original);
    const std::shared_ptr<const Module> loaded = loadModule(bytes, file);

    CHECK(saveModule(*loaded) == bytes);
    CHECK(loaded->sourcePath == original->sourcePath);
    CHECK(loaded->cudaSource == original->cudaSource);
    CHECK(emitCuda(*loaded) == original->cudaSource);  // the AST itself came back, not just the text
    REQUIRE(loaded->functions.size() == original->functions.size());

    const auto programA = interp::Program::compile(original);
    const auto programB = interp::Program::compile(loaded);
    for (std::size_t f = 0; f < original->functions.size(); ++f) {
      const Function& a = original->functions[f];
      const Function& b = loaded->functions[f];
      INFO(a.name);
      CHECK(writePseudocode(*loaded, b) == writePseudocode(*original, a));
      CHECK(callOnce(*programA, a) == callOnce(*programB, b));
      ++calls;
      if (!a.isKernel()) continue;
      CHECK(launchOnce(*engine, original, a) == launchOnce(*engine, loaded, b));
      ++kernels;
    }
  }
  CHECK(modules > 20);
  CHECK(kernels > 40);
  CHECK(calls > kernels);
}

TEST_CASE("a module that reassociates keeps its plan and its order through a file") {
  const char* source =
      "[[clang::annotate(\"culift\")]] float RowSum(const float* x, int cols, int i) {\n"
      "  float s = 0.0f;\n"
      "  for (int k = 0; k < cols; ++k) s += x[i * cols + k];\n"
      "  return s;\n"
      "}\n";
  TranslateOptions options;
  options.reassociate = true;
  const TranslateResult translated = translateSource(source, "rowsum.cpp", options);
  REQUIRE(translated.ok());
  const Function& a = *translated.module->find("RowSum");
  REQUIRE(a.loopPlan == LoopPlan::SplitRowReduction);
  const std::shared_ptr<const Module> loaded = loadModule(saveModule(*translated.module));
  const Function& b = *loaded->find("RowSum");
  CHECK(b.reassociate);
  CHECK(b.loopPlan == a.loopPlan);
  CHECK(b.reassociatedSums == a.reassociatedSums);
  REQUIRE(b.planEntries.size() == a.planEntries.size());
  for (std::size_t e = 0; e < a.planEntries.size(); ++e) {
    CHECK(b.planEntries[e].kernelName == a.planEntries[e].kernelName);
    CHECK(b.planEntries[e].threads == a.planEntries[e].threads);
    CHECK(b.planEntries[e].plan == a.planEntries[e].plan);
    CHECK(b.planEntries[e].blockMapping() == a.planEntries[e].blockMapping());
  }
  REQUIRE(b.planEntries.size() == 2);
  CHECK(b.planEntries[0].blockMapping() == BlockMapping::SplitRows);  // the split rows, then the warp per row
  CHECK(b.planEntries[1].blockMapping() == BlockMapping::RowBlocks);
  // The CPU backend adds in the reassociating entry's order for both.
  // An entry's dynamic shared memory (an exact row reduction of two double matrices) too.
  const TranslateResult staged = translateSource(
      "[[clang::annotate(\"culift\")]] double Gesummv(const double* A, const double* B, const double* x, int n, int i) {\n"
      "  double s = 0.0, t = 0.0;\n"
      "  for (int k = 0; k < n; ++k) { s += A[i * n + k] * x[k]; t += B[i * n + k] * x[k]; }\n"
      "  return s - t;\n"
      "}\n",
      "gesummv.cpp");
  REQUIRE(staged.ok());
  const Function& sa = *staged.module->find("Gesummv");
  REQUIRE(!sa.planEntries.empty());
  REQUIRE(sa.planEntries[0].sharedBytes > 48 * 1024);
  const std::shared_ptr<const Module> stagedLoaded = loadModule(saveModule(*staged.module));
  const Function& sb = *stagedLoaded->find("Gesummv");
  REQUIRE(sb.planEntries.size() == sa.planEntries.size());
  for (std::size_t e = 0; e < sa.planEntries.size(); ++e)
    CHECK(sb.planEntries[e].sharedBytes == sa.planEntries[e].sharedBytes);
  // An entry's blocks per multiprocessor (the 27-point convolution's streamed entry: 4).
  const TranslateResult conv = translateSource(
      "[[clang::annotate(\"culift\")]] float Conv(const float* A, const float* w, int ni, int nj, int nk, int i, int j,"
      " int k) {\n"
      "  const int c = (i * nj + j) * nk + k;\n"
      "  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c];\n"
      "  float s = 0.0f;\n"
      "  for (int di = -1; di <= 1; ++di)\n    for (int dj = -1; dj <= 1; ++dj)\n"
      "      for (int dk = -1; dk <= 1; ++dk) s += w[(di + 1) * 9 + (dj + 1) * 3 + dk + 1] * A[c + (di * nj + dj) * nk + dk];\n"
      "  return s;\n}\n",
      "conv.cpp");
  REQUIRE(conv.ok());
  const Function& ca = *conv.module->find("Conv");
  REQUIRE(!ca.planEntries.empty());
  REQUIRE(ca.planEntries[0].blocksPerSm == 2);
  REQUIRE(ca.planEntries[0].tileRows == 16);
  const std::shared_ptr<const Module> convLoaded = loadModule(saveModule(*conv.module));
  const Function& cb = *convLoaded->find("Conv");
  REQUIRE(cb.planEntries.size() == ca.planEntries.size());
  for (std::size_t e = 0; e < ca.planEntries.size(); ++e) {
    CHECK(cb.planEntries[e].blocksPerSm == ca.planEntries[e].blocksPerSm);
    CHECK(cb.planEntries[e].tileRows == ca.planEntries[e].tileRows);
  }
  // An entry's tensor maps (a TF32 contraction on warpgroups: A as rows of a parameter, B of a literal).
  const TranslateResult maps = translateSource(
      "[[clang::annotate(\"culift:tensor_cores=tf32\")]]\n"
      "float Gemm(const float* A, const float* B, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * 64 + j];\n  return s;\n}\n",
      "gemm.cpp");
  REQUIRE(maps.ok());
  const Function& ma = *maps.module->find("Gemm");
  REQUIRE(!ma.planEntries.empty());
  REQUIRE(ma.planEntries[0].tensorMaps.size() == 2);
  const std::shared_ptr<const Module> mapsLoaded = loadModule(saveModule(*maps.module));
  const Function& mb = *mapsLoaded->find("Gemm");
  REQUIRE(mb.planEntries.size() == ma.planEntries.size());
  for (std::size_t e = 0; e < ma.planEntries.size(); ++e)
    CHECK(mb.planEntries[e].tensorMaps == ma.planEntries[e].tensorMaps);
  // An entry's edge kernel (an exact GEMM's tiles; none for the row sum's entries).
  const TranslateResult exact = translateSource(
      "[[clang::annotate(\"culift\")]] float Gemm(const float* A, const float* B, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];\n  return s;\n}\n",
      "gemm_exact.cpp");
  REQUIRE(exact.ok());
  const Function& ea = *exact.module->find("Gemm");
  REQUIRE(!ea.planEntries.empty());
  REQUIRE(ea.planEntries[0].edgeKernel);
  const std::shared_ptr<const Module> exactLoaded = loadModule(saveModule(*exact.module));
  const Function& eb = *exactLoaded->find("Gemm");
  REQUIRE(eb.planEntries.size() == ea.planEntries.size());
  for (std::size_t e = 0; e < ea.planEntries.size(); ++e)
    CHECK(eb.planEntries[e].edgeKernel == ea.planEntries[e].edgeKernel);
  REQUIRE(!loaded->find("RowSum")->planEntries.empty());
  for (const PlanEntry& e : loaded->find("RowSum")->planEntries) CHECK(!e.edgeKernel);
  auto engine = rt::Engine::createCpu();
  std::vector<float> x(64 * 3);
  for (std::size_t e = 0; e < x.size(); ++e) x[e] = 1.0f / static_cast<float>(e + 1);
  std::vector<float> sums[2];
  int which = 0;
  for (const auto& module : {std::shared_ptr<const Module>(translated.module), loaded}) {
    rt::DeviceBuffer<float> dx(*engine, x), out(*engine, 3);
    engine->kernel(module, "RowSum").launch(*engine, rt::LaunchPlanner::for1D(3), dx, 64, out);
    sums[which++] = out.read();
  }
  CHECK(sums[0] == sums[1]);
}

TEST_CASE("arrays of structs keep their record layouts through a file") {
  const char* source =
      "#include <culift/annotate.hpp>\n"
      "struct Vec3 { float x, y, z; };\n"
      "struct Particle { Vec3 pos; Vec3 vel; float mass; };\n"
      "struct Pair { double lo, hi; };\n"
      "CULIFT_KERNEL float Kinetic(const Particle* ps, int i) {\n"
      "  return 0.5f * ps[i].mass * ps[i].vel.x * ps[i].vel.x;\n"
      "}\n"
      "CULIFT_KERNEL void Step(const Particle* in, Particle* out, float dt, int i) {\n"
      "  Particle p = in[i];\n"
      "  p.pos.x += dt * p.vel.x;\n"
      "  out[i] = p;\n"
      "}\n"
      "CULIFT_KERNEL double Width(const Pair* r, const double* scale, int i) { return (r[i].hi - r[i].lo) * scale[i]; }\n";
  TranslateOptions options;
  options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
  const TranslateResult translated = translateSource(source, "particles.hpp", options);
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  const Module& original = *translated.module;
  const std::string bytes = saveModule(original);
  const std::shared_ptr<const Module> loaded = loadModule(bytes, "particles.culift");
  CHECK(saveModule(*loaded) == bytes);
  CHECK(emitCuda(*loaded) == original.cudaSource);

  unsigned records = 0;
  for (const char* name : {"Kinetic", "Step", "Width"}) {
    INFO(name);
    const Function& a = *original.find(name);
    const Function& b = *loaded->find(name);
    CHECK_FALSE(a.recordParams.empty());
    CHECK(b.recordParams.empty());  // the front end's note; the signature holds the layouts
    REQUIRE(b.signature.params.size() == a.signature.params.size());
    for (std::size_t k = 0; k < a.signature.params.size(); ++k) {
      CHECK(b.signature.params[k].record == a.signature.params[k].record);
      records += a.signature.params[k].record.has_value();
    }
  }
  CHECK(records == 4);  // ps; in and out; r (not scale)
  const RecordView& particle = *loaded->find("Kinetic")->signature.params[0].record;
  CHECK(particle.name == "Particle");
  CHECK(particle.scalar == Scalar::F32);
  CHECK(particle.size == 28);
  CHECK(particle.align == 4);
  REQUIRE(particle.fields.size() == 7);
  CHECK(particle.fields[4] == RecordField{"vel_y", 16});
  CHECK(particle.fields[6] == RecordField{"mass", 24});
  const RecordView& pair = *loaded->find("Width")->signature.params[0].record;
  CHECK(pair.scalar == Scalar::F64);
  CHECK(pair.size == 16);
  CHECK(pair.align == 8);

  // The loaded module launches as the translated one does.
  auto engine = rt::Engine::createCpu();
  for (const char* name : {"Kinetic", "Step", "Width"})
    CHECK(launchOnce(*engine, translated.module, *original.find(name)) ==
          launchOnce(*engine, loaded, *loaded->find(name)));

  // A record that does not fit its own size is a clear error, not a module.
  const std::shared_ptr<Module> corrupt = loadModule(bytes);
  for (Function& f : corrupt->functions)
    if (f.name == "Kinetic") f.signature.params[0].record->fields.back().offset = 28;
  std::string message;
  try {
    loadModule(saveModule(*corrupt), "particles.culift");
  } catch (const ModuleFileError& e) {
    message = e.what();
  }
  CHECK(message.find("particles.culift: record Particle of parameter 'ps' of Kinetic: field mass at byte 28 is not "
                     "one of its 7 float elements") != std::string::npos);
}

TEST_CASE("culift emit --module writes the module translate() gives") {
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-module", dir));
  const std::string header = CULIFT_SOURCE_DIR "/examples/pearson/pearson_metrics.hpp";
  const std::string out = std::string(dir) + "/pearson.culift", cuda = std::string(dir) + "/pearson.cu";
  const std::string culift = CULIFT_BINARY_DIR "/tools/culift";
  std::vector<llvm::StringRef> argv = {culift, "emit", header, "--module", out};
  REQUIRE(llvm::sys::ExecuteAndWait(culift, argv) == 0);
  const std::shared_ptr<Module> fromFile = loadModuleFile(out);
  const TranslateResult translated = translate(header);
  REQUIRE(translated.ok());
  CHECK(saveModule(*fromFile) == saveModule(*translated.module));
  CHECK_FALSE(llvm::sys::fs::exists(cuda));

  // With -o as well, both files.
  argv = {culift, "emit", header, "--module", out, "-o", cuda};
  REQUIRE(llvm::sys::ExecuteAndWait(culift, argv) == 0);
  auto text = llvm::MemoryBuffer::getFile(cuda);
  REQUIRE(text);
  CHECK((*text)->getBuffer() == translated.module->cudaSource);

  // An unwritable destination is an error that names it.
  argv = {culift, "emit", header, "--module", "/nonexistent/dir/x.culift"};
  const std::string err = std::string(dir) + "/err.txt";
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, std::nullopt, llvm::StringRef(err)};
  CHECK(culift::test::executeAndWait(culift, argv, std::nullopt, redirects) == 1);
  auto message = llvm::MemoryBuffer::getFile(err);
  REQUIRE(message);
  CHECK((*message)->getBuffer().contains("/nonexistent/dir/x.culift: cannot write the module file"));
  llvm::sys::fs::remove_directories(dir);
}

}  // namespace
}  // namespace culift
