// One test per supported construct: node kinds, C++ types, and every implicit conversion as an
// explicit cast, printed with ast_dump.hpp.
#include "translate_support.hpp"

using namespace culift;
using culift::test::body;
using culift::test::declOf;
using culift::test::function;
using culift::test::lift;

TEST_CASE("float * 1.0 is a double multiply with the float converted", "[construct][cast]") {
  auto r = lift("CULIFT_KERNEL double f(float x) { return x * 1.0; }");
  CHECK(body(r, "f") == "{ (Return (* f64 (Cast f64 (Var x)) (Float f64 1))) }");
  auto g = lift("CULIFT_KERNEL float g(float x) { return x * 1.0; }");
  CHECK(body(g, "g") == "{ (Return (Cast f32 (* f64 (Cast f64 (Var x)) (Float f64 1)))) }");
}

TEST_CASE("integer promotions and usual arithmetic conversions become casts", "[construct][cast]") {
  auto r = lift(
      "CULIFT_KERNEL short f(short a, short b) { return a + b; }\n"
      "CULIFT_KERNEL long g(int a, unsigned b, long c) { return a + b + c; }\n"
      "CULIFT_KERNEL int h(char c) { return c << 2; }");
  CHECK(body(r, "f") == "{ (Return (Cast i16 (+ i32 (Cast i32 (Var a)) (Cast i32 (Var b))))) }");
  CHECK(body(r, "g") == "{ (Return (+ i64 (Cast i64 (+ u32 (Cast u32 (Var a)) (Var b))) (Var c))) }");
  CHECK(body(r, "h") == "{ (Return (<< i32 (Cast i32 (Var c)) (Int i32 2))) }");
}

TEST_CASE("literals keep their exact C++ type", "[construct][literal]") {
  auto r = lift(
      "CULIFT_KERNEL int f(int i) {\n"
      "  auto a = 5; auto b = 5u; auto c = 5l; auto d = 5ll; auto e = 5ull; auto g = 'a';\n"
      "  auto h = true; auto k = 1.5f; auto l = 0.1f; auto m = 2.5; auto n = 0x80000000;\n"
      "  return i; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(Decl a i32 (Int i32 5))"));
  CHECK_THAT(s, Catch::Contains("(Decl b u32 (Int u32 5))"));
  CHECK_THAT(s, Catch::Contains("(Decl c i64 (Int i64 5))"));
  CHECK_THAT(s, Catch::Contains("(Decl d i64 (Int i64 5))"));
  CHECK_THAT(s, Catch::Contains("(Decl e u64 (Int u64 5))"));
  CHECK_THAT(s, Catch::Contains("(Decl g i8 (Int i8 97))"));
  CHECK_THAT(s, Catch::Contains("(Decl h bool (Bool true))"));
  CHECK_THAT(s, Catch::Contains("(Decl k f32 (Float f32 1.5))"));
  CHECK_THAT(s, Catch::Contains("(Decl m f64 (Float f64 2.5))"));
  CHECK_THAT(s, Catch::Contains("(Decl n u32 (Int u32 2147483648))"));
  // A float literal holds the float value exactly, not the decimal one.
  const Function& f = function(r, "f");
  const Stmt& decl = culift::test::declOf(f, "l");
  REQUIRE(decl.expr);
  CHECK(decl.expr->floatValue == static_cast<double>(0.1f));
  CHECK(decl.expr->floatValue != 0.1);
}

TEST_CASE("integer, floating and boolean conversions are explicit casts", "[construct][cast]") {
  auto r = lift(
      "CULIFT_KERNEL int f(double d, float x, int n) {\n"
      "  int a = d; float b = n; double c = x; bool e = n; bool g = x;\n"
      "  return a; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(Decl a i32 (Cast i32 (Var d)))"));
  CHECK_THAT(s, Catch::Contains("(Decl b f32 (Cast f32 (Var n)))"));
  CHECK_THAT(s, Catch::Contains("(Decl c f64 (Cast f64 (Var x)))"));
  CHECK_THAT(s, Catch::Contains("(Decl e bool (Cast bool (Var n)))"));
  CHECK_THAT(s, Catch::Contains("(Decl g bool (Cast bool (Var x)))"));
}

TEST_CASE("C-style, static and functional casts are marked explicit", "[construct][cast]") {
  auto r = lift(
      "CULIFT_KERNEL float f(int n, double d) {\n"
      "  float a = (float)n; float b = static_cast<float>(d); float c = float(n); int e = int{n};\n"
      "  (void)e;\n  return a + b + c; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(Decl a f32 (Cast! f32 (Var n)))"));
  CHECK_THAT(s, Catch::Contains("(Decl b f32 (Cast! f32 (Var d)))"));
  CHECK_THAT(s, Catch::Contains("(Decl c f32 (Cast! f32 (Var n)))"));
  CHECK_THAT(s, Catch::Contains("(Decl e i32 (Cast! i32 (Var n)))"));
  CHECK_THAT(s, Catch::Contains(" ; (Return"));  // (void)e; leaves a null statement
}

TEST_CASE("compound assignment records the computation type", "[construct][assign]") {
  auto r = lift(
      "CULIFT_KERNEL int f(int s, short h, float x, double d) {\n"
      "  s += 1.5; h += 1; x += d; x *= 2; s <<= 1; s %= 3; return s + h; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(+= i32 in f64 (Var s) (Float f64 1.5));"));
  CHECK_THAT(s, Catch::Contains("(+= i16 in i32 (Var h) (Int i32 1));"));
  CHECK_THAT(s, Catch::Contains("(+= f32 in f64 (Var x) (Var d));"));
  CHECK_THAT(s, Catch::Contains("(*= f32 in f32 (Var x) (Cast f32 (Int i32 2)));"));
  CHECK_THAT(s, Catch::Contains("(<<= i32 in i32 (Var s) (Int i32 1));"));
  CHECK_THAT(s, Catch::Contains("(%= i32 in i32 (Var s) (Int i32 3));"));
}

