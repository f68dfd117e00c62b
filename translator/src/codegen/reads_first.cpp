#include "reads_first.hpp"

#include "ast_printer.hpp"

namespace culift::codegen {
namespace {

// Walks a qualifying body's expressions: counts nodes, refuses what writes or calls a lifted
// function, and collects the reads every call performs, in evaluation order.
class ReadFinder {
 public:
  explicit ReadFinder(const Function& fn) : fn_(fn) {}

  bool expr(const Expr& e, bool always) {
    if (++nodes_ > kReadsFirstNodes) return fail("more than " + std::to_string(kReadsFirstNodes) + " expression nodes");
    switch (e.kind) {
      case ExprKind::Assign:
      case ExprKind::CompoundAssign:
      case ExprKind::IncDec:
      case ExprKind::AtomicRmw: return fail("an expression writes");
      case ExprKind::Assert: return fail("an assert");
      case ExprKind::Call: return fail("a call of a lifted function");
      case ExprKind::Conditional:
        return expr(*e.operands[0], always) && expr(*e.operands[1], false) && expr(*e.operands[2], false);
      case ExprKind::Binary:
        if (e.binaryOp == BinaryOp::LogAnd || e.binaryOp == BinaryOp::LogOr)
          return expr(*e.operands[0], always) && expr(*e.operands[1], false);
        break;
      case ExprKind::Subscript:
        if (!expr(*e.operands[1], always)) return false;
        if (always && isParam(*e.operands[0]) && fromParameters(*e.operands[1])) reads_.push_back(&e);
        return true;
      default: break;
    }
    for (const ExprPtr& o : e.operands)
      if (o && !expr(*o, always)) return false;
    return true;
  }

  bool fail(std::string why) {
    why_ = std::move(why);
    return false;
  }

  std::vector<const Expr*> reads_;
  std::string why_;

 private:
  bool isParam(const Expr& e) const { return e.kind == ExprKind::VarRef && e.var < fn_.numParams; }
  // An index the wrapper can compute before the body's statements: parameters, literals and
  // arithmetic on them (no local, no read).
  bool fromParameters(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::IntLiteral:
      case ExprKind::BoolLiteral: return true;
      case ExprKind::VarRef: return e.var < fn_.numParams && fn_.vars[e.var].type.isValue();
      case ExprKind::Unary:
      case ExprKind::Binary:
      case ExprKind::Cast:
        for (const ExprPtr& o : e.operands)
          if (!o || !fromParameters(*o)) return false;
        return true;
      default: return false;
    }
  }

  const Function& fn_;
  unsigned nodes_ = 0;
};

// Whether `e` refers to `v` anywhere.
bool mentionsVar(const Expr& e, VarId v) {
  bool found = false;
  visitExprs(e, [&](const Expr& x) {
    if (x.kind == ExprKind::VarRef && x.var == v) found = true;
    return !found;
  });
  return found;
}

}  // namespace

std::optional<std::vector<const Expr*>> readsIssuedFirstIn(const Function& fn, const std::vector<const Stmt*>& stmts,
                                                           std::string* why) {
  auto no = [&](const std::string& reason) -> std::optional<std::vector<const Expr*>> {
    if (why) *why = reason;
    return std::nullopt;
  };
  ReadFinder finder(fn);
  for (size_t k = 0; k < stmts.size(); ++k) {
    const Stmt& s = *stmts[k];
    const bool last = k + 1 == stmts.size();
    if (s.kind == StmtKind::Null) continue;
    if (s.kind == StmtKind::Decl) {
      if (last || !s.expr || !s.inits.empty() || !fn.vars[s.var].type.isValue())
        return no("a declaration that is not a scalar with its initializer");
      if (!finder.expr(*s.expr, true)) return no(finder.why_);
      continue;
    }
    if (s.kind != StmtKind::Return || !last || !s.expr) return no("a statement other than declarations and one return");
    if (!finder.expr(*s.expr, true)) return no(finder.why_);
  }
  if (finder.reads_.empty()) return no("no read every call performs");
  return std::move(finder.reads_);
}

