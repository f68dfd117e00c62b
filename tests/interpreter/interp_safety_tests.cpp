// Every safety error: raised as interp::Error with the node's location, naming the variable and
// the values involved. Never a crash.
#include <limits>
#include <string>
#include <vector>

#include "ast_builder.hpp"
#include "catch.hpp"
#include "culift/interpreter.hpp"
#include "small_stack.hpp"

using namespace culift;
using namespace culift::testing;
using interp::ArrayRef;
using interp::Value;

namespace {

struct Built {
  std::shared_ptr<Module> module;
  std::shared_ptr<const interp::Program> program;
  const Function& fn(std::size_t k = 0) const { return module->functions[k]; }
};
Built build(Function fn, interp::Options options = {}) {
  Built b;
  b.module = moduleOf({}, "safety.cpp");
  b.module->functions.push_back(std::move(fn));
  b.program = interp::Program::compile(b.module, options);
  return b;
}

// Runs `run` and returns the diagnostic it throws (fails the test if it does not throw).
template <typename F> Diagnostic errorOf(F&& run) {
  try {
    run();
  } catch (const interp::Error& e) {
    return e.diagnostic();
  }
  FAIL("no interp::Error was thrown");
  return {};
}

// float f(const float* x, int i) { return x[i]; }   (the subscript on line 7, column 12)
Function readAt() {
  FnBuilder b("readAt", Type::value(Scalar::F32), "safety.cpp");
  VarId x = b.param("x", Type::pointer(Scalar::F32, true));
  VarId i = b.param("i", Type::value(Scalar::I32));
  b.at(7, 12);
  auto e = b.sub(x, b.var(i));
  return b.finish(b.ret(std::move(e)), {"i"});
}

}  // namespace

TEST_CASE("index past the caller's array names the array, index and length", "[interp][safety]") {
  Built p = build(readAt());
  std::vector<float> x = {1, 2, 3, 4};
  interp::Arg ok[] = {ArrayRef::of(std::span<const float>(x)), Value::of(3)};
  CHECK(p.program->call(p.fn(), ok).f == 4.0f);
  interp::Arg past[] = {ArrayRef::of(std::span<const float>(x)), Value::of(4)};
  Diagnostic d = errorOf([&] { p.program->call(p.fn(), past); });
  CHECK(d.loc.file == "safety.cpp");
  CHECK(d.loc.line == 7);
  CHECK(d.loc.column == 12);
  CHECK(d.message == "index 4 is out of bounds for array 'x' of 4 elements");
  interp::Arg negative[] = {ArrayRef::of(std::span<const float>(x)), Value::of(-1)};
  CHECK(errorOf([&] { p.program->call(p.fn(), negative); }).message.find("index -1 is out of bounds") == 0);
  CHECK(d.format().find("safety.cpp:7:12: error: index 4") == 0);
}

TEST_CASE("affine row-major index out of bounds is caught too", "[interp][safety]") {
  // float f(const float* x, int cols, int i) { float s = 0; for (k...) s += x[i*cols+k]; return s; }
  FnBuilder b("rowSum", Type::value(Scalar::F32), "safety.cpp");
  VarId x = b.param("x", Type::pointer(Scalar::F32, true)), cols = b.param("cols", Type::value(Scalar::I32)),
        i = b.param("i", Type::value(Scalar::I32));
  VarId s = b.local("s", Type::value(Scalar::F32)), k = b.local("k", Type::value(Scalar::I32));
  std::vector<StmtPtr> body;
  body.push_back(b.decl(s, b.lit(0.0f)));
  b.at(9, 30);
  auto idx = b.bin(BinaryOp::Add, b.bin(BinaryOp::Mul, b.var(i), b.var(cols)), b.var(k));
  auto loop = b.forLoop(b.decl(k, b.lit(0)), b.bin(BinaryOp::Lt, b.var(k), b.var(cols)),
                        b.incDec(IncDecOp::PreInc, b.var(k)),
                        b.expr(b.compound(BinaryOp::Add, b.var(s), b.sub(x, std::move(idx)))));
  body.push_back(std::move(loop));
  body.push_back(b.ret(b.var(s)));
  Built p = build(b.finish(b.block(std::move(body)), {"i"}));
  std::vector<float> data(10, 1.0f);
  interp::Arg args[] = {ArrayRef::of(std::span<const float>(data)), Value::of(4), Value::of(2)};  // reads 8..11
  Diagnostic d = errorOf([&] { p.program->call(p.fn(), args); });
  CHECK(d.message == "index 10 is out of bounds for array 'x' of 10 elements");
  CHECK(d.loc.line == 9);
  // The overflow of i * cols is reported before any read.
  interp::Arg huge[] = {ArrayRef::of(std::span<const float>(data)), Value::of(1 << 20), Value::of(1 << 12)};
  CHECK(errorOf([&] { p.program->call(p.fn(), huge); }).message.find("signed integer overflow") == 0);
}

