// std::array and multi-dimensional arrays. Both become culift's flat arrays: a local
// `std::array<T, N>` or `T a[R][C]` is a local array of N or R*C elements, a parameter
// `const T A[][C]` (or `T (*A)[C]`, or a reference to a std::array) is a pointer, and an element
// `a[r][c]` is the element `a[r * C + c]` (row-major, as C++ lays the array out). What C++ does
// with a whole std::array (a copy, an assignment, fill, a by-value parameter, a returned array)
// becomes an index loop over its elements; size(), front() and back() are constants and
// elements. Constant tables (constexpr globals, static constexpr locals) become local const
// arrays holding the values the compiler computed.
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "function_state.hpp"
#include "record_nodes.hpp"

namespace culift::frontend {
namespace {

StmtPtr makeStmt(StmtKind kind, SourceRange r) { return std::make_unique<Stmt>(kind, std::move(r)); }

using record::binaryNode;
using record::intLiteral;

// The expression under the conversions and wrappers a whole array passes through on its way to
// a copy: qualification changes, temporaries and the trivial copy or move constructor.
const clang::Expr* copiedArray(const clang::Expr* e) {
  for (;;) {
    e = e->IgnoreParens();
    if (const auto* f = llvm::dyn_cast<clang::FullExpr>(e)) {
      e = f->getSubExpr();
      continue;
    }
    if (const auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) {
      e = m->getSubExpr();
      continue;
    }
    if (const auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) {
      e = b->getSubExpr();
      continue;
    }
    if (const auto* c = llvm::dyn_cast<clang::ImplicitCastExpr>(e);
        c && (c->getCastKind() == clang::CK_NoOp || c->getCastKind() == clang::CK_LValueToRValue)) {
      e = c->getSubExpr();
      continue;
    }
    if (const auto* loop = llvm::dyn_cast<clang::ArrayInitLoopExpr>(e)) {
      e = loop->getCommonExpr()->getSourceExpr();  // the array a structured binding copies
      continue;
    }
    if (const auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(e);
        c && c->getNumArgs() == 1 && c->getConstructor() &&
        (c->getConstructor()->isCopyConstructor() || c->getConstructor()->isMoveConstructor())) {
      e = c->getArg(0);
      continue;
    }
    return e;
  }
}

ExprPtr zeroLiteral(Scalar s, const SourceRange& where) {
  const ExprKind kind = isFloating(s)       ? ExprKind::FloatLiteral
                        : s == Scalar::Bool ? ExprKind::BoolLiteral
                                            : ExprKind::IntLiteral;
  return std::make_unique<Expr>(kind, Type::value(s), where);
}

const char* kRowHint = "index every dimension: a[r][c]";

}  // namespace

std::uint64_t Lifter::ArrayShape::elements() const {
  std::uint64_t n = 1;
  for (std::uint64_t d : dims) n *= d == 0 ? 1 : d;
  return n;
}

std::optional<std::pair<clang::QualType, std::uint64_t>> Lifter::stdArrayOf(clang::QualType t) {
  if (t.isNull()) return std::nullopt;
  const auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      t.getCanonicalType()->getAsCXXRecordDecl());
  if (!spec || !spec->isInStdNamespace() || !spec->getDeclName().isIdentifier() || spec->getName() != "array")
    return std::nullopt;
  const clang::TemplateArgumentList& args = spec->getTemplateArgs();
  if (args.size() != 2 || args[0].getKind() != clang::TemplateArgument::Type ||
      args[1].getKind() != clang::TemplateArgument::Integral)
    return std::nullopt;
  return std::make_pair(args[0].getAsType(), args[1].getAsIntegral().getZExtValue());
}

std::optional<Lifter::ArrayShape> Lifter::arrayShape(clang::QualType t, ShapeProblem& problem,
                                                     clang::QualType& element) const {
  problem = ShapeProblem::None;
  ArrayShape shape;
  shape.constElements = t.isConstQualified();
  clang::QualType at = t;
  for (;;) {
    if (const clang::ArrayType* a = ctx_.getAsArrayType(at)) {
      const auto* constant = llvm::dyn_cast<clang::ConstantArrayType>(a);
      if (!constant) {
        problem = ShapeProblem::VariableLength;
        return std::nullopt;
      }
      shape.dims.push_back(constant->getSize().getZExtValue());
      at = constant->getElementType();
    } else if (auto std = stdArrayOf(at)) {
      shape.dims.push_back(std->second);
      shape.constElements = shape.constElements || at.isConstQualified();
      at = std->first;
    } else {
      break;
    }
    shape.constElements = shape.constElements || at.isConstQualified();
  }
  if (shape.dims.empty()) return std::nullopt;
  element = at;
  std::optional<Scalar> s = scalarOf(at);
  if (!s) {
    problem = ShapeProblem::Element;
    return std::nullopt;
  }
  shape.scalar = *s;
  std::uint64_t n = 1;
  for (std::uint64_t d : shape.dims) {
    if (d != 0 && n > (~std::uint64_t{0} >> 8) / d) {
      problem = ShapeProblem::TooLarge;
      return std::nullopt;
    }
    n *= d == 0 ? 1 : d;
  }
  return shape;
}

