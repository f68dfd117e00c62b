// Value structs in declarations and statements: struct locals and their initialization,
// references to structs, local arrays of structs (one array per field) and range for over them,
// structured bindings, returns of a struct, struct-valued expression statements, and what runs
// before a function's body (copies of array fields passed by value, member initializers).
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "function_state.hpp"
#include "record_nodes.hpp"

namespace culift::frontend {
using namespace record;

StmtPtr Lifter::recordDecl(const clang::VarDecl* v) {
  const std::vector<std::string> names = std::move(fs_->leafBase);
  fs_->leafBase.clear();
  const std::string name = v->getNameAsString();
  const RecordLayout* layout = recordLayout(v->getType(), v->getLocation(), "local variable '" + name + "'");
  if (!layout) {
    fs_->rejectedVars.insert(v);
    return nullptr;
  }
  const SourceRange r = range(v->getSourceRange());
  StmtPtr group = makeStmt(StmtKind::Block, r);
  group->scoped = false;
  auto effectStmts = [&](std::vector<ExprPtr>& effects) { effectStatements(effects, group->stmts); };
  auto declare = [&](VarId id, LeafInit& init) { group->stmts.push_back(leafDecl(id, init, r)); };
  const clang::Expr* init = v->getInit();
  if (v->getType()->isReferenceType()) {
    std::optional<RecordValue> value = init ? recordValue(init) : std::nullopt;
    if (!value) {
      if (!init) error(v->getLocation(), "reference '" + name + "' is not bound to anything");
      fs_->rejectedVars.insert(v);
      return nullptr;
    }
    effectStmts(value->effects);
    std::vector<VarId> ids;
    if (value->addressable && allVariables(*value)) {  // another name for the same leaves
      for (const ExprPtr& leaf : value->leaves) ids.push_back(leaf->var);
    } else if (value->addressable) {  // an element of an array of structs: references to its leaves
      const bool constant = v->getType().getNonReferenceType().isConstQualified();
      ids = declareLeaves(*layout, name, v->getSourceRange(), false,
                          constant ? Binding::ConstReference : Binding::Reference, constant);
      for (std::size_t k = 0; k < ids.size(); ++k) {
        StmtPtr decl = makeStmt(StmtKind::Decl, r);
        decl->var = ids[k];
        decl->expr = std::move(value->leaves[k]);
        group->stmts.push_back(std::move(decl));
      }
    } else {  // bound to a temporary, whose life the reference extends: a local of its own
      ids = declareLeaves(*layout, name, v->getSourceRange(), false, Binding::Value, false);
      for (std::size_t k = 0; k < ids.size(); ++k) {
        LeafInit leaf;
        if (layout->leaves[k].type.isArray()) leaf.arraySource = std::move(value->leaves[k]);
        else leaf.scalar = std::move(value->leaves[k]);
        declare(ids[k], leaf);
      }
    }
    fs_->recordVars[v] = std::move(ids);
    return group;
  }
  std::vector<VarId> ids = declareLeaves(*layout, name, v->getSourceRange(), false, Binding::Value, false);
  for (std::size_t k = 0; k < ids.size() && k < names.size(); ++k) {
    fs_->usedNames.erase(fs_->fn.vars[ids[k]].name);
    fs_->fn.vars[ids[k]].name = freshName(names[k]);
  }
  std::vector<LeafInit> inits;
  // Default member initializers may read the fields before them: `this` is the new variable.
  const std::vector<VarId>* outerObject = fs_->objectLeaves;
  const RecordLayout* outerLayout = fs_->objectLayout;
  const std::size_t outerBase = fs_->objectBase;
  fs_->objectLeaves = &ids;
  fs_->objectLayout = layout;
  fs_->objectBase = 0;
  const int direct = init ? directInit(init, inits) : 1;
  fs_->objectLeaves = outerObject;
  fs_->objectLayout = outerLayout;
  fs_->objectBase = outerBase;
  if (direct < 0) {
    fs_->rejectedVars.insert(v);
    return nullptr;
  }
  if (direct > 0) {
    inits.resize(ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k) {
      effectStmts(inits[k].before);
      declare(ids[k], inits[k]);
    }
    fs_->recordVars[v] = std::move(ids);
    return group;
  }
  std::optional<RecordValue> value = recordValue(init, &ids);  // a call writes the new leaves directly
  if (!value) {
    fs_->rejectedVars.insert(v);
    return nullptr;
  }
  bool inPlace = !ids.empty();
  for (std::size_t k = 0; k < ids.size(); ++k)
    inPlace = inPlace && value->leaves[k]->kind == ExprKind::VarRef && value->leaves[k]->var == ids[k];
  if (inPlace) {
    LeafInit none;
    for (VarId id : ids) declare(id, none);
    effectStmts(value->effects);
  } else {
    effectStmts(value->effects);
    for (std::size_t k = 0; k < ids.size(); ++k) {
      LeafInit leaf;
      if (layout->leaves[k].type.isArray()) leaf.arraySource = std::move(value->leaves[k]);
      else leaf.scalar = std::move(value->leaves[k]);
      declare(ids[k], leaf);
    }
  }
  fs_->recordVars[v] = std::move(ids);
  return group;
}

StmtPtr Lifter::leafDecl(VarId id, LeafInit& init, const SourceRange& where) {
  const SourceRange r = where;  // `where` may be a variable's range, and copies add variables
  const Function& fn = fs_->fn;
  StmtPtr decl = makeStmt(StmtKind::Decl, r);
  decl->var = id;
  const Type t = fn.vars[id].type;
  if (t.isValue()) {
    decl->expr = std::move(init.scalar);
    return decl;
  }
  if (init.arraySource && t.extent > kUnrolledCopy) {  // a long array: declared, then copied by a loop
    StmtPtr group = makeStmt(StmtKind::Block, r);
    group->scoped = false;
    group->stmts.push_back(std::move(decl));
    group->stmts.push_back(copyLoop(id, init.arraySource->var, t.extent, r));
    return group;
  }
  if (init.arraySource) {
    decl->arrayInitialized = true;
    for (std::uint64_t k = 0; k < t.extent; ++k) decl->inits.push_back(elementOf(fn, init.arraySource->var, k, r));
    return decl;
  }
  decl->arrayInitialized = init.arrayInit;
  decl->inits = std::move(init.elements);
  return decl;
}

StmtPtr Lifter::structArrayDecl(const clang::VarDecl* v) {
  const std::string name = v->getNameAsString();
  const auto* at = llvm::dyn_cast_or_null<clang::ConstantArrayType>(ctx_.getAsArrayType(v->getType()));
  const clang::QualType element = at ? at->getElementType() : clang::QualType();
  const RecordLayout* layout = at ? recordLayout(element, v->getLocation(), "local array '" + name + "'") : nullptr;
  if (!layout) {
    if (!at)
      error(v->getLocation(), "variable-length array '" + name + "' is not supported",
            "give the array a constant size");
    fs_->rejectedVars.insert(v);
    return nullptr;
  }
  for (const RecordLeaf& leaf : layout->leaves)
    if (leaf.type.isArray()) {
      fs_->rejectedVars.insert(v);
      error(v->getLocation(),
            "local array '" + name + "' of structs with an array field ('" + leaf.path + "') is not supported",
            "use one array per field of the struct");
      return nullptr;
    }
  const std::uint64_t n = at->getSize().getZExtValue();
  const SourceRange r = range(v->getSourceRange());
  // One array per field: ps_x[n], ps_y[n] (a struct of arrays).
  std::vector<VarId> ids;
  for (const RecordLeaf& leaf : layout->leaves) {
    Var a;
    a.name = freshName(name + "_" + leaf.path);
    a.type = Type::array(leaf.type.scalar, n, element.isConstQualified());
    a.range = r;
    ids.push_back(static_cast<VarId>(fs_->fn.vars.size()));
    fs_->fn.vars.push_back(std::move(a));
  }
  // The elements' initial values, element by element: a brace list, default member
  // initializers, or nothing (each field's array left uninitialized).
  std::vector<std::vector<LeafInit>> elements;
  const clang::Expr* init = v->getInit() ? structOperand(v->getInit()) : nullptr;
  const auto* list = init ? llvm::dyn_cast<clang::InitListExpr>(init) : nullptr;
  if (list) list = semantic(list);
  bool zero = list != nullptr;
  if (const auto* construct = llvm::dyn_cast_or_null<clang::CXXConstructExpr>(init)) {
    if (construct->getConstructor()->isUserProvided()) {
      fs_->rejectedVars.insert(v);
      error(v->getLocation(), "local array '" + name + "' of structs with a constructor is not supported",
            "initialize the elements with a brace list of aggregates");
      return nullptr;
    }
    zero = construct->requiresZeroInitialization();
  } else if (init && !list) {
    fs_->rejectedVars.insert(v);
    error(init->getBeginLoc(), "array '" + name + "' must be initialized with a brace list: = {...}");
    return nullptr;
  }
  const clang::Expr* filler = list && list->hasArrayFiller() ? list->getArrayFiller() : nullptr;
  bool ok = true;
  bool any = false;  // whether any element has a value: else the arrays are left uninitialized
  for (std::uint64_t k = 0; k < n && ok; ++k) {
    std::vector<LeafInit> leaves;
    const clang::Expr* e = list && k < list->getNumInits() ? list->getInit(static_cast<unsigned>(k)) : filler;
    if (!e) {
      ok = defaultInit(element->getAsRecordDecl(), zero, v->getSourceRange(), leaves);
    } else if (const int direct = directInit(e, leaves); direct < 0) {
      ok = false;
    } else if (direct == 0) {
      std::optional<RecordValue> value = recordValue(e);
      if (!value) {
        ok = false;
        break;
      }
      for (std::size_t j = 0; j < value->leaves.size(); ++j) {
        LeafInit leaf;
        if (j == 0) leaf.before = std::move(value->effects);
        leaf.scalar = std::move(value->leaves[j]);
        leaves.push_back(std::move(leaf));
      }
    }
    for (const LeafInit& leaf : leaves) any = any || leaf.scalar;
    elements.push_back(std::move(leaves));
    if (!list && !any) break;  // every element alike, none with a value
  }
  if (!ok) {
    fs_->rejectedVars.insert(v);
    return nullptr;
  }
  StmtPtr group = makeStmt(StmtKind::Block, r);
  group->scoped = false;
  std::vector<ExprPtr> before;
  for (std::vector<LeafInit>& leaves : elements)
    for (LeafInit& leaf : leaves)
      for (ExprPtr& x : leaf.before) before.push_back(std::move(x));
  effectStatements(before, group->stmts);
  for (std::size_t j = 0; j < ids.size(); ++j) {
    StmtPtr decl = makeStmt(StmtKind::Decl, r);
    decl->var = ids[j];
    if (any || list) {
      decl->arrayInitialized = true;
      for (std::vector<LeafInit>& leaves : elements) {
        const Scalar s = fs_->fn.vars[ids[j]].type.scalar;
        ExprPtr value = j < leaves.size() && leaves[j].scalar ? convert(std::move(leaves[j].scalar), s)
                                                              : this->zero(s, v->getSourceRange());
        decl->inits.push_back(std::move(value));
      }
    }
    group->stmts.push_back(std::move(decl));
  }
  fs_->structArrays[v] = std::move(ids);
  return group;
}

StmtPtr Lifter::structArrayFor(const clang::CXXForRangeStmt* s, const clang::VarDecl* array) {
  const clang::VarDecl* element = s->getLoopVariable();
  const clang::QualType et = element->getType();
  const RecordLayout* layout = recordLayout(et.getNonReferenceType(), element->getLocation(),
                                            "loop variable '" + element->getNameAsString() + "'");
  if (!layout || !isUserRecord(et.getNonReferenceType())) {
    fs_->rejectedVars.insert(element);
    if (layout)
      error(element->getLocation(), "the loop variable of a loop over an array of structs must be the struct");
    return nullptr;
  }
  const std::vector<VarId> arrays = fs_->structArrays[array];
  const SourceRange r = range(s->getSourceRange());
  StmtPtr init = stmt(s->getInit());
  VarId k = kNone;
  // (The extent from the array's type: in a lambda the leaves are captured arrays, pointers.)
  const auto* records = ctx_.getAsConstantArrayType(array->getType().getNonReferenceType());
  StmtPtr loop = countingLoop(records ? records->getSize().getZExtValue() : fs_->fn.vars[arrays.front()].type.extent, r,
                              k);
  // The element: references to its leaves (for (P& p : ps), for (const P& p : ps)) or copies.
  const bool byRef = et->isReferenceType();
  const bool constant = et.getNonReferenceType().isConstQualified();
  const Binding binding = !byRef ? Binding::Value : constant ? Binding::ConstReference : Binding::Reference;
  StmtPtr body = makeStmt(StmtKind::Block, range(s->getBody()->getSourceRange()));
  std::vector<VarId> ids = declareLeaves(*layout, element->getNameAsString(), element->getSourceRange(), false, binding,
                                         constant);
  for (std::size_t j = 0; j < ids.size(); ++j) {
    auto item = std::make_unique<Expr>(ExprKind::Subscript, Type::value(fs_->fn.vars[arrays[j]].type.scalar), r);
    item->operands.push_back(refTo(fs_->fn, arrays[j], r));
    item->operands.push_back(refTo(fs_->fn, k, r));
    StmtPtr decl = makeStmt(StmtKind::Decl, range(element->getSourceRange()));
    decl->var = ids[j];
    decl->expr = std::move(item);
    body->stmts.push_back(std::move(decl));
  }
  fs_->recordVars[element] = std::move(ids);
  if (StmtPtr user = stmt(s->getBody())) {
    if (user->kind == StmtKind::Block && user->scoped)
      for (StmtPtr& x : user->stmts) body->stmts.push_back(std::move(x));
    else body->stmts.push_back(std::move(user));
  }
  loop->body = std::move(body);
  if (!init) return loop;
  StmtPtr block = makeStmt(StmtKind::Block, r);
  block->stmts.push_back(std::move(init));
  block->stmts.push_back(std::move(loop));
  return block;
}

StmtPtr Lifter::decompositionDecl(const clang::DecompositionDecl* d) {
  const clang::QualType t = d->getType().getNonReferenceType();
  if (isUserRecord(t)) {
    if (!d->getType()->isReferenceType()) {
      // By copy: the leaves are named after the bindings (auto [lo, hi] = f(x) declares lo and hi).
      const RecordLayout& layout = layoutOf(t->getAsRecordDecl());
      if (layout.problem.empty()) {
        auto binding = d->bindings().begin();
        for (const clang::FieldDecl* fd : t->getAsRecordDecl()->fields()) {
          if (binding == d->bindings().end()) break;
          const std::string name = (*binding++)->getNameAsString();
          fs_->usedNames.erase(name);
          auto [first, count] = layout.fields.at(fd);
          for (unsigned k = first; k < first + count; ++k) {
            const std::string& path = layout.leaves[k].path;
            fs_->leafBase.push_back(count == 1 && layout.leaves[k].type.isValue()
                                        ? name
                                        : name + path.substr(std::min(path.size(), fd->getNameAsString().size())));
          }
        }
      }
    }
    return recordDecl(d);
  }
  const auto* array = llvm::dyn_cast_or_null<clang::ConstantArrayType>(ctx_.getAsArrayType(t));
  const clang::Expr* init = d->getInit() ? d->getInit()->IgnoreImplicit() : nullptr;
  if (const auto* loop = llvm::dyn_cast_or_null<clang::ArrayInitLoopExpr>(init))
    init = loop->getCommonExpr()->getSourceExpr();
  const auto* ref = init ? llvm::dyn_cast<clang::DeclRefExpr>(init->IgnoreParenImpCasts()) : nullptr;
  const auto* source = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  auto found = source ? fs_->vars.find(source) : fs_->vars.end();
  if (!array || found == fs_->vars.end() || !fs_->fn.vars[found->second].type.isArray()) {
    fs_->rejectedVars.insert(d);
    if (source && fs_->rejectedVars.count(source)) return nullptr;
    error(d->getLocation(), "structured bindings of this type are not supported",
          "bind the fields of a struct or the elements of a local array");
    return nullptr;
  }
  if (d->getType()->isReferenceType()) {  // auto& [a, b] = arr: the elements themselves
    fs_->vars[d] = found->second;
    StmtPtr nothing = makeStmt(StmtKind::Block, range(d->getSourceRange()));
    nothing->scoped = false;
    return nothing;
  }
  // By copy: one local per binding, a copy of its element.
  StmtPtr group = makeStmt(StmtKind::Block, range(d->getSourceRange()));
  group->scoped = false;
  std::uint64_t k = 0;
  const Scalar s = fs_->fn.vars[found->second].type.scalar;
  for (const clang::BindingDecl* b : d->bindings()) {
    Var var;
    var.name = b->getNameAsString();
    var.type = Type::value(s);
    var.range = range(b->getSourceRange());
    const VarId id = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(var));
    fs_->bindingVars[b] = id;
    StmtPtr decl = makeStmt(StmtKind::Decl, range(d->getSourceRange()));
    decl->var = id;
    decl->expr = elementOf(fs_->fn, found->second, k++, range(d->getSourceRange()));
    group->stmts.push_back(std::move(decl));
  }
  return group;
}