TEST_CASE("local arrays: index out of range and uninitialized elements", "[interp][safety]") {
  // int f(int i) { int a[4] = {1, 2}; int u[3]; u[0] = 5; return a[i] + u[i]; }
  FnBuilder b("local", Type::value(Scalar::I32), "safety.cpp");
  VarId i = b.param("i", Type::value(Scalar::I32));
  VarId a = b.local("a", Type::array(Scalar::I32, 4)), u = b.local("u", Type::array(Scalar::I32, 3));
  std::vector<ExprPtr> inits;
  inits.push_back(b.lit(1));
  inits.push_back(b.lit(2));
  std::vector<StmtPtr> body;
  body.push_back(b.declArray(a, std::move(inits), true));
  body.push_back(b.declArray(u, {}, false));
  body.push_back(b.expr(b.assign(b.sub(u, b.lit(0)), b.lit(5))));
  b.at(12, 5);
  body.push_back(b.ret(b.bin(BinaryOp::Add, b.sub(a, b.var(i)), b.sub(u, b.var(i)))));
  Built p = build(b.finish(b.block(std::move(body))));
  interp::Arg zero[] = {Value::of(0)};
  CHECK(p.program->call(p.fn(), zero).i == 6);
  interp::Arg one[] = {Value::of(1)};
  Diagnostic d = errorOf([&] { p.program->call(p.fn(), one); });
  CHECK(d.message == "read of uninitialized element 1 of local array 'u'");
  CHECK(d.loc.line == 12);
  interp::Arg three[] = {Value::of(3)};  // a[3] is zero-filled, u[3] is past u's end
  CHECK(errorOf([&] { p.program->call(p.fn(), three); }).message ==
        "index 3 is out of bounds for local array 'u' of 3 elements");
  interp::Arg four[] = {Value::of(4)};
  CHECK(errorOf([&] { p.program->call(p.fn(), four); }).message ==
        "index 4 is out of bounds for local array 'a' of 4 elements");
}

TEST_CASE("integer division and remainder by zero, INT_MIN / -1", "[interp][safety]") {
  for (BinaryOp op : {BinaryOp::Div, BinaryOp::Rem}) {
    FnBuilder b("divide", Type::value(Scalar::I32), "safety.cpp");
    VarId x = b.param("a", Type::value(Scalar::I32)), y = b.param("b", Type::value(Scalar::I32));
    b.at(20, 14);
    auto e = b.bin(op, b.var(x), b.var(y));
    Built p = build(b.finish(b.ret(std::move(e))));
    interp::Arg byZero[] = {Value::of(7), Value::of(0)};
    Diagnostic d = errorOf([&] { p.program->call(p.fn(), byZero); });
    const std::string word = op == BinaryOp::Div ? "division" : "remainder";
    const std::string sym = op == BinaryOp::Div ? "/" : "%";
    CHECK(d.message == "integer " + word + " by zero: 7 " + sym + " 0 in int ('a' " + sym + " 'b')");
    CHECK(d.loc.line == 20);
    CHECK(d.loc.column == 14);
    interp::Arg minOverMinusOne[] = {Value::of(std::numeric_limits<int>::min()), Value::of(-1)};
    CHECK(errorOf([&] {
            p.program->call(p.fn(), minOverMinusOne);
          }).message.find("signed integer overflow in " + word) == 0);
  }
}

TEST_CASE("signed overflow of + - * is an error; unsigned wraps", "[interp][safety]") {
  FnBuilder b("add", Type::value(Scalar::I32), "safety.cpp");
  VarId x = b.param("a", Type::value(Scalar::I32)), y = b.param("b", Type::value(Scalar::I32));
  b.at(30, 3);
  auto e = b.bin(BinaryOp::Add, b.var(x), b.var(y));
  Built p = build(b.finish(b.ret(std::move(e))));
  interp::Arg args[] = {Value::of(std::numeric_limits<int>::max()), Value::of(1)};
  Diagnostic d = errorOf([&] { p.program->call(p.fn(), args); });
  CHECK(d.message == "signed integer overflow: 2147483647 + 1 in int ('a' + 'b')");
}

TEST_CASE("read of an uninitialized local names the variable", "[interp][safety]") {
  // int f(bool c) { int x; if (c) x = 1; return x; }
  FnBuilder b("maybe", Type::value(Scalar::I32), "safety.cpp");
  VarId c = b.param("c", Type::value(Scalar::Bool));
  VarId x = b.local("count", Type::value(Scalar::I32));
  std::vector<StmtPtr> body;
  body.push_back(b.decl(x));
  body.push_back(b.ifThen(b.var(c), b.expr(b.assign(b.var(x), b.lit(1)))));
  b.at(40, 10);
  body.push_back(b.ret(b.var(x)));
  Built p = build(b.finish(b.block(std::move(body))));
  interp::Arg yes[] = {Value::of(true)};
  CHECK(p.program->call(p.fn(), yes).i == 1);
  interp::Arg no[] = {Value::of(false)};
  Diagnostic d = errorOf([&] { p.program->call(p.fn(), no); });
  CHECK(d.message == "read of uninitialized variable 'count'");
  CHECK(d.loc.line == 40);
}