std::optional<Lifter::ArrayShape> Lifter::arrayShape(clang::QualType t) const {
  ShapeProblem problem;
  clang::QualType element;
  return arrayShape(t, problem, element);
}

bool Lifter::decomposition(const clang::DecompositionDecl* dd, StmtPtr& out) {
  const std::optional<ArrayShape> shape = arrayShape(dd->getType().getNonReferenceType());
  if (!shape) return false;
  out = nullptr;
  if (shape->dims.size() > 1) {
    fs_->rejectedVars.insert(dd);
    error(dd->getLocation(), "structured bindings of a multi-dimensional array are not supported", kRowHint);
    return true;
  }
  if (dd->getType()->isReferenceType()) {
    // auto& [x, y] = a: the bindings name a's elements.
    std::uint64_t n = 0;
    ExprPtr array = wholeArray(dd->getInit(), n);
    if (!array || array->kind != ExprKind::VarRef) {
      fs_->rejectedVars.insert(dd);
      return true;
    }
    fs_->vars[dd] = array->var;
    return true;
  }
  // auto [x, y] = a: the elements of a hidden copy of a.
  std::string name = "culift";
  for (const clang::BindingDecl* b : dd->bindings()) name += "_" + b->getNameAsString();
  Var var;
  var.name = name;
  var.type = Type::array(shape->scalar, shape->elements(), shape->constElements);
  var.range = range(dd->getSourceRange());
  const VarId id = static_cast<VarId>(fs_->fn.vars.size());
  fs_->fn.vars.push_back(std::move(var));
  fs_->vars[dd] = id;
  StmtPtr decl = makeStmt(StmtKind::Decl, range(dd->getSourceRange()));
  decl->var = id;
  out = arrayDecl(dd, id, fs_->fn.vars[id].type, std::move(decl));
  return true;
}

bool Lifter::bindingRef(const clang::BindingDecl* b, const clang::DeclRefExpr* e, ExprPtr& out) {
  const auto* dd = llvm::dyn_cast_or_null<clang::DecompositionDecl>(b->getDecomposedDecl());
  if (!dd) return false;
  if (fs_->rejectedVars.count(dd)) return true;  // out stays null: diagnosed at the declaration
  auto it = fs_->vars.find(dd);
  if (it == fs_->vars.end() || fs_->fn.vars[it->second].type.isValue()) return false;
  std::uint64_t k = 0;
  for (const clang::BindingDecl* x : dd->bindings()) {
    if (x == b) break;
    ++k;
  }
  const VarId array = it->second;
  out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(fs_->fn.vars[array].type.scalar),
                               range(e->getSourceRange()));
  out->operands.push_back(varRef(array, e->getSourceRange()));
  out->operands.push_back(intLiteral(Scalar::I32, k, range(e->getSourceRange())));
  return true;
}

std::optional<Lifter::ArrayShape> Lifter::shapeOfVar(const clang::ValueDecl* v) const {
  clang::QualType t = v->getType().getNonReferenceType();
  ShapeProblem problem;
  clang::QualType element;
  if (t->isPointerType()) {
    // T A[][C] and T (*A)[C]: the rows are the caller's, their count unknown.
    const clang::QualType pointee = t->getPointeeType();
    if (!ctx_.getAsArrayType(pointee)) return std::nullopt;
    std::optional<ArrayShape> inner = arrayShape(pointee, problem, element);
    if (!inner) return std::nullopt;
    inner->dims.insert(inner->dims.begin(), 0);
    return inner;
  }
  return arrayShape(t, problem, element);
}

ExprPtr Lifter::flatIndex(const ArrayShape& shape, std::vector<ExprPtr> indices) {
  if (indices.size() == 1) return std::move(indices[0]);
  // C++ adds each index to a pointer: no int arithmetic that could overflow. The flat index is
  // computed in int where it cannot (the whole array is known and smaller than 2^31 elements, the
  // indices are int or narrower), else in long long.
  bool narrow = shape.dims[0] != 0 && shape.elements() <= 0x7fffffffu;
  for (const ExprPtr& x : indices) {
    const Scalar s = x->type.scalar;
    narrow = narrow && (s == Scalar::Bool || (isInteger(s) && (byteSize(s) < 4 || s == Scalar::I32)));
  }
  const Scalar t = narrow ? Scalar::I32 : Scalar::I64;
  ExprPtr flat = convert(std::move(indices[0]), t);
  for (size_t d = 1; d < indices.size(); ++d) {
    const SourceRange r = indices[d]->range;
    flat = binaryNode(BinaryOp::Mul, t, std::move(flat), intLiteral(t, shape.dims[d], r));
    flat = binaryNode(BinaryOp::Add, t, std::move(flat), convert(std::move(indices[d]), t));
  }
  return flat;
}

