// Statements: blocks, declarations, control flow and switch (case labels must be direct
// statements of the switch body, the one shape every backend can express).
#include "clang/AST/StmtCXX.h"
#include "function_state.hpp"

namespace culift::frontend {
namespace {
StmtPtr makeStmt(StmtKind kind, SourceRange r) { return std::make_unique<Stmt>(kind, std::move(r)); }
}  // namespace

StmtPtr Lifter::stmt(const clang::Stmt* s) {
  const std::size_t pending = fs_->pendingDecls.size();
  StmtPtr out = stmtNode(s);
  if (fs_->pendingDecls.size() == pending) return out;
  // Temporaries of struct values the statement computes: declared just before it.
  StmtPtr group = makeStmt(StmtKind::Block, out ? out->range : range(s->getSourceRange()));
  group->scoped = false;
  for (std::size_t k = pending; k < fs_->pendingDecls.size(); ++k)
    group->stmts.push_back(std::move(fs_->pendingDecls[k]));
  fs_->pendingDecls.resize(pending);
  if (out) group->stmts.push_back(std::move(out));
  return group;
}

StmtPtr Lifter::stmtNode(const clang::Stmt* s) {
  if (!s) return nullptr;
  // Statements nested without braces (`if (a) if (b) ...`, long else-if chains) escape Clang's
  // bracket limit; bounded here like expressions.
  const NestingLevel level(fs_->stmtDepth);
  if (tooDeep(fs_->stmtDepth, kMaxStmtDepth, fs_->stmtDepthReported, s->getBeginLoc(), "statement",
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
    if (fs_->resultParam != kNone) return arrayReturn(ret);
    if ((fs_->returnLayout || fs_->returnsThis) && !fs_->returnTypeRejected) return recordReturn(ret);
    StmtPtr out = makeStmt(StmtKind::Return, range(sr));
    const clang::Expr* value = fs_->returnTypeRejected ? nullptr : ret->getRetValue();
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
    StmtPtr out;
    if (ifs->isConstexpr()) {
      // if constexpr: only the branch the condition selects is code (the other one may not even
      // compile for this instance of a template).
      std::optional<const clang::Stmt*> taken = ifs->getNondiscardedCase(ctx_);
      if (!taken) {
        error(ifs->getIfLoc(), "the condition of this 'if constexpr' is not a constant");
        return nullptr;
      }
      out = *taken ? stmt(*taken) : makeStmt(StmtKind::Null, range(sr));
      if (!out) out = makeStmt(StmtKind::Null, range(sr));
    } else {
      out = makeStmt(StmtKind::If, range(sr));
      out->cond = expr(ifs->getCond());
      out->then = stmt(ifs->getThen());
      out->otherwise = stmt(ifs->getElse());
    }
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
    if (loop->getInc() && isUserRecord(loop->getInc()->getType())) out->expr = recordEffects(loop->getInc());
    else out->expr = expr(loop->getInc());
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
  if (const auto* loop = llvm::dyn_cast<clang::CXXForRangeStmt>(s)) return rangeFor(loop);
  if (const auto* e = llvm::dyn_cast<clang::Expr>(s)) {
    // `(void)x;` discards a value: keep only what has an effect.
    const clang::Expr* inner = e->IgnoreParens();
    if (const auto* cast = llvm::dyn_cast<clang::ExplicitCastExpr>(inner);
        cast && cast->getCastKind() == clang::CK_ToVoid && isUserRecord(cast->getSubExpr()->getType()))
      inner = cast->getSubExpr();
    if (isUserRecord(inner->getType())) return recordExprStmt(inner);  // v = w; a += b; f(v);
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
    if (arrayStatement(e, out)) return out;  // a.fill(v); b = a; on std::arrays
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
            "define the struct outside the function: value structs of namespace or class scope are supported");
      continue;
    }
    error(d->getLocation(), std::string("unsupported declaration '") + d->getDeclKindName() + "'");
  }
  if (decls.size() == 1) return std::move(decls.front());
  // A group of declarations; none at all (a typedef, a name for an array) prints nothing.
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
    if ((v->isConstexpr() || v->getType().isConstQualified()) && v->getTLSKind() == clang::VarDecl::TLS_None &&
        (ctx_.getAsArrayType(v->getType()) || stdArrayOf(v->getType()))) {
      // static constexpr float kTable[] = {...}: a local const array of the values.
      VarId id = kNone;
      StmtPtr table = constantTable(v, id);
      if (!table) fs_->rejectedVars.insert(v);
      return table;
    }
    fs_->rejectedVars.insert(v);
    error(v->getLocation(), "static local variable " + name + " is not supported",
          "keep state in an array parameter, or make it a constexpr constant");
    return nullptr;
  }
  if (v->hasExternalStorage()) {
    fs_->rejectedVars.insert(v);
    error(v->getLocation(), "extern variable " + name + " is not supported");
    return nullptr;
  }
  if (isClosureType(v->getType().getNonReferenceType())) return closureDecl(v);
  if (isStdPair(v->getType())) return minmaxDecl(v);
  if (const auto* d = llvm::dyn_cast<clang::DecompositionDecl>(v)) {
    if (StmtPtr out; decomposition(d, out)) return out;  // of an array
    return decompositionDecl(d);
  }
  if (isUserRecord(v->getType().getNonReferenceType())) return recordDecl(v);
  if (const clang::ArrayType* at = ctx_.getAsArrayType(v->getType()); at && isUserRecord(at->getElementType()))
    return structArrayDecl(v);
  if (v->getType()->isReferenceType() && scalarOf(v->getType().getNonReferenceType())) return referenceDecl(v);
  if (v->getType()->isReferenceType() && shapeOfVar(v)) {
    // A reference to a whole array (std::array<float, 4>& r = a): another name for the array.
    std::uint64_t n = 0;
    ExprPtr array = wholeArray(v->getInit(), n);
    if (!array || array->kind != ExprKind::VarRef) {
      fs_->rejectedVars.insert(v);
      return nullptr;
    }
    if (array->type.constElements && !v->getType().getNonReferenceType().isConstQualified()) {
      fs_->rejectedVars.insert(v);
      error(v->getLocation(), "a non-const reference to the const array '" + fs_->fn.vars[array->var].name + "'");
      return nullptr;
    }
    fs_->vars[v] = array->var;
    return nullptr;
  }
  std::optional<Type> type = localType(v);
  if (!type) {
    fs_->rejectedVars.insert(v);
    return nullptr;
  }
  Var var;
  var.name = v->getNameAsString();
  var.type = *type;
  var.range = range(v->getSourceRange());
  const VarId id = static_cast<VarId>(fs_->fn.vars.size());
  fs_->fn.vars.push_back(std::move(var));
  fs_->vars[v] = id;

