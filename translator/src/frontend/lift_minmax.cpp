// std::min and std::max of an initializer list, and std::minmax: lowered to the two-operand
// std::min/std::max nodes (MathFn::Min, MathFn::Max), so no backend knows them. The lowering
// makes exactly the comparisons libstdc++ makes, in its order, which decides the result where a
// NaN breaks the strict weak order the standard asks of the elements:
//   std::min(il)    min_element, a left fold: m = x0; m = (xk < m) ? xk : m     = std::min(m, xk)
//   std::max(il)    max_element, a left fold: m = x0; m = (m < xk) ? xk : m     = std::max(m, xk)
//   std::minmax(a, b) = (b < a) ? (b, a) : (a, b): first std::min(a, b), second std::max(b, a)
//   std::minmax(il) minmax_element, elements taken in pairs (first smallest, last largest).
// Every element is evaluated once, in order: into a temporary of its own where one has side
// effects (then all are), or where the lowering reads it more than once and it is not a
// variable or a literal.
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "function_state.hpp"
#include "record_nodes.hpp"

namespace culift::frontend {
using namespace record;
namespace {

// The elements of an initializer-list argument (std::min({a, b, c})), or null.
const clang::InitListExpr* initListOf(const clang::Expr* arg) {
  const auto* il = llvm::dyn_cast<clang::CXXStdInitializerListExpr>(arg->IgnoreImplicit());
  if (!il) return nullptr;
  const auto* list = llvm::dyn_cast<clang::InitListExpr>(il->getSubExpr()->IgnoreImplicit());
  return list ? semantic(list) : nullptr;
}

}  // namespace

bool Lifter::isInitializerList(const clang::Expr* arg) {
  const clang::CXXRecordDecl* rd = arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->isInStdNamespace() && rd->getDeclName().isIdentifier() && rd->getName() == "initializer_list";
}

namespace {

bool isComparator(const clang::Expr* arg) {
  const clang::QualType t = arg->getType().getNonReferenceType();
  return t->isRecordType() || t->isFunctionPointerType() || t->isFunctionType() || t->isMemberPointerType();
}

ExprPtr minMaxNode(MathFn fn, ExprPtr a, ExprPtr b) {
  SourceRange r = a->range;
  auto out = std::make_unique<Expr>(ExprKind::MathCall, Type::value(a->type.scalar), std::move(r));
  out->math = fn;
  out->operands.push_back(std::move(a));
  out->operands.push_back(std::move(b));
  return out;
}

// A variable (a scalar, not an array), a literal, or a conversion of one: read twice, it gives
// the same value and does nothing else.
bool reusable(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLiteral:
    case ExprKind::FloatLiteral:
    case ExprKind::BoolLiteral: return true;
    case ExprKind::VarRef: return e.type.isValue();
    case ExprKind::Cast: return reusable(*e.operands[0]);
    default: return false;
  }
}

// `b < a` as C++ computes it: operands narrower than int promoted.
ExprPtr lessThan(ExprPtr b, ExprPtr a) {
  const Scalar t = a->type.scalar;
  const Scalar promoted = t == Scalar::Bool || byteSize(t) < 4 ? Scalar::I32 : t;
  auto widen = [&](ExprPtr e) -> ExprPtr {
    if (e->type.scalar == promoted) return e;
    SourceRange r = e->range;
    auto cast = std::make_unique<Expr>(ExprKind::Cast, Type::value(promoted), std::move(r));
    cast->operands.push_back(std::move(e));
    return cast;
  };
  return binaryNode(BinaryOp::Lt, Scalar::Bool, widen(std::move(b)), widen(std::move(a)));
}

ExprPtr choose(ExprPtr cond, ExprPtr yes, ExprPtr no) {
  SourceRange r = yes->range;
  auto out = std::make_unique<Expr>(ExprKind::Conditional, Type::value(yes->type.scalar), std::move(r));
  out->operands.push_back(std::move(cond));
  out->operands.push_back(std::move(yes));
  out->operands.push_back(std::move(no));
  return out;
}

const char* kComparatorHint =
    "leave the comparator out where it is operator<, or write the comparison: comp(b, a) ? b : a";
const char* kPairHint =
    "store it in a local (auto [lo, hi] = std::minmax({a, b, c}); or auto p = std::minmax(a, b);) and read its "
    "elements, or use std::min and std::max";

}  // namespace

bool Lifter::isMinmaxCall(const clang::Expr* e) const {
  const auto* call = llvm::dyn_cast<clang::CallExpr>(e);
  const clang::FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
  return callee && callee->isInStdNamespace() && callee->getDeclName().isIdentifier() && callee->getName() == "minmax";
}

