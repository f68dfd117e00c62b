// Binary and unary operators and conversions.
#include "binary_nodes.hpp"
#include "planted_bugs.hpp"

namespace culift::interp::exec {
namespace {

template <BinaryOp Op, typename T, typename C> struct ShiftNode final : ExprNode {
  ExprNodePtr l, r;
  Scalar countType;
  ShiftNode(const Expr* e, ExprNodePtr a, ExprNodePtr b, Scalar ct)
      : ExprNode(e), l(std::move(a)), r(std::move(b)), countType(ct) {}
  Raw eval(Frame& f) const override {
    T a = get<T>(l->eval(f));
    Raw n = r->eval(f);
    return make(shift<Op, T>(a, n, countType, *src));
  }
};

template <bool IsAnd> struct LogicalNode final : ExprNode {
  ExprNodePtr l, r;
  LogicalNode(const Expr* e, ExprNodePtr a, ExprNodePtr b) : ExprNode(e), l(std::move(a)), r(std::move(b)) {}
  Raw eval(Frame& f) const override {
    bool a = get<bool>(l->eval(f));
    if constexpr (IsAnd) {
      if (!a) return make(false);
    } else {
      if (a) return make(true);
    }
    return make(get<bool>(r->eval(f)));
  }
};

template <typename T> struct NegNode final : ExprNode {
  ExprNodePtr a;
  NegNode(const Expr* e, ExprNodePtr x) : ExprNode(e), a(std::move(x)) {}
  Raw eval(Frame& f) const override {
    T v = get<T>(a->eval(f));
    if constexpr (kSignedInt<T>) {
      T r;
      if (__builtin_sub_overflow(T(0), v, &r)) [[unlikely]]
        failArith(*src, "signed integer overflow in negation", "0", text(v));
      return make(r);
    } else if constexpr (kUnsignedInt<T>) {
      using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, T>;
      return make(static_cast<T>(W(0) - W(v)));
    } else {
      return make(static_cast<T>(-v));
    }
  }
};
template <typename T> struct BitNotNode final : ExprNode {
  ExprNodePtr a;
  BitNotNode(const Expr* e, ExprNodePtr x) : ExprNode(e), a(std::move(x)) {}
  Raw eval(Frame& f) const override { return make(static_cast<T>(~get<T>(a->eval(f)))); }
};
struct NotNode final : ExprNode {
  ExprNodePtr a;
  NotNode(const Expr* e, ExprNodePtr x) : ExprNode(e), a(std::move(x)) {}
  Raw eval(Frame& f) const override { return make(!get<bool>(a->eval(f))); }
};
struct PassNode final : ExprNode {  // unary plus on an already promoted operand
  ExprNodePtr a;
  PassNode(const Expr* e, ExprNodePtr x) : ExprNode(e), a(std::move(x)) {}
  Raw eval(Frame& f) const override { return a->eval(f); }
};

template <typename From, typename To> struct CastNode final : ExprNode {
  ExprNodePtr a;
  CastNode(const Expr* e, ExprNodePtr x) : ExprNode(e), a(std::move(x)) {}
  Raw eval(Frame& f) const override { return make(convert<From, To>(get<From>(a->eval(f)), *src)); }
};

template <BinaryOp Op> ExprNodePtr makeShift(Compiler& c, const Expr& e) {
  Scalar t = e.operands[0]->type.scalar;
  Scalar ct = e.operands[1]->type.scalar;
  if (!isInteger(t) || !(isInteger(ct) || ct == Scalar::Bool)) c.malformed(e.range, "shift of a non-integer operand");
  return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
    using T = Cpp<S>;
    if constexpr (kInt<T>) {
      return std::make_unique<ShiftNode<Op, T, void>>(&e, c.expr(*e.operands[0]), c.expr(*e.operands[1]), ct);
    } else {
      c.malformed(e.range, "shift of a non-integer operand");
    }
  });
}

// ---- generic tables ----------------------------------------------------------------------

}  // namespace

ExprNodePtr Compiler::binary(const Expr& e) {
  if (e.operands.size() != 2) malformed(e.range, "binary operator without two operands");
  if (ExprNodePtr planted = plantedBinary(*this, e)) return planted;
  const Scalar t = e.operands[0]->type.scalar;
  switch (e.binaryOp) {
    case BinaryOp::LogAnd: return std::make_unique<LogicalNode<true>>(&e, expr(*e.operands[0]), expr(*e.operands[1]));
    case BinaryOp::LogOr: return std::make_unique<LogicalNode<false>>(&e, expr(*e.operands[0]), expr(*e.operands[1]));
    case BinaryOp::Shl: return makeShift<BinaryOp::Shl>(*this, e);
    case BinaryOp::Shr: return makeShift<BinaryOp::Shr>(*this, e);
    default: break;
  }
  if (t == Scalar::Void || e.operands[1]->type.scalar != t)
    malformed(e.range, "operands of '" + std::string(spelling(e.binaryOp)) + "' of different types");
  if (isComparison(e.binaryOp)) return makeComparison(*this, e, t);
  return makeArithmetic(*this, e, t);
}

ExprNodePtr Compiler::unary(const Expr& e) {
  if (e.operands.size() != 1) malformed(e.range, "unary operator without one operand");
  const Scalar t = e.operands[0]->type.scalar;
  ExprNodePtr a = expr(*e.operands[0]);
  switch (e.unaryOp) {
    case UnaryOp::Plus: return std::make_unique<PassNode>(&e, std::move(a));
    case UnaryOp::LogNot:  // on a bool: the verifier's rule
      return std::make_unique<NotNode>(&e, std::move(a));
    case UnaryOp::Neg:
      return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
        if constexpr (S == Scalar::Bool) malformed(e.range, "'-' on bool");
        else return std::make_unique<NegNode<Cpp<S>>>(&e, std::move(a));
      });
    case UnaryOp::BitNot:
      return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
        if constexpr (!kInt<Cpp<S>>) malformed(e.range, "'~' on a non-integer operand");
        else return std::make_unique<BitNotNode<Cpp<S>>>(&e, std::move(a));
      });
  }
  malformed(e.range, "unknown unary operator");
}

ExprNodePtr Compiler::cast(const Expr& e) {
  if (e.operands.size() != 1 || !e.type.isValue() || e.type.scalar == Scalar::Void)
    malformed(e.range, "cast without one operand or to a non-scalar type");
  const Scalar from = e.operands[0]->type.scalar;
  const Scalar to = e.type.scalar;
  if (from == Scalar::Void) malformed(e.range, "cast of a void value");
  if (ExprNodePtr planted = plantedCast(*this, e)) return planted;
  ExprNodePtr a = expr(*e.operands[0]);
  if (from == to) return a;
  return dispatch(from, [&]<Scalar F>() -> ExprNodePtr {
    return dispatch(to, [&]<Scalar T>() -> ExprNodePtr {
      return std::make_unique<CastNode<Cpp<F>, Cpp<T>>>(&e, std::move(a));
    });
  });
}


}  // namespace culift::interp::exec
