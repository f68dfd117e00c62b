// Literals of every type, casts, operators and math calls as the CUDA emitter spells them.
#include <cmath>
#include <cstdint>
#include <limits>

#include "emit_test_support.hpp"
#include "nvrtc_compile.hpp"

using namespace culift;
using namespace culift::test;
using P = ExprProbe;

TEST_CASE("integer literals carry their exact C++ type", "[codegen][literal]") {
  ExprProbe p;
  const auto k1 = p.add(Scalar::I32, [](const Function&) { return lit(1); });
  const auto k2 = p.add(Scalar::U32, [](const Function&) { return lit(1, Scalar::U32); });
  const auto k3 = p.add(Scalar::I64, [](const Function&) { return lit(1, Scalar::I64); });
  const auto k4 = p.add(Scalar::U64, [](const Function&) { return ulit(1, Scalar::U64); });
  const auto k5 = p.add(Scalar::I8, [](const Function&) { return lit(97, Scalar::I8); });
  const auto k6 = p.add(Scalar::U8, [](const Function&) { return ulit(200, Scalar::U8); });
  const auto k7 = p.add(Scalar::I16, [](const Function&) { return lit(-3, Scalar::I16); });
  const auto k8 = p.add(Scalar::U16, [](const Function&) { return ulit(65535, Scalar::U16); });
  const auto k9 = p.add(Scalar::I32, [](const Function&) { return lit(std::numeric_limits<std::int32_t>::min()); });
  const auto k10 = p.add(Scalar::I64,
                         [](const Function&) { return lit(std::numeric_limits<std::int64_t>::min(), Scalar::I64); });
  const auto k11 = p.add(Scalar::U64, [](const Function&) { return ulit(~0ull, Scalar::U64); });
  const auto k12 = p.add(Scalar::U32, [](const Function&) { return ulit(0xffffffffull, Scalar::U32); });
  const auto k13 = p.add(Scalar::I32, [](const Function& f) { return bin(BinaryOp::Sub, ref(f, P::n), lit(-5)); });
  const auto k14 = p.add(Scalar::Bool, [](const Function& f) {
    return bin(BinaryOp::Eq, ref(f, P::l), lit(std::numeric_limits<std::int64_t>::min(), Scalar::I64));
  });
  const auto k15 = p.add(Scalar::Bool, [](const Function&) { return blit(true); });
  const auto k16 = p.add(Scalar::I64,
                         [](const Function&) { return lit(std::numeric_limits<std::int64_t>::max(), Scalar::I64); });

  CHECK(p.returnLine(k1) == "return 1;");
  CHECK(p.returnLine(k2) == "return 1u;");
  CHECK(p.returnLine(k3) == "return 1ll;");
  CHECK(p.returnLine(k4) == "return 1ull;");
  CHECK(p.returnLine(k5) == "return (signed char)97;");
  CHECK(p.returnLine(k6) == "return (unsigned char)200;");
  CHECK(p.returnLine(k7) == "return (short)-3;");
  CHECK(p.returnLine(k8) == "return (unsigned short)65535;");
  CHECK(p.returnLine(k9) == "return -2147483647 - 1;");
  CHECK(p.returnLine(k10) == "return -9223372036854775807ll - 1ll;");
  CHECK(p.returnLine(k11) == "return 18446744073709551615ull;");
  CHECK(p.returnLine(k12) == "return 4294967295u;");
  CHECK(p.returnLine(k13) == "return n - (-5);");
  CHECK(p.returnLine(k14) == "return l == (-9223372036854775807ll - 1ll);");
  CHECK(p.returnLine(k15) == "return true;");
  CHECK(p.returnLine(k16) == "return 9223372036854775807ll;");
  requireCompiles(p.emitted, "probes.cu");
}