ExprPtr Lifter::arrayElement(const clang::Expr* e) {
  // Peel the subscripts off, innermost (last written) first.
  std::vector<const clang::Expr*> indexExprs;
  const clang::Expr* base = e;
  for (;;) {
    base = base->IgnoreParenImpCasts();
    if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(base)) {
      indexExprs.push_back(a->getIdx());
      base = a->getBase();
      continue;
    }
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(base);
        op && op->getOperator() == clang::OO_Subscript && op->getNumArgs() == 2 &&
        stdArrayOf(op->getArg(0)->getType())) {
      indexExprs.push_back(op->getArg(1));
      base = op->getArg(0);
      continue;
    }
    break;
  }
  std::reverse(indexExprs.begin(), indexExprs.end());
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base);
  const auto* var = ref ? llvm::dyn_cast<clang::ValueDecl>(ref->getDecl()) : nullptr;
  std::vector<ExprPtr> indices;
  bool ok = true;
  for (const clang::Expr* x : indexExprs) {
    // std::array's operator[] takes a size_t: the index as written is the one C++ adds.
    const clang::Expr* written = x;
    if (const auto* c = llvm::dyn_cast<clang::ImplicitCastExpr>(x->IgnoreParens());
        c && c->getCastKind() == clang::CK_IntegralCast && c->getSubExpr()->getType()->isIntegralOrEnumerationType())
      written = c->getSubExpr();
    indices.push_back(expr(written));
    ok = ok && indices.back();
  }
  if (!var) {
    if (!expr(base)) return nullptr;
    return fail(base->getExprLoc(), "only a parameter array or a local array can be indexed",
                "index the array instead: x[i * cols + k] (pointer arithmetic is not supported)");
  }
  if (auto view = fs_->rowViews.find(var); view != fs_->rowViews.end()) {
    // row[c] of a row a range for binds: the element at the row's offset.
    if (!ok) return nullptr;
    const RowView& row = view->second;
    if (indices.size() != row.shape.dims.size())
      return fail(e->getExprLoc(), "a part of the row '" + var->getNameAsString() + "' cannot be used as a value",
                  kRowHint);
    const SourceRange where = range(e->getSourceRange());
    ExprPtr inner = convert(flatIndex(row.shape, std::move(indices)), row.indexType);
    auto out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(row.shape.scalar), where);
    out->operands.push_back(varRef(row.array, ref->getSourceRange()));
    out->operands.push_back(binaryNode(BinaryOp::Add, row.indexType, rowOffset(row, where), std::move(inner)));
    return out;
  }
  ExprPtr array = declRef(ref);
  if (!array || !ok) return nullptr;
  if (array->type.isValue()) return fail(ref->getLocation(), "'" + var->getNameAsString() + "' is not an array");
  std::optional<ArrayShape> shape = shapeOfVar(var);
  if (!shape) shape = ArrayShape{array->type.scalar, {array->type.extent}, array->type.constElements};
  for (size_t k = 0; k < indices.size(); ++k) {
    const Scalar s = indices[k]->type.scalar;
    if (!indices[k]->type.isValue() || !(isInteger(s) || s == Scalar::Bool))
      return fail(indexExprs[k]->getExprLoc(), "array index must be an integer");
  }
  if (indices.size() < shape->dims.size())
    return fail(e->getExprLoc(),
                "a row of the multi-dimensional array '" + var->getNameAsString() +
                    "' cannot be used as a value: only its elements can",
                kRowHint);
  if (indices.size() > shape->dims.size()) return fail(e->getExprLoc(), "too many subscripts");
  auto out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(array->type.scalar), range(e->getSourceRange()));
  out->operands.push_back(std::move(array));
  out->operands.push_back(flatIndex(*shape, std::move(indices)));
  return out;
}

ExprPtr Lifter::rowOffset(const RowView& view, const SourceRange& where) {
  ExprPtr sum;
  for (const auto& [counter, stride] : view.terms) {
    auto counterRef = std::make_unique<Expr>(ExprKind::VarRef, fs_->fn.vars[counter].type, where);
    counterRef->var = counter;
    ExprPtr term = binaryNode(BinaryOp::Mul, view.indexType, convert(std::move(counterRef), view.indexType),
                              intLiteral(view.indexType, stride, where));
    term->range = where;
    sum = sum ? binaryNode(BinaryOp::Add, view.indexType, std::move(sum), std::move(term)) : std::move(term);
  }
  return sum;
}

std::optional<Lifter::RowView> Lifter::rangeView(const clang::VarDecl* v, const clang::DeclRefExpr* ref) {
  if (auto it = fs_->rowViews.find(v); it != fs_->rowViews.end()) return it->second;
  const std::optional<ArrayShape> shape = shapeOfVar(v);
  if (!fs_->vars.count(v) && !(shape && !v->isLocalVarDeclOrParm())) return std::nullopt;
  ExprPtr array = declRef(ref);
  if (!array || array->kind != ExprKind::VarRef) return std::nullopt;
  RowView view;
  view.array = array->var;
  if (array->type.isArray()) {
    view.shape = shape ? *shape : ArrayShape{array->type.scalar, {array->type.extent}, array->type.constElements};
  } else if (array->type.isPointer() && shape && shape->dims[0] != 0) {
    view.shape = *shape;  // a std::array reference parameter
  } else {
    return std::nullopt;
  }
  const bool narrow = view.shape.dims[0] != 0 && view.shape.elements() <= 0x7fffffffu;
  view.indexType = narrow ? Scalar::I32 : Scalar::I64;
  return view;
}

