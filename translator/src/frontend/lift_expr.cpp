// Expressions. Every implicit conversion Clang inserted becomes an explicit Cast node;
// lvalue-to-rvalue, array decay and qualification changes leave none. Constants of the
// enclosing scopes (constexpr/const scalars, enumerators, sizeof) are folded to literals.
#include "clang/AST/ExprCXX.h"
#include "function_state.hpp"
#include "record_nodes.hpp"

namespace culift::frontend {
namespace {

std::uint64_t literalBits(const llvm::APInt& v, bool isSigned) {
  return isSigned ? static_cast<std::uint64_t>(v.sextOrTrunc(64).getSExtValue()) : v.zextOrTrunc(64).getZExtValue();
}

const char* kIndexHint = "index the array instead: x[i * cols + k]";

std::optional<UnaryOp> unaryOp(clang::UnaryOperatorKind k) {
  switch (k) {
    case clang::UO_Minus: return UnaryOp::Neg;
    case clang::UO_Plus: return UnaryOp::Plus;
    case clang::UO_LNot: return UnaryOp::LogNot;
    case clang::UO_Not: return UnaryOp::BitNot;
    default: return std::nullopt;
  }
}

std::optional<IncDecOp> incDecOp(clang::UnaryOperatorKind k) {
  switch (k) {
    case clang::UO_PreInc: return IncDecOp::PreInc;
    case clang::UO_PreDec: return IncDecOp::PreDec;
    case clang::UO_PostInc: return IncDecOp::PostInc;
    case clang::UO_PostDec: return IncDecOp::PostDec;
    default: return std::nullopt;
  }
}

std::optional<BinaryOp> binaryOp(clang::BinaryOperatorKind k) {
  switch (k) {
    case clang::BO_Add:
    case clang::BO_AddAssign: return BinaryOp::Add;
    case clang::BO_Sub:
    case clang::BO_SubAssign: return BinaryOp::Sub;
    case clang::BO_Mul:
    case clang::BO_MulAssign: return BinaryOp::Mul;
    case clang::BO_Div:
    case clang::BO_DivAssign: return BinaryOp::Div;
    case clang::BO_Rem:
    case clang::BO_RemAssign: return BinaryOp::Rem;
    case clang::BO_Shl:
    case clang::BO_ShlAssign: return BinaryOp::Shl;
    case clang::BO_Shr:
    case clang::BO_ShrAssign: return BinaryOp::Shr;
    case clang::BO_And:
    case clang::BO_AndAssign: return BinaryOp::BitAnd;
    case clang::BO_Or:
    case clang::BO_OrAssign: return BinaryOp::BitOr;
    case clang::BO_Xor:
    case clang::BO_XorAssign: return BinaryOp::BitXor;
    case clang::BO_LT: return BinaryOp::Lt;
    case clang::BO_GT: return BinaryOp::Gt;
    case clang::BO_LE: return BinaryOp::Le;
    case clang::BO_GE: return BinaryOp::Ge;
    case clang::BO_EQ: return BinaryOp::Eq;
    case clang::BO_NE: return BinaryOp::Ne;
    case clang::BO_LAnd: return BinaryOp::LogAnd;
    case clang::BO_LOr: return BinaryOp::LogOr;
    default: return std::nullopt;
  }
}

// The condition of an assert without what only documents it: casts to bool (added back when
// lifted) and a message joined with && (`assert(n > 0 && "n must be positive")`).
const clang::Expr* assertedCondition(const clang::Expr* e) {
  for (;;) {
    e = e->IgnoreParens();
    if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(e);
        cast && cast->getType()->isBooleanType() && cast->getCastKind() != clang::CK_PointerToBoolean) {
      e = cast->getSubExpr();
      continue;
    }
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->getOpcode() == clang::BO_LAnd) {
      if (llvm::isa<clang::StringLiteral>(b->getRHS()->IgnoreParenImpCasts())) {
        e = b->getLHS();
        continue;
      }
      if (llvm::isa<clang::StringLiteral>(b->getLHS()->IgnoreParenImpCasts())) {
        e = b->getRHS();
        continue;
      }
    }
    return e;
  }
}

bool isPointerLike(const clang::Expr* e) {
  clang::QualType t = e->getType();
  return t->isPointerType() || t->isArrayType() || t->isNullPtrType();
}

