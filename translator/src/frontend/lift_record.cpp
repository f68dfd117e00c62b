// Value structs, lowered here by scalarization: a struct value is its leaves (scalar fields and
// fixed-size arrays of scalars, nested structs flattened), each a variable of its own. Passing a
// struct passes its leaves (values, or references for const S& and S&), a helper returning one
// writes its leaves through reference parameters after its own, a member function takes the
// object's leaves first, a constructor writes them. The AST, the emitter, the interpreter and
// module files see scalars, arrays and references only.
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/AST/RecordLayout.h"
#include "function_state.hpp"
#include "record_nodes.hpp"

namespace culift::frontend {
using namespace record;

bool Lifter::isUserRecord(clang::QualType t) const {
  if (t.isNull()) return false;
  const clang::RecordDecl* rd = t->getAsRecordDecl();
  if (!rd) return false;
  if (const auto* cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd); cxx && cxx->isLambda()) return false;
  if (rd->isInStdNamespace() || rd->getDeclContext()->isStdNamespace()) return false;
  return !(rd->getLocation().isValid() && sm_.isInSystemHeader(rd->getLocation()));
}

bool Lifter::returnsOwnObject(const clang::FunctionDecl* fd) {
  const clang::CXXMethodDecl* m = memberFunction(fd);
  if (!m || llvm::isa<clang::CXXConstructorDecl>(m) || !m->getReturnType()->isLValueReferenceType()) return false;
  const clang::RecordDecl* rd = m->getReturnType()->getPointeeType()->getAsRecordDecl();
  return rd && rd->getCanonicalDecl() == m->getParent()->getCanonicalDecl();
}

const Lifter::RecordLayout& Lifter::layoutOf(const clang::RecordDecl* rd) {
  if (const clang::RecordDecl* def = rd->getDefinition()) rd = def;
  if (auto it = layouts_.find(rd); it != layouts_.end()) return it->second;
  RecordLayout layout;
  auto problem = [&](std::string why, std::string hint) {
    if (!layout.problem.empty()) return;
    layout.problem = std::move(why);
    layout.hint = std::move(hint);
  };
  const auto* cxx = llvm::dyn_cast<clang::CXXRecordDecl>(rd);
  const std::string name = rd->getNameAsString();
  if (!rd->isCompleteDefinition()) {
    problem("the struct is incomplete", "define the struct before the function that uses it");
  } else if (rd->isUnion()) {
    problem("unions are not supported", "use a struct, or one variable per member (a union's members share storage)");
  } else if (cxx && cxx->isPolymorphic()) {
    problem("a struct with virtual functions is not supported",
            "remove 'virtual': value structs with non-virtual member functions are supported");
  } else if (cxx && cxx->getNumBases() > 0) {
    problem("a struct with a base class is not supported", "make the base a field of the struct");
  } else {
    for (const clang::FieldDecl* fd : rd->fields()) {
      const clang::QualType ft = fd->getType();
      const std::string field = "'" + name + "::" + fd->getNameAsString() + "'";
      const unsigned first = static_cast<unsigned>(layout.leaves.size());
      if (fd->isBitField()) {
        problem("its bit-field " + field + " is not supported", "use a plain integer field");
      } else if (fd->isAnonymousStructOrUnion() || fd->getName().empty()) {
        problem("an anonymous struct or union member is not supported", "give the member a name and a type of its own");
      } else if (ft->isReferenceType()) {
        problem("its reference field " + field + " is not supported", "store the value in the struct");
      } else if (ft->isPointerType()) {
        problem("its pointer field " + field + " is not supported: a struct holds values, not pointers",
                "pass the array as a parameter, and keep an index into it in the struct");
      } else if (std::optional<Scalar> s = scalarOf(ft)) {
        layout.leaves.push_back({fd->getNameAsString(), Type::value(*s)});
      } else if (const auto* at = llvm::dyn_cast_or_null<clang::ConstantArrayType>(ctx_.getAsArrayType(ft))) {
        const clang::QualType element = at->getElementType();
        if (std::optional<Scalar> es = scalarOf(element))
          layout.leaves.push_back({fd->getNameAsString(), Type::array(*es, at->getSize().getZExtValue())});
        else if (element->isArrayType())
          problem("its multi-dimensional array field " + field + " is not supported",
                  "use a 1-D array field and index it as a[i * cols + j]");
        else if (element->isRecordType())
          problem("its array of structs " + field + " is not supported", "use one array field per member");
        else problem("its field " + field + " has unsupported type " + whyUnsupported(ft), "");
      } else if (isUserRecord(ft)) {
        const RecordLayout& inner = layoutOf(ft->getAsRecordDecl());
        if (!inner.problem.empty())
          problem("its field " + field + " of type " + whyUnsupported(ft) + ": " + inner.problem, inner.hint);
        else
          for (const RecordLeaf& leaf : inner.leaves)
            layout.leaves.push_back({fd->getNameAsString() + "_" + leaf.path, leaf.type});
      } else {
        problem("its field " + field + " has unsupported type " + whyUnsupported(ft),
                "fields may be bool, char, the integer types, float, double, fixed-size 1-D arrays of them, and "
                "value structs");
      }
      if (!layout.problem.empty()) break;
      layout.fields[fd] = {first, static_cast<unsigned>(layout.leaves.size()) - first};
    }
    if (layout.problem.empty() && cxx && !cxx->isTriviallyCopyable()) {
      if (cxx->hasUserDeclaredDestructor())
        problem("a struct with a user-declared destructor is not supported: only trivially copyable structs are",
                "remove the destructor");
      else
        problem(
            "a struct with user-defined copy or move operations is not supported: only trivially copyable "
            "structs are",
            "remove the copy and move constructors and assignment operators: the implicit ones copy every field");
    }
  }
  return layouts_.emplace(rd, std::move(layout)).first->second;
}