bool Lifter::isArrayAccess(const clang::Expr* base) const {
  base = base->IgnoreParenImpCasts();
  if (llvm::isa<clang::ArraySubscriptExpr>(base)) return true;
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(base))
    return op->getOperator() == clang::OO_Subscript && stdArrayOf(op->getArg(0)->getType());
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base)) {
    if (fs_->rowViews.count(ref->getDecl())) return true;
    std::optional<ArrayShape> shape = shapeOfVar(ref->getDecl());
    return shape && (shape->dims.size() > 1 || stdArrayOf(ref->getDecl()->getType().getNonReferenceType()));
  }
  return false;
}

ExprPtr Lifter::stdArrayMember(const clang::CXXMemberCallExpr* e) {
  const clang::CXXMethodDecl* method = e->getMethodDecl();
  const clang::Expr* object = e->getImplicitObjectArgument();
  const auto size = stdArrayOf(object->getType().getNonReferenceType());
  const std::string name = method && method->getDeclName().isIdentifier() ? method->getName().str() : "?";
  const clang::SourceLocation where = e->getExprLoc();
  if (name == "size" || name == "max_size" || name == "empty") {
    std::optional<Scalar> s = valueType(e->getType(), where);
    if (!s) return nullptr;
    if (name == "empty") {
      auto out = std::make_unique<Expr>(ExprKind::BoolLiteral, Type::value(Scalar::Bool), range(e->getSourceRange()));
      out->intBits = size->second == 0 ? 1 : 0;
      return out;
    }
    return intLiteral(*s, size->second, range(e->getSourceRange()));
  }
  if (name == "front" || name == "back") {
    const clang::Expr* base = copiedArray(object);
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base);
    if (!ref) return fail(where, "'" + name + "' of an array that is not a variable is not supported");
    if (size->second == 0) return fail(where, "'" + name + "' of an empty std::array");
    ExprPtr array = declRef(ref);
    if (!array) return nullptr;
    if (array->type.isValue()) return fail(where, "'" + ref->getDecl()->getNameAsString() + "' is not an array");
    std::optional<ArrayShape> shape = shapeOfVar(ref->getDecl());
    if (shape && shape->dims.size() > 1)
      return fail(where, "'" + name + "' of a std::array of arrays is not supported", kRowHint);
    auto out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(array->type.scalar), range(e->getSourceRange()));
    const Scalar indexType = size->second <= 0x7fffffffu ? Scalar::I32 : Scalar::I64;
    out->operands.push_back(std::move(array));
    out->operands.push_back(intLiteral(indexType, name == "front" ? 0 : size->second - 1, range(e->getSourceRange())));
    return out;
  }
  if (name == "fill" || name == "swap")
    return fail(where, "'" + name + "' of a std::array can only be a statement of its own",
                name == "fill" ? "write a.fill(v); on its own line" : "");
  if (name == "at")
    return fail(where, "std::array::at is not supported: it throws, and exceptions are not available on the device",
                "index the array: a[k] (culift's interpreter checks every index)");
  return fail(where, "call to method '" + name + "' of a std::array is not supported",
              "std::array supports a[k], size(), empty(), front(), back() and fill(v)");
}

StmtPtr Lifter::countingLoop(std::uint64_t n, SourceRange r, VarId& counter) {
  const Scalar indexType = n <= 0x7fffffffu ? Scalar::I32 : Scalar::I64;
  Var k;
  k.name = "culift_k";
  k.type = Type::value(indexType);
  k.range = r;
  counter = static_cast<VarId>(fs_->fn.vars.size());
  fs_->fn.vars.push_back(std::move(k));
  StmtPtr loop = makeStmt(StmtKind::For, r);
  loop->init = makeStmt(StmtKind::Decl, r);
  loop->init->var = counter;
  loop->init->expr = intLiteral(indexType, 0, r);
  loop->cond = binaryNode(BinaryOp::Lt, Scalar::Bool, record::refTo(fs_->fn, counter, r), intLiteral(indexType, n, r));
  loop->expr = std::make_unique<Expr>(ExprKind::IncDec, Type::value(indexType), r);
  loop->expr->incDecOp = IncDecOp::PreInc;
  loop->expr->operands.push_back(record::refTo(fs_->fn, counter, r));
  return loop;
}

StmtPtr Lifter::copyLoop(VarId dst, ExprPtr src, std::uint64_t n, const SourceRange& where) {
  // for (culift_k = 0; culift_k < n; ++culift_k) dst[culift_k] = src[culift_k];
  VarId k = kNone;
  StmtPtr loop = countingLoop(n, where, k);
  auto element = [&](ExprPtr array) {
    auto out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(array->type.scalar), where);
    out->operands.push_back(std::move(array));
    out->operands.push_back(record::refTo(fs_->fn, k, where));
    return out;
  };
  auto target = std::make_unique<Expr>(ExprKind::VarRef, fs_->fn.vars[dst].type, where);
  target->var = dst;
  const Scalar s = fs_->fn.vars[dst].type.scalar;
  auto assign = std::make_unique<Expr>(ExprKind::Assign, Type::value(s), where);
  assign->operands.push_back(element(std::move(target)));
  ExprPtr value = element(std::move(src));
  assign->operands.push_back(convert(std::move(value), s));
  loop->body = makeStmt(StmtKind::ExprStmt, where);
  loop->body->expr = std::move(assign);
  return loop;
}