TEST_CASE("floating literals: shortest round-trip digits, specials as bit patterns", "[codegen][literal]") {
  ExprProbe p;
  const double inf = std::numeric_limits<double>::infinity();
  const auto k1 = p.add(Scalar::F32, [](const Function&) { return flit(0.5); });
  const auto k2 = p.add(Scalar::F32, [](const Function&) { return flit(1.0); });
  const auto k3 = p.add(Scalar::F32, [](const Function&) { return flit(static_cast<float>(1e-12)); });
  const auto k4 = p.add(Scalar::F32, [](const Function&) { return flit(static_cast<float>(0.1)); });
  const auto k5 = p.add(Scalar::F64, [](const Function&) { return flit(0.1, Scalar::F64); });
  const auto k6 = p.add(Scalar::F64, [](const Function&) { return flit(1.0, Scalar::F64); });
  const auto k7 = p.add(Scalar::F32, [](const Function&) { return flit(std::numeric_limits<float>::max()); });
  const auto k8 = p.add(Scalar::F32, [=](const Function&) { return flit(inf); });
  const auto k9 = p.add(Scalar::F32, [=](const Function&) { return flit(-inf); });
  const auto k10 = p.add(Scalar::F64, [](const Function&) { return flit(std::nan(""), Scalar::F64); });
  const auto k11 = p.add(Scalar::F64, [=](const Function&) { return flit(-inf, Scalar::F64); });
  const auto k12 = p.add(Scalar::F32, [](const Function&) { return flit(-0.0); });
  const auto k13 = p.add(Scalar::F64, [](const Function&) { return flit(1e300, Scalar::F64); });
  const auto k14 = p.add(Scalar::F32, [](const Function&) { return flit(std::numeric_limits<float>::denorm_min()); });
  const auto k15 = p.add(Scalar::F32, [](const Function& f) { return bin(BinaryOp::Mul, ref(f, P::x), flit(-2.5)); });
  const auto k16 = p.add(Scalar::F32, [](const Function&) { return flit(16777216.0); });

  CHECK(p.returnLine(k1) == "return 0.5f;");
  CHECK(p.returnLine(k2) == "return 1.0f;");
  CHECK(p.returnLine(k3) == "return 1e-12f;");
  CHECK(p.returnLine(k4) == "return 0.1f;");
  CHECK(p.returnLine(k5) == "return 0.1;");
  CHECK(p.returnLine(k6) == "return 1.0;");
  CHECK(p.returnLine(k7) == "return 3.4028235e+38f;");
  CHECK(p.returnLine(k8) == "return __int_as_float(0x7f800000);");
  CHECK(p.returnLine(k9) == "return __int_as_float((int)0xff800000u);");
  CHECK(p.returnLine(k10) == "return __longlong_as_double(0x7ff8000000000000ll);");
  CHECK(p.returnLine(k11) == "return __longlong_as_double((long long)0xfff0000000000000ull);");
  CHECK(p.returnLine(k12) == "return culift_zero(-0.0f);");
  CHECK(p.returnLine(k13) == "return 1e+300;");
  CHECK(p.returnLine(k14) == "return 1e-45f;");
  CHECK(p.returnLine(k15) == "return x * (-2.5f);");
  CHECK(p.returnLine(k16) == "return 16777216.0f;");
  requireCompiles(p.emitted, "probes.cu");
}