StmtPtr Lifter::recordReturn(const clang::ReturnStmt* ret) {
  const SourceRange r = range(ret->getSourceRange());
  const clang::Expr* value = ret->getRetValue();
  if (fs_->returnsThis) {
    if (value && !isThis(value))
      error(value->getBeginLoc(), "'" + fs_->fn.name + "' returns a reference: only *this can be returned by reference",
            "return *this, or return the struct by value");
    return makeStmt(StmtKind::Return, r);
  }
  if (!value) return makeStmt(StmtKind::Return, r);
  std::optional<RecordValue> result = recordValue(value, &fs_->returnLeaves);
  if (!result) return nullptr;
  std::vector<ExprPtr> effects = std::move(result->effects);
  assignLeaves(fs_->returnLeaves, *result, effects, r);
  StmtPtr block = makeStmt(StmtKind::Block, r);
  block->scoped = false;
  for (ExprPtr& x : effects)  // a leaf the call wrote in place needs no copy
    if (x->kind == ExprKind::Assign && x->operands[1]->kind == ExprKind::VarRef &&
        x->operands[0]->kind == ExprKind::VarRef && x->operands[0]->var == x->operands[1]->var)
      x.reset();
  effectStatements(effects, block->stmts);
  block->stmts.push_back(makeStmt(StmtKind::Return, r));
  return block;
}