StmtPtr Lifter::group(std::vector<StmtPtr> stmts, const SourceRange& where) {
  if (stmts.size() == 1) return std::move(stmts[0]);
  StmtPtr out = makeStmt(StmtKind::Block, where);
  out->scoped = false;
  out->stmts = std::move(stmts);
  return out;
}

ExprPtr Lifter::wholeArray(const clang::Expr* e, std::uint64_t& n) {
  const clang::Expr* source = copiedArray(e);
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(source);
  if (!ref) {
    if (referencesRejected(source)) return nullptr;
    if (llvm::isa<clang::ArraySubscriptExpr, clang::CXXOperatorCallExpr>(source))
      return fail(e->getExprLoc(),
                  "a row of a multi-dimensional array cannot be used as a value: only its elements can", kRowHint);
    return fail(e->getExprLoc(), "only a std::array variable or parameter can be copied here",
                "copy from a local std::array, or assign the elements one by one");
  }
  ExprPtr array = declRef(ref);
  if (!array) return nullptr;
  std::optional<ArrayShape> shape = shapeOfVar(ref->getDecl());
  if (array->type.isValue() || !shape) return fail(e->getExprLoc(), "this value is not an array");
  n = shape->elements();
  return array;
}

bool Lifter::initElements(const clang::Expr* init, const ArrayShape& shape, size_t level, std::vector<ExprPtr>& out) {
  std::uint64_t block = 1;
  for (size_t d = level + 1; d < shape.dims.size(); ++d) block *= shape.dims[d];
  auto zeros = [&](std::uint64_t count) {
    for (std::uint64_t k = 0; k < count; ++k) out.push_back(nullptr);
  };
  const clang::Expr* e = init->IgnoreParens();
  if (const auto* f = llvm::dyn_cast<clang::FullExpr>(e)) e = f->getSubExpr();
  if (llvm::isa<clang::ImplicitValueInitExpr>(e)) {
    zeros(block * shape.dims[level]);
    return true;
  }
  const auto* list = llvm::dyn_cast<clang::InitListExpr>(e);
  if (!list) {
    fail(init->getBeginLoc(), "an element of a multi-dimensional array or std::array initializer must be a brace list",
         "write the rows in braces: {{1, 2}, {3, 4}}");
    return false;
  }
  if (stdArrayOf(list->getType())) {
    // std::array<T, N> is a struct holding T[N]: its list holds the array's list.
    if (list->getNumInits() == 0) zeros(block * shape.dims[level]);
    else if (!initElements(list->getInit(0), shape, level, out)) return false;
    return true;
  }
  const bool last = level + 1 == shape.dims.size();
  for (std::uint64_t k = 0; k < shape.dims[level]; ++k) {
    if (k >= list->getNumInits()) {
      zeros(block);
      continue;
    }
    const clang::Expr* item = list->getInit(static_cast<unsigned>(k));
    if (last) {
      if (llvm::isa<clang::ImplicitValueInitExpr>(item->IgnoreParens())) {
        out.push_back(nullptr);
        continue;
      }
      ExprPtr value = expr(item);
      if (!value) return false;
      out.push_back(convert(std::move(value), shape.scalar));
    } else if (!initElements(item, shape, level + 1, out)) {
      return false;
    }
  }
  return true;
}

void Lifter::finishInits(std::vector<ExprPtr>& elements, Scalar s, const SourceRange& where) {
  // The list holds the elements up to the last one given; the rest are zero.
  while (!elements.empty() && !elements.back()) elements.pop_back();
  for (ExprPtr& x : elements)
    if (!x) x = zeroLiteral(s, where);
}

