// Math functions through the host math library, in the operands' type (sqrtf for float,
// sqrt for double), and std::abs/min/max/clamp with the standard library's exact semantics.
#include <math.h>

#include <cmath>

#include "operands.hpp"
#include "ops.hpp"
#include "planted_bugs.hpp"

namespace culift::interp::exec {
namespace {

template <typename T> struct Fns {
  using F1 = T (*)(T);
  using F2 = T (*)(T, T);
  using F3 = T (*)(T, T, T);
};

// Each entry calls the <cmath> overload for T, which is the C function for that type
// (std::sqrt(float) is sqrtf): the same code the native build calls.
template <typename T> typename Fns<T>::F1 unaryFn(MathFn fn) {
  switch (fn) {
#define CULIFT_M1(F, call) \
  case MathFn::F: return [](T x) -> T { return call; };
    CULIFT_M1(Sqrt, std::sqrt(x))
    CULIFT_M1(Cbrt, std::cbrt(x))
    CULIFT_M1(Fabs, std::fabs(x))
    CULIFT_M1(Exp, std::exp(x))
    CULIFT_M1(Exp2, std::exp2(x))
    CULIFT_M1(Expm1, std::expm1(x))
    CULIFT_M1(Log, std::log(x))
    CULIFT_M1(Log2, std::log2(x))
    CULIFT_M1(Log10, std::log10(x))
    CULIFT_M1(Log1p, std::log1p(x))
    CULIFT_M1(Sin, std::sin(x))
    CULIFT_M1(Cos, std::cos(x))
    CULIFT_M1(Tan, std::tan(x))
    CULIFT_M1(Asin, std::asin(x))
    CULIFT_M1(Acos, std::acos(x))
    CULIFT_M1(Atan, std::atan(x))
    CULIFT_M1(Sinh, std::sinh(x))
    CULIFT_M1(Cosh, std::cosh(x))
    CULIFT_M1(Tanh, std::tanh(x))
    CULIFT_M1(Asinh, std::asinh(x))
    CULIFT_M1(Acosh, std::acosh(x))
    CULIFT_M1(Atanh, std::atanh(x))
    CULIFT_M1(Erf, std::erf(x))
    CULIFT_M1(Erfc, std::erfc(x))
    CULIFT_M1(Tgamma, std::tgamma(x))
    CULIFT_M1(Floor, std::floor(x))
    CULIFT_M1(Ceil, std::ceil(x))
    CULIFT_M1(Round, std::round(x))
    CULIFT_M1(Trunc, std::trunc(x))
    CULIFT_M1(Rint, std::rint(x))
    CULIFT_M1(Nearbyint, std::nearbyint(x))
#undef CULIFT_M1
    case MathFn::Lgamma:
      // The reentrant form: lgamma writes the global signgam, a race across launch threads.
      // Same value as lgamma/lgammaf.
      if constexpr (std::is_same_v<T, float>)
        return [](float x) {
          int s;
          return ::lgammaf_r(x, &s);
        };
      else
        return [](double x) {
          int s;
          return ::lgamma_r(x, &s);
        };
    default: return nullptr;
  }
}

// std::fmin / std::fmax as IEEE 754-2019 minimumNumber and maximumNumber, as the GPU's fminf /
// fmaxf compute them: -0.0 is ordered below +0.0, and a NaN argument, quiet or signalling, is
// ignored. C++ leaves the sign of std::fmin(-0.0, +0.0) open (x86-64 builds give different ones
// at -O0 and -O2), and glibc's fmin / fmax return a NaN for a signalling one (IEEE 754-2008's
// minNum / maxNum).
template <typename T> T fminOrdered(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == 0 && y == 0) return std::signbit(x) ? x : y;
  return std::fmin(x, y);
}
template <typename T> T fmaxOrdered(T x, T y) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == 0 && y == 0) return std::signbit(x) ? y : x;
  return std::fmax(x, y);
}

template <typename T> typename Fns<T>::F2 binaryMathFn(MathFn fn) {
  switch (fn) {
#define CULIFT_M2(F, call) \
  case MathFn::F: return [](T x, T y) -> T { return call; };
    CULIFT_M2(Fmin, fminOrdered(x, y))
    CULIFT_M2(Fmax, fmaxOrdered(x, y))
    CULIFT_M2(Fdim, std::fdim(x, y))
    CULIFT_M2(Pow, std::pow(x, y))
    CULIFT_M2(Atan2, std::atan2(x, y))
    CULIFT_M2(Hypot, std::hypot(x, y))
    CULIFT_M2(Fmod, std::fmod(x, y))
    CULIFT_M2(Remainder, std::remainder(x, y))
    CULIFT_M2(Copysign, std::copysign(x, y))
#undef CULIFT_M2
    default: return nullptr;
  }
}

