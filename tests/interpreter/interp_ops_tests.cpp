// Operation × type matrices: every operator, conversion and math function over boundary
// values (MIN, MIN+1, -1, 0, 1, MAX, NaN, ±Inf, denormals), interpreter vs native C++ bit
// for bit; where C++ leaves the behaviour undefined the interpreter must report an error.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "ast_builder.hpp"
#include "catch.hpp"
#include "culift/interpreter.hpp"

using namespace culift;
using namespace culift::testing;
using interp::Value;

namespace {

// Values read through volatile so the compiler cannot fold the native computation.
template <typename T> T opaque(T v) {
  volatile T x = v;
  return x;
}

template <typename T> std::vector<T> boundary() {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return {false, true};
  } else if constexpr (std::is_floating_point_v<T>) {
    return {L::lowest(),     -L::max() / 2,  T(-1.5),        T(-1),      -L::denorm_min(), T(-0.0), T(0),
            L::denorm_min(), L::min(),       T(0.5),         T(1),       T(2.75),          T(1e10), L::max(),
            L::infinity(),   -L::infinity(), L::quiet_NaN(), T(3) / T(7)};
  } else if constexpr (std::is_signed_v<T>) {
    return {L::min(), T(L::min() + 1), T(-7), T(-1), T(0), T(1), T(2), T(7), T(L::max() - 1), L::max()};
  } else {
    return {T(0), T(1), T(2), T(7), T(L::max() / 2), T(L::max() - 1), L::max()};
  }
}

template <typename T> bool sameBits(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a == b;
  else return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <typename T> T valueAs(const Value& v) { return v.as<T>(); }

// A function `R f(A a, B b) { return <body(a, b)>; }`, compiled.
struct Compiled {
  std::shared_ptr<Module> module;
  std::shared_ptr<const interp::Program> program;
  const Function& fn() const { return module->functions[0]; }
};
template <typename Body> Compiled compileFn(Scalar result, std::vector<Scalar> params, Body body) {
  FnBuilder b("f", Type::value(result), "ops.cpp");
  b.at(3, 10);
  std::vector<VarId> ps;
  for (std::size_t p = 0; p < params.size(); ++p)
    ps.push_back(b.param(std::string(1, char('a' + p)), Type::value(params[p])));
  ExprPtr e = body(b, ps);
  auto m = moduleOf({}, "ops.cpp");
  m->functions.push_back(b.finish(b.ret(std::move(e))));
  Compiled c{m, nullptr};
  c.program = interp::Program::compile(m);
  return c;
}

template <typename T> constexpr Scalar S = interp::detail::scalarOf<T>();

template <typename T> struct Native {
  static bool overflow(BinaryOp op, T a, T b, T& r) {
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      switch (op) {
        case BinaryOp::Add: return __builtin_add_overflow(a, b, &r);
        case BinaryOp::Sub: return __builtin_sub_overflow(a, b, &r);
        case BinaryOp::Mul: return __builtin_mul_overflow(a, b, &r);
        case BinaryOp::Div:
        case BinaryOp::Rem: return b == 0 || (a == std::numeric_limits<T>::min() && b == T(-1));
        default: return false;
      }
    } else if constexpr (std::is_integral_v<T>) {
      return (op == BinaryOp::Div || op == BinaryOp::Rem) && b == 0;
    }
    (void)a, (void)b, (void)r;
    return false;
  }
  // a op b as C++ computes it on already-promoted operands (no UB inputs reach here).
  static T arith(BinaryOp op, T a, T b) {
    switch (op) {
      case BinaryOp::Add: return static_cast<T>(a + b);
      case BinaryOp::Sub: return static_cast<T>(a - b);
      case BinaryOp::Mul: return static_cast<T>(a * b);
      case BinaryOp::Div: return static_cast<T>(a / b);
      case BinaryOp::Rem:
        if constexpr (std::is_integral_v<T>) return static_cast<T>(a % b);
        else return T{};
      case BinaryOp::BitAnd:
        if constexpr (std::is_integral_v<T>) return static_cast<T>(a & b);
        else return T{};
      case BinaryOp::BitOr:
        if constexpr (std::is_integral_v<T>) return static_cast<T>(a | b);
        else return T{};
      case BinaryOp::BitXor:
        if constexpr (std::is_integral_v<T>) return static_cast<T>(a ^ b);
        else return T{};
      default: return T{};
    }
  }
  static bool cmp(BinaryOp op, T a, T b) {
    switch (op) {
      case BinaryOp::Lt: return a < b;
      case BinaryOp::Gt: return a > b;
      case BinaryOp::Le: return a <= b;
      case BinaryOp::Ge: return a >= b;
      case BinaryOp::Eq: return a == b;
      default: return a != b;
    }
  }
};