StmtPtr Lifter::arrayDecl(const clang::VarDecl* v, VarId id, const Type& type, StmtPtr decl) {
  const clang::Expr* init = v->getInit();
  if (!init) return decl;
  const std::string name = "'" + v->getNameAsString() + "'";
  ShapeProblem problem;
  clang::QualType element;
  std::optional<ArrayShape> shape = arrayShape(v->getType(), problem, element);
  if (!shape) shape = ArrayShape{type.scalar, {type.extent}, type.constElements};
  const clang::Expr* e = init->IgnoreImplicit();
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e);
      construct && construct->getNumArgs() == 0 && construct->getConstructor() &&
      construct->getConstructor()->isDefaultConstructor())
    return decl;  // std::array<T, N> a; leaves the elements uninitialized, as T a[N] does
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(e)) {
    decl->arrayInitialized = true;
    std::vector<ExprPtr> elements;
    if (!initElements(list, *shape, 0, elements)) return decl;
    finishInits(elements, type.scalar, decl->range);
    decl->inits = std::move(elements);
    return decl;
  }
  if (const clang::Expr* source = copiedArray(init); llvm::isa<clang::DeclRefExpr, clang::CallExpr>(source)) {
    // The copy writes the elements once, after the declaration: a const array is declared
    // without const (C++ has already checked that nothing else writes it).
    fs_->fn.vars[id].type.constElements = false;
    if (const auto* c = llvm::dyn_cast<clang::CallExpr>(source); c && !llvm::isa<clang::CXXOperatorCallExpr>(c)) {
      // auto r = make(...): the callee writes its result into r.
      fs_->arrayResult = varRef(id, v->getSourceRange());
      ExprPtr callNode = call(c);
      fs_->arrayResult.reset();
      std::vector<StmtPtr> stmts;
      stmts.push_back(std::move(decl));
      if (callNode) {
        StmtPtr s = makeStmt(StmtKind::ExprStmt, range(c->getSourceRange()));
        s->expr = std::move(callNode);
        stmts.push_back(std::move(s));
      }
      return group(std::move(stmts), range(v->getSourceRange()));
    }
    std::uint64_t n = 0;
    ExprPtr from = wholeArray(init, n);
    if (!from) return decl;
    std::vector<StmtPtr> stmts;
    stmts.push_back(std::move(decl));
    stmts.push_back(copyLoop(id, std::move(from), n, range(v->getSourceRange())));
    return group(std::move(stmts), range(v->getSourceRange()));
  }
  if (stdArrayOf(v->getType().getNonReferenceType()))
    error(init->getBeginLoc(), "only a std::array variable or parameter can be copied here",
          "copy from a local std::array, or assign the elements one by one");
  else error(init->getBeginLoc(), "array " + name + " must be initialized with a brace list: = {...}");
  return decl;
}

bool Lifter::constantElements(const clang::APValue& value, clang::QualType t, clang::SourceRange where,
                              std::vector<ExprPtr>& out) {
  if (auto std = stdArrayOf(t)) {
    if (!value.isStruct() || value.getStructNumFields() != 1) return false;
    return constantElements(value.getStructField(0),
                            ctx_.getConstantArrayType(std->first, llvm::APInt(64, std->second), nullptr,
                                                      clang::ArrayType::Normal, 0),
                            where, out);
  }
  if (const auto* a = llvm::dyn_cast_or_null<clang::ConstantArrayType>(ctx_.getAsArrayType(t))) {
    if (!value.isArray()) return false;
    const std::uint64_t n = a->getSize().getZExtValue();
    for (std::uint64_t k = 0; k < n; ++k) {
      const unsigned index = static_cast<unsigned>(k);
      const clang::APValue& item = index < value.getArrayInitializedElts() ? value.getArrayInitializedElt(index)
                                                                           : value.getArrayFiller();
      if (!constantElements(item, a->getElementType(), where, out)) return false;
    }
    return true;
  }
  ExprPtr x = literal(value, t, where);
  if (!x) return false;
  out.push_back(std::move(x));
  return true;
}

StmtPtr Lifter::constantTable(const clang::VarDecl* v, VarId& id) {
  const std::string name = "'" + v->getNameAsString() + "'";
  ShapeProblem problem;
  clang::QualType element;
  std::optional<ArrayShape> shape = arrayShape(v->getType(), problem, element);
  if (!shape) {
    error(v->getLocation(),
          "constant table " + name + " of type " + whyUnsupported(v->getType()) + " is not supported");
    return nullptr;
  }
  const clang::APValue* value = v->getInit() ? v->evaluateValue() : nullptr;
  std::vector<ExprPtr> elements;
  if (!value || !constantElements(*value, v->getType(), v->getSourceRange(), elements)) {
    error(v->getLocation(), "the values of the array " + name + " are not compile-time constants",
          "make it constexpr, or pass it as a const array parameter");
    return nullptr;
  }
  finishInits(elements, shape->scalar, range(v->getSourceRange()));
  Var var;
  var.name = v->getNameAsString();
  var.type = Type::array(shape->scalar, shape->elements(), /*isConst=*/true);
  var.range = range(v->getSourceRange());
  id = static_cast<VarId>(fs_->fn.vars.size());
  fs_->fn.vars.push_back(std::move(var));
  fs_->vars[v] = id;
  StmtPtr decl = makeStmt(StmtKind::Decl, range(v->getSourceRange()));
  decl->var = id;
  decl->arrayInitialized = true;
  decl->inits = std::move(elements);
  return decl;
}

ExprPtr Lifter::globalTable(const clang::VarDecl* v, const clang::DeclRefExpr* e) {
  const bool constant = v->isConstexpr() || v->getType().isConstQualified();
  if (!constant)
    return fail(e->getLocation(),
                "non-const global array '" + v->getNameAsString() + "' cannot be used in a culift kernel",
                "pass it as an array parameter, or make it constexpr");
  VarId id = kNone;
  StmtPtr decl = constantTable(v, id);
  if (!decl) {
    fs_->rejectedVars.insert(v);
    return nullptr;
  }
  fs_->prologue.push_back(std::move(decl));
  fs_->tables.push_back(id);
  return varRef(id, e->getSourceRange());
}

