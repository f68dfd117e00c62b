// Control flow and the other constructs: short-circuit logic, switch fall-through, loops with
// break/continue, local arrays, calls of lifted helpers with array views, launches of every rank.
#include <numeric>
#include <vector>

#include "ast_builder.hpp"
#include "catch.hpp"
#include "culift/interpreter.hpp"

using namespace culift;
using namespace culift::testing;
using interp::ArrayRef;
using interp::Value;

namespace {
std::shared_ptr<const interp::Program> compile(std::shared_ptr<Module> m, unsigned threads = 0) {
  interp::Options o;
  o.threads = threads;
  return interp::Program::compile(std::move(m), o);
}
}  // namespace

TEST_CASE("&& and || short-circuit: the right side is not evaluated", "[interp][control]") {
  // bool f(const int* x, int n) { return n > 0 && x[n - 1] == 7; }   (x is empty when n == 0)
  FnBuilder b("f", Type::value(Scalar::Bool));
  VarId x = b.param("x", Type::pointer(Scalar::I32, true)), n = b.param("n", Type::value(Scalar::I32));
  auto e = b.bin(BinaryOp::LogAnd, b.bin(BinaryOp::Gt, b.var(n), b.lit(0)),
                 b.bin(BinaryOp::Eq, b.sub(x, b.bin(BinaryOp::Sub, b.var(n), b.lit(1))), b.lit(7)));
  auto m = moduleOf({});
  m->functions.push_back(b.finish(b.ret(std::move(e))));
  // bool g(const int* x, int n) { return n == 0 || x[0] == 7; }
  FnBuilder c("g", Type::value(Scalar::Bool));
  VarId cx = c.param("x", Type::pointer(Scalar::I32, true)), cn = c.param("n", Type::value(Scalar::I32));
  auto ge = c.bin(BinaryOp::LogOr, c.bin(BinaryOp::Eq, c.var(cn), c.lit(0)),
                  c.bin(BinaryOp::Eq, c.sub(cx, c.lit(0)), c.lit(7)));
  m->functions.push_back(c.finish(c.ret(std::move(ge))));
  auto p = compile(m);
  std::vector<int> none;
  std::vector<int> seven = {7};
  interp::Arg empty[] = {ArrayRef::of(std::span<const int>(none)), Value::of(0)};
  CHECK_FALSE(p->call(m->functions[0], empty).b);
  CHECK(p->call(m->functions[1], empty).b);
  interp::Arg one[] = {ArrayRef::of(std::span<const int>(seven)), Value::of(1)};
  CHECK(p->call(m->functions[0], one).b);
  CHECK(p->call(m->functions[1], one).b);
}

TEST_CASE("switch falls through, break leaves it, default anywhere", "[interp][control]") {
  // int f(int v) { int r = 0; switch (v) { case 1: r += 1; case 2: r += 10; break; default: r = -1; case -3: r += 100;
  // } return r; }
  FnBuilder b("f", Type::value(Scalar::I32));
  VarId v = b.param("v", Type::value(Scalar::I32));
  VarId r = b.local("r", Type::value(Scalar::I32));
  std::vector<StmtPtr> sw;
  sw.push_back(b.caseLabel(1));
  sw.push_back(b.expr(b.compound(BinaryOp::Add, b.var(r), b.lit(1))));
  sw.push_back(b.caseLabel(2));
  sw.push_back(b.expr(b.compound(BinaryOp::Add, b.var(r), b.lit(10))));
  sw.push_back(b.brk());
  sw.push_back(b.defaultLabel());
  sw.push_back(b.expr(b.assign(b.var(r), b.lit(-1))));
  sw.push_back(b.caseLabel(static_cast<std::uint64_t>(std::int64_t{-3})));
  sw.push_back(b.expr(b.compound(BinaryOp::Add, b.var(r), b.lit(100))));
  std::vector<StmtPtr> body;
  body.push_back(b.decl(r, b.lit(0)));
  body.push_back(b.switchOn(b.var(v), b.block(std::move(sw))));
  body.push_back(b.ret(b.var(r)));
  auto m = moduleOf({});
  m->functions.push_back(b.finish(b.block(std::move(body))));
  auto p = compile(m);
  auto run = [&](int x) {
    interp::Arg a[] = {Value::of(x)};
    return p->call(m->functions[0], a).i;
  };
  CHECK(run(1) == 11);
  CHECK(run(2) == 10);
  CHECK(run(-3) == 100);
  CHECK(run(5) == 99);
}

