// Statements: blocks, declarations, control flow (loops count against the step budget).
#include <algorithm>

#include "culift/ast/reassociation.hpp"
#include "operands.hpp"
#include "ops.hpp"
#include "planted_bugs.hpp"

namespace culift::interp::exec {
namespace {

[[noreturn]] void failBudget(Frame& f, const Stmt& loop) {
  fail(loop.range, "step budget of " + std::to_string(f.ctx->budget) + " exceeded in '" + f.fn->fn->name + "'",
       "the loop may not terminate; raise Options::stepBudget if it is just long");
}
inline void step(Frame& f, const Stmt& s) {
  if (++f.ctx->steps > f.ctx->budget) [[unlikely]]
    failBudget(f, s);
}

struct BlockNode final : StmtNode {
  std::vector<StmtNodePtr> stmts;
  explicit BlockNode(const Stmt* s) : StmtNode(s) {}
  Flow exec(Frame& f) const override {
    for (const StmtNodePtr& s : stmts) {
      Flow r = s->exec(f);
      if (r != Flow::Normal) return r;
    }
    return Flow::Normal;
  }
};

// Consecutive expression statements and initialized scalar declarations of a block, run
// without a statement dispatch each.
struct ExprRunNode final : StmtNode {
  std::vector<ExprNodePtr> exprs;
  explicit ExprRunNode(const Stmt* s) : StmtNode(s) {}
  Flow exec(Frame& f) const override {
    for (const ExprNodePtr& e : exprs) e->eval(f);
    return Flow::Normal;
  }
};

// `T v = init;` as an expression (for ExprRunNode).
struct DeclInitExpr final : ExprNode {
  std::uint32_t slot;
  ExprNodePtr init;
  DeclInitExpr(const Expr* e, std::uint32_t s, ExprNodePtr i) : ExprNode(e), slot(s), init(std::move(i)) {}
  Raw eval(Frame& f) const override {
    Raw v = init->eval(f);
    f.slots[slot] = v;
    f.defined[slot] = 1;
    return v;
  }
};

struct ExprStmtNode final : StmtNode {
  ExprNodePtr e;
  ExprStmtNode(const Stmt* s, ExprNodePtr x) : StmtNode(s), e(std::move(x)) {}
  Flow exec(Frame& f) const override {
    e->eval(f);
    return Flow::Normal;
  }
};

struct NullNode final : StmtNode {
  explicit NullNode(const Stmt* s) : StmtNode(s) {}
  Flow exec(Frame&) const override { return Flow::Normal; }
};

struct DeclScalarNode final : StmtNode {
  std::uint32_t slot;
  ExprNodePtr init;  // null: the variable is uninitialized until written
  DeclScalarNode(const Stmt* s, std::uint32_t sl, ExprNodePtr i) : StmtNode(s), slot(sl), init(std::move(i)) {}
  Flow exec(Frame& f) const override {
    if (init) {
      f.slots[slot] = init->eval(f);
      f.defined[slot] = 1;
    } else {
      f.defined[slot] = 0;
    }
    return Flow::Normal;
  }
};

// `T& r = lvalue;`: binds the reference to the place the lvalue names now.
struct DeclRefNode final : StmtNode {
  std::uint32_t ref;
  LvalueNodePtr referent;
  DeclRefNode(const Stmt* s, std::uint32_t r, LvalueNodePtr l) : StmtNode(s), ref(r), referent(std::move(l)) {}
  Flow exec(Frame& f) const override {
    f.refs[ref] = referent->place(f);
    return Flow::Normal;
  }
};

struct DeclArrayNode final : StmtNode {
  std::uint32_t array;
  Scalar element;
  std::vector<ExprNodePtr> inits;
  bool initialized;
  DeclArrayNode(const Stmt* s, std::uint32_t a, Scalar el, bool init)
      : StmtNode(s), array(a), element(el), initialized(init) {}
  Flow exec(Frame& f) const override {
    ArrayView& v = f.arrays[array];
    const unsigned size = byteSize(element);
    if (!initialized) {
      std::memset(v.init, 0, v.size);
      return Flow::Normal;
    }
    std::size_t k = 0;
    for (; k < inits.size(); ++k) storeAt(v.data + k * size, element, inits[k]->eval(f));
    std::memset(v.data + k * size, 0, (v.size - k) * size);  // the rest is zero-filled
    return Flow::Normal;
  }
};

struct IfNode final : StmtNode {
  ExprNodePtr cond;
  StmtNodePtr then, otherwise;
  explicit IfNode(const Stmt* s) : StmtNode(s) {}
  Flow exec(Frame& f) const override {
    if (get<bool>(cond->eval(f))) return then->exec(f);
    if (otherwise) return otherwise->exec(f);
    return Flow::Normal;
  }
};

struct ForNode final : StmtNode {
  StmtNodePtr init;
  ExprNodePtr cond, inc;
  StmtNodePtr body;
  explicit ForNode(const Stmt* s) : StmtNode(s) {}
  Flow exec(Frame& f) const override {
    if (init) {
      Flow r = init->exec(f);
      if (r == Flow::Return) return r;
    }
    for (;;) {
      step(f, *src);
      if (cond && !get<bool>(cond->eval(f))) break;
      Flow r = body->exec(f);
      if (r == Flow::Break) break;
      if (r == Flow::Return) return r;
      if (inc) inc->eval(f);
    }
    return Flow::Normal;
  }
};

// The counted loop `for (init; k < bound; ++k) body` with k an int/long long variable and
// bound a variable or constant: compare and increment inline (both re-read every iteration,
// so a body that changes k or bound behaves as in C++), and an expression body run directly.
template <typename I, BinaryOp Cmp, typename Bound, bool Up> struct ForRangeNode final : StmtNode {
  StmtNodePtr init;
  std::uint32_t k;
  Bound bound;
  ExprNodePtr bodyExpr;  // the body when it is one expression statement
  StmtNodePtr body;
  const Expr* incSrc;
  ForRangeNode(const Stmt* s, std::uint32_t kk, Bound b, const Expr* inc) : StmtNode(s), k(kk), bound(b), incSrc(inc) {}
  Flow exec(Frame& f) const override {
    if (init) {
      Flow r = init->exec(f);
      if (r == Flow::Return) return r;
    }
    for (;;) {
      step(f, *src);
      if (!compare<Cmp>(get<I>(f.slots[k]), bound(f))) break;
      if (bodyExpr) {
        bodyExpr->eval(f);
      } else {
        Flow r = body->exec(f);
        if (r == Flow::Break) break;
        if (r == Flow::Return) return r;
      }
      const I v = get<I>(f.slots[k]);
      f.slots[k] = make(Up ? arith<BinaryOp::Add>(v, I(1), *incSrc) : arith<BinaryOp::Sub>(v, I(1), *incSrc));
    }
    return Flow::Normal;
  }
};

// The loop of a kernel whose plan reassociates its sums (Function::reassociatedSums: the warp-per-row
// and split-row reductions), run in those plans' one order when the frame is the launched kernel's
// (Context::reassociating), culift/ast/reassociation.hpp: each iteration's term is what the body
// adds to a sum starting from -0.0; iterations are cut into chunks of 4096; a chunk's sum is a warp
// sum of its terms (partial l takes the terms of its iterations l, l + 32, ... in order, then
// partials l and l + d are added for d = 16, 8, 4, 2, 1); slot q adds the sums of chunks q, q + 256,
// ... in order; the total is a warp sum of the 256 slots; the sum becomes its value before the loop
// plus the total. This is the order of the GPU entries' lanes and shuffles
// (translator/src/codegen/plans/warp_sums.cpp), so all give the same bits. Elsewhere (a call, a
// per-thread launch) the loop runs as written.
struct ReassociatedLoopNode final : StmtNode {
  static constexpr unsigned kLanes = kReassociationLanes;
  StmtNodePtr asWritten;
  StmtNodePtr init;
  ExprNodePtr cond, inc;
  StmtNodePtr body;
  std::vector<std::pair<std::uint32_t, bool>> sums;  // slot, whether it holds a double
  std::vector<std::uint32_t> checked;                // the sums' slots whose reads are checked
  explicit ReassociatedLoopNode(const Stmt* s) : StmtNode(s) {}

