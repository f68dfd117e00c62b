// Generic operator and conversion tables (for shapes the fused nodes do not cover), and
// loads/stores of a scalar of a run-time type.
#include "binary_nodes.hpp"

namespace culift::interp::exec {
namespace {

template <BinaryOp Op, Scalar S> Raw genericBinary(Raw a, Raw b, Scalar rhsType, const Expr& e) {
  using T = Cpp<S>;
  if constexpr (Op == BinaryOp::Shl || Op == BinaryOp::Shr) {
    if constexpr (kInt<T>) return make(shift<Op, T>(get<T>(a), b, rhsType, e));
    else return a;
  } else if constexpr (applies<Op, T>()) {
    return apply<Op, T>(get<T>(a), get<T>(b), e);
  } else {
    return a;
  }
}
template <BinaryOp Op, Scalar S> constexpr bool genericApplies() {
  using T = Cpp<S>;
  if constexpr (Op == BinaryOp::Shl || Op == BinaryOp::Shr) return kInt<T>;
  else if constexpr (Op == BinaryOp::LogAnd || Op == BinaryOp::LogOr) return false;
  else return applies<Op, T>();
}

template <Scalar From, Scalar To> Raw genericConvert(Raw v, const Expr& e) {
  return make(convert<Cpp<From>, Cpp<To>>(get<Cpp<From>>(v), e));
}

}  // namespace

ConvertFn converter(Scalar from, Scalar to) {
  return dispatch(from, [&]<Scalar F>() -> ConvertFn {
    return dispatch(to, [&]<Scalar T>() -> ConvertFn { return &genericConvert<F, T>; });
  });
}

BinaryFn binaryFn(BinaryOp op, Scalar type) {
  switch (op) {
#define CULIFT_BINARY_OP(O, SP)                                                              \
  case BinaryOp::O:                                                                          \
    return dispatch(type, [&]<Scalar S>() -> BinaryFn {                                      \
      if constexpr (genericApplies<BinaryOp::O, S>()) return &genericBinary<BinaryOp::O, S>; \
      else return nullptr;                                                                   \
    });
#include "culift/ast/constructs.def"
  }
  return nullptr;
}

Raw loadAt(const std::byte* p, Scalar type) {
  Raw r;
  switch (byteSize(type)) {
    case 1:
      if (type == Scalar::Bool) return make(*reinterpret_cast<const std::uint8_t*>(p) != 0);
      std::memcpy(&r.bits, p, 1);
      break;
    case 2: std::memcpy(&r.bits, p, 2); break;
    case 4: std::memcpy(&r.bits, p, 4); break;
    default: std::memcpy(&r.bits, p, 8); break;
  }
  return r;
}
void storeAt(std::byte* p, Scalar type, Raw v) {
  switch (byteSize(type)) {
    case 1: std::memcpy(p, &v.bits, 1); break;
    case 2: std::memcpy(p, &v.bits, 2); break;
    case 4: std::memcpy(p, &v.bits, 4); break;
    default: std::memcpy(p, &v.bits, 8); break;
  }
}

}  // namespace culift::interp::exec
