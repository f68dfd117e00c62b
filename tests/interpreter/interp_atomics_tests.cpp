// Atomics and races: the functions of data/atomics.hpp compiled natively here and translated by
// culift from the same file. std::atomic_ref updates run atomically on the caller's array in
// launches spread over many threads (exact, deterministic integer results); checked launches
// (Options::checkConflicts) turn two outputs touching one element, one writing, into an Error.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/crosscheck.hpp"
#include "data/atomics.hpp"
#include "translated_header.hpp"

using namespace culift;

namespace {

const test::TranslatedHeader& translatedAtomics() {
  static const test::TranslatedHeader t = test::translateDataHeader("atomics.hpp");
  return t;
}

std::shared_ptr<const interp::Program> programWith(interp::Options o) {
  return interp::Program::compile(translatedAtomics().module, o);
}

const Function& fn(const char* name) {
  const Function* f = translatedAtomics().module->find(name);
  REQUIRE(f);
  return *f;
}

interp::Extent extent1(std::int64_t n) {
  interp::Extent e;
  e.n[0] = n;
  e.rank = 1;
  return e;
}

template <typename T> interp::Arg array(std::vector<T>& v) { return interp::ArrayRef::of(std::span<T>(v)); }

std::string launchError(const interp::Program& p, const Function& f, std::int64_t n, std::vector<interp::Arg> args) {
  try {
    p.launch(f, extent1(n), args);
  } catch (const interp::Error& e) {
    return e.diagnostic().format();
  }
  return {};
}

}  // namespace

TEST_CASE("the atomics header translates; atomic updates are AtomicRmw nodes", "[interp][translated][atomics]") {
  const test::TranslatedHeader& t = translatedAtomics();
  INFO(t.diagnostics);
  REQUIRE(t.module);
  bool sawAtomic = false;
  visitExprs(*fn("Histogram").body, [&](const Expr& e) {
    if (e.kind == ExprKind::AtomicRmw) {
      sawAtomic = true;
      CHECK(e.atomicOp == AtomicOp::Add);
      CHECK(e.type == Type::value(Scalar::I32));
      CHECK(e.operands[0]->kind == ExprKind::Subscript);
    }
    return true;
  });
  CHECK(sawAtomic);
  // Atomics are no race; the kernels that race are warned about.
  std::size_t warnings = 0;
  for (std::size_t at = t.diagnostics.find("warning: "); at != std::string::npos;
       at = t.diagnostics.find("warning: ", at + 1))
    ++warnings;
  CHECK(warnings == 3);  // RacyHistogram's update, SmoothInPlace's two reads
  CHECK(t.diagnostics.find("warning: possible data race: 'counts[bin[i]]'") != std::string::npos);
  CHECK(t.diagnostics.find("warning: possible data race: 'x[i - 1]'") != std::string::npos);
  CHECK(t.diagnostics.find("'y[i]'") == std::string::npos);
}

TEST_CASE("a histogram with atomics gives exact counts over many threads, every time",
          "[interp][translated][atomics]") {
  interp::Options o;
  o.threads = 8;
  auto program = programWith(o);
  const std::int64_t n = 100000;
  std::vector<int> bin(n);
  for (std::int64_t k = 0; k < n; ++k) bin[k] = static_cast<int>(k % 4);
  for (int run = 0; run < 3; ++run) {
    std::vector<int> counts(4, 0);
    program->launch(fn("Histogram"), extent1(n), std::vector<interp::Arg>{array(bin), array(counts)});
    CHECK(counts == std::vector<int>{25000, 25000, 25000, 25000});
  }
}

TEST_CASE("fetch_add's result is the element's old value: every output a ticket of its own",
          "[interp][translated][atomics]") {
  interp::Options o;
  o.threads = 8;
  auto program = programWith(o);
  const std::int64_t n = 20000;
  std::vector<int> next(1, 0), ticket(n, -1);
  program->launch(fn("Ticket"), extent1(n), std::vector<interp::Arg>{array(next), array(ticket)});
  CHECK(next[0] == n);
  std::sort(ticket.begin(), ticket.end());
  std::vector<int> expected(n);
  std::iota(expected.begin(), expected.end(), 0);
  CHECK(ticket == expected);
}

