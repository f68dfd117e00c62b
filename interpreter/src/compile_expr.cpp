// Expressions: literals, variables, array elements, references, assignments, conditionals, calls.
#include <algorithm>

#include "operands.hpp"
#include "ops.hpp"
#include "planted_bugs.hpp"

namespace culift::interp::exec {

void failIndex(Frame& f, const Expr& e, std::string index, std::uint64_t size) {
  const Expr& base = *e.operands[0];
  const bool local = base.type.isArray();
  fail(e.range,
       "index " + index + " is out of bounds for " + (local ? "local array " : "array ") + varName(f, base) + " of " +
           std::to_string(size) + " element" + (size == 1 ? "" : "s"),
       index.starts_with("-") ? "the index is negative: elements are numbered from 0"
       : local                ? ""
                              : "the array passed for this parameter is shorter than the index the function reads");
}
void failUninitElement(Frame& f, const Expr& e, std::uint64_t index) {
  fail(e.range,
       "read of uninitialized element " + std::to_string(index) + " of local array " + varName(f, *e.operands[0]));
}

namespace {

struct ConstNode final : ExprNode {
  Raw v;
  ConstNode(const Expr* e, Raw x) : ExprNode(e), v(x) {}
  Raw eval(Frame&) const override { return v; }
};

struct LoadSlotNode final : ExprNode {
  std::uint32_t slot;
  LoadSlotNode(const Expr* e, std::uint32_t s) : ExprNode(e), slot(s) {}
  Raw eval(Frame& f) const override { return f.slots[slot]; }
};

[[noreturn]] void failUninitialized(Frame& f, const Expr& e) {
  fail(e.range, "read of uninitialized variable " + varName(f, e), "give the variable a value before reading it");
}

struct LoadCheckedSlotNode final : ExprNode {
  std::uint32_t slot;
  LoadCheckedSlotNode(const Expr* e, std::uint32_t s) : ExprNode(e), slot(s) {}
  Raw eval(Frame& f) const override {
    if (!f.defined[slot]) [[unlikely]]
      failUninitialized(f, *src);
    return f.slots[slot];
  }
};

// ---- array elements ----------------------------------------------------------------------

struct AnyIndex {  // an index of a rare integer type (char, short, bool)
  ExprNodePtr n;
  Scalar type;
  std::uint64_t operator()(const ArrayView& v, Frame& f, const Expr& e) const {
    Raw r = n->eval(f);
    return dispatch(type, [&]<Scalar S>() -> std::uint64_t {
      using I = Cpp<S>;
      if constexpr (std::is_floating_point_v<I>) return 0;
      else return checkedIndex<I>(get<I>(r), v, f, e);
    });
  }
};
struct AffineIdx {
  AffineIndex x;
  std::uint64_t operator()(const ArrayView& v, Frame& f, const Expr& e) const {
    return checkedIndex<int>(affineValue(x, f), v, f, e);
  }
};
template <typename I> struct NodeIndex {
  ExprNodePtr n;
  std::uint64_t operator()(const ArrayView& v, Frame& f, const Expr& e) const {
    return checkedIndex<I>(get<I>(n->eval(f)), v, f, e);
  }
};
template <typename I> struct SlotIndex {
  std::uint32_t slot;
  std::uint64_t operator()(const ArrayView& v, Frame& f, const Expr& e) const {
    return checkedIndex<I>(get<I>(f.slots[slot]), v, f, e);
  }
};

template <typename T, typename Index> struct LoadElemNode final : ExprNode {
  std::uint32_t array;
  Index index;
  LoadElemNode(const Expr* e, std::uint32_t a, Index i) : ExprNode(e), array(a), index(std::move(i)) {}
  Raw eval(Frame& f) const override {
    const ArrayView& v = f.arrays[array];
    std::uint64_t k = index(v, f, *src);
    if (v.init && !v.init[k]) [[unlikely]]
      failUninitElement(f, *src, k);
    if (v.shadow) [[unlikely]]
      noteRead(f, *src, v, k);
    if constexpr (std::is_same_v<T, bool>) {
      return make(reinterpret_cast<const std::uint8_t*>(v.data)[k] != 0);
    } else {
      T x;
      std::memcpy(&x, v.data + k * sizeof(T), sizeof(T));
      return make(x);
    }
  }
};

// Builds `Make<Index>` for the subscript's index expression.
template <typename Make> auto withIndex(Compiler& c, const Expr& idx, Make make) {
  const Scalar t = idx.type.scalar;
  auto typed = [&]<typename I>() {
    if (c.plainSlot(idx)) return make(SlotIndex<I>{c.slotOf(idx.var)});
    return make(NodeIndex<I>{c.expr(idx)});
  };
  AffineIndex affine;
  if (t == Scalar::I32 && idx.kind == ExprKind::Binary && c.affineIndex(idx, affine)) return make(AffineIdx{affine});
  switch (t) {
    case Scalar::I32: return typed.template operator()<std::int32_t>();
    case Scalar::I64: return typed.template operator()<std::int64_t>();
    case Scalar::U32: return typed.template operator()<std::uint32_t>();
    case Scalar::U64: return typed.template operator()<std::uint64_t>();
    default: break;
  }
  if (!isInteger(t) && t != Scalar::Bool) c.malformed(idx.range, "array index of a non-integer type");
  return make(AnyIndex{c.expr(idx), t});
}

// ---- lvalues -----------------------------------------------------------------------------

struct SlotLvalue final : LvalueNode {
  std::uint32_t slot;
  bool checked;
  SlotLvalue(const Expr* e, std::uint32_t s, bool c) : LvalueNode(e), slot(s), checked(c) {}
  Place place(Frame& f) const override { return {reinterpret_cast<std::byte*>(&f.slots[slot]), &f.defined[slot]}; }
  void checkRead(Frame& f, const Place& p) const override {
    if (checked && !*p.flag) [[unlikely]]
      failUninitialized(f, *src);
  }
};

template <typename Index> struct ElemLvalue final : LvalueNode {
  std::uint32_t array;
  Index index;
  ElemLvalue(const Expr* e, std::uint32_t a, Index i) : LvalueNode(e), array(a), index(std::move(i)) {}
  Place place(Frame& f) const override {
    const ArrayView& v = f.arrays[array];
    std::uint64_t k = index(v, f, *src);
    if (v.shadow) [[unlikely]]
      noteWrite(f, *src, v, k);
    return {v.data + k * byteSize(type), v.init ? v.init + k : nullptr};
  }
  Place atomicPlace(Frame& f) const override {
    const ArrayView& v = f.arrays[array];
    std::uint64_t k = index(v, f, *src);
    return {v.data + k * byteSize(type), v.init ? v.init + k : nullptr};
  }
  void checkRead(Frame& f, const Place& p) const override {
    if (p.flag && !*p.flag) [[unlikely]] {
      const ArrayView& v = f.arrays[array];
      failUninitElement(f, *src, static_cast<std::uint64_t>(p.flag - v.init));
    }
  }
};

// A reference variable: its referent, bound at its declaration or by the call.
struct RefLvalue final : LvalueNode {
  std::uint32_t ref;
  RefLvalue(const Expr* e, std::uint32_t r) : LvalueNode(e), ref(r) {}
  Place place(Frame& f) const override { return f.refs[ref]; }
  void checkRead(Frame& f, const Place& p) const override {
    if (p.flag && !*p.flag) [[unlikely]]
      failUninitialized(f, *src);
  }
};

// A read through a reference: the referent's current value (a write through any other name of
// the same variable or element is seen).
struct LoadRefNode final : ExprNode {
  std::uint32_t ref;
  Scalar type;
  LoadRefNode(const Expr* e, std::uint32_t r) : ExprNode(e), ref(r), type(e->type.scalar) {}
  Raw eval(Frame& f) const override {
    const Place& p = f.refs[ref];
    if (p.flag && !*p.flag) [[unlikely]]
      failUninitialized(f, *src);
    return loadAt(p.p, type);
  }
};

// ---- assignments -------------------------------------------------------------------------

struct AssignSlotNode final : ExprNode {
  std::uint32_t slot;
  ExprNodePtr rhs;
  AssignSlotNode(const Expr* e, std::uint32_t s, ExprNodePtr r) : ExprNode(e), slot(s), rhs(std::move(r)) {}
  Raw eval(Frame& f) const override {
    Raw v = rhs->eval(f);
    f.slots[slot] = v;
    f.defined[slot] = 1;
    return v;
  }
};

struct AssignPlaceNode final : ExprNode {
  LvalueNodePtr lhs;
  ExprNodePtr rhs;
  AssignPlaceNode(const Expr* e, LvalueNodePtr l, ExprNodePtr r) : ExprNode(e), lhs(std::move(l)), rhs(std::move(r)) {}
  Raw eval(Frame& f) const override {
    Raw v = rhs->eval(f);  // C++17: the right operand of = is sequenced before the left
    Place p = lhs->place(f);
    storeAt(p.p, lhs->type, v);
    if (p.flag) *p.flag = 1;
    return v;
  }
};

// lhs op= rhs with the lvalue's type equal to the computation type (the hot shape).
template <BinaryOp Op, typename T, typename R> struct CompoundSlotNode final : ExprNode {
  std::uint32_t slot;
  bool checked;
  R rhs;
  CompoundSlotNode(const Expr* e, std::uint32_t s, bool c, R r) : ExprNode(e), slot(s), checked(c), rhs(std::move(r)) {}
  Raw eval(Frame& f) const override {
    T b = rhs(f);
    if (checked && !f.defined[slot]) [[unlikely]]
      failUninitialized(f, *src->operands[0]);
    T a = get<T>(f.slots[slot]);
    Raw r;
    if constexpr (Op == BinaryOp::BitAnd || Op == BinaryOp::BitOr || Op == BinaryOp::BitXor)
      r = make(bitwise<Op>(a, b));
    else r = make(arith<Op>(a, b, *src));
    f.slots[slot] = r;
    return r;
  }
};

// The product `a * b` read inline as the right side of `acc += a * b` (dot products).
template <typename T, typename L, typename R> struct ProductOp {
  L l;
  R r;
  const Expr* src;
  [[gnu::always_inline]] T operator()(Frame& f) const {
    T a = l(f);
    T b = r(f);
    return arith<BinaryOp::Mul>(a, b, *src);
  }
};

struct CompoundPlaceNode final : ExprNode {
  LvalueNodePtr lhs;
  ExprNodePtr rhs;
  ConvertFn toCompute, fromCompute;
  BinaryFn op;
  Scalar rhsType;
  CompoundPlaceNode(const Expr* e, LvalueNodePtr l, ExprNodePtr r, ConvertFn to, ConvertFn from, BinaryFn o, Scalar rt)
      : ExprNode(e), lhs(std::move(l)), rhs(std::move(r)), toCompute(to), fromCompute(from), op(o), rhsType(rt) {}
  Raw eval(Frame& f) const override {
    Raw b = rhs->eval(f);
    Place p = lhs->place(f);
    lhs->checkRead(f, p);
    Raw a = toCompute(loadAt(p.p, lhs->type), *src);
    Raw v = fromCompute(op(a, b, rhsType, *src), *src);
    storeAt(p.p, lhs->type, v);
    if (p.flag) *p.flag = 1;
    return v;
  }
};

// ++/--: integers narrower than int are computed in int (promotion) and wrap on the way back.
template <typename T> inline T stepValue(T v, int delta, const Expr& e) {
  if constexpr (kInt<T> && sizeof(T) < sizeof(int)) return static_cast<T>(static_cast<int>(v) + delta);
  else if constexpr (kInt<T>) return delta > 0 ? arith<BinaryOp::Add>(v, T(1), e) : arith<BinaryOp::Sub>(v, T(1), e);
  else return delta > 0 ? static_cast<T>(v + T(1)) : static_cast<T>(v - T(1));
}

template <typename T, int Delta, bool Prefix> struct IncDecSlotNode final : ExprNode {
  std::uint32_t slot;
  bool checked;
  IncDecSlotNode(const Expr* e, std::uint32_t s, bool c) : ExprNode(e), slot(s), checked(c) {}
  Raw eval(Frame& f) const override {
    if (checked && !f.defined[slot]) [[unlikely]]
      failUninitialized(f, *src->operands[0]);
    T old = get<T>(f.slots[slot]);
    T now = stepValue<T>(old, Delta, *src);
    f.slots[slot] = make(now);
    return make(Prefix ? now : old);
  }
};

template <typename T> struct IncDecPlaceNode final : ExprNode {
  LvalueNodePtr lhs;
  int delta;
  bool prefix;
  IncDecPlaceNode(const Expr* e, LvalueNodePtr l, int d, bool p)
      : ExprNode(e), lhs(std::move(l)), delta(d), prefix(p) {}
  Raw eval(Frame& f) const override {
    Place p = lhs->place(f);
    lhs->checkRead(f, p);
    T old = get<T>(loadAt(p.p, lhs->type));
    T now = stepValue<T>(old, delta, *src);
    storeAt(p.p, lhs->type, make(now));
    return make(prefix ? now : old);
  }
};

// ---- other expressions -------------------------------------------------------------------

struct ConditionalNode final : ExprNode {
  ExprNodePtr c, a, b;
  ConditionalNode(const Expr* e, ExprNodePtr x, ExprNodePtr y, ExprNodePtr z)
      : ExprNode(e), c(std::move(x)), a(std::move(y)), b(std::move(z)) {}
  Raw eval(Frame& f) const override { return get<bool>(c->eval(f)) ? a->eval(f) : b->eval(f); }
};

struct CommaNode final : ExprNode {
  ExprNodePtr a, b;
  CommaNode(const Expr* e, ExprNodePtr x, ExprNodePtr y) : ExprNode(e), a(std::move(x)), b(std::move(y)) {}
  Raw eval(Frame& f) const override {
    a->eval(f);
    return b->eval(f);
  }
};

// assert(cond): checked on every run (the GPU checks it only when compiled with device asserts).
struct AssertNode final : ExprNode {
  ExprNodePtr c;
  AssertNode(const Expr* e, ExprNodePtr x) : ExprNode(e), c(std::move(x)) {}
  Raw eval(Frame& f) const override {
    if (!get<bool>(c->eval(f)))
      fail(src->range, "assertion '" + src->text + "' failed",
           "GPU kernels check asserts only when compiled with device asserts (EngineOptions::deviceAsserts, "
           "culift launch --device-asserts)");
    return Raw{};
  }
};

struct CallNode final : ExprNode {
  const CompiledFunction* callee;
  std::vector<ExprNodePtr> scalars;   // per parameter (null for arrays)
  std::vector<std::uint32_t> arrays;  // per parameter: the caller's array index (arrays)
  CallNode(const Expr* e, const CompiledFunction* c) : ExprNode(e), callee(c) {}
  // Per reference parameter: the lvalue it binds to, or (a const reference to a temporary) the
  // scalar node whose value the call's temporary holds. Empty when the callee takes none.
  std::vector<LvalueNodePtr> referents;
  std::vector<bool> temporaries;
  Raw eval(Frame& f) const override {
    constexpr std::size_t kInline = 16;
    const std::size_t n = scalars.size();
    Raw inlineArgs[kInline];
    ArrayView inlineViews[kInline];
    Place inlinePlaces[kInline];
    std::vector<Raw> heapArgs;
    std::vector<ArrayView> heapViews;
    std::vector<Place> heapPlaces;
    Raw* args = inlineArgs;
    ArrayView* views = inlineViews;
    Place* places = inlinePlaces;
    if (n > kInline) {
      heapArgs.resize(n);
      heapViews.resize(n);
      heapPlaces.resize(n);
      args = heapArgs.data();
      views = heapViews.data();
      places = heapPlaces.data();
    }
    // Arguments are evaluated left to right (C++ leaves the order unspecified; any order is
    // one of the allowed ones).
    for (std::size_t p = 0; p < n; ++p) {
      if (!referents.empty() && referents[p]) {
        places[p] = referents[p]->place(f);
      } else if (scalars[p]) {
        args[p] = scalars[p]->eval(f);
        // A temporary lives in the argument array until the call returns.
        if (!temporaries.empty() && temporaries[p]) places[p] = {reinterpret_cast<std::byte*>(&args[p]), nullptr};
      } else {
        views[p] = f.arrays[arrays[p]];
      }
    }
    return invoke(*callee, *f.ctx, args, views, &src->range, referents.empty() ? nullptr : places);
  }
};

}  // namespace

bool isConstant(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLiteral:
    case ExprKind::FloatLiteral:
    case ExprKind::BoolLiteral: return true;
    case ExprKind::Cast: {
      if (e.operands.size() != 1 || !isConstant(*e.operands[0])) return false;
      // float -> integer can fail (out of range): keep it a run-time check at its place.
      return !(isFloating(e.operands[0]->type.scalar) && isInteger(e.type.scalar));
    }
    default: return false;
  }
}