TEST_CASE("shift by a negative amount or by the width or more", "[interp][safety]") {
  FnBuilder b("shift", Type::value(Scalar::I32), "safety.cpp");
  VarId x = b.param("v", Type::value(Scalar::I32)), n = b.param("n", Type::value(Scalar::I32));
  b.at(50, 7);
  auto e = b.bin(BinaryOp::Shl, b.var(x), b.var(n));
  Built p = build(b.finish(b.ret(std::move(e))));
  interp::Arg neg[] = {Value::of(1), Value::of(-2)};
  CHECK(errorOf([&] { p.program->call(p.fn(), neg); }).message == "shift count -2 ('n') is negative (shifting 1)");
  interp::Arg wide[] = {Value::of(1), Value::of(32)};
  Diagnostic d = errorOf([&] { p.program->call(p.fn(), wide); });
  CHECK(d.message == "shift count 32 ('n') is not less than the width 32 of the shifted type (shifting 1)");
  CHECK(d.loc.line == 50);
}

TEST_CASE("float to int conversion out of range", "[interp][safety]") {
  FnBuilder b("toInt", Type::value(Scalar::I32), "safety.cpp");
  VarId x = b.param("x", Type::value(Scalar::F32));
  b.at(55, 9);
  auto e = b.cast(Scalar::I32, b.var(x));
  Built p = build(b.finish(b.ret(std::move(e))));
  interp::Arg big[] = {Value::of(3e9f)};
  CHECK(errorOf([&] { p.program->call(p.fn(), big); }).message == "conversion of 3e+09 ('x') to int is out of range");
  interp::Arg nan[] = {Value::of(std::numeric_limits<float>::quiet_NaN())};
  CHECK(errorOf([&] { p.program->call(p.fn(), nan); }).message == "conversion of nan ('x') to int is out of range");
  interp::Arg fine[] = {Value::of(-2147483520.0f)};
  CHECK(p.program->call(p.fn(), fine).i == -2147483520);
}

TEST_CASE("step budget stops endless loops", "[interp][safety]") {
  // void spin() { while (true) {} }
  FnBuilder b("spin", Type::value(Scalar::Void), "safety.cpp");
  b.at(60, 3);
  auto loop = b.whileLoop(b.lit(true), b.block({}));
  interp::Options o;
  o.stepBudget = 10000;
  Built p = build(b.finish(std::move(loop)), o);
  Diagnostic d = errorOf([&] { p.program->call(p.fn(), {}); });
  CHECK(d.message == "step budget of 10000 exceeded in 'spin'");
  CHECK(d.loc.line == 60);
}

TEST_CASE("wrong argument count, kinds and element types", "[interp][safety]") {
  Built p = build(readAt());
  std::vector<float> x = {1, 2};
  std::vector<double> xd = {1, 2};
  interp::Arg tooFew[] = {ArrayRef::of(std::span<const float>(x))};
  CHECK(errorOf([&] { p.program->call(p.fn(), tooFew); }).message ==
        "wrong arguments to 'readAt': it takes 2 arguments, got 1");
  interp::Arg swapped[] = {Value::of(1), ArrayRef::of(std::span<const float>(x))};
  CHECK(errorOf([&] { p.program->call(p.fn(), swapped); }).message ==
        "wrong arguments to 'readAt': parameter 1 'x' (const float*) needs an array of float, got a int value");
  interp::Arg wrongElement[] = {ArrayRef::of(std::span<const double>(xd)), Value::of(0)};
  CHECK(errorOf([&] {
          p.program->call(p.fn(), wrongElement);
        }).message.find("needs an array of float, got an array of double") != std::string::npos);
  interp::Arg wrongScalar[] = {ArrayRef::of(std::span<const float>(x)), Value::of(0.0)};
  CHECK(errorOf([&] { p.program->call(p.fn(), wrongScalar); }).message ==
        "wrong arguments to 'readAt': parameter 2 'i' (int) needs a int value, got a double value");

  // void fill(float* y, int i) { y[i] = 1; } with a read-only array
  FnBuilder w("fill", Type::value(Scalar::Void), "safety.cpp");
  VarId y = w.param("y", Type::pointer(Scalar::F32, false));
  VarId i = w.param("i", Type::value(Scalar::I32));
  auto st = w.expr(w.assign(w.sub(y, w.var(i)), w.lit(1.0f)));
  Built q = build(w.finish(std::move(st), {"i"}));
  interp::Arg readOnly[] = {ArrayRef::of(std::span<const float>(x)), Value::of(0)};
  CHECK(errorOf([&] { q.program->call(q.fn(), readOnly); }).message.find("it needs a writable array") !=
        std::string::npos);
}

