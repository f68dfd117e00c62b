// Operand access policies for fused nodes: a child node (one virtual call), a slot (one load)
// or a constant. `fuse2` picks the instance matching the operands the compiler found.
#pragma once

#include <type_traits>

#include "compiler.hpp"
#include "ops.hpp"

namespace culift::interp::exec {

template <typename T> struct NodeOp {
  ExprNodePtr n;
  [[gnu::always_inline]] T operator()(Frame& f) const { return get<T>(n->eval(f)); }
};
template <typename T> struct SlotOp {
  std::uint32_t slot;
  [[gnu::always_inline]] T operator()(Frame& f) const { return get<T>(f.slots[slot]); }
};
template <typename T> struct ConstOp {
  T v;
  T operator()(Frame&) const { return v; }
};

[[noreturn]] void failIndex(Frame& f, const Expr& e, std::string index, std::uint64_t size);
[[noreturn]] void failUninitElement(Frame& f, const Expr& e, std::uint64_t index);

template <typename I>
[[noreturn, gnu::cold, gnu::noinline]] void failIndexValue(Frame& f, const Expr& e, I idx, std::uint64_t size) {
  failIndex(f, e, text(idx), size);
}

template <typename I>
[[gnu::always_inline]] inline std::uint64_t checkedIndex(I idx, const ArrayView& v, Frame& f, const Expr& e) {
  if constexpr (std::is_signed_v<I>) {
    if (idx < 0 || static_cast<std::uint64_t>(idx) >= v.size) [[unlikely]]
      failIndexValue(f, e, idx, v.size);
  } else {
    if (static_cast<std::uint64_t>(idx) >= v.size) [[unlikely]]
      failIndexValue(f, e, idx, v.size);
  }
  return static_cast<std::uint64_t>(idx);
}

[[gnu::always_inline]] inline int affineValue(const AffineIndex& x, Frame& f) {
  const int c = get<int>(f.slots[x.c]);
  if (x.form == AffineIndex::Var) return c;
  int a = get<int>(f.slots[x.a]);
  if (x.form == AffineIndex::MulAdd) a = arith<BinaryOp::Mul>(a, get<int>(f.slots[x.b]), *x.mul);
  return arith<BinaryOp::Add>(a, c, *x.add);
}

// An array element `x[a * b + c]` read inline.
template <typename T> struct ElemOp {
  std::uint32_t array;
  AffineIndex index;
  const Expr* src;
  [[gnu::always_inline]] T operator()(Frame& f) const {
    const ArrayView& v = f.arrays[array];
    const std::uint64_t k = checkedIndex<int>(affineValue(index, f), v, f, *src);
    if (v.init && !v.init[k]) [[unlikely]]
      failUninitElement(f, *src, k);
    if (v.shadow) [[unlikely]]
      noteRead(f, *src, v, k);
    T x;
    std::memcpy(&x, v.data + k * sizeof(T), sizeof(T));
    return x;
  }
};

// Types whose operations are fused (the common computation types); others use nodes only.
template <typename T> constexpr bool kFused = std::is_same_v<T, int> || std::is_same_v<T, long long> ||
                                              std::is_same_v<T, long> || std::is_same_v<T, unsigned> ||
                                              std::is_same_v<T, unsigned long> || std::is_same_v<T, float> ||
                                              std::is_same_v<T, double>;

// make(l, r) receives two operand policies and returns the node.
template <typename T, typename Make> ExprNodePtr fuse2(Compiler& c, const Expr& le, const Expr& re, Make make) {
  constexpr bool kElem = std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int>;
  Operand a = c.operand(le, kElem);
  Operand b = c.operand(re, kElem);
  if constexpr (kFused<T>) {
    using K = Operand::Kind;
    if constexpr (kElem) {
      auto elem = [](Operand& o) { return ElemOp<T>{o.slot, o.index, o.src}; };
      if (a.kind == K::Elem && b.kind == K::Elem) return make(elem(a), elem(b));
      if (a.kind == K::Elem && b.kind == K::Slot) return make(elem(a), SlotOp<T>{b.slot});
      if (a.kind == K::Slot && b.kind == K::Elem) return make(SlotOp<T>{a.slot}, elem(b));
      if (a.kind == K::Elem && b.kind == K::Const) return make(elem(a), ConstOp<T>{get<T>(b.value)});
      if (a.kind == K::Const && b.kind == K::Elem) return make(ConstOp<T>{get<T>(a.value)}, elem(b));
      if (a.kind == K::Elem) return make(elem(a), NodeOp<T>{c.toNode(std::move(b), re)});
      if (b.kind == K::Elem) return make(NodeOp<T>{c.toNode(std::move(a), le)}, elem(b));
    }
    if (a.kind == K::Slot && b.kind == K::Slot) return make(SlotOp<T>{a.slot}, SlotOp<T>{b.slot});
    if (a.kind == K::Slot && b.kind == K::Const) return make(SlotOp<T>{a.slot}, ConstOp<T>{get<T>(b.value)});
    if (a.kind == K::Const && b.kind == K::Slot) return make(ConstOp<T>{get<T>(a.value)}, SlotOp<T>{b.slot});
    if (a.kind == K::Slot) return make(SlotOp<T>{a.slot}, NodeOp<T>{c.toNode(std::move(b), re)});
    if (b.kind == K::Slot) return make(NodeOp<T>{c.toNode(std::move(a), le)}, SlotOp<T>{b.slot});
    if (b.kind == K::Const) return make(NodeOp<T>{c.toNode(std::move(a), le)}, ConstOp<T>{get<T>(b.value)});
    if (a.kind == K::Const) return make(ConstOp<T>{get<T>(a.value)}, NodeOp<T>{c.toNode(std::move(b), re)});
  }
  return make(NodeOp<T>{c.toNode(std::move(a), le)}, NodeOp<T>{c.toNode(std::move(b), re)});
}

}  // namespace culift::interp::exec