// The operand of a wrapper that means nothing for scalar code: parentheses, cleanups,
// temporaries, default arguments and member initializers, template arguments, __extension__.
// Null for any other expression.
const clang::Expr* scalarOperand(const clang::Expr* e) {
  if (const auto* p = llvm::dyn_cast<clang::ParenExpr>(e)) return p->getSubExpr();
  if (const auto* f = llvm::dyn_cast<clang::FullExpr>(e)) return f->getSubExpr();
  if (const auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) return m->getSubExpr();
  if (const auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) return b->getSubExpr();
  if (const auto* d = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e)) return d->getExpr();
  if (const auto* d = llvm::dyn_cast<clang::CXXDefaultInitExpr>(e)) return d->getExpr();
  if (const auto* s = llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e)) return s->getReplacement();
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->getOpcode() == clang::UO_Extension)
    return u->getSubExpr();
  return nullptr;
}

}  // namespace

bool Lifter::referencesRejected(const clang::Stmt* s) const {
  if (!s) return false;
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s))
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()); v && fs_->rejectedVars.count(v)) return true;
  for (const clang::Stmt* child : s->children())
    if (referencesRejected(child)) return true;
  return false;
}

ExprPtr Lifter::zero(Scalar s, clang::SourceRange r) {
  if (isFloating(s)) {
    auto out = std::make_unique<Expr>(ExprKind::FloatLiteral, Type::value(s), range(r));
    out->floatValue = 0.0;
    return out;
  }
  return std::make_unique<Expr>(s == Scalar::Bool ? ExprKind::BoolLiteral : ExprKind::IntLiteral, Type::value(s),
                                range(r));
}

ExprPtr Lifter::convert(ExprPtr e, Scalar to, bool explicitCast) {
  if (!e) return nullptr;
  if (!explicitCast && e->type.isValue() && e->type.scalar == to) return e;
  SourceRange r = e->range;
  auto cast = std::make_unique<Expr>(ExprKind::Cast, Type::value(to), std::move(r));
  cast->explicitCast = explicitCast;
  cast->operands.push_back(std::move(e));
  return cast;
}

ExprPtr Lifter::literal(const clang::APValue& v, clang::QualType t, clang::SourceRange r) {
  std::optional<Scalar> s = valueType(t, r.getBegin());
  if (!s) return nullptr;
  if (v.isInt()) {
    if (*s == Scalar::Bool) {
      auto out = std::make_unique<Expr>(ExprKind::BoolLiteral, Type::value(*s), range(r));
      out->intBits = v.getInt().isZero() ? 0 : 1;
      return out;
    }
    if (isFloating(*s)) return fail(r.getBegin(), "constant of unexpected kind");
    auto out = std::make_unique<Expr>(ExprKind::IntLiteral, Type::value(*s), range(r));
    out->intBits = literalBits(v.getInt(), isSigned(*s));
    return out;
  }
  if (v.isFloat() && isFloating(*s)) {
    auto out = std::make_unique<Expr>(ExprKind::FloatLiteral, Type::value(*s), range(r));
    llvm::APFloat f = v.getFloat();
    bool lost = false;
    f.convert(*s == Scalar::F32 ? llvm::APFloat::IEEEsingle() : llvm::APFloat::IEEEdouble(),
              llvm::APFloat::rmNearestTiesToEven, &lost);
    out->floatValue = *s == Scalar::F32 ? static_cast<double>(f.convertToFloat()) : f.convertToDouble();
    return out;
  }
  return fail(r.getBegin(), "constant of type " + whyUnsupported(t) + " cannot be used");
}

ExprPtr Lifter::fold(const clang::Expr* e, clang::SourceLocation where, const std::string& what) {
  clang::Expr::EvalResult result;
  if (e->isValueDependent() || !e->EvaluateAsRValue(result, ctx_) || result.HasSideEffects)
    return fail(where, what + " is not a compile-time constant", "make it constexpr, or pass the value as a parameter");
  return literal(result.Val, e->getType(), e->getSourceRange());
}

ExprPtr Lifter::expr(const clang::Expr* e) {
  if (!e) return nullptr;
  // Deeply nested expressions (a + a + ... thousands of times) would exhaust the stack here,
  // in the emitter and in the interpreter: reject them once, at the outermost expression.
  const NestingLevel level(fs_->exprDepth);
  if (tooDeep(fs_->exprDepth, kMaxExprDepth, fs_->exprDepthReported, e->getExprLoc(), "expression",
              "split it into several statements with local variables"))
    return nullptr;
  return std::move(value(e, Want{}).scalar);
}

