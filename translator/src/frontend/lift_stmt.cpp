// Statements: blocks, declarations, control flow and switch (case labels must be direct
// statements of the switch body, the one shape every backend can express).
#include "clang/AST/StmtCXX.h"
#include "lifter.hpp"

namespace culift::frontend {
namespace {
StmtPtr makeStmt(StmtKind kind, SourceRange r) { return std::make_unique<Stmt>(kind, std::move(r)); }
}  // namespace

StmtPtr Lifter::stmt(const clang::Stmt* s) {
  if (!s) return nullptr;
  // Statements nested without braces (`if (a) if (b) ...`, long else-if chains) escape Clang's
  // bracket limit; bounded here like expressions.
  const NestingLevel level(stmtDepth_);
  if (tooDeep(stmtDepth_, kMaxStmtDepth, stmtDepthReported_, s->getBeginLoc(), "statement",
              "move the inner statements into a function of their own"))
    return nullptr;
  const clang::SourceRange sr = s->getSourceRange();

  if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    StmtPtr out = makeStmt(StmtKind::Block, range(sr));
    for (const clang::Stmt* child : block->body())
      if (StmtPtr c = stmt(child)) out->stmts.push_back(std::move(c));
    return out;
  }
  if (const auto* decl = llvm::dyn_cast<clang::DeclStmt>(s)) return declStmt(decl);
  if (llvm::isa<clang::NullStmt>(s)) return makeStmt(StmtKind::Null, range(sr));
  if (const auto* ret = llvm::dyn_cast<clang::ReturnStmt>(s)) {
    StmtPtr out = makeStmt(StmtKind::Return, range(sr));
    const clang::Expr* value = returnTypeRejected_ ? nullptr : ret->getRetValue();
    if (value && value->getType()->isVoidType()) {
      // `return f();` in a void function: evaluate, then return.
      StmtPtr block = makeStmt(StmtKind::Block, range(sr));
      StmtPtr call = makeStmt(StmtKind::ExprStmt, range(value->getSourceRange()));
      call->expr = expr(value);
      block->stmts.push_back(std::move(call));
      block->stmts.push_back(std::move(out));
      return block;
    }
    if (value) out->expr = expr(value);
    return out;
  }
  if (const auto* ifs = llvm::dyn_cast<clang::IfStmt>(s)) {
    if (ifs->isConsteval()) {
      error(ifs->getIfLoc(), "'if consteval' is not supported");
      return nullptr;
    }
    StmtPtr init = stmt(ifs->getInit());
    StmtPtr condVar = ifs->getConditionVariableDeclStmt() ? stmt(ifs->getConditionVariableDeclStmt()) : nullptr;
    StmtPtr out = makeStmt(StmtKind::If, range(sr));
    out->cond = expr(ifs->getCond());
    out->then = stmt(ifs->getThen());
    out->otherwise = stmt(ifs->getElse());
    if (!init && !condVar) return out;
    StmtPtr block = makeStmt(StmtKind::Block, range(sr));
    if (init) block->stmts.push_back(std::move(init));
    if (condVar) block->stmts.push_back(std::move(condVar));
    block->stmts.push_back(std::move(out));
    return block;
  }
  if (const auto* loop = llvm::dyn_cast<clang::ForStmt>(s)) {
    if (loop->getConditionVariable()) {
      error(loop->getConditionVariable()->getLocation(), "a declaration in a for condition is not supported",
            "declare the variable before the loop");
      return nullptr;
    }
    StmtPtr out = makeStmt(StmtKind::For, range(sr));
    out->init = stmt(loop->getInit());
    out->cond = expr(loop->getCond());
    out->expr = expr(loop->getInc());
    out->body = stmt(loop->getBody());
    return out;
  }
  if (const auto* loop = llvm::dyn_cast<clang::WhileStmt>(s)) {
    if (loop->getConditionVariable()) {
      error(loop->getConditionVariable()->getLocation(), "a declaration in a while condition is not supported",
            "declare the variable before the loop");
      return nullptr;
    }
    StmtPtr out = makeStmt(StmtKind::While, range(sr));
    out->cond = expr(loop->getCond());
    out->body = stmt(loop->getBody());
    return out;
  }
  if (const auto* loop = llvm::dyn_cast<clang::DoStmt>(s)) {
    StmtPtr out = makeStmt(StmtKind::DoWhile, range(sr));
    out->body = stmt(loop->getBody());
    out->cond = expr(loop->getCond());
    return out;
  }
  if (llvm::isa<clang::BreakStmt>(s)) return makeStmt(StmtKind::Break, range(sr));
  if (llvm::isa<clang::ContinueStmt>(s)) return makeStmt(StmtKind::Continue, range(sr));
  if (const auto* sw = llvm::dyn_cast<clang::SwitchStmt>(s)) return switchStmt(sw);
  if (const auto* label = llvm::dyn_cast<clang::SwitchCase>(s)) {
    error(label->getKeywordLoc(), "a case label nested inside another statement is not supported",
          "put every case label directly in the switch body");
    return stmt(label->getSubStmt());
  }
  if (const auto* attributed = llvm::dyn_cast<clang::AttributedStmt>(s)) return stmt(attributed->getSubStmt());
  if (const auto* label = llvm::dyn_cast<clang::LabelStmt>(s)) {
    error(label->getIdentLoc(), "labels and goto are not supported", "use break, continue or a flag variable");
    return stmt(label->getSubStmt());
  }
  if (llvm::isa<clang::GotoStmt, clang::IndirectGotoStmt>(s)) {
    error(s->getBeginLoc(), "goto is not supported", "use break, continue or a flag variable");
    return nullptr;
  }
  if (llvm::isa<clang::CXXTryStmt>(s)) {
    error(s->getBeginLoc(), "try/catch is not supported: exceptions are not available on the device",
          "return a sentinel value, or write an error flag to an output array");
    return nullptr;
  }
  if (llvm::isa<clang::AsmStmt>(s)) {
    error(s->getBeginLoc(), "inline assembly is not supported");
    return nullptr;
  }
  if (llvm::isa<clang::CXXForRangeStmt>(s)) {
    error(s->getBeginLoc(), "range-based for loops are not supported",
          "use an index loop: for (int k = 0; k < n; ++k)");
    return nullptr;
  }
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) {
    // `(void)x;` discards a value: keep only what has an effect.
    const clang::Expr* inner = e->IgnoreParens();
    if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(inner);
        cast && cast->getCastKind() == clang::CK_ToVoid) {
      const clang::Expr* operand = cast->getSubExpr();
      ExprPtr value = expr(operand);
      if (!value || !operand->HasSideEffects(ctx_)) return makeStmt(StmtKind::Null, range(sr));
      StmtPtr out = makeStmt(StmtKind::ExprStmt, range(sr));
      out->expr = std::move(value);
      return out;
    }
    StmtPtr out = makeStmt(StmtKind::ExprStmt, range(sr));
    out->expr = expr(e);
    return out;
  }
  error(s->getBeginLoc(), std::string("unsupported statement '") + s->getStmtClassName() + "'");
  return nullptr;
}