TEST_CASE("assignment converts the value to the target's type", "[construct][assign]") {
  auto r = lift("CULIFT_KERNEL void f(float* out, const double* in, int i) { out[i] = in[i]; out[i + 1] = 2; }");
  CHECK(body(r, "f") ==
        "{ (= f32 (Index (Var out) (Var i)) (Cast f32 (Index (Var in) (Var i)))); "
        "(= f32 (Index (Var out) (+ i32 (Var i) (Int i32 1))) (Cast f32 (Int i32 2))); }");
}

TEST_CASE("increment and decrement of locals and array elements", "[construct][incdec]") {
  auto r = lift("CULIFT_KERNEL int f(int* x, int i) { int a = 0; ++a; a--; x[i]++; --x[i]; return a; }");
  CHECK(body(r, "f") ==
        "{ (Decl a i32 (Int i32 0)) (pre++ i32 (Var a)); (post-- i32 (Var a)); "
        "(post++ i32 (Index (Var x) (Var i))); (pre-- i32 (Index (Var x) (Var i))); (Return (Var a)) }");
}

TEST_CASE("switch with case values in the condition's type, default and fall-through", "[construct][switch]") {
  auto r = lift(
      "CULIFT_KERNEL int f(char c, long long w) {\n"
      "  int r = 0;\n"
      "  switch (c) { case 1: r = 1; case 'a': case -3: r += 2; break; default: r = 9; }\n"
      "  switch (w) { case 4000000000: return 1; }\n"
      "  return r; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s,
             Catch::Contains("(Switch (Cast i32 (Var c)) { (Case 1) (= i32 (Var r) (Int i32 1)); (Case 97) (Case -3) "
                             "(+= i32 in i32 (Var r) (Int i32 2)); break; (Default) (= i32 (Var r) (Int i32 9)); })"));
  CHECK_THAT(s, Catch::Contains("(Switch (Var w) { (Case 4000000000) (Return (Int i32 1)) })"));
}

TEST_CASE("switch case labels are converted to an unsigned condition type", "[construct][switch]") {
  auto r = lift(
      "CULIFT_KERNEL int f(unsigned u) { switch (u) { case 7u: return 1; case 0xFFFFFFFFu: return 2; } return 0; }");
  const Function& f = function(r, "f");
  REQUIRE(f.body->stmts.size() == 2);
  const Stmt& sw = *f.body->stmts[0];
  REQUIRE(sw.kind == StmtKind::Switch);
  REQUIRE(sw.body->stmts.size() == 4);
  CHECK(sw.cond->type == Type::value(Scalar::U32));
  CHECK(sw.body->stmts[0]->caseValue == 7);
  CHECK(sw.body->stmts[2]->caseValue == 0xFFFFFFFFull);
}

