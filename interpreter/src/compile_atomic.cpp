// std::atomic_ref<T>(a[k]).fetch_add(v) and the other atomic read-modify-writes: performed with
// std::atomic_ref on the caller's array element itself, so that the outputs of a launch, run on
// several cores, update it as the device's atomics do. Integers wrap (C++ defines signed atomic
// arithmetic as two's complement); floating sums add in whatever order the outputs arrive.
#include <atomic>

#include "compiler.hpp"

namespace culift::interp::exec {
namespace {

template <typename T> T wrapped(T a, T b, AtomicOp op) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const U x = static_cast<U>(a), y = static_cast<U>(b);
    return static_cast<T>(op == AtomicOp::Sub ? static_cast<U>(x - y) : static_cast<U>(x + y));
  } else {
    return op == AtomicOp::Sub ? a - b : a + b;
  }
}

template <typename T> struct AtomicNode final : ExprNode {
  LvalueNodePtr element;
  ExprNodePtr value;
  AtomicOp op;
  AtomicNode(const Expr* e, LvalueNodePtr l, ExprNodePtr v, AtomicOp o)
      : ExprNode(e), element(std::move(l)), value(std::move(v)), op(o) {}
  Raw eval(Frame& f) const override {
    // The object expression (the atomic_ref of a[k]) is sequenced before the argument.
    const Place p = element->atomicPlace(f);
    const T v = get<T>(value->eval(f));
    std::atomic_ref<T> ref(*reinterpret_cast<T*>(p.p));
    T old = ref.load(std::memory_order_relaxed);
    switch (op) {
      case AtomicOp::Add:
      case AtomicOp::Sub:
        while (!ref.compare_exchange_weak(old, wrapped(old, v, op), std::memory_order_relaxed)) {
        }
        break;
      case AtomicOp::Min:
        while (v < old && !ref.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
        }
        break;
      case AtomicOp::Max:
        while (old < v && !ref.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
        }
        break;
    }
    return make(old);
  }
};

}  // namespace

ExprNodePtr Compiler::atomic(const Expr& e) {
  if (e.operands.size() != 2 || e.operands[0]->kind != ExprKind::Subscript)
    malformed(e.range, "atomic operation on something other than an array element");
  const Scalar t = e.type.scalar;
  if (e.operands[0]->type.scalar != t || e.operands[1]->type.scalar != t)
    malformed(e.range, "atomic operation with an operand of another type");
  if (integersOnly(e.atomicOp) && !isInteger(t)) malformed(e.range, "atomic min or max of a floating value");
  LvalueNodePtr element = lvalue(*e.operands[0]);
  ExprNodePtr value = expr(*e.operands[1]);
  switch (t) {
    case Scalar::I32:
      return std::make_unique<AtomicNode<std::int32_t>>(&e, std::move(element), std::move(value), e.atomicOp);
    case Scalar::U32:
      return std::make_unique<AtomicNode<std::uint32_t>>(&e, std::move(element), std::move(value), e.atomicOp);
    case Scalar::I64:
      return std::make_unique<AtomicNode<std::int64_t>>(&e, std::move(element), std::move(value), e.atomicOp);
    case Scalar::U64:
      return std::make_unique<AtomicNode<std::uint64_t>>(&e, std::move(element), std::move(value), e.atomicOp);
    case Scalar::F32: return std::make_unique<AtomicNode<float>>(&e, std::move(element), std::move(value), e.atomicOp);
    case Scalar::F64: return std::make_unique<AtomicNode<double>>(&e, std::move(element), std::move(value), e.atomicOp);
    default: break;
  }
  malformed(e.range, "atomic operation on a " + std::string(spelling(t)));
}

}  // namespace culift::interp::exec