TEST_CASE("casts are explicit; a cast of a literal folds only when exact", "[codegen][cast]") {
  ExprProbe p;
  const auto k1 = p.add(Scalar::F32, [](const Function&) { return cast(lit(0), Scalar::F32); });
  const auto k2 = p.add(Scalar::F32, [](const Function&) { return cast(lit(16777217), Scalar::F32); });
  const auto k3 = p.add(Scalar::F32, [](const Function&) { return cast(flit(0.1, Scalar::F64), Scalar::F32); });
  const auto k4 = p.add(Scalar::F32, [](const Function&) { return cast(flit(0.5, Scalar::F64), Scalar::F32); });
  const auto k5 = p.add(Scalar::F64, [](const Function& f) { return cast(ref(f, P::x), Scalar::F64); });
  const auto k6 = p.add(Scalar::F32, [](const Function&) { return cast(un(UnaryOp::Neg, lit(1)), Scalar::F32); });
  const auto k7 = p.add(Scalar::U8, [](const Function&) { return cast(lit(300), Scalar::U8); });
  const auto k8 = p.add(Scalar::F32, [](const Function& f) {
    return cast(bin(BinaryOp::Add, ref(f, P::n), lit(1)), Scalar::F32, true);
  });
  const auto k9 = p.add(Scalar::F32, [](const Function& f) { return cast(ref(f, P::x), Scalar::F32); });
  const auto k10 = p.add(Scalar::I32, [](const Function&) { return cast(flit(2.75, Scalar::F64), Scalar::I32); });
  const auto k11 = p.add(Scalar::I64, [](const Function& f) {
    return bin(BinaryOp::Mul, cast(ref(f, P::n), Scalar::I64), cast(ref(f, P::u), Scalar::I64));
  });
  const auto k12 = p.add(Scalar::Bool, [](const Function& f) { return cast(ref(f, P::d), Scalar::Bool); });
  const auto k13 = p.add(Scalar::U32, [](const Function&) { return cast(un(UnaryOp::Neg, lit(1)), Scalar::U32); });
  const auto k14 = p.add(Scalar::F64, [](const Function&) {
    return cast(lit(std::numeric_limits<std::int64_t>::max(), Scalar::I64), Scalar::F64);
  });
  // Integer constants the fold cannot spell, converted to floating: opaque to the device compiler
  // (a constant zero it folds orders -0.0 below +0.0 in selects); an operand that is no constant is not.
  const auto k15 = p.add(Scalar::F32, [](const Function&) { return cast(cast(lit(0), Scalar::U8), Scalar::F32); });
  const auto k16 = p.add(Scalar::F64,
                         [](const Function&) { return cast(bin(BinaryOp::Sub, lit(3), lit(3)), Scalar::F64); });

  CHECK(p.returnLine(k1) == "return culift_zero(0.0f);");
  CHECK(p.returnLine(k2) == "return (float)16777217;");
  CHECK(p.returnLine(k3) == "return (float)0.1;");
  CHECK(p.returnLine(k4) == "return 0.5f;");
  CHECK(p.returnLine(k5) == "return (double)x;");
  CHECK(p.returnLine(k6) == "return -1.0f;");
  CHECK(p.returnLine(k7) == "return (unsigned char)300;");
  CHECK(p.returnLine(k8) == "return (float)(n + 1);");
  CHECK(p.returnLine(k9) == "return x;");
  CHECK(p.returnLine(k10) == "return (int)2.75;");
  CHECK(p.returnLine(k11) == "return (long long)n * (long long)u;");
  CHECK(p.returnLine(k12) == "return (bool)d;");
  CHECK(p.returnLine(k13) == "return (unsigned int)(-1);");
  CHECK(p.returnLine(k14) == "return (double)9223372036854775807ll;");
  CHECK(p.returnLine(k15) == "return culift_opaque((float)((unsigned char)0));");
  CHECK(p.returnLine(k16) == "return culift_opaque((double)(3 - 3));");
  requireCompiles(p.emitted, "probes.cu");
}