TEST_CASE("if/else, loops, break, continue and early returns", "[construct][control]") {
  auto r = lift(
      "CULIFT_KERNEL int f(int n) {\n"
      "  int s = 0;\n"
      "  while (s < n) { if (s == 3) break; else if (s == 1) { s += 2; continue; } ++s; }\n"
      "  do { --s; } while (s > 10);\n"
      "  for (;;) { return s; }\n"
      "}");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(While (< bool (Var s) (Var n)) { (If (== bool (Var s) (Int i32 3)) break; else (If "
                                "(== bool (Var s) (Int i32 1)) { (+= i32 in i32 (Var s) (Int i32 2)); continue; })) "
                                "(pre++ i32 (Var s)); })"));
  CHECK_THAT(s, Catch::Contains("(Do { (pre-- i32 (Var s)); } (> bool (Var s) (Int i32 10)))"));
  CHECK_THAT(s, Catch::Contains("(For <none> <none> <none> { (Return (Var s)) })"));
}

TEST_CASE("a for-init with several declarators is an unscoped block", "[construct][decl]") {
  auto r = lift("CULIFT_KERNEL int f(int n) { int t = 0; for (int a = 0, b = n; a < b; ++a, --b) t += a; return t; }");
  const Function& f = function(r, "f");
  REQUIRE(f.body->stmts.size() == 3);
  const Stmt& loop = *f.body->stmts[1];
  REQUIRE(loop.kind == StmtKind::For);
  REQUIRE(loop.init->kind == StmtKind::Block);
  CHECK_FALSE(loop.init->scoped);
  CHECK(loop.init->stmts.size() == 2);
  CHECK(body(r, "f") ==
        "{ (Decl t i32 (Int i32 0)) (For {| (Decl a i32 (Int i32 0)) (Decl b i32 (Var n)) |} "
        "(< bool (Var a) (Var b)) (, i32 (pre++ i32 (Var a)) (pre-- i32 (Var b))) "
        "(+= i32 in i32 (Var t) (Var a));) (Return (Var t)) }");
}

TEST_CASE("value-initialization T x{} and T x = {} is a literal zero", "[construct][decl]") {
  auto r = lift(
      "CULIFT_KERNEL double f(int i) { int a{}; float b = {}; double c{}; bool d{}; int e{5}; "
      "return a + b + c + d + e + i; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(Decl a i32 (Int i32 0))"));
  CHECK_THAT(s, Catch::Contains("(Decl b f32 (Float f32 0))"));
  CHECK_THAT(s, Catch::Contains("(Decl c f64 (Float f64 0))"));
  CHECK_THAT(s, Catch::Contains("(Decl d bool (Bool false))"));
  CHECK_THAT(s, Catch::Contains("(Decl e i32 (Int i32 5))"));
}

TEST_CASE("fixed-size local arrays with and without initializers", "[construct][array]") {
  auto r = lift(
      "CULIFT_KERNEL float f(const float* x, int i) {\n"
      "  float v[6]; float w[3] = {1, 2}; float z[4] = {}; int q[] = {1, 2, 3}; const int c[2] = {4, 5};\n"
      "  v[0] = x[i]; return v[0] + w[1] + z[2] + q[2] + c[1] + 2[w]; }");
  const Function& f = function(r, "f");
  CHECK(f.vars[2].type == Type::array(Scalar::F32, 6));
  CHECK(f.vars[5].type == Type::array(Scalar::I32, 3));
  CHECK(f.vars[6].type == Type::array(Scalar::I32, 2, true));
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(Decl v f32[6])"));
  CHECK_THAT(s, Catch::Contains("(Decl w f32[3] = { (Cast f32 (Int i32 1)) (Cast f32 (Int i32 2)) })"));
  CHECK_THAT(s, Catch::Contains("(Decl z f32[4] = { })"));
  CHECK_THAT(s, Catch::Contains("(Decl q i32[3] = { (Int i32 1) (Int i32 2) (Int i32 3) })"));
  CHECK_THAT(s, Catch::Contains("(Index (Var w) (Int i32 2))"));  // 2[w] is w[2]
  CHECK(culift::test::declOf(f, "v").arrayInitialized == false);
  CHECK(culift::test::declOf(f, "z").arrayInitialized == true);
}

TEST_CASE("array parameters: const T*, T*, T x[], const T* const, __restrict__", "[construct][param]") {
  auto r = lift(
      "CULIFT_KERNEL void f(const float* a, float* b, double c[], const int* const d, "
      "float* __restrict__ e, int i) { b[i] = a[i] + c[i] + d[i] + e[i]; }");
  const Function& f = function(r, "f");
  CHECK(f.numParams == 6);
  CHECK(f.vars[0].type == Type::pointer(Scalar::F32, true));
  CHECK(f.vars[1].type == Type::pointer(Scalar::F32, false));
  CHECK(f.vars[2].type == Type::pointer(Scalar::F64, false));
  CHECK(f.vars[3].type == Type::pointer(Scalar::I32, true));
  CHECK(f.vars[4].type == Type::pointer(Scalar::F32, false));
  CHECK(f.vars[5].isParam);
}

TEST_CASE("typedefs, aliases, <cstdint> names, size_t and long map by size and sign", "[construct][type]") {
  auto r = lift(
      "#include <cstdint>\n#include <cstddef>\n"
      "typedef float real; using count = unsigned short;\n"
      "CULIFT_KERNEL real f(std::int8_t a, std::uint8_t b, std::int16_t c, count d, std::int32_t e,\n"
      "    std::uint32_t g, std::int64_t h, std::uint64_t w, long l, unsigned long m, std::size_t n,\n"
      "    signed char o, unsigned char p, long long q, unsigned long long s, bool t, double u) { return a; }");
  const Function& f = function(r, "f");
  const Scalar expected[] = {Scalar::I8,  Scalar::U8,  Scalar::I16, Scalar::U16,  Scalar::I32, Scalar::U32,
                             Scalar::I64, Scalar::U64, Scalar::I64, Scalar::U64,  Scalar::U64, Scalar::I8,
                             Scalar::U8,  Scalar::I64, Scalar::U64, Scalar::Bool, Scalar::F64};
  REQUIRE(f.numParams == 17);
  for (unsigned p = 0; p < 17; ++p) {
    INFO("parameter " << f.vars[p].name);
    CHECK(f.vars[p].type == Type::value(expected[p]));
  }
  CHECK(f.returnType == Type::value(Scalar::F32));
}

TEST_CASE("logical operators convert operands to bool and short-circuit", "[construct][logical]") {
  auto r = lift("CULIFT_KERNEL bool f(int x, float y, bool z) { return (x && y) || !z; }");
  CHECK(body(r, "f") == "{ (Return (|| bool (&& bool (Cast bool (Var x)) (Cast bool (Var y))) (! bool (Var z)))) }");
}

TEST_CASE("bitwise, shift, comparison and unary operators", "[construct][operator]") {
  auto r = lift("CULIFT_KERNEL unsigned f(unsigned a, int b) { return (a & 3u) | (a ^ ~a) | (a >> b) | (-b < +b); }");
  CHECK(body(r, "f") ==
        "{ (Return (| u32 (| u32 (| u32 (& u32 (Var a) (Int u32 3)) (^ u32 (Var a) (~ u32 (Var a)))) "
        "(>> u32 (Var a) (Var b))) (Cast u32 (< bool (- i32 (Var b)) (+ i32 (Var b)))))) }");
}

TEST_CASE("conditional and comma expressions", "[construct][operator]") {
  auto r = lift("CULIFT_KERNEL double f(int a, float b) { int t = 0; return (t = a, a > 0) ? b : a; }");
  CHECK(body(r, "f") ==
        "{ (Decl t i32 (Int i32 0)) (Return (Cast f64 (?: f32 (, bool (= i32 (Var t) (Var a)) "
        "(> bool (Var a) (Int i32 0))) (Var b) (Cast f32 (Var a))))) }");
}

TEST_CASE("constexpr and const globals, enumerators and sizeof fold to literals", "[construct][constant]") {
  auto r = lift(
      "constexpr float kScale = 2.5f; const int kCount = -3; static const long kBig = 1L << 40;\n"
      "enum Mode { Slow = 2, Fast = 7 }; enum class Level : unsigned char { Low = 1, High = 200 };\n"
      "namespace cfg { constexpr double kHalf = 0.5; }\n"
      "CULIFT_KERNEL double f(int i) {\n"
      "  static constexpr int kLocal = 11;\n"
      "  return kScale + kCount + kBig + Fast + static_cast<int>(Level::High) + cfg::kHalf + sizeof(double)"
      " + kLocal + i; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(Float f32 2.5)"));
  CHECK_THAT(s, Catch::Contains("(Int i32 -3)"));
  CHECK_THAT(s, Catch::Contains("(Int i64 1099511627776)"));
  CHECK_THAT(s, Catch::Contains("(Cast i32 (Int u32 7))"));  // Mode's underlying type is unsigned int
  CHECK_THAT(s, Catch::Contains("(Cast! i32 (Int u8 200))"));
  CHECK_THAT(s, Catch::Contains("(Float f64 0.5)"));
  CHECK_THAT(s, Catch::Contains("(Int u64 8)"));
  CHECK_THAT(s, Catch::Contains("(Int i32 11)"));
  CHECK_THAT(s, !Catch::Contains("kScale"));
}