const Lifter::RecordLayout* Lifter::recordLayout(clang::QualType t, clang::SourceLocation where,
                                                 const std::string& what) {
  const clang::QualType type = t.getNonReferenceType();
  const RecordLayout& layout = layoutOf(type->getAsRecordDecl());
  if (layout.problem.empty()) return &layout;
  // A declaration is always diagnosed; a value of the type only where no declaration was.
  const bool value = what == "a value";
  if (!reportedLayouts_.insert(&layout).second && value) return nullptr;
  error(where, what + " has type " + whyUnsupported(type.getUnqualifiedType()) + ": " + layout.problem, layout.hint);
  return nullptr;
}

bool Lifter::isRecordPointer(clang::QualType t) const {
  return !t.isNull() && t->isPointerType() && isUserRecord(t->getPointeeType());
}

namespace {
// The byte offset of every scalar field of `rd` (nested structs flattened, in declaration order,
// as RecordLayout's leaves), as the host compiler lays the struct out.
void leafOffsets(const clang::ASTContext& ctx, const clang::RecordDecl* rd, std::uint64_t base,
                 std::vector<std::uint64_t>& out) {
  if (const clang::RecordDecl* def = rd->getDefinition()) rd = def;
  const clang::ASTRecordLayout& layout = ctx.getASTRecordLayout(rd);
  for (const clang::FieldDecl* fd : rd->fields()) {
    const std::uint64_t at = base + layout.getFieldOffset(fd->getFieldIndex()) / 8;
    if (const clang::RecordDecl* inner = fd->getType()->getAsRecordDecl()) leafOffsets(ctx, inner, at, out);
    else out.push_back(at);
  }
}
}  // namespace

std::optional<RecordView> Lifter::recordViewOf(clang::QualType type, clang::SourceLocation where,
                                               const std::string& what, RecordPointer& pointer) {
  const RecordLayout* layout = recordLayout(type, where, what);
  if (!layout) return std::nullopt;
  const std::string typeName = whyUnsupported(type.getUnqualifiedType());
  const char* hint =
      "an array of structs is passed as the records' memory: every field one scalar type (float x, y, "
      "z;), nested structs of them too; or pass one array per field";
  if (layout->leaves.empty()) {
    error(where, what + " has type " + typeName + ", which has no fields", hint);
    return std::nullopt;
  }
  const Scalar scalar = layout->leaves[0].type.scalar;
  for (const RecordLeaf& leaf : layout->leaves) {
    if (leaf.type.isArray()) {
      error(where,
            what + " has type " + typeName + ", whose field '" + leaf.path +
                "' is an array: not supported in an array of structs",
            hint);
      return std::nullopt;
    }
    if (leaf.type.scalar != scalar) {
      error(where,
            what + " has type " + typeName + ", whose fields have different types ('" + layout->leaves[0].path +
                "' is " + std::string(spelling(scalar)) + ", '" + leaf.path + "' is " +
                std::string(spelling(leaf.type.scalar)) + ")",
            hint);
      return std::nullopt;
    }
  }
  const clang::RecordDecl* rd = type->getAsRecordDecl()->getDefinition();
  std::vector<std::uint64_t> offsets;
  leafOffsets(ctx_, rd, 0, offsets);
  const clang::ASTRecordLayout& rl = ctx_.getASTRecordLayout(rd);
  const std::uint64_t size = static_cast<std::uint64_t>(rl.getSize().getQuantity());
  const unsigned width = byteSize(scalar);
  bool aligned = offsets.size() == layout->leaves.size() && size % width == 0 && size <= 0xffffffffu;
  for (std::uint64_t o : offsets) aligned = aligned && o % width == 0;
  if (!aligned) {
    error(where,
          what + " has type " + typeName + ", whose layout culift cannot take as " + std::string(spelling(scalar)) +
              " elements",
          hint);
    return std::nullopt;
  }
  RecordView view;
  // Qualified (structs::Body, Pair<double>): two structs of one name in different namespaces
  // stay two types in the emitted CUDA.
  clang::PrintingPolicy policy(ctx_.getLangOpts());
  policy.SuppressTagKeyword = true;
  view.name = clang::TypeName::getFullyQualifiedName(type.getUnqualifiedType(), ctx_, policy);
  view.scalar = scalar;
  view.size = static_cast<std::uint32_t>(size);
  view.align = static_cast<std::uint32_t>(rl.getAlignment().getQuantity());
  pointer.layout = layout;
  pointer.elements = static_cast<std::uint32_t>(size / width);
  pointer.offsets.clear();
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    view.fields.push_back({layout->leaves[k].path, static_cast<std::uint32_t>(offsets[k])});
    pointer.offsets.push_back(static_cast<std::uint32_t>(offsets[k] / width));
  }
  return view;
}

std::optional<Type> Lifter::recordPointerParam(const clang::ParmVarDecl* p, RecordView& view, RecordPointer& pointer) {
  const clang::QualType pointee = p->getType()->getPointeeType();
  const clang::SourceLocation where = p->getLocation().isValid() ? p->getLocation() : p->getBeginLoc();
  std::optional<RecordView> v = recordViewOf(pointee, where, "the array of structs '" + p->getNameAsString() + "'",
                                             pointer);
  if (!v) return std::nullopt;
  view = std::move(*v);
  return Type::pointer(view.scalar, pointee.isConstQualified());
}

std::optional<Lifter::RecordValue> Lifter::recordElement(const RecordPointer& pointer, const clang::Expr* index,
                                                         SourceRange r) {
  if (index && index->HasSideEffects(ctx_)) {
    error(index->getExprLoc(), "the index of an element of an array of structs must have no side effects",
          "compute the index in a statement of its own: int k = i++; then p[k]");
    return std::nullopt;
  }
  RecordValue out;
  out.layout = pointer.layout;
  const Scalar scalar = fs_->fn.vars[pointer.var].type.scalar;
  for (std::uint32_t offset : pointer.offsets) {
    ExprPtr k = index ? expr(index) : intLiteral(Scalar::I64, 0, r);
    if (!k) return std::nullopt;
    if (!k->type.isValue() || !(isInteger(k->type.scalar) || k->type.scalar == Scalar::Bool)) {
      error(index->getExprLoc(), "array index must be an integer");
      return std::nullopt;
    }
    // C++ adds the index to a pointer: computed in long long, which cannot overflow there.
    ExprPtr flat = binaryNode(BinaryOp::Mul, Scalar::I64, convert(std::move(k), Scalar::I64),
                              intLiteral(Scalar::I64, pointer.elements, r));
    if (offset) flat = binaryNode(BinaryOp::Add, Scalar::I64, std::move(flat), intLiteral(Scalar::I64, offset, r));
    auto leaf = std::make_unique<Expr>(ExprKind::Subscript, Type::value(scalar), r);
    leaf->operands.push_back(refTo(fs_->fn, pointer.var, r));
    leaf->operands.push_back(std::move(flat));
    out.leaves.push_back(std::move(leaf));
  }
  out.addressable = true;
  return out;
}