TEST_CASE("operators: fully parenthesized, prefix/postfix, assignment forms", "[codegen][operator]") {
  ExprProbe p;
  const auto k1 = p.add(Scalar::F32, [](const Function& f) {
    return bin(BinaryOp::Add, bin(BinaryOp::Mul, ref(f, P::x), ref(f, P::x)), ref(f, P::x));
  });
  const auto k2 = p.add(Scalar::I32,
                        [](const Function& f) { return un(UnaryOp::Neg, un(UnaryOp::Neg, ref(f, P::n))); });
  const auto k3 = p.add(Scalar::I32, [](const Function&) { return un(UnaryOp::Neg, lit(-5)); });
  const auto k4 = p.add(Scalar::Bool, [](const Function& f) { return un(UnaryOp::LogNot, ref(f, P::b)); });
  const auto k5 = p.add(Scalar::U32, [](const Function& f) { return un(UnaryOp::BitNot, ref(f, P::u)); });
  const auto k6 = p.add(Scalar::I64, [](const Function& f) { return bin(BinaryOp::Shl, ref(f, P::l), ref(f, P::n)); });
  const auto k7 = p.add(Scalar::Bool, [](const Function& f) {
    return bin(BinaryOp::LogAnd, bin(BinaryOp::Lt, ref(f, P::x), flit(1)), ref(f, P::b));
  });
  const auto k8 = p.add(Scalar::F32, [](const Function& f) { return cond(ref(f, P::b), ref(f, P::x), flit(2)); });
  const auto k9 = p.add(Scalar::F32, [](const Function& f) {
    return compound(BinaryOp::Add, sub(f, P::o, ref(f, P::n)), ref(f, P::x), Scalar::F32);
  });
  const auto k10 = p.add(Scalar::I32, [](const Function& f) {
    return compound(BinaryOp::Add, ref(f, P::n), flit(0.5, Scalar::F64), Scalar::F64);
  });
  const auto k11 = p.add(Scalar::I16, [](const Function& f) {
    return compound(BinaryOp::Shl, ref(f, P::s), lit(2, Scalar::I64), Scalar::I32);
  });
  const auto k12 = p.add(Scalar::F32, [](const Function& f) {
    return compound(BinaryOp::Mul, ref(f, P::x), ref(f, P::x), Scalar::F64);
  });
  const auto k13 = p.add(Scalar::F32,
                         [](const Function& f) { return incdec(IncDecOp::PostInc, sub(f, P::o, ref(f, P::n))); });
  const auto k14 = p.add(Scalar::I32, [](const Function& f) {
    return bin(BinaryOp::Add, incdec(IncDecOp::PreDec, ref(f, P::n)), incdec(IncDecOp::PostInc, ref(f, P::n)));
  });
  const auto k15 = p.add(Scalar::I32, [](const Function& f) {
    return comma(assign(ref(f, P::n), lit(3)), bin(BinaryOp::Rem, ref(f, P::n), lit(2)));
  });
  const auto k16 = p.add(Scalar::Bool, [](const Function& f) {
    return bin(BinaryOp::LogOr, bin(BinaryOp::Ne, ref(f, P::ul), ulit(0, Scalar::U64)),
               bin(BinaryOp::Ge, cast(ref(f, P::c), Scalar::I32), cast(ref(f, P::h), Scalar::I32)));
  });
  const auto k17 = p.add(Scalar::U32, [](const Function& f) {
    return bin(BinaryOp::BitXor, bin(BinaryOp::BitOr, ref(f, P::u), lit(1, Scalar::U32)),
               bin(BinaryOp::BitAnd, bin(BinaryOp::Shr, ref(f, P::u), lit(3)), lit(7, Scalar::U32)));
  });
  const auto k18 = p.add(Scalar::F32, [](const Function& f) {
    return assign(ref(f, P::x), assign(sub(f, P::o, lit(0)), sub(f, P::a, lit(1))));
  });
  const auto k19 = p.add(Scalar::I16, [](const Function& f) { return incdec(IncDecOp::PreInc, ref(f, P::s)); });
  const auto k20 = p.add(Scalar::U8, [](const Function& f) { return incdec(IncDecOp::PostDec, ref(f, P::h)); });
  // A right side that changes something: evaluated first, x bound once, by a lambda.
  const auto k21 = p.add(Scalar::I8, [](const Function& f) {
    return compound(BinaryOp::Mul, ref(f, P::c), incdec(IncDecOp::PreInc, ref(f, P::n)), Scalar::I32);
  });
  const auto k22 = p.add(Scalar::I16, [](const Function& f) {
    return compound(BinaryOp::Sub, ref(f, P::s), bin(BinaryOp::Add, ref(f, P::n), lit(1)), Scalar::I32);
  });
  // A floating divisor the device compiler could take for a number goes through culift_opaque.
  const auto k24 = p.add(Scalar::F32, [](const Function& f) { return bin(BinaryOp::Div, ref(f, P::x), flit(2)); });
  const auto k25 = p.add(Scalar::F32, [](const Function& f) { return bin(BinaryOp::Div, ref(f, P::x), ref(f, P::x)); });
  const auto k26 = p.add(Scalar::F32, [](const Function& f) {
    return compound(BinaryOp::Div, ref(f, P::x), ref(f, P::x), Scalar::F32);
  });
  const auto k23 = p.add(Scalar::I16, [](const Function& f) {
    return cast(un(UnaryOp::Neg, cast(ref(f, P::s), Scalar::I32)), Scalar::I16);
  });

  CHECK(p.returnLine(k1) == "return (x * x) + x;");
  CHECK(p.returnLine(k2) == "return -(-n);");
  CHECK(p.returnLine(k3) == "return -(-5);");
  CHECK(p.returnLine(k4) == "return !b;");
  CHECK(p.returnLine(k5) == "return ~u;");
  CHECK(p.returnLine(k6) == "return l << n;");
  CHECK(p.returnLine(k7) == "return (x < 1.0f) && b;");
  CHECK(p.returnLine(k8) == "return b ? x : 2.0f;");
  CHECK(p.returnLine(k9) == "return o[n] += x;");
  CHECK(p.returnLine(k10) == "return n += 0.5;");
  // Narrow targets compute in 32 bits, through the prelude's culift_narrow.
  CHECK(p.returnLine(k11) == "return s = culift_narrow<short>((int)s << 2ll);");
  CHECK(p.returnLine(k12) == "return x *= (double)x;");
  CHECK(p.returnLine(k13) == "return o[n]++;");
  CHECK(p.returnLine(k14) == "return (--n) + (n++);");
  CHECK(p.returnLine(k15) == "return n = 3, n % 2;");
  CHECK(p.returnLine(k16) == "return (ul != 0ull) || ((int)c >= (int)h);");
  CHECK(p.returnLine(k17) == "return (u | 1u) ^ ((u >> 3) & 7u);");
  CHECK(p.returnLine(k18) == "return x = (o[0] = a[1]);");
  CHECK(p.returnLine(k19) == "return culift_pre_inc(s);");
  CHECK(p.returnLine(k20) == "return culift_post_dec(h);");
  CHECK(p.returnLine(k21) ==
        "return [&](int culift_r) -> signed char& { signed char& culift_x = c; return culift_x = "
        "culift_narrow<signed char>((int)culift_x * culift_r); }(++n);");
  CHECK(p.returnLine(k22) == "return s = culift_narrow<short>((int)s - (n + 1));");
  CHECK(p.returnLine(k24) == "return x / 2.0f;");
  CHECK(p.returnLine(k25) == "return x / culift_opaque(x);");
  CHECK(p.returnLine(k26) == "return x /= culift_opaque(x);");
  CHECK(p.returnLine(k23) == "return culift_narrow<short>(-(int)s);");
  requireCompiles(p.emitted, "probes.cu");
}

