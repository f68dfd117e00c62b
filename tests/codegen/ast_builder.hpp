// Hand-built typed ASTs for codegen tests: each helper makes one node the way the front end
// would (types set, implicit conversions as Cast nodes), so tests read like the C++ they stand for.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::test {

inline SourceRange at(unsigned line, unsigned column = 3, const std::string& file = "kernels.cpp") {
  SourceRange r;
  r.begin = SourceLoc{file, line, column};
  r.endLine = line;
  r.endColumn = column + 1;
  return r;
}

inline Type val(Scalar s) { return Type::value(s); }

inline ExprPtr node(ExprKind k, Type t) { return std::make_unique<Expr>(k, t, SourceRange{}); }

template <typename... E> std::vector<ExprPtr> exprs(E&&... e) {
  std::vector<ExprPtr> v;
  (v.push_back(std::forward<E>(e)), ...);
  return v;
}
template <typename... S> std::vector<StmtPtr> stmts(S&&... s) {
  std::vector<StmtPtr> v;
  (v.push_back(std::forward<S>(s)), ...);
  return v;
}

// ---- expressions ----
inline ExprPtr lit(std::int64_t v, Scalar s = Scalar::I32) {
  ExprPtr e = node(ExprKind::IntLiteral, val(s));
  e->intBits = static_cast<std::uint64_t>(v);
  return e;
}
inline ExprPtr ulit(std::uint64_t bits, Scalar s) {
  ExprPtr e = node(ExprKind::IntLiteral, val(s));
  e->intBits = bits;
  return e;
}
inline ExprPtr flit(double v, Scalar s = Scalar::F32) {
  ExprPtr e = node(ExprKind::FloatLiteral, val(s));
  e->floatValue = v;
  return e;
}
inline ExprPtr blit(bool b) {
  ExprPtr e = node(ExprKind::BoolLiteral, val(Scalar::Bool));
  e->intBits = b;
  return e;
}
inline ExprPtr ref(const Function& f, VarId id) {
  ExprPtr e = node(ExprKind::VarRef, f.vars.at(id).type);
  e->var = id;
  return e;
}
inline ExprPtr sub(const Function& f, VarId array, ExprPtr index) {
  ExprPtr e = node(ExprKind::Subscript, val(f.vars.at(array).type.scalar));
  e->operands = exprs(ref(f, array), std::move(index));
  return e;
}
inline ExprPtr cast(ExprPtr x, Scalar s, bool isExplicit = false) {
  ExprPtr e = node(ExprKind::Cast, val(s));
  e->explicitCast = isExplicit;
  e->operands = exprs(std::move(x));
  return e;
}
inline ExprPtr bin(BinaryOp op, ExprPtr a, ExprPtr b) {
  Scalar t = (isComparison(op) || isLogical(op)) ? Scalar::Bool : a->type.scalar;
  ExprPtr e = node(ExprKind::Binary, val(t));
  e->binaryOp = op;
  e->operands = exprs(std::move(a), std::move(b));
  return e;
}
inline ExprPtr un(UnaryOp op, ExprPtr a) {
  ExprPtr e = node(ExprKind::Unary, val(op == UnaryOp::LogNot ? Scalar::Bool : a->type.scalar));
  e->unaryOp = op;
  e->operands = exprs(std::move(a));
  return e;
}
inline ExprPtr assign(ExprPtr l, ExprPtr r) {
  ExprPtr e = node(ExprKind::Assign, val(l->type.scalar));
  e->operands = exprs(std::move(l), std::move(r));
  return e;
}
inline ExprPtr compound(BinaryOp op, ExprPtr l, ExprPtr r, Scalar computeType) {
  ExprPtr e = node(ExprKind::CompoundAssign, val(l->type.scalar));
  e->binaryOp = op;
  e->computeType = computeType;
  e->operands = exprs(std::move(l), std::move(r));
  return e;
}
inline ExprPtr incdec(IncDecOp op, ExprPtr l) {
  ExprPtr e = node(ExprKind::IncDec, val(l->type.scalar));
  e->incDecOp = op;
  e->operands = exprs(std::move(l));
  return e;
}
inline ExprPtr cond(ExprPtr c, ExprPtr a, ExprPtr b) {
  ExprPtr e = node(ExprKind::Conditional, val(a->type.scalar));
  e->operands = exprs(std::move(c), std::move(a), std::move(b));
  return e;
}
inline ExprPtr call(FuncId callee, Scalar result, std::vector<ExprPtr> args) {
  ExprPtr e = node(ExprKind::Call, val(result));
  e->callee = callee;
  e->operands = std::move(args);
  return e;
}
inline ExprPtr math(MathFn fn, Scalar result, std::vector<ExprPtr> args) {
  ExprPtr e = node(ExprKind::MathCall, val(result));
  e->math = fn;
  e->operands = std::move(args);
  return e;
}
inline ExprPtr comma(ExprPtr a, ExprPtr b) {
  ExprPtr e = node(ExprKind::Comma, b->type);
  e->operands = exprs(std::move(a), std::move(b));
  return e;
}

