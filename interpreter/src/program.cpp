// Program: compile a module once; run single calls and whole launches.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>  // llvm/Support/thread.h uses std::exchange without including it

#include "compiler.hpp"
#include "culift/ast/stack.hpp"
#include "culift/ast/verify.hpp"
#include "llvm/Support/thread.h"
#include "ops.hpp"

namespace culift::interp {

struct Program::Impl {
  exec::ProgramData data;
};

namespace {

[[noreturn]] void failArgs(const Function& fn, std::string message) {
  exec::fail(fn.range, "wrong arguments to '" + fn.name + "': " + message);
}

std::string kindText(const Arg& a) {
  if (const Value* v = std::get_if<Value>(&a)) return "a " + std::string(spelling(v->type)) + " value";
  const ArrayRef& r = std::get<ArrayRef>(a);
  return std::string("an array of ") + std::string(spelling(r.element)) + (r.writable ? "" : " (read-only)");
}

exec::Raw rawOf(const Value& v) {
  return exec::dispatch(v.type, [&]<Scalar S>() { return exec::make(v.as<exec::Cpp<S>>()); });
}

exec::ArrayView viewOf(const ArrayRef& a) {
  exec::ArrayView v;
  v.data = static_cast<std::byte*>(a.data);
  v.size = a.size;
  v.writable = a.writable;
  return v;
}

std::string paramText(const Function& fn, unsigned p) {
  return "parameter " + std::to_string(p + 1) + " '" + fn.param(p).name + "' (" + toString(fn.param(p).type) + ")";
}

void checkScalar(const Function& fn, unsigned p, const Arg& a) {
  const Value* v = std::get_if<Value>(&a);
  if (!v || v->type != fn.param(p).type.scalar)
    failArgs(fn, paramText(fn, p) + " needs a " + std::string(spelling(fn.param(p).type.scalar)) + " value, got " +
                     kindText(a));
}

void checkArray(const Function& fn, unsigned p, const Arg& a, Scalar element, bool needWritable, std::uint64_t minSize,
                const std::string& what) {
  const ArrayRef* r = std::get_if<ArrayRef>(&a);
  if (!r || r->element != element)
    failArgs(fn, what + " needs an array of " + std::string(spelling(element)) + ", got " + kindText(a));
  if (needWritable && !r->writable) failArgs(fn, what + " is written: it needs a writable array");
  if (!r->data && r->size != 0) failArgs(fn, what + ": null array with a nonzero size");
  if (r->size < minSize)
    failArgs(fn, what + " has " + std::to_string(r->size) + " elements; the launch needs " + std::to_string(minSize));
  (void)p;
}

std::size_t indexOf(const exec::ProgramData& d, const Function& fn) {
  const auto& fs = d.module->functions;
  if (!fs.empty() && &fn >= fs.data() && &fn < fs.data() + fs.size()) return static_cast<std::size_t>(&fn - fs.data());
  for (std::size_t k = 0; k < fs.size(); ++k)
    if (fs[k].name == fn.name) return k;
  exec::failNoLoc("function '" + fn.name + "' is not part of this program's module");
}

// Whether every value of [0, n) fits in the index parameter's type.
bool indexFits(Scalar t, std::int64_t n) {
  if (n <= 0) return true;
  const std::int64_t last = n - 1;
  return exec::dispatch(t, [&]<Scalar S>() -> bool {
    using T = exec::Cpp<S>;
    if constexpr (exec::kInt<T>)
      return static_cast<std::uint64_t>(last) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    else return false;
  });
}

// Running a function recurses through its nodes. Functions that nest deeper than this many
// expression levels run on culift's stack (culift/ast/stack.hpp); the shallow rest, nearly
// every kernel, run on the caller's, with no thread to start per call.
constexpr unsigned kCallerStackLevels = 64;

bool needsCuliftStack(const exec::ProgramData& d, std::size_t fn) { return d.runDepth[fn] > kCallerStackLevels; }

exec::Raw indexValue(Scalar t, std::int64_t i) {
  return exec::dispatch(t, [&]<Scalar S>() -> exec::Raw {
    using T = exec::Cpp<S>;
    if constexpr (exec::kInt<T>) return exec::make(static_cast<T>(i));
    else return exec::Raw{};
  });
}

}  // namespace

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Program::~Program() {
  // The compiled nodes free their children recursively, as deep as they run.
  const std::vector<unsigned>& depths = impl_->data.runDepth;
  if (std::any_of(depths.begin(), depths.end(), [](unsigned d) { return d > kCallerStackLevels; }))
    runOnCuliftStack([&] { impl_.reset(); });
}

std::shared_ptr<const Program> Program::compile(std::shared_ptr<const Module> module, Options options) {
  if (!module) exec::failNoLoc("no module to compile");
  auto impl = std::make_unique<Impl>();
  exec::ProgramData& d = impl->data;
  d.module = std::move(module);
  d.options = options;
  if (d.options.stepBudget == 0) d.options.stepBudget = Options{}.stepBudget;
  d.functions.resize(d.module->functions.size());
  for (std::size_t k = 0; k < d.functions.size(); ++k) d.functions[k].fn = &d.module->functions[k];
  // The compiler recurses once per nesting level of the AST (up to the front end's limits).
  runOnCuliftStack([&] {
    // The compiler relies on the verifier's rules (constructs.def): a module breaking one is
    // refused here, with every violation, before any node is built.
    if (const std::vector<ast::Violation> violations = ast::verify(*d.module); !violations.empty())
      exec::fail(violations.front().range,
                 "cannot interpret the module: its typed AST breaks " + std::to_string(violations.size()) + " rule" +
                     (violations.size() == 1 ? "" : "s") + " of culift's AST:\n" + ast::format(violations),
                 "the module was built by hand or damaged: the front end and module files give well-formed trees");
    d.runDepth = exec::runDepths(*d.module);
    for (auto& cf : d.functions) {
      exec::Compiler c(d, cf);
      c.compileBody();
    }
  });
  return std::shared_ptr<const Program>(new Program(std::move(impl)));
}

const Module& Program::module() const { return *impl_->data.module; }

Value Program::call(const Function& fnRef, std::span<const Arg> args) const {
  const exec::ProgramData& d = impl_->data;
  const std::size_t index = indexOf(d, fnRef);
  const Function& fn = d.module->functions[index];
  if (args.size() != fn.numParams)
    failArgs(fn, "it takes " + std::to_string(fn.numParams) + " argument" + (fn.numParams == 1 ? "" : "s") + ", got " +
                     std::to_string(args.size()));
  std::vector<exec::Raw> scalars(fn.numParams);
  std::vector<exec::ArrayView> views(fn.numParams);
  // A reference parameter (a struct result's field, an output of a helper) takes an array of
  // one element: the place it refers to.
  std::vector<exec::Place> refs(fn.numParams, exec::Place{nullptr, nullptr});
  std::vector<std::uint8_t> defined(fn.numParams, 1);
  for (unsigned p = 0; p < fn.numParams; ++p) {
    const Type& t = fn.param(p).type;
    if (fn.param(p).isReference()) {
      checkArray(fn, p, args[p], t.scalar, fn.param(p).binding == Binding::Reference, 1,
                 paramText(fn, p) + " (a reference: an array of one element)");
      refs[p] = exec::Place{static_cast<std::byte*>(std::get<ArrayRef>(args[p]).data), &defined[p]};
    } else if (t.isValue()) {
      checkScalar(fn, p, args[p]);
      scalars[p] = rawOf(std::get<Value>(args[p]));
    } else {
      checkArray(fn, p, args[p], t.scalar, !t.constElements, 0, paramText(fn, p));
      views[p] = viewOf(std::get<ArrayRef>(args[p]));
    }
  }
  exec::Context ctx;
  ctx.budget = d.options.stepBudget;
  exec::Raw r;
  const auto run = [&] {
    r = exec::invoke(d.functions[index], ctx, scalars.data(), views.data(), nullptr, refs.data());
  };
  if (needsCuliftStack(d, index)) {
    // differentNaNsMet is per thread: what the call's own thread saw is the caller's.
    bool met = false;
    runOnCuliftStack([&] {
      resetDifferentNaNsMet();
      run();
      met = differentNaNsMet();
    });
    if (met) exec::noteNaNOperands(0, 1);
  } else {
    run();
  }
  Value out;
  out.type = fn.returnType.isVoid() ? Scalar::Void : fn.returnType.scalar;
  if (out.type != Scalar::Void)
    exec::dispatch(out.type, [&]<Scalar S>() { out = Value::of(exec::get<exec::Cpp<S>>(r)); });
  return out;
}

void Program::launch(const Function& fnRef, const Extent& extent, std::span<const Arg> kernelArgs,
                     bool loopAsWritten) const {
  const exec::ProgramData& d = impl_->data;
  const std::size_t index = indexOf(d, fnRef);
  const Function& fn = d.module->functions[index];
  if (!fn.isKernel()) failArgs(fn, "it is a device-only function and has no kernel to launch");
  const unsigned rank = culift::rank(fn.mode);
  if (extent.rank != rank)
    failArgs(fn, "a " + std::string(name(fn.mode)) + " kernel needs a rank-" + std::to_string(rank) +
                     " extent, got rank " + std::to_string(extent.rank));
  std::uint64_t total = 1;
  for (unsigned a = 0; a < rank; ++a) {
    if (extent.n[a] < 0)
      failArgs(fn, "negative extent " + std::to_string(extent.n[a]) + " on axis " + std::to_string(a));
    if (extent.n[a] != 0 && total > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(extent.n[a]))
      failArgs(fn, "the extent overflows 64 bits");
    total *= static_cast<std::uint64_t>(extent.n[a]);
  }

  // Bind the kernel arguments to the user's parameters.
  std::vector<exec::Raw> scalars(fn.numParams);
  std::vector<exec::ArrayView> views(fn.numParams);
  std::vector<std::pair<unsigned, exec::ArrayView>> elementInputs;  // user param, array
  std::optional<exec::ArrayView> out;
  std::size_t next = 0;
  for (const KernelParam& kp : fn.signature.params) {
    if (kp.role == ParamRole::Extent) continue;
    if (next >= kernelArgs.size())
      failArgs(fn, "the kernel " + fn.signature.toString() + " needs more arguments than the " +
                       std::to_string(kernelArgs.size()) + " given");
    const Arg& a = kernelArgs[next++];
    const std::string what = "kernel parameter '" + kp.name + "' (" + toString(kp.type) + ")";
    switch (kp.role) {
      case ParamRole::ReadOnlyArray:
      case ParamRole::WritableArray:
        checkArray(fn, kp.userParam, a, kp.type.scalar, kp.role == ParamRole::WritableArray, 0, what);
        views.at(kp.userParam) = viewOf(std::get<ArrayRef>(a));
        break;
      case ParamRole::Scalar:
        checkScalar(fn, kp.userParam, a);
        scalars.at(kp.userParam) = rawOf(std::get<Value>(a));
        break;
      case ParamRole::PerElementScalar:
        checkArray(fn, kp.userParam, a, kp.type.scalar, false, total, what);
        elementInputs.emplace_back(kp.userParam, viewOf(std::get<ArrayRef>(a)));
        break;
      case ParamRole::ResultArray:
        // A struct result: an array of the struct's scalars, `elements` per output.
        checkArray(fn, 0, a, fn.resultRecord ? fn.resultRecord->scalar : fn.returnType.scalar, true,
                   fn.resultRecord ? total * fn.resultRecord->elements() : total, what);
        out = viewOf(std::get<ArrayRef>(a));
        break;
      case ParamRole::Extent: break;
    }
  }
  if (next != kernelArgs.size())
    failArgs(fn, "the kernel " + fn.signature.toString() + " takes " + std::to_string(next) +
                     " arguments besides its extents, got " + std::to_string(kernelArgs.size()));
  if ((!fn.returnType.isVoid() || fn.resultRecord) && !out)
    failArgs(fn, "the kernel signature has no out array for the result");
  std::vector<int> indexParams = fn.indexParams;
  if (fn.mode == IndexMode::ElementWise) indexParams.clear();
  for (std::size_t a = 0; a < indexParams.size(); ++a) {
    const int p = indexParams[a];
    if (p < 0 || static_cast<unsigned>(p) >= fn.numParams || !fn.param(p).type.isValue())
      failArgs(fn, "index parameter of axis " + std::to_string(a) + " is not a scalar parameter");
    if (!indexFits(fn.param(p).type.scalar, extent.n[a]))
      failArgs(fn, "extent " + std::to_string(extent.n[a]) + " does not fit index parameter '" + fn.param(p).name +
                       "' of type " + std::string(spelling(fn.param(p).type.scalar)));
  }

  // A checked launch records every access to its writable arrays.
  std::vector<std::unique_ptr<exec::ConflictShadow>> shadows;
  if (d.options.checkConflicts) {
    for (const KernelParam& kp : fn.signature.params) {
      if (kp.role != ParamRole::WritableArray) continue;
      exec::ArrayView& v = views.at(kp.userParam);
      auto shadow = std::make_unique<exec::ConflictShadow>();
      shadow->writer = std::make_unique<std::atomic<std::uint64_t>[]>(v.size);
      shadow->reader = std::make_unique<std::atomic<std::uint64_t>[]>(v.size);
      shadow->name = kp.name;
      v.shadow = shadow.get();
      shadows.push_back(std::move(shadow));
    }
  }

  const exec::CompiledFunction& cf = d.functions[index];
  const std::int64_t cols = rank >= 2 ? extent.n[1] : 1;
  const unsigned outSize = fn.returnType.isVoid() ? 0 : byteSize(fn.returnType.scalar);
  const Scalar outType = fn.returnType.scalar;
  // A struct result's fields are the function's last parameters, references into out[e].
  const unsigned firstResult = fn.firstResultParam();
  const std::size_t recordBytes = fn.resultRecord ? fn.resultRecord->size : 0;

  // Element e of the launch, in C order: (i, j) at i * cols + j; (i, j, k) at (i * nj + j) * nk + k.
  const std::int64_t depth = rank == 3 ? extent.n[2] : 1;
  auto indicesOf = [&](std::int64_t le, std::int64_t ijk[3]) {
    if (rank == 1) {
      ijk[0] = le;
    } else if (rank == 2) {
      ijk[0] = le / cols;
      ijk[1] = le % cols;
    } else {
      ijk[2] = le % depth;
      ijk[1] = (le / depth) % cols;
      ijk[0] = le / (depth * cols);
    }
  };
  auto elementText = [&](std::uint64_t e) -> std::string {
    const auto le = static_cast<std::int64_t>(e);
    if (fn.mode == IndexMode::ElementWise || rank == 1) return std::to_string(le);
    std::int64_t ijk[3] = {0, 0, 0};
    indicesOf(le, ijk);
    std::string t = "i = " + std::to_string(ijk[0]) + ", j = " + std::to_string(ijk[1]);
    if (rank == 3) t += ", k = " + std::to_string(ijk[2]);
    return t;
  };

  // Runs elements [begin, end); returns the first failing element's error, if any.
  auto runRange = [&](std::uint64_t begin, std::uint64_t end,
                      std::vector<exec::Raw>& s) -> std::optional<std::pair<std::uint64_t, Error>> {
    exec::Context ctx;
    ctx.budget = d.options.stepBudget;
    if (!loopAsWritten) ctx.reassociating = &cf;
    std::vector<exec::Place> refs(fn.numParams, exec::Place{nullptr, nullptr});
    std::vector<std::uint8_t> written(fn.numParams, 0);
    for (std::uint64_t e = begin; e < end; ++e) {
      try {
        const auto le = static_cast<std::int64_t>(e);
        if (!indexParams.empty()) {
          std::int64_t ijk[3] = {0, 0, 0};
          indicesOf(le, ijk);
          for (std::size_t a = 0; a < indexParams.size(); ++a)
            s[indexParams[a]] = indexValue(fn.param(indexParams[a]).type.scalar, ijk[a]);
        }
        for (const auto& [p, v] : elementInputs)
          s[p] = exec::loadAt(v.data + e * byteSize(fn.param(p).type.scalar), fn.param(p).type.scalar);
        ctx.steps = 0;
        ctx.element = e;
        if (fn.resultRecord) {
          for (unsigned p = firstResult; p < fn.numParams; ++p)
            refs[p] = exec::Place{out->data + e * recordBytes + fn.resultRecord->fields[p - firstResult].offset,
                                  &written[p]};
          exec::invoke(cf, ctx, s.data(), views.data(), nullptr, refs.data());
          continue;
        }
        exec::Raw r = exec::invoke(cf, ctx, s.data(), views.data(), nullptr);
        if (out) exec::storeAt(out->data + e * outSize, outType, r);
      } catch (Error& err) {
        Diagnostic diag = err.diagnostic();
        diag.message += " (launch element " + elementText(e) + ")";
        return std::make_pair(e, Error(std::move(diag)));
      }
    }
    return std::nullopt;
  };

  // The part launched: [lo, hi).
  const std::uint64_t lo = std::min(extent.first, total), hi = std::max(lo, std::min(extent.last, total));
  const std::uint64_t count = hi - lo;
  unsigned threads = d.options.threads ? d.options.threads : std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t chunk = std::max<std::uint64_t>(64, count / (std::uint64_t{threads} * 16) + 1);
  if (count <= chunk) threads = 1;
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, (count + chunk - 1) / chunk));
  const bool deep = needsCuliftStack(d, index);
  if (threads <= 1) {
    std::vector<exec::Raw> s = scalars;
    std::optional<std::pair<std::uint64_t, Error>> failure;
    const auto run = [&] { failure = runRange(lo, hi, s); };
    if (deep) runOnCuliftStack(run);
    else run();
    if (failure) throw std::move(failure->second);
    return;
  }

  // Chunks are handed out in increasing order; once an element fails, chunks after it are
  // skipped, and chunks before it still run, so the error reported is the first failing one.
  std::atomic<std::uint64_t> nextChunk{lo};
  std::atomic<std::uint64_t> firstFailure{std::numeric_limits<std::uint64_t>::max()};
  std::mutex m;
  std::optional<Error> error;
  auto worker = [&] {
    std::vector<exec::Raw> s = scalars;
    for (;;) {
      const std::uint64_t begin = nextChunk.fetch_add(chunk);
      if (begin >= hi || begin > firstFailure.load()) return;
      const std::uint64_t end = std::min(hi, begin + chunk);
      if (auto failure = runRange(begin, end, s)) {
        std::lock_guard<std::mutex> lock(m);
        if (failure->first < firstFailure.load()) {
          firstFailure = failure->first;
          error.emplace(std::move(failure->second));
        }
        return;
      }
    }
  };
  // Workers of a deep function get culift's stack size; others the system's default.
  const std::optional<unsigned> stackSize = deep ? std::optional<unsigned>(kCuliftStackSize) : std::nullopt;
  std::vector<llvm::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(stackSize, worker);
  for (llvm::thread& t : pool) t.join();
  if (error) throw std::move(*error);
}

}  // namespace culift::interp