template <typename T> struct Math1Node final : ExprNode {
  typename Fns<T>::F1 fn;
  ExprNodePtr a;
  Math1Node(const Expr* e, typename Fns<T>::F1 f, ExprNodePtr x) : ExprNode(e), fn(f), a(std::move(x)) {}
  Raw eval(Frame& f) const override { return make(fn(get<T>(a->eval(f)))); }
};
template <typename T> struct Math2Node final : ExprNode {
  typename Fns<T>::F2 fn;
  ExprNodePtr a, b;
  Math2Node(const Expr* e, typename Fns<T>::F2 f, ExprNodePtr x, ExprNodePtr y)
      : ExprNode(e), fn(f), a(std::move(x)), b(std::move(y)) {}
  Raw eval(Frame& f) const override {
    T x = get<T>(a->eval(f));
    T y = get<T>(b->eval(f));
    return make(fn(x, y));
  }
};
template <typename T> struct FmaNode final : ExprNode {
  ExprNodePtr a, b, c;
  FmaNode(const Expr* e, ExprNodePtr x, ExprNodePtr y, ExprNodePtr z)
      : ExprNode(e), a(std::move(x)), b(std::move(y)), c(std::move(z)) {}
  Raw eval(Frame& f) const override {
    T x = get<T>(a->eval(f));
    T y = get<T>(b->eval(f));
    T z = get<T>(c->eval(f));
    return make(static_cast<T>(std::fma(x, y, z)));
  }
};

template <typename T, MathFn Fn> struct ClassifyNode final : ExprNode {
  ExprNodePtr a;
  ClassifyNode(const Expr* e, ExprNodePtr x) : ExprNode(e), a(std::move(x)) {}
  Raw eval(Frame& f) const override {
    T x = get<T>(a->eval(f));
    if constexpr (Fn == MathFn::Isnan) return make(static_cast<bool>(std::isnan(x)));
    else if constexpr (Fn == MathFn::Isinf) return make(static_cast<bool>(std::isinf(x)));
    else if constexpr (Fn == MathFn::Isfinite) return make(static_cast<bool>(std::isfinite(x)));
    else return make(static_cast<bool>(std::signbit(x)));
  }
};

template <typename T> struct AbsNode final : ExprNode {
  ExprNodePtr a;
  AbsNode(const Expr* e, ExprNodePtr x) : ExprNode(e), a(std::move(x)) {}
  Raw eval(Frame& f) const override {
    T x = get<T>(a->eval(f));
    if constexpr (std::is_floating_point_v<T>) {
      return make(std::fabs(x));
    } else if constexpr (kSignedInt<T>) {
      if (x == std::numeric_limits<T>::min()) [[unlikely]]
        failArith(*src, "signed integer overflow in abs", text(x), "");
      return make(static_cast<T>(x < 0 ? -x : x));
    } else {
      return make(x);
    }
  }
};

// std::min(a, b) is (b < a) ? b : a; std::max(a, b) is (a < b) ? b : a.
template <typename T, bool IsMin, typename L, typename R> struct MinMaxNode final : ExprNode {
  L l;
  R r;
  MinMaxNode(const Expr* e, L a, R b) : ExprNode(e), l(std::move(a)), r(std::move(b)) {}
  Raw eval(Frame& f) const override {
    T a = l(f);
    T b = r(f);
    if constexpr (IsMin) return make((b < a) ? b : a);
    else return make((a < b) ? b : a);
  }
};

// std::clamp(v, lo, hi) is (v < lo) ? lo : (hi < v) ? hi : v.
template <typename T> struct ClampNode final : ExprNode {
  ExprNodePtr a, b, c;
  ClampNode(const Expr* e, ExprNodePtr x, ExprNodePtr y, ExprNodePtr z)
      : ExprNode(e), a(std::move(x)), b(std::move(y)), c(std::move(z)) {}
  Raw eval(Frame& f) const override {
    T v = get<T>(a->eval(f));
    T lo = get<T>(b->eval(f));
    T hi = get<T>(c->eval(f));
    return make((v < lo) ? lo : (hi < v) ? hi : v);
  }
};

struct ConvertNode final : ExprNode {
  ConvertFn fn;
  ExprNodePtr a;
  ConvertNode(const Expr* e, ConvertFn f, ExprNodePtr x) : ExprNode(e), fn(f), a(std::move(x)) {}
  Raw eval(Frame& f) const override { return fn(a->eval(f), *src); }
};

}  // namespace

ExprNodePtr convertNode(const Expr& e, ConvertFn fn, ExprNodePtr operand) {
  return std::make_unique<ConvertNode>(&e, fn, std::move(operand));
}