ExprPtr Lifter::elementTemporary(Scalar s, const SourceRange& r, const std::string& base) {
  Var temp;
  temp.name = freshName(base);
  temp.type = Type::value(s);
  temp.range = r;
  const VarId id = static_cast<VarId>(fs_->fn.vars.size());
  fs_->fn.vars.push_back(std::move(temp));
  StmtPtr decl = makeStmt(StmtKind::Decl, r);
  decl->var = id;
  fs_->pendingDecls.push_back(std::move(decl));
  return refTo(fs_->fn, id, r);
}

bool Lifter::minMaxOperands(const clang::CallExpr* e, const std::string& spelled, bool reused,
                            std::vector<ExprPtr>& effects, std::vector<ExprPtr>& out) {
  const clang::SourceLocation where = e->getBeginLoc();
  std::vector<const clang::Expr*> items;
  const clang::InitListExpr* list = e->getNumArgs() > 0 ? initListOf(e->getArg(0)) : nullptr;
  if (!list && e->getNumArgs() > 0 && isInitializerList(e->getArg(0))) {
    // `{}`: an empty std::initializer_list (or one culift cannot see the elements of).
    error(where, "'" + spelled + "' of an empty initializer list is undefined behaviour",
          "give the list at least one element");
    return false;
  }
  if (list) {
    if (e->getNumArgs() > 1 && isComparator(e->getArg(1))) {
      error(where, "'" + spelled + "' with a comparator is not supported", kComparatorHint);
      return false;
    }
    if (list->getNumInits() == 0) {
      error(where, "'" + spelled + "' of an empty initializer list is undefined behaviour",
            "give the list at least one element");
      return false;
    }
    for (const clang::Expr* init : list->inits()) items.push_back(init);
  } else {
    if (e->getNumArgs() == 3 && isComparator(e->getArg(2))) {
      error(where, "'" + spelled + "' with a comparator is not supported", kComparatorHint);
      return false;
    }
    for (const clang::Expr* arg : e->arguments()) items.push_back(arg);
  }
  // T: the initializer list's element type, or the type both arguments are references to.
  const clang::FunctionDecl* callee = e->getDirectCallee();
  const clang::QualType type = list ? list->getType()->getAsArrayTypeUnsafe()->getElementType()
                               : callee && callee->getNumParams() > 0
                                   ? callee->getParamDecl(0)->getType().getNonReferenceType()
                                   : e->getArg(0)->getType().getNonReferenceType();
  std::optional<Scalar> t = valueType(type, where);
  if (!t) return false;
  if (*t == Scalar::Bool) {
    error(where, "'" + spelled + "' of bool is not supported", "use && for the smallest and || for the largest");
    return false;
  }
  bool ok = true;
  bool effectful = false;
  for (const clang::Expr* item : items) {
    effectful = effectful || item->HasSideEffects(ctx_);
    ExprPtr value = expr(item);
    if (value && !value->type.isValue()) {
      error(item->getExprLoc(), "an array cannot be an argument of '" + spelled + "'", "index the array: x[i]");
      value = nullptr;
    }
    ok = ok && value;
    if (value) out.push_back(convert(std::move(value), *t));
  }
  if (!ok) return false;
  for (ExprPtr& value : out) {
    if (!effectful && (!reused || reusable(*value))) continue;
    ExprPtr temp = elementTemporary(*t, value->range, "tmp_arg");
    effects.push_back(assignment(cloneLvalue(*temp), std::move(value), temp->range));
    value = std::move(temp);
  }
  return true;
}

ExprPtr Lifter::minMaxList(const clang::CallExpr* e, MathFn fn, const std::string& spelled) {
  std::vector<ExprPtr> effects, items;
  if (!minMaxOperands(e, spelled, false, effects, items)) return nullptr;
  // A left fold: std::min(m, x) and std::max(m, x) are min_element's and max_element's steps.
  ExprPtr m = std::move(items.front());
  for (std::size_t k = 1; k < items.size(); ++k) m = minMaxNode(fn, std::move(m), std::move(items[k]));
  m->range = range(e->getSourceRange());
  return sequence(std::move(effects), std::move(m));
}