bool Compiler::affineIndex(const Expr& idx, AffineIndex& out) const {
  auto intSlot = [&](const Expr& x) { return x.type.scalar == Scalar::I32 && plainSlot(x); };
  if (idx.type.scalar != Scalar::I32) return false;
  if (intSlot(idx)) {
    out.form = AffineIndex::Var;
    out.c = slotOf(idx.var);
    return true;
  }
  if (idx.kind != ExprKind::Binary || idx.binaryOp != BinaryOp::Add || idx.operands.size() != 2) return false;
  const Expr& l = *idx.operands[0];
  const Expr& r = *idx.operands[1];
  if (!intSlot(r)) return false;
  out.c = slotOf(r.var);
  out.add = &idx;
  if (intSlot(l)) {
    out.form = AffineIndex::Sum;
    out.a = slotOf(l.var);
    return true;
  }
  if (l.kind == ExprKind::Binary && l.binaryOp == BinaryOp::Mul && l.operands.size() == 2 && intSlot(*l.operands[0]) &&
      intSlot(*l.operands[1])) {
    out.form = AffineIndex::MulAdd;
    out.a = slotOf(l.operands[0]->var);
    out.b = slotOf(l.operands[1]->var);
    out.mul = &l;
    return true;
  }
  return false;
}

Operand Compiler::operand(const Expr& e, bool allowElem) {
  Operand o;
  if (allowElem && e.kind == ExprKind::Subscript && e.operands.size() == 2 && e.operands[0]->kind == ExprKind::VarRef &&
      e.operands[0]->var < fn_.slotOf.size() && !var(e.operands[0]->var).type.isValue() &&
      var(e.operands[0]->var).type.scalar == e.type.scalar && e.type.scalar != Scalar::Bool &&
      affineIndex(*e.operands[1], o.index)) {
    o.kind = Operand::Elem;
    o.slot = slotOf(e.operands[0]->var);
    o.src = &e;
    return o;
  }
  if (plainSlot(e)) {
    o.kind = Operand::Slot;
    o.slot = slotOf(e.var);
    return o;
  }
  o.node = expr(e);
  if (isConstant(e)) {
    Frame none;
    o.kind = Operand::Const;
    o.value = o.node->eval(none);
  }
  return o;
}

