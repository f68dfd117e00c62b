// Small lifted functions built by hand as the front end would build them, classified and
// emitted by the translator's back half: runtime tests need no Clang.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/codegen.hpp"

namespace culift::rttest {

inline SourceRange line(unsigned l) {
  SourceRange r;
  r.begin = SourceLoc{"kernels.cpp", l, 1};
  r.endLine = l;
  r.endColumn = 2;
  return r;
}

// Builds one function's parameters and body.
class FunctionBuilder {
 public:
  FunctionBuilder(std::string name, Type result) {
    f_.name = std::move(name);
    f_.returnType = result;
    f_.annotated = true;
    f_.range = line(1);
  }
  VarId param(std::string name, Type t) {
    f_.vars.push_back(Var{std::move(name), t, line(1), true});
    f_.numParams = static_cast<unsigned>(f_.vars.size());
    return static_cast<VarId>(f_.vars.size() - 1);
  }
  ExprPtr ref(VarId v) const {
    auto e = std::make_unique<Expr>(ExprKind::VarRef, f_.vars[v].type, line(2));
    e->var = v;
    return e;
  }
  // array[index], the element as an lvalue of the element type.
  ExprPtr at(VarId array, ExprPtr index) const {
    auto e = std::make_unique<Expr>(ExprKind::Subscript, Type::value(f_.vars[array].type.scalar), line(2));
    e->operands.push_back(ref(array));
    e->operands.push_back(std::move(index));
    return e;
  }
  static ExprPtr binary(BinaryOp op, ExprPtr a, ExprPtr b, Scalar result) {
    auto e = std::make_unique<Expr>(ExprKind::Binary, Type::value(result), line(2));
    e->binaryOp = op;
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
  }
  static ExprPtr conditional(ExprPtr c, ExprPtr a, ExprPtr b) {
    auto e = std::make_unique<Expr>(ExprKind::Conditional, a->type, line(2));
    e->operands.push_back(std::move(c));
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
  }
  static ExprPtr assign(ExprPtr l, ExprPtr r) {
    auto e = std::make_unique<Expr>(ExprKind::Assign, Type::value(l->type.scalar), line(2));
    e->operands.push_back(std::move(l));
    e->operands.push_back(std::move(r));
    return e;
  }
  void returns(ExprPtr value) {
    auto s = std::make_unique<Stmt>(StmtKind::Return, line(2));
    s->expr = std::move(value);
    body_.push_back(std::move(s));
  }
  void statement(ExprPtr e) {
    auto s = std::make_unique<Stmt>(StmtKind::ExprStmt, line(2));
    s->expr = std::move(e);
    body_.push_back(std::move(s));
  }
  Function build() {
    auto b = std::make_unique<Stmt>(StmtKind::Block, line(1));
    b->stmts = std::move(body_);
    f_.body = std::move(b);
    return std::move(f_);
  }

 private:
  Function f_;
  std::vector<StmtPtr> body_;
};

// float Scale(const float* x, float a, int i) { return x[i] * a; }               Grid1D
// double Outer(const double* a, const double* b, int i, int j) { return a[i] * b[j]; }   Grid2D
// float Floor0(float v, float lo) { return v < lo ? lo : v; }                      ElementWise
// void Fill(float* y, float v, long long i) { y[i] = v; }                          Grid1D, void
inline std::shared_ptr<const Module> makeTestModule() {
  auto m = std::make_shared<Module>();
  m->sourcePath = "kernels.cpp";
  {
    FunctionBuilder b("Scale", Type::value(Scalar::F32));
    VarId x = b.param("x", Type::pointer(Scalar::F32, true));
    VarId a = b.param("a", Type::value(Scalar::F32));
    VarId i = b.param("i", Type::value(Scalar::I32));
    b.returns(FunctionBuilder::binary(BinaryOp::Mul, b.at(x, b.ref(i)), b.ref(a), Scalar::F32));
    m->functions.push_back(b.build());
  }
  {
    FunctionBuilder b("Outer", Type::value(Scalar::F64));
    VarId a = b.param("a", Type::pointer(Scalar::F64, true));
    VarId c = b.param("b", Type::pointer(Scalar::F64, true));
    VarId i = b.param("i", Type::value(Scalar::I32));
    VarId j = b.param("j", Type::value(Scalar::I32));
    b.returns(FunctionBuilder::binary(BinaryOp::Mul, b.at(a, b.ref(i)), b.at(c, b.ref(j)), Scalar::F64));
    m->functions.push_back(b.build());
  }
  {
    FunctionBuilder b("Floor0", Type::value(Scalar::F32));
    VarId v = b.param("v", Type::value(Scalar::F32));
    VarId lo = b.param("lo", Type::value(Scalar::F32));
    b.returns(FunctionBuilder::conditional(FunctionBuilder::binary(BinaryOp::Lt, b.ref(v), b.ref(lo), Scalar::Bool),
                                           b.ref(lo), b.ref(v)));
    m->functions.push_back(b.build());
  }
  {
    FunctionBuilder b("Fill", Type::value(Scalar::Void));
    VarId y = b.param("y", Type::pointer(Scalar::F32, false));
    VarId v = b.param("v", Type::value(Scalar::F32));
    VarId i = b.param("i", Type::value(Scalar::I64));
    b.statement(FunctionBuilder::assign(b.at(y, b.ref(i)), b.ref(v)));
    m->functions.push_back(b.build());
  }
  DiagnosticSink diags;
  classify(*m, diags);
  if (diags.hasErrors()) throw std::runtime_error(diags.formatAll());
  m->cudaSource = emitCuda(*m);
  return m;
}

}  // namespace culift::rttest