  StmtPtr out = makeStmt(StmtKind::Decl, range(v->getSourceRange()));
  out->var = id;
  const clang::Expr* init = v->getInit();
  if (!init) return out;
  if (type->isArray()) return arrayDecl(v, id, *type, std::move(out));
  out->expr = expr(init);
  return out;
}

StmtPtr Lifter::referenceDecl(const clang::VarDecl* v) {
  const std::string name = v->getNameAsString();
  const Scalar s = *scalarOf(v->getType().getNonReferenceType());
  const clang::Expr* init = v->getInit();
  if (!init) {
    fs_->rejectedVars.insert(v);
    error(v->getLocation(), "reference '" + name + "' is not bound to anything");
    return nullptr;
  }
  const clang::Expr* bound = init->IgnoreParens();
  if (const auto* full = llvm::dyn_cast<clang::FullExpr>(bound)) bound = full->getSubExpr();
  bound = withoutNoOpCasts(bound);
  Var var;
  var.name = name;
  var.type = Type::value(s);
  var.range = range(v->getSourceRange());
  // A field of a temporary struct (`make(a).x`, `make(a).inner.y`): C++ extends the whole
  // temporary's life, and nothing else can name it either.
  const auto fieldOfTemporary = [](const clang::Expr* e) {
    while (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e)) {
      // A reference member (std::minmax(a, b).first) refers to what it was bound to.
      if (member->getMemberDecl()->getType()->isReferenceType()) return false;
      e = withoutNoOpCasts(member->getBase());
      if (llvm::isa<clang::MaterializeTemporaryExpr>(e)) return true;
    }
    return false;
  };
  ExprPtr value;
  if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(bound)) {
    // Bound to a temporary whose life the reference extends: nothing else can name it, so the
    // reference is a local of its own holding the value.
    value = convert(expr(temporary->getSubExpr()), s);
  } else if (fieldOfTemporary(bound)) {
    value = expr(bound);
    if (!value) {
      fs_->rejectedVars.insert(v);
      return nullptr;
    }
    value = convert(std::move(value), s);
  } else {
    value = expr(bound);
    if (!value) {
      fs_->rejectedVars.insert(v);
      return nullptr;
    }
    const bool bindable = (value->kind == ExprKind::VarRef && value->type.isValue()) ||
                          value->kind == ExprKind::Subscript;
    if (!bindable) {
      fs_->rejectedVars.insert(v);
      const auto* call = llvm::dyn_cast<clang::CallExpr>(bound);
      const clang::FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
      if (callee) {
        error(init->getBeginLoc(),
              "reference '" + name + "' is bound to the reference '" + callee->getQualifiedNameAsString() +
                  "' returns, which may refer to a temporary that dies at the end of the statement",
              "copy the value: declare '" + name + "' without &");
      } else {
        error(init->getBeginLoc(), "reference '" + name + "' must be bound to a variable or an array element",
              "declare '" + name + "' without & to copy the value");
      }
      return nullptr;
    }
    var.binding = v->getType().getNonReferenceType().isConstQualified() ? Binding::ConstReference : Binding::Reference;
  }
  const VarId id = static_cast<VarId>(fs_->fn.vars.size());
  fs_->fn.vars.push_back(std::move(var));
  fs_->vars[v] = id;
  StmtPtr out = makeStmt(StmtKind::Decl, range(v->getSourceRange()));
  out->var = id;
  out->expr = std::move(value);
  return out;
}