// ---- statements (line: the source line the statement starts on) ----
inline StmtPtr stmt(StmtKind k, unsigned line) { return std::make_unique<Stmt>(k, at(line)); }
inline StmtPtr block(std::vector<StmtPtr> body, unsigned line = 0, bool scoped = true) {
  StmtPtr s = stmt(StmtKind::Block, line);
  s->stmts = std::move(body);
  s->scoped = scoped;
  return s;
}
inline StmtPtr group(std::vector<StmtPtr> decls, unsigned line = 0) { return block(std::move(decls), line, false); }
inline StmtPtr decl(VarId v, ExprPtr init, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::Decl, line);
  s->var = v;
  s->expr = std::move(init);
  return s;
}
inline StmtPtr declArray(VarId v, std::vector<ExprPtr> inits, bool initialized, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::Decl, line);
  s->var = v;
  s->inits = std::move(inits);
  s->arrayInitialized = initialized;
  return s;
}
inline StmtPtr exprStmt(ExprPtr e, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::ExprStmt, line);
  s->expr = std::move(e);
  return s;
}
inline StmtPtr ifStmt(ExprPtr c, StmtPtr then, StmtPtr otherwise = nullptr, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::If, line);
  s->cond = std::move(c);
  s->then = std::move(then);
  s->otherwise = std::move(otherwise);
  return s;
}
inline StmtPtr forStmt(StmtPtr init, ExprPtr c, ExprPtr inc, StmtPtr body, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::For, line);
  s->init = std::move(init);
  s->cond = std::move(c);
  s->expr = std::move(inc);
  s->body = std::move(body);
  return s;
}
inline StmtPtr whileStmt(ExprPtr c, StmtPtr body, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::While, line);
  s->cond = std::move(c);
  s->body = std::move(body);
  return s;
}
inline StmtPtr doWhile(StmtPtr body, ExprPtr c, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::DoWhile, line);
  s->cond = std::move(c);
  s->body = std::move(body);
  return s;
}
inline StmtPtr ret(ExprPtr e = nullptr, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::Return, line);
  s->expr = std::move(e);
  return s;
}
inline StmtPtr switchStmt(ExprPtr c, std::vector<StmtPtr> body, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::Switch, line);
  s->cond = std::move(c);
  s->body = block(std::move(body), line);
  return s;
}
inline StmtPtr caseLabel(std::uint64_t v, unsigned line = 0) {
  StmtPtr s = stmt(StmtKind::Case, line);
  s->caseValue = v;
  return s;
}

// ---- functions ----
struct FunctionBuilder {
  Function fn;

  FunctionBuilder(std::string name, Type result, unsigned line = 1) {
    fn.name = std::move(name);
    fn.returnType = result;
    fn.range = at(line, 1);
    fn.deviceName = fn.name;
    fn.annotated = true;
  }
  VarId param(std::string name, Type t) {
    fn.vars.push_back(Var{std::move(name), t, {}, true});
    return fn.numParams++;
  }
  VarId local(std::string name, Type t) {
    fn.vars.push_back(Var{std::move(name), t, {}, false});
    return static_cast<VarId>(fn.vars.size() - 1);
  }
  Function take(std::vector<StmtPtr> body) {
    fn.body = block(std::move(body), fn.range.begin.line);
    return std::move(fn);
  }
};

// Sets the classification fields the way the classifier's contract describes them: user
// parameters in order (index parameters left out), then `out` for a result, then one extent
// per axis.
// As classify() does; itemsPerThread as classify() gives a loop-free body (4) or one that loops (1).
inline void classifyByHand(Function& f, IndexMode mode, std::vector<int> indexParams = {},
                           unsigned itemsPerThread = 1) {
  f.mode = mode;
  f.indexParams = std::move(indexParams);
  f.kernelName = f.name + "_kernel";
  f.wideKernelName = f.name + "_kernel64";
  f.itemsPerThread = itemsPerThread;
  f.signature.params.clear();
  if (mode == IndexMode::DeviceOnly) {
    f.kernelName.clear();
    f.wideKernelName.clear();
    return;
  }
  for (unsigned p = 0; p < f.numParams; ++p) {
    bool isIndex = false;
    for (int ip : f.indexParams) isIndex = isIndex || ip == static_cast<int>(p);
    if (isIndex) continue;
    const Type t = f.vars[p].type;
    KernelParam kp{f.vars[p].name, t, ParamRole::Scalar, static_cast<int>(p), -1};
    if (t.isPointer()) kp.role = t.constElements ? ParamRole::ReadOnlyArray : ParamRole::WritableArray;
    else if (mode == IndexMode::ElementWise) {
      kp.role = ParamRole::PerElementScalar;
      kp.type = Type::pointer(t.scalar, true);
    }
    f.signature.params.push_back(kp);
  }
  if (!f.returnType.isVoid())
    f.signature.params.push_back(
        KernelParam{"out", Type::pointer(f.returnType.scalar, false), ParamRole::ResultArray, -1, -1});
  static const char* kExtents[] = {"n_i", "n_j", "n_k"};
  for (unsigned a = 0; a < rank(mode); ++a)
    f.signature.params.push_back(KernelParam{mode == IndexMode::ElementWise ? "n" : kExtents[a], val(Scalar::I64),
                                             ParamRole::Extent, -1, static_cast<int>(a)});
}

}  // namespace culift::test