TEST_CASE("math calls compute in float only when every argument is float", "[construct][math]") {
  auto r = lift(
      "#include <cmath>\n#include <algorithm>\n#include <cstdlib>\n"
      "CULIFT_KERNEL double f(float x, double d, int n, long l) {\n"
      "  float a = std::sqrt(x); double b = std::sqrt(d); double c = std::sqrt(n); float e = sqrtf(d);\n"
      "  double g = std::pow(x, 2); float h = std::pow(x, 2.0f); double k = std::fmin(x, d);\n"
      "  bool m = std::isnan(x); bool o = std::isinf(d); float p = std::fma(x, x, x);\n"
      "  float q = __builtin_sqrtf(x); double s = std::exp(1);\n"
      "  return a + b + c + e + g + h + k + m + o + p + q + s; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(Decl a f32 (Math sqrt f32 (Var x)))"));
  CHECK_THAT(s, Catch::Contains("(Decl b f64 (Math sqrt f64 (Var d)))"));
  CHECK_THAT(s, Catch::Contains("(Decl c f64 (Math sqrt f64 (Cast f64 (Var n))))"));
  CHECK_THAT(s, Catch::Contains("(Decl e f32 (Math sqrt f32 (Cast f32 (Var d))))"));
  CHECK_THAT(s, Catch::Contains("(Decl g f64 (Math pow f64 (Cast f64 (Var x)) (Cast f64 (Int i32 2))))"));
  CHECK_THAT(s, Catch::Contains("(Decl h f32 (Math pow f32 (Var x) (Float f32 2)))"));
  CHECK_THAT(s, Catch::Contains("(Decl k f64 (Math fmin f64 (Cast f64 (Var x)) (Var d)))"));
  CHECK_THAT(s, Catch::Contains("(Decl m bool (Math isnan bool (Var x)))"));
  CHECK_THAT(s, Catch::Contains("(Decl o bool (Math isinf bool (Var d)))"));
  CHECK_THAT(s, Catch::Contains("(Decl p f32 (Math fma f32 (Var x) (Var x) (Var x)))"));
  CHECK_THAT(s, Catch::Contains("(Decl q f32 (Math sqrt f32 (Var x)))"));
  CHECK_THAT(s, Catch::Contains("(Decl s f64 (Math exp f64 (Cast f64 (Int i32 1))))"));
}

TEST_CASE("std::min/max/clamp/abs compute in the call's type", "[construct][math]") {
  auto r = lift(
      "#include <algorithm>\n#include <cmath>\n#include <cstdlib>\n"
      "CULIFT_KERNEL float f(const float* x, int i, int n, long l, short h) {\n"
      "  int a = std::min(i, n); float b = std::max(x[i], 0.0f); float c = std::clamp(x[i], -1.0f, 1.0f);\n"
      "  int d = std::abs(n); long e = labs(l); float g = std::abs(x[i]); int k = abs(h);\n"
      "  return a + b + c + d + e + g + k; }");
  const std::string s = body(r, "f");
  CHECK_THAT(s, Catch::Contains("(Decl a i32 (Math min i32 (Var i) (Var n)))"));
  CHECK_THAT(s, Catch::Contains("(Decl b f32 (Math max f32 (Index (Var x) (Var i)) (Float f32 0)))"));
  CHECK_THAT(s, Catch::Contains(
                    "(Decl c f32 (Math clamp f32 (Index (Var x) (Var i)) (- f32 (Float f32 1)) (Float f32 1)))"));
  CHECK_THAT(s, Catch::Contains("(Decl d i32 (Math abs i32 (Var n)))"));
  CHECK_THAT(s, Catch::Contains("(Decl e i64 (Math abs i64 (Var l)))"));
  CHECK_THAT(s, Catch::Contains("(Decl g f32 (Math abs f32 (Index (Var x) (Var i))))"));
  CHECK_THAT(s, Catch::Contains("(Decl k i32 (Math abs i32 (Cast i32 (Var h))))"));
}

TEST_CASE("std::min/max of a list and std::minmax are the two-operand min and max", "[construct][math]") {
  auto r = lift(
      "#include <algorithm>\n"
      "CULIFT_KERNEL double f(float x, float y, double z, int n) {\n"
      "  double a = std::min<double>({x, z, 2.0}); float b = std::max({x, y});\n"
      "  auto [lo, hi] = std::minmax({x, y}); int m = std::min({n++, n});\n"
      "  auto p = std::minmax(x, y); return a + b + lo + hi + m + p.second; }");
  const std::string s = body(r, "f");
  // A left fold; an element converted to the list's type.
  CHECK_THAT(s, Catch::Contains("(Decl a f64 (Math min f64 (Math min f64 (Cast f64 (Var x)) (Var z)) (Float f64 2)))"));
  CHECK_THAT(s, Catch::Contains("(Decl b f32 (Math max f32 (Var x) (Var y)))"));
  // (y < x) ? (y, x) : (x, y).
  CHECK_THAT(s, Catch::Contains("(Decl lo f32 (Math min f32 (Var x) (Var y)))"));
  CHECK_THAT(s, Catch::Contains("(Decl hi f32 (Math max f32 (Var y) (Var x)))"));
  // Side effects: every element through a temporary, in order.
  CHECK_THAT(s, Catch::Contains("(= i32 (Var tmp_arg) (post++ i32 (Var n)))"));
  CHECK_THAT(s, Catch::Contains("(Math min i32 (Var tmp_arg) (Var tmp_arg_2))"));
  // A pair of references: which argument is first is decided at the call.
  CHECK_THAT(s, Catch::Contains("(Decl p_swapped bool (< bool (Var y) (Var x)))"));
  CHECK_THAT(s, Catch::Contains("(?: f32 (Var p_swapped) (Var x) (Var y))"));
}