Lifter::LiftedValue Lifter::value(const clang::Expr* e, Want want) {
  if (!e) return want.record ? LiftedValue(std::nullopt) : LiftedValue(ExprPtr());
  const RecordLayout* layout = nullptr;  // a struct value's type
  if (want.record) {
    e = record::structOperand(e);
    if (record::isThis(e)) return recordThis(e);
    layout = valueLayout(e);
    if (!layout) return LiftedValue(std::nullopt);
  } else {
    if (const clang::Expr* inner = scalarOperand(e)) return expr(inner);
    // A struct value is its leaves: only the contexts that take one (declarations, arguments,
    // assignments, returns, field access) lift it.
    if (isUserRecord(e->getType())) {
      if (referencesRejected(e)) return ExprPtr();
      return fail(e->getExprLoc(), "a struct value cannot be used here",
                  "use its fields (v.x), or store it in a variable and pass that");
    }
  }

  // The kinds both forms take: each decides by the form wanted.
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e))
    return want.record ? LiftedValue(recordVariable(d, layout)) : LiftedValue(declRef(d));
  if (const auto* m = llvm::dyn_cast<clang::MemberExpr>(e))
    return want.record ? LiftedValue(recordMember(m, layout)) : LiftedValue(memberExpr(m));
  if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
    return want.record ? LiftedValue(recordSubscript(a, layout)) : LiftedValue(subscript(a));
  if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e))
    return want.record ? LiftedValue(recordCall(c, want.dest)) : LiftedValue(call(c));
  if (const auto* l = llvm::dyn_cast<clang::InitListExpr>(e))
    return want.record ? LiftedValue(recordInit(l, layout, want.dest)) : LiftedValue(initList(l));
  if (const auto* c = llvm::dyn_cast<clang::CXXConstructExpr>(e))
    return want.record ? LiftedValue(recordInit(c, layout, want.dest)) : LiftedValue(constructExpr(c));
  if (llvm::isa<clang::ImplicitValueInitExpr>(e))
    return want.record ? LiftedValue(recordInit(e, layout, want.dest)) : LiftedValue(zeroInit(e));
  // The kinds of scalar values only.
  if (want.record) return unsupportedRecord(e);
  if (const auto* c = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) return implicitCast(c);
  if (const auto* c = llvm::dyn_cast<clang::ExplicitCastExpr>(e)) return explicitCast(c);
  if (llvm::isa<clang::IntegerLiteral, clang::FloatingLiteral, clang::CXXBoolLiteralExpr, clang::CharacterLiteral>(e))
    return literalExpr(e);
  if (llvm::isa<clang::CXXScalarValueInitExpr>(e)) return zeroInit(e);
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e)) return unary(u);
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e)) return binary(b);
  if (const auto* c = llvm::dyn_cast<clang::ConditionalOperator>(e)) return conditional(c);
  if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(e)) return fold(e, e->getExprLoc(), "this sizeof/alignof");
  return rejectedExpr(e);
}

ExprPtr Lifter::literalExpr(const clang::Expr* e) {
  const clang::SourceRange sr = e->getSourceRange();
  if (const auto* lit = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(e)) {
    auto out = std::make_unique<Expr>(ExprKind::BoolLiteral, Type::value(Scalar::Bool), range(sr));
    out->intBits = lit->getValue() ? 1 : 0;
    return out;
  }
  std::optional<Scalar> s = valueType(e->getType(), e->getExprLoc());
  if (!s) return nullptr;
  if (const auto* lit = llvm::dyn_cast<clang::IntegerLiteral>(e)) {
    auto out = std::make_unique<Expr>(ExprKind::IntLiteral, Type::value(*s), range(sr));
    out->intBits = literalBits(lit->getValue(), isSigned(*s));
    return out;
  }
  if (const auto* lit = llvm::dyn_cast<clang::FloatingLiteral>(e)) {
    auto out = std::make_unique<Expr>(ExprKind::FloatLiteral, Type::value(*s), range(sr));
    const llvm::APFloat& v = lit->getValue();
    out->floatValue = *s == Scalar::F32 ? static_cast<double>(v.convertToFloat()) : v.convertToDouble();
    return out;
  }
  const auto* lit = llvm::cast<clang::CharacterLiteral>(e);
  auto out = std::make_unique<Expr>(ExprKind::IntLiteral, Type::value(*s), range(sr));
  out->intBits = literalBits(llvm::APInt(byteSize(*s) * 8, lit->getValue(), /*isSigned=*/false), isSigned(*s));
  return out;
}

ExprPtr Lifter::zeroInit(const clang::Expr* e) {
  std::optional<Scalar> s = valueType(e->getType(), e->getExprLoc());
  return s ? zero(*s, e->getSourceRange()) : nullptr;
}

