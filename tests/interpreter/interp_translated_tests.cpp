// Interpreter vs native on real C++: functions compiled natively in this test AND translated by
// culift::translate from the same header. Operation × type matrices over boundary values, bit
// for bit; inputs that are undefined behaviour in C++ must be reported as errors instead.
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "../../examples/pearson/pearson_metrics.hpp"
#include "catch.hpp"
#include "culift/crosscheck.hpp"
#include "culift/interpreter.hpp"
#include "culift/translate.hpp"
#include "data/constants_functions.hpp"
#include "data/ops_functions.hpp"
#include "deep_inputs.hpp"
#include "small_stack.hpp"

using namespace culift;
using interp::Value;

namespace {

struct Translated {
  std::shared_ptr<Module> module;
  std::shared_ptr<const interp::Program> program;
  std::string diagnostics;
};

const Translated& translated(const std::string& path) {
  static std::map<std::string, Translated> cache;
  auto it = cache.find(path);
  if (it != cache.end()) return it->second;
  TranslateOptions o;
  o.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include", "-std=c++20"};
  TranslateResult r = translate(path, o);
  Translated t;
  t.diagnostics = r.formatDiagnostics();
  t.module = r.module;
  if (t.module) t.program = interp::Program::compile(t.module);
  return cache.emplace(path, std::move(t)).first->second;
}

const Translated& ops() { return translated(CULIFT_SOURCE_DIR "/tests/interpreter/data/ops_functions.hpp"); }

template <typename T> T opaque(T v) {
  volatile T x = v;
  return x;
}

template <typename T> std::vector<T> boundary() {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_same_v<T, bool>) {
    return {false, true};
  } else if constexpr (std::is_floating_point_v<T>) {
    return {L::lowest(),    T(-1.5),        T(-1),      -L::denorm_min(), T(-0.0), T(0),     L::denorm_min(),
            L::min(),       T(0.5),         T(1),       T(2.75),          T(3e9),  L::max(), L::infinity(),
            -L::infinity(), L::quiet_NaN(), T(1) / T(3)};
  } else if constexpr (std::is_signed_v<T>) {
    return {L::min(), T(L::min() + 1), T(-5), T(-1), T(0), T(1), T(3), T(L::max() - 1), L::max()};
  } else {
    return {T(0), T(1), T(3), T(L::max() / 2), T(L::max() - 1), L::max()};
  }
}

template <typename T> bool sameBits(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) return a == b;
  else return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Calls the translated function and the native one on the same values, unless `ub` says C++
// leaves the result undefined: then the interpreter must report an error.
template <typename R, typename... P, typename UB>
void compare(const std::string& name, R (*native)(P...), UB ub, P... args) {
  const Translated& t = ops();
  const Function* fn = t.module->find(name);
  REQUIRE(fn);
  std::vector<interp::Arg> list{interp::Arg(Value::of(args))...};
  std::string shown;
  ((shown += Value::of(args).toString() + " "), ...);
  INFO(name << "(" << shown << ")");
  if (ub(args...)) {
    CHECK_THROWS_AS(t.program->call(*fn, list), interp::Error);
    return;
  }
  R expect = native(opaque(args)...);
  Value got;
  REQUIRE_NOTHROW(got = t.program->call(*fn, list));
  CHECK(sameBits(got.as<R>(), expect));
}

template <typename T> using Promoted = decltype(+T());

template <typename T, typename Op> bool overflows(T a, T b, Op op) {
  using P = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, double>, T, Promoted<T>>;
  if constexpr (std::is_integral_v<P> && std::is_signed_v<P>) {
    P r;
    return op(P(a), P(b), &r);
  } else {
    return false;
  }
}

template <typename T> bool narrowerThanInt() { return std::is_integral_v<T> && sizeof(T) < sizeof(int); }