template <typename T> void binaryMatrix() {
  std::vector<BinaryOp> ops = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div};
  if constexpr (std::is_integral_v<T>) {
    ops.push_back(BinaryOp::Rem);
    ops.push_back(BinaryOp::BitAnd);
    ops.push_back(BinaryOp::BitOr);
    ops.push_back(BinaryOp::BitXor);
  }
  for (BinaryOp op : ops) {
    Compiled c = compileFn(S<T>, {S<T>, S<T>},
                           [&](FnBuilder& b, std::vector<VarId>& p) { return b.bin(op, b.var(p[0]), b.var(p[1])); });
    for (T a : boundary<T>())
      for (T bv : boundary<T>()) {
        INFO(spelling(S<T>) << " " << Value::of(a).toString() << " " << spelling(op) << " "
                            << Value::of(bv).toString());
        interp::Arg args[] = {Value::of(a), Value::of(bv)};
        T r{};
        if (Native<T>::overflow(op, opaque(a), opaque(bv), r)) {
          CHECK_THROWS_AS(c.program->call(c.fn(), args), interp::Error);
          continue;
        }
        T expect = Native<T>::arith(op, opaque(a), opaque(bv));
        Value got = c.program->call(c.fn(), args);
        REQUIRE(got.type == S<T>);
        CHECK(sameBits(valueAs<T>(got), expect));
      }
  }
  for (BinaryOp op : {BinaryOp::Lt, BinaryOp::Gt, BinaryOp::Le, BinaryOp::Ge, BinaryOp::Eq, BinaryOp::Ne}) {
    Compiled c = compileFn(Scalar::Bool, {S<T>, S<T>},
                           [&](FnBuilder& b, std::vector<VarId>& p) { return b.bin(op, b.var(p[0]), b.var(p[1])); });
    for (T a : boundary<T>())
      for (T bv : boundary<T>()) {
        interp::Arg args[] = {Value::of(a), Value::of(bv)};
        INFO(Value::of(a).toString() << " " << spelling(op) << " " << Value::of(bv).toString());
        CHECK(c.program->call(c.fn(), args).b == Native<T>::cmp(op, opaque(a), opaque(bv)));
      }
  }
}

template <typename T> void unaryMatrix() {
  Compiled neg = compileFn(S<T>, {S<T>},
                           [](FnBuilder& b, std::vector<VarId>& p) { return b.un(UnaryOp::Neg, b.var(p[0])); });
  for (T a : boundary<T>()) {
    interp::Arg args[] = {Value::of(a)};
    INFO("-" << Value::of(a).toString());
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min()) {
        CHECK_THROWS_AS(neg.program->call(neg.fn(), args), interp::Error);
        continue;
      }
    }
    T expect = static_cast<T>(-opaque(a));
    CHECK(sameBits(valueAs<T>(neg.program->call(neg.fn(), args)), expect));
  }
  if constexpr (std::is_integral_v<T>) {
    Compiled bnot = compileFn(S<T>, {S<T>},
                              [](FnBuilder& b, std::vector<VarId>& p) { return b.un(UnaryOp::BitNot, b.var(p[0])); });
    for (T a : boundary<T>()) {
      interp::Arg args[] = {Value::of(a)};
      CHECK(sameBits(valueAs<T>(bnot.program->call(bnot.fn(), args)), static_cast<T>(~opaque(a))));
    }
  }
}

template <typename From, typename To> void conversionColumn() {
  Compiled c = compileFn(S<To>, {S<From>},
                         [](FnBuilder& b, std::vector<VarId>& p) { return b.cast(S<To>, b.var(p[0])); });
  for (From v : boundary<From>()) {
    interp::Arg args[] = {Value::of(v)};
    INFO(spelling(S<From>) << " " << Value::of(v).toString() << " -> " << spelling(S<To>));
    if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> && !std::is_same_v<To, bool>) {
      const long double x = opaque(v);
      const long double lo = std::is_signed_v<To> ? static_cast<long double>(std::numeric_limits<To>::min()) - 1 : -1;
      const long double hi = static_cast<long double>(std::numeric_limits<To>::max()) + 1;
      if (!(x > lo && x < hi)) {
        CHECK_THROWS_AS(c.program->call(c.fn(), args), interp::Error);
        continue;
      }
    }
    To expect = static_cast<To>(opaque(v));
    CHECK(sameBits(valueAs<To>(c.program->call(c.fn(), args)), expect));
  }
}