ExprNodePtr Compiler::toNode(Operand&& o, const Expr& e) {
  if (o.node) return std::move(o.node);
  return expr(e);
}

ExprNodePtr Compiler::expr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLiteral:
    case ExprKind::BoolLiteral: {
      if (!e.type.isValue() || e.type.scalar == Scalar::Void) malformed(e.range, "literal of a non-scalar type");
      Raw r;
      r.bits = e.intBits;
      if (e.type.scalar == Scalar::Bool) r = make(e.intBits != 0);
      return std::make_unique<ConstNode>(&e, r);
    }
    case ExprKind::FloatLiteral:
      if (e.type.scalar == Scalar::F32) return std::make_unique<ConstNode>(&e, make(static_cast<float>(e.floatValue)));
      if (e.type.scalar == Scalar::F64) return std::make_unique<ConstNode>(&e, make(e.floatValue));
      malformed(e.range, "floating literal of a non-floating type");
    case ExprKind::VarRef: return varLoad(e);
    case ExprKind::Subscript: return subscriptLoad(e);
    case ExprKind::Unary: return unary(e);
    case ExprKind::Binary: return binary(e);
    case ExprKind::Assign: return assign(e);
    case ExprKind::CompoundAssign: return compoundAssign(e);
    case ExprKind::IncDec: return incDec(e);
    case ExprKind::Conditional:
      if (e.operands.size() != 3) malformed(e.range, "conditional without three operands");
      return std::make_unique<ConditionalNode>(&e, expr(*e.operands[0]), expr(*e.operands[1]), expr(*e.operands[2]));
    case ExprKind::Cast: return cast(e);
    case ExprKind::Call: return call(e);
    case ExprKind::MathCall: return mathCall(e);
    case ExprKind::AtomicRmw: return atomic(e);
    case ExprKind::Comma:
      if (e.operands.size() != 2) malformed(e.range, "comma without two operands");
      return std::make_unique<CommaNode>(&e, expr(*e.operands[0]), expr(*e.operands[1]));
    case ExprKind::Assert:
      if (e.operands.size() != 1) malformed(e.range, "assert without one condition");
      return std::make_unique<AssertNode>(&e, expr(*e.operands[0]));
  }
  malformed(e.range, "unknown expression kind");
}