std::string Lifter::freshName(const std::string& base) {
  std::string name = base;
  for (unsigned n = 2; fs_->usedNames.count(name); ++n) name = base + "_" + std::to_string(n);
  fs_->usedNames.insert(name);
  return name;
}

std::vector<VarId> Lifter::declareLeaves(const RecordLayout& layout, const std::string& base, clang::SourceRange where,
                                         bool isParam, Binding binding, bool constArrays) {
  std::vector<VarId> ids;
  for (const RecordLeaf& leaf : layout.leaves) {
    Var v;
    v.name = freshName(base.empty() ? leaf.path : base + "_" + leaf.path);
    v.range = range(where);
    v.isParam = isParam;
    if (leaf.type.isArray()) {
      v.type = isParam ? Type::pointer(leaf.type.scalar, constArrays) : leaf.type;
    } else {
      v.type = leaf.type;
      v.binding = binding;
    }
    ids.push_back(static_cast<VarId>(fs_->fn.vars.size()));
    fs_->fn.vars.push_back(std::move(v));
  }
  return ids;
}


namespace {
// Whether `s` is `dst[k] = src[k]` (both arrays variables, k a literal); sets them.
bool elementCopy(const Stmt& s, VarId& dst, VarId& src, std::uint64_t& k) {
  if (s.kind != StmtKind::ExprStmt || !s.expr || s.expr->kind != ExprKind::Assign) return false;
  const Expr& to = *s.expr->operands[0];
  const Expr& from = *s.expr->operands[1];
  if (to.kind != ExprKind::Subscript || from.kind != ExprKind::Subscript) return false;
  const Expr& i = *to.operands[1];
  const Expr& j = *from.operands[1];
  if (i.kind != ExprKind::IntLiteral || j.kind != ExprKind::IntLiteral || i.intBits != j.intBits) return false;
  dst = to.operands[0]->var;
  src = from.operands[0]->var;
  k = i.intBits;
  return true;
}
}  // namespace

StmtPtr Lifter::copyLoop(VarId dst, VarId src, std::uint64_t n, const SourceRange& where) {
  const SourceRange r = where;  // `where` may be a variable's range, and variables are added below
  VarId k = kNone;
  StmtPtr loop = countingLoop(n, r, k);
  auto element = [&](VarId array) {
    auto out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(fs_->fn.vars[array].type.scalar), r);
    out->operands.push_back(refTo(fs_->fn, array, r));
    out->operands.push_back(refTo(fs_->fn, k, r));
    return out;
  };
  loop->body = makeStmt(StmtKind::ExprStmt, r);
  loop->body->expr = assignment(element(dst), element(src), r);
  return loop;
}

// Statements for effects, one per call or assignment (a comma chain sequence() built is split);
// a long run of element copies dst[0] = src[0], dst[1] = src[1], ... becomes a loop.
void Lifter::effectStatements(std::vector<ExprPtr>& effects, std::vector<StmtPtr>& out) {
  std::vector<StmtPtr> flat;
  std::function<void(std::vector<ExprPtr>&)> flatten = [&](std::vector<ExprPtr>& list) {
    for (ExprPtr& x : list) {
      if (!x) continue;
      if (x->kind == ExprKind::Comma && x->type.isVoid()) {
        std::vector<ExprPtr> parts;
        for (ExprPtr& o : x->operands) parts.push_back(std::move(o));
        flatten(parts);
        continue;
      }
      StmtPtr s = makeStmt(StmtKind::ExprStmt, x->range);
      s->expr = std::move(x);
      flat.push_back(std::move(s));
    }
  };
  flatten(effects);
  effects.clear();
  for (std::size_t i = 0; i < flat.size();) {
    VarId dst = kNone, src = kNone;
    std::uint64_t k = 0;
    std::size_t n = 0;
    if (elementCopy(*flat[i], dst, src, k) && k == 0) {
      VarId d = kNone, s = kNone;
      while (i + n < flat.size() && elementCopy(*flat[i + n], d, s, k) && d == dst && s == src && k == n) ++n;
    }
    if (n > kUnrolledCopy) {
      out.push_back(copyLoop(dst, src, n, flat[i]->range));
      i += n;
      continue;
    }
    out.push_back(std::move(flat[i++]));
  }
}

bool Lifter::allVariables(const RecordValue& value) {
  for (const ExprPtr& leaf : value.leaves)
    if (leaf->kind != ExprKind::VarRef) return false;
  return true;
}

ExprPtr Lifter::cloneLvalue(const Expr& e) {
  // Every field: an element's index may be any expression (ps[k + 1], p[i * 7 + 2]).
  auto out = std::make_unique<Expr>(e.kind, e.type, e.range);
  out->intBits = e.intBits;
  out->floatValue = e.floatValue;
  out->var = e.var;
  out->callee = e.callee;
  out->math = e.math;
  out->unaryOp = e.unaryOp;
  out->binaryOp = e.binaryOp;
  out->incDecOp = e.incDecOp;
  out->computeType = e.computeType;
  out->explicitCast = e.explicitCast;
  out->text = e.text;
  for (const ExprPtr& o : e.operands) out->operands.push_back(cloneLvalue(*o));
  return out;
}

ExprPtr Lifter::sequence(std::vector<ExprPtr> effects, ExprPtr last) {
  if (!last) return nullptr;
  if (effects.empty()) return last;
  effects.push_back(std::move(last));
  return commaOf(effects, 0, effects.size());
}

