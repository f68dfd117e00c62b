// culift launch FILE --function NAME --extent N[xM[xK]] --args JSON|@FILE [--out-npy DIR] [--backend gpu|cpu|interp]
//               [--strict] [--per-thread] [--reassociate] [--tensor-cores=tf32|bf16|fp16] [--check-conflicts] [-p
//               BUILD_DIR] [-- CLANG_ARGS]
// Translates FILE, compiles the function's kernel and runs one whole launch over the extent, on
// the GPU when there is one (else the CPU backend). --args is a JSON array with one element per
// parameter of the function minus its index parameters: a number for a scalar, an array of
// numbers or {"npy": "x.npy"} for a pointer (for an array of structs also an array of objects
// keyed by field path), and for element-wise functions an array per scalar parameter ("nan",
// "inf", "-inf" accepted); @FILE reads it from a file (@-: stdin). Prints
//   {"backend": "gpu", "out": [...], "arrays": {"NAME": [...]}, "ms": T}
// with `out` for functions returning a value and `arrays` holding every non-const array after
// the launch (an array of structs as objects keyed by field path); floats with round-trip digits (9 for float, 17 for
// double). With --out-npy DIR the arrays go to DIR/out.npy and DIR/NAME.npy, and the JSON names those files.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli_data.hpp"
#include "cli_pick.hpp"
#include "cli_records.hpp"
#include "cli_scalars.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#ifdef CULIFT_HAVE_MPI
#include "culift/mpi.hpp"
#endif
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "verb.hpp"