ExprNodePtr Compiler::varLoad(const Expr& e) {
  if (e.var >= fn_.slotOf.size()) malformed(e.range, "reference to an unknown variable");
  if (var(e.var).isReference()) return std::make_unique<LoadRefNode>(&e, slotOf(e.var));
  if (!var(e.var).type.isValue()) malformed(e.range, "array '" + var(e.var).name + "' used as a value");
  if (isChecked(e.var)) return std::make_unique<LoadCheckedSlotNode>(&e, slotOf(e.var));
  return std::make_unique<LoadSlotNode>(&e, slotOf(e.var));
}

static void checkSubscript(const Compiler& c, const Expr& e, std::size_t numVars) {
  if (e.operands.size() != 2 || e.operands[0]->kind != ExprKind::VarRef || e.operands[0]->var >= numVars ||
      c.var(e.operands[0]->var).type.isValue())
    c.malformed(e.range, "subscript of something other than an array variable");
  if (c.var(e.operands[0]->var).type.scalar != e.type.scalar)
    c.malformed(e.range, "subscript type differs from the array's element type");
}

ExprNodePtr Compiler::subscriptLoad(const Expr& e) {
  checkSubscript(*this, e, fn_.slotOf.size());
  const std::uint32_t array = slotOf(e.operands[0]->var);
  return dispatch(e.type.scalar, [&]<Scalar S>() -> ExprNodePtr {
    using T = Cpp<S>;
    return withIndex(*this, *e.operands[1], [&](auto index) -> ExprNodePtr {
      return std::make_unique<LoadElemNode<T, decltype(index)>>(&e, array, std::move(index));
    });
  });
}