bool Lifter::recordParam(const clang::ParmVarDecl* p, unsigned index) {
  const clang::QualType t = p->getType();
  const std::string name = p->getName().empty() ? "culift_arg" + std::to_string(index) : p->getNameAsString();
  const clang::SourceLocation where = p->getLocation().isValid() ? p->getLocation() : p->getBeginLoc();
  const RecordLayout* layout = recordLayout(t, where, "parameter '" + name + "'");
  if (!layout) return false;
  const bool ref = t->isReferenceType();
  const bool constant = ref && t.getNonReferenceType().isConstQualified();
  if (fs_->fn.annotated) {
    // A kernel's parameters come from the host per launch: a struct by value, as scalars.
    if (ref) {
      error(where, "reference parameter '" + name + "' of type " + whyUnsupported(t) + " is not supported",
            "a kernel takes a struct by value: its fields become scalar parameters of the kernel");
      return false;
    }
    for (const RecordLeaf& leaf : layout->leaves)
      if (leaf.type.isArray()) {
        error(where,
              "parameter '" + name + "' of a kernel has an array field ('" + leaf.path +
                  "'): a kernel takes the fields of a struct as scalar parameters",
              "pass the array as a pointer parameter of the kernel");
        return false;
      }
  }
  const Binding binding = !ref ? Binding::Value : constant ? Binding::ConstReference : Binding::Reference;
  std::vector<VarId> ids = declareLeaves(*layout, name, p->getSourceRange(), true, binding, !ref || constant);
  if (!ref)  // an array field of a copy: passed as a pointer, copied on entry (fs_->arrayCopies)
    for (unsigned k = 0; k < ids.size(); ++k)
      if (layout->leaves[k].type.isArray()) {
        fs_->usedNames.erase(fs_->fn.vars[ids[k]].name);
        fs_->fn.vars[ids[k]].name = freshName(name + "_" + layout->leaves[k].path + "_in");
        fs_->arrayCopies.push_back({p, k});
      }
  fs_->recordVars[p] = std::move(ids);
  return true;
}

std::vector<VarId> Lifter::temporaries(const RecordLayout& layout, const std::string& base, clang::SourceRange where) {
  std::vector<VarId> ids = declareLeaves(layout, base, where, false, Binding::Value, false);
  for (VarId id : ids) {
    StmtPtr decl = makeStmt(StmtKind::Decl, range(where));
    decl->var = id;
    fs_->pendingDecls.push_back(std::move(decl));
  }
  return ids;
}

void Lifter::assignLeaves(const std::vector<VarId>& targets, RecordValue& value, std::vector<ExprPtr>& out,
                          SourceRange where) {
  for (std::size_t k = 0; k < targets.size() && k < value.leaves.size(); ++k) {
    ExprPtr& leaf = value.leaves[k];
    const Type t = fs_->fn.vars[targets[k]].type;
    if (t.isValue()) {
      out.push_back(assignment(refTo(fs_->fn, targets[k], where), convert(std::move(leaf), t.scalar), where));
      continue;
    }
    if (leaf->kind == ExprKind::VarRef && leaf->var == targets[k]) continue;
    const std::uint64_t n = value.layout->leaves[k].type.extent;
    for (std::uint64_t e = 0; e < n; ++e)
      out.push_back(
          assignment(elementOf(fs_->fn, targets[k], e, where), elementOf(fs_->fn, leaf->var, e, where), where));
  }
}

Lifter::RecordValue Lifter::materialize(RecordValue value, const std::string& base, clang::SourceRange where) {
  RecordValue out;
  out.layout = value.layout;
  const std::vector<VarId> ids = temporaries(*value.layout, base, where);
  out.effects = std::move(value.effects);
  assignLeaves(ids, value, out.effects, range(where));
  for (VarId id : ids) out.leaves.push_back(refTo(fs_->fn, id, range(where)));
  out.addressable = true;
  return out;
}

bool Lifter::fieldInit(const clang::FieldDecl* fd, const clang::Expr* init, std::vector<LeafInit>& out) {
  const clang::QualType ft = fd->getType();
  if (isUserRecord(ft)) {
    return insideNested(ft->getAsRecordDecl(), out.size(), [&] { return nestedFieldInit(ft, init, out); });
  }
  return scalarFieldInit(fd, init, out);
}

bool Lifter::nestedFieldInit(clang::QualType ft, const clang::Expr* init, std::vector<LeafInit>& out) {
  const clang::Expr* e = structOperand(init);
  if (llvm::isa<clang::ImplicitValueInitExpr>(e))
    return defaultInit(ft->getAsRecordDecl(), true, e->getSourceRange(), out);
  const RecordLayout& inner = layoutOf(ft->getAsRecordDecl());
  if (int direct = directInit(e, out)) return direct > 0;
  std::optional<RecordValue> value = recordValue(e);
  if (!value) return false;
  for (std::size_t k = 0; k < value->leaves.size(); ++k) {
    LeafInit leaf;
    if (k == 0) leaf.before = std::move(value->effects);
    if (inner.leaves[k].type.isArray()) leaf.arraySource = std::move(value->leaves[k]);
    else leaf.scalar = std::move(value->leaves[k]);
    out.push_back(std::move(leaf));
  }
  return true;
}

bool Lifter::scalarFieldInit(const clang::FieldDecl* fd, const clang::Expr* init, std::vector<LeafInit>& out) {
  const clang::QualType ft = fd->getType();
  if (const auto* at = llvm::dyn_cast_or_null<clang::ConstantArrayType>(ctx_.getAsArrayType(ft))) {
    const Scalar s = *scalarOf(at->getElementType());
    const clang::Expr* e = structOperand(init);
    LeafInit leaf;
    leaf.arrayInit = true;
    if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(e)) {
      list = semantic(list);
      for (unsigned k = 0; k < list->getNumInits(); ++k) {
        ExprPtr element = convert(expr(list->getInit(k)), s);
        if (!element) return false;
        leaf.elements.push_back(std::move(element));
      }
    } else if (!llvm::isa<clang::ImplicitValueInitExpr>(e)) {
      error(e->getBeginLoc(), "this initializer of the array field '" + fd->getNameAsString() + "' is not supported",
            "initialize it with a brace list: {...}");
      return false;
    }
    out.push_back(std::move(leaf));
    return true;
  }
  LeafInit leaf;
  leaf.scalar = convert(expr(init), *scalarOf(ft));
  if (!leaf.scalar) return false;
  out.push_back(std::move(leaf));
  return true;
}

