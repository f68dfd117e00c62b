// The six tutorial functions: interpreter vs native on sample arguments, and whole CPU launches
// on a 256 × 256 matrix against native per-element calls (bit for bit) and double-precision
// references (the tutorial's own checks).
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "catch.hpp"
#include "culift/crosscheck.hpp"
#include "culift/interpreter.hpp"
#include "culift/sample_args.hpp"
#include "pearson_ast.hpp"

using namespace culift;
using namespace culift::testing;
using interp::ArrayRef;
using interp::Value;

TEST_CASE("tutorial functions: interpreter equals native on sample arguments", "[interp][pearson]") {
  auto m = pearsonModule();
  auto p = interp::Program::compile(m);
  for (std::uint64_t seed : {1ull, 42ull, 12345ull}) {
    auto check = [&](const char* name, auto native) {
      const Function& fn = *m->find(name);
      SampleArgs args = sampleArgs(fn, seed);
      CrossCheckResult r = crossCheck(*p, fn, native, args);
      INFO(r.summary() << " on " << args.describe(fn));
      CHECK(r.equal);
      CHECK(r.error.empty());
    };
    check("RowSum", &native::RowSum);
    check("RowSumSq", &native::RowSumSq);
    check("GramDot", &native::GramDot);
    check("CorrelationCell", &native::CorrelationCell);
    check("DistanceCell", &native::DistanceCell);
    check("PearsonClamp", &native::PearsonClamp);
  }
}

namespace {
std::vector<float> makeMatrix(int rows, int cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<float> x(static_cast<std::size_t>(rows) * cols);
  for (float& v : x) v = static_cast<float>(d(rng));
  return x;
}
}  // namespace

TEST_CASE("tutorial pipeline as whole launches on a 256 x 256 matrix", "[interp][pearson][launch]") {
  const int rows = 256, cols = 256;
  const std::vector<float> x = makeMatrix(rows, cols, 42);
  auto m = pearsonModule();
  auto p = interp::Program::compile(m);
  using Ext = interp::Extent;

  std::vector<float> sum(rows), sumSq(rows), dot(rows * rows), corr(rows * rows), dist(rows * rows);
  const auto X = ArrayRef::of(std::span<const float>(x));
  {
    interp::Arg a[] = {X, Value::of(cols), ArrayRef::of(std::span<float>(sum))};
    p->launch(*m->find("RowSum"), Ext{{rows, 1, 1}, 1}, a);
    interp::Arg b[] = {X, Value::of(cols), ArrayRef::of(std::span<float>(sumSq))};
    p->launch(*m->find("RowSumSq"), Ext{{rows, 1, 1}, 1}, b);
    interp::Arg c[] = {X, Value::of(cols), ArrayRef::of(std::span<float>(dot))};
    p->launch(*m->find("GramDot"), Ext{{rows, rows, 1}, 2}, c);
  }
  const auto D = ArrayRef::of(std::span<const float>(dot));
  const auto S = ArrayRef::of(std::span<const float>(sum));
  const auto SQ = ArrayRef::of(std::span<const float>(sumSq));
  {
    interp::Arg a[] = {D, S, SQ, Value::of(rows), Value::of(cols), ArrayRef::of(std::span<float>(corr))};
    p->launch(*m->find("CorrelationCell"), Ext{{rows, rows, 1}, 2}, a);
    interp::Arg b[] = {D, SQ, Value::of(rows), ArrayRef::of(std::span<float>(dist))};
    p->launch(*m->find("DistanceCell"), Ext{{rows, rows, 1}, 2}, b);
  }

  // Bit for bit against the natively compiled functions, element by element.
  std::size_t differing = 0;
  for (int i = 0; i < rows; ++i) {
    differing += sum[i] != native::RowSum(x.data(), cols, i);
    differing += sumSq[i] != native::RowSumSq(x.data(), cols, i);
    for (int j = 0; j < rows; ++j) {
      differing += dot[i * rows + j] != native::GramDot(x.data(), cols, i, j);
      differing += corr[i * rows + j] !=
                   native::CorrelationCell(dot.data(), sum.data(), sumSq.data(), rows, cols, i, j);
      differing += dist[i * rows + j] != native::DistanceCell(dot.data(), sumSq.data(), rows, i, j);
    }
  }
  CHECK(differing == 0);

  // Against double-precision references (two-pass), as the tutorial checks its GPU results.
  std::vector<double> mean(rows), sd(rows), sq(rows);
  for (int i = 0; i < rows; ++i) {
    double s = 0, q = 0;
    for (int k = 0; k < cols; ++k) {
      double v = x[i * cols + k];
      s += v;
      q += v * v;
    }
    mean[i] = s / cols;
    sq[i] = q;
    sd[i] = std::sqrt(std::max(q - cols * mean[i] * mean[i], 0.0));
  }
  double maxCorrErr = 0, maxDistErr = 0;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < rows; ++j) {
      double d = 0;
      for (int k = 0; k < cols; ++k) d += static_cast<double>(x[i * cols + k]) * x[j * cols + k];
      double cov = d - cols * mean[i] * mean[j];
      double den = sd[i] * sd[j];
      double c = i == j ? 1.0 : std::min(1.0, std::max(-1.0, den > 0 ? cov / den : 0.0));
      double e = i == j ? 0.0 : std::sqrt(std::max(sq[i] + sq[j] - 2.0 * d, 0.0));
      maxCorrErr = std::max(maxCorrErr, std::fabs(corr[i * rows + j] - c));
      maxDistErr = std::max(maxDistErr, std::fabs(dist[i * rows + j] - e));
    }
  INFO("max |error|: correlation " << maxCorrErr << ", distance " << maxDistErr);
  CHECK(maxCorrErr < 1e-5);
  CHECK(maxDistErr < 1e-4);

  // Element-wise PearsonClamp over the covariance/denominator pairs.
  std::vector<float> cov(rows * rows), den(rows * rows), clamped(rows * rows);
  for (std::size_t e = 0; e < cov.size(); ++e) {
    cov[e] = dot[e] - 0.5f;
    den[e] = (e % 5 == 0) ? 0.0f : std::fabs(dot[e]) + 0.25f;
  }
  interp::Arg c[] = {ArrayRef::of(std::span<const float>(cov)), ArrayRef::of(std::span<const float>(den)),
                     ArrayRef::of(std::span<float>(clamped))};
  p->launch(*m->find("PearsonClamp"), Ext{{rows * rows, 1, 1}, 1}, c);
  std::size_t clampDiffering = 0;
  for (std::size_t e = 0; e < cov.size(); ++e) clampDiffering += clamped[e] != native::PearsonClamp(cov[e], den[e]);
  CHECK(clampDiffering == 0);
}
