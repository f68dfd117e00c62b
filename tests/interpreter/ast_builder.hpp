// Builds typed-AST functions by hand, for interpreter tests and benchmarks that must not
// depend on the Clang front end. Nodes get the location `file:line:col` set with at().
#pragma once

#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/interpreter.hpp"

namespace culift::testing {

class FnBuilder {
 public:
  FnBuilder(std::string name, Type ret, std::string file = "built.cpp") : file_(std::move(file)) {
    f_.name = std::move(name);
    f_.returnType = ret;
    f_.range = range();
  }

  FnBuilder& at(unsigned line, unsigned col = 1) {
    line_ = line;
    col_ = col;
    return *this;
  }

  VarId param(std::string name, Type t) {
    f_.vars.push_back(Var{std::move(name), t, range(), true});
    f_.numParams = static_cast<unsigned>(f_.vars.size());
    return static_cast<VarId>(f_.vars.size() - 1);
  }
  VarId local(std::string name, Type t) {
    f_.vars.push_back(Var{std::move(name), t, range(), false});
    return static_cast<VarId>(f_.vars.size() - 1);
  }

  // ---- expressions ----
  ExprPtr var(VarId v) const {
    auto e = node(ExprKind::VarRef, f_.vars[v].type);
    e->var = v;
    return e;
  }
  template <typename T> ExprPtr lit(T v) const {
    constexpr Scalar s = interp::detail::scalarOf<T>();
    if constexpr (std::is_floating_point_v<T>) {
      auto e = node(ExprKind::FloatLiteral, Type::value(s));
      e->floatValue = static_cast<double>(v);
      return e;
    } else if constexpr (std::is_same_v<T, bool>) {
      auto e = node(ExprKind::BoolLiteral, Type::value(s));
      e->intBits = v ? 1 : 0;
      return e;
    } else {
      auto e = node(ExprKind::IntLiteral, Type::value(s));
      e->intBits = static_cast<std::uint64_t>(v);
      return e;
    }
  }
  ExprPtr bin(BinaryOp op, ExprPtr a, ExprPtr b) const {
    Type t = (isComparison(op) || isLogical(op)) ? Type::value(Scalar::Bool) : Type::value(a->type.scalar);
    auto e = node(ExprKind::Binary, t);
    e->binaryOp = op;
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
  }
  ExprPtr un(UnaryOp op, ExprPtr a) const {
    auto e = node(ExprKind::Unary, op == UnaryOp::LogNot ? Type::value(Scalar::Bool) : Type::value(a->type.scalar));
    e->unaryOp = op;
    e->operands.push_back(std::move(a));
    return e;
  }
  ExprPtr cast(Scalar to, ExprPtr a, bool explicitCast = false) const {
    auto e = node(ExprKind::Cast, Type::value(to));
    e->explicitCast = explicitCast;
    e->operands.push_back(std::move(a));
    return e;
  }
  ExprPtr sub(VarId array, ExprPtr index) const {
    auto e = node(ExprKind::Subscript, Type::value(f_.vars[array].type.scalar));
    e->operands.push_back(var(array));
    e->operands.push_back(std::move(index));
    return e;
  }
  ExprPtr assign(ExprPtr l, ExprPtr r) const {
    auto e = node(ExprKind::Assign, Type::value(l->type.scalar));
    e->operands.push_back(std::move(l));
    e->operands.push_back(std::move(r));
    return e;
  }
  ExprPtr compound(BinaryOp op, ExprPtr l, ExprPtr r, Scalar computeType = Scalar::Void) const {
    auto e = node(ExprKind::CompoundAssign, Type::value(l->type.scalar));
    e->binaryOp = op;
    e->computeType = computeType == Scalar::Void ? l->type.scalar : computeType;
    e->operands.push_back(std::move(l));
    e->operands.push_back(std::move(r));
    return e;
  }
  ExprPtr incDec(IncDecOp op, ExprPtr l) const {
    auto e = node(ExprKind::IncDec, Type::value(l->type.scalar));
    e->incDecOp = op;
    e->operands.push_back(std::move(l));
    return e;
  }
  ExprPtr cond(ExprPtr c, ExprPtr a, ExprPtr b) const {
    auto e = node(ExprKind::Conditional, Type::value(a->type.scalar));
    e->operands.push_back(std::move(c));
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
  }
  ExprPtr math(MathFn fn, Scalar result, std::vector<ExprPtr> args) const {
    auto e = node(ExprKind::MathCall, Type::value(result));
    e->math = fn;
    e->operands = std::move(args);
    return e;
  }
  ExprPtr call(FuncId callee, Scalar result, std::vector<ExprPtr> args) const {
    auto e = node(ExprKind::Call, Type::value(result));
    e->callee = callee;
    e->operands = std::move(args);
    return e;
  }
  ExprPtr comma(ExprPtr a, ExprPtr b) const {
    auto e = node(ExprKind::Comma, Type::value(b->type.scalar));
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
  }