bool Lifter::insideNested(const clang::RecordDecl* inner, std::size_t at, const std::function<bool()>& lift) {
  const std::vector<VarId>* object = fs_->objectLeaves;
  const RecordLayout* layout = fs_->objectLayout;
  const std::size_t base = fs_->objectBase;
  const RecordLayout& nested = layoutOf(inner);
  std::vector<VarId> leaves;
  const bool inside = object && at >= base && at - base + nested.leaves.size() <= object->size();
  if (inside) leaves.assign(object->begin() + (at - base), object->begin() + (at - base + nested.leaves.size()));
  fs_->objectLeaves = inside ? &leaves : nullptr;
  fs_->objectLayout = &nested;
  fs_->objectBase = at;
  const bool ok = lift();
  fs_->objectLeaves = object;
  fs_->objectLayout = layout;
  fs_->objectBase = base;
  return ok;
}

bool Lifter::defaultInit(const clang::RecordDecl* rd, bool zero, clang::SourceRange where, std::vector<LeafInit>& out) {
  bool ok = true;
  for (const clang::FieldDecl* fd : rd->fields()) {
    if (const clang::Expr* in = fd->getInClassInitializer()) {
      ok = fieldInit(fd, in, out) && ok;
      continue;
    }
    const clang::QualType ft = fd->getType();
    if (isUserRecord(ft)) {
      ok = insideNested(ft->getAsRecordDecl(), out.size(),
                        [&] { return defaultInit(ft->getAsRecordDecl(), zero, where, out); }) &&
           ok;
      continue;
    }
    LeafInit leaf;
    if (ft->isArrayType()) leaf.arrayInit = zero;
    else if (zero) leaf.scalar = this->zero(*scalarOf(ft), where);
    out.push_back(std::move(leaf));
  }
  return ok;
}

int Lifter::directInit(const clang::Expr* e, std::vector<LeafInit>& out) {
  e = structOperand(e);
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(e)) {
    list = semantic(list);
    if (list->isTransparent()) return 0;
    const clang::RecordDecl* rd = list->getType()->getAsRecordDecl();
    bool ok = true;
    unsigned k = 0;
    for (const clang::FieldDecl* fd : rd->fields()) {
      const clang::Expr* init = k < list->getNumInits() ? list->getInit(k) : nullptr;
      ++k;
      // A field the braces leave out is zero, located at the braces (Clang's implicit value has
      // no location of its own).
      if (init && llvm::isa<clang::ImplicitValueInitExpr>(init)) init = nullptr;
      if (!init) init = fd->getInClassInitializer();
      if (init) ok = fieldInit(fd, init, out) && ok;
      else if (isUserRecord(fd->getType())) {
        const clang::RecordDecl* inner = fd->getType()->getAsRecordDecl();
        ok = insideNested(inner, out.size(), [&] { return defaultInit(inner, true, e->getSourceRange(), out); }) && ok;
      } else {
        LeafInit leaf;
        if (fd->getType()->isArrayType()) leaf.arrayInit = true;
        else leaf.scalar = zero(*scalarOf(fd->getType()), e->getSourceRange());
        out.push_back(std::move(leaf));
      }
    }
    return ok ? 1 : -1;
  }
  if (llvm::isa<clang::ImplicitValueInitExpr>(e))
    return defaultInit(e->getType()->getAsRecordDecl(), true, e->getSourceRange(), out) ? 1 : -1;
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
    const clang::CXXConstructorDecl* ctor = construct->getConstructor();
    if (ctor->isDefaultConstructor() && !ctor->isUserProvided())
      return defaultInit(e->getType()->getAsRecordDecl(), construct->requiresZeroInitialization(), e->getSourceRange(),
                         out)
                 ? 1
                 : -1;
  }
  return 0;
}

std::optional<Lifter::RecordValue> Lifter::recordValue(const clang::Expr* e, const std::vector<VarId>* dest) {
  return std::move(value(e, Want{true, dest}).record);
}

const Lifter::RecordLayout* Lifter::valueLayout(const clang::Expr* e) {
  const clang::SourceLocation where = e->getExprLoc();
  if (!isUserRecord(e->getType())) {
    error(where, "expression of type " + whyUnsupported(e->getType()) + " is not supported");
    return nullptr;
  }
  if (referencesRejected(e)) return nullptr;  // diagnosed where the variable was declared
  return recordLayout(e->getType(), where, "a value");
}

Lifter::RecordValue Lifter::leavesOf(const RecordLayout* layout, const std::vector<VarId>& ids, SourceRange r) {
  RecordValue out;
  out.layout = layout;
  for (VarId id : ids) out.leaves.push_back(refTo(fs_->fn, id, r));
  out.addressable = true;
  return out;
}

std::optional<Lifter::RecordValue> Lifter::recordThis(const clang::Expr* e) {
  const SourceRange r = range(e->getSourceRange());
  if (fs_->objectLeaves)  // a default member initializer naming another field
    return leavesOf(fs_->objectLayout, *fs_->objectLeaves, r);
  const clang::CXXMethodDecl* method = memberFunction(fs_->decl);
  if (!method) {
    error(e->getExprLoc(),
          "a default member initializer reading another field is supported in a declaration of a local only",
          "declare the struct as a local variable, or initialize the field explicitly");
    return std::nullopt;
  }
  return leavesOf(&layoutOf(method->getParent()), fs_->selfLeaves, r);
}