StmtPtr Lifter::rangeFor(const clang::CXXForRangeStmt* s) {
  const clang::SourceRange sr = s->getSourceRange();
  const clang::VarDecl* element = s->getLoopVariable();
  const clang::Expr* rangeInit = s->getRangeInit() ? s->getRangeInit()->IgnoreParenImpCasts() : nullptr;
  const auto* ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(rangeInit);
  const auto* arrayDecl = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (arrayDecl && fs_->rejectedVars.count(arrayDecl)) return nullptr;
  if (arrayDecl && fs_->structArrays.count(arrayDecl)) return structArrayFor(s, arrayDecl);
  std::optional<VarId> fieldArray;  // an array field of a struct: its leaf (a local array or a pointer)
  if (const auto* field = llvm::dyn_cast_or_null<clang::MemberExpr>(rangeInit)) {
    ExprPtr leaf = memberExpr(field);
    if (!leaf) return nullptr;
    if (leaf->kind == ExprKind::VarRef && !leaf->type.isValue()) fieldArray = leaf->var;
  }
  // A local array, a std::array (a reference parameter too), a constant table, or a row of a
  // multi-dimensional one that an outer range for binds.
  std::optional<RowView> view = !fieldArray && arrayDecl ? rangeView(arrayDecl, ref) : std::nullopt;
  if (!fieldArray && !view) {
    if (arrayDecl && fs_->rejectedVars.count(arrayDecl)) return nullptr;
    error(rangeInit ? rangeInit->getExprLoc() : s->getForLoc(),
          "a range-based for loop can only run over a local array",
          "write an index loop for anything else: for (int k = 0; k < n; ++k)");
    return nullptr;
  }
  VarId array;
  Type arrayType;
  bool overRows = false;
  if (fieldArray) {
    array = *fieldArray;
    arrayType = fs_->fn.vars[array].type;
    if (const auto* at = llvm::dyn_cast_or_null<clang::ConstantArrayType>(ctx_.getAsArrayType(rangeInit->getType())))
      arrayType = Type::array(arrayType.scalar, at->getSize().getZExtValue(), arrayType.constElements);
    // The field's leaf seen as a 1-D array of its extent.
    RowView leaf;
    leaf.array = array;
    leaf.shape = ArrayShape{arrayType.scalar, {arrayType.extent}, arrayType.constElements};
    leaf.indexType = arrayType.extent <= 0x7fffffffu ? Scalar::I32 : Scalar::I64;
    view = std::move(leaf);
  } else {
    array = view->array;
    arrayType = Type::array(view->shape.scalar, view->shape.dims[0], view->shape.constElements);
    overRows = view->shape.dims.size() > 1;
  }
  if (overRows && !element->getType()->isReferenceType()) {
    fs_->rejectedVars.insert(element);
    error(element->getLocation(),
          "a copy of a row of a multi-dimensional array is not supported: bind the row by reference",
          "for (const auto& " + element->getNameAsString() + " : ...)");
    return nullptr;
  }
  StmtPtr init = stmt(s->getInit());  // C++20: for (init; element : range)

  // for (culift_k = 0; culift_k < N; ++culift_k) { element = array[culift_k]; body }
  const Scalar indexType = arrayType.extent <= 0x7fffffffu ? Scalar::I32 : Scalar::I64;
  Var counter;
  // Inside the rows an outer range for binds, the counter is named after its depth: the
  // elements it reaches name the outer counters too.
  counter.name = fs_->rowViews.empty() ? std::string("culift_k") : "culift_k" + std::to_string(fs_->rowViews.size());
  counter.type = Type::value(indexType);
  counter.range = range(sr);
  const VarId k = static_cast<VarId>(fs_->fn.vars.size());
  fs_->fn.vars.push_back(std::move(counter));
  auto counterRef = [&] { return varRef(k, s->getColonLoc()); };
  auto literal = [&](std::uint64_t v) {
    auto out = std::make_unique<Expr>(ExprKind::IntLiteral, Type::value(indexType), range(sr));
    out->intBits = v;
    return out;
  };

  StmtPtr loop = makeStmt(StmtKind::For, range(sr));
  loop->init = makeStmt(StmtKind::Decl, range(sr));
  loop->init->var = k;
  loop->init->expr = literal(0);
  loop->cond = std::make_unique<Expr>(ExprKind::Binary, Type::value(Scalar::Bool), range(sr));
  loop->cond->binaryOp = BinaryOp::Lt;
  loop->cond->operands.push_back(counterRef());
  loop->cond->operands.push_back(literal(arrayType.extent));
  loop->expr = std::make_unique<Expr>(ExprKind::IncDec, Type::value(indexType), range(sr));
  loop->expr->incDecOp = IncDecOp::PreInc;
  loop->expr->operands.push_back(counterRef());

  if (overRows) {
    // The element is a row: its elements are the array's at counter * (elements per row).
    RowView row = *view;
    row.shape.dims.erase(row.shape.dims.begin());
    row.terms.emplace_back(k, row.shape.elements());
    fs_->rowViews[element] = row;
    StmtPtr body = stmt(s->getBody());
    fs_->rowViews.erase(element);
    loop->body = body ? std::move(body) : makeStmt(StmtKind::Null, range(sr));
    if (!init) return loop;
    StmtPtr block = makeStmt(StmtKind::Block, range(sr));
    block->stmts.push_back(std::move(init));
    block->stmts.push_back(std::move(loop));
    return block;
  }

  // The element: a reference to array[culift_k] (for (float& v : a)), or a copy of it.
  StmtPtr elementDecl;
  const clang::QualType elementType = element->getType();
  std::optional<Scalar> s0 = scalarOf(elementType.getNonReferenceType());
  if (!s0) {
    fs_->rejectedVars.insert(element);
    error(element->getLocation(),
          "loop variable '" + element->getNameAsString() + "' has unsupported type " + whyUnsupported(elementType));
    return nullptr;
  }
  Var var;
  var.name = element->getNameAsString();
  var.type = Type::value(*s0);
  var.range = range(element->getSourceRange());
  auto item = std::make_unique<Expr>(ExprKind::Subscript, Type::value(arrayType.scalar),
                                     range(rangeInit->getSourceRange()));
  item->operands.push_back(varRef(array, rangeInit->getSourceRange()));
  if (view->terms.empty()) {
    item->operands.push_back(counterRef());
  } else {
    // An element of a row an outer range for binds: the row's offset plus the counter.
    auto index = std::make_unique<Expr>(ExprKind::Binary, Type::value(view->indexType), range(sr));
    index->binaryOp = BinaryOp::Add;
    index->operands.push_back(rowOffset(*view, range(sr)));
    index->operands.push_back(convert(counterRef(), view->indexType));
    item->operands.push_back(std::move(index));
  }
  if (elementType->isReferenceType() && *s0 == arrayType.scalar) {
    var.binding = elementType.getNonReferenceType().isConstQualified() ? Binding::ConstReference : Binding::Reference;
    elementDecl = makeStmt(StmtKind::Decl, range(element->getSourceRange()));
    elementDecl->expr = std::move(item);
  } else {
    elementDecl = makeStmt(StmtKind::Decl, range(element->getSourceRange()));
    elementDecl->expr = convert(std::move(item), *s0);
  }
  const VarId id = static_cast<VarId>(fs_->fn.vars.size());
  fs_->fn.vars.push_back(std::move(var));
  fs_->vars[element] = id;
  elementDecl->var = id;

  StmtPtr body = makeStmt(StmtKind::Block, range(s->getBody()->getSourceRange()));
  body->stmts.push_back(std::move(elementDecl));
  if (StmtPtr user = stmt(s->getBody())) {
    if (user->kind == StmtKind::Block && user->scoped)
      for (StmtPtr& x : user->stmts) body->stmts.push_back(std::move(x));
    else body->stmts.push_back(std::move(user));
  }
  loop->body = std::move(body);
  if (!init) return loop;
  StmtPtr block = makeStmt(StmtKind::Block, range(sr));
  block->stmts.push_back(std::move(init));
  block->stmts.push_back(std::move(loop));
  return block;
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