template <typename From> void conversionRow() {
  conversionColumn<From, bool>();
  conversionColumn<From, std::int8_t>();
  conversionColumn<From, std::uint8_t>();
  conversionColumn<From, std::int16_t>();
  conversionColumn<From, std::uint16_t>();
  conversionColumn<From, std::int32_t>();
  conversionColumn<From, std::uint32_t>();
  conversionColumn<From, std::int64_t>();
  conversionColumn<From, std::uint64_t>();
  conversionColumn<From, float>();
  conversionColumn<From, double>();
}

template <typename T> void shiftMatrix() {
  const int width = sizeof(T) * 8;
  for (BinaryOp op : {BinaryOp::Shl, BinaryOp::Shr}) {
    Compiled c = compileFn(S<T>, {S<T>, Scalar::I32},
                           [&](FnBuilder& b, std::vector<VarId>& p) { return b.bin(op, b.var(p[0]), b.var(p[1])); });
    for (T a : boundary<T>())
      for (int n : {-1, 0, 1, 5, width - 1, width, width + 3}) {
        interp::Arg args[] = {Value::of(a), Value::of(n)};
        INFO(Value::of(a).toString() << " " << spelling(op) << " " << n);
        if (n < 0 || n >= width) {
          CHECK_THROWS_AS(c.program->call(c.fn(), args), interp::Error);
          continue;
        }
        // C++20: shifts of negative values are defined (modular left, arithmetic right).
        T expect = op == BinaryOp::Shl ? static_cast<T>(opaque(a) << n) : static_cast<T>(opaque(a) >> n);
        CHECK(sameBits(valueAs<T>(c.program->call(c.fn(), args)), expect));
      }
  }
}

}  // namespace

TEST_CASE("binary operators match native C++ on boundary values", "[interp][ops]") {
  binaryMatrix<std::int32_t>();
  binaryMatrix<std::uint32_t>();
  binaryMatrix<std::int64_t>();
  binaryMatrix<std::uint64_t>();
  binaryMatrix<float>();
  binaryMatrix<double>();
}

TEST_CASE("unary operators match native C++", "[interp][ops]") {
  unaryMatrix<std::int32_t>();
  unaryMatrix<std::uint32_t>();
  unaryMatrix<std::int64_t>();
  unaryMatrix<std::uint64_t>();
  unaryMatrix<float>();
  unaryMatrix<double>();
  Compiled c = compileFn(Scalar::Bool, {Scalar::Bool},
                         [](FnBuilder& b, std::vector<VarId>& p) { return b.un(UnaryOp::LogNot, b.var(p[0])); });
  interp::Arg t[] = {Value::of(true)}, f[] = {Value::of(false)};
  CHECK_FALSE(c.program->call(c.fn(), t).b);
  CHECK(c.program->call(c.fn(), f).b);
}

TEST_CASE("every conversion matches static_cast; out-of-range float to int is an error", "[interp][ops]") {
  conversionRow<bool>();
  conversionRow<std::int8_t>();
  conversionRow<std::uint8_t>();
  conversionRow<std::int16_t>();
  conversionRow<std::uint16_t>();
  conversionRow<std::int32_t>();
  conversionRow<std::uint32_t>();
  conversionRow<std::int64_t>();
  conversionRow<std::uint64_t>();
  conversionRow<float>();
  conversionRow<double>();
}

TEST_CASE("shifts match C++20; negative or too-wide counts are errors", "[interp][ops]") {
  shiftMatrix<std::int32_t>();
  shiftMatrix<std::uint32_t>();
  shiftMatrix<std::int64_t>();
  shiftMatrix<std::uint64_t>();
}

