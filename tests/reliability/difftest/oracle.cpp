#include "oracle.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>

#include "compiled_leg.hpp"
#include "culift/codegen.hpp"
#include "culift/cpujit_crosscheck.hpp"
#include "culift/interpreter.hpp"
#include "culift/runtime/nvrtc.hpp"
#include "culift/translate.hpp"
#include "launch_data.hpp"
#include "native_leg.hpp"
#include "value_bytes.hpp"

namespace culift::rel {

std::string_view name(FindingKind k) {
  switch (k) {
    case FindingKind::NativeLevels: return "native -O0 vs -O2";
    case FindingKind::Interpreter: return "interpreter vs native";
    case FindingKind::InterpreterError: return "interpreter error";
    case FindingKind::Translate: return "translate";
    case FindingKind::Nvrtc: return "nvrtc";
    case FindingKind::Native: return "host compiler";
    case FindingKind::UndefinedBehaviour: return "undefined behaviour";
    case FindingKind::Compiled: return "compiled CPU vs interpreter";
  }
  return "?";
}

// The kernels of `module` that have loop-plan entries, and of those the reassociating ones.
void countPlans(LegCounts& counts, const Module& module) {
  for (const Function* k : module.kernels()) {
    counts.planned += !k->planEntries.empty();
    if (!k->planEntries.empty()) ++counts.plans[std::string(name(k->loopPlan))];
    // The 2.5-D entries that stream their planes through shared memory (512 threads an SM where a
    // thread takes two rows: two blocks of 256, or four of 128 in narrow tiles; 1024 where it takes
    // one; the other forms ask for three blocks of 256 or say nothing).
    for (const PlanEntry& e : k->planEntries) {
      if (e.plan != LoopPlan::Stencil3DWindows) continue;
      const unsigned threads = e.blocksPerSm * e.threads;
      if (threads == 512 || threads == 1024)
        ++counts.plans[threads == 512 ? "stencil, planes streamed, two rows a thread"
                                      : "stencil, planes streamed, one row a thread"];
      if (threads == 512 && e.threads < 256) ++counts.plans["stencil, planes streamed, narrow tiles"];
    }
    counts.reassociating += !k->reassociatedSums.empty();
  }
}

std::string_view name(interp::PlantedBug bug) {
  using B = interp::PlantedBug;
  switch (bug) {
    case B::None: return "None";
    case B::FloatToIntRounds: return "FloatToIntRounds";
    case B::SignedShiftRightLogical: return "SignedShiftRightLogical";
    case B::UnsignedSubSaturates: return "UnsignedSubSaturates";
    case B::UnsignedNarrowSignExtends: return "UnsignedNarrowSignExtends";
    case B::RemainderTakesDivisorSign: return "RemainderTakesDivisorSign";
    case B::NaNLessThanTrue: return "NaNLessThanTrue";
    case B::CompoundInTargetType: return "CompoundInTargetType";
    case B::SwitchNoFallThrough: return "SwitchNoFallThrough";
    case B::LoopBoundInclusive: return "LoopBoundInclusive";
    case B::LogicalEager: return "LogicalEager";
    case B::FloatMathInDouble: return "FloatMathInDouble";
    case B::NegativeZeroNarrowsPositive: return "NegativeZeroNarrowsPositive";
    case B::NaNCanonical: return "NaNCanonical";
  }
  return "?";
}

std::string_view name(cpujit::PlantedBug bug) {
  using B = cpujit::PlantedBug;
  switch (bug) {
    case B::None: return "None";
    case B::SignedShiftRightLogical: return "SignedShiftRightLogical";
    case B::NaNLessThanTrue: return "NaNLessThanTrue";
    case B::UnsignedNarrowSignExtends: return "UnsignedNarrowSignExtends";
  }
  return "?";
}

std::string name(const PlantedBugReport& r) {
  if (r.compiledBug != cpujit::PlantedBug::None) return "compiled " + std::string(name(r.compiledBug));
  return std::string(name(r.bug));
}

std::string OracleReport::summary() const {
  std::ostringstream out;
  out << counts.programs << " programs, " << counts.calls << " argument sets; native -O0 " << counts.nativeO0
      << ", -O2 " << counts.nativeO2 << ", interpreter " << counts.interpreted << "; NVRTC " << counts.nvrtcModules
      << " module(s), " << counts.nvrtcKernels << " kernel(s), " << counts.planned << " with loop-plan entries ("
      << counts.reassociating << " reassociating";
  for (const auto& [plan, n] : counts.plans) out << "; " << plan << " " << n;
  out << "); " << counts.argDependent << " depend on their arguments";
  if (!counts.nvrtcSkipped.empty()) out << " [NVRTC skipped: " << counts.nvrtcSkipped << "]";
  if (counts.compiled || counts.notLowered)
    out << "; compiled CPU " << counts.compiled << " (" << counts.compiledReassociating << " reassociating; "
        << counts.compiledLaunches << " launches, " << counts.compiledInterpreterErrors
        << " failed by the interpreter), " << counts.notLowered << " not lowered"
        << (counts.firstNotLowered.empty() ? "" : " (" + counts.firstNotLowered + ")");
  if (!counts.compiledSkipped.empty()) out << " [compiled CPU skipped: " << counts.compiledSkipped << "]";
  out << "; " << findings.size() << " finding(s); " << counts.seconds << " s\n";
  for (const Finding& f : findings)
    out << "  " << name(f.kind) << ": " << f.program << (f.argSet >= 0 ? " args #" + std::to_string(f.argSet) : "")
        << ": " << f.detail << "\n";
  return out.str();
}

namespace {

TranslateOptions translateOptions(const OracleOptions& o) {
  TranslateOptions t;
  t.compilerArgs = {"-I" + o.includeDir, "-std=c++20"};
  return t;
}

struct Outcome {
  bool ran = false;
  std::string error;
  std::vector<std::uint8_t> result;
  std::vector<std::vector<std::uint8_t>> arrays;  // every parameter's bytes after the call
  bool differentNaNsMet = false;                  // interpreter: interp::differentNaNsMet()
};

// The NaN rule between a native outcome and the interpreter's: `exact` (NaNBits::Payload) unless the interpreter
// met two different NaNs in a + or *, whose result native code may take from either.
NaNBits nanRule(NaNBits exact, const Outcome& interpreted) {
  return interpreted.differentNaNsMet ? NaNBits::Any : exact;
}

Outcome runNative(NativeEntry entry, const ProgramSpec& p, const ArgSet& a) {
  Outcome o;
  o.arrays = a.values;
  std::vector<void*> ptrs;
  for (auto& bytes : o.arrays) ptrs.push_back(bytes.data());
  std::uint8_t result[16] = {};
  entry(ptrs.data(), result);
  o.result.assign(result, result + byteSize(p.returnType));
  o.ran = true;
  return o;
}

Outcome runInterpreter(const interp::Program& program, const Function& fn, const ProgramSpec& p, const ArgSet& a) {
  Outcome o;
  o.arrays = a.values;
  std::vector<interp::Arg> args;
  for (std::size_t k = 0; k < p.params.size(); ++k) {
    const ParamSpec& q = p.params[k];
    if (q.array) {
      interp::ArrayRef r;
      r.element = q.type;
      r.data = o.arrays[k].data();
      r.size = q.elements();
      r.writable = q.writable;
      args.emplace_back(r);
    } else {
      args.emplace_back(valueFromBytes(q.type, o.arrays[k].data()));
    }
  }
  try {
    interp::resetDifferentNaNsMet();
    const interp::Value v = program.call(fn, args);
    o.differentNaNsMet = interp::differentNaNsMet();
    o.result = bytesOfValue(v);
    if (p.returnType == Scalar::Void) o.result.clear();
    o.ran = true;
  } catch (const interp::Error& e) {
    o.error = e.diagnostic().format();
  } catch (const std::exception& e) {
    o.error = std::string("exception: ") + e.what();
  }
  return o;
}

// "" when equal, else what differs first.
std::string compare(const ProgramSpec& p, const Outcome& x, const char* xName, const Outcome& y, const char* yName,
                    NaNBits nan = NaNBits::Any) {
  if (p.returnType != Scalar::Void && !sameValue(p.returnType, x.result.data(), y.result.data(), nan))
    return "result: " + std::string(xName) + " " + formatValue(p.returnType, x.result.data()) + ", " + yName + " " +
           formatValue(p.returnType, y.result.data());
  for (std::size_t k = 0; k < p.params.size(); ++k) {
    const ParamSpec& q = p.params[k];
    if (!q.array || !q.writable) continue;
    const unsigned size = byteSize(q.type);
    for (std::size_t e = 0; e < q.elements(); ++e)
      if (!sameValue(q.type, x.arrays[k].data() + e * size, y.arrays[k].data() + e * size, nan))
        return q.name + "[" + std::to_string(e) + "]: " + xName + " " +
               formatValue(q.type, x.arrays[k].data() + e * size) + ", " + yName + " " +
               formatValue(q.type, y.arrays[k].data() + e * size);
  }
  return {};
}

// Line `line` (1-based) of `text`.
std::string lineOf(const std::string& text, unsigned line) {
  std::size_t at = 0;
  for (unsigned n = 1; n < line && at != std::string::npos; ++n) {
    at = text.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  if (at == std::string::npos || at >= text.size()) return {};
  return text.substr(at, text.find('\n', at) - at);
}

// A UBSan report with the source line it points at ("batch.cpp:12:7: runtime error: ...").
std::string withSourceLine(const std::string& report, const std::string& source) {
  const std::size_t marker = report.find(": runtime error:");
  if (marker == std::string::npos) return report;
  const std::size_t colon = report.rfind(':', marker - 1);
  const std::size_t lineStart = colon == std::string::npos ? std::string::npos : report.rfind(':', colon - 1);
  if (lineStart == std::string::npos) return report;
  const unsigned line = static_cast<unsigned>(std::strtoul(report.c_str() + lineStart + 1, nullptr, 10));
  const std::string text = lineOf(source, line);
  return text.empty() ? report : report + "\n  " + text;
}

struct Translated {
  std::shared_ptr<Module> module;
  std::shared_ptr<const interp::Program> program;
};

// The compiled programs of every translated module, one per Options (compiled once per module).
class CompiledModules {
 public:
  explicit CompiledModules(cpujit::Options options) : options_(options) {}
  const cpujit::Program& of(const std::shared_ptr<Module>& module) {
    std::shared_ptr<const cpujit::Program>& p = programs_[module.get()];
    if (!p) p = cpujit::Program::compile(module, options_);
    return *p;
  }

 private:
  cpujit::Options options_;
  std::map<const Module*, std::shared_ptr<const cpujit::Program>> programs_;
};

// The kernel of program `p`, translated, with its interpreter; null when it is not there.
const Function* translatedKernel(const std::map<std::string, Translated>& byProgram, const ProgramSpec& p,
                                 const Translated** t) {
  auto it = byProgram.find(p.name);
  if (it == byProgram.end() || !it->second.program) return nullptr;
  *t = &it->second;
  return it->second.module->find(p.kernel);
}

// 5b. The compiled CPU leg: every translated kernel on checked and on unchecked compiled code,
// against the interpreter's launch. Returns the programs both agreed on (for the planted bugs).
// Nanoseconds per call of `once` (which computes `per` results), the best of 3 runs of 200 µs or more.
template <typename F> double nanosecondsPer(F&& once, std::uint64_t per) {
  using Clock = std::chrono::steady_clock;
  double best = 1e300;
  std::uint64_t reps = 1;
  for (int runs = 0; runs < 3;) {
    const auto t0 = Clock::now();
    for (std::uint64_t r = 0; r < reps; ++r) once();
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    if (ns < 2e5) {
      reps *= 4;
      continue;
    }
    best = std::min(best, ns / static_cast<double>(reps * per));
    ++runs;
  }
  return best;
}

// Unchecked compiled code per output of the kernel's launch against native -O2 per call, on the
// first argument set; 0 when the launch fails on it.
double timeAgainstNative(const cpujit::Kernel& kernel, const Function& fn, const ProgramSpec& p, NativeEntry native) {
  const LaunchData d = prepareLaunch(fn, p, /*quiet=*/true, 0);
  std::vector<std::vector<std::uint8_t>> bytes = d.bytes;
  const std::vector<interp::Arg> args = interpreterArgs(d, bytes);
  std::vector<interp::Value> scalars;
  const cpujit::LaunchArgs launch = compiledLaunchArgs(fn, d.extent(), args, scalars);
  const std::uint64_t outputs = launch.outputs();
  if (outputs == 0 || kernel.run(launch, 0, outputs)) return 0;
  const double compiled = nanosecondsPer([&] { (void)kernel.run(launch, 0, outputs); }, outputs);
  // Native code over the same outputs: the index parameters of each in turn (an element-wise
  // kernel: the first argument set's values for every output).
  std::vector<std::vector<std::uint8_t>> arrays = p.argSets[0].values;
  std::vector<void*> ptrs;
  for (auto& a : arrays) ptrs.push_back(a.data());
  std::uint8_t result[16] = {};
  const interp::Extent x = d.extent();
  const bool indexed = std::any_of(p.params.begin(), p.params.end(), [](const ParamSpec& q) { return q.axis >= 0; });
  const std::uint64_t calls = indexed ? outputs : 1;
  const double nativeNs = nanosecondsPer(
      [&] {
        for (std::uint64_t e = 0; e < calls; ++e) {
          std::int64_t index[3] = {0, 0, 0};
          for (std::uint64_t rest = e, a = x.rank; a-- > 0;) {
            index[a] = static_cast<std::int64_t>(rest % static_cast<std::uint64_t>(x.n[a]));
            rest /= static_cast<std::uint64_t>(x.n[a]);
          }
          for (std::size_t k = 0; k < p.params.size(); ++k)
            if (const int a = p.params[k].axis; a >= 0)
              std::memcpy(arrays[k].data(), &index[a], byteSize(p.params[k].type));  // little-endian
          native(ptrs.data(), result);
        }
      },
      calls);
  return nativeNs > 0 ? compiled / nativeNs : 0;
}

std::set<std::string> runCompiledLegs(const std::vector<ProgramSpec>& programs,
                                      const std::map<std::string, Translated>& byProgram, OracleReport& report,
                                      const std::function<NativeEntry(const std::string&)>& timeAgainst) {
  std::set<std::string> agreed;
  std::string why;
  if (!cpujit::available(&why)) {
    report.counts.compiledSkipped = why.empty() ? "no JIT for this host" : why;
    return agreed;
  }
  CompiledModules checked(cpujit::Options{.checked = true}), unchecked(cpujit::Options{.checked = false});
  for (const ProgramSpec& p : programs) {
    const Translated* t = nullptr;
    const Function* fn = translatedKernel(byProgram, p, &t);
    if (!fn) continue;
    bool same = true;
    for (CompiledModules* code : {&checked, &unchecked}) {
      const CompiledLegResult r = runCompiledLeg(*t->program, code->of(t->module), *fn, p);
      if (!r.lowered) {
        ++report.counts.notLowered;
        if (report.counts.firstNotLowered.empty()) report.counts.firstNotLowered = p.name + ": " + r.whyNot;
        same = false;
        break;
      }
      if (code == &unchecked) report.counts.compiledLanes += code->of(t->module).kernel(*fn)->lanes() > 1;
      if (code == &checked) {
        ++report.counts.compiled;
        report.counts.compiledReassociating += !fn->reassociatedSums.empty();
        report.counts.compiledLaunches += r.launches;
        report.counts.compiledInterpreterErrors += r.interpreterFailed;
      }
      if (!r.mismatch.empty()) {
        report.findings.push_back({FindingKind::Compiled, p.name, -1, r.mismatch});
        same = false;
        break;
      }
      same &= r.interpreterFailed == 0;
    }
    if (!same) continue;
    agreed.insert(p.name);
    if (NativeEntry native = timeAgainst ? timeAgainst(p.name) : nullptr)
      if (const double ratio = timeAgainstNative(*unchecked.of(t->module).kernel(*fn), *fn, p, native); ratio > 0)
        report.counts.perElement.push_back({ratio, p.name});
  }
  return agreed;
}

// 6b. The compiled leg's planted bugs: unchecked code compiled with each, on the programs the real
// compiled code agreed on.
void runCompiledPlantedBugs(const std::vector<ProgramSpec>& programs,
                            const std::map<std::string, Translated>& byProgram, const std::set<std::string>& agreed,
                            const OracleOptions& options, OracleReport& report) {
  for (const cpujit::PlantedBug bug : options.compiledPlantedBugs) {
    PlantedBugReport planted;
    planted.compiledBug = bug;
    CompiledModules buggy(cpujit::Options{.checked = false, .plantedBug = bug});
    for (const ProgramSpec& p : programs) {
      const Translated* t = nullptr;
      const Function* fn = agreed.count(p.name) ? translatedKernel(byProgram, p, &t) : nullptr;
      if (!fn) continue;
      const CompiledLegResult r = runCompiledLeg(*t->program, buggy.of(t->module), *fn, p);
      if (r.mismatch.empty()) continue;
      if (planted.caught++ == 0) {
        planted.firstProgram = p.name;
        planted.firstDetail = r.mismatch;
      }
    }
    report.compiledPlanted.push_back(std::move(planted));
  }
}

}  // namespace

OracleReport runOracle(const std::vector<ProgramSpec>& programs, const OracleOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  OracleReport report;
  report.counts.programs = static_cast<unsigned>(programs.size());
  auto log = [&](const std::string& s) {
    if (options.log) options.log(s);
  };

  llvm::SmallString<256> dir(options.workDir);
  if (dir.empty()) llvm::sys::fs::createUniqueDirectory("culift-difftest", dir);
  else llvm::sys::fs::create_directories(dir);
  const std::string work = std::string(dir);

  // 1. Native builds, started first so the host compiler runs while Clang parses.
  std::vector<const ProgramSpec*> ptrs;
  for (const ProgramSpec& p : programs) ptrs.push_back(&p);
  const std::string batchPath = work + "/batch.cpp";
  const std::string batchSource = nativeBatchSource(ptrs);
  { std::ofstream(batchPath) << batchSource; }
  PendingCompile o0, o2;
  if (options.nativeO0) o0 = startNativeCompile(batchPath, NativeBuild{"-O0", options.ubsan}, options.includeDir);
  if (options.nativeO2) o2 = startNativeCompile(batchPath, NativeBuild{"-O2", false}, options.includeDir);

  // 2. Translation: the whole batch at once; one program at a time when that fails.
  std::map<std::string, Translated> byProgram;
  if (options.interpreter || options.nvrtc || options.compiled) {
    std::string batch = kProgramIncludes;
    for (const ProgramSpec& p : programs) batch += p.functions;
    TranslateResult r = translateSource(batch, "difftest_batch.cpp", translateOptions(options));
    if (r.ok()) {
      Translated t{r.module, options.interpreter || options.compiled ? interp::Program::compile(r.module) : nullptr};
      for (const ProgramSpec& p : programs) byProgram[p.name] = t;
    } else {
      log("batch translation failed; translating program by program");
      for (const ProgramSpec& p : programs) {
        TranslateResult one = translateSource(p.source(), p.name + ".cpp", translateOptions(options));
        if (!one.ok()) {
          report.findings.push_back({FindingKind::Translate, p.name, -1, one.formatDiagnostics().substr(0, 4000)});
          continue;
        }
        byProgram[p.name] = Translated{one.module, options.interpreter || options.compiled
                                                       ? interp::Program::compile(one.module)
                                                       : nullptr};
      }
    }
  }

  // 3. NVRTC: every distinct module, as an sm_90 cubin with contraction off.
  if (options.nvrtc) {
    std::string why;
    auto nvrtc = rt::Nvrtc::load(&why);
    if (!nvrtc) {
      report.counts.nvrtcSkipped = why.empty() ? "NVRTC not found" : why;
    } else {
      std::map<const Module*, std::vector<const ProgramSpec*>> modules;
      // The programs as NVRTC compiles them (ProgramSpec::deviceFunctions): translated again
      // when any differs from what the other legs ran.
      auto deviceSource = [](const ProgramSpec& p) {
        if (p.deviceFunctions.empty()) return p.source();
        ProgramSpec device;
        device.functions = p.deviceFunctions;
        return device.source();
      };
      std::map<std::string, std::shared_ptr<Module>> deviceModules;
      bool separate = false;
      for (const ProgramSpec& p : programs) separate |= !p.deviceFunctions.empty();
      if (separate) {
        std::string batch = kProgramIncludes;
        for (const ProgramSpec& p : programs) batch += p.deviceFunctions.empty() ? p.functions : p.deviceFunctions;
        TranslateResult r = translateSource(batch, "difftest_device_batch.cpp", translateOptions(options));
        for (const ProgramSpec& p : programs) {
          if (r.ok()) {
            deviceModules[p.name] = r.module;
            continue;
          }
          TranslateResult one = translateSource(deviceSource(p), p.name + ".cpp", translateOptions(options));
          if (one.ok()) deviceModules[p.name] = one.module;
          else report.findings.push_back({FindingKind::Translate, p.name, -1, one.formatDiagnostics().substr(0, 4000)});
        }
      } else {
        for (const auto& [name, t] : byProgram) deviceModules[name] = t.module;
      }
      for (const ProgramSpec& p : programs)
        if (auto it = deviceModules.find(p.name); it != deviceModules.end()) modules[it->second.get()].push_back(&p);
      for (auto& [module, users] : modules) {
        rt::CompileOutput out = nvrtc->compile(module->cudaSource, cudaFileName(*module), 90, true, {"--fmad=false"});
        if (out.ok) {
          ++report.counts.nvrtcModules;
          report.counts.nvrtcKernels += static_cast<unsigned>(module->kernels().size());
          countPlans(report.counts, *module);
          continue;
        }
        // Find the programs at fault: each on its own.
        for (const ProgramSpec* p : users) {
          TranslateResult one = translateSource(deviceSource(*p), p->name + ".cpp", translateOptions(options));
          if (!one.ok()) continue;
          rt::CompileOutput single = nvrtc->compile(one.module->cudaSource, cudaFileName(*one.module), 90, true,
                                                    {"--fmad=false"});
          if (single.ok) {
            ++report.counts.nvrtcModules;
            report.counts.nvrtcKernels += static_cast<unsigned>(one.module->kernels().size());
            countPlans(report.counts, *one.module);
          } else {
            report.findings.push_back({FindingKind::Nvrtc, p->name, -1, single.log.substr(0, 4000)});
          }
        }
      }
    }
  }

  // 4. Native libraries.
  std::unique_ptr<NativeLibrary> lib0, lib2;
  std::string err;
  if (options.nativeO0 && !(lib0 = finishNativeCompile(o0, &err)))
    report.findings.push_back({FindingKind::Native, "batch", -1, "-O0: " + err});
  if (options.nativeO2 && !(lib2 = finishNativeCompile(o2, &err)))
    report.findings.push_back({FindingKind::Native, "batch", -1, "-O2: " + err});

  // 5. Every program, every argument set, every leg. The native reference of every program the
  // interpreter agreed with is kept for the planted bugs (6).
  std::map<std::string, std::vector<Outcome>> agreed;
  for (const ProgramSpec& p : programs) {
    NativeEntry e0 = lib0 ? lib0->entry(p.name) : nullptr;
    NativeEntry e2 = lib2 ? lib2->entry(p.name) : nullptr;
    const Translated* t = nullptr;
    const Function* fn = nullptr;
    if (auto it = byProgram.find(p.name); options.interpreter && it != byProgram.end() && it->second.program) {
      t = &it->second;
      fn = t->module->find(p.kernel);
      if (!fn)
        report.findings.push_back(
            {FindingKind::Translate, p.name, -1, "kernel " + p.kernel + " missing from the module"});
    }
    report.counts.nativeO0 += e0 != nullptr;
    report.counts.nativeO2 += e2 != nullptr;
    report.counts.interpreted += fn != nullptr;
    std::vector<Outcome> references;  // one per argument set that ran natively
    for (std::size_t s = 0; s < p.argSets.size(); ++s) {
      const ArgSet& a = p.argSets[s];
      const int set = static_cast<int>(s);
      Outcome n0, n2, in;
      ++report.counts.calls;
      if (e0) n0 = runNative(e0, p, a);
      if (e0 && options.ubsan) {
        // Undefined behaviour stopped the -O0 leg: the other legs have nothing to agree with.
        if (const std::string ub = lib0->undefinedBehaviour(); !ub.empty()) {
          report.findings.push_back({FindingKind::UndefinedBehaviour, p.name, set,
                                     withSourceLine(ub, batchSource) + "\n" + describeArgs(p, a)});
          continue;
        }
      }
      if (e2) n2 = runNative(e2, p, a);
      if (fn) in = runInterpreter(*t->program, *fn, p, a);
      if (n0.ran || n2.ran) references.push_back(n0.ran ? n0 : n2);
      if (n0.ran && n2.ran) {
        if (std::string d = compare(p, n0, "-O0", n2, "-O2"); !d.empty())
          report.findings.push_back({FindingKind::NativeLevels, p.name, set, d + " " + describeArgs(p, a)});
      }
      if (fn && !in.ran) {
        report.findings.push_back({FindingKind::InterpreterError, p.name, set, in.error + " " + describeArgs(p, a)});
        continue;
      }
      const Outcome& reference = n0.ran ? n0 : n2;
      if (fn && reference.ran) {
        if (std::string d = compare(p, reference, n0.ran ? "native -O0" : "native -O2", in, "interpreter",
                                    n0.ran ? nanRule(options.interpreterNaNs, in) : NaNBits::Any);
            !d.empty())
          report.findings.push_back({FindingKind::Interpreter, p.name, set, d + " " + describeArgs(p, a)});
        else if (!options.plantedBugs.empty()) agreed[p.name].push_back(reference);
      }
    }
    if (auto it = agreed.find(p.name); it != agreed.end() && it->second.size() != p.argSets.size()) agreed.erase(it);
    // Whether the program's outputs depend on its arguments at all: some two sets differ.
    for (std::size_t s = 1; s < references.size(); ++s)
      if (!compare(p, references[0], "", references[s], "").empty()) {
        ++report.counts.argDependent;
        break;
      }
  }

  std::set<std::string> compiledAgreed;
  std::function<NativeEntry(const std::string&)> timeAgainst;
  if (options.timing && lib2) timeAgainst = [&](const std::string& name) { return lib2->entry(name); };
  if (options.compiled) compiledAgreed = runCompiledLegs(programs, byProgram, report, timeAgainst);

  // 6. The planted bugs: the interpreter leg again, compiled with each, against the native results.
  for (const interp::PlantedBug bug : options.plantedBugs) {
    PlantedBugReport planted;
    planted.bug = bug;
    std::map<const Module*, std::shared_ptr<const interp::Program>> buggy;
    for (const ProgramSpec& p : programs) {
      auto reference = agreed.find(p.name);
      auto translated = byProgram.find(p.name);
      if (reference == agreed.end() || translated == byProgram.end()) continue;
      const Function* fn = translated->second.module->find(p.kernel);
      if (!fn) continue;
      std::shared_ptr<const interp::Program>& program = buggy[translated->second.module.get()];
      if (!program) {
        interp::Options io;
        io.plantedBug = bug;
        program = interp::Program::compile(translated->second.module, io);
      }
      for (std::size_t s = 0; s < p.argSets.size(); ++s) {
        const Outcome in = runInterpreter(*program, *fn, p, p.argSets[s]);
        std::string d = in.ran ? compare(p, reference->second[s], "native", in, "interpreter",
                                         options.nativeO0 ? nanRule(options.interpreterNaNs, in) : NaNBits::Any)
                               : in.error;
        if (d.empty()) continue;
        if (planted.caught++ == 0) {
          planted.firstProgram = p.name;
          planted.firstDetail = d + " " + describeArgs(p, p.argSets[s]);
        }
        break;
      }
    }
    report.planted.push_back(std::move(planted));
  }

  if (options.compiled) runCompiledPlantedBugs(programs, byProgram, compiledAgreed, options, report);

  if (!options.keepFiles && options.workDir.empty()) llvm::sys::fs::remove_directories(work);
  report.counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace culift::rel