std::optional<Lifter::MinmaxValue> Lifter::minmaxValue(const clang::CallExpr* e) {
  const std::string spelled = e->getDirectCallee()->getQualifiedNameAsString();
  MinmaxValue out;
  std::vector<ExprPtr> x;
  if (!minMaxOperands(e, spelled, true, out.effects, x)) return std::nullopt;
  const SourceRange r = range(e->getSourceRange());
  auto copy = [](const ExprPtr& v) { return cloneLvalue(*v); };
  if (x.size() == 1) {
    out.first = copy(x[0]);
    out.second = copy(x[0]);
    return out;
  }
  // minmax_element: the first two in order, then each following pair compared with itself
  // first, its smaller one with the smallest so far and its larger one with the largest.
  //   if (x1 < x0) lo = x1, hi = x0; else lo = x0, hi = x1;  lo = std::min(x0, x1), hi = std::max(x1, x0)
  //   pair (p, q): if (q < p) { if (q < lo) lo = q; if (!(p < hi)) hi = p; }
  //                else       { if (p < lo) lo = p; if (!(q < hi)) hi = q; }
  //     lo = std::min(lo, std::min(p, q)), hi = std::max(std::max(q, p), hi)
  //   a last one z: if (z < lo) lo = z; else if (!(z < hi)) hi = z;
  //     hi = (z < lo) ? hi : std::max(z, hi), then lo = std::min(lo, z)
  ExprPtr lo = minMaxNode(MathFn::Min, copy(x[0]), copy(x[1]));
  ExprPtr hi = minMaxNode(MathFn::Max, copy(x[1]), copy(x[0]));
  std::size_t k = 2;
  for (; k + 1 < x.size(); k += 2) {
    lo = minMaxNode(MathFn::Min, std::move(lo), minMaxNode(MathFn::Min, copy(x[k]), copy(x[k + 1])));
    hi = minMaxNode(MathFn::Max, minMaxNode(MathFn::Max, copy(x[k + 1]), copy(x[k])), std::move(hi));
  }
  if (k < x.size()) {
    ExprPtr loVar = elementTemporary(lo->type.scalar, r, "minmax_lo");
    out.effects.push_back(assignment(copy(loVar), std::move(lo), r));
    ExprPtr hiVar = elementTemporary(hi->type.scalar, r, "minmax_hi");
    out.effects.push_back(assignment(copy(hiVar), std::move(hi), r));
    const ExprPtr& z = x[k];
    hi = choose(lessThan(copy(z), copy(loVar)), copy(hiVar), minMaxNode(MathFn::Max, copy(z), copy(hiVar)));
    lo = minMaxNode(MathFn::Min, copy(loVar), copy(z));
  }
  lo->range = r;
  hi->range = r;
  out.first = std::move(lo);
  out.second = std::move(hi);
  return out;
}

bool Lifter::isStdPair(clang::QualType t) {
  const clang::CXXRecordDecl* rd = t.isNull() ? nullptr : t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->isInStdNamespace() && rd->getDeclName().isIdentifier() && rd->getName() == "pair";
}

ExprPtr Lifter::pairElement(const MinmaxPair& pair, unsigned k, const SourceRange& r) {
  if (pair.swapped == kNone) return refTo(fs_->fn, k == 0 ? pair.first : pair.second, r);
  // References to the arguments: first is b where b < a was true at the call, second the other.
  const Expr& a = *pair.a;
  const Expr& b = *pair.b;
  ExprPtr out = choose(refTo(fs_->fn, pair.swapped, r), cloneLvalue(k == 0 ? b : a), cloneLvalue(k == 0 ? a : b));
  out->range = r;
  return out;
}