bool Lifter::arrayStatement(const clang::Expr* e, StmtPtr& out) {
  const clang::Expr* inner = e->IgnoreParens();
  if (const auto* f = llvm::dyn_cast<clang::FullExpr>(inner)) inner = f->getSubExpr()->IgnoreParens();
  const SourceRange where = range(e->getSourceRange());
  // a.fill(v): every element set to v.
  if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(inner)) {
    const clang::CXXMethodDecl* method = member->getMethodDecl();
    const clang::Expr* object = member->getImplicitObjectArgument();
    if (!method || !stdArrayOf(object->getType().getNonReferenceType()) || !method->getDeclName().isIdentifier() ||
        method->getName() != "fill" || member->getNumArgs() != 1)
      return false;
    std::uint64_t n = 0;
    ExprPtr array = wholeArray(object, n);
    ExprPtr value = expr(member->getArg(0));
    if (!array || !value) return true;
    if (array->type.constElements || array->kind != ExprKind::VarRef)
      return fail(member->getExprLoc(), "fill of a const array"), true;
    // The value is computed once (fill takes it by reference), then stored in every element:
    // { T culift_fill = v; for (...) a[culift_k] = culift_fill; }
    const VarId dst = array->var;
    const Scalar s = fs_->fn.vars[dst].type.scalar;
    value = convert(std::move(value), s);
    auto source = std::make_unique<Expr>(ExprKind::VarRef, fs_->fn.vars[dst].type, where);
    source->var = dst;
    StmtPtr loop = copyLoop(dst, std::move(source), n, where);
    if (value->kind == ExprKind::IntLiteral || value->kind == ExprKind::FloatLiteral ||
        value->kind == ExprKind::BoolLiteral) {
      loop->body->expr->operands[1] = std::move(value);
      out = std::move(loop);
      return true;
    }
    Var temporary;
    temporary.name = "culift_fill";
    temporary.type = Type::value(s);
    temporary.range = where;
    const VarId tmp = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(temporary));
    StmtPtr decl = makeStmt(StmtKind::Decl, where);
    decl->var = tmp;
    decl->expr = std::move(value);
    loop->body->expr->operands[1] = varRef(tmp, e->getSourceRange());
    out = makeStmt(StmtKind::Block, where);
    out->stmts.push_back(std::move(decl));
    out->stmts.push_back(std::move(loop));
    return true;
  }
  // b = a on std::arrays: an element-wise copy. b = make(...): through a temporary, which
  // make may not see (it might read b).
  const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(inner);
  if (!op || op->getOperator() != clang::OO_Equal || op->getNumArgs() != 2 || !stdArrayOf(op->getArg(0)->getType()))
    return false;
  std::uint64_t n = 0;
  ExprPtr target = wholeArray(op->getArg(0), n);
  if (!target) return true;
  if (target->type.constElements) return fail(op->getOperatorLoc(), "assignment to a const array"), true;
  const clang::Expr* source = copiedArray(op->getArg(1));
  if (const auto* c = llvm::dyn_cast<clang::CallExpr>(source); c && !llvm::isa<clang::CXXOperatorCallExpr>(c)) {
    Var temporary;
    temporary.name = "culift_tmp";
    temporary.type = Type::array(target->type.scalar, n);
    temporary.range = where;
    const VarId tmp = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(temporary));
    fs_->arrayResult = varRef(tmp, e->getSourceRange());
    ExprPtr callNode = call(c);
    fs_->arrayResult.reset();
    if (!callNode) return true;
    StmtPtr block = makeStmt(StmtKind::Block, where);
    StmtPtr decl = makeStmt(StmtKind::Decl, where);
    decl->var = tmp;
    block->stmts.push_back(std::move(decl));
    StmtPtr callStmt = makeStmt(StmtKind::ExprStmt, where);
    callStmt->expr = std::move(callNode);
    block->stmts.push_back(std::move(callStmt));
    block->stmts.push_back(copyLoop(target->var, varRef(tmp, e->getSourceRange()), n, where));
    out = std::move(block);
    return true;
  }
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(source)) {
    // b = {x, y}: the list is a temporary array first (it may read b), then copied.
    Var temporary;
    temporary.name = "culift_tmp";
    temporary.type = Type::array(target->type.scalar, n);
    temporary.range = where;
    const VarId tmp = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(temporary));
    const std::optional<ArrayShape> shape = arrayShape(op->getArg(0)->getType().getNonReferenceType());
    std::vector<ExprPtr> elements;
    if (!shape || !initElements(list, *shape, 0, elements)) return true;
    finishInits(elements, target->type.scalar, where);
    StmtPtr decl = makeStmt(StmtKind::Decl, where);
    decl->var = tmp;
    decl->arrayInitialized = true;
    decl->inits = std::move(elements);
    out = makeStmt(StmtKind::Block, where);
    out->stmts.push_back(std::move(decl));
    out->stmts.push_back(copyLoop(target->var, varRef(tmp, e->getSourceRange()), n, where));
    return true;
  }
  std::uint64_t m = 0;
  ExprPtr from = wholeArray(op->getArg(1), m);
  if (!from) return true;
  out = copyLoop(target->var, std::move(from), n, where);
  return true;
}