std::optional<std::vector<const Expr*>> readsIssuedFirst(const Function& fn, std::string* why) {
  auto no = [&](const std::string& reason) -> std::optional<std::vector<const Expr*>> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (fn.mode != IndexMode::Grid1D && fn.mode != IndexMode::Grid2D && fn.mode != IndexMode::Grid3D)
    return no("not a 1-, 2- or 3-D kernel");
  if (!fn.isKernel() || !fn.body || fn.body->kind != StmtKind::Block) return no("no kernel body");
  if (fn.returnType.isVoid() || !fn.returnType.isValue() || fn.resultRecord) return no("no scalar result");
  for (const KernelParam& p : fn.signature.params)
    if (p.record) return no("an array of structs");
  std::vector<const Stmt*> stmts;
  for (const StmtPtr& s : fn.body->stmts) stmts.push_back(s.get());
  return readsIssuedFirstIn(fn, stmts, why);
}

void emitReadsFirstStep(const Module& module, const Function& fn, const ReadsFirstStep& step, CodeWriter& out) {
  const std::vector<const Expr*>& reads = *step.reads;
  const IndexNames& loopVar = step.loopVar;
  const unsigned inner = step.inner;
  AstPrinter printer(module, fn, Flavor::Cuda, out);
  // The indices of output u, and the rewrites that print the body for it: each parameter as the
  // wrapper's call passes it, where that is not the name the statements print (a cast in
  // parentheses, so that it stays one operand).
  auto indicesOf = [&](unsigned u) {
    IndexNames v = loopVar;
    v[inner] = loopVar[inner] + "_" + std::to_string(u);
    return v;
  };
  auto rewritesOf = [&](unsigned u) {
    PrintRewrites r;
    const std::vector<std::string> args = step.argumentsAt(indicesOf(u));
    for (unsigned p = 0; p < fn.numParams && p < args.size(); ++p)
      if (args[p] != printer.varName(p)) r.vars[p] = args[p].front() == '(' ? "(" + args[p] + ")" : args[p];
    return r;
  };
  auto temp = [](unsigned u, size_t n) { return "culift_r" + std::to_string(u) + "_" + std::to_string(n); };
  // A read whose index does not involve the stepped index is the same element for every output of
  // the step (mean[i] beside x[i * n + j] stepping j): read once, by output 0, which the loop's
  // bound already keeps in range; the others use its value, and what they compute from it alone
  // the device compiler computes once (output 0's statements are not behind a test).
  const VarId stepped = step.stepped;
  std::vector<bool> shared(reads.size(), false);
  for (size_t n = 0; n < reads.size(); ++n) shared[n] = stepped != kNone && !mentionsVar(*reads[n], stepped);
  auto inRange = [](unsigned u) { return "culift_in" + std::to_string(u); };
  out.say("// The reads of " + std::to_string(kReadsFirstItems) +
          " outputs first (their loads in flight together), then each output's statements on the values read.");
  for (unsigned u = 0; u < kReadsFirstItems; ++u) {
    const std::string k = indicesOf(u)[inner];
    out.say("const int " + k + " = " + step.first + " + " + std::to_string(u) + " * " + step.stride + ";");
    if (u > 0) out.say("const bool " + inRange(u) + " = " + k + " < " + step.innerExtent + ";");
    const PrintRewrites r = rewritesOf(u);
    printer.setRewrites(&r);
    for (size_t n = 0; n < reads.size(); ++n) {
      if (u > 0 && shared[n]) continue;
      const std::string type(spelling(reads[n]->type.scalar));
      std::string read = printer.printExpression(*reads[n]);
      if (step.readAt) read = step.readAt(reads[n], indicesOf(u), read);
      out.say("const " + type + " " + temp(u, n) + " = " +
              (u == 0 ? read : inRange(u) + " ? " + read + " : (" + type + ")0") + ";");
    }
    printer.setRewrites(nullptr);
    out.mapToGenerated();
  }
  for (unsigned u = 0; u < kReadsFirstItems; ++u) {
    PrintRewrites r = rewritesOf(u);
    for (size_t n = 0; n < reads.size(); ++n) r.exprs[reads[n]] = temp(shared[n] ? 0 : u, n);
    const IndexNames v = indicesOf(u);
    r.returns = [&](const std::string& value) { return step.store(v, value); };
    // Output 0 is in range wherever the step runs (its index is the loop's).
    CodeWriter::Scope item = u == 0 ? out.open("") : out.open("if (" + inRange(u) + ")");
    printer.setRewrites(&r);
    for (const Stmt* s : step.stmts) printer.printStatement(*s, out.depth());
    printer.setRewrites(nullptr);
    out.mapToGenerated();
  }
}

}  // namespace culift::codegen