StmtPtr Lifter::declStmt(const clang::DeclStmt* s) {
  std::vector<StmtPtr> decls;
  for (const clang::Decl* d : s->decls()) {
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d)) {
      if (StmtPtr out = varDecl(v)) decls.push_back(std::move(out));
      continue;
    }
    if (llvm::isa<clang::TypedefNameDecl, clang::UsingDecl, clang::UsingDirectiveDecl, clang::StaticAssertDecl,
                  clang::EnumDecl, clang::FunctionDecl, clang::UsingShadowDecl, clang::NamespaceAliasDecl>(d))
      continue;
    if (llvm::isa<clang::RecordDecl>(d)) {
      error(d->getLocation(), "local struct, class and union definitions are not supported",
            "use scalar variables or a fixed-size array");
      continue;
    }
    error(d->getLocation(), std::string("unsupported declaration '") + d->getDeclKindName() + "'");
  }
  if (decls.empty()) return makeStmt(StmtKind::Null, range(s->getSourceRange()));
  if (decls.size() == 1) return std::move(decls.front());
  StmtPtr group = makeStmt(StmtKind::Block, range(s->getSourceRange()));
  group->scoped = false;
  group->stmts = std::move(decls);
  return group;
}

StmtPtr Lifter::varDecl(const clang::VarDecl* v) {
  const std::string name = "'" + v->getNameAsString() + "'";
  if (v->isStaticLocal() || v->getTLSKind() != clang::VarDecl::TLS_None) {
    const bool constant = (v->isConstexpr() || v->getType().isConstQualified()) && scalarOf(v->getType());
    if (constant && v->getTLSKind() == clang::VarDecl::TLS_None) return nullptr;  // reads are folded
    rejectedVars_.insert(v);
    error(v->getLocation(), "static local variable " + name + " is not supported",
          "keep state in an array parameter, or make it a constexpr constant");
    return nullptr;
  }
  if (v->hasExternalStorage()) {
    rejectedVars_.insert(v);
    error(v->getLocation(), "extern variable " + name + " is not supported");
    return nullptr;
  }
  std::optional<Type> type = localType(v);
  if (!type) {
    rejectedVars_.insert(v);
    return nullptr;
  }
  Var var;
  var.name = v->getNameAsString();
  var.type = *type;
  var.range = range(v->getSourceRange());
  const VarId id = static_cast<VarId>(fn_->vars.size());
  fn_->vars.push_back(std::move(var));
  vars_[v] = id;

  StmtPtr out = makeStmt(StmtKind::Decl, range(v->getSourceRange()));
  out->var = id;
  const clang::Expr* init = v->getInit();
  if (!init) return out;
  if (type->isArray()) {
    const clang::Expr* list = init->IgnoreImplicit();
    if (const auto* ile = llvm::dyn_cast<clang::InitListExpr>(list)) {
      out->arrayInitialized = true;
      for (unsigned e = 0; e < ile->getNumInits(); ++e)
        if (ExprPtr element = expr(ile->getInit(e))) out->inits.push_back(convert(std::move(element), type->scalar));
      return out;
    }
    error(init->getBeginLoc(), "array " + name + " must be initialized with a brace list: = {...}");
    return out;
  }
  out->expr = expr(init);
  return out;
}