StmtPtr Lifter::minmaxDecl(const clang::VarDecl* v) {
  const clang::SourceLocation where = v->getLocation();
  const clang::QualType pairType = v->getType().getNonReferenceType();
  const auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(pairType->getAsCXXRecordDecl());
  const clang::Expr* init = v->getInit() ? structOperand(v->getInit()) : nullptr;
  if (const auto* construct = llvm::dyn_cast_or_null<clang::CXXConstructExpr>(init);
      construct && construct->getNumArgs() == 1)
    init = structOperand(construct->getArg(0));  // a copy, or a conversion to other element types
  const auto* call = init && isMinmaxCall(init) ? llvm::cast<clang::CallExpr>(init) : nullptr;
  const auto* returned = call ? llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
                                    call->getType()->getAsCXXRecordDecl())
                              : nullptr;
  // A copy of a pair a local holds.
  const auto* sourceRef = init ? llvm::dyn_cast<clang::DeclRefExpr>(init) : nullptr;
  if (sourceRef && fs_->rejectedVars.count(llvm::dyn_cast<clang::VarDecl>(sourceRef->getDecl()))) {
    fs_->rejectedVars.insert(v);
    return nullptr;
  }
  auto source = sourceRef ? fs_->minmaxPairs.find(sourceRef->getDecl()) : fs_->minmaxPairs.end();
  if (!spec || (!returned && source == fs_->minmaxPairs.end()) || spec->getTemplateArgs().size() != 2) {
    fs_->rejectedVars.insert(v);
    error(where, "a std::pair is supported only as the result of std::minmax",
          "use a value struct of your own: struct Range { float lo, hi; };");
    return nullptr;
  }
  const clang::QualType elementTypes[2] = {spec->getTemplateArgs()[0].getAsType(),
                                           spec->getTemplateArgs()[1].getAsType()};
  const bool holdsReferences = elementTypes[0]->isReferenceType();
  const bool returnsReferences = returned ? returned->getTemplateArgs()[0].getAsType()->isReferenceType()
                                          : source->second.swapped != kNone;
  const SourceRange r = range(v->getSourceRange());
  StmtPtr group = makeStmt(StmtKind::Block, r);
  group->scoped = false;
  const auto* decomposition = llvm::dyn_cast<clang::DecompositionDecl>(v);
  std::string names[2] = {v->getNameAsString() + "_first", v->getNameAsString() + "_second"};
  if (decomposition) {
    unsigned k = 0;
    for (const clang::BindingDecl* b : decomposition->bindings())
      if (k < 2) {
        names[k] = b->getNameAsString();
        fs_->usedNames.erase(names[k++]);
      }
  }
  MinmaxPair pair;
  auto declare = [&](const std::string& name, Scalar s, ExprPtr value) {
    Var var;
    var.name = freshName(name);
    var.type = Type::value(s);
    var.range = r;
    const VarId id = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(var));
    StmtPtr decl = makeStmt(StmtKind::Decl, r);
    decl->var = id;
    decl->expr = convert(std::move(value), s);
    group->stmts.push_back(std::move(decl));
    return id;
  };

  if (holdsReferences && !returnsReferences) {
    fs_->rejectedVars.insert(v);
    error(where,
          "the pair of references '" + v->getNameAsString() +
              "' refers to the elements of a temporary that ends with the statement",
          "hold the values: auto p = std::minmax({...});");
    return nullptr;
  }
  if (source != fs_->minmaxPairs.end()) {
    const SourceRange at = range(sourceRef->getSourceRange());
    if (holdsReferences) {  // the same references
      pair.swapped = source->second.swapped;
      pair.a = cloneLvalue(*source->second.a);
      pair.b = cloneLvalue(*source->second.b);
    } else {
      std::optional<Scalar> s0 = valueType(elementTypes[0].getNonReferenceType(), where);
      std::optional<Scalar> s1 = valueType(elementTypes[1].getNonReferenceType(), where);
      if (!s0 || !s1) {
        fs_->rejectedVars.insert(v);
        return nullptr;
      }
      ExprPtr first = pairElement(source->second, 0, at);
      ExprPtr second = pairElement(source->second, 1, at);
      pair.first = declare(names[0], *s0, std::move(first));
      pair.second = declare(names[1], *s1, std::move(second));
    }
  } else if (!holdsReferences) {
    // Values: the two elements, computed once, converted to the pair's element types.
    std::optional<Scalar> s0 = valueType(elementTypes[0].getNonReferenceType(), where);
    std::optional<Scalar> s1 = valueType(elementTypes[1].getNonReferenceType(), where);
    std::optional<MinmaxValue> value = s0 && s1 ? minmaxValue(call) : std::nullopt;
    if (!value) {
      fs_->rejectedVars.insert(v);
      return nullptr;
    }
    effectStatements(value->effects, group->stmts);
    pair.first = declare(names[0], *s0, std::move(value->first));
    pair.second = declare(names[1], *s1, std::move(value->second));
  } else {
    // References to the two arguments (std::minmax(a, b) held as it is returned): which one is
    // first is decided here, by b < a; reading an element reads the argument as it is then.
    const std::string spelled = call->getDirectCallee()->getQualifiedNameAsString();
    if (call->getNumArgs() == 3 && isComparator(call->getArg(2))) {
      fs_->rejectedVars.insert(v);
      error(call->getBeginLoc(), "'" + spelled + "' with a comparator is not supported", kComparatorHint);
      return nullptr;
    }
    std::optional<Scalar> t = valueType(call->getArg(0)->getType().getNonReferenceType(), where);
    bool ok = t && *t != Scalar::Bool && call->getNumArgs() == 2;
    if (t && *t == Scalar::Bool)
      error(call->getBeginLoc(), "'" + spelled + "' of bool is not supported",
            "use && for the smallest and || for the largest");
    std::vector<ExprPtr> effects;
    ExprPtr places[2];
    for (unsigned k = 0; ok && k < 2; ++k) {
      const clang::Expr* arg = withoutNoOpCasts(call->getArg(k));
      if (llvm::isa<clang::MaterializeTemporaryExpr>(arg)) {
        error(arg->getExprLoc(),
              "'" + v->getNameAsString() + "' holds references to the arguments of '" + spelled +
                  "', and this one is a temporary that ends with the statement",
              "hold the values instead: auto p = std::minmax({a, b});");
        ok = false;
        break;
      }
      ExprPtr place = expr(arg);
      if (!place) {
        ok = false;
        break;
      }
      if (place->kind == ExprKind::Subscript && place->operands[1]->kind != ExprKind::IntLiteral) {
        // The element the argument names now, not where its index points later.
        ExprPtr index = std::move(place->operands[1]);
        ExprPtr temp = elementTemporary(index->type.scalar, index->range, "tmp_index");
        effects.push_back(assignment(cloneLvalue(*temp), std::move(index), temp->range));
        place->operands[1] = std::move(temp);
      } else if (place->kind != ExprKind::Subscript && !(place->kind == ExprKind::VarRef && place->type.isValue())) {
        error(arg->getExprLoc(),
              "'" + v->getNameAsString() + "' holds references to the arguments of '" + spelled +
                  "': they must be variables or array elements",
              "hold the values instead: auto p = std::minmax({a, b});");
        ok = false;
        break;
      }
      places[k] = std::move(place);
    }
    if (!ok) {
      fs_->rejectedVars.insert(v);
      return nullptr;
    }
    effectStatements(effects, group->stmts);
    pair.swapped = declare((decomposition ? std::string("minmax") : v->getNameAsString()) + "_swapped", Scalar::Bool,
                           lessThan(cloneLvalue(*places[1]), cloneLvalue(*places[0])));
    pair.a = std::move(places[0]);
    pair.b = std::move(places[1]);
  }
  if (decomposition) {
    unsigned k = 0;
    for (const clang::BindingDecl* b : decomposition->bindings()) {
      if (k >= 2) break;
      if (pair.swapped == kNone) fs_->bindingVars[b] = k == 0 ? pair.first : pair.second;
      else fs_->minmaxBindings[b] = {v, k};
      ++k;
    }
  }
  fs_->minmaxPairs.emplace(v, std::move(pair));
  return group;
}

