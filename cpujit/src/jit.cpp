// The JIT: each kernel lowered into an IR module of its own (a kernel that does not lower is left
// out with its reason), optimized by LLVM's -O2 pipeline for the host CPU (no fast-math flags, no
// contraction: FPOpFusion::Strict), and compiled by one ORC LLJIT per program.
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include "culift/ast/stack.hpp"
#include "culift/ast/verify.hpp"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "lower.hpp"

extern "C" {
void culift_reassociation_end_chunk_f32(float*, float*, std::int64_t);
void culift_reassociation_end_chunk_f64(double*, double*, std::int64_t);
float culift_reassociation_total_f32(float*, float*);
double culift_reassociation_total_f64(double*, double*);
float culift_reassociation_single_chunk_f32(float*);
double culift_reassociation_single_chunk_f64(double*);
}

namespace culift::cpujit {

using Clock = std::chrono::steady_clock;
// The tile of a 2-D kernel in lanes: rows x columns neighbouring outputs side by side.
constexpr unsigned kTileRows = 4;
constexpr unsigned kTileColumns = 4;

namespace {

bool initializeTarget(std::string* whyNot) {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    if (llvm::InitializeNativeTarget() || llvm::InitializeNativeTargetAsmPrinter())
      failure = "LLVM has no target for this host (" + llvm::sys::getProcessTriple() + ")";
  });
  if (!failure.empty() && whyNot) *whyNot = failure;
  return failure.empty();
}

template <typename T> T orThrow(llvm::Expected<T> v, const char* what) {
  if (!v) throw std::runtime_error(std::string(what) + ": " + llvm::toString(v.takeError()));
  return std::move(*v);
}
void orThrow(llvm::Error e, const char* what) {
  if (e) throw std::runtime_error(std::string(what) + ": " + llvm::toString(std::move(e)));
}

llvm::orc::JITTargetMachineBuilder hostMachine() {
  auto jtmb = orThrow(llvm::orc::JITTargetMachineBuilder::detectHost(), "detecting the host CPU");
  jtmb.getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict;  // a*b+c stays two roundings
  jtmb.setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
  return jtmb;
}

// `slp`: SLP vectorization. Off for a kernel whose outputs run in lanes: it would pack the lanes'
// strided loads into gathers, which are slower than the lanes' scalar loads.
void optimize(llvm::Module& m, llvm::TargetMachine& tm, bool slp) {
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    f.addFnAttr("target-cpu", tm.getTargetCPU());
    f.addFnAttr("target-features", tm.getTargetFeatureString());
  }
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = slp;
  llvm::PassBuilder pb(&tm, tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(m, mam);
}

std::string located(const detail::Unsupported& u) {
  std::string where;
  if (u.range.begin.valid()) where = "line " + std::to_string(u.range.begin.line) + ": ";
  return where + u.reason + " is not compiled yet";
}

}  // namespace

std::uint64_t LaunchArgs::outputs() const {
  // Every axis past the kernel's rank is 1.
  return static_cast<std::uint64_t>(extent[0]) * static_cast<std::uint64_t>(extent[1]) *
         static_cast<std::uint64_t>(extent[2]);
}

Kernel::Kernel(const Function* fn, Entry asWritten, Entry reassociated, std::vector<Diagnostic> sites, unsigned lanes,
               std::string whyOneLane)
    : fn_(fn),
      asWritten_(asWritten),
      reassociated_(reassociated),
      sites_(std::move(sites)),
      lanes_(lanes),
      whyOneLane_(std::move(whyOneLane)) {}

std::optional<RunError> Kernel::run(const LaunchArgs& args, std::uint64_t first, std::uint64_t last,
                                    bool loopAsWritten) const {
  if (first >= last) return std::nullopt;
  if (args.params.size() != fn_->signature.params.size() || args.lengths.size() != args.params.size())
    throw std::invalid_argument("cpujit: '" + fn_->name + "' takes " + std::to_string(fn_->signature.params.size()) +
                                " kernel arguments, got " + std::to_string(args.params.size()));
  const Entry entry = reassociated_ && !loopAsWritten ? reassociated_ : asWritten_;
  std::uint32_t site = 0;
  if (entry == asWritten_ && lanes_ > 1 && runBlocked(args, first, last)) return std::nullopt;
  const std::uint64_t failed = entry(args.params.data(), args.lengths.data(), args.extent, first, last, &site);
  if (failed == ~0ull) return std::nullopt;
  RunError r;
  r.output = failed;
  if (site < sites_.size()) r.diagnostic = sites_[site];
  return r;
}