namespace {
template <typename T> void mathMatrix() {
  struct Case {
    MathFn fn;
    T (*native)(T, T);
  };
  // Arity-1 functions get (x, ignored); the native lambdas call the <cmath> overload for T.
  const Case cases[] = {
      {MathFn::Sqrt, [](T x, T) { return std::sqrt(x); }},
      {MathFn::Cbrt, [](T x, T) { return std::cbrt(x); }},
      {MathFn::Fabs, [](T x, T) { return std::fabs(x); }},
      {MathFn::Exp, [](T x, T) { return std::exp(x); }},
      {MathFn::Exp2, [](T x, T) { return std::exp2(x); }},
      {MathFn::Expm1, [](T x, T) { return std::expm1(x); }},
      {MathFn::Log, [](T x, T) { return std::log(x); }},
      {MathFn::Log2, [](T x, T) { return std::log2(x); }},
      {MathFn::Log10, [](T x, T) { return std::log10(x); }},
      {MathFn::Log1p, [](T x, T) { return std::log1p(x); }},
      {MathFn::Sin, [](T x, T) { return std::sin(x); }},
      {MathFn::Cos, [](T x, T) { return std::cos(x); }},
      {MathFn::Tan, [](T x, T) { return std::tan(x); }},
      {MathFn::Asin, [](T x, T) { return std::asin(x); }},
      {MathFn::Acos, [](T x, T) { return std::acos(x); }},
      {MathFn::Atan, [](T x, T) { return std::atan(x); }},
      {MathFn::Sinh, [](T x, T) { return std::sinh(x); }},
      {MathFn::Cosh, [](T x, T) { return std::cosh(x); }},
      {MathFn::Tanh, [](T x, T) { return std::tanh(x); }},
      {MathFn::Asinh, [](T x, T) { return std::asinh(x); }},
      {MathFn::Acosh, [](T x, T) { return std::acosh(x); }},
      {MathFn::Atanh, [](T x, T) { return std::atanh(x); }},
      {MathFn::Erf, [](T x, T) { return std::erf(x); }},
      {MathFn::Erfc, [](T x, T) { return std::erfc(x); }},
      {MathFn::Tgamma, [](T x, T) { return std::tgamma(x); }},
      {MathFn::Lgamma, [](T x, T) { return std::lgamma(x); }},
      {MathFn::Floor, [](T x, T) { return std::floor(x); }},
      {MathFn::Ceil, [](T x, T) { return std::ceil(x); }},
      {MathFn::Round, [](T x, T) { return std::round(x); }},
      {MathFn::Trunc, [](T x, T) { return std::trunc(x); }},
      {MathFn::Rint, [](T x, T) { return std::rint(x); }},
      {MathFn::Nearbyint, [](T x, T) { return std::nearbyint(x); }},
      // Two zeros: -0.0 is the lesser (culift's definition, the GPU's; C++ leaves it open).
      {MathFn::Fmin,
       [](T x, T y) {
         return x == 0 && y == 0 ? std::copysign(T(0), std::signbit(x) || std::signbit(y) ? T(-1) : T(1))
                                 : std::fmin(x, y);
       }},
      {MathFn::Fmax,
       [](T x, T y) {
         return x == 0 && y == 0 ? std::copysign(T(0), std::signbit(x) && std::signbit(y) ? T(-1) : T(1))
                                 : std::fmax(x, y);
       }},
      {MathFn::Fdim, [](T x, T y) { return std::fdim(x, y); }},
      {MathFn::Pow, [](T x, T y) { return std::pow(x, y); }},
      {MathFn::Atan2, [](T x, T y) { return std::atan2(x, y); }},
      {MathFn::Hypot, [](T x, T y) { return std::hypot(x, y); }},
      {MathFn::Fmod, [](T x, T y) { return std::fmod(x, y); }},
      {MathFn::Remainder, [](T x, T y) { return std::remainder(x, y); }},
      {MathFn::Copysign, [](T x, T y) { return std::copysign(x, y); }},
      {MathFn::Min, [](T x, T y) { return std::min(x, y); }},
      {MathFn::Max, [](T x, T y) { return std::max(x, y); }},
      {MathFn::Abs, [](T x, T) { return std::abs(x); }},
  };
  for (const Case& mc : cases) {
    const unsigned arity = info(mc.fn).arity;
    Compiled c = compileFn(S<T>, {S<T>, S<T>}, [&](FnBuilder& b, std::vector<VarId>& p) {
      std::vector<ExprPtr> args;
      args.push_back(b.var(p[0]));
      if (arity == 2) args.push_back(b.var(p[1]));
      return b.math(mc.fn, S<T>, std::move(args));
    });
    for (T x : boundary<T>())
      for (T y : {T(2), T(-0.5), std::numeric_limits<T>::quiet_NaN(), T(0), T(-0.0)}) {
        interp::Arg args[] = {Value::of(x), Value::of(y)};
        INFO(info(mc.fn).name << "(" << Value::of(x).toString() << ", " << Value::of(y).toString() << ") in "
                              << spelling(S<T>));
        T expect = mc.native(opaque(x), opaque(y));
        T got = valueAs<T>(c.program->call(c.fn(), args));
        CHECK((sameBits(got, expect) || (std::isnan(got) && std::isnan(expect))));
      }
  }
  // fma, clamp and the classification functions.
  Compiled fma = compileFn(S<T>, {S<T>, S<T>, S<T>}, [](FnBuilder& b, std::vector<VarId>& p) {
    std::vector<ExprPtr> a;
    for (VarId v : p) a.push_back(b.var(v));
    return b.math(MathFn::Fma, S<T>, std::move(a));
  });
  Compiled clamp = compileFn(S<T>, {S<T>, S<T>, S<T>}, [](FnBuilder& b, std::vector<VarId>& p) {
    std::vector<ExprPtr> a;
    for (VarId v : p) a.push_back(b.var(v));
    return b.math(MathFn::Clamp, S<T>, std::move(a));
  });
  for (T x : boundary<T>()) {
    interp::Arg args[] = {Value::of(x), Value::of(T(3) / T(7)), Value::of(T(-1.25))};
    T e1 = std::fma(opaque(x), opaque(T(3) / T(7)), opaque(T(-1.25)));
    T g1 = valueAs<T>(fma.program->call(fma.fn(), args));
    CHECK((sameBits(g1, e1) || (std::isnan(g1) && std::isnan(e1))));
    interp::Arg cargs[] = {Value::of(x), Value::of(T(-1)), Value::of(T(1))};
    T e2 = std::clamp(opaque(x), T(-1), T(1));
    T g2 = valueAs<T>(clamp.program->call(clamp.fn(), cargs));
    CHECK((sameBits(g2, e2) || (std::isnan(g2) && std::isnan(e2))));
  }
  for (MathFn fn : {MathFn::Isnan, MathFn::Isinf, MathFn::Isfinite, MathFn::Signbit}) {
    Compiled c = compileFn(Scalar::Bool, {S<T>}, [&](FnBuilder& b, std::vector<VarId>& p) {
      std::vector<ExprPtr> a;
      a.push_back(b.var(p[0]));
      return b.math(fn, Scalar::Bool, std::move(a));
    });
    for (T x : boundary<T>()) {
      interp::Arg args[] = {Value::of(x)};
      bool expect = fn == MathFn::Isnan      ? std::isnan(opaque(x))
                    : fn == MathFn::Isinf    ? std::isinf(opaque(x))
                    : fn == MathFn::Isfinite ? std::isfinite(opaque(x))
                                             : std::signbit(opaque(x));
      CHECK(c.program->call(c.fn(), args).b == expect);
    }
  }
}
}  // namespace