LvalueNodePtr Compiler::lvalue(const Expr& e) {
  if (e.kind == ExprKind::VarRef && e.var < fn_.slotOf.size() && var(e.var).binding == Binding::ConstReference)
    malformed(e.range, "assignment through the const reference '" + var(e.var).name + "'");
  if (e.kind == ExprKind::Subscript && e.operands.size() == 2 && e.operands[0]->kind == ExprKind::VarRef &&
      e.operands[0]->var < fn_.slotOf.size() && var(e.operands[0]->var).type.constElements)
    malformed(e.range, "assignment to a const array");
  if (LvalueNodePtr l = referent(e)) return l;
  malformed(e.range, std::string("assignment to an expression that is not a variable or array element (") +
                         std::string(name(e.kind)) + ")");
}

LvalueNodePtr Compiler::referent(const Expr& e) {
  if (e.kind == ExprKind::VarRef) {
    if (e.var >= fn_.slotOf.size() || !var(e.var).type.isValue()) malformed(e.range, "assignment to a non-scalar");
    if (var(e.var).isReference()) return std::make_unique<RefLvalue>(&e, slotOf(e.var));
    return std::make_unique<SlotLvalue>(&e, slotOf(e.var), isChecked(e.var));
  }
  if (e.kind == ExprKind::Subscript) {
    checkSubscript(*this, e, fn_.slotOf.size());
    const std::uint32_t array = slotOf(e.operands[0]->var);
    return withIndex(*this, *e.operands[1], [&](auto index) -> LvalueNodePtr {
      return std::make_unique<ElemLvalue<decltype(index)>>(&e, array, std::move(index));
    });
  }
  return nullptr;
}