template <typename T> void arithFamily(const std::string& n, T (*add)(T, T), T (*sub)(T, T), T (*mul)(T, T),
                                       T (*div)(T, T), bool (*lt)(T, T), bool (*le)(T, T), bool (*eq)(T, T),
                                       bool (*ne)(T, T), T (*neg)(T), T (*addeq)(T, T), T (*muleq)(T, T), T (*inc)(T),
                                       T (*dec)(T), T (*pick)(T, T)) {
  auto addOv = [](T a, T b) {
    return overflows(a, b, [](auto x, auto y, auto* r) { return __builtin_add_overflow(x, y, r); });
  };
  auto subOv = [](T a, T b) {
    return overflows(a, b, [](auto x, auto y, auto* r) { return __builtin_sub_overflow(x, y, r); });
  };
  auto mulOv = [](T a, T b) {
    return overflows(a, b, [](auto x, auto y, auto* r) { return __builtin_mul_overflow(x, y, r); });
  };
  auto divUb = [](T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      using P = Promoted<T>;
      return P(b) == 0 || (std::is_signed_v<P> && P(a) == std::numeric_limits<P>::min() && P(b) == P(-1));
    }
    return false;
  };
  auto never = [](auto...) { return false; };
  for (T a : boundary<T>()) {
    for (T b : boundary<T>()) {
      compare("add_" + n, add, addOv, a, b);
      compare("sub_" + n, sub, subOv, a, b);
      compare("mul_" + n, mul, mulOv, a, b);
      compare("div_" + n, div, divUb, a, b);
      compare("lt_" + n, lt, never, a, b);
      compare("le_" + n, le, never, a, b);
      compare("eq_" + n, eq, never, a, b);
      compare("ne_" + n, ne, never, a, b);
      compare("addeq_" + n, addeq, addOv, a, b);
      compare("muleq_" + n, muleq, mulOv, a, b);
      compare("pick_" + n, pick, never, a, b);
    }
    compare(
        "neg_" + n, neg, [&](T a) { return subOv(T(0), a) && !std::is_unsigned_v<Promoted<T>>; }, a);
    compare(
        "inc_" + n, inc, [&](T a) { return !narrowerThanInt<T>() && addOv(a, T(1)); }, a);
    compare(
        "dec_" + n, dec, [&](T a) { return !narrowerThanInt<T>() && subOv(a, T(1)); }, a);
  }
}

template <typename T> void intFamily(const std::string& n, T (*rem)(T, T), T (*andf)(T, T), T (*orf)(T, T),
                                     T (*xorf)(T, T), T (*notf)(T), T (*shl)(T, int), T (*shr)(T, int),
                                     T (*shreq)(T, long long)) {
  using P = Promoted<T>;
  const int width = sizeof(P) * 8;
  auto remUb = [](T a, T b) {
    return P(b) == 0 || (std::is_signed_v<P> && P(a) == std::numeric_limits<P>::min() && P(b) == P(-1));
  };
  auto never = [](auto...) { return false; };
  for (T a : boundary<T>()) {
    for (T b : boundary<T>()) {
      compare("rem_" + n, rem, remUb, a, b);
      compare("and_" + n, andf, never, a, b);
      compare("or_" + n, orf, never, a, b);
      compare("xor_" + n, xorf, never, a, b);
    }
    compare("not_" + n, notf, never, a);
    for (int s : {-1, 0, 1, 7, width - 1, width, 70}) {
      auto bad = [&](T, int c) { return c < 0 || c >= width; };
      compare("shl_" + n, shl, bad, a, s);
      compare("shr_" + n, shr, bad, a, s);
      compare(
          "shreq_" + n, shreq, [&](T, long long c) { return c < 0 || c >= width; }, a, static_cast<long long>(s));
    }
  }
}

template <typename F, typename T> bool conversionUb(F v) {
  if constexpr (std::is_floating_point_v<F> && std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    const long double x = v;
    const long double lo = std::is_signed_v<T> ? static_cast<long double>(std::numeric_limits<T>::min()) - 1 : -1;
    const long double hi = static_cast<long double>(std::numeric_limits<T>::max()) + 1;
    return !(x > lo && x < hi);
  }
  return false;
}

}  // namespace

TEST_CASE("the operations header translates", "[interp][translated]") {
  const Translated& t = ops();
  INFO(t.diagnostics);
  REQUIRE(t.module);
  CHECK(t.module->find("add_sc"));
  CHECK(t.module->find("helper_scale"));  // lifted because c_call calls it
}