TEST_CASE("every atomic operation and type equals native C++ call by call; launches give exact sums",
          "[interp][translated][atomics]") {
  const test::TranslatedHeader& t = translatedAtomics();
  // Single calls: the same old values and the same arrays as std::atomic_ref natively.
  for (int i : {0, 1, 7, 2147483647}) {
    std::vector<int> n{-2147483647 - 1};
    std::vector<unsigned> u{4294967295u, 7u};
    std::vector<long long> w{-9000000000000000000LL, 9223372036854775807LL};
    std::vector<unsigned long long> z{0};
    std::vector<double> d{0.1};
    std::vector<float> f{1e-8f};
    CrossCheckResult r = crossCheck(*t.program, fn("Mixed"), &atomics::Mixed, n, u, w, z, d, f, i);
    INFO(r.summary());
    CHECK(r.equal);
  }
  // A launch: integer results exact whatever the order; these floating sums are exact too.
  interp::Options o;
  o.threads = 8;
  auto program = programWith(o);
  const int count = 5000;
  std::vector<int> n{0};
  std::vector<unsigned> u{0, 0};
  std::vector<long long> w{0, 0};
  std::vector<unsigned long long> z{0};
  std::vector<double> d{0};
  std::vector<float> f{0};
  std::vector<long long> out(count);
  program->launch(fn("Mixed"), extent1(count),
                  std::vector<interp::Arg>{array(n), array(u), array(w), array(z), array(d), array(f), array(out)});
  const long long sum = static_cast<long long>(count) * (count - 1) / 2;
  CHECK(n[0] == -static_cast<int>(sum));
  CHECK(u == std::vector<unsigned>{3u * count / 2, 3u * count / 2});
  CHECK(w[0] == -5000000000LL * count + sum);
  CHECK(w[1] == -sum);
  CHECK(z[0] == 0ull - count);  // wraps around
  CHECK(d[0] == 0.5 * static_cast<double>(sum));
  CHECK(f[0] == -0.25f * count);
}

TEST_CASE("a float sum by atomics is within the bound of any order", "[interp][translated][atomics]") {
  interp::Options o;
  o.threads = 8;
  auto program = programWith(o);
  const std::int64_t n = 50000;
  std::vector<float> x(n);
  double exact = 0, magnitude = 0;
  for (std::int64_t k = 0; k < n; ++k) {
    x[k] = 1.0f / static_cast<float>(1 + k % 97);
    exact += x[k];
    magnitude += std::abs(x[k]);
  }
  std::vector<float> total{0};
  program->launch(fn("Total"), extent1(n), std::vector<interp::Arg>{array(x), array(total)});
  // Any order of n - 1 float additions: |error| <= (n - 1) * eps/2 * sum |x| (to first order).
  CHECK(std::abs(total[0] - exact) <= (n - 1) * 0.5 * 1.1920929e-7 * magnitude);
}

TEST_CASE("checked launches report a second writer and a read of another output's element",
          "[interp][translated][atomics]") {
  interp::Options o;
  o.threads = 1;  // the first conflict in launch order
  o.checkConflicts = true;
  auto checked = programWith(o);
  std::vector<int> bin(64), counts(4, 0);
  for (int k = 0; k < 64; ++k) bin[k] = k % 4;
  const std::string racy = launchError(*checked, fn("RacyHistogram"), 64, {array(bin), array(counts)});
  CHECK_THAT(racy, Catch::Contains("atomics.hpp:14:"));
  CHECK_THAT(racy,
             Catch::Contains("error: output 4 writes element 0 of 'counts', which output 0 writes too: the outputs of "
                             "a launch run in no fixed order (a data race) (launch element 4)"));
  CHECK_THAT(racy, Catch::Contains("note: accumulate with std::atomic_ref<T>(a[k]).fetch_add(v)"));

  std::vector<float> x(16, 1.0f);
  const std::string stencil = launchError(*checked, fn("SmoothInPlace"), 16, {array(x), interp::Value::of(16)});
  CHECK_THAT(stencil, Catch::Contains("atomics.hpp:36:42: error: "));
  CHECK_THAT(stencil, Catch::Contains("output 2 reads element 1 of 'x', which output 1 writes"));
  CHECK_THAT(stencil, Catch::Contains("note: write the results to a separate output array"));

  // Over many threads the conflict is found too, whichever output comes second.
  interp::Options many = o;
  many.threads = 8;
  std::vector<int> bigBin(100000), bigCounts(4, 0);
  for (int k = 0; k < 100000; ++k) bigBin[k] = k % 4;
  CHECK_THAT(launchError(*programWith(many), fn("RacyHistogram"), 100000, {array(bigBin), array(bigCounts)}),
             Catch::Contains("of 'counts', which output"));

  // What does not race passes a checked launch, atomics included.
  std::vector<int> good(4, 0);
  CHECK(launchError(*checked, fn("Histogram"), 64, {array(bin), array(good)}).empty());
  CHECK(good == std::vector<int>{16, 16, 16, 16});
  std::vector<float> in(16, 2.0f), y(16, 0.0f);
  CHECK(launchError(*checked, fn("Smooth"), 16, {array(in), array(y), interp::Value::of(16)}).empty());
  CHECK(y[5] == 2.0f);
  // Unchecked, the same racy launch runs (and loses updates nondeterministically on many threads).
  std::vector<int> unchecked(4, 0);
  CHECK(launchError(*programWith({}), fn("RacyHistogram"), 64, {array(bin), array(unchecked)}).empty());
}
