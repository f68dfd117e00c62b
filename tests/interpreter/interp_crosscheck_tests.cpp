// The cross-check API reports equality, and differences with their distances; sample
// arguments are valid for the signature.
#include <cmath>
#include <limits>
#include <vector>

#include "ast_builder.hpp"
#include "catch.hpp"
#include "culift/crosscheck.hpp"
#include "pearson_ast.hpp"

using namespace culift;
using namespace culift::testing;

namespace {
// The interpreter runs RowSum; this "native" version is deliberately different (adds 1 ulp
// worth of error in the last element) so the check must report it.
float rowSumOff(const float* x, int cols, int i) { return std::nextafter(native::RowSum(x, cols, i), 1e30f); }
void scaleNative(float* y, int n) {
  for (int k = 0; k < n; ++k) y[k] *= 2.0f;
}
}  // namespace

TEST_CASE("ULP distance", "[interp][crosscheck]") {
  CHECK(ulpDistance(1.0f, 1.0f) == 0);
  CHECK(ulpDistance(1.0f, std::nextafter(1.0f, 2.0f)) == 1);
  CHECK(ulpDistance(0.0f, -0.0f) == 0);
  CHECK(ulpDistance(-std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::denorm_min()) == 2);
  CHECK(ulpDistance(1.0, std::nextafter(std::nextafter(1.0, 0.0), 0.0)) == 2);
  CHECK(ulpDistance(std::nan(""), 1.0) == std::numeric_limits<std::uint64_t>::max());
}

TEST_CASE("crossCheck: equal, different, and interpreter errors", "[interp][crosscheck]") {
  auto m = pearsonModule();
  auto p = interp::Program::compile(m);
  const Function& rowSum = *m->find("RowSum");
  std::vector<float> x(64);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = 0.1f * static_cast<float>(k) - 2.0f;

  CrossCheckResult same = crossCheck(*p, rowSum, &native::RowSum, x, 8, 3);
  CHECK(same.equal);
  CHECK(same.summary().find("RowSum: equal (result ") == 0);

  CrossCheckResult off = crossCheck(*p, rowSum, &rowSumOff, x, 8, 3);
  CHECK_FALSE(off.equal);
  REQUIRE(off.mismatches.size() == 1);
  CHECK(off.mismatches[0].ulps == 1);
  CHECK(off.maxUlps == 1);
  CHECK(off.maxAbsDiff > 0);
  CHECK(off.summary().find("RowSum: 1 difference") == 0);
  CHECK(off.summary().find("result: interpreter ") != std::string::npos);

  CrossCheckResult bad = crossCheck(*p, rowSum, &native::RowSum, x, 8, 9);  // reads x[72..79]: past the end
  CHECK_FALSE(bad.equal);
  CHECK(bad.error.find("out of bounds for array 'x'") != std::string::npos);
}

TEST_CASE("crossCheck compares the arrays a void function writes", "[interp][crosscheck]") {
  // void scale(float* y, int n) { for (int k = 0; k < n; ++k) y[k] *= 2.0f; }
  FnBuilder b("scale", Type::value(Scalar::Void));
  VarId y = b.param("y", Type::pointer(Scalar::F32, false)), n = b.param("n", Type::value(Scalar::I32));
  VarId k = b.local("k", Type::value(Scalar::I32));
  auto body = b.forLoop(b.decl(k, b.lit(0)), b.bin(BinaryOp::Lt, b.var(k), b.var(n)),
                        b.incDec(IncDecOp::PreInc, b.var(k)),
                        b.expr(b.compound(BinaryOp::Mul, b.sub(y, b.var(k)), b.lit(2.0f))));
  auto m = moduleOf({});
  m->functions.push_back(b.finish(std::move(body)));
  auto p = interp::Program::compile(m);
  std::vector<float> data = {1.0f, -2.5f, 3e38f};
  CrossCheckResult r = crossCheck(*p, m->functions[0], &scaleNative, data, 3);
  CHECK(r.equal);
  CHECK(data == std::vector<float>{1.0f, -2.5f, 3e38f});  // the caller's array is untouched
  auto doubleOnce = [](float* yy, int nn) {
    for (int q = 0; q + 1 < nn; ++q) yy[q] *= 2.0f;
  };
  CrossCheckResult d = crossCheck(*p, m->functions[0], +doubleOnce, data, 3);
  CHECK_FALSE(d.equal);
  REQUIRE(d.mismatches.size() == 1);
  CHECK(d.mismatches[0].where == "y[2]");
  CHECK(d.mismatches[0].interpreted == "inf");
}

TEST_CASE("sampleArgs: valid arguments for every tutorial signature", "[interp][crosscheck]") {
  auto m = pearsonModule();
  auto p = interp::Program::compile(m);
  for (const Function& fn : m->functions) {
    SampleArgs a = sampleArgs(fn, 7);
    REQUIRE(a.args.size() == fn.numParams);
    INFO(fn.name << a.describe(fn));
    CHECK_NOTHROW(p->call(fn, a.args));
    for (unsigned q = 0; q < fn.numParams; ++q) {
      if (fn.param(q).type.isPointer()) {
        const auto& r = std::get<interp::ArrayRef>(a.args[q]);
        CHECK(r.size == kSampleArrayLength);
        // Not degenerate: not all elements equal.
        const float* v = static_cast<const float*>(r.data);
        CHECK(std::any_of(v, v + r.size, [&](float e) { return e != v[0]; }));
      }
    }
  }
  const Function& corr = *m->find("CorrelationCell");
  SampleArgs a = sampleArgs(corr, 7);
  CHECK(std::get<interp::Value>(a.args[3]).i == 16);  // rows
  CHECK(std::get<interp::Value>(a.args[4]).i == 8);   // cols
  CHECK(std::get<interp::Value>(a.args[5]).i == 2);   // i
  CHECK(std::get<interp::Value>(a.args[6]).i == 5);   // j
  // Same seed, same values; another seed, other values.
  SampleArgs b = sampleArgs(corr, 7), c = sampleArgs(corr, 8);
  CHECK(std::get<interp::ArrayRef>(b.args[0]).size == std::get<interp::ArrayRef>(a.args[0]).size);
  CHECK(static_cast<const float*>(std::get<interp::ArrayRef>(b.args[0]).data)[3] ==
        static_cast<const float*>(std::get<interp::ArrayRef>(a.args[0]).data)[3]);
  CHECK(static_cast<const float*>(std::get<interp::ArrayRef>(c.args[0]).data)[3] !=
        static_cast<const float*>(std::get<interp::ArrayRef>(a.args[0]).data)[3]);
}