StmtPtr Lifter::switchStmt(const clang::SwitchStmt* s) {
  StmtPtr init = stmt(s->getInit());
  StmtPtr condVar = s->getConditionVariableDeclStmt() ? stmt(s->getConditionVariableDeclStmt()) : nullptr;
  StmtPtr out = makeStmt(StmtKind::Switch, range(s->getSourceRange()));
  out->cond = expr(s->getCond());
  const Scalar condType = out->cond ? out->cond->type.scalar : Scalar::I32;
  const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(s->getBody());
  if (!body) {
    error(s->getBody() ? s->getBody()->getBeginLoc() : s->getSwitchLoc(), "the body of a switch must be a block",
          "write switch (x) { case 1: ...; break; }");
  } else {
    StmtPtr block = makeStmt(StmtKind::Block, range(body->getSourceRange()));
    for (const clang::Stmt* child : body->body()) switchBodyItem(child, condType, block->stmts);
    out->body = std::move(block);
  }
  if (!init && !condVar) return out;
  StmtPtr block = makeStmt(StmtKind::Block, range(s->getSourceRange()));
  if (init) block->stmts.push_back(std::move(init));
  if (condVar) block->stmts.push_back(std::move(condVar));
  block->stmts.push_back(std::move(out));
  return block;
}

void Lifter::switchBodyItem(const clang::Stmt* s, Scalar condType, std::vector<StmtPtr>& out) {
  if (const auto* c = llvm::dyn_cast<clang::CaseStmt>(s)) {
    StmtPtr label = makeStmt(StmtKind::Case, range(clang::SourceRange(c->getKeywordLoc(), c->getColonLoc())));
    if (c->getRHS()) {
      error(c->getKeywordLoc(), "case ranges (case a ... b) are not supported", "write one case label per value");
    }
    clang::Expr::EvalResult value;
    if (c->getLHS() && c->getLHS()->EvaluateAsInt(value, ctx_)) {
      llvm::APSInt v = value.Val.getInt();
      const unsigned width = byteSize(condType) * 8;
      llvm::APSInt converted(v.extOrTrunc(width), !isSigned(condType));
      label->caseValue = isSigned(condType) ? static_cast<std::uint64_t>(converted.getSExtValue())
                                            : converted.getZExtValue();
    } else {
      error(c->getKeywordLoc(), "case label is not a constant");
    }
    out.push_back(std::move(label));
    switchBodyItem(c->getSubStmt(), condType, out);
    return;
  }
  if (const auto* d = llvm::dyn_cast<clang::DefaultStmt>(s)) {
    out.push_back(makeStmt(StmtKind::Default, range(clang::SourceRange(d->getKeywordLoc(), d->getColonLoc()))));
    switchBodyItem(d->getSubStmt(), condType, out);
    return;
  }
  if (StmtPtr lifted = stmt(s)) out.push_back(std::move(lifted));
}

}  // namespace culift::frontend