namespace culift::cli {
namespace {

llvm::cl::SubCommand launchCommand("launch", "Compile one lifted function's kernel and run a whole launch");
llvm::cl::opt<bool> launchReassociate(
    "reassociate", llvm::cl::desc("Let every kernel reassociate its loop's sums, as CULIFT_KERNEL_REASSOCIATE does"),
    llvm::cl::sub(launchCommand));
llvm::cl::opt<TensorCores> launchTensorCores("tensor-cores", llvm::cl::desc(kTensorCoresHelp), tensorCoreFormats(),
                                             llvm::cl::init(TensorCores::None), llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchInput(llvm::cl::Positional, llvm::cl::desc("FILE"), llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchFunction("function", llvm::cl::desc("The function to launch"),
                                          llvm::cl::value_desc("NAME"), llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchExtent("extent", llvm::cl::desc("Index space: N, NxM or NxMxK (i, j, k)"),
                                        llvm::cl::value_desc("N[xM[xK]]"), llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchArgs("args",
                                      llvm::cl::desc("JSON array, one element per parameter minus the index "
                                                     "parameters: a number for a scalar, an array or {\"npy\": "
                                                     "\"x.npy\"} for a pointer; @FILE reads it from FILE (@-: stdin)"),
                                      llvm::cl::value_desc("JSON|@FILE"), llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchArgsFile("args-file", llvm::cl::desc("The same as --args @FILE"),
                                          llvm::cl::value_desc("FILE"), llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchOutNpy("out-npy",
                                        llvm::cl::desc("Write `out` and every written array to DIR/NAME.npy instead "
                                                       "of printing them"),
                                        llvm::cl::value_desc("DIR"), llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchBackend(
    "backend",
    llvm::cl::desc(
        "gpu, cpu (the kernel compiled for the host, every core) or interp (the interpreter); default: "
        "gpu when there is one, else cpu; under mpirun -np N (N > 1), each rank's (a rank takes GPU local rank % GPUs)"),
    llvm::cl::value_desc("gpu|cpu|interp"), llvm::cl::sub(launchCommand));
llvm::cl::opt<bool> launchCpuUnchecked("cpu-unchecked",
                                       llvm::cl::desc("On the CPU, compiled code without the checks of indices, "
                                                      "divisions and shifts (faster; undefined behaviour then gives "
                                                      "some value instead of an error)"),
                                       llvm::cl::sub(launchCommand));
llvm::cl::opt<bool> launchPerThread("per-thread",
                                    llvm::cl::desc("Run a per-thread entry even where the loop plan has a faster one"),
                                    llvm::cl::sub(launchCommand));
llvm::cl::opt<bool> launchStrict("strict", llvm::cl::desc("Compile with --fmad=false (bit-exact with the CPU)"),
                                 llvm::cl::sub(launchCommand));
llvm::cl::opt<bool> launchDeviceAsserts("device-asserts",
                                        llvm::cl::desc("Check the function's assert()s on the GPU too (compiled out "
                                                       "by default, as NDEBUG does; the CPU backend always checks)"),
                                        llvm::cl::sub(launchCommand));
llvm::cl::opt<bool> launchCheckConflicts(
    "check-conflicts",
    llvm::cl::desc("Run on the CPU backend and fail where two outputs of the launch write one element, or one "
                   "reads an element another writes (a data race on the GPU)"),
    llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchDevices(
    "devices",
    llvm::cl::desc("Split the launch over a device group: all (every GPU), a list of GPU ordinals (0,1) or cpu:N "
                   "(N CPU engines); whole rows per device, the results gathered; under mpirun, each rank's group"),
    llvm::cl::value_desc("all|0,1,...|cpu:N"), llvm::cl::sub(launchCommand));
llvm::cl::opt<std::string> launchBuildDir("p", llvm::cl::desc("Build directory holding compile_commands.json"),
                                          llvm::cl::value_desc("BUILD_DIR"), llvm::cl::sub(launchCommand));

const char* kUsage =
    "usage: culift launch FILE --function NAME --extent N[xM[xK]] --args JSON|@FILE [--out-npy DIR] [--backend gpu|cpu|interp] "
    "[--strict] [--per-thread] [--reassociate] [--tensor-cores=tf32|bf16|fp16] [--check-conflicts] "
    "[--devices all|0,1,...|cpu:N] [-- CLANG_ARGS]\n";

// The group --devices names (all, 0,1,... or cpu:N), or null with `why`.
std::optional<rt::DeviceGroup> deviceGroup(const std::string& text, const rt::EngineOptions& options,
                                           std::string& why) {
  if (text == "all") return rt::DeviceGroup::gpus(options);
  llvm::StringRef t(text);
  if (t.consume_front("cpu:")) {
    unsigned n = 0;
    if (t.getAsInteger(10, n) || n == 0 || n > 64) {
      why = "--devices cpu:N takes 1 to 64 CPU engines, not '" + text + "'";
      return std::nullopt;
    }
    std::vector<std::shared_ptr<rt::Engine>> engines;
    for (unsigned e = 0; e < n; ++e) engines.push_back(rt::Engine::createCpu(options));
    return rt::DeviceGroup(std::move(engines));
  }
  llvm::SmallVector<llvm::StringRef, 8> parts;
  t.split(parts, ',');
  std::vector<int> ordinals;
  for (llvm::StringRef p : parts) {
    int d = 0;
    if (p.trim().getAsInteger(10, d) || d < 0) {
      why = "--devices takes all, GPU ordinals such as 0,1 or cpu:N, not '" + text + "'";
      return std::nullopt;
    }
    ordinals.push_back(d);
  }
  return rt::DeviceGroup::gpus(options, ordinals);
}

// An element-wise kernel's parameters: " (per element)", " (uniform)" or, for an array read
// whole by every element, " (the same for every element)"; nothing for other kernels.
std::string roleNote(const Function& fn, const KernelParam& p) {
  if (fn.mode != IndexMode::ElementWise) return {};
  if (p.role == ParamRole::PerElementScalar) return " (per element)";
  if (p.role == ParamRole::Scalar) return " (uniform)";
  if (p.role == ParamRole::ReadOnlyArray) return " (the same for every element)";
  return {};
}

int usage(const std::string& message) {
  llvm::errs() << "culift launch: " << message << "\n";
  return kExitUsage;
}

std::optional<std::vector<std::int64_t>> parseExtent(const std::string& text, std::string& why) {
  std::vector<std::int64_t> out;
  llvm::StringRef rest(text);
  while (true) {
    auto [part, tail] = rest.split('x');
    std::int64_t n = 0;
    if (part.empty() || part.getAsInteger(10, n) || n < 0) {
      why = "--extent '" + text + "': each axis must be a non-negative integer (N, NxM or NxMxK)";
      return std::nullopt;
    }
    out.push_back(n);
    if (tail.empty() && !rest.contains('x')) break;
    rest = tail;
    if (rest.empty()) {
      why = "--extent '" + text + "' ends with 'x'";
      return std::nullopt;
    }
  }
  if (out.size() > 3) {
    why = "--extent '" + text + "' has more than 3 axes";
    return std::nullopt;
  }
  return out;
}

std::string numberText(const rt::ScalarValue& v) {
  switch (v.type) {
    case Scalar::F32:
    case Scalar::F64: {
      const double d = v.type == Scalar::F32 ? static_cast<double>(v.f) : v.d;
      if (std::isnan(d)) return "\"nan\"";
      if (std::isinf(d)) return d < 0 ? "\"-inf\"" : "\"inf\"";
      char buf[64];
      std::snprintf(buf, sizeof buf, v.type == Scalar::F32 ? "%.9g" : "%.17g", d);
      return buf;
    }
    case Scalar::Bool: return v.b ? "true" : "false";
    case Scalar::Void: return "null";
    default: return v.toString();
  }
}

rt::ScalarValue elementValue(Scalar type, const std::byte* p) {
  switch (type) {
#define CULIFT_X(E, T, S, B, I, SG, F) \
  case Scalar::E: {                    \
    T v;                               \
    std::memcpy(&v, p, sizeof v);      \
    return rt::ScalarValue::of(v);     \
  }
    CULIFT_SCALAR_TYPES(CULIFT_X)
#undef CULIFT_X
    case Scalar::Void: break;
  }
  return rt::ScalarValue();
}

// Reads a buffer back and writes it to DIR/NAME.npy; false with `why`.
bool writeBufferNpy(const rt::Buffer& buffer, const std::string& path, std::string& why) {
  std::vector<std::byte> bytes(buffer.bytes());
  buffer.readBytes(bytes.data(), bytes.size(), 0);
  return writeNpy(path, buffer.element(), bytes.data(), buffer.size(), why);
}

// Reads a buffer back and writes it as a JSON array: of objects keyed by field path for an
// array of structs (`record`), else of numbers.
void writeBuffer(llvm::json::OStream& out, const rt::Buffer& buffer, const RecordView* record) {
  std::vector<std::byte> bytes(buffer.bytes());
  buffer.readBytes(bytes.data(), bytes.size(), 0);
  const unsigned size = byteSize(buffer.element());
  auto element = [&](std::size_t k) { return numberText(elementValue(buffer.element(), bytes.data() + k * size)); };
  if (record) return writeRecords(out, *record, buffer.size(), element);
  out.array([&] {
    for (std::size_t k = 0; k < buffer.size(); ++k) out.rawValue(element(k));
  });
}

// "const Particle*" for an array of structs, else the emitted type.
std::string userType(const KernelParam& p) {
  return p.record ? recordPointerType(*p.record, p.type.constElements) : toString(p.type);
}

int runLaunch() {
  if (launchInput.empty()) return usage(std::string("no input file\n") + kUsage);
  if (launchFunction.empty()) return usage(std::string("no --function given\n") + kUsage);
  if (launchExtent.empty()) return usage(std::string("no --extent given\n") + kUsage);
  if (launchArgs.getNumOccurrences() + launchArgsFile.getNumOccurrences() != 1)
    return usage(
        std::string(launchArgs.getNumOccurrences() ? "--args and --args-file both given\n" : "no --args given\n") +
        kUsage);
  if (!launchBackend.empty() && launchBackend != "gpu" && launchBackend != "cpu" && launchBackend != "interp")
    return usage("--backend must be gpu, cpu or interp, not '" + launchBackend + "'");
  if (auto readable = llvm::MemoryBuffer::getFile(launchInput, false, false); !readable)
    return usage("cannot read '" + launchInput + "': " + readable.getError().message());
  std::string why;
  auto extent = parseExtent(launchExtent, why);
  if (!extent) return usage(why);
  if (!launchOutNpy.empty() && !llvm::sys::fs::is_directory(launchOutNpy))
    return usage("--out-npy " + launchOutNpy + ": no such directory");
  std::string argsText, argsDir;
  if (!readArgsText(launchArgsFile.empty() ? launchArgs : "@" + launchArgsFile, argsText, argsDir, why))
    return usage(why);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(argsText);
  if (!parsed) return usage("--args is not valid JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Array* list = parsed->getAsArray();
  if (!list) return usage("--args must be a JSON array with one element per parameter (index parameters excluded)");

  TranslateOptions options;
  options.functions.push_back(launchFunction);
  options.reassociate = launchReassociate;
  options.tensorCores = launchTensorCores;
  options.compilerArgs = clangArgs();
  options.buildDir = launchBuildDir;
  TranslateResult result = translate(launchInput, options);
  llvm::errs() << result.formatDiagnostics(llvm::errs().has_colors());
  if (!result.ok()) return kExitError;
  std::shared_ptr<const Module> module = result.module;
  std::string notPicked;
  const Function* fn = pickedFunction(result, launchFunction, notPicked);
  if (!fn) return usage(notPicked);
  if (!fn->isKernel())
    return usage("'" + fn->name +
                 "' is a device-only function (no index parameter i/j/k and no element-wise form: see the "
                 "warning above): it cannot be launched; use 'culift run' to interpret one call");
  const unsigned rank = culift::rank(fn->mode);
  if (extent->size() != rank)
    return usage("'" + fn->name + "' is a " + std::string(name(fn->mode)) + " kernel: --extent needs " +
                 std::to_string(rank) + (rank == 1 ? " axis (" : " axes (") +
                 (rank == 1   ? "N"
                  : rank == 2 ? "NxM"
                              : "NxMxK") +
                 "), got '" + launchExtent + "'");

  std::size_t userArgs = 0;
  for (const KernelParam& p : fn->signature.params)
    if (p.userParam >= 0) ++userArgs;
  if (list->size() != userArgs) {
    std::string names;
    for (const KernelParam& p : fn->signature.params)
      if (p.userParam >= 0) names += (names.empty() ? "" : ", ") + userType(p) + " " + p.name + roleNote(*fn, p);
    return usage("'" + fn->name + "' takes " + std::to_string(userArgs) + " argument" + (userArgs == 1 ? "" : "s") +
                 " (" + names + "; index parameters are not passed), --args has " + std::to_string(list->size()));
  }

  rt::EngineOptions engineOptions;
  engineOptions.math = launchStrict ? rt::MathMode::Strict : rt::MathMode::Default;
  engineOptions.deviceAsserts = launchDeviceAsserts;
  engineOptions.checkConflicts = launchCheckConflicts;
  engineOptions.cpuCode = launchBackend == "interp" ? rt::CpuCode::Interpreted
                          : launchCpuUnchecked      ? rt::CpuCode::Unchecked
                                                    : rt::CpuCode::Checked;
  if (launchCheckConflicts && launchBackend == "gpu")
    return usage("--check-conflicts runs on the CPU backend: leave out --backend gpu");
#ifdef CULIFT_HAVE_MPI
  // Under an MPI launcher (mpirun -np N) the launch is split over the ranks; rank 0 prints.
  std::optional<mpi::Session> session;
  bool speaks = true;
#else
  constexpr bool speaks = true;
#endif
  try {
#ifdef CULIFT_HAVE_MPI
    if (mpi::launchedByMpi()) {
      session.emplace();
      speaks = session->rank() == 0;
    }
    const bool split = session && session->size() > 1;
#else
    constexpr bool split = false;
#endif
    std::shared_ptr<rt::Engine> engine;
#ifdef CULIFT_HAVE_MPI
    // A rank of several on a host takes a GPU of its own where there are enough: its local rank's.
    if (split && (launchBackend.empty() || launchBackend == "gpu"))
      if (const int gpus = rt::gpuCount(); gpus > 0) engineOptions.deviceOrdinal = session->localRank() % gpus;
#endif
    if (launchBackend == "cpu" || launchBackend == "interp" || launchCheckConflicts) {
      engine = rt::Engine::createCpu(engineOptions);
    } else if (launchBackend == "gpu") {
      std::string whyNot;
      engine = rt::Engine::tryCreate(engineOptions, &whyNot);
      if (!engine) {
        if (speaks) llvm::errs() << "culift launch: no GPU: " << whyNot << "\n";
        return kExitError;
      }
    } else {
      engine = rt::Engine::createGpuOrCpu(engineOptions);
    }
    rt::Kernel kernel = engine->kernel(module, fn->name);
    rt::LaunchPlan plan = kernel.plan((*extent)[0], rank > 1 ? (*extent)[1] : 1, rank > 2 ? (*extent)[2] : 1);
    plan.perThread = launchPerThread;

    // Buffers and scalars in signature order; `out` sized to the index space.
    std::vector<std::unique_ptr<rt::Buffer>> buffers;
    std::vector<rt::LaunchArg> args;
    std::size_t next = 0;
    rt::Buffer* out = nullptr;
    for (const KernelParam& p : fn->signature.params) {
      if (p.role == ParamRole::Extent) continue;
      if (p.role == ParamRole::ResultArray) {
        // A struct result: its scalars, record->elements() per index.
        buffers.push_back(std::make_unique<rt::Buffer>(*engine, p.type.scalar,
                                                       static_cast<std::size_t>(plan.elements()) *
                                                           (p.record ? p.record->elements() : 1u)));
        out = buffers.back().get();
        args.push_back(rt::LaunchArg::of(*out));
        continue;
      }
      const llvm::json::Value& j = (*list)[next];
      const std::string where = "argument " + std::to_string(++next) + " ('" + p.name + "', " + userType(p) + ")" +
                                roleNote(*fn, p);
      if (p.type.isValue()) {
        if (j.getAsArray()) return usage(where + ": expected a number, got an array");
        auto v = scalarFromJson(j, p.type.scalar, why);
        if (!v) return usage(where + ": " + why);
        args.push_back(rt::LaunchArg::of(*v));
        continue;
      }
      // An array: from a .npy file (copied once, from the file's buffer), or its numbers in the JSON.
      std::vector<std::byte> bytes;
      NpyData data;
      std::size_t count = 0;
      std::string bad;
      const std::string npy = npyPath(j, argsDir, bad);
      if (!bad.empty()) return usage(where + ": " + bad);
      const unsigned size = byteSize(p.type.scalar);
      if (!npy.empty()) {
        if (!readNpy(npy, p.type.scalar, data, bad)) return usage(where + ": " + bad);
        count = data.count;
      } else if (p.record && isRecordList(j)) {
        // Records as objects keyed by field path: their scalars in memory order (padding zero).
        const llvm::json::Array& records = *j.getAsArray();
        count = records.size() * p.record->elements();
        bytes.assign(count * size, std::byte{0});
        const bool read = readRecords(
            records, *p.record,
            [&](std::size_t k, const llvm::json::Value& v, std::string& invalid) {
              auto value = scalarFromJson(v, p.type.scalar, invalid);
              if (value) value->store(bytes.data() + k * size);
              return value.has_value();
            },
            bad);
        if (!read) return usage(where + ", " + bad);
      } else {
        const llvm::json::Array* elements = j.getAsArray();
        if (!elements)
          return usage(where + ": expected an array of " +
                       (p.record ? p.record->name + " records (objects keyed by field), of " : "") +
                       "numbers or {\"npy\": \"FILE.npy\"}");
        bytes.resize(elements->size() * size);
        for (std::size_t k = 0; k < elements->size(); ++k) {
          auto v = scalarFromJson((*elements)[k], p.type.scalar, why);
          if (!v) return usage(where + ", element " + std::to_string(k) + ": " + why);
          v->store(bytes.data() + k * size);
        }
        count = elements->size();
      }
      buffers.push_back(std::make_unique<rt::Buffer>(*engine, p.type.scalar, count));
      if (data.data) buffers.back()->writeBytes(data.data, data.bytes, 0);
      else buffers.back()->writeBytes(bytes.data(), bytes.size(), 0);
      if (p.role == ParamRole::WritableArray) args.push_back(rt::LaunchArg::of(*buffers.back()));
      else args.push_back(rt::LaunchArg::of(static_cast<const rt::Buffer&>(*buffers.back())));
    }

    // --devices, or the ranks of mpirun -np N: the same arguments, split over a device group (each
    // rank's: --devices, or this engine alone); the gathered results go back into the buffers above,
    // which the report prints.
    std::size_t devices = 0;
    int ranks = 1;
    rt::GroupLaunch groupParts;  // each engine's part (over every rank's engines)
    double ms = 0;
    if (!launchDevices.empty() || split) {
      std::optional<rt::DeviceGroup> group;
      if (!launchDevices.empty()) {
        std::string bad;
        group = deviceGroup(launchDevices, engineOptions, bad);
        if (!group) return usage(bad);
      } else {
        group.emplace(std::vector<std::shared_ptr<rt::Engine>>{engine});
      }
      std::vector<std::vector<std::byte>> host;
      std::vector<rt::GroupArg> groupArgs;
      std::size_t b = 0;
      for (const KernelParam& p : fn->signature.params) {
        if (p.role == ParamRole::Extent) continue;
        const std::size_t k = groupArgs.size();
        if (!p.type.isPointer()) {
          rt::GroupArg g;
          g.scalar = args[k].scalar;
          groupArgs.push_back(g);
          continue;
        }
        const rt::Buffer& buffer = *buffers[b++];
        std::vector<std::byte>& bytes = host.emplace_back(buffer.bytes());
        buffer.readBytes(bytes.data(), bytes.size(), 0);
        rt::GroupArg g;
        g.isArray = true;
        g.element = p.type.scalar;
        g.count = bytes.size() / byteSize(p.type.scalar);
        g.input = bytes.data();
        if (p.role == ParamRole::ResultArray || p.role == ParamRole::WritableArray) g.output = bytes.data();
        groupArgs.push_back(g);
      }
      for (std::size_t d = 0; d < group->size(); ++d) group->engine(d).load(module);  // compiled before the clock
#ifdef CULIFT_HAVE_MPI
      if (split) session->barrier();  // the time of the launch and its gather, not of the ranks' start
#endif
      const auto began = std::chrono::steady_clock::now();
#ifdef CULIFT_HAVE_MPI
      if (split) {
        const mpi::SplitLaunch s = mpi::launchSplit(*session, *group, module, fn->name, plan, groupArgs);
        ranks = s.ranks;
        groupParts = s.parts;
      } else
#endif
        groupParts = group->launch(module, fn->name, plan, groupArgs);
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
      devices = groupParts.parts.size();
      b = 0;
      for (const KernelParam& p : fn->signature.params) {
        if (p.role == ParamRole::Extent || !p.type.isPointer()) continue;
        const std::size_t at = b++;
        if (p.role == ParamRole::ResultArray || p.role == ParamRole::WritableArray)
          buffers[at]->writeBytes(host[at].data(), host[at].size(), 0);
      }
    } else {
      // One launch: it takes the device's measured choice where an earlier process measured one,
      // and never times candidates (a shape's first launch in a process does not).
      rt::Event start = engine->createEvent(), stop = engine->createEvent();
      start.record(*engine);
      kernel.launchArgs(*engine, plan, args);
      stop.record(*engine);
      engine->synchronize();
      ms = static_cast<double>(rt::Event::elapsedMs(start, stop));
    }
    if (!speaks) return kExitOk;  // every rank holds the result; rank 0 reports it

    // --out-npy: every result array to a file of its own; the JSON names the files.
    std::map<const rt::Buffer*, std::string> files;
    if (!launchOutNpy.empty()) {
      std::size_t b = 0;
      for (const KernelParam& p : fn->signature.params) {
        if (p.role == ParamRole::Extent || !p.type.isPointer()) continue;
        const rt::Buffer* buffer = buffers[b++].get();
        if (p.role != ParamRole::ResultArray && p.role != ParamRole::WritableArray) continue;
        llvm::SmallString<256> path(launchOutNpy);
        llvm::sys::path::append(path, (p.role == ParamRole::ResultArray ? std::string("out") : p.name) + ".npy");
        if (!writeBufferNpy(*buffer, std::string(path), why)) {
          llvm::errs() << "culift launch: " << why << "\n";
          return kExitError;
        }
        files[buffer] = std::string(path);
      }
    }
    auto writeResult = [&](llvm::json::OStream& out, const rt::Buffer& buffer, const RecordView* record) {
      if (auto it = files.find(&buffer); it != files.end()) out.value(it->second);
      else writeBuffer(out, buffer, record);
    };

    llvm::json::OStream json(llvm::outs());
    json.object([&] {
      json.attribute("backend", std::string(rt::name(engine->backend())));
      if (ranks > 1) json.attribute("ranks", ranks);  // a launch split over MPI ranks
      if (devices > 1 || !launchDevices.empty()) {
        // split over a device group (every rank's engines): each engine's outputs, rows or a band of
        // the triangle
        json.attribute("devices", static_cast<std::int64_t>(devices));
        json.attribute("split", groupParts.mirrored ? "triangle bands" : "rows");
        json.attributeArray("parts", [&] {
          for (const rt::GroupLaunch::Part& p : groupParts.parts)
            json.array([&] {
              json.value(p.first);
              json.value(p.last);
            });
        });
      }
      // The entry that ran: a loop-plan entry where the launch took one (GPU only).
      if (engine->backend() == rt::Backend::Gpu && devices <= 1 && launchDevices.empty()) {
        const std::optional<rt::EntryLaunch> ran = kernel.lastLaunch();
        const bool entry = ran && ran->choice;
        json.attribute("entry", entry ? fn->planEntries[ran->choice->entry].kernelName : std::string("per-thread"));
        if (entry) json.attribute("measured", ran->measured);  // chosen from the table of measured choices
      }
      if (out) {
        json.attributeBegin("out");
        writeResult(json, *out, fn->resultRecord ? &*fn->resultRecord : nullptr);
        json.attributeEnd();
      }
      json.attributeObject("arrays", [&] {
        std::size_t b = 0;
        for (const KernelParam& p : fn->signature.params) {
          if (p.role == ParamRole::Extent || p.role == ParamRole::ResultArray) {
            if (p.role == ParamRole::ResultArray) ++b;
            continue;
          }
          if (p.type.isPointer()) {
            if (p.role == ParamRole::WritableArray) {
              json.attributeBegin(p.name);
              writeResult(json, *buffers[b], p.record ? &*p.record : nullptr);
              json.attributeEnd();
            }
            ++b;
          }
        }
      });
      json.attribute("ms", ms);
    });
    llvm::outs() << "\n";
    return kExitOk;
  } catch (const rt::ArgumentError& e) {
    if (speaks) llvm::errs() << "culift launch: " << e.what() << "\n";
    return kExitUsage;
  } catch (const rt::KernelError& e) {
    if (speaks) llvm::errs() << e.diagnostic().format(llvm::errs().has_colors());
    return kExitError;
  } catch (const rt::Error& e) {
    if (speaks) llvm::errs() << "culift launch: " << e.what() << "\n";
    return kExitError;
  }
}

}  // namespace

CULIFT_VERB(launchCommand, runLaunch);

}  // namespace culift::cli