// PlantedBug::FloatMathInDouble: a float function of one argument computed by its double
// overload, then rounded to float.
ExprNodePtr plantedMath(Compiler& c, const Expr& e) {
  if (plantedBug(c) != PlantedBug::FloatMathInDouble || e.operands.size() != 1 ||
      e.operands[0]->type.scalar != Scalar::F32 || info(e.math).domain != MathDomain::Floating)
    return nullptr;
  auto fn = unaryFn<double>(e.math);
  if (!fn) return nullptr;
  ExprNodePtr asDouble = convertNode(*e.operands[0], converter(Scalar::F32, Scalar::F64), c.expr(*e.operands[0]));
  return convertNode(e, converter(Scalar::F64, Scalar::F32),
                     std::make_unique<Math1Node<double>>(&e, fn, std::move(asDouble)));
}

ExprNodePtr Compiler::mathCall(const Expr& e) {
  const MathFnInfo& m = info(e.math);
  if (e.operands.size() != m.arity)
    malformed(e.range, std::string(m.name) + " called with " + std::to_string(e.operands.size()) + " arguments");
  for (const ExprPtr& a : e.operands)
    if (!a->type.isValue() || a->type.scalar == Scalar::Void) malformed(a->range, "math argument not a scalar");

  // The computation type: the operands' type; integers go to double as <cmath> does.
  Scalar t = e.operands[0]->type.scalar;
  for (const ExprPtr& a : e.operands)
    if (a->type.scalar != t) {
      if (m.domain == MathDomain::Any) malformed(e.range, std::string(m.name) + " of operands of different types");
      if (isFloating(a->type.scalar) && (a->type.scalar == Scalar::F64 || !isFloating(t))) t = a->type.scalar;
    }
  if (m.domain != MathDomain::Any && !isFloating(t)) t = Scalar::F64;
  if (t == Scalar::F32)
    if (ExprNodePtr planted = plantedMath(*this, e)) return planted;
  if (m.domain == MathDomain::Any && t == Scalar::Bool) malformed(e.range, std::string(m.name) + " of bool");

  auto arg = [&](std::size_t k) -> ExprNodePtr {
    const Expr& a = *e.operands[k];
    ExprNodePtr n = expr(a);
    if (a.type.scalar == t) return n;
    return std::make_unique<ConvertNode>(&a, converter(a.type.scalar, t), std::move(n));
  };

  ExprNodePtr node = dispatch(t, [&]<Scalar S>() -> ExprNodePtr {
    using T = Cpp<S>;
    if constexpr (std::is_same_v<T, bool>) {
      return nullptr;
    } else if constexpr (std::is_floating_point_v<T>) {
      if (m.domain == MathDomain::Floating) {
        if (e.math == MathFn::Fma) return std::make_unique<FmaNode<T>>(&e, arg(0), arg(1), arg(2));
        if (m.arity == 1) {
          auto fn = unaryFn<T>(e.math);
          return fn ? std::make_unique<Math1Node<T>>(&e, fn, arg(0)) : nullptr;
        }
        auto fn = binaryMathFn<T>(e.math);
        return fn ? std::make_unique<Math2Node<T>>(&e, fn, arg(0), arg(1)) : nullptr;
      }
      if (m.domain == MathDomain::Classify) {
        switch (e.math) {
          case MathFn::Isnan: return std::make_unique<ClassifyNode<T, MathFn::Isnan>>(&e, arg(0));
          case MathFn::Isinf: return std::make_unique<ClassifyNode<T, MathFn::Isinf>>(&e, arg(0));
          case MathFn::Isfinite: return std::make_unique<ClassifyNode<T, MathFn::Isfinite>>(&e, arg(0));
          default: return std::make_unique<ClassifyNode<T, MathFn::Signbit>>(&e, arg(0));
        }
      }
    }
    if constexpr (!std::is_same_v<T, bool>) {
      switch (e.math) {
        case MathFn::Abs: return std::make_unique<AbsNode<T>>(&e, arg(0));
        case MathFn::Min:
          return fuse2<T>(*this, *e.operands[0], *e.operands[1], [&](auto l, auto r) -> ExprNodePtr {
            return std::make_unique<MinMaxNode<T, true, decltype(l), decltype(r)>>(&e, std::move(l), std::move(r));
          });
        case MathFn::Max:
          return fuse2<T>(*this, *e.operands[0], *e.operands[1], [&](auto l, auto r) -> ExprNodePtr {
            return std::make_unique<MinMaxNode<T, false, decltype(l), decltype(r)>>(&e, std::move(l), std::move(r));
          });
        case MathFn::Clamp: return std::make_unique<ClampNode<T>>(&e, arg(0), arg(1), arg(2));
        default: return nullptr;
      }
    }
    return nullptr;
  });
  if (!node) malformed(e.range, "math function '" + std::string(m.name) + "' on " + std::string(spelling(t)));
  // Classify yields bool; the others yield the computation type. Convert if the node says so.
  const Scalar produced = m.domain == MathDomain::Classify ? Scalar::Bool : t;
  if (e.type.scalar != produced && e.type.scalar != Scalar::Void)
    return std::make_unique<ConvertNode>(&e, converter(produced, e.type.scalar), std::move(node));
  return node;
}

}  // namespace culift::interp::exec