  // ---- statements ----
  StmtPtr decl(VarId v, ExprPtr init = nullptr) const {
    auto s = snode(StmtKind::Decl);
    s->var = v;
    s->expr = std::move(init);
    return s;
  }
  StmtPtr declArray(VarId v, std::vector<ExprPtr> inits, bool initialized) const {
    auto s = snode(StmtKind::Decl);
    s->var = v;
    s->inits = std::move(inits);
    s->arrayInitialized = initialized;
    return s;
  }
  StmtPtr expr(ExprPtr e) const {
    auto s = snode(StmtKind::ExprStmt);
    s->expr = std::move(e);
    return s;
  }
  StmtPtr ret(ExprPtr e = nullptr) const {
    auto s = snode(StmtKind::Return);
    s->expr = std::move(e);
    return s;
  }
  StmtPtr block(std::vector<StmtPtr> stmts) const {
    auto s = snode(StmtKind::Block);
    s->stmts = std::move(stmts);
    return s;
  }
  StmtPtr ifThen(ExprPtr c, StmtPtr then, StmtPtr otherwise = nullptr) const {
    auto s = snode(StmtKind::If);
    s->cond = std::move(c);
    s->then = std::move(then);
    s->otherwise = std::move(otherwise);
    return s;
  }
  StmtPtr forLoop(StmtPtr init, ExprPtr c, ExprPtr inc, StmtPtr body) const {
    auto s = snode(StmtKind::For);
    s->init = std::move(init);
    s->cond = std::move(c);
    s->expr = std::move(inc);
    s->body = std::move(body);
    return s;
  }
  StmtPtr whileLoop(ExprPtr c, StmtPtr body, bool doWhile = false) const {
    auto s = snode(doWhile ? StmtKind::DoWhile : StmtKind::While);
    s->cond = std::move(c);
    s->body = std::move(body);
    return s;
  }
  StmtPtr switchOn(ExprPtr c, StmtPtr body) const {
    auto s = snode(StmtKind::Switch);
    s->cond = std::move(c);
    s->body = std::move(body);
    return s;
  }
  StmtPtr caseLabel(std::uint64_t v) const {
    auto s = snode(StmtKind::Case);
    s->caseValue = v;
    return s;
  }
  StmtPtr defaultLabel() const { return snode(StmtKind::Default); }
  StmtPtr brk() const { return snode(StmtKind::Break); }
  StmtPtr cont() const { return snode(StmtKind::Continue); }

  // Finishes the function. `indexNames` classify it as a kernel the way classify() would for
  // the index convention (i → Grid1D, i/j → Grid2D, i/j/k → Grid3D); `elementWise` for
  // all-scalar functions; neither: device only.
  Function finish(StmtPtr body, std::vector<std::string> indexNames = {}, bool elementWise = false) {
    f_.body = std::move(body);
    if (!indexNames.empty() || elementWise) classifyByHand(indexNames, elementWise);
    return std::move(f_);
  }

 private:
  SourceRange range() const {
    SourceRange r;
    r.begin = SourceLoc{file_, line_, col_};
    r.endLine = line_;
    r.endColumn = col_;
    return r;
  }
  ExprPtr node(ExprKind k, Type t) const { return std::make_unique<Expr>(k, t, range()); }
  StmtPtr snode(StmtKind k) const { return std::make_unique<Stmt>(k, range()); }

  void classifyByHand(const std::vector<std::string>& indexNames, bool elementWise) {
    f_.annotated = true;
    f_.deviceName = f_.name;
    f_.kernelName = f_.name + "_kernel";
    f_.mode = elementWise              ? IndexMode::ElementWise
              : indexNames.size() == 1 ? IndexMode::Grid1D
              : indexNames.size() == 2 ? IndexMode::Grid2D
                                       : IndexMode::Grid3D;
    for (const std::string& n : indexNames)
      for (unsigned p = 0; p < f_.numParams; ++p)
        if (f_.vars[p].name == n) f_.indexParams.push_back(static_cast<int>(p));
    auto& sig = f_.signature.params;
    for (unsigned p = 0; p < f_.numParams; ++p) {
      const Var& v = f_.vars[p];
      bool isIndex = false;
      for (int q : f_.indexParams) isIndex |= q == static_cast<int>(p);
      if (isIndex) continue;
      KernelParam kp;
      kp.name = v.name;
      kp.userParam = static_cast<int>(p);
      if (elementWise) {
        kp.type = Type::pointer(v.type.scalar, true);
        kp.role = ParamRole::PerElementScalar;
      } else if (v.type.isPointer()) {
        kp.type = v.type;
        kp.role = v.type.constElements ? ParamRole::ReadOnlyArray : ParamRole::WritableArray;
      } else {
        kp.type = v.type;
        kp.role = ParamRole::Scalar;
      }
      sig.push_back(kp);
    }
    if (!f_.returnType.isVoid())
      sig.push_back(KernelParam{"out", Type::pointer(f_.returnType.scalar, false), ParamRole::ResultArray, -1, -1});
    const char* axes[] = {"n_i", "n_j", "n_k"};
    const unsigned r = elementWise ? 1 : static_cast<unsigned>(indexNames.size());
    for (unsigned a = 0; a < r; ++a)
      sig.push_back(KernelParam{elementWise ? "n" : axes[a], Type::value(Scalar::I64), ParamRole::Extent, -1,
                                static_cast<int>(a)});
  }

  Function f_;
  std::string file_;
  unsigned line_ = 1, col_ = 1;
};

// A module of the given functions, as a shared pointer the interpreter takes.
inline std::shared_ptr<Module> moduleOf(std::vector<Function> fns, std::string path = "built.cpp") {
  auto m = std::make_shared<Module>();
  m->sourcePath = std::move(path);
  m->functions = std::move(fns);
  return m;
}

}  // namespace culift::testing