ExprPtr Lifter::conditional(const clang::ConditionalOperator* c) {
  if (const clang::CallExpr* failure = assertionFailure(c)) return assertion(c, failure);
  const clang::SourceLocation where = c->getExprLoc();
  ExprPtr cond = expr(c->getCond());
  ExprPtr yes = expr(c->getTrueExpr());
  ExprPtr no = expr(c->getFalseExpr());
  Type type = Type::value(Scalar::Void);
  if (!c->getType()->isVoidType()) {
    std::optional<Scalar> s = valueType(c->getType(), where);
    if (!s) return nullptr;
    type = Type::value(*s);
  }
  if (!cond || !yes || !no) return nullptr;
  if (!yes->type.isValue() || !no->type.isValue())
    return fail(where, "a conditional choosing between arrays is not supported", kIndexHint);
  auto out = std::make_unique<Expr>(ExprKind::Conditional, type, range(c->getSourceRange()));
  out->operands.push_back(convert(std::move(cond), Scalar::Bool));
  out->operands.push_back(std::move(yes));
  out->operands.push_back(std::move(no));
  return out;
}

ExprPtr Lifter::constructExpr(const clang::CXXConstructExpr* c) {
  if (stdArrayOf(c->getType()) && c->getNumArgs() == 1 && c->getConstructor() &&
      (c->getConstructor()->isCopyConstructor() || c->getConstructor()->isMoveConstructor()))
    return expr(c->getArg(0));  // the array a by-value std::array parameter copies
  return fail(c->getExprLoc(), "constructing an object of type " + whyUnsupported(c->getType()) + " is not supported",
              "structs, classes and library types are not available in kernels");
}

ExprPtr Lifter::rejectedExpr(const clang::Expr* e) {
  // Rejected constructs, each with a message a user can act on.
  const clang::SourceLocation where = e->getExprLoc();
  if (llvm::isa<clang::CXXThrowExpr>(e))
    return fail(where, "throw is not supported: exceptions are not available on the device",
                "return a sentinel value, or write an error flag to an output array");
  if (llvm::isa<clang::CXXNewExpr>(e))
    return fail(where, "new is not supported: there is no dynamic allocation on the device",
                "use a fixed-size local array, or pass a scratch array as a parameter");
  if (llvm::isa<clang::CXXDeleteExpr>(e))
    return fail(where, "delete is not supported: there is no dynamic allocation on the device",
                "use a fixed-size local array, or pass a scratch array as a parameter");
  if (llvm::isa<clang::LambdaExpr>(e))
    return fail(where, "a lambda can only be named by a local variable or passed to a function template",
                "auto f = [&](float x) { return x * k; }; then call f(x), or pass f (or the lambda) to a template");
  if (llvm::isa<clang::CXXThisExpr>(e))
    return fail(where, "'this' as a pointer is not supported", "use the fields, or *this for the object");
  if (llvm::isa<clang::StringLiteral>(e)) return fail(where, "string literals are not supported");
  if (llvm::isa<clang::CXXNullPtrLiteralExpr, clang::GNUNullExpr>(e))
    return fail(where, "null pointers are not supported", kIndexHint);
  if (llvm::isa<clang::CXXStdInitializerListExpr>(e)) return fail(where, "initializer lists are not supported");
  return fail(where, std::string("unsupported expression '") + e->getStmtClassName() + "'");
}

const clang::CallExpr* Lifter::assertionFailure(const clang::ConditionalOperator* c) const {
  // <cassert> expands assert(cond) to `cond ? void(0) : __assert_fail("cond", __FILE__, ...)`
  // (glibc; the other C libraries name the function differently).
  if (!c->getType()->isVoidType()) return nullptr;
  const auto* call = llvm::dyn_cast<clang::CallExpr>(c->getFalseExpr()->IgnoreParenImpCasts());
  const clang::FunctionDecl* fd = call ? call->getDirectCallee() : nullptr;
  if (!fd || !fd->getDeclName().isIdentifier() || !isLibraryFunction(fd)) return nullptr;
  const llvm::StringRef name = fd->getName();
  if (name != "__assert_fail" && name != "__assert_rtn" && name != "__assert" && name != "_assert" &&
      name != "__assert2")
    return nullptr;
  return call;
}