TEST_CASE("launch errors: first failing index from worker threads, bad extents and arguments",
          "[interp][safety][launch]") {
  Built p = build(readAt());
  std::vector<float> x(1000, 1.0f);
  std::vector<float> out(5000);
  interp::Arg args[] = {ArrayRef::of(std::span<const float>(x)), ArrayRef::of(std::span<float>(out))};
  // i in [0, 5000) reads x[i]: elements 1000.. fail; the first failing one is reported.
  for (unsigned threads : {1u, 2u, 8u}) {
    interp::Options o;
    o.threads = threads;
    auto prog = interp::Program::compile(p.module, o);
    Diagnostic d = errorOf([&] { prog->launch(p.fn(), interp::Extent{{5000, 1, 1}, 1}, args); });
    CHECK(d.message == "index 1000 is out of bounds for array 'x' of 1000 elements (launch element 1000)");
  }
  CHECK(errorOf([&] {
          p.program->launch(p.fn(), interp::Extent{{10, 10, 1}, 2}, args);
        }).message.find("rank-1 extent") != std::string::npos);
  std::vector<float> shortOut(10);
  interp::Arg shortArgs[] = {ArrayRef::of(std::span<const float>(x)), ArrayRef::of(std::span<float>(shortOut))};
  CHECK(errorOf([&] {
          p.program->launch(p.fn(), interp::Extent{{100, 1, 1}, 1}, shortArgs);
        }).message.find("has 10 elements; the launch needs 100") != std::string::npos);
  interp::Arg missingOut[] = {ArrayRef::of(std::span<const float>(x))};
  CHECK_THROWS_AS(p.program->launch(p.fn(), interp::Extent{{10, 1, 1}, 1}, missingOut), interp::Error);
}

TEST_CASE("recursion deeper than the call limit is an error, not a stack overflow", "[interp][safety]") {
  // int down(int n) { return down(n); }
  FnBuilder b("down", Type::value(Scalar::I32), "safety.cpp");
  VarId n = b.param("n", Type::value(Scalar::I32));
  std::vector<ExprPtr> a;
  a.push_back(b.var(n));
  auto e = b.call(0, Scalar::I32, std::move(a));
  Built p = build(b.finish(b.ret(std::move(e))));
  interp::Arg args[] = {Value::of(1)};
  CHECK(errorOf([&] { p.program->call(p.fn(), args); }).message.find("call depth of 200 exceeded") == 0);
}

TEST_CASE("falling off the end of a non-void function is an error", "[interp][safety]") {
  FnBuilder b("noReturn", Type::value(Scalar::I32), "safety.cpp");
  b.param("n", Type::value(Scalar::I32));
  Built p = build(b.finish(b.block({})));
  interp::Arg args[] = {Value::of(1)};
  CHECK(errorOf([&] { p.program->call(p.fn(), args); }).message.find("without returning a value") != std::string::npos);
}

// A host app may run kernels from a pool thread with 512 KB of stack. A hand-built tree has no
// front end to bound its nesting: 5001 nested negations take megabytes of stack to compile,
// run and free, more than that thread has.
TEST_CASE("a deeply nested function compiles, runs and is freed on a thread with a 512 KB stack",
          "[interp][safety][stack]") {
  constexpr unsigned kLevels = 5001;
  FnBuilder b("negations", Type::value(Scalar::I32), "safety.cpp");
  const VarId a = b.param("a", Type::value(Scalar::I32));
  ExprPtr e = b.var(a);
  for (unsigned k = 0; k < kLevels; ++k) e = b.un(UnaryOp::Neg, std::move(e));
  std::shared_ptr<Module> module = moduleOf({}, "safety.cpp");
  module->functions.push_back(b.finish(b.ret(std::move(e)), {}, /*elementWise=*/true));
  Value called;
  std::vector<int> launched(4, 0);
  test::onSmallStack([&] {
    std::shared_ptr<const interp::Program> program = interp::Program::compile(module);
    interp::Arg args[] = {Value::of(7)};
    called = program->call(module->functions[0], args);
    const std::vector<int> x = {1, 2, 3, 4};
    interp::Arg kernelArgs[] = {ArrayRef::of(std::span<const int>(x)), ArrayRef::of(std::span<int>(launched))};
    program->launch(module->functions[0], interp::Extent{{4, 1, 1}, 1}, kernelArgs);
  });
  CHECK(called.type == Scalar::I32);
  CHECK(called.as<int>() == -7);
  CHECK(launched == std::vector<int>{-1, -2, -3, -4});
}