ExprNodePtr Compiler::assign(const Expr& e) {
  if (e.operands.size() != 2) malformed(e.range, "assignment without two operands");
  const Expr& l = *e.operands[0];
  if (e.operands[1]->type.scalar != l.type.scalar) malformed(e.range, "assignment of a value of another type");
  if (l.kind == ExprKind::VarRef && isSlotVar(l.var))
    return std::make_unique<AssignSlotNode>(&e, slotOf(l.var), expr(*e.operands[1]));
  ExprNodePtr rhs = expr(*e.operands[1]);
  return std::make_unique<AssignPlaceNode>(&e, lvalue(l), std::move(rhs));
}

ExprNodePtr Compiler::compoundAssign(const Expr& e) {
  if (e.operands.size() != 2) malformed(e.range, "compound assignment without two operands");
  const Expr& l = *e.operands[0];
  const Scalar t = l.type.scalar;
  const Scalar c = e.computeType == Scalar::Void ? t : e.computeType;
  const BinaryOp op = e.binaryOp;
  if (isComparison(op) || isLogical(op)) malformed(e.range, "compound assignment with a comparison");
  const bool isShiftOp = isShift(op);
  const Scalar rt = e.operands[1]->type.scalar;
  if (!isShiftOp && rt != c) malformed(e.range, "compound assignment operand not of the computation type");
  BinaryFn fn = binaryFn(op, c);
  if (!fn) malformed(e.range, "operator '" + std::string(spelling(op)) + "=' on " + std::string(spelling(c)));
  // PlantedBug::CompoundInTargetType: `x op= y` computed in x's type (y converted to it first).
  if (plantedBug(*this) == PlantedBug::CompoundInTargetType && !isShiftOp && t != c)
    if (BinaryFn inTarget = binaryFn(op, t))
      return std::make_unique<CompoundPlaceNode>(&e, lvalue(l),
                                                 convertNode(*e.operands[1], converter(c, t), expr(*e.operands[1])),
                                                 converter(t, t), converter(t, t), inTarget, t);
  // The hot shape: `sum += x[k]` with sum a scalar of the computation type.
  if (!isShiftOp && t == c && l.kind == ExprKind::VarRef && isSlotVar(l.var)) {
    ExprNodePtr node = dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
      using T = Cpp<S>;
      if constexpr (std::is_same_v<T, bool>) {
        return nullptr;
      } else {
        auto mk = [&]<BinaryOp Op>() -> ExprNodePtr {
          if constexpr (std::is_floating_point_v<T> && (Op == BinaryOp::Rem || Op == BinaryOp::BitAnd ||
                                                        Op == BinaryOp::BitOr || Op == BinaryOp::BitXor))
            return nullptr;
          else {
            const Expr& r = *e.operands[1];
            if constexpr (Op == BinaryOp::Add && std::is_floating_point_v<T>) {
              // acc += x[..] * y[..] and acc += v * v: the product fused in.
              if (r.kind == ExprKind::Binary && r.binaryOp == BinaryOp::Mul && r.operands.size() == 2 &&
                  r.type.scalar == t && r.operands[0]->type.scalar == t && r.operands[1]->type.scalar == t) {
                Operand a = operand(*r.operands[0], true), b = operand(*r.operands[1], true);
                if (a.kind == Operand::Elem && b.kind == Operand::Elem) {
                  using P = ProductOp<T, ElemOp<T>, ElemOp<T>>;
                  return std::make_unique<CompoundSlotNode<Op, T, P>>(&e, slotOf(l.var), isChecked(l.var),
                                                                      P{ElemOp<T>{a.slot, a.index, a.src},
                                                                        ElemOp<T>{b.slot, b.index, b.src}, &r});
                }
                if (a.kind == Operand::Slot && b.kind == Operand::Slot) {
                  using P = ProductOp<T, SlotOp<T>, SlotOp<T>>;
                  return std::make_unique<CompoundSlotNode<Op, T, P>>(&e, slotOf(l.var), isChecked(l.var),
                                                                      P{SlotOp<T>{a.slot}, SlotOp<T>{b.slot}, &r});
                }
              }
            }
            Operand o = operand(r, kFused<T>);
            if constexpr (kFused<T>) {
              if (o.kind == Operand::Elem)
                return std::make_unique<CompoundSlotNode<Op, T, ElemOp<T>>>(&e, slotOf(l.var), isChecked(l.var),
                                                                            ElemOp<T>{o.slot, o.index, o.src});
              if (o.kind == Operand::Slot)
                return std::make_unique<CompoundSlotNode<Op, T, SlotOp<T>>>(&e, slotOf(l.var), isChecked(l.var),
                                                                            SlotOp<T>{o.slot});
            }
            return std::make_unique<CompoundSlotNode<Op, T, NodeOp<T>>>(&e, slotOf(l.var), isChecked(l.var),
                                                                        NodeOp<T>{toNode(std::move(o), r)});
          }
        };
        switch (op) {
          case BinaryOp::Add: return mk.template operator()<BinaryOp::Add>();
          case BinaryOp::Sub: return mk.template operator()<BinaryOp::Sub>();
          case BinaryOp::Mul: return mk.template operator()<BinaryOp::Mul>();
          case BinaryOp::Div: return mk.template operator()<BinaryOp::Div>();
          case BinaryOp::Rem: return mk.template operator()<BinaryOp::Rem>();
          case BinaryOp::BitAnd: return mk.template operator()<BinaryOp::BitAnd>();
          case BinaryOp::BitOr: return mk.template operator()<BinaryOp::BitOr>();
          case BinaryOp::BitXor: return mk.template operator()<BinaryOp::BitXor>();
          default: return nullptr;
        }
      }
    });
    if (node) return node;
  }
  ExprNodePtr rhs = expr(*e.operands[1]);
  return std::make_unique<CompoundPlaceNode>(&e, lvalue(l), std::move(rhs), converter(t, c), converter(c, t), fn, rt);
}