ExprPtr Lifter::assertion(const clang::ConditionalOperator* c, const clang::CallExpr* failure) {
  const clang::SourceLocation where = c->getBeginLoc();
  std::string text;
  for (const clang::Expr* arg : failure->arguments())
    if (const auto* lit = llvm::dyn_cast<clang::StringLiteral>(arg->IgnoreParenImpCasts()); lit && lit->isOrdinary()) {
      text = lit->getString().str();  // the first string: the condition as written (#cond)
      break;
    }
  ExprPtr cond = expr(assertedCondition(c->getCond()));
  if (!cond) return nullptr;
  if (!cond->type.isValue()) return fail(where, "the condition of assert must be a value, not an array", kIndexHint);
  // The GPU build compiles asserts out, as NDEBUG does: a condition that changed anything would
  // change it on the CPU only.
  bool sideEffects = false;
  visitExprs(*cond, [&](const Expr& x) {
    if (x.kind == ExprKind::Assign || x.kind == ExprKind::CompoundAssign || x.kind == ExprKind::IncDec ||
        x.kind == ExprKind::AtomicRmw)
      sideEffects = true;
    if (x.kind == ExprKind::Call && x.callee < decls_.size())
      for (const clang::ParmVarDecl* p : decls_[x.callee]->parameters())
        if ((p->getType()->isPointerType() || p->getType()->isReferenceType()) &&
            !p->getType()->getPointeeType().isConstQualified())
          sideEffects = true;
    return !sideEffects;
  });
  if (sideEffects)
    return fail(where,
                "the condition of assert changes a variable or an array: GPU kernels compile assert out (as NDEBUG "
                "does), so the change would happen on the CPU only",
                "compute the value in a statement of its own and assert on the result");
  auto out = std::make_unique<Expr>(ExprKind::Assert, Type::value(Scalar::Void), range(c->getSourceRange()));
  out->text = text.empty() ? std::string("assertion") : std::move(text);
  out->operands.push_back(convert(std::move(cond), Scalar::Bool));
  return out;
}

ExprPtr Lifter::implicitCast(const clang::ImplicitCastExpr* e) {
  switch (e->getCastKind()) {
    case clang::CK_LValueToRValue:
    case clang::CK_NoOp:
    case clang::CK_ArrayToPointerDecay:
    case clang::CK_FunctionToPointerDecay:
    case clang::CK_BuiltinFnToFnPtr: return expr(e->getSubExpr());
    case clang::CK_IntegralCast:
    case clang::CK_IntegralToFloating:
    case clang::CK_FloatingToIntegral:
    case clang::CK_FloatingCast:
    case clang::CK_IntegralToBoolean:
    case clang::CK_FloatingToBoolean: {
      std::optional<Scalar> to = valueType(e->getType(), e->getExprLoc());
      if (!to) return nullptr;
      return convert(expr(e->getSubExpr()), *to);
    }
    case clang::CK_PointerToBoolean:
    case clang::CK_PointerToIntegral:
    case clang::CK_IntegralToPointer:
    case clang::CK_NullToPointer:
    case clang::CK_BitCast:
      return fail(e->getExprLoc(), std::string("pointer conversion '") + e->getCastKindName() + "' is not supported",
                  kIndexHint);
    default: return fail(e->getExprLoc(), std::string("unsupported conversion '") + e->getCastKindName() + "'");
  }
}

ExprPtr Lifter::explicitCast(const clang::ExplicitCastExpr* e) {
  const clang::SourceLocation where = e->getExprLoc();
  if (llvm::isa<clang::CXXReinterpretCastExpr, clang::CXXConstCastExpr, clang::CXXDynamicCastExpr,
                clang::BuiltinBitCastExpr, clang::CXXAddrspaceCastExpr>(e))
    return fail(where, std::string("'") + e->getStmtClassName() + "' is not supported",
                "use a C-style cast, static_cast or a functional cast between arithmetic types");
  switch (e->getCastKind()) {
    case clang::CK_ToVoid: return expr(e->getSubExpr());
    case clang::CK_NoOp:
    case clang::CK_IntegralCast:
    case clang::CK_IntegralToFloating:
    case clang::CK_FloatingToIntegral:
    case clang::CK_FloatingCast:
    case clang::CK_IntegralToBoolean:
    case clang::CK_FloatingToBoolean: {
      if (e->getType()->isReferenceType() || e->isGLValue())
        return fail(where, "casts to a reference type are not supported");
      std::optional<Scalar> to = valueType(e->getType(), where);
      if (!to) return nullptr;
      ExprPtr sub = expr(e->getSubExpr());
      if (!sub) return nullptr;
      if (!sub->type.isValue()) return fail(where, "casting an array is not supported", kIndexHint);
      // static_cast<float>(n) is a no-op cast around Clang's implicit conversion: that
      // conversion is the one the user wrote.
      if (sub->kind == ExprKind::Cast && !sub->explicitCast && sub->type.scalar == *to) {
        sub->explicitCast = true;
        return sub;
      }
      return convert(std::move(sub), *to, /*explicitCast=*/true);
    }
    default:
      if (e->getType()->isPointerType() || e->getSubExpr()->getType()->isPointerType())
        return fail(where, "pointer casts are not supported", kIndexHint);
      return fail(where, std::string("unsupported cast '") + e->getCastKindName() + "'");
  }
}