#define CULIFT_ARITH_CASE(T, N)                                                                                        \
  arithFamily<T>(#N, &add_##N, &sub_##N, &mul_##N, &div_##N, &lt_##N, &le_##N, &eq_##N, &ne_##N, &neg_##N, &addeq_##N, \
                 &muleq_##N, &inc_##N, &dec_##N, &pick_##N);
#define CULIFT_INT_CASE(T, N) \
  intFamily<T>(#N, &rem_##N, &and_##N, &or_##N, &xor_##N, &not_##N, &shl_##N, &shr_##N, &shreq_##N);

TEST_CASE("translated operators equal native C++ on every type (promotions included)", "[interp][translated][ops]") {
  REQUIRE(ops().module);
  CULIFT_ALL_TYPES(CULIFT_ARITH_CASE)
  CULIFT_INT_TYPES(CULIFT_INT_CASE)
}

#define CULIFT_CONV_CASE_TO(F, FN, T, TN) \
  for (F v : boundary<F>())               \
    compare(                              \
        std::string("conv_" #FN "_" #TN), &conv_##FN##_##TN, [](F x) { return conversionUb<F, T>(x); }, v);
#define CULIFT_CONV_CASE(F, FN)                       \
  CULIFT_CONV_CASE_TO(F, FN, bool, b)                 \
  CULIFT_CONV_CASE_TO(F, FN, signed char, sc)         \
  CULIFT_CONV_CASE_TO(F, FN, unsigned char, uc)       \
  CULIFT_CONV_CASE_TO(F, FN, short, s)                \
  CULIFT_CONV_CASE_TO(F, FN, unsigned short, us)      \
  CULIFT_CONV_CASE_TO(F, FN, int, i)                  \
  CULIFT_CONV_CASE_TO(F, FN, unsigned, u)             \
  CULIFT_CONV_CASE_TO(F, FN, long long, ll)           \
  CULIFT_CONV_CASE_TO(F, FN, unsigned long long, ull) \
  CULIFT_CONV_CASE_TO(F, FN, float, f)                \
  CULIFT_CONV_CASE_TO(F, FN, double, d)

TEST_CASE("translated conversions equal native C++", "[interp][translated][ops]") {
  REQUIRE(ops().module);
  CULIFT_ALL_TYPES(CULIFT_CONV_CASE)
  CULIFT_CONV_CASE(bool, b)
}

TEST_CASE("translated mixed arithmetic, math calls and control constructs equal native", "[interp][translated]") {
  REQUIRE(ops().module);
  auto never = [](auto...) { return false; };
  for (float a : boundary<float>())
    for (double b : boundary<double>()) compare("mixed_fd", &mixed_fd, never, a, b);
  for (int a : boundary<int>())
    for (long long b : {-1ll, 0ll, 5ll, 1ll << 40}) compare("mixed_ill", &mixed_ill, never, a, b);
  for (int a : boundary<int>())
    for (unsigned b : boundary<unsigned>()) compare("mixed_iu", &mixed_iu, never, a, b);
  for (int a : boundary<int>())
    for (float b : boundary<float>()) compare("mixed_if", &mixed_if, never, a, b);
  for (short a : boundary<short>())
    for (int b : {-70000, -1, 0, 1, 40000}) compare("mixed_shorteq", &mixed_shorteq, never, a, b);
  for (int a : boundary<int>())
    for (double f : {0.5, -1.0, 1.5}) {
      auto ub = [](int x, double y) { return conversionUb<double, int>(static_cast<double>(x) * y); };
      compare("scaled", &scaled, ub, a, f);
    }
  for (float x : boundary<float>()) {
    compare("m_sqrtf", &m_sqrtf, never, x);
    compare("m_sqrtf_c", &m_sqrtf_c, never, x);
    compare("m_expf", &m_expf, never, x);
    for (float y : {0.0f, 0.5f, 2.0f}) compare("m_clampf", &m_clampf, never, x, y);  // lo <= hi, as std::clamp requires
    for (float y : {0.5f, -2.0f, std::numeric_limits<float>::quiet_NaN()}) {
      compare("m_powf", &m_powf, never, x, y);
      compare("m_fminf", &m_fminf, never, x, y);
      compare("m_minf", &m_minf, never, x, y);
    }
  }
  for (double x : boundary<double>()) {
    compare("m_sqrt", &m_sqrt, never, x);
    compare("m_log", &m_log, never, x);
    compare("m_pow", &m_pow, never, x, 1.5);
    compare("m_maxd", &m_maxd, never, x, -0.0);
  }
  for (int x : boundary<int>())
    for (int y : {-3, 0, 9}) {
      compare(
          "m_absi", &m_absi,
          [](int a, int b) {
            int r;
            return a == std::numeric_limits<int>::min() ||
                   __builtin_add_overflow(std::abs(a == std::numeric_limits<int>::min() ? 0 : a), std::min(a, b), &r);
          },
          x, y);
      compare("m_sinint", &m_sinint, never, x, y);
    }
  for (int v : {-3, 0, 1, 2, 3, 1000})
    for (int w : {0, 5}) compare("c_switch", &c_switch, never, v, w);
  for (int n : {0, 1, 10, 100})
    for (int m : {0, 5, 1000}) compare("c_loops", &c_loops, never, n, m);
  for (int a : {-2, 0, 1, 3})
    for (int b : {0, 7, -9}) compare("c_logic", &c_logic, never, a, b);
  for (int i : {-7, 0, 1, 4, 12}) compare("c_local_array", &c_local_array, never, i, 2.5);
  for (unsigned long long a : boundary<unsigned long long>()) compare("c_wrap", &c_wrap, never, a, 5u);
}

TEST_CASE("translated helper calls write through the caller's arrays", "[interp][translated]") {
  const Translated& t = ops();
  REQUIRE(t.module);
  std::vector<float> y = {1.0f, 2.5f, -4.0f, 8.0f};
  CrossCheckResult r = crossCheck(*t.program, *t.module->find("c_call"), &c_call, y, 4, 1.5f);
  INFO(r.summary());
  CHECK(r.equal);
}

TEST_CASE("translated tutorial functions equal native on sample args and in whole launches",
          "[interp][translated][pearson]") {
  const Translated& t = translated(CULIFT_SOURCE_DIR "/examples/pearson/pearson_metrics.hpp");
  INFO(t.diagnostics);
  REQUIRE(t.module);
  const Module& m = *t.module;
  for (std::uint64_t seed : {3ull, 42ull}) {
    auto check = [&](const char* name, auto native) {
      const Function* fn = m.find(name);
      REQUIRE(fn);
      SampleArgs args = sampleArgs(*fn, seed);
      CrossCheckResult r = crossCheck(*t.program, *fn, native, args);
      INFO(r.summary() << " on " << args.describe(*fn));
      CHECK(r.equal);
    };
    check("RowSum", &RowSum);
    check("RowSumSq", &RowSumSq);
    check("GramDot", &GramDot);
    check("CorrelationCell", &CorrelationCell);
    check("DistanceCell", &DistanceCell);
    check("PearsonClamp", &PearsonClamp);
  }
  CHECK(m.find("RowSum")->mode == IndexMode::Grid1D);
  CHECK(m.find("GramDot")->mode == IndexMode::Grid2D);
  CHECK(m.find("PearsonClamp")->mode == IndexMode::ElementWise);

  const int rows = 256, cols = 256;
  std::vector<float> x(rows * cols);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(std::sin(0.37 * static_cast<double>(k)) * 0.9);
  std::vector<float> sum(rows), dot(rows * rows), corr(rows * rows), sumSq(rows);
  const auto X = interp::ArrayRef::of(std::span<const float>(x));
  interp::Arg a1[] = {X, Value::of(cols), interp::ArrayRef::of(std::span<float>(sum))};
  t.program->launch(*m.find("RowSum"), interp::Extent{{rows, 1, 1}, 1}, a1);
  interp::Arg a2[] = {X, Value::of(cols), interp::ArrayRef::of(std::span<float>(sumSq))};
  t.program->launch(*m.find("RowSumSq"), interp::Extent{{rows, 1, 1}, 1}, a2);
  interp::Arg a3[] = {X, Value::of(cols), interp::ArrayRef::of(std::span<float>(dot))};
  t.program->launch(*m.find("GramDot"), interp::Extent{{rows, rows, 1}, 2}, a3);
  interp::Arg a4[] = {interp::ArrayRef::of(std::span<const float>(dot)),
                      interp::ArrayRef::of(std::span<const float>(sum)),
                      interp::ArrayRef::of(std::span<const float>(sumSq)),
                      Value::of(rows),
                      Value::of(cols),
                      interp::ArrayRef::of(std::span<float>(corr))};
  t.program->launch(*m.find("CorrelationCell"), interp::Extent{{rows, rows, 1}, 2}, a4);
  std::size_t differing = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < rows; ++j) {
      differing += dot[i * rows + j] != GramDot(x.data(), cols, i, j);
      differing += corr[i * rows + j] != CorrelationCell(dot.data(), sum.data(), sumSq.data(), rows, cols, i, j);
    }
  CHECK(differing == 0);
}

// A host app may compile and run translated kernels from a pool thread with 512 KB of stack:
// the deepest input the front end accepts must compile, run (a call and a whole launch) and be
// dropped there without overflowing it.
TEST_CASE("deep input inside the limits is interpreted on a thread with a 512 KB stack",
          "[interp][translated][stack]") {
  for (const test::DeepInput& input : test::acceptedDeepInputs()) {
    DYNAMIC_SECTION(input.name) {
      std::string diagnostics;
      bool translatedOk = false;
      Value called;
      std::vector<int> launched(4, -1);
      test::onSmallStack([&] {
        TranslateResult r = translateSource(input.source, input.name);
        diagnostics = r.formatDiagnostics();
        translatedOk = r.ok();
        if (!translatedOk) return;
        std::shared_ptr<const interp::Program> program = interp::Program::compile(r.module);
        const Function& f = *r.module->find("f");
        interp::Arg args[] = {Value::of(3)};
        called = program->call(f, args);
        const std::vector<int> a = {3, 3, 3, 3};
        interp::Arg kernelArgs[] = {interp::ArrayRef::of(std::span<const int>(a)),
                                    interp::ArrayRef::of(std::span<int>(launched))};
        program->launch(f, interp::Extent{{4, 1, 1}, 1}, kernelArgs);
      });
      INFO(diagnostics);
      REQUIRE(translatedOk);
      CHECK(called.type == Scalar::I32);
      CHECK(called.as<int>() == input.result);
      CHECK(launched == std::vector<int>(4, input.result));
    }
  }
}

namespace {

const Translated& constants() {
  return translated(CULIFT_SOURCE_DIR "/tests/interpreter/data/constants_functions.hpp");
}

// The translated constant function `name` returns exactly the bits of the native one.
template <typename R> void compareConstant(const std::string& name, R (*native)()) {
  const Translated& t = constants();
  INFO(name << "\n" << t.diagnostics);
  REQUIRE(t.program);
  const Function* fn = t.module->find(name);
  REQUIRE(fn);
  Value got;
  REQUIRE_NOTHROW(got = t.program->call(*fn, {}));
  const R expect = native();
  INFO("interpreter " << got.toString() << ", native " << Value::of(expect).toString());
  CHECK(got.type == Value::of(expect).type);
  CHECK(sameBits(got.as<R>(), expect));
}

}  // namespace

TEST_CASE("INFINITY, NAN, HUGE_VAL(F) and every numeric_limits member of every type are exact constants",
          "[interp][translated][constants]") {
  std::size_t compared = 0;
#define CULIFT_COMPARE_LIMIT(T, N, M)                \
  compareConstant("lim_" #N "_" #M, &lim_##N##_##M); \
  ++compared;
#define CULIFT_COMPARE_ALL(T, N) \
  CULIFT_LIMIT_FUNCTIONS(CULIFT_COMPARE_LIMIT, T, N) CULIFT_LIMIT_VALUES(CULIFT_COMPARE_LIMIT, T, N)
  CULIFT_LIMIT_TYPES(CULIFT_COMPARE_ALL)
#undef CULIFT_COMPARE_ALL
#undef CULIFT_COMPARE_LIMIT
  CHECK(compared == 14 * 27);
  compareConstant("c_infinity", &c_infinity);
  compareConstant("c_minus_infinity", &c_minus_infinity);
  compareConstant("c_nan", &c_nan);
  compareConstant("c_nan_as_double", &c_nan_as_double);
  compareConstant("c_nan_payload", &c_nan_payload);
  compareConstant("c_huge_valf", &c_huge_valf);
  compareConstant("c_huge_val", &c_huge_val);

  // Constants inside computations, against native code on boundary values.
  const Translated& t = constants();
  REQUIRE(t.program);
  for (float a : boundary<float>())
    for (float b : {-std::numeric_limits<float>::infinity(), -1.0f, 2.5f}) {
      Value got = t.program->call(*t.module->find("c_max_of"), std::vector<interp::Arg>{Value::of(a), Value::of(b)});
      INFO("c_max_of(" << a << ", " << b << ")");
      CHECK(sameBits(got.as<float>(), c_max_of(opaque(a), opaque(b))));
    }
  for (double x : boundary<double>()) {
    Value got = t.program->call(*t.module->find("c_limits_mix"), std::vector<interp::Arg>{Value::of(x)});
    INFO("c_limits_mix(" << x << ")");
    CHECK(sameBits(got.as<double>(), c_limits_mix(opaque(x))));
  }
}

TEST_CASE("a failed assert is an interpreter error naming the condition and its location",
          "[interp][translated][assert]") {
  const Translated& t = constants();
  REQUIRE(t.program);
  const Function* fn = t.module->find("c_checked_sqrt");
  REQUIRE(fn);
  Value ok = t.program->call(*fn, std::vector<interp::Arg>{Value::of(6.25f)});
  CHECK(ok.as<float>() == 2.5f);
  try {
    t.program->call(*fn, std::vector<interp::Arg>{Value::of(-1.0f)});
    FAIL("the assert did not fail");
  } catch (const interp::Error& e) {
    const Diagnostic& d = e.diagnostic();
    INFO(e.what());
    CHECK(d.message == "assertion 'x >= 0.0f && \"the input must not be negative\"' failed");
    CHECK(d.loc.file.find("constants_functions.hpp") != std::string::npos);
    CHECK(d.loc.line == 58);
    CHECK(d.loc.column == 3);
    CHECK(d.sourceLine.find("assert(x >= 0.0f") != std::string::npos);
  }
  // In a whole launch the failing element is named too.
  std::vector<float> x = {4.0f, 1.0f, -2.0f, 9.0f}, out(4);
  interp::Arg args[] = {interp::ArrayRef::of(std::span<const float>(x)), interp::ArrayRef::of(std::span<float>(out))};
  try {
    t.program->launch(*fn, interp::Extent{{4, 1, 1}, 1}, args);
    FAIL("the assert did not fail in the launch");
  } catch (const interp::Error& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find("assertion 'x >= 0.0f") != std::string::npos);
    CHECK(std::string(e.what()).find("launch element 2") != std::string::npos);
  }
}

TEST_CASE("uniform parameters of an element-wise kernel are passed once; the others per element",
          "[interp][translated][uniform]") {
  const Translated& t = constants();
  INFO(t.diagnostics);
  REQUIRE(t.program);
  const Function* relu = t.module->find("u_leaky_relu");
  const Function* axpby = t.module->find("u_axpby");
  REQUIRE(relu);
  REQUIRE(axpby);
  REQUIRE(relu->mode == IndexMode::ElementWise);
  REQUIRE(axpby->mode == IndexMode::ElementWise);
  CHECK(relu->signature.toString() == "(const float* x, float negativeSlope, float* culift_out, long long culift_n)");
  CHECK(axpby->signature.toString() ==
        "(float a, const float* x, float b, const float* y, float* culift_out, long long culift_n)");
  CHECK(roleName(*axpby, axpby->signature.params[0]) == "uniform");
  CHECK(roleName(*axpby, axpby->signature.params[1]) == "element input");

  const int n = 1000;
  std::vector<float> x(n), y(n), out(n);
  for (int k = 0; k < n; ++k) {
    x[k] = static_cast<float>(std::sin(0.1 * k) * 3.0);
    y[k] = static_cast<float>(std::cos(0.3 * k));
  }
  interp::Arg reluArgs[] = {interp::ArrayRef::of(std::span<const float>(x)), Value::of(0.125f),
                            interp::ArrayRef::of(std::span<float>(out))};
  t.program->launch(*relu, interp::Extent{{n, 1, 1}, 1}, reluArgs);
  std::size_t differing = 0;
  for (int k = 0; k < n; ++k) differing += !sameBits(out[k], u_leaky_relu(x[k], opaque(0.125f)));
  CHECK(differing == 0);

  interp::Arg axpbyArgs[] = {Value::of(2.0f), interp::ArrayRef::of(std::span<const float>(x)), Value::of(-0.5f),
                             interp::ArrayRef::of(std::span<const float>(y)),
                             interp::ArrayRef::of(std::span<float>(out))};
  t.program->launch(*axpby, interp::Extent{{n, 1, 1}, 1}, axpbyArgs);
  differing = 0;
  for (int k = 0; k < n; ++k) differing += !sameBits(out[k], u_axpby(opaque(2.0f), x[k], opaque(-0.5f), y[k]));
  CHECK(differing == 0);

  // An array for a uniform parameter is a wrong argument, named as such.
  interp::Arg wrong[] = {interp::ArrayRef::of(std::span<const float>(x)),
                         interp::ArrayRef::of(std::span<const float>(y)), interp::ArrayRef::of(std::span<float>(out))};
  CHECK_THROWS_AS(t.program->launch(*relu, interp::Extent{{n, 1, 1}, 1}, wrong), interp::Error);
}
