// Helpers the lowering of value structs shares (lift_record.cpp, lift_record_decl.cpp): the
// expression under a struct value's wrappers, and the AST nodes the lowering builds.
#pragma once

#include <cstdint>
#include <vector>

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "culift/ast/module.hpp"

namespace culift::frontend::record {


inline StmtPtr makeStmt(StmtKind kind, SourceRange r) { return std::make_unique<Stmt>(kind, std::move(r)); }

// The struct-valued expression under what does not change its value: parentheses, temporaries,
// cleanups, qualification changes and casts to the struct's own type.
inline const clang::Expr* structOperand(const clang::Expr* e) {
  for (;;) {
    e = e->IgnoreParens();
    if (const auto* f = llvm::dyn_cast<clang::FullExpr>(e)) e = f->getSubExpr();
    else if (const auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto* d = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e)) e = d->getExpr();
    else if (const auto* d = llvm::dyn_cast<clang::CXXDefaultInitExpr>(e)) e = d->getExpr();
    else if (const auto* c = llvm::dyn_cast<clang::CastExpr>(e);
             c && (c->getCastKind() == clang::CK_NoOp || c->getCastKind() == clang::CK_LValueToRValue ||
                   c->getCastKind() == clang::CK_ConstructorConversion))
      e = c->getSubExpr();
    else return e;
  }
}

inline bool isThis(const clang::Expr* e) {
  e = e->IgnoreParenImpCasts();
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_Deref)
    e = u->getSubExpr()->IgnoreParenImpCasts();
  return llvm::isa<clang::CXXThisExpr>(e);
}

inline const clang::InitListExpr* semantic(const clang::InitListExpr* ile) {
  return ile->isSyntacticForm() && ile->getSemanticForm() ? ile->getSemanticForm() : ile;
}

inline const clang::CXXMethodDecl* memberFunction(const clang::FunctionDecl* fd) {
  const auto* m = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(fd);
  return m && !m->isStatic() && !m->getParent()->isLambda() ? m : nullptr;
}


inline ExprPtr refTo(const Function& fn, VarId id, const SourceRange& r) {
  auto out = std::make_unique<Expr>(ExprKind::VarRef, fn.vars[id].type, r);
  out->var = id;
  return out;
}

inline ExprPtr elementOf(const Function& fn, VarId array, std::uint64_t k, const SourceRange& r) {
  const Type t = fn.vars[array].type;
  auto index = std::make_unique<Expr>(ExprKind::IntLiteral,
                                      Type::value(t.extent <= 0x7fffffffu ? Scalar::I32 : Scalar::I64), r);
  index->intBits = k;
  auto out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(t.scalar), r);
  out->operands.push_back(refTo(fn, array, r));
  out->operands.push_back(std::move(index));
  return out;
}

inline ExprPtr intLiteral(Scalar s, std::uint64_t v, const SourceRange& r) {
  auto out = std::make_unique<Expr>(ExprKind::IntLiteral, Type::value(s), r);
  out->intBits = v;
  return out;
}

inline ExprPtr binaryNode(BinaryOp op, Scalar s, ExprPtr l, ExprPtr r) {
  SourceRange where = l->range;
  auto out = std::make_unique<Expr>(ExprKind::Binary, Type::value(s), std::move(where));
  out->binaryOp = op;
  out->operands.push_back(std::move(l));
  out->operands.push_back(std::move(r));
  return out;
}

inline ExprPtr assignment(ExprPtr target, ExprPtr value, const SourceRange& r) {
  auto out = std::make_unique<Expr>(ExprKind::Assign, target->type, r);
  out->operands.push_back(std::move(target));
  out->operands.push_back(std::move(value));
  return out;
}

// A comma expression over `items`, balanced so that long sequences stay shallow.
inline ExprPtr commaOf(std::vector<ExprPtr>& items, std::size_t begin, std::size_t end) {
  if (end - begin == 1) return std::move(items[begin]);
  const std::size_t mid = begin + (end - begin) / 2;
  ExprPtr first = commaOf(items, begin, mid);
  ExprPtr second = commaOf(items, mid, end);
  auto out = std::make_unique<Expr>(ExprKind::Comma, second->type, first->range);
  out->operands.push_back(std::move(first));
  out->operands.push_back(std::move(second));
  return out;
}

}  // namespace culift::frontend::record