ExprPtr Lifter::recordEffects(const clang::Expr* e) {
  std::optional<RecordValue> value = recordValue(e);
  if (!value || value->effects.empty()) return nullptr;
  return commaOf(value->effects, 0, value->effects.size());
}

StmtPtr Lifter::recordExprStmt(const clang::Expr* e) {
  std::optional<RecordValue> value = recordValue(e);
  if (!value) return nullptr;
  const SourceRange r = range(e->getSourceRange());
  if (value->effects.empty()) return makeStmt(StmtKind::Null, r);
  StmtPtr block = makeStmt(StmtKind::Block, r);
  block->scoped = false;
  effectStatements(value->effects, block->stmts);
  if (block->stmts.size() == 1) return std::move(block->stmts.front());
  return block;
}


void Lifter::prologueOf(const clang::FunctionDecl* fd) {
  // An array field of a struct passed by value arrives as a pointer: the callee's copy is a
  // local array, so that writing it leaves the caller's struct alone.
  for (auto [param, leaf] : fs_->arrayCopies) {
    std::vector<VarId>& ids = fs_->recordVars[param];
    const VarId source = ids[leaf];
    const RecordLayout& layout = layoutOf(param->getType()->getAsRecordDecl());
    Var copy;
    copy.name = freshName(param->getNameAsString() + "_" + layout.leaves[leaf].path);
    copy.type = layout.leaves[leaf].type;
    copy.range = fs_->fn.vars[source].range;
    const VarId id = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(copy));
    LeafInit init;
    init.arraySource = refTo(fs_->fn, source, fs_->fn.vars[id].range);
    fs_->prologue.push_back(leafDecl(id, init, fs_->fn.vars[id].range));
    ids[leaf] = id;
  }
  const auto* ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(fd);
  if (!ctor || fs_->selfLeaves.size() != layoutOf(ctor->getParent()).leaves.size()) return;
  const RecordLayout& layout = layoutOf(ctor->getParent());
  for (const clang::CXXCtorInitializer* init : ctor->inits()) {
    if (!init->isMemberInitializer()) {
      error(init->getSourceLocation().isValid() ? init->getSourceLocation() : fd->getLocation(),
            init->isDelegatingInitializer() ? "delegating constructors are not supported"
                                            : "this constructor initializer is not supported",
            "initialize the fields in the constructor's member initializer list");
      continue;
    }
    const clang::FieldDecl* field = init->getMember();
    auto found = layout.fields.find(field);
    if (found == layout.fields.end()) continue;
    std::vector<LeafInit> inits;
    // A nested struct's default member initializers read its own fields: `this` is the
    // field's leaves of the object being constructed.
    const std::vector<VarId>* outerObject = fs_->objectLeaves;
    const std::size_t outerBase = fs_->objectBase;
    std::vector<VarId> fieldLeaves(fs_->selfLeaves.begin() + found->second.first,
                                   fs_->selfLeaves.begin() + found->second.first + found->second.second);
    if (isUserRecord(field->getType())) {
      fs_->objectLeaves = &fieldLeaves;
      fs_->objectBase = 0;
    }
    const bool lifted = fieldInit(field, init->getInit(), inits);
    fs_->objectLeaves = outerObject;
    fs_->objectBase = outerBase;
    if (!lifted) continue;
    const SourceRange r = range(init->getSourceRange());
    std::vector<ExprPtr> effects;
    for (unsigned k = 0; k < inits.size() && k < found->second.second; ++k) {
      LeafInit& leaf = inits[k];
      const VarId target = fs_->selfLeaves[found->second.first + k];
      for (ExprPtr& x : leaf.before) effects.push_back(std::move(x));
      const Type t = fs_->fn.vars[target].type;
      if (t.isValue()) {
        if (leaf.scalar) effects.push_back(assignment(refTo(fs_->fn, target, r), std::move(leaf.scalar), r));
      } else if (leaf.arraySource) {
        for (std::uint64_t e = 0; e < layout.leaves[found->second.first + k].type.extent; ++e)
          effects.push_back(
              assignment(elementOf(fs_->fn, target, e, r), elementOf(fs_->fn, leaf.arraySource->var, e, r), r));
      } else if (leaf.arrayInit) {
        const std::uint64_t n = layout.leaves[found->second.first + k].type.extent;
        for (std::uint64_t e = 0; e < n; ++e)
          effects.push_back(assignment(elementOf(fs_->fn, target, e, r),
                                       e < leaf.elements.size() ? std::move(leaf.elements[e])
                                                                : zero(t.scalar, init->getSourceRange()),
                                       r));
      }
    }
    effectStatements(effects, fs_->prologue);
  }
}


}  // namespace culift::frontend