std::optional<Lifter::RecordValue> Lifter::recordVariable(const clang::DeclRefExpr* ref, const RecordLayout* layout) {
  const clang::SourceLocation where = ref->getExprLoc();
  const clang::ValueDecl* d = ref->getDecl();
  if (const auto* b = llvm::dyn_cast<clang::BindingDecl>(d)) return recordValue(b->getBinding());
  if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d); v && fs_->rejectedVars.count(v)) return std::nullopt;
  if (auto it = fs_->recordVars.find(d); it != fs_->recordVars.end())
    return leavesOf(layout, it->second, range(ref->getSourceRange()));
  const auto* v = llvm::dyn_cast<clang::VarDecl>(d);
  if (v && !v->isLocalVarDeclOrParm())
    error(where, "global struct '" + d->getNameAsString() + "' is not supported",
          "pass it as a parameter, or declare it in the function that uses it");
  else error(where, "the struct '" + d->getNameAsString() + "' cannot be used here");
  return std::nullopt;
}

std::optional<Lifter::RecordValue> Lifter::recordMember(const clang::MemberExpr* member, const RecordLayout* layout) {
  const clang::SourceLocation where = member->getExprLoc();
  const auto* fd = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
  // p->inner of an array of structs: a field of p[0].
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
  auto pointer = ref && member->isArrow() ? fs_->recordPointers.find(ref->getDecl()) : fs_->recordPointers.end();
  if (!fd || (member->isArrow() && !isThis(member->getBase()) && pointer == fs_->recordPointers.end())) {
    if (referencesRejected(member)) return std::nullopt;
    error(where, "member access through a pointer is not supported", "copy the struct into a local variable");
    return std::nullopt;
  }
  std::optional<RecordValue> base = pointer != fs_->recordPointers.end()
                                        ? recordElement(pointer->second, nullptr, range(member->getSourceRange()))
                                        : recordValue(member->getBase());
  if (!base) return std::nullopt;
  auto field = base->layout->fields.find(fd);
  if (field == base->layout->fields.end()) {
    error(where, "this access to the field '" + fd->getNameAsString() + "' is not supported here");
    return std::nullopt;
  }
  auto [first, count] = field->second;
  RecordValue out;
  out.layout = layout;
  out.effects = std::move(base->effects);
  out.addressable = base->addressable;
  for (unsigned k = first; k < first + count; ++k) out.leaves.push_back(std::move(base->leaves[k]));
  return out;
}

std::optional<Lifter::RecordValue> Lifter::recordInit(const clang::Expr* e, const RecordLayout* layout,
                                                      const std::vector<VarId>* dest) {
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(e); list && semantic(list)->isTransparent())
    return recordValue(semantic(list)->getInit(0), dest);
  std::vector<LeafInit> inits;
  if (int direct = directInit(e, inits)) {
    if (direct < 0) return std::nullopt;
    return initializedValue(e, layout, inits);
  }
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
    const clang::CXXConstructorDecl* ctor = construct->getConstructor();
    if (ctor->isCopyOrMoveConstructor() && !ctor->isUserProvided() && construct->getNumArgs() >= 1) {
      std::optional<RecordValue> source = recordValue(construct->getArg(0));
      if (source) source->addressable = false;  // a copy
      return source;
    }
    return recordCall(e, dest);
  }
  return unsupportedRecord(e);
}

Lifter::RecordValue Lifter::initializedValue(const clang::Expr* e, const RecordLayout* layout,
                                             std::vector<LeafInit>& inits) {
  const SourceRange r = range(e->getSourceRange());
  RecordValue out;
  out.layout = layout;
  for (std::size_t k = 0; k < inits.size(); ++k) {
    LeafInit& leaf = inits[k];
    for (ExprPtr& x : leaf.before) out.effects.push_back(std::move(x));
    const Type t = out.layout->leaves[k].type;
    if (t.isValue()) {
      out.leaves.push_back(leaf.scalar ? std::move(leaf.scalar) : zero(t.scalar, e->getSourceRange()));
      continue;
    }
    // An array in a temporary struct: an array of its own, filled element by element.
    Var temp;
    temp.name = freshName("tmp_" + out.layout->leaves[k].path);
    temp.type = t;
    temp.range = r;
    const VarId id = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(temp));
    StmtPtr decl = makeStmt(StmtKind::Decl, r);
    decl->var = id;
    fs_->pendingDecls.push_back(std::move(decl));
    if (leaf.arraySource) {
      for (std::uint64_t i = 0; i < t.extent; ++i)
        out.effects.push_back(
            assignment(elementOf(fs_->fn, id, i, r), elementOf(fs_->fn, leaf.arraySource->var, i, r), r));
    } else if (leaf.arrayInit) {
      for (std::uint64_t i = 0; i < t.extent; ++i)
        out.effects.push_back(
            assignment(elementOf(fs_->fn, id, i, r),
                       i < leaf.elements.size() ? std::move(leaf.elements[i]) : zero(t.scalar, e->getSourceRange()),
                       r));
    }
    out.leaves.push_back(refTo(fs_->fn, id, r));
  }
  return out;
}

std::optional<Lifter::RecordValue> Lifter::recordSubscript(const clang::ArraySubscriptExpr* element,
                                                           const RecordLayout* layout) {
  const SourceRange r = range(element->getSourceRange());
  if (referencesRejected(element)) return std::nullopt;
  // An element of a local array of structs: the same element of each field's array.
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(element->getBase()->IgnoreParenImpCasts());
  if (auto pointer = ref ? fs_->recordPointers.find(ref->getDecl()) : fs_->recordPointers.end();
      pointer != fs_->recordPointers.end())
    return recordElement(pointer->second, element->getIdx(), r);
  auto found = ref ? fs_->structArrays.find(ref->getDecl()) : fs_->structArrays.end();
  if (found == fs_->structArrays.end()) {
    error(element->getExprLoc(), "only a local array of structs or an array-of-structs parameter can be indexed",
          "index a local array (P ps[4]) or a parameter const P* p");
    return std::nullopt;
  }
  if (element->getIdx()->HasSideEffects(ctx_)) {
    error(element->getIdx()->getExprLoc(), "the index of an element of an array of structs must have no side effects",
          "compute the index in a statement of its own: int k = i++; then ps[k]");
    return std::nullopt;
  }
  RecordValue out;
  out.layout = layout;
  for (VarId id : found->second) {
    ExprPtr index = expr(element->getIdx());
    if (!index) return std::nullopt;
    if (!index->type.isValue() || !(isInteger(index->type.scalar) || index->type.scalar == Scalar::Bool)) {
      error(element->getIdx()->getExprLoc(), "array index must be an integer");
      return std::nullopt;
    }
    auto leaf = std::make_unique<Expr>(ExprKind::Subscript, Type::value(fs_->fn.vars[id].type.scalar), r);
    leaf->operands.push_back(refTo(fs_->fn, id, r));
    leaf->operands.push_back(std::move(index));
    out.leaves.push_back(std::move(leaf));
  }
  out.addressable = true;
  return out;
}

