// The deliberate bugs of Options::plantedBug (planted_bugs.hpp): each replaces the node one
// construct compiles to with one that gets a corner of C++ wrong, the way a real interpreter bug
// would. The oracle's tests compile programs with each and require a finding.
#include "planted_bugs.hpp"

#include <cmath>
#include <functional>
#include <limits>

#include "ops.hpp"

namespace culift::interp::exec {
namespace {

struct Fn1Node final : ExprNode {
  ExprNodePtr a;
  std::function<Raw(Raw, const Expr&)> fn;
  Fn1Node(const Expr* e, ExprNodePtr x, std::function<Raw(Raw, const Expr&)> f)
      : ExprNode(e), a(std::move(x)), fn(std::move(f)) {}
  Raw eval(Frame& f) const override { return fn(a->eval(f), *src); }
};

struct Fn2Node final : ExprNode {
  ExprNodePtr l, r;
  std::function<Raw(Raw, Raw, const Expr&)> fn;
  Fn2Node(const Expr* e, ExprNodePtr a, ExprNodePtr b, std::function<Raw(Raw, Raw, const Expr&)> f)
      : ExprNode(e), l(std::move(a)), r(std::move(b)), fn(std::move(f)) {}
  Raw eval(Frame& f) const override {
    const Raw a = l->eval(f);
    return fn(a, r->eval(f), *src);
  }
};

ExprNodePtr binaryOf(Compiler& c, const Expr& e, std::function<Raw(Raw, Raw, const Expr&)> fn) {
  return std::make_unique<Fn2Node>(&e, c.expr(*e.operands[0]), c.expr(*e.operands[1]), std::move(fn));
}

}  // namespace

PlantedBug plantedBug(const Compiler& c) { return c.program().options.plantedBug; }

ExprNodePtr plantedBinary(Compiler& c, const Expr& e) {
  const PlantedBug bug = plantedBug(c);
  if (bug == PlantedBug::None || e.operands.size() != 2) return nullptr;
  const Scalar t = e.operands[0]->type.scalar;
  switch (bug) {
    case PlantedBug::LogicalEager:
      if (e.binaryOp != BinaryOp::LogAnd && e.binaryOp != BinaryOp::LogOr) return nullptr;
      return binaryOf(c, e, [and_ = e.binaryOp == BinaryOp::LogAnd](Raw a, Raw b, const Expr&) {
        return make(and_ ? get<bool>(a) && get<bool>(b) : get<bool>(a) || get<bool>(b));
      });
    case PlantedBug::SignedShiftRightLogical:
      if (e.binaryOp != BinaryOp::Shr || !isInteger(t) || !isSigned(t)) return nullptr;
      return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
        using T = Cpp<S>;
        if constexpr (kSignedInt<T>) {
          const Scalar countType = e.operands[1]->type.scalar;
          return binaryOf(c, e, [countType](Raw a, Raw n, const Expr& x) {
            const T v = get<T>(a);
            const T arithmetic = shift<BinaryOp::Shr, T>(v, n, countType, x);  // the checks; right for v >= 0
            if (v >= 0) return make(arithmetic);
            std::uint64_t count = 0;
            dispatch(countType, [&]<Scalar C>() {
              using N = Cpp<C>;
              if constexpr (kInt<N> || std::is_same_v<N, bool>) count = static_cast<std::uint64_t>(get<N>(n));
            });
            using U = std::make_unsigned_t<T>;
            return make(static_cast<T>(static_cast<U>(v) >> count));
          });
        }
        return nullptr;
      });
    case PlantedBug::UnsignedSubSaturates:
      if (e.binaryOp != BinaryOp::Sub || !isInteger(t) || isSigned(t)) return nullptr;
      return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
        using T = Cpp<S>;
        if constexpr (kUnsignedInt<T>)
          return binaryOf(c, e, [](Raw a, Raw b, const Expr&) {
            const T x = get<T>(a), y = get<T>(b);
            return make(x < y ? T(0) : static_cast<T>(x - y));
          });
        return nullptr;
      });
    case PlantedBug::RemainderTakesDivisorSign:
      if (e.binaryOp != BinaryOp::Rem || !isInteger(t) || !isSigned(t)) return nullptr;
      return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
        using T = Cpp<S>;
        if constexpr (kSignedInt<T>)
          return binaryOf(c, e, [](Raw a, Raw b, const Expr& x) {
            const T y = get<T>(b);
            T r = arith<BinaryOp::Rem, T>(get<T>(a), y, x);  // division by zero and overflow still errors
            if (r != 0 && ((r < 0) != (y < 0))) r = static_cast<T>(r + y);
            return make(r);
          });
        return nullptr;
      });
    case PlantedBug::NaNLessThanTrue:
      if (e.binaryOp != BinaryOp::Lt || !isFloating(t)) return nullptr;
      return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
        using T = Cpp<S>;
        if constexpr (std::is_floating_point_v<T>)
          return binaryOf(c, e, [](Raw a, Raw b, const Expr&) { return make(!(get<T>(a) >= get<T>(b))); });
        return nullptr;
      });
    case PlantedBug::NaNCanonical: {
      const BinaryOp op = e.binaryOp;
      if (!isFloating(t) || (op != BinaryOp::Add && op != BinaryOp::Sub && op != BinaryOp::Mul && op != BinaryOp::Div))
        return nullptr;
      return dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
        using T = Cpp<S>;
        if constexpr (std::is_floating_point_v<T>)
          return binaryOf(c, e, [op](Raw a, Raw b, const Expr& x) {
            const T l = get<T>(a), r = get<T>(b);
            const T v = op == BinaryOp::Add   ? arith<BinaryOp::Add, T>(l, r, x)
                        : op == BinaryOp::Sub ? arith<BinaryOp::Sub, T>(l, r, x)
                        : op == BinaryOp::Mul ? arith<BinaryOp::Mul, T>(l, r, x)
                                              : arith<BinaryOp::Div, T>(l, r, x);
            return make(v != v ? std::numeric_limits<T>::quiet_NaN() : v);
          });
        return nullptr;
      });
    }
    default: return nullptr;
  }
}