  static Raw add(bool isDouble, Raw a, Raw b) {
    return isDouble ? make(get<double>(a) + get<double>(b)) : make(get<float>(a) + get<float>(b));
  }
  static Raw identity(bool isDouble) { return isDouble ? make(-0.0) : make(-0.0f); }

  // The warp sum of `values` (kLanes per sum, lane-major), left in lane 0's.
  void warpSum(std::vector<Raw>& values) const {
    const std::size_t n = sums.size();
    for (unsigned d = kLanes / 2; d >= 1; d /= 2)
      for (unsigned l = 0; l < d; ++l)
        for (std::size_t s = 0; s < n; ++s)
          values[l * n + s] = add(sums[s].second, values[l * n + s], values[(l + d) * n + s]);
  }

  Flow exec(Frame& f) const override {
    if (f.ctx->reassociating != f.fn) return asWritten->exec(f);
    // A sum read before it was written: the loop as written reports it.
    for (std::uint32_t slot : checked)
      if (!f.defined[slot]) return asWritten->exec(f);
    if (init && init->exec(f) == Flow::Return) return Flow::Return;
    const std::size_t n = sums.size();
    std::vector<Raw> partial(kLanes * n), slots(kReassociationSlots * n), before(n);
    for (std::size_t s = 0; s < n; ++s) {
      before[s] = f.slots[sums[s].first];
      for (unsigned l = 0; l < kLanes; ++l) partial[l * n + s] = identity(sums[s].second);
      for (std::int64_t q = 0; q < kReassociationSlots; ++q) slots[q * n + s] = identity(sums[s].second);
    }
    // The chunk's warp sum, added to its slot; the partials start again from -0.0.
    auto endChunk = [&](std::int64_t chunk) {
      warpSum(partial);
      const std::int64_t q = chunk % kReassociationSlots;
      for (std::size_t s = 0; s < n; ++s) {
        slots[q * n + s] = add(sums[s].second, slots[q * n + s], partial[s]);
        for (unsigned l = 0; l < kLanes; ++l) partial[l * n + s] = identity(sums[s].second);
      }
    };
    std::int64_t t = 0;
    for (;; ++t) {
      step(f, *src);
      if (cond && !get<bool>(cond->eval(f))) break;
      if (t > 0 && t % kReassociationChunk == 0) endChunk(t / kReassociationChunk - 1);
      for (const auto& [slot, isDouble] : sums) f.slots[slot] = identity(isDouble);
      const Flow r = body->exec(f);  // the planner admits no break, continue or return here
      if (r == Flow::Return) return r;
      const unsigned lane = static_cast<unsigned>(t % kLanes);
      for (std::size_t s = 0; s < n; ++s)
        partial[lane * n + s] = add(sums[s].second, partial[lane * n + s], f.slots[sums[s].first]);
      if (inc) inc->eval(f);
    }
    if (t > 0) endChunk((t - 1) / kReassociationChunk);
    // The slots' warp sum: lane l adds slots l, l + 32, ... in order.
    for (unsigned l = 0; l < kLanes; ++l)
      for (std::size_t s = 0; s < n; ++s) {
        Raw lanePart = identity(sums[s].second);
        for (std::int64_t q = l; q < kReassociationSlots; q += kLanes)
          lanePart = add(sums[s].second, lanePart, slots[q * n + s]);
        partial[l * n + s] = lanePart;
      }
    warpSum(partial);
    for (std::size_t s = 0; s < n; ++s) f.slots[sums[s].first] = add(sums[s].second, before[s], partial[s]);
    return Flow::Normal;
  }
};

struct WhileNode final : StmtNode {
  ExprNodePtr cond;
  StmtNodePtr body;
  bool testFirst;
  WhileNode(const Stmt* s, bool first) : StmtNode(s), testFirst(first) {}
  Flow exec(Frame& f) const override {
    if (testFirst && !get<bool>(cond->eval(f))) return Flow::Normal;
    for (;;) {
      step(f, *src);
      Flow r = body->exec(f);
      if (r == Flow::Break) break;
      if (r == Flow::Return) return r;
      if (!get<bool>(cond->eval(f))) break;
    }
    return Flow::Normal;
  }
};

struct JumpNode final : StmtNode {
  Flow flow;
  JumpNode(const Stmt* s, Flow fl) : StmtNode(s), flow(fl) {}
  Flow exec(Frame&) const override { return flow; }
};

struct ReturnNode final : StmtNode {
  ExprNodePtr value;
  ReturnNode(const Stmt* s, ExprNodePtr v) : StmtNode(s), value(std::move(v)) {}
  Flow exec(Frame& f) const override {
    if (value) f.ret = value->eval(f);
    return Flow::Return;
  }
};

// switch: jumps to the matching label among the body's direct statements and falls through.
struct SwitchNode final : StmtNode {
  ExprNodePtr cond;
  std::uint64_t mask;
  std::vector<StmtNodePtr> stmts;
  std::vector<std::pair<std::uint64_t, std::size_t>> labels;  // sorted by value
  std::size_t defaultAt;                                      // stmts.size(): none
  std::vector<bool> stopAt;  // PlantedBug::SwitchNoFallThrough: the labels, where a case then ends
  explicit SwitchNode(const Stmt* s) : StmtNode(s) {}
  Flow exec(Frame& f) const override {
    const std::uint64_t v = cond->eval(f).bits & mask;
    auto it = std::lower_bound(labels.begin(), labels.end(), std::make_pair(v, std::size_t{0}));
    std::size_t start = (it != labels.end() && it->first == v) ? it->second : defaultAt;
    for (std::size_t k = start; k < stmts.size(); ++k) {
      if (k != start && !stopAt.empty() && stopAt[k]) return Flow::Normal;
      Flow r = stmts[k]->exec(f);
      if (r == Flow::Break) return Flow::Normal;
      if (r != Flow::Normal) return r;
    }
    return Flow::Normal;
  }
};

ExprNodePtr boolCond(Compiler& c, const Expr* e, const SourceRange& where, const char* what) {
  if (!e) c.malformed(where, std::string(what) + " without a condition");
  return c.expr(*e);  // a bool: the verifier's rule
}

// Recognizes `for (...; k OP bound; ++k / k++ / --k / k--)` over int or long long.
StmtNodePtr countedLoop(Compiler& c, const Stmt& s) {
  const Expr* cond = s.cond.get();
  const Expr* inc = s.expr.get();
  if (!cond || !inc || !s.body || cond->kind != ExprKind::Binary || cond->operands.size() != 2) return nullptr;
  if (inc->kind != ExprKind::IncDec || inc->operands.size() != 1) return nullptr;
  const Expr& kv = *cond->operands[0];
  const Expr& bv = *cond->operands[1];
  const Expr& iv = *inc->operands[0];
  if (!c.plainSlot(kv) || !c.plainSlot(iv) || kv.var != iv.var) return nullptr;
  const Scalar t = kv.type.scalar;
  if ((t != Scalar::I32 && t != Scalar::I64) || bv.type.scalar != t) return nullptr;
  const bool up = delta(inc->incDecOp) > 0;
  BinaryOp op = cond->binaryOp;
  if (plantedBug(c) == PlantedBug::LoopBoundInclusive && op == BinaryOp::Lt) op = BinaryOp::Le;
  if (!isComparison(op) || op == BinaryOp::Eq) return nullptr;
  Operand bound = c.operand(bv);
  if (bound.kind == Operand::Node) return nullptr;

  auto build = [&]<typename I, BinaryOp Cmp, bool Up>() -> StmtNodePtr {
    auto fill = [&](auto n) -> StmtNodePtr {
      if (s.init) n->init = c.stmt(*s.init);
      const Stmt* body = s.body.get();
      while (body->kind == StmtKind::Block && body->stmts.size() == 1) body = body->stmts[0].get();
      if (body->kind == StmtKind::ExprStmt && body->expr) n->bodyExpr = c.expr(*body->expr);
      else n->body = c.stmt(*body);
      return n;
    };
    if (bound.kind == Operand::Slot)
      return fill(
          std::make_unique<ForRangeNode<I, Cmp, SlotOp<I>, Up>>(&s, c.slotOf(kv.var), SlotOp<I>{bound.slot}, inc));
    return fill(std::make_unique<ForRangeNode<I, Cmp, ConstOp<I>, Up>>(&s, c.slotOf(kv.var),
                                                                       ConstOp<I>{get<I>(bound.value)}, inc));
  };
  auto byDir = [&]<typename I, BinaryOp Cmp>() -> StmtNodePtr {
    return up ? build.template operator()<I, Cmp, true>() : build.template operator()<I, Cmp, false>();
  };
  auto byCmp = [&]<typename I>() -> StmtNodePtr {
    switch (op) {
      case BinaryOp::Lt: return byDir.template operator()<I, BinaryOp::Lt>();
      case BinaryOp::Le: return byDir.template operator()<I, BinaryOp::Le>();
      case BinaryOp::Gt: return byDir.template operator()<I, BinaryOp::Gt>();
      case BinaryOp::Ge: return byDir.template operator()<I, BinaryOp::Ge>();
      case BinaryOp::Ne: return byDir.template operator()<I, BinaryOp::Ne>();
      default: return nullptr;
    }
  };
  return t == Scalar::I32 ? byCmp.template operator()<int>() : byCmp.template operator()<std::int64_t>();
}

}  // namespace

StmtNodePtr Compiler::stmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Block: {
      if (s.stmts.size() == 1) return stmt(*s.stmts[0]);
      auto b = std::make_unique<BlockNode>(&s);
      ExprRunNode* run = nullptr;  // the run being filled, if the previous statement joined one
      for (const StmtPtr& x : s.stmts) {
        if (!x || x->kind == StmtKind::Null) continue;
        ExprNodePtr e;
        if (x->kind == StmtKind::ExprStmt && x->expr) {
          e = expr(*x->expr);
        } else if (x->kind == StmtKind::Decl && x->expr && isSlotVar(x->var) && !var(x->var).isParam &&
                   x->expr->type.scalar == var(x->var).type.scalar) {
          e = std::make_unique<DeclInitExpr>(x->expr.get(), slotOf(x->var), expr(*x->expr));
        }
        if (!e) {
          run = nullptr;
          b->stmts.push_back(stmt(*x));
          continue;
        }
        if (!run) {
          auto r = std::make_unique<ExprRunNode>(x.get());
          run = r.get();
          b->stmts.push_back(std::move(r));
        }
        run->exprs.push_back(std::move(e));
      }
      if (b->stmts.size() == 1) return std::move(b->stmts[0]);
      return b;
    }
    case StmtKind::Decl: {
      if (s.var >= fn_.slotOf.size() || var(s.var).isParam) malformed(s.range, "declaration of an unknown variable");
      const Var& v = var(s.var);
      if (v.isReference()) {
        if (!s.expr || s.expr->type.scalar != v.type.scalar || !s.expr->type.isValue())
          malformed(s.range, "reference '" + v.name + "' not bound to a scalar of its type");
        LvalueNodePtr l = referent(*s.expr);
        if (!l) malformed(s.range, "reference '" + v.name + "' bound to a temporary");
        if (v.binding == Binding::Reference && s.expr->kind == ExprKind::Subscript &&
            var(s.expr->operands[0]->var).type.constElements)
          malformed(s.range, "reference '" + v.name + "' to an element of a const array");
        return std::make_unique<DeclRefNode>(&s, slotOf(s.var), std::move(l));
      }
      if (v.type.isValue()) {
        ExprNodePtr init;
        if (s.expr) {
          if (s.expr->type.scalar != v.type.scalar)
            malformed(s.range, "initializer of another type than '" + v.name + "'");
          init = expr(*s.expr);
        }
        return std::make_unique<DeclScalarNode>(&s, slotOf(s.var), std::move(init));
      }
      if (!v.type.isArray()) malformed(s.range, "declaration of a local pointer '" + v.name + "'");
      if (s.inits.size() > v.type.extent) malformed(s.range, "too many initializers for '" + v.name + "'");
      auto d = std::make_unique<DeclArrayNode>(&s, slotOf(s.var), v.type.scalar,
                                               s.arrayInitialized || !s.inits.empty());
      for (const ExprPtr& i : s.inits) {
        if (i->type.scalar != v.type.scalar) malformed(i->range, "initializer of another type than '" + v.name + "'");
        d->inits.push_back(expr(*i));
      }
      return d;
    }
    case StmtKind::ExprStmt:
      if (!s.expr) return std::make_unique<NullNode>(&s);
      return std::make_unique<ExprStmtNode>(&s, expr(*s.expr));
    case StmtKind::If: {
      auto n = std::make_unique<IfNode>(&s);
      n->cond = boolCond(*this, s.cond.get(), s.range, "if");
      if (!s.then) malformed(s.range, "if without a body");
      n->then = stmt(*s.then);
      if (s.otherwise) n->otherwise = stmt(*s.otherwise);
      return n;
    }
    case StmtKind::For: {
      StmtNodePtr loop = countedLoop(*this, s);
      if (!loop) {
        auto n = std::make_unique<ForNode>(&s);
        if (s.init) n->init = stmt(*s.init);
        if (s.cond) n->cond = boolCond(*this, s.cond.get(), s.range, "for");
        if (s.expr) n->inc = expr(*s.expr);
        if (!s.body) malformed(s.range, "for without a body");
        n->body = stmt(*s.body);
        loop = std::move(n);
      }
      // A reassociating plan's body has one loop: this one.
      const Function& f = *fn_.fn;
      if (f.reassociatedSums.empty()) return loop;
      auto n = std::make_unique<ReassociatedLoopNode>(&s);
      n->asWritten = std::move(loop);
      if (s.init) n->init = stmt(*s.init);
      if (s.cond) n->cond = boolCond(*this, s.cond.get(), s.range, "for");
      if (s.expr) n->inc = expr(*s.expr);
      if (!s.body) malformed(s.range, "for without a body");
      n->body = stmt(*s.body);
      for (VarId v : f.reassociatedSums) {
        if (v >= fn_.slotOf.size() || !var(v).type.isValue() || !isFloating(var(v).type.scalar))
          malformed(s.range, "a reassociated sum that is not a float or double variable");
        n->sums.emplace_back(slotOf(v), var(v).type.scalar == Scalar::F64);
        if (isChecked(v)) n->checked.push_back(slotOf(v));
      }
      return n;
    }
    case StmtKind::While:
    case StmtKind::DoWhile: {
      auto n = std::make_unique<WhileNode>(&s, s.kind == StmtKind::While);
      n->cond = boolCond(*this, s.cond.get(), s.range, "while");
      if (!s.body) malformed(s.range, "loop without a body");
      n->body = stmt(*s.body);
      return n;
    }
    case StmtKind::Break: return std::make_unique<JumpNode>(&s, Flow::Break);
    case StmtKind::Continue: return std::make_unique<JumpNode>(&s, Flow::Continue);
    case StmtKind::Return:  // of the function's type: the verifier's rule
      return std::make_unique<ReturnNode>(&s, s.expr ? expr(*s.expr) : nullptr);
    case StmtKind::Switch: {
      auto n = std::make_unique<SwitchNode>(&s);
      if (!s.cond || !isInteger(s.cond->type.scalar)) malformed(s.range, "switch on a non-integer condition");
      n->cond = expr(*s.cond);
      const unsigned bits = byteSize(s.cond->type.scalar) * 8;
      n->mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
      if (!s.body) malformed(s.range, "switch without a body");
      std::vector<const Stmt*> direct;
      if (s.body->kind == StmtKind::Block)
        for (const StmtPtr& x : s.body->stmts) direct.push_back(x.get());
      else direct.push_back(s.body.get());
      n->defaultAt = direct.size();
      for (std::size_t k = 0; k < direct.size(); ++k) {
        const Stmt& x = *direct[k];
        if (x.kind == StmtKind::Case) {
          n->labels.emplace_back(x.caseValue & n->mask, k);  // distinct: the verifier's rule
        } else if (x.kind == StmtKind::Default) {
          n->defaultAt = k;
        }
        n->stmts.push_back(stmt(x));
      }
      std::sort(n->labels.begin(), n->labels.end());
      if (plantedBug(*this) == PlantedBug::SwitchNoFallThrough) {
        n->stopAt.assign(direct.size(), false);
        for (std::size_t k = 0; k < direct.size(); ++k)
          n->stopAt[k] = direct[k]->kind == StmtKind::Case || direct[k]->kind == StmtKind::Default;
      }
      return n;
    }
    case StmtKind::Case:
    case StmtKind::Default:
    case StmtKind::Null: return std::make_unique<NullNode>(&s);
  }
  malformed(s.range, "unknown statement kind");
}

}  // namespace culift::interp::exec