TEST_CASE("loops: continue runs the increment, break leaves, do-while runs once", "[interp][control]") {
  // int f(int n) { int s = 0; for (int k = 0; k < n; ++k) { if (k % 2 == 0) continue; if (k > 7) break; s += k; }
  //                int d = 0; do { ++d; } while (d < 0); return s * 10 + d; }
  FnBuilder b("f", Type::value(Scalar::I32));
  VarId n = b.param("n", Type::value(Scalar::I32));
  VarId s = b.local("s", Type::value(Scalar::I32)), k = b.local("k", Type::value(Scalar::I32)),
        d = b.local("d", Type::value(Scalar::I32));
  std::vector<StmtPtr> loopBody;
  loopBody.push_back(b.ifThen(b.bin(BinaryOp::Eq, b.bin(BinaryOp::Rem, b.var(k), b.lit(2)), b.lit(0)), b.cont()));
  loopBody.push_back(b.ifThen(b.bin(BinaryOp::Gt, b.var(k), b.lit(7)), b.brk()));
  loopBody.push_back(b.expr(b.compound(BinaryOp::Add, b.var(s), b.var(k))));
  std::vector<StmtPtr> body;
  body.push_back(b.decl(s, b.lit(0)));
  body.push_back(b.forLoop(b.decl(k, b.lit(0)), b.bin(BinaryOp::Lt, b.var(k), b.var(n)),
                           b.incDec(IncDecOp::PreInc, b.var(k)), b.block(std::move(loopBody))));
  body.push_back(b.decl(d, b.lit(0)));
  body.push_back(
      b.whileLoop(b.bin(BinaryOp::Lt, b.var(d), b.lit(0)), b.expr(b.incDec(IncDecOp::PreInc, b.var(d))), true));
  body.push_back(b.ret(b.bin(BinaryOp::Add, b.bin(BinaryOp::Mul, b.var(s), b.lit(10)), b.var(d))));
  auto m = moduleOf({});
  m->functions.push_back(b.finish(b.block(std::move(body))));
  auto p = compile(m);
  interp::Arg a[] = {Value::of(100)};
  CHECK(p->call(m->functions[0], a).i == (1 + 3 + 5 + 7) * 10 + 1);
  interp::Arg z[] = {Value::of(0)};
  CHECK(p->call(m->functions[0], z).i == 1);
}

TEST_CASE("calls of lifted helpers pass arrays through as views", "[interp][control]") {
  // void scale(float* y, int n, float f) { for (int k = 0; k < n; k++) y[k] *= f; }     (functions[1])
  // float total(float* y, int n) { scale(y, n, 2.0f); float t = 0; for (...) t += y[k]; return t; }
  FnBuilder h("scale", Type::value(Scalar::Void));
  VarId y = h.param("y", Type::pointer(Scalar::F32, false)), n = h.param("n", Type::value(Scalar::I32)),
        f = h.param("f", Type::value(Scalar::F32));
  VarId k = h.local("k", Type::value(Scalar::I32));
  auto hb = h.forLoop(h.decl(k, h.lit(0)), h.bin(BinaryOp::Lt, h.var(k), h.var(n)),
                      h.incDec(IncDecOp::PostInc, h.var(k)),
                      h.expr(h.compound(BinaryOp::Mul, h.sub(y, h.var(k)), h.var(f))));
  Function scale = h.finish(std::move(hb));

  FnBuilder b("total", Type::value(Scalar::F32));
  VarId by = b.param("y", Type::pointer(Scalar::F32, false)), bn = b.param("n", Type::value(Scalar::I32));
  VarId t = b.local("t", Type::value(Scalar::F32)), bk = b.local("k", Type::value(Scalar::I32));
  std::vector<ExprPtr> args;
  args.push_back(b.var(by));
  args.push_back(b.var(bn));
  args.push_back(b.lit(2.0f));
  std::vector<StmtPtr> body;
  body.push_back(b.expr(b.call(1, Scalar::Void, std::move(args))));
  body.push_back(b.decl(t, b.lit(0.0f)));
  body.push_back(b.forLoop(b.decl(bk, b.lit(0)), b.bin(BinaryOp::Lt, b.var(bk), b.var(bn)),
                           b.incDec(IncDecOp::PreInc, b.var(bk)),
                           b.expr(b.compound(BinaryOp::Add, b.var(t), b.sub(by, b.var(bk))))));
  body.push_back(b.ret(b.var(t)));
  std::vector<Function> fns;
  fns.push_back(b.finish(b.block(std::move(body))));
  fns.push_back(std::move(scale));
  auto m = moduleOf(std::move(fns));
  auto p = compile(m);
  std::vector<float> data = {1.5f, 2.0f, 3.25f};
  interp::Arg a[] = {ArrayRef::of(std::span<float>(data)), Value::of(3)};
  CHECK(p->call(m->functions[0], a).f == 13.5f);
  CHECK(data == std::vector<float>{3.0f, 4.0f, 6.5f});  // the helper wrote through the caller's array
  interp::Arg tooLong[] = {ArrayRef::of(std::span<float>(data)), Value::of(4)};
  CHECK_THROWS_AS(p->call(m->functions[0], tooLong), interp::Error);
}