TEST_CASE("math calls: float or double names by computation type, prelude for std::min/max/clamp/abs",
          "[codegen][math]") {
  ExprProbe p;
  const auto k1 = p.add(Scalar::F32,
                        [](const Function& f) { return math(MathFn::Sqrt, Scalar::F32, exprs(ref(f, P::x))); });
  const auto k2 = p.add(Scalar::F64, [](const Function& f) {
    return math(MathFn::Sqrt, Scalar::F64, exprs(cast(ref(f, P::x), Scalar::F64)));
  });
  const auto k3 = p.add(Scalar::F32,
                        [](const Function& f) { return math(MathFn::Pow, Scalar::F32, exprs(ref(f, P::x), flit(2))); });
  const auto k4 = p.add(Scalar::F32,
                        [](const Function& f) { return math(MathFn::Min, Scalar::F32, exprs(ref(f, P::x), flit(0))); });
  const auto k5 = p.add(Scalar::I32,
                        [](const Function& f) { return math(MathFn::Abs, Scalar::I32, exprs(ref(f, P::n))); });
  const auto k6 = p.add(Scalar::I64,
                        [](const Function& f) { return math(MathFn::Abs, Scalar::I64, exprs(ref(f, P::l))); });
  const auto k7 = p.add(Scalar::I32, [](const Function& f) {
    return math(MathFn::Max, Scalar::I32, exprs(ref(f, P::n), ref(f, P::s)));
  });
  const auto k8 = p.add(Scalar::Bool,
                        [](const Function& f) { return math(MathFn::Isnan, Scalar::Bool, exprs(ref(f, P::d))); });
  const auto k9 = p.add(Scalar::Bool,
                        [](const Function& f) { return math(MathFn::Isinf, Scalar::Bool, exprs(ref(f, P::x))); });
  const auto k10 = p.add(Scalar::F64, [](const Function& f) {
    return math(MathFn::Clamp, Scalar::F64, exprs(ref(f, P::d), flit(0, Scalar::F64), flit(1, Scalar::F64)));
  });
  const auto k11 = p.add(Scalar::F64,
                         [](const Function& f) { return math(MathFn::Sqrt, Scalar::F64, exprs(ref(f, P::n))); });
  const auto k12 = p.add(Scalar::F32, [](const Function& f) {
    return math(MathFn::Fma, Scalar::F32, exprs(ref(f, P::x), ref(f, P::x), sub(f, P::a, lit(0))));
  });
  const auto k13 = p.add(Scalar::F64, [](const Function& f) {
    return math(MathFn::Atan2, Scalar::F64, exprs(ref(f, P::d), flit(1, Scalar::F64)));
  });
  const auto k14 = p.add(Scalar::F32,
                         [](const Function& f) { return math(MathFn::Abs, Scalar::F32, exprs(ref(f, P::x))); });
  const auto k15 = p.add(Scalar::Bool,
                         [](const Function& f) { return math(MathFn::Signbit, Scalar::Bool, exprs(ref(f, P::x))); });

  CHECK(p.returnLine(k1) == "return sqrtf(x);");
  CHECK(p.returnLine(k2) == "return sqrt((double)x);");
  CHECK(p.returnLine(k3) == "return powf(x, 2.0f);");
  CHECK(p.returnLine(k4) == "return culift_min(x, culift_zero(0.0f));");
  CHECK(p.returnLine(k5) == "return culift_abs(n);");
  CHECK(p.returnLine(k6) == "return culift_abs(l);");
  CHECK(p.returnLine(k7) == "return culift_max(n, (int)s);");
  CHECK(p.returnLine(k8) == "return isnan(d);");
  CHECK(p.returnLine(k9) == "return isinf(x);");
  CHECK(p.returnLine(k10) == "return culift_clamp(d, culift_zero(0.0), 1.0);");
  CHECK(p.returnLine(k11) == "return sqrt((double)n);");
  CHECK(p.returnLine(k12) == "return fmaf(x, x, a[0]);");
  CHECK(p.returnLine(k13) == "return atan2(d, 1.0);");
  CHECK(p.returnLine(k14) == "return culift_abs(x);");
  CHECK(p.returnLine(k15) == "return signbit(x);");
  requireCompiles(p.emitted, "probes.cu");
}

TEST_CASE("every math function of the construct list compiles in float and double", "[codegen][math]") {
  ExprProbe p;
#define CULIFT_MATH_FN(F, N, A, FN, DN, D)                                                               \
  for (Scalar t : {Scalar::F32, Scalar::F64}) {                                                          \
    p.add(MathDomain::D == MathDomain::Classify ? Scalar::Bool : t, [t](const Function& f) {             \
      std::vector<ExprPtr> args;                                                                         \
      for (unsigned k = 0; k < A; ++k) args.push_back(t == Scalar::F32 ? ref(f, P::x) : ref(f, P::d));   \
      return math(MathFn::F, MathDomain::D == MathDomain::Classify ? Scalar::Bool : t, std::move(args)); \
    });                                                                                                  \
  }
#include "culift/ast/constructs.def"
  const std::string src = emitCuda(p.module, EmitOptions{false});
  CHECK(src.find("return erfcf(x);") != std::string::npos);
  CHECK(src.find("return erfc(d);") != std::string::npos);
  CHECK(src.find("return culift_clamp(d, d, d);") != std::string::npos);
  requireCompiles(src, "math.cu");
}
