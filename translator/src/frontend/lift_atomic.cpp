// std::atomic_ref<T>(a[k]).fetch_add(v) and its fetch_sub / fetch_min / fetch_max: an AtomicRmw
// node on the array element, the device's atomicAdd / atomicSub / atomicMin / atomicMax. The
// atomic_ref is a temporary made for the one operation (C++20's spelling of "this element, as an
// atomic"); named atomic_ref objects, other members and memory orders are diagnosed.
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "function_state.hpp"

namespace culift::frontend {
namespace {

const char* kAtomicHint = "write std::atomic_ref<T>(a[k]).fetch_add(v) (or fetch_sub, fetch_min, fetch_max)";

// The constructor call `std::atomic_ref<T>(x)` under the temporary a member call is made on.
const clang::CXXConstructExpr* atomicRefConstruction(const clang::Expr* object) {
  const clang::Expr* e = object;
  for (;;) {
    e = e->IgnoreParens();
    if (const auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (const auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (const auto* c = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(e)) e = c->getSubExpr();
    else if (const auto* i = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) e = i->getSubExpr();
    else break;
  }
  const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e);
  if (!construct || construct->getNumArgs() != 1) return nullptr;
  const clang::CXXConstructorDecl* ctor = construct->getConstructor();
  if (!ctor || ctor->isCopyOrMoveConstructor()) return nullptr;
  return construct;
}

}  // namespace

bool Lifter::isAtomicRef(clang::QualType t) const {
  if (t.isNull()) return false;
  const clang::CXXRecordDecl* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->isInStdNamespace() && rd->getDeclName().isIdentifier() && rd->getName() == "atomic_ref";
}

ExprPtr Lifter::atomicCall(const clang::CXXMemberCallExpr* e) {
  const clang::SourceLocation where = e->getExprLoc();
  const clang::CXXMethodDecl* method = e->getMethodDecl();
  const std::string member = method && method->getDeclName().isIdentifier() ? method->getName().str() : "?";
  AtomicOp op = AtomicOp::Add;
  if (!lookupAtomicOp(member, op))
    return fail(where, "std::atomic_ref::" + member + " is not supported",
                std::string("culift's atomics are read-modify-write operations: ") + kAtomicHint);
  unsigned written = 0;  // arguments the user wrote, not the defaulted memory order
  for (const clang::Expr* a : e->arguments()) written += !llvm::isa<clang::CXXDefaultArgExpr>(a);
  if (written != 1)
    return fail(where, "std::atomic_ref::" + member + " with a memory order is not supported",
                "drop the memory order: a device atomic is one indivisible update of the element, with no ordering "
                "of other memory (docs/supported-subset.md#atomics)");
  const clang::CXXConstructExpr* construct = atomicRefConstruction(e->getImplicitObjectArgument());
  if (!construct)
    return fail(where, "std::atomic_ref is supported only as a temporary around an array element",
                "write std::atomic_ref<T>(a[k])." + member + "(v) at each update, not a named atomic_ref");
  const clang::Expr* target = construct->getArg(0);
  const clang::SourceLocation targetLoc = target->getExprLoc();
  const clang::QualType elementType = target->getType().getNonReferenceType();
  std::optional<Scalar> scalar = scalarOf(elementType.getUnqualifiedType());
  if (!scalar) return fail(targetLoc, "std::atomic_ref of '" + elementType.getAsString() + "' is not supported");
  const bool wide = *scalar == Scalar::I32 || *scalar == Scalar::U32 || *scalar == Scalar::I64 ||
                    *scalar == Scalar::U64 || *scalar == Scalar::F32 || *scalar == Scalar::F64;
  if (!wide)
    return fail(targetLoc,
                "std::atomic_ref<" + std::string(spelling(*scalar)) +
                    "> is not supported: the device's atomics take "
                    "32- and 64-bit integers, float and double",
                "count in an int (or unsigned, long long) array");
  if (integersOnly(op) && isFloating(*scalar))
    return fail(where, "std::atomic_ref<" + std::string(spelling(*scalar)) + ">::" + member + " is not supported",
                "fetch_min and fetch_max take integers; fetch_add and fetch_sub take float and double too");
  ExprPtr element = expr(target);
  ExprPtr value = expr(e->getArg(0));
  if (!element || !value) return nullptr;
  const bool arrayElement = element->kind == ExprKind::Subscript && element->operands[0]->kind == ExprKind::VarRef &&
                            element->operands[0]->var < fs_->fn.vars.size() &&
                            fs_->fn.vars[element->operands[0]->var].isParam &&
                            fs_->fn.vars[element->operands[0]->var].type.isPointer();
  if (!arrayElement)
    return fail(targetLoc, "std::atomic_ref must refer to an element of an array parameter",
                "atomics update memory other threads see: pass the array (int* counts) and write "
                "std::atomic_ref<int>(counts[k])." +
                    member + "(v)");
  if (!value->type.isValue()) return fail(e->getArg(0)->getExprLoc(), "an array cannot be an atomic's operand");
  auto out = std::make_unique<Expr>(ExprKind::AtomicRmw, Type::value(*scalar), range(e->getSourceRange()));
  out->atomicOp = op;
  out->operands.push_back(std::move(element));
  out->operands.push_back(convert(std::move(value), *scalar));
  return out;
}

}  // namespace culift::frontend