ExprPtr Lifter::declRef(const clang::DeclRefExpr* e) {
  const clang::ValueDecl* d = e->getDecl();
  const clang::SourceLocation where = e->getLocation();
  if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d)) {
    if (fs_->rejectedVars.count(v)) return nullptr;
    if (fs_->rowViews.count(v))
      return fail(where, "a row of a multi-dimensional array cannot be used as a value: only its elements can",
                  "index every dimension: a[r][c]");
    auto it = fs_->vars.find(v);
    if (it != fs_->vars.end()) {
      auto out = std::make_unique<Expr>(ExprKind::VarRef, fs_->fn.vars[it->second].type, range(e->getSourceRange()));
      out->var = it->second;
      return out;
    }
    const std::string name = "'" + v->getNameAsString() + "'";
    if (fs_->minmaxPairs.count(v))
      return fail(where,
                  "the std::pair " + name + " can only be read as " + v->getNameAsString() + ".first and " +
                      v->getNameAsString() + ".second",
                  "a std::pair is not passed, copied or returned: use a value struct of your own for that");
    if (fs_->structArrays.count(v))
      return fail(where, "the array of structs " + name + " can only be indexed or run over by a range for",
                  "use its elements: " + v->getNameAsString() +
                      "[k].x; arrays of structs cannot be passed to functions");
    if (fs_->closures.count(v) || isClosureType(v->getType().getNonReferenceType()))
      return fail(where, "the lambda " + name + " can only be called, or passed to a function template",
                  "a lambda cannot be copied, stored or returned: it lives in the function that defines it");
    // A constant of the function around a lambda, which the lambda reads without capturing it.
    if (v->isLocalVarDeclOrParm() && !v->isStaticLocal() && !llvm::isa<clang::ParmVarDecl>(v) &&
        (v->isConstexpr() || v->getType().isConstQualified()) && scalarOf(v->getType()) && !e->isValueDependent() &&
        e->isEvaluatable(ctx_))
      return fold(e, where, "constant " + name);
    if (v->isLocalVarDeclOrParm() && !v->isStaticLocal())
      return fail(where, "variable " + name + " of another function cannot be used here");
    const bool constant = v->isConstexpr() || v->getType().isConstQualified();
    if (v->getType()->isArrayType() || stdArrayOf(v->getType())) return globalTable(v, e);
    if (!constant)
      return fail(where, "non-const global variable " + name + " cannot be used in a culift kernel",
                  "pass the value as a parameter (or an array for results), or make it constexpr");
    if (!scalarOf(v->getType()))
      return fail(where, "constant " + name + " of type " + whyUnsupported(v->getType()) + " is not supported");
    return fold(e, where, "constant " + name);
  }
  if (const auto* b = llvm::dyn_cast<clang::BindingDecl>(d)) {  // a structured binding
    if (ExprPtr out; bindingRef(b, e, out)) return out;         // of an array
    if (fs_->minmaxBindings.count(b)) return pairBinding(b, e->getSourceRange());
    if (const auto* dd = llvm::dyn_cast_or_null<clang::VarDecl>(b->getDecomposedDecl());
        dd && fs_->rejectedVars.count(dd))
      return nullptr;
    if (auto it = fs_->bindingVars.find(b); it != fs_->bindingVars.end())
      return varRef(it->second, e->getSourceRange());
    if (b->getBinding()) return expr(b->getBinding());
  }
  if (llvm::isa<clang::EnumConstantDecl>(d)) return fold(e, where, "enumerator '" + d->getNameAsString() + "'");
  if (llvm::isa<clang::FunctionDecl>(d))
    return fail(where, "function '" + d->getNameAsString() + "' can only be called, not used as a value");
  return fail(where, "reference to '" + d->getNameAsString() + "' is not supported");
}