TEST_CASE("local arrays: initializer lists zero-fill the rest", "[interp][control]") {
  // double f(int i) { double a[5] = {1.5, 2.5}; a[4] += a[i]; return a[4] + a[3]; }
  FnBuilder b("f", Type::value(Scalar::F64));
  VarId i = b.param("i", Type::value(Scalar::I32));
  VarId a = b.local("a", Type::array(Scalar::F64, 5));
  std::vector<ExprPtr> inits;
  inits.push_back(b.lit(1.5));
  inits.push_back(b.lit(2.5));
  std::vector<StmtPtr> body;
  body.push_back(b.declArray(a, std::move(inits), true));
  body.push_back(b.expr(b.compound(BinaryOp::Add, b.sub(a, b.lit(4)), b.sub(a, b.var(i)))));
  body.push_back(b.ret(b.bin(BinaryOp::Add, b.sub(a, b.lit(4)), b.sub(a, b.lit(3)))));
  auto m = moduleOf({});
  m->functions.push_back(b.finish(b.block(std::move(body))));
  auto p = compile(m);
  interp::Arg one[] = {Value::of(1)};
  CHECK(p->call(m->functions[0], one).d == 2.5);
  interp::Arg three[] = {Value::of(3)};
  CHECK(p->call(m->functions[0], three).d == 0.0);
}

TEST_CASE("launch covers 1-D, 2-D, 3-D and element-wise index spaces with the GPU layouts", "[interp][launch]") {
  // long long cell(int base, int i, int j, int k) { return ((long long)k * 1000 + i) * 1000 + j + base; }
  FnBuilder b("cell", Type::value(Scalar::I64));
  VarId base = b.param("base", Type::value(Scalar::I32)), i = b.param("i", Type::value(Scalar::I32)),
        j = b.param("j", Type::value(Scalar::I32)), k = b.param("k", Type::value(Scalar::I32));
  auto L = [&](VarId v) { return b.cast(Scalar::I64, b.var(v)); };
  auto e = b.bin(BinaryOp::Add,
                 b.bin(BinaryOp::Add,
                       b.bin(BinaryOp::Mul,
                             b.bin(BinaryOp::Add, b.bin(BinaryOp::Mul, L(k), b.lit<std::int64_t>(1000)), L(i)),
                             b.lit<std::int64_t>(1000)),
                       L(j)),
                 L(base));
  auto m = moduleOf({});
  m->functions.push_back(b.finish(b.ret(std::move(e)), {"i", "j", "k"}));
  auto p = compile(m, 3);
  const std::int64_t rows = 7, cols = 9, depth = 5;
  std::vector<std::int64_t> out(rows * cols * depth, -1);
  interp::Arg args[] = {Value::of(3), ArrayRef::of(std::span<std::int64_t>(out))};
  p->launch(m->functions[0], interp::Extent{{rows, cols, depth}, 3}, args);
  for (std::int64_t kk = 0; kk < depth; ++kk)
    for (std::int64_t ii = 0; ii < rows; ++ii)
      for (std::int64_t jj = 0; jj < cols; ++jj)
        CHECK(out[(ii * cols + jj) * depth + kk] == (kk * 1000 + ii) * 1000 + jj + 3);

  // Element-wise: double axpy(double a, double x, double y) { return a * x + y; }
  FnBuilder w("axpy", Type::value(Scalar::F64));
  VarId wa = w.param("a", Type::value(Scalar::F64)), wx = w.param("x", Type::value(Scalar::F64)),
        wy = w.param("y", Type::value(Scalar::F64));
  auto we = w.bin(BinaryOp::Add, w.bin(BinaryOp::Mul, w.var(wa), w.var(wx)), w.var(wy));
  auto mw = moduleOf({});
  mw->functions.push_back(w.finish(w.ret(std::move(we)), {}, true));
  auto pw = compile(mw);
  const std::size_t n = 100000;
  std::vector<double> av(n), xv(n), yv(n), ov(n);
  for (std::size_t q = 0; q < n; ++q) {
    av[q] = 0.5 + q;
    xv[q] = 1.0 / (q + 1);
    yv[q] = -static_cast<double>(q);
  }
  interp::Arg wargs[] = {ArrayRef::of(std::span<const double>(av)), ArrayRef::of(std::span<const double>(xv)),
                         ArrayRef::of(std::span<const double>(yv)), ArrayRef::of(std::span<double>(ov))};
  pw->launch(mw->functions[0], interp::Extent{{static_cast<std::int64_t>(n), 1, 1}, 1}, wargs);
  for (std::size_t q = 0; q < n; q += 997) {
    volatile double a = av[q], x = xv[q], y = yv[q];
    CHECK(ov[q] == a * x + y);
  }
}