TEST_CASE("math functions call the host library overload of the operands' type", "[interp][math]") {
  mathMatrix<float>();
  mathMatrix<double>();
}

TEST_CASE("std::min/max/clamp/abs on integers; abs(INT_MIN) is an error", "[interp][math]") {
  Compiled mn = compileFn(Scalar::I64, {Scalar::I64, Scalar::I64}, [](FnBuilder& b, std::vector<VarId>& p) {
    std::vector<ExprPtr> a;
    a.push_back(b.var(p[0]));
    a.push_back(b.var(p[1]));
    return b.math(MathFn::Min, Scalar::I64, std::move(a));
  });
  Compiled ab = compileFn(Scalar::I32, {Scalar::I32}, [](FnBuilder& b, std::vector<VarId>& p) {
    std::vector<ExprPtr> a;
    a.push_back(b.var(p[0]));
    return b.math(MathFn::Abs, Scalar::I32, std::move(a));
  });
  for (std::int64_t x : boundary<std::int64_t>())
    for (std::int64_t y : boundary<std::int64_t>()) {
      interp::Arg args[] = {Value::of(x), Value::of(y)};
      CHECK(mn.program->call(mn.fn(), args).i == std::min(opaque(x), opaque(y)));
    }
  for (std::int32_t x : boundary<std::int32_t>()) {
    interp::Arg args[] = {Value::of(x)};
    if (x == std::numeric_limits<std::int32_t>::min()) {
      CHECK_THROWS_AS(ab.program->call(ab.fn(), args), interp::Error);
    } else {
      CHECK(ab.program->call(ab.fn(), args).i == std::abs(opaque(x)));
    }
  }
}