// Outputs of a kernel in lanes (pure, so any order computes the same values) over whole rows run
// in column blocks: every row's first block, then every row's second, and so on, so that what
// the outputs of a block read in common (the rows of x a GramDot block reads) stays in cache
// across the rows. A 2-D kernel with a tile entry runs each block in tiles of neighbouring rows
// and columns. False where the range does not run so (too few rows, or the result array
// overlaps an array the kernel reads, so that C order matters), or where an output failed: the
// caller then runs the range in C order, which finds the first failing output.
bool Kernel::runBlocked(const LaunchArgs& args, std::uint64_t first, std::uint64_t last) const {
  constexpr std::uint64_t kBlock = 64;  // outputs of a row per block
  const unsigned rank = fn_->mode == IndexMode::ElementWise ? 1 : culift::rank(fn_->mode);
  if (rank < 2) return false;
  const std::uint64_t inner = static_cast<std::uint64_t>(std::max<std::int64_t>(1, args.extent[rank - 1]));
  const std::uint64_t rowFirst = (first + inner - 1) / inner;
  const std::uint64_t rowLast = last / inner;
  const bool tiles = tile_ && inner >= tileColumns_ && rowLast >= rowFirst + tileRows_;
  if (!tiles && (inner <= kBlock || rowLast < rowFirst + 2)) return false;
  // The result array's bytes against every array's the kernel reads.
  const auto& params = fn_->signature.params;
  const std::size_t outK = params.size() - rank - 1;
  auto bytes = [&](std::size_t k) {
    const KernelParam& kp = params[k];
    const auto begin = reinterpret_cast<std::uintptr_t>(args.params[k]);
    return std::pair{begin, begin + args.lengths[k] * (kp.record ? kp.record->size : byteSize(kp.type.scalar))};
  };
  const auto [outBegin, outEnd] = bytes(outK);
  for (std::size_t k = 0; k < params.size(); ++k) {
    const ParamRole r = params[k].role;
    if (r != ParamRole::ReadOnlyArray && r != ParamRole::WritableArray && r != ParamRole::PerElementScalar) continue;
    const auto [begin, end] = bytes(k);
    if (outBegin < end && begin < outEnd) return false;
  }
  std::uint32_t site = 0;
  auto run = [&](std::uint64_t a, std::uint64_t b) {
    return a >= b || asWritten_(args.params.data(), args.lengths.data(), args.extent, a, b, &site) == ~0ull;
  };
  if (!run(first, rowFirst * inner)) return false;
  for (std::uint64_t column = 0; column < inner; column += kBlock) {
    const std::uint64_t end = std::min(column + kBlock, inner);
    std::uint64_t row = rowFirst;
    if (tiles) {
      const std::uint64_t tiled = column + (end - column) / tileColumns_ * tileColumns_;
      for (; row + tileRows_ <= rowLast; row += tileRows_) {
        for (std::uint64_t c = column; c < tiled; c += tileColumns_)
          if (tile_(args.params.data(), args.lengths.data(), args.extent, row, c, &site) != 0) return false;
        for (std::uint64_t r = row; r < row + tileRows_; ++r)
          if (!run(r * inner + tiled, r * inner + end)) return false;
      }
    }
    for (; row < rowLast; ++row)
      if (!run(row * inner + column, row * inner + end)) return false;
  }
  return run(rowLast * inner, last);
}

struct Program::Impl {
  std::shared_ptr<const Module> module;
  Options options;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::map<const Function*, Kernel> kernels;
  std::map<const Function*, std::string> whyNot;
  std::map<const Function*, std::pair<unsigned, std::string>> lanes;  // per kernel: lanes, why one
  std::set<const Function*> tiled;                                    // kernels with a tile entry
  double milliseconds = 0;

  // Lowers one kernel into its own IR module; null plus the reason when it does not lower.
  std::unique_ptr<llvm::Module> lower(llvm::LLVMContext& ctx, const Function& fn, std::size_t index,
                                      std::vector<Diagnostic>& sites) {
    detail::ModuleLowerer m(ctx, *module, options, "culift_kernel_" + std::to_string(index));
    std::string whyOne = "Options::lanes is 1";
    const unsigned n = options.lanes > 1 && detail::lanesFit(*module, fn, 1, &whyOne) ? options.lanes : 1;
    lanes[&fn] = {n, n > 1 ? std::string() : whyOne};
    const bool tile = n > 1 && fn.mode == IndexMode::Grid2D && detail::lanesFit(*module, fn, 2);
    if (tile) tiled.insert(&fn);
    try {
      m.defineEntry(fn, "run_" + std::to_string(index), false, n);
      if (tile) m.defineTile(fn, "tile_" + std::to_string(index), kTileRows, kTileColumns);
      if (!fn.reassociatedSums.empty()) m.defineEntry(fn, "run_reassociated_" + std::to_string(index), true, 1);
    } catch (const detail::Unsupported& u) {
      whyNot[&fn] = located(u);
      return nullptr;
    }
    std::string broken;
    llvm::raw_string_ostream os(broken);
    if (llvm::verifyModule(m.llvmModule(), &os)) {
      whyNot[&fn] = "the lowered IR is malformed (a culift bug): " + os.str();
      return nullptr;
    }
    sites = m.takeSites();
    return m.take();
  }
};

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Program::~Program() = default;

