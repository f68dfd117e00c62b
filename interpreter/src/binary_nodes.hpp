// Binary operator nodes shared by the files that instantiate them (split by operator family
// so the instantiations compile in parallel).
#pragma once

#include "operands.hpp"
#include "ops.hpp"

namespace culift::interp::exec {

template <BinaryOp Op> constexpr bool kArith = Op == BinaryOp::Add || Op == BinaryOp::Sub || Op == BinaryOp::Mul ||
                                               Op == BinaryOp::Div || Op == BinaryOp::Rem;
template <BinaryOp Op> constexpr bool kBitwise = Op == BinaryOp::BitAnd || Op == BinaryOp::BitOr ||
                                                 Op == BinaryOp::BitXor;
template <BinaryOp Op> constexpr bool kCompare = Op == BinaryOp::Lt || Op == BinaryOp::Gt || Op == BinaryOp::Le ||
                                                 Op == BinaryOp::Ge || Op == BinaryOp::Eq || Op == BinaryOp::Ne;

// Whether `Op` applies to operands of type T (as the AST delivers them, already converted).
template <BinaryOp Op, typename T> constexpr bool applies() {
  if constexpr (kCompare<Op>) return true;
  else if constexpr (std::is_same_v<T, bool>) return kBitwise<Op>;
  else if constexpr (std::is_floating_point_v<T>) return kArith<Op> && Op != BinaryOp::Rem;
  else return kArith<Op> || kBitwise<Op>;
}

template <BinaryOp Op, typename T> inline Raw apply(T a, T b, const Expr& e) {
  if constexpr (kCompare<Op>) return make(compare<Op>(a, b));
  else if constexpr (kBitwise<Op>) return make(bitwise<Op>(a, b));
  else return make(arith<Op>(a, b, e));
}

template <BinaryOp Op, typename T, typename L, typename R> struct BinaryNode final : ExprNode {
  L l;
  R r;
  BinaryNode(const Expr* e, L a, R b) : ExprNode(e), l(std::move(a)), r(std::move(b)) {}
  Raw eval(Frame& f) const override {
    T a = l(f);
    T b = r(f);
    return apply<Op, T>(a, b, *src);
  }
};

template <BinaryOp Op> ExprNodePtr makeBinary(Compiler& c, const Expr& e, Scalar t) {
  return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
    using T = Cpp<S>;
    if constexpr (applies<Op, T>()) {
      return fuse2<T>(c, *e.operands[0], *e.operands[1], [&](auto l, auto r) -> ExprNodePtr {
        return std::make_unique<BinaryNode<Op, T, decltype(l), decltype(r)>>(&e, std::move(l), std::move(r));
      });
    } else {
      c.malformed(e.range, std::string("operator '") + std::string(spelling(Op)) + "' on " + std::string(spelling(S)));
    }
  });
}

ExprNodePtr makeArithmetic(Compiler& c, const Expr& e, Scalar t);  // + - * / % & | ^
ExprNodePtr makeComparison(Compiler& c, const Expr& e, Scalar t);  // < > <= >= == !=

}  // namespace culift::interp::exec