TEST_CASE("compound assignment computes in the computation type and converts back", "[interp][ops]") {
  // short s; s += i  ==>  s = (short)((int)s + i): wraps, no error.
  Compiled sh = compileFn(Scalar::I16, {Scalar::I16, Scalar::I32}, [](FnBuilder& b, std::vector<VarId>& p) {
    return b.compound(BinaryOp::Add, b.var(p[0]), b.var(p[1]), Scalar::I32);
  });
  for (std::int16_t s : boundary<std::int16_t>())
    for (std::int32_t i : {-1, 0, 1, 40000, -40000}) {
      interp::Arg args[] = {Value::of(s), Value::of(i)};
      std::int16_t x = opaque(s);
      x += opaque(i);
      CHECK(sh.program->call(sh.fn(), args).i == x);
    }
  // int n; n *= 1.5 ==> n = (int)((double)n * 1.5): an out-of-range result is an error.
  Compiled dm = compileFn(Scalar::I32, {Scalar::I32, Scalar::F64}, [](FnBuilder& b, std::vector<VarId>& p) {
    return b.compound(BinaryOp::Mul, b.var(p[0]), b.var(p[1]), Scalar::F64);
  });
  interp::Arg ok[] = {Value::of(7), Value::of(1.5)};
  CHECK(dm.program->call(dm.fn(), ok).i == 10);
  interp::Arg big[] = {Value::of(std::numeric_limits<int>::max()), Value::of(1.5)};
  CHECK_THROWS_AS(dm.program->call(dm.fn(), big), interp::Error);
  // unsigned u; u -= 1u wraps.
  Compiled uw = compileFn(Scalar::U32, {Scalar::U32, Scalar::U32}, [](FnBuilder& b, std::vector<VarId>& p) {
    return b.compound(BinaryOp::Sub, b.var(p[0]), b.var(p[1]));
  });
  interp::Arg wrap[] = {Value::of(0u), Value::of(1u)};
  CHECK(uw.program->call(uw.fn(), wrap).u == 0xffffffffu);
  // int <<= with a long long count: the count keeps its own type.
  Compiled shl = compileFn(Scalar::I32, {Scalar::I32, Scalar::I64}, [](FnBuilder& b, std::vector<VarId>& p) {
    return b.compound(BinaryOp::Shl, b.var(p[0]), b.var(p[1]), Scalar::I32);
  });
  interp::Arg s3[] = {Value::of(5), Value::of(std::int64_t{3})};
  CHECK(shl.program->call(shl.fn(), s3).i == 40);
  interp::Arg s32[] = {Value::of(5), Value::of(std::int64_t{32})};
  CHECK_THROWS_AS(shl.program->call(shl.fn(), s32), interp::Error);
}

TEST_CASE("++ and -- wrap narrow types, check int overflow, step floats by one", "[interp][ops]") {
  Compiled c8 = compileFn(Scalar::I8, {Scalar::I8},
                          [](FnBuilder& b, std::vector<VarId>& p) { return b.incDec(IncDecOp::PreInc, b.var(p[0])); });
  interp::Arg a127[] = {Value::of<std::int8_t>(127)};
  CHECK(c8.program->call(c8.fn(), a127).i == -128);
  Compiled ci = compileFn(Scalar::I32, {Scalar::I32},
                          [](FnBuilder& b, std::vector<VarId>& p) { return b.incDec(IncDecOp::PostInc, b.var(p[0])); });
  interp::Arg a5[] = {Value::of(5)};
  CHECK(ci.program->call(ci.fn(), a5).i == 5);  // post-increment yields the old value
  interp::Arg amax[] = {Value::of(std::numeric_limits<int>::max())};
  CHECK_THROWS_AS(ci.program->call(ci.fn(), amax), interp::Error);
  Compiled cu = compileFn(Scalar::U64, {Scalar::U64},
                          [](FnBuilder& b, std::vector<VarId>& p) { return b.incDec(IncDecOp::PreDec, b.var(p[0])); });
  interp::Arg zero[] = {Value::of<std::uint64_t>(0)};
  CHECK(cu.program->call(cu.fn(), zero).u == std::numeric_limits<std::uint64_t>::max());
  Compiled cf = compileFn(Scalar::F32, {Scalar::F32},
                          [](FnBuilder& b, std::vector<VarId>& p) { return b.incDec(IncDecOp::PreInc, b.var(p[0])); });
  interp::Arg big[] = {Value::of(16777216.0f)};
  CHECK(cf.program->call(cf.fn(), big).f == opaque(16777216.0f) + 1.0f);
}