ExprPtr Lifter::subscript(const clang::ArraySubscriptExpr* e) {
  if (isArrayAccess(e->getBase())) return arrayElement(e);  // m[r][c], a std::array's elements
  const clang::Expr* base = e->getBase()->IgnoreParenImpCasts();
  ExprPtr index = expr(e->getIdx());
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base);
  const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (const auto* field = llvm::dyn_cast<clang::MemberExpr>(base)) {  // an array field: v.w[k]
    ExprPtr array = memberExpr(field);
    if (!array || !index) return nullptr;
    if (array->type.isValue() || array->kind != ExprKind::VarRef)
      return fail(field->getMemberLoc(), "'" + field->getMemberDecl()->getNameAsString() + "' is not an array");
    if (!index->type.isValue() || !(isInteger(index->type.scalar) || index->type.scalar == Scalar::Bool))
      return fail(e->getIdx()->getExprLoc(), "array index must be an integer");
    auto out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(array->type.scalar), range(e->getSourceRange()));
    out->operands.push_back(std::move(array));
    out->operands.push_back(std::move(index));
    return out;
  }
  if (!var) {
    // Lifting the base names the real problem (pointer arithmetic, a diagnosed variable, ...).
    if (!expr(e->getBase())) return nullptr;
    return fail(e->getBase()->getExprLoc(), "only a parameter array or a local array can be indexed",
                "index the array instead: x[i * cols + k] (pointer arithmetic is not supported)");
  }
  ExprPtr array = declRef(ref);
  if (!array || !index) return nullptr;
  if (array->type.isValue()) return fail(ref->getLocation(), "'" + var->getNameAsString() + "' is not an array");
  if (!index->type.isValue() || !(isInteger(index->type.scalar) || index->type.scalar == Scalar::Bool))
    return fail(e->getIdx()->getExprLoc(), "array index must be an integer");
  auto out = std::make_unique<Expr>(ExprKind::Subscript, Type::value(array->type.scalar), range(e->getSourceRange()));
  out->operands.push_back(std::move(array));
  out->operands.push_back(std::move(index));
  return out;
}

ExprPtr Lifter::lvalue(const clang::Expr* e, const char* what) {
  ExprPtr target = expr(e);
  if (!target) return nullptr;
  if (target->kind == ExprKind::VarRef && target->type.isValue()) return target;
  if (target->kind == ExprKind::Subscript) return target;
  if (target->kind == ExprKind::VarRef)
    return fail(e->getExprLoc(),
                std::string("the target of ") + what + " is a pointer or array: pointer arithmetic is not supported",
                kIndexHint);
  return fail(e->getExprLoc(), std::string("the target of ") + what + " must be a variable or an array element");
}

ExprPtr Lifter::varRef(VarId id, clang::SourceRange where) {
  auto out = std::make_unique<Expr>(ExprKind::VarRef, fs_->fn.vars[id].type, range(where));
  out->var = id;
  return out;
}

ExprPtr Lifter::referenceArgument(const clang::Expr* arg, const clang::ParmVarDecl* param) {
  const bool constant = param->getType().getNonReferenceType().isConstQualified();
  const std::optional<Scalar> s = scalarOf(param->getType().getNonReferenceType());
  const clang::Expr* bound = withoutNoOpCasts(arg);
  if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(bound)) {
    // A const reference bound to a temporary: the callee reads the value (a copy, even of a
    // variable: explicit, so that neither backend binds the variable itself).
    ExprPtr value = expr(temporary->getSubExpr());
    if (!value || !s) return nullptr;
    if (!value->type.isValue()) return fail(arg->getExprLoc(), "an array cannot be bound to a reference", kIndexHint);
    const bool lvalueKind = value->kind == ExprKind::VarRef || value->kind == ExprKind::Subscript;
    return lvalueKind ? convert(std::move(value), *s, /*explicitCast=*/true) : convert(std::move(value), *s);
  }
  ExprPtr value = expr(bound);
  if (!value) return nullptr;
  const bool bindable = (value->kind == ExprKind::VarRef && value->type.isValue()) ||
                        value->kind == ExprKind::Subscript;
  if (bindable) return value;
  if (constant && value->type.isValue()) return value;  // an lvalue of another shape (x < y ? x : y): its value
  return fail(arg->getExprLoc(),
              "the argument of reference parameter '" + param->getNameAsString() +
                  "' must be a variable or an array element",
              "assign the value to a local variable and pass that");
}