ExprPtr Lifter::pairBinding(const clang::BindingDecl* b, clang::SourceRange where) {
  auto found = fs_->minmaxBindings.find(b);
  if (found == fs_->minmaxBindings.end()) return nullptr;
  auto pair = fs_->minmaxPairs.find(found->second.first);
  if (pair == fs_->minmaxPairs.end()) return nullptr;
  return pairElement(pair->second, found->second.second, range(where));
}

ExprPtr Lifter::pairMember(const clang::MemberExpr* e) {
  const clang::SourceLocation where = e->getMemberLoc();
  const auto* fd = llvm::dyn_cast<clang::FieldDecl>(e->getMemberDecl());
  const unsigned k = fd && fd->getName() == "second" ? 1 : 0;
  const clang::Expr* base = structOperand(e->getBase());
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(base); construct && construct->getNumArgs() == 1)
    base = structOperand(construct->getArg(0));
  const SourceRange r = range(e->getSourceRange());
  if (!fd || e->isArrow()) return fail(where, "this use of a std::pair is not supported", kPairHint);
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base)) {
    const clang::ValueDecl* d = ref->getDecl();
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d); v && fs_->rejectedVars.count(v)) return nullptr;
    if (auto found = fs_->minmaxPairs.find(d); found != fs_->minmaxPairs.end()) return pairElement(found->second, k, r);
    return fail(where, "the std::pair '" + d->getNameAsString() + "' is not supported here", kPairHint);
  }
  if (!isMinmaxCall(base)) return fail(where, "a std::pair is supported only as the result of std::minmax", kPairHint);
  std::optional<MinmaxValue> value = minmaxValue(llvm::cast<clang::CallExpr>(base));
  if (!value) return nullptr;
  std::optional<Scalar> s = valueType(e->getType().getNonReferenceType(), where);
  if (!s) return nullptr;
  return sequence(std::move(value->effects), convert(std::move(k == 0 ? value->first : value->second), *s));
}

}  // namespace culift::frontend