std::optional<Lifter::RecordValue> Lifter::unsupportedRecord(const clang::Expr* e) {
  if (llvm::isa<clang::ConditionalOperator, clang::BinaryConditionalOperator>(e)) {
    error(e->getExprLoc(), "choosing between structs with ?: is not supported",
          "assign the struct in an if/else instead");
    return std::nullopt;
  }
  error(e->getExprLoc(), std::string("unsupported expression '") + e->getStmtClassName() + "' of struct type " +
                             whyUnsupported(e->getType()));
  return std::nullopt;
}

std::optional<Lifter::RecordValue> Lifter::recordCall(const clang::Expr* e, const std::vector<VarId>* dest) {
  const clang::SourceLocation where = e->getBeginLoc();
  RecordValue out;
  out.layout = &layoutOf(e->getType()->getAsRecordDecl());
  const auto* call = llvm::dyn_cast<clang::CallExpr>(e);
  const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e);
  const clang::FunctionDecl* callee = construct ? construct->getConstructor() : call->getDirectCallee();
  const clang::Expr* object = nullptr;
  std::vector<const clang::Expr*> args;
  if (construct) {
    for (const clang::Expr* a : construct->arguments()) args.push_back(a);
  } else {
    if (referencesRejected(call)) return std::nullopt;
    if (!callee) {
      error(where, "calls through function pointers are not supported", "call the function by name");
      return std::nullopt;
    }
    unsigned first = 0;
    if (const auto* m = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) object = m->getImplicitObjectArgument();
    else if (llvm::isa<clang::CXXOperatorCallExpr>(call) && memberFunction(callee)) object = call->getArg(first++);
    for (unsigned k = first; k < call->getNumArgs(); ++k) args.push_back(call->getArg(k));
  }
  if (const auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(callee); m && m->getParent()->isLambda()) {
    error(where, "a lambda returning a struct is not supported",
          "write a function returning the struct, or return the fields through reference parameters");
    return std::nullopt;
  }
  // The compiler's assignment of a value struct: leaf by leaf (the value first, as C++ orders it).
  if (const auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(callee);
      m && (m->isCopyAssignmentOperator() || m->isMoveAssignmentOperator()) && !m->isUserProvided() && object &&
      args.size() == 1) {
    std::optional<RecordValue> value = recordValue(args[0]);
    std::optional<RecordValue> target = value ? recordValue(object) : std::nullopt;
    if (!value || !target) return std::nullopt;
    if (!target->addressable) {
      error(object->getExprLoc(), "the target of an assignment must be a variable or a field");
      return std::nullopt;
    }
    if (!value->addressable) *value = materialize(std::move(*value), "tmp", args[0]->getSourceRange());
    out.effects = std::move(value->effects);
    for (ExprPtr& x : target->effects) out.effects.push_back(std::move(x));
    if (allVariables(*target)) {
      std::vector<VarId> ids;
      for (const ExprPtr& leaf : target->leaves) ids.push_back(leaf->var);
      assignLeaves(ids, *value, out.effects, range(e->getSourceRange()));
    } else {  // an element of an array of structs: its leaves are array elements, all scalars
      for (std::size_t k = 0; k < target->leaves.size(); ++k)
        out.effects.push_back(assignment(cloneLvalue(*target->leaves[k]),
                                         convert(std::move(value->leaves[k]), target->leaves[k]->type.scalar),
                                         range(e->getSourceRange())));
    }
    out.leaves = std::move(target->leaves);
    out.addressable = true;
    return out;
  }
  if (isLibraryFunction(callee)) {
    error(where, "call to '" + callee->getQualifiedNameAsString() + "' is not supported",
          "library types are not available in kernels");
    return std::nullopt;
  }
  if (construct && !callee->isUserProvided()) {
    error(where, "this constructor of " + whyUnsupported(e->getType()) + " is not supported");
    return std::nullopt;
  }
  const clang::FunctionDecl* def = callee->getDefinition();
  if (!def || !def->hasBody()) {
    error(where, "call to '" + callee->getQualifiedNameAsString() + "', which has no body culift can see",
          "define the function in this file or in a header it includes");
    return std::nullopt;
  }
  if (returnsOwnObject(def)) {
    // operator+= and the like: the call, then the object it changed.
    std::optional<RecordValue> self = recordValue(object);
    if (!self) return std::nullopt;
    if (!self->addressable || !self->effects.empty()) {
      error(where, "'" + callee->getQualifiedNameAsString() + "' can only be called on a variable here",
            "call it on a local variable or a parameter");
      return std::nullopt;
    }
    ExprPtr c = userCall(e, def, object, nullptr, args, nullptr);
    if (!c) return std::nullopt;
    out.effects.push_back(std::move(c));
    out.leaves = std::move(self->leaves);
    out.addressable = true;
    return out;
  }
  if (callee->getReturnType()->isReferenceType()) {
    error(where,
          "'" + callee->getQualifiedNameAsString() +
              "' returns a reference: functions returning references are not supported",
          "return the struct by value");
    return std::nullopt;
  }
  // A struct result: the callee writes it through reference parameters (a constructor: through
  // its object's), into `dest` or into temporaries.
  const std::vector<VarId> results = dest ? *dest : temporaries(*out.layout, "tmp", e->getSourceRange());
  ExprPtr c = construct ? userCall(e, def, nullptr, &results, args, nullptr)
                        : userCall(e, def, object, nullptr, args, &results);
  if (!c) return std::nullopt;
  out.effects.push_back(std::move(c));
  for (VarId id : results) out.leaves.push_back(refTo(fs_->fn, id, range(e->getSourceRange())));
  out.addressable = true;
  return out;
}

