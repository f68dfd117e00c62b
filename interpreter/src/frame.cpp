// Slot assignment and frames: the layout of a function's variables, and one invocation.
#include <functional>

#include "compiler.hpp"

namespace culift::interp::exec {
namespace {

// Finds each local's declaration: scalars declared without an initializer have their reads
// checked; arrays declared without one track which elements were written.
void scanDecls(const Stmt* s, std::vector<const Stmt*>& declOf) {
  if (!s) return;
  if (s->kind == StmtKind::Decl && s->var < declOf.size()) declOf[s->var] = s;
  scanDecls(s->init.get(), declOf);
  scanDecls(s->then.get(), declOf);
  scanDecls(s->otherwise.get(), declOf);
  scanDecls(s->body.get(), declOf);
  for (const StmtPtr& x : s->stmts) scanDecls(x.get(), declOf);
}

}  // namespace

Compiler::Compiler(ProgramData& program, CompiledFunction& fn) : program_(program), fn_(fn) {
  const Function& f = *fn.fn;
  const std::size_t n = f.vars.size();
  checked_.assign(n, false);
  std::vector<const Stmt*> declOf(n, nullptr);
  scanDecls(f.body.get(), declOf);
  fn.slotOf.assign(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const Var& var = f.vars[v];
    const bool param = v < f.numParams;
    if (var.type.scalar == Scalar::Void) malformed(var.range, "variable '" + var.name + "' of type void");
    if (var.isReference()) {
      if (!var.type.isValue()) malformed(var.range, "reference '" + var.name + "' to an array");
      if (!param && (!declOf[v] || !declOf[v]->expr)) malformed(var.range, "reference '" + var.name + "' not bound");
      fn.slotOf[v] = fn.numRefs++;
    } else if (var.type.isValue()) {
      fn.slotOf[v] = fn.numSlots++;
      checked_[v] = !param && (!declOf[v] || !declOf[v]->expr);
      if (checked_[v]) fn.checkedSlots.push_back(fn.slotOf[v]);
    } else {
      if (param != var.type.isPointer()) malformed(var.range, "pointer '" + var.name + "' that is not a parameter");
      fn.slotOf[v] = fn.numArrays++;
      if (!param) {
        LocalArray a;
        a.array = fn.slotOf[v];
        a.extent = var.type.extent;
        a.writable = !var.type.constElements;
        const std::size_t size = byteSize(var.type.scalar);
        fn.arrayBytes = (fn.arrayBytes + 7) & ~std::size_t{7};
        a.offset = fn.arrayBytes;
        fn.arrayBytes += size * a.extent;
        const bool initialized = declOf[v] && (declOf[v]->arrayInitialized || !declOf[v]->inits.empty());
        a.initOffset = initialized ? SIZE_MAX : fn.arrayInitBytes;
        if (!initialized) fn.arrayInitBytes += a.extent;
        fn.locals.push_back(a);
      }
    }
  }
}

void Compiler::compileBody() {
  const Function& f = *fn_.fn;
  if (!f.body) malformed(f.range, "function '" + f.name + "' has no body");
  fn_.body = stmt(*f.body);
}

void Compiler::malformed(const SourceRange& where, const std::string& what) const {
  fail(where, "cannot interpret '" + fn_.fn->name + "': " + what,
       "the typed AST breaks an invariant of constructs.def");
}

Raw invoke(const CompiledFunction& cf, Context& ctx, const Raw* scalarArgs, const ArrayView* arrayArgs,
           const SourceRange* callSite, const Place* refArgs) {
  constexpr unsigned kMaxDepth = 200;
  if (ctx.depth >= kMaxDepth)
    fail(callSite ? *callSite : cf.fn->range,
         "call depth of " + std::to_string(kMaxDepth) + " exceeded calling '" + cf.fn->name + "'",
         "recursion is not supported on the device");
  if (++ctx.steps > ctx.budget)
    fail(callSite ? *callSite : cf.fn->range, "step budget of " + std::to_string(ctx.budget) + " exceeded");

  // Frame layout: slots, array views, references, written-flags, local array storage, element
  // flags.
  const std::size_t slotBytes = cf.numSlots * sizeof(Raw);
  const std::size_t viewBytes = cf.numArrays * sizeof(ArrayView);
  const std::size_t refBytes = cf.numRefs * sizeof(Place);
  const std::size_t flagBytes = (cf.numSlots + 7) & ~std::size_t{7};
  const std::size_t total = slotBytes + viewBytes + refBytes + flagBytes + cf.arrayBytes + cf.arrayInitBytes + 16;
  alignas(16) std::byte inlineBuf[2048];
  std::unique_ptr<std::byte[]> heap;
  std::byte* buf = inlineBuf;
  if (total > sizeof(inlineBuf)) {
    heap = std::make_unique<std::byte[]>(total);
    buf = heap.get();
  }
  Frame f;
  f.slots = reinterpret_cast<Raw*>(buf);
  f.arrays = reinterpret_cast<ArrayView*>(buf + slotBytes);
  f.refs = reinterpret_cast<Place*>(buf + slotBytes + viewBytes);
  f.defined = reinterpret_cast<std::uint8_t*>(buf + slotBytes + viewBytes + refBytes);
  std::byte* arrayStore = buf + slotBytes + viewBytes + refBytes + flagBytes;
  std::uint8_t* initStore = reinterpret_cast<std::uint8_t*>(arrayStore + cf.arrayBytes);
  f.ctx = &ctx;
  f.fn = &cf;
  // Only checked slots are ever read through their flag; their declaration resets it, and this
  // covers locals a hand-built tree reads without declaring.
  for (std::uint32_t s : cf.checkedSlots) f.defined[s] = 0;

  const Function& fn = *cf.fn;
  for (unsigned p = 0; p < fn.numParams; ++p) {
    const std::uint32_t s = cf.slotOf[p];
    if (fn.vars[p].isReference()) {
      if (!refArgs) fail(fn.range, "'" + fn.name + "' takes a reference and is called without one");
      f.refs[s] = refArgs[p];
    } else if (fn.vars[p].type.isValue()) {
      f.slots[s] = scalarArgs[p];
      f.defined[s] = 1;
    } else {
      f.arrays[s] = arrayArgs[p];
    }
  }
  for (const LocalArray& a : cf.locals) {
    ArrayView& v = f.arrays[a.array];
    v.data = arrayStore + a.offset;
    v.size = a.extent;
    v.writable = a.writable;
    v.shadow = nullptr;
    v.init = a.initOffset == SIZE_MAX ? nullptr : initStore + a.initOffset;
    if (v.init) std::memset(v.init, 0, a.extent);
  }

  ++ctx.depth;
  struct DepthGuard {
    Context& c;
    const Function* caller;
    ~DepthGuard() {
      --c.depth;
      currentFunction = caller;
    }
  } guard{ctx, currentFunction};
  currentFunction = &fn;
  Flow r = cf.body->exec(f);
  if (r != Flow::Return && !fn.returnType.isVoid())
    fail(fn.range, "reached the end of non-void function '" + fn.name + "' without returning a value");
  return f.ret;
}

}  // namespace culift::interp::exec