ExprPtr Lifter::unary(const clang::UnaryOperator* e) {
  const clang::SourceLocation where = e->getOperatorLoc();
  const clang::UnaryOperatorKind k = e->getOpcode();
  if (k == clang::UO_Deref) return fail(where, "pointer dereference is not supported", kIndexHint);
  if (k == clang::UO_AddrOf) return fail(where, "taking an address is not supported", kIndexHint);
  if (std::optional<IncDecOp> op = incDecOp(k)) {
    if (isPointerLike(e->getSubExpr())) return fail(where, "pointer arithmetic is not supported", kIndexHint);
    ExprPtr target = lvalue(e->getSubExpr(), "++/--");
    if (!target) return nullptr;
    auto out = std::make_unique<Expr>(ExprKind::IncDec, target->type, range(e->getSourceRange()));
    out->incDecOp = *op;
    out->operands.push_back(std::move(target));
    return out;
  }
  std::optional<UnaryOp> op = unaryOp(k);
  if (!op)
    return fail(where, std::string("unsupported operator '") + clang::UnaryOperator::getOpcodeStr(k).str() + "'");
  std::optional<Scalar> type = valueType(e->getType(), where);
  if (!type) return nullptr;
  ExprPtr operand = expr(e->getSubExpr());
  if (!operand) return nullptr;
  if (!operand->type.isValue()) return fail(where, "operator applied to an array is not supported", kIndexHint);
  auto out = std::make_unique<Expr>(ExprKind::Unary, Type::value(*type), range(e->getSourceRange()));
  out->unaryOp = *op;
  out->operands.push_back(std::move(operand));
  return out;
}

ExprPtr Lifter::binary(const clang::BinaryOperator* e) {
  const clang::SourceLocation where = e->getOperatorLoc();
  const clang::BinaryOperatorKind k = e->getOpcode();
  const clang::SourceRange sr = e->getSourceRange();

  if (k == clang::BO_Comma) {
    ExprPtr first = expr(e->getLHS());
    ExprPtr second = expr(e->getRHS());
    if (!first || !second) return nullptr;
    auto out = std::make_unique<Expr>(ExprKind::Comma, second->type, range(sr));
    out->operands.push_back(std::move(first));
    out->operands.push_back(std::move(second));
    return out;
  }
  if (k == clang::BO_Cmp) return fail(where, "the three-way comparison operator <=> is not supported");
  if (k == clang::BO_PtrMemD || k == clang::BO_PtrMemI) return fail(where, "pointers to members are not supported");
  if (isPointerLike(e->getLHS()) || isPointerLike(e->getRHS())) {
    if (k == clang::BO_Assign) return fail(where, "assigning pointers is not supported", kIndexHint);
    if (clang::BinaryOperator::isComparisonOp(k)) return fail(where, "pointer comparison is not supported", kIndexHint);
    return fail(where, "pointer arithmetic is not supported", kIndexHint);
  }

  if (k == clang::BO_Assign) {
    ExprPtr target = lvalue(e->getLHS(), "an assignment");
    ExprPtr value = expr(e->getRHS());
    if (!target || !value) return nullptr;
    auto out = std::make_unique<Expr>(ExprKind::Assign, target->type, range(sr));
    value = convert(std::move(value), target->type.scalar);
    out->operands.push_back(std::move(target));
    out->operands.push_back(std::move(value));
    return out;
  }
  std::optional<BinaryOp> op = binaryOp(k);
  if (!op) return fail(where, std::string("unsupported operator '") + e->getOpcodeStr().str() + "'");

  if (const auto* compound = llvm::dyn_cast<clang::CompoundAssignOperator>(e)) {
    std::optional<Scalar> computeType = valueType(compound->getComputationLHSType(), where);
    ExprPtr target = lvalue(e->getLHS(), "a compound assignment");
    ExprPtr value = expr(e->getRHS());
    if (!computeType || !target || !value) return nullptr;
    auto out = std::make_unique<Expr>(ExprKind::CompoundAssign, target->type, range(sr));
    out->binaryOp = *op;
    out->computeType = *computeType;
    out->operands.push_back(std::move(target));
    out->operands.push_back(std::move(value));
    return out;
  }

  std::optional<Scalar> type = valueType(e->getType(), where);
  if (!type) return nullptr;
  ExprPtr lhs = expr(e->getLHS());
  ExprPtr rhs = expr(e->getRHS());
  if (!lhs || !rhs) return nullptr;
  auto out = std::make_unique<Expr>(ExprKind::Binary, Type::value(*type), range(sr));
  out->binaryOp = *op;
  out->operands.push_back(std::move(lhs));
  out->operands.push_back(std::move(rhs));
  return out;
}

ExprPtr Lifter::initList(const clang::InitListExpr* e) {
  const clang::SourceLocation where = e->getBeginLoc();
  if (e->getType()->isArrayType() || stdArrayOf(e->getType()))
    return fail(where, "array initializer lists are only supported in a local array declaration",
                "declare a local array with the values and use it");
  std::optional<Scalar> s = valueType(e->getType(), where);
  if (!s) return nullptr;
  if (e->getNumInits() == 0) return zero(*s, e->getSourceRange());
  if (e->getNumInits() == 1) return convert(expr(e->getInit(0)), *s);
  return fail(where, "a brace list with several values cannot initialize a scalar");
}

}  // namespace culift::frontend