ExprNodePtr plantedCast(Compiler& c, const Expr& e) {
  const PlantedBug bug = plantedBug(c);
  if (bug == PlantedBug::None || e.operands.size() != 1) return nullptr;
  const Scalar from = e.operands[0]->type.scalar, to = e.type.scalar;
  switch (bug) {
    case PlantedBug::FloatToIntRounds:
      if (!isFloating(from) || !isInteger(to)) return nullptr;
      return dispatch(from, [&]<Scalar F>() -> ExprNodePtr {
        using T = Cpp<F>;
        if constexpr (std::is_floating_point_v<T>) {
          ConvertFn toInt = converter(from, to);
          return std::make_unique<Fn1Node>(&e, c.expr(*e.operands[0]), [toInt](Raw a, const Expr& x) {
            return toInt(make(std::nearbyint(get<T>(a))), x);
          });
        }
        return nullptr;
      });
    case PlantedBug::UnsignedNarrowSignExtends:
      if ((from != Scalar::U8 && from != Scalar::U16) || !isInteger(to) || byteSize(to) <= byteSize(from))
        return nullptr;
      return std::make_unique<Fn1Node>(&e, c.expr(*e.operands[0]), [from, to](Raw a, const Expr& x) {
        const std::int64_t v = from == Scalar::U8 ? static_cast<std::int8_t>(get<std::uint8_t>(a))
                                                  : static_cast<std::int16_t>(get<std::uint16_t>(a));
        return converter(Scalar::I64, to)(make(v), x);
      });
    case PlantedBug::NegativeZeroNarrowsPositive:
      if (from != Scalar::F64 || to != Scalar::F32) return nullptr;
      return std::make_unique<Fn1Node>(&e, c.expr(*e.operands[0]), [](Raw a, const Expr&) {
        const double v = get<double>(a);
        return make(v == 0.0 ? 0.0f : static_cast<float>(v));
      });
    default: return nullptr;
  }
}

}  // namespace culift::interp::exec