StmtPtr Lifter::arrayReturn(const clang::ReturnStmt* s) {
  const SourceRange where = range(s->getSourceRange());
  const clang::Expr* value = s->getRetValue();
  std::vector<StmtPtr> stmts;
  StmtPtr ret = makeStmt(StmtKind::Return, where);
  if (!value || fs_->resultParam == kNone) return ret;
  const Type resultType = fs_->fn.vars[fs_->resultParam].type;
  const clang::Expr* source = copiedArray(value);
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(source)) {
    // return {a, b, c}: each element stored, the rest zero.
    ArrayShape shape{resultType.scalar, {fs_->resultElements}, false};
    std::vector<ExprPtr> elements;
    if (!initElements(list, shape, 0, elements)) return nullptr;
    for (std::uint64_t k = 0; k < elements.size(); ++k) {
      ExprPtr v = elements[k] ? std::move(elements[k]) : zeroLiteral(resultType.scalar, where);
      auto element = std::make_unique<Expr>(ExprKind::Subscript, Type::value(resultType.scalar), where);
      element->operands.push_back(varRef(fs_->resultParam, s->getSourceRange()));
      element->operands.push_back(intLiteral(Scalar::I32, k, where));
      auto assign = std::make_unique<Expr>(ExprKind::Assign, Type::value(resultType.scalar), where);
      assign->operands.push_back(std::move(element));
      assign->operands.push_back(std::move(v));
      StmtPtr st = makeStmt(StmtKind::ExprStmt, where);
      st->expr = std::move(assign);
      stmts.push_back(std::move(st));
    }
  } else if (const auto* c = llvm::dyn_cast<clang::CallExpr>(source); c && !llvm::isa<clang::CXXOperatorCallExpr>(c)) {
    // return make(...): the callee writes straight into this function's result.
    fs_->arrayResult = varRef(fs_->resultParam, s->getSourceRange());
    ExprPtr callNode = call(c);
    fs_->arrayResult.reset();
    if (!callNode) return nullptr;
    StmtPtr st = makeStmt(StmtKind::ExprStmt, where);
    st->expr = std::move(callNode);
    stmts.push_back(std::move(st));
  } else {
    std::uint64_t n = 0;
    ExprPtr from = wholeArray(value, n);
    if (!from) return nullptr;
    stmts.push_back(copyLoop(fs_->resultParam, std::move(from), n, where));
  }
  stmts.push_back(std::move(ret));
  return group(std::move(stmts), where);
}

bool Lifter::byValueArrayParam(const clang::ParmVarDecl* p, Var& v) {
  if (p->getType()->isReferenceType() || !stdArrayOf(p->getType()) || !v.type.isPointer()) return false;
  // A std::array by value is the callee's own copy: the caller passes its array, the callee
  // copies it first, so a change the callee makes is not seen by the caller.
  const std::optional<ArrayShape> shape = shapeOfVar(p);
  fs_->pendingCopies.push_back({static_cast<VarId>(fs_->fn.vars.size()), p, shape ? shape->elements() : 0});
  v.name = "culift_" + v.name;
  return true;
}

void Lifter::arrayParamsCopied() {
  // After the parameters: a local per by-value std::array parameter, copied from it.
  for (const PendingCopy& c : fs_->pendingCopies) {
    const Var& param = fs_->fn.vars[c.param];
    Var local;
    local.name = c.decl->getNameAsString();
    local.type = Type::array(param.type.scalar, c.elements);
    local.range = param.range;
    const SourceRange where = param.range;
    const VarId id = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(local));
    fs_->vars[c.decl] = id;
    StmtPtr decl = makeStmt(StmtKind::Decl, where);
    decl->var = id;
    fs_->prologue.push_back(std::move(decl));
    auto from = std::make_unique<Expr>(ExprKind::VarRef, fs_->fn.vars[c.param].type, where);
    from->var = c.param;
    fs_->prologue.push_back(copyLoop(id, std::move(from), c.elements, where));
  }
  fs_->pendingCopies.clear();
}

StmtPtr Lifter::withPrologue(StmtPtr body) {
  // A constant table is named like the user's array, unless another variable has that name.
  for (VarId t : fs_->tables) {
    std::string& name = fs_->fn.vars[t].name;
    const std::string base = name;
    for (unsigned n = 2;; ++n) {
      bool taken = false;
      for (VarId v = 0; v < fs_->fn.vars.size(); ++v) taken = taken || (v != t && fs_->fn.vars[v].name == name);
      if (!taken) break;
      name = base + "_" + std::to_string(n);
    }
  }
  fs_->tables.clear();
  if (fs_->prologue.empty()) return body;
  StmtPtr out = makeStmt(StmtKind::Block, body ? body->range : fs_->fn.range);
  out->stmts = std::move(fs_->prologue);
  fs_->prologue.clear();
  if (body && body->kind == StmtKind::Block && body->scoped) {
    for (StmtPtr& s : body->stmts) out->stmts.push_back(std::move(s));
  } else if (body) {
    out->stmts.push_back(std::move(body));
  }
  return out;
}

}  // namespace culift::frontend