TEST_CASE("functions a kernel calls are lifted transitively as device functions", "[construct][call]") {
  auto r = lift(
      "static float square(float v) { return v * v; }\n"
      "inline float norm2(float a, float b) { return square(a) + square(b); }\n"
      "float scaled(float v, float s = 2.0f) { return v * s; }\n"
      "CULIFT_KERNEL float f(const float* x, int i) { return scaled(norm2(x[i], 1.0f)); }");
  REQUIRE(r.ok());
  REQUIRE(r.module->functions.size() == 4);
  const Function& f = function(r, "f");
  const Function& norm2 = function(r, "norm2");
  const Function& square = function(r, "square");
  const Function& scaled = function(r, "scaled");
  CHECK(f.annotated);
  CHECK_FALSE(norm2.annotated);
  CHECK_FALSE(square.annotated);
  CHECK(norm2.mode == IndexMode::DeviceOnly);
  CHECK(norm2.kernelName.empty());
  CHECK(norm2.deviceName == "norm2");
  CHECK(r.module->kernels().size() == 1);
  auto id = [&](const Function& g) { return std::to_string(&g - r.module->functions.data()); };
  CHECK(body(r, "f") == "{ (Return (Call #" + id(scaled) + " f32 (Call #" + id(norm2) +
                            " f32 (Index (Var x) (Var i)) (Float f32 1)) (Float f32 2))) }");
  CHECK(body(r, "norm2") ==
        "{ (Return (+ f32 (Call #" + id(square) + " f32 (Var a)) (Call #" + id(square) + " f32 (Var b)))) }");
}

TEST_CASE("functions picked by name are lifted like annotated ones", "[construct][call]") {
  TranslateOptions options;
  options.functions = {"plain"};
  auto r = lift("float plain(const float* x, int i) { return x[i]; }\nfloat other(float v) { return v; }", options);
  REQUIRE(r.ok());
  REQUIRE(r.module->functions.size() == 1);
  CHECK(function(r, "plain").annotated);
  CHECK(function(r, "plain").mode == IndexMode::Grid1D);
}

TEST_CASE("CULIFT_KERNEL_INDEX overrides the index parameter names", "[construct][index]") {
  auto r = lift(
      "CULIFT_KERNEL_INDEX(row, col) float cell(const float* m, int cols, int row, int col) {"
      " return m[row * cols + col]; }\n"
      "CULIFT_KERNEL_INDEX(n) float first(const float* m, int n, int i) { return m[n] + i; }");
  const Function& cell = function(r, "cell");
  CHECK(cell.indexNames == std::vector<std::string>{"row", "col"});
  CHECK(cell.mode == IndexMode::Grid2D);
  CHECK(cell.indexParams == std::vector<int>{2, 3});
  CHECK(cell.signature.toString() ==
        "(const float* m, int cols, float* culift_out, long long culift_rows, long long culift_cols)");
  const Function& first = function(r, "first");
  CHECK(first.mode == IndexMode::Grid1D);
  CHECK(first.indexParams == std::vector<int>{1});
  CHECK(first.signature.toString() == "(const float* m, int i, float* culift_out, long long culift_n)");
}

TEST_CASE("void functions, early returns and 3-D kernels", "[construct][return]") {
  auto r = lift(
      "CULIFT_KERNEL void f(float* out, int rows, int cols, int i, int j, int k) {\n"
      "  if (i >= rows) return;\n  out[(k * rows + i) * cols + j] = 1.0f; }");
  const Function& f = function(r, "f");
  CHECK(f.mode == IndexMode::Grid3D);
  CHECK(f.returnType.isVoid());
  CHECK(f.signature.toString() ==
        "(float* out, int rows, int cols, long long culift_rows, long long culift_cols, long long culift_depth)");
  CHECK_THAT(body(r, "f"), Catch::Contains("(If (>= bool (Var i) (Var rows)) (Return))"));
}

TEST_CASE("namespaces and extern \"C\" blocks are searched for annotated functions", "[construct][find]") {
  auto r = lift(
      "namespace math { namespace detail { inline int twice(int v) { return 2 * v; } }\n"
      "CULIFT_KERNEL int f(int v) { return detail::twice(v); } }\n"
      "extern \"C\" { CULIFT_KERNEL int g(int v) { return -v; } }");
  CHECK(function(r, "f").mode == IndexMode::ElementWise);
  CHECK(function(r, "g").mode == IndexMode::ElementWise);
  CHECK_FALSE(function(r, "twice").annotated);
}

TEST_CASE("every node carries its source range", "[construct][source]") {
  auto r = lift("CULIFT_KERNEL float f(float x) {\n  return x *   2.0f;\n}");
  const Function& f = function(r, "f");
  CHECK(f.range.begin.file == "snippet.cpp");
  CHECK(f.range.begin.line == 2);
  REQUIRE(f.body->stmts.size() == 1);
  const Stmt& ret = *f.body->stmts[0];
  REQUIRE(ret.expr);
  CHECK(ret.range.begin.line == 3);
  CHECK(ret.range.begin.column == 3);
  const Expr& mul = *ret.expr;
  CHECK(mul.range.begin.column == 10);
  CHECK(mul.range.endLine == 3);
  CHECK(mul.range.endColumn == 19);  // the last character of 2.0f
  CHECK(f.vars[0].range.begin.line == 2);
}

TEST_CASE("macro uses point at the expansion site", "[construct][source]") {
  auto r = lift("#define TWICE(v) ((v) + (v))\nCULIFT_KERNEL int f(int a) {\n  return TWICE(a);\n}");
  const Function& f = function(r, "f");
  REQUIRE(f.body->stmts.size() == 1);
  REQUIRE(f.body->stmts[0]->expr);
  CHECK(f.body->stmts[0]->expr->range.begin.line == 4);
  CHECK(f.body->stmts[0]->expr->range.begin.column == 10);
}

TEST_CASE("null statements, nested blocks and [[fallthrough]]", "[construct][control]") {
  auto r = lift(
      "CULIFT_KERNEL int f(int a) { ; { int b = a; a = b; } switch (a) { case 0: a = 1; [[fallthrough]]; "
      "case 1: break; } return a; }");
  CHECK(body(r, "f") ==
        "{ ; { (Decl b i32 (Var a)) (= i32 (Var a) (Var b)); } (Switch (Var a) { (Case 0) "
        "(= i32 (Var a) (Int i32 1)); ; (Case 1) break; }) (Return (Var a)) }");
}