std::shared_ptr<const Program> Program::compile(std::shared_ptr<const Module> module, Options options) {
  std::string why;
  if (!module) throw std::invalid_argument("cpujit: no module to compile");
  if (options.lanes == 0 || options.lanes > 64)
    throw std::invalid_argument("cpujit: Options::lanes is " + std::to_string(options.lanes) + "; it takes 1 to 64");
  if (!initializeTarget(&why)) throw std::runtime_error(why);
  const auto start = Clock::now();
  auto impl = std::make_unique<Impl>();
  impl->module = std::move(module);
  impl->options = options;
  if (const auto violations = ast::verify(*impl->module); !violations.empty())
    throw std::invalid_argument("cpujit: the module breaks culift's AST rules:\n" + ast::format(violations));
  auto jtmb = hostMachine();
  auto tm = orThrow(jtmb.createTargetMachine(), "creating the host's target machine");
  impl->jit = orThrow(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(hostMachine()).create(), "creating the JIT");
  llvm::orc::JITDylib& lib = impl->jit->getMainJITDylib();
  const llvm::DataLayout layout = impl->jit->getDataLayout();
  // libm and the reassociated loops' helpers.
  lib.addGenerator(orThrow(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(layout.getGlobalPrefix()),
                           "opening the process's symbols"));
  llvm::orc::SymbolMap helpers;
  llvm::orc::LLJIT& jit = *impl->jit;
  auto mangle = [&](const char* name) { return jit.mangleAndIntern(name); };
  auto define = [&](const char* name, auto* fn) {
    helpers[mangle(name)] = llvm::JITEvaluatedSymbol(llvm::pointerToJITTargetAddress(fn),
                                                     llvm::JITSymbolFlags::Exported);
  };
  define("culift_reassociation_end_chunk_f32", &culift_reassociation_end_chunk_f32);
  define("culift_reassociation_end_chunk_f64", &culift_reassociation_end_chunk_f64);
  define("culift_reassociation_total_f32", &culift_reassociation_total_f32);
  define("culift_reassociation_total_f64", &culift_reassociation_total_f64);
  define("culift_reassociation_single_chunk_f32", &culift_reassociation_single_chunk_f32);
  define("culift_reassociation_single_chunk_f64", &culift_reassociation_single_chunk_f64);
  orThrow(lib.define(llvm::orc::absoluteSymbols(std::move(helpers))), "defining the JIT's helpers");

  const auto& functions = impl->module->functions;
  std::map<std::size_t, std::vector<Diagnostic>> sitesOf;
  // Lowering recurses once per nesting level of the AST, as the interpreter's compiler does.
  runOnCuliftStack([&] {
    for (std::size_t k = 0; k < functions.size(); ++k) {
      if (!functions[k].isKernel()) continue;
      auto ctx = std::make_unique<llvm::LLVMContext>();
      std::vector<Diagnostic> sites;
      std::unique_ptr<llvm::Module> m = impl->lower(*ctx, functions[k], k, sites);
      if (!m) continue;
      m->setDataLayout(layout);
      m->setTargetTriple(impl->jit->getTargetTriple().str());
      optimize(*m, *tm, impl->lanes[&functions[k]].first == 1);
      orThrow(impl->jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))), "adding a kernel");
      sitesOf[k] = std::move(sites);
    }
  });
  for (auto& [k, sites] : sitesOf) {
    const Function& fn = functions[k];
    auto address = [&](const std::string& name) {
      return orThrow(impl->jit->lookup(name), "compiling a kernel").toPtr<Kernel::Entry>();
    };
    Kernel::Entry written = address("run_" + std::to_string(k));
    Kernel::Entry reassociated = fn.reassociatedSums.empty() ? nullptr
                                                             : address("run_reassociated_" + std::to_string(k));
    auto& [lanes, whyOneLane] = impl->lanes[&fn];
    Kernel kernel(&fn, written, reassociated, std::move(sites), lanes, std::move(whyOneLane));
    if (impl->tiled.count(&fn)) kernel.setTile(address("tile_" + std::to_string(k)), kTileRows, kTileColumns);
    impl->kernels.emplace(&fn, std::move(kernel));
  }
  impl->milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return std::shared_ptr<const Program>(new Program(std::move(impl)));
}

const Module& Program::module() const { return *impl_->module; }
const Options& Program::options() const { return impl_->options; }
double Program::compileMilliseconds() const { return impl_->milliseconds; }

const Kernel* Program::kernel(const Function& fn) const {
  auto it = impl_->kernels.find(&fn);
  return it == impl_->kernels.end() ? nullptr : &it->second;
}

std::string Program::whyNot(const Function& fn) const {
  if (kernel(fn)) return {};
  if (!fn.isKernel()) return "'" + fn.name + "' is a device-only function";
  auto it = impl_->whyNot.find(&fn);
  return it == impl_->whyNot.end() ? "'" + fn.name + "' is not a kernel of this program's module" : it->second;
}

bool available(std::string* whyNot) {
  if (!initializeTarget(whyNot)) return false;
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    if (whyNot) *whyNot = llvm::toString(jtmb.takeError());
    return false;
  }
  return true;
}

std::string hostDescription() { return llvm::sys::getProcessTriple() + ", CPU " + llvm::sys::getHostCPUName().str(); }

}  // namespace culift::cpujit