ExprNodePtr Compiler::incDec(const Expr& e) {
  if (e.operands.size() != 1) malformed(e.range, "++/-- without one operand");
  const Expr& l = *e.operands[0];
  const int d = delta(e.incDecOp);
  const bool prefix = isPrefix(e.incDecOp);
  return dispatch(l.type.scalar, [&]<Scalar S>() -> ExprNodePtr {
    using T = Cpp<S>;
    if constexpr (std::is_same_v<T, bool>) {
      malformed(e.range, "++/-- on bool");
    } else {
      if (l.kind == ExprKind::VarRef && isSlotVar(l.var)) {
        const std::uint32_t s = slotOf(l.var);
        const bool c = isChecked(l.var);
        if (d > 0 && prefix) return std::make_unique<IncDecSlotNode<T, 1, true>>(&e, s, c);
        if (d > 0) return std::make_unique<IncDecSlotNode<T, 1, false>>(&e, s, c);
        if (prefix) return std::make_unique<IncDecSlotNode<T, -1, true>>(&e, s, c);
        return std::make_unique<IncDecSlotNode<T, -1, false>>(&e, s, c);
      }
      return std::make_unique<IncDecPlaceNode<T>>(&e, lvalue(l), d, prefix);
    }
  });
}

ExprNodePtr Compiler::call(const Expr& e) {
  const Module& m = *program().module;
  if (e.callee >= m.functions.size()) malformed(e.range, "call of an unknown function");
  const Function& target = m.functions[e.callee];
  if (e.operands.size() != target.numParams)
    malformed(e.range, "call of '" + target.name + "' with the wrong number of arguments");
  auto node = std::make_unique<CallNode>(&e, &program().functions[e.callee]);
  const bool takesReferences = std::any_of(target.vars.begin(), target.vars.begin() + target.numParams,
                                           [](const Var& v) { return v.isReference(); });
  if (takesReferences) {
    node->referents.resize(target.numParams);
    node->temporaries.assign(target.numParams, false);
  }
  for (unsigned p = 0; p < target.numParams; ++p) {
    const Expr& a = *e.operands[p];
    const Type& pt = target.param(p).type;
    if (target.param(p).isReference()) {
      if (a.type.scalar != pt.scalar || !a.type.isValue())
        malformed(a.range,
                  "argument " + std::to_string(p + 1) + " of '" + target.name + "' not of the referent's type");
      node->referents[p] = referent(a);
      const bool constant = target.param(p).binding == Binding::ConstReference;
      if (node->referents[p] && !constant && a.kind == ExprKind::Subscript &&
          var(a.operands[0]->var).type.constElements)
        malformed(a.range, "an element of a const array bound to a non-const reference");
      if (!node->referents[p]) {
        if (!constant) malformed(a.range, "a temporary bound to a non-const reference");
        node->temporaries[p] = true;
        node->scalars.push_back(expr(a));
      } else {
        node->scalars.push_back(nullptr);
      }
      node->arrays.push_back(0);
    } else if (pt.isValue()) {
      if (a.type.scalar != pt.scalar || !a.type.isValue())
        malformed(a.range,
                  "argument " + std::to_string(p + 1) + " of '" + target.name + "' not of the parameter's type");
      node->scalars.push_back(expr(a));
      node->arrays.push_back(0);
    } else {
      if (a.kind != ExprKind::VarRef || a.var >= fn_.slotOf.size() || var(a.var).type.isValue() ||
          var(a.var).type.scalar != pt.scalar)
        malformed(a.range, "array argument " + std::to_string(p + 1) + " of '" + target.name +
                               "' is not an array variable of the element type");
      node->scalars.push_back(nullptr);
      node->arrays.push_back(slotOf(a.var));
    }
  }
  return node;
}

}  // namespace culift::interp::exec