TEST_CASE("template instances are lifted per use, with readable names that collide with nothing",
          "[construct][template]") {
  auto r = lift(
      "template <class T> T twice(T v) { return v + v; }\n"
      "inline float twice_float(float v) { return v; }\n"
      "template <int N> struct Pow { static float of(float x) {\n"
      "  if constexpr (N == 0) return 1.0f; else return x * Pow<N - 1>::of(x); } };\n"
      "struct K { static constexpr int kTwo = 2; static int get() { return kTwo; } };\n"
      "CULIFT_KERNEL float f(float a, int n) {\n"
      "  return twice(a) + twice_float(a) + (float)twice<int>(n) + Pow<2>::of(a) + (float)K::get(); }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  CHECK(r.module->find("twice_float_2"));  // the instance: the user's twice_float keeps its name
  CHECK(body(r, "twice_float") == "{ (Return (Var v)) }");
  CHECK(r.module->find("twice_int"));
  CHECK(r.module->find("K_get"));
  CHECK(body(r, "K_get") == "{ (Return (Int i32 2)) }");
  // if constexpr: only the selected branch; the recursion over instances ends at Pow<0>.
  CHECK(body(r, "Pow_0_of") == "{ (Return (Float f32 1)) }");
  CHECK(body(r, "Pow_2_of").find("(Call #") != std::string::npos);
  CHECK(body(r, "Pow_2_of").find("(Float f32 1)") == std::string::npos);
}

TEST_CASE("references are variables bound once; temporaries of const references are copies", "[construct][reference]") {
  auto r = lift(
      "inline void out(float& s, const float& v) { s = v; }\n"
      "CULIFT_KERNEL float f(float* y, int i) {\n"
      "  float& e = y[i];\n"
      "  const double& w = e;\n"
      "  out(e, e * 2.0f);\n"
      "  out(y[0], e);\n"
      "  return e + (float)w; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& f = function(r, "f");
  const Function& o = function(r, "out");
  CHECK(o.vars[0].binding == Binding::Reference);
  CHECK(o.vars[1].binding == Binding::ConstReference);
  CHECK(o.vars[1].type == Type::value(Scalar::F32));
  CHECK(f.vars[declOf(f, "e").var].binding == Binding::Reference);
  CHECK(f.vars[declOf(f, "w").var].binding == Binding::Value);  // bound to a converted temporary
  const std::string b = body(r, "f");
  INFO(b);
  CHECK(b.find("(Decl e f32& (Index (Var y) (Var i)))") != std::string::npos);
  // A temporary for the const reference; the variable itself for the plain one.
  CHECK(b.find("(Var e) (* f32 (Var e) (Float f32 2))") != std::string::npos);
}

TEST_CASE("range for over a local array is an index loop declaring the element", "[construct][range-for]") {
  auto r = lift(
      "CULIFT_KERNEL float f(float a) {\n"
      "  float v[2] = {a, a};\n"
      "  for (float& x : v) x += 1.0f;\n"
      "  float s = 0;\n"
      "  for (double x : v) s += (float)x;\n"
      "  return s; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& f = function(r, "f");
  const std::string b = body(r, "f");
  INFO(b);
  CHECK(b.find("(For (Decl culift_k i32 (Int i32 0)) (< bool (Var culift_k) (Int i32 2)) (pre++ i32 (Var culift_k))") !=
        std::string::npos);
  CHECK(b.find("(Decl x f32& (Index (Var v) (Var culift_k)))") != std::string::npos);
  CHECK(b.find("(Decl x f64 (Cast f64 (Index (Var v) (Var culift_k))))") != std::string::npos);
  unsigned references = 0;
  for (const Var& v : f.vars) references += v.isReference() ? 1 : 0;
  CHECK(references == 1);
}

TEST_CASE("a lambda is a function taking its captures first", "[construct][lambda]") {
  auto r = lift(
      "template <class F> float apply(F f, float x) { return f(x); }\n"
      "CULIFT_KERNEL float f(float a, float b) {\n"
      "  auto g = [a, &b](float x) { b += x; return a * x; };\n"
      "  float r = g(1.0f);\n"
      "  return r + apply(g, 2.0f) + b; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& lambda = function(r, "f_lambda4");
  REQUIRE(lambda.numParams == 3);
  CHECK(lambda.vars[0].name == "a");
  CHECK(lambda.vars[0].binding == Binding::ConstReference);  // the copy, read only
  CHECK(lambda.vars[1].name == "b");
  CHECK(lambda.vars[1].binding == Binding::Reference);
  CHECK(lambda.vars[2].binding == Binding::Value);
  const Function& apply = function(r, "apply_lambda4");
  REQUIRE(apply.numParams == 3);  // g's two captures, then x
  CHECK(apply.vars[0].name == "f_a");
  const std::string b = body(r, "f");
  CHECK(b.find("(Decl g_a f32 (Var a))") != std::string::npos);  // the copy, made where g is defined
}

TEST_CASE("std::array is a local array: elements, size, front, back, fill and copies", "[construct][std-array]") {
  auto r = lift(
      "#include <array>\n"
      "CULIFT_KERNEL float f(float a, int n) {\n"
      "  std::array<float, 3> v = {a, 2.0f};\n"
      "  std::array<float, 3> w = v;\n"
      "  w.fill(a);\n"
      "  v = w;\n"
      "  return v[n] + v.front() + v.back() + (float)v.size(); }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& f = function(r, "f");
  const std::string b = body(r, "f");
  INFO(b);
  CHECK(f.vars[declOf(f, "v").var].type == Type::array(Scalar::F32, 3));
  CHECK(b.find("(Decl v f32[3] = { (Var a) (Float f32 2) })") != std::string::npos);
  // The copy and the assignment are element loops; fill stores one value computed once.
  CHECK(b.find("(= f32 (Index (Var w) (Var culift_k)) (Index (Var v) (Var culift_k)))") != std::string::npos);
  CHECK(b.find("(Decl culift_fill f32 (Var a))") != std::string::npos);
  CHECK(b.find("(= f32 (Index (Var v) (Var culift_k)) (Index (Var w) (Var culift_k)))") != std::string::npos);
  // v[n] indexes with n as written (not its conversion to size_t); size() is the constant 3.
  CHECK(b.find("(Index (Var v) (Var n))") != std::string::npos);
  CHECK(b.find("(Index (Var v) (Int i32 0))") != std::string::npos);
  CHECK(b.find("(Index (Var v) (Int i32 2))") != std::string::npos);
  CHECK(b.find("(Int u64 3)") != std::string::npos);
}

TEST_CASE("std::array parameters: by reference a pointer, by value the callee's copy; a returned one a last parameter",
          "[construct][std-array]") {
  auto r = lift(
      "#include <array>\n"
      "inline float byRef(const std::array<float, 2>& v) { return v[1]; }\n"
      "inline float byValue(std::array<float, 2> v) { v[0] = 1.0f; return v[0]; }\n"
      "inline std::array<float, 2> make(float a) { return {a, -a}; }\n"
      "CULIFT_KERNEL float f(float a) {\n"
      "  auto m = make(a);\n"
      "  auto [x, y] = m;\n"
      "  return byRef(m) + byValue(m) + x + y; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& byRef = function(r, "byRef");
  CHECK(byRef.vars[0].type == Type::pointer(Scalar::F32, true));
  const Function& byValue = function(r, "byValue");
  CHECK(byValue.vars[0].name == "culift_v");
  CHECK(body(r, "byValue").find("(Decl v f32[2])") != std::string::npos);
  const Function& make = function(r, "make");
  CHECK(make.returnType.isVoid());
  REQUIRE(make.numParams == 2);
  CHECK(make.vars[1].name == "culift_result");
  CHECK(make.vars[1].type == Type::pointer(Scalar::F32, false));
  const std::string b = body(r, "f");
  INFO(b);
  CHECK(b.find("(Call #1 void (Var a) (Var m))") != std::string::npos);
  CHECK(b.find("(Decl culift_x_y f32[2])") != std::string::npos);
  CHECK(b.find("(Index (Var culift_x_y) (Int i32 1))") != std::string::npos);
}

TEST_CASE("multi-dimensional arrays are flat, indexed row-major", "[construct][multi-dim]") {
  auto r = lift(
      "CULIFT_KERNEL float f(const float A[][4], int i, int j) {\n"
      "  float m[2][3] = {{1.0f, 2.0f}, {3.0f}};\n"
      "  m[1][2] = A[i][j];\n"
      "  return m[i % 2][j % 3]; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& f = function(r, "f");
  CHECK(f.vars[0].type == Type::pointer(Scalar::F32, true));
  CHECK(f.vars[declOf(f, "m").var].type == Type::array(Scalar::F32, 6));
  const std::string b = body(r, "f");
  INFO(b);
  // Rows given in part are zero-filled up to the last element given.
  CHECK(b.find("(Decl m f32[6] = { (Float f32 1) (Float f32 2) (Float f32 0) (Float f32 3) })") != std::string::npos);
  // A local's flat index is an int (the array is known to be small); a parameter's rows are
  // the caller's, so its index is a long long, as C++ adds the row to a pointer.
  CHECK(b.find("(Index (Var m) (+ i32 (* i32 (Int i32 1) (Int i32 3)) (Int i32 2)))") != std::string::npos);
  CHECK(b.find("(Index (Var A) (+ i64 (* i64 (Cast i64 (Var i)) (Int i64 4)) (Cast i64 (Var j))))") !=
        std::string::npos);
}

TEST_CASE("constant tables become local const arrays of the compiler's values", "[construct][table]") {
  auto r = lift(
      "#include <array>\n"
      "constexpr float kW[3] = {0.5f, 1.0f / 3.0f, 0.25f};\n"
      "constexpr std::array<int, 2> kI = {4, 5};\n"
      "CULIFT_KERNEL float f(int n) {\n"
      "  static constexpr double kT[2][2] = {{1.0, 2.0}, {3.0, 4.0}};\n"
      "  float s = 0.0f;\n"
      "  for (float w : kW) s += w;\n"
      "  return s + kW[n] + (float)kI[n] + (float)kT[n][1]; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& f = function(r, "f");
  CHECK(f.vars[declOf(f, "kW").var].type == Type::array(Scalar::F32, 3, true));
  CHECK(f.vars[declOf(f, "kT").var].type == Type::array(Scalar::F64, 4, true));
  const Stmt& kw = declOf(f, "kW");
  REQUIRE(kw.inits.size() == 3);
  CHECK(kw.inits[1]->floatValue == static_cast<double>(1.0f / 3.0f));
  const std::string b = body(r, "f");
  INFO(b);
  CHECK(b.find("(Decl kI i32[4]") == std::string::npos);
  CHECK(b.find("(Index (Var kI) (Var n))") != std::string::npos);
}

TEST_CASE("range for over rows binds each row by reference; its elements are the array's", "[construct][multi-dim]") {
  auto r = lift(
      "CULIFT_KERNEL float f(float a) {\n"
      "  float m[2][3] = {{a, a, a}, {a, a, a}};\n"
      "  float s = 0.0f;\n"
      "  for (const auto& row : m)\n"
      "    for (float v : row) s += v + row[0];\n"
      "  return s; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const std::string b = body(r, "f");
  INFO(b);
  CHECK(b.find("(Decl v f32 (Index (Var m) (+ i32 (* i32 (Var culift_k) (Int i32 3)) (Var culift_k1))))") !=
        std::string::npos);
  CHECK(b.find("(Index (Var m) (+ i32 (* i32 (Var culift_k) (Int i32 3)) (Int i32 0)))") != std::string::npos);
}

TEST_CASE("a struct local is its leaves: one variable per field, named after the path", "[construct][struct]") {
  auto r = lift(
      "struct In { float c; int k[2]; };\n"
      "struct S { float x = 1.0f; In in; };\n"
      "CULIFT_KERNEL float f(float a) {\n"
      "  S s{.in = {a, {3, 4}}};\n"
      "  S t = s;\n"
      "  t.in.k[1] += 2;\n"
      "  s = t;\n"
      "  return s.x + s.in.c + (float)s.in.k[1]; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const std::string b = body(r, "f");
  INFO(b);
  CHECK_THAT(b, Catch::Contains("(Decl s_x f32 (Float f32 1))"));  // the default member initializer
  CHECK_THAT(b, Catch::Contains("(Decl s_in_c f32 (Var a))"));
  CHECK_THAT(b, Catch::Contains("(Decl s_in_k i32[2] = { (Int i32 3) (Int i32 4) })"));
  CHECK_THAT(b, Catch::Contains(
                    "(Decl t_in_k i32[2] = { (Index (Var s_in_k) (Int i32 0)) (Index (Var s_in_k) (Int i32 1)) })"));
  CHECK_THAT(b, Catch::Contains("(+= i32 in i32 (Index (Var t_in_k) (Int i32 1)) (Int i32 2))"));
  CHECK_THAT(b, Catch::Contains("(= f32 (Var s_x) (Var t_x))"));
  CHECK_THAT(b, Catch::Contains("(= i32 (Index (Var s_in_k) (Int i32 1)) (Index (Var t_in_k) (Int i32 1)))"));
}

TEST_CASE("a helper returning a struct writes it through reference parameters after its own", "[construct][struct]") {
  auto r = lift(
      "struct R { float lo, hi; };\n"
      "inline R order(float a, float b) { if (a < b) return {a, b}; return R{b, a}; }\n"
      "CULIFT_KERNEL float f(float a, float b) {\n"
      "  R r = order(a, b);\n"
      "  r = order(r.hi, r.lo);\n"
      "  auto [lo, hi] = order(a, 2.0f);\n"
      "  return r.hi - r.lo + hi - lo; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& order = function(r, "order");
  REQUIRE(order.numParams == 4);
  CHECK(order.returnType.isVoid());
  CHECK(order.vars[2].name == "ret_lo");
  CHECK(order.vars[2].binding == Binding::Reference);
  const std::string o = body(r, "order");
  INFO(o);
  CHECK_THAT(o, Catch::Contains("(= f32 (Var ret_lo) (Var a))"));
  const std::string b = body(r, "f");
  INFO(b);
  // A new variable is written in place; an assignment goes through temporaries (order reads r).
  CHECK_THAT(b, Catch::Contains("void (Var a) (Var b) (Var r_lo) (Var r_hi))"));
  CHECK_THAT(b, Catch::Contains("void (Var r_hi) (Var r_lo) (Var tmp_lo) (Var tmp_hi))"));
  CHECK_THAT(b, Catch::Contains("(= f32 (Var r_lo) (Var tmp_lo))"));
  // Structured bindings name the leaves.
  CHECK_THAT(b, Catch::Contains("void (Var a) (Float f32 2) (Var lo) (Var hi))"));
}

TEST_CASE("member functions and operators take the object's leaves first", "[construct][struct]") {
  auto r = lift(
      "struct V {\n"
      "  float x, y;\n"
      "  V(float a, float b) : x(a), y(b) {}\n"
      "  float dot(const V& o) const { return x * o.x + y * o.y; }\n"
      "  V& operator+=(const V& o) { x += o.x; y += o.y; return *this; }\n"
      "};\n"
      "inline V operator-(V a, const V& b) { a.x -= b.x; a.y -= b.y; return a; }\n"
      "CULIFT_KERNEL float f(float a, float b) {\n"
      "  V v(a, b);\n"
      "  v += V(1.0f, 2.0f);\n"
      "  return (v - V{b, a}).dot(v); }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& dot = function(r, "V_dot");
  CHECK(dot.vars[0].name == "self_x");
  CHECK(dot.vars[0].binding == Binding::ConstReference);
  CHECK(function(r, "V_op_add_assign").vars[0].binding == Binding::Reference);
  CHECK(function(r, "V_op_add_assign").returnType.isVoid());
  CHECK(function(r, "V_ctor").vars[0].binding == Binding::Reference);
  CHECK_THAT(body(r, "V_ctor"), Catch::Contains("(= f32 (Var self_x) (Var a))"));
  const std::string b = body(r, "f");
  INFO(b);
  CHECK_THAT(b, Catch::Contains("void (Var v_x) (Var v_y) (Var a) (Var b))"));
  CHECK_THAT(b, Catch::Contains("void (Var v_x) (Var v_y) (Var tmp_x) (Var tmp_y))"));
  CHECK_THAT(b, Catch::Contains("f32 (Var tmp_x_2) (Var tmp_y_2) (Var v_x) (Var v_y))"));
}

TEST_CASE("a kernel's struct parameter is its fields, each a scalar parameter", "[construct][struct]") {
  auto r = lift(
      "struct P { float x; double w; };\n"
      "CULIFT_KERNEL double f(P p, int i) { return p.x * p.w + i; }");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function& f = function(r, "f");
  REQUIRE(f.numParams == 3);
  CHECK(f.vars[0].name == "p_x");
  CHECK(f.vars[0].type == Type::value(Scalar::F32));
  CHECK(f.vars[1].name == "p_w");
  CHECK(f.vars[0].binding == Binding::Value);
  CHECK(f.signature.toString() == "(float p_x, double p_w, double* culift_out, long long culift_n)");
}

TEST_CASE("std::atomic_ref<T>(a[k]).fetch_add(v) is an AtomicRmw of the element, its operand converted",
          "[construct][atomic]") {
  auto r = lift(
      "#include <atomic>\n"
      "CULIFT_KERNEL void h(const int* b, int* c, int i) { std::atomic_ref<int>(c[b[i]]).fetch_add(1); }\n"
      "CULIFT_KERNEL float s(float* t, double* d, short v, int i) {\n"
      "  std::atomic_ref(d[i]).fetch_sub(v);\n"
      "  return std::atomic_ref<float>(t[0]).fetch_add(2.0f);\n"
      "}");
  CHECK(body(r, "h") == "{ (fetch_add i32 (Index (Var c) (Index (Var b) (Var i))) (Int i32 1)); }");
  CHECK(body(r, "s") ==
        "{ (fetch_sub f64 (Index (Var d) (Var i)) (Cast f64 (Var v))); "
        "(Return (fetch_add f32 (Index (Var t) (Int i32 0)) (Float f32 2))) }");
}
