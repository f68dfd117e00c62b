// Walks and comparisons of AST trees the plans' analyses share: every expression or statement of
// a tree, what an assignment writes and which variables a tree assigns, and structural equality
// up to commutative operands (with i and j exchanged, for the symmetry proof).
#pragma once

#include <functional>
#include <map>
#include <set>

#include "culift/ast/module.hpp"

namespace culift::codegen {

// Every expression of an expression or statement tree, outermost first.
template <typename Tree> inline void forEachExpr(const Tree& t, const std::function<void(const Expr&)>& f) {
  visitExprs(t, [&](const Expr& e) {
    f(e);
    return true;
  });
}

inline void forEachStmt(const Stmt& s, const std::function<void(const Stmt&)>& f) {
  f(s);
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (c) forEachStmt(*c, f);
  for (const StmtPtr& c : s.stmts)
    if (c) forEachStmt(*c, f);
}

inline bool isLoop(const Stmt& s) {
  return s.kind == StmtKind::For || s.kind == StmtKind::While || s.kind == StmtKind::DoWhile;
}

// Whether `s` is a loop or holds one.
inline bool hasLoop(const Stmt& s) {
  if (isLoop(s)) return true;
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (c && hasLoop(*c)) return true;
  for (const StmtPtr& c : s.stmts)
    if (c && hasLoop(*c)) return true;
  return false;
}

inline const Expr& stripCasts(const Expr& e) {
  const Expr* p = &e;
  while (p->kind == ExprKind::Cast && !p->operands.empty() && isInteger(p->type.scalar)) p = p->operands[0].get();
  return *p;
}

// The variable an assignment, compound assignment or ++/-- writes, or the array it writes an
// element of.
inline const Expr* assignmentTarget(const Expr& e) {
  if (e.kind != ExprKind::Assign && e.kind != ExprKind::CompoundAssign && e.kind != ExprKind::IncDec) return nullptr;
  return e.operands.empty() ? nullptr : e.operands[0].get();
}

// The variables (parameters and locals) that some assignment, compound assignment or ++/-- in `t`
// writes.
template <typename Tree> inline std::set<VarId> assignedVars(const Tree& t) {
  std::set<VarId> assigned;
  forEachExpr(t, [&](const Expr& e) {
    if (const Expr* target = assignmentTarget(e); target && target->kind == ExprKind::VarRef)
      assigned.insert(target->var);
  });
  return assigned;
}

// ---- structural comparison, with i and j exchanged for the symmetry proof -------------------

inline bool commutes(BinaryOp op) {
  return op == BinaryOp::Add || op == BinaryOp::Mul || op == BinaryOp::Eq || op == BinaryOp::Ne ||
         op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor;
}

struct SwapCompare {
  VarId i, j;
  std::map<VarId, const Expr*> inlined;  // locals compared as their initializers
  VarId swapped(VarId v) const { return v == i ? j : v == j ? i : v; }

  const Expr& resolve(const Expr& e) const {
    const Expr* p = &e;
    for (unsigned depth = 0; depth < 64 && p->kind == ExprKind::VarRef; ++depth) {
      auto it = inlined.find(p->var);
      if (it == inlined.end()) break;
      p = it->second;
    }
    return *p;
  }

  bool expr(const Expr& x, const Expr& y) const {
    const Expr& a = resolve(x);
    const Expr& b = resolve(y);
    if (a.kind != b.kind || !(a.type == b.type) || a.operands.size() != b.operands.size()) return false;
    switch (a.kind) {
      case ExprKind::IntLiteral:
      case ExprKind::BoolLiteral: return a.intBits == b.intBits;
      case ExprKind::FloatLiteral: return a.floatValue == b.floatValue;
      case ExprKind::VarRef: return swapped(a.var) == b.var;
      case ExprKind::Call:
        if (a.callee != b.callee) return false;
        break;
      case ExprKind::MathCall:
        if (a.math != b.math) return false;
        break;
      case ExprKind::Unary:
        if (a.unaryOp != b.unaryOp) return false;
        break;
      case ExprKind::IncDec:
        if (a.incDecOp != b.incDecOp) return false;
        break;
      case ExprKind::CompoundAssign:
        if (a.binaryOp != b.binaryOp || a.computeType != b.computeType) return false;
        break;
      case ExprKind::Cast:
        if (a.explicitCast != b.explicitCast) return false;
        break;
      case ExprKind::Binary:
        if (a.binaryOp != b.binaryOp) return false;
        if (commutes(a.binaryOp) && expr(*a.operands[0], *b.operands[1]) && expr(*a.operands[1], *b.operands[0]))
          return true;
        break;
      default: break;
    }
    for (size_t k = 0; k < a.operands.size(); ++k) {
      if (!a.operands[k] || !b.operands[k]) {
        if (a.operands[k] || b.operands[k]) return false;
        continue;
      }
      if (!expr(*a.operands[k], *b.operands[k])) return false;
    }
    return true;
  }

  bool optExpr(const Expr* a, const Expr* b) const { return (!a && !b) || (a && b && expr(*a, *b)); }

  bool stmt(const Stmt& a, const Stmt& b) const {
    // A local compared as its initializer wherever it is used: its declaration is no operation.
    if (a.kind == StmtKind::Decl && b.kind == StmtKind::Decl && a.var == b.var && inlined.count(a.var)) return true;
    if (a.kind != b.kind || a.var != b.var || a.scoped != b.scoped || a.caseValue != b.caseValue ||
        a.arrayInitialized != b.arrayInitialized || a.inits.size() != b.inits.size() ||
        a.stmts.size() != b.stmts.size())
      return false;
    if (!optExpr(a.cond.get(), b.cond.get()) || !optExpr(a.expr.get(), b.expr.get())) return false;
    for (size_t k = 0; k < a.inits.size(); ++k)
      if (!optExpr(a.inits[k].get(), b.inits[k].get())) return false;
    const Stmt* ac[] = {a.init.get(), a.then.get(), a.otherwise.get(), a.body.get()};
    const Stmt* bc[] = {b.init.get(), b.then.get(), b.otherwise.get(), b.body.get()};
    for (int k = 0; k < 4; ++k) {
      if (!ac[k] != !bc[k]) return false;
      if (ac[k] && !stmt(*ac[k], *bc[k])) return false;
    }
    for (size_t k = 0; k < a.stmts.size(); ++k)
      if (!stmt(*a.stmts[k], *b.stmts[k])) return false;
    return true;
  }
};

}  // namespace culift::codegen