bool Lifter::pushArgument(const clang::Expr* arg, const clang::ParmVarDecl* param, std::vector<ExprPtr>& args,
                          std::vector<ExprPtr>& effects) {
  if (param && isClosureType(param->getType().getNonReferenceType()))
    return closureArguments(arg, !param->getType()->isReferenceType(), args);
  if (param && isUserRecord(param->getType().getNonReferenceType())) {
    std::optional<RecordValue> value = recordValue(arg);
    if (!value) return false;
    const clang::QualType t = param->getType();
    if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified() && !value->addressable) {
      error(arg->getExprLoc(),
            "the argument of reference parameter '" + param->getNameAsString() + "' must be a variable or a field",
            "assign the value to a local variable and pass that");
      return false;
    }
    for (ExprPtr& x : value->effects) effects.push_back(std::move(x));
    for (ExprPtr& leaf : value->leaves) args.push_back(std::move(leaf));
    return true;
  }
  if (param && param->getType()->isReferenceType() && scalarOf(param->getType().getNonReferenceType()))
    args.push_back(referenceArgument(arg, param));
  else args.push_back(expr(arg));
  return args.back() != nullptr;
}

ExprPtr Lifter::userCall(const clang::Expr* call, const clang::FunctionDecl* def, const clang::Expr* object,
                         const std::vector<VarId>* self, const std::vector<const clang::Expr*>& args,
                         const std::vector<VarId>* out, ExprPtr resultArray) {
  const clang::SourceLocation where = call->getBeginLoc();
  const SourceRange r = range(call->getSourceRange());
  std::vector<ExprPtr> operands, effects;
  bool ok = true;
  const clang::CXXMethodDecl* method = memberFunction(def);
  if (self) {
    for (VarId id : *self) operands.push_back(refTo(fs_->fn, id, r));
  } else if (method && object) {
    std::optional<RecordValue> o = recordValue(object);
    if (!o) {
      ok = false;
    } else {
      if (!method->isConst() && !o->addressable) *o = materialize(std::move(*o), "tmp", object->getSourceRange());
      for (ExprPtr& x : o->effects) effects.push_back(std::move(x));
      for (ExprPtr& leaf : o->leaves) operands.push_back(std::move(leaf));
    }
  }
  for (std::size_t k = 0; k < args.size(); ++k) {
    const clang::ParmVarDecl* param = k < def->getNumParams() ? def->getParamDecl(static_cast<unsigned>(k)) : nullptr;
    ok = pushArgument(args[k], param, operands, effects) && ok;
  }
  if (out)
    for (VarId id : *out) operands.push_back(refTo(fs_->fn, id, r));
  const bool returnsArray = resultArray != nullptr;
  if (resultArray) operands.push_back(std::move(resultArray));  // the callee's last parameter: its result
  std::optional<Scalar> result;
  if (!out && !self && !returnsArray && !returnsOwnObject(def) && !call->getType()->isVoidType()) {
    result = valueType(call->getType(), where);
    if (!result) return nullptr;
  }
  const FuncId id = enqueue(def, false, {});
  edges_.push_back({fs_->id, id, where});
  if (!ok) return nullptr;
  auto c = std::make_unique<Expr>(ExprKind::Call, Type::value(result.value_or(Scalar::Void)), r);
  c->callee = id;
  c->operands = std::move(operands);
  return sequence(std::move(effects), std::move(c));
}

ExprPtr Lifter::memberExpr(const clang::MemberExpr* e) {
  const clang::SourceLocation where = e->getMemberLoc();
  const clang::ValueDecl* member = e->getMemberDecl();
  if (llvm::isa<clang::VarDecl>(member)) return fold(e, where, "static member '" + member->getNameAsString() + "'");
  const auto* fd = llvm::dyn_cast<clang::FieldDecl>(member);
  const clang::Expr* base = e->getBase();
  const clang::QualType baseType = e->isArrow() ? base->getType()->getPointeeType() : base->getType();
  if (fd && isStdPair(baseType)) return pairMember(e);
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base->IgnoreParenImpCasts()); e->isArrow() && ref) {
    // p->x of an array of structs: p[0].x.
    if (auto pointer = fs_->recordPointers.find(ref->getDecl()); pointer != fs_->recordPointers.end() && fd) {
      std::optional<RecordValue> value = recordElement(pointer->second, nullptr, range(e->getSourceRange()));
      if (!value) return nullptr;
      auto found = value->layout->fields.find(fd);
      if (found == value->layout->fields.end()) return fail(where, "unknown field '" + fd->getNameAsString() + "'");
      return std::move(value->leaves[found->second.first]);
    }
  }
  if (!fd || !isUserRecord(baseType) || (e->isArrow() && !isThis(base))) {
    if (referencesRejected(e)) return nullptr;
    if (e->isArrow() && fd && isUserRecord(baseType))
      return fail(where, "member access through a pointer is not supported", "copy the struct into a local variable");
    return fail(where, "member access is not supported here", "fields of value structs can be read and written");
  }
  std::optional<RecordValue> value = recordValue(base);
  if (!value) return nullptr;
  auto found = value->layout->fields.find(fd);
  if (found == value->layout->fields.end()) return fail(where, "unknown field '" + fd->getNameAsString() + "'");
  ExprPtr leaf = std::move(value->leaves[found->second.first]);
  if (leaf->type.isValue()) return sequence(std::move(value->effects), std::move(leaf));
  if (!value->effects.empty())
    return fail(where, "an array field of a struct returned by a call cannot be used directly",
                "store the struct in a local variable first");
  return leaf;
}


}  // namespace culift::frontend
