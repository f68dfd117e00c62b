// Math functions as the interpreter computes them (interpreter/src/compile_math.cpp): the exact
// ones (sqrt, fabs, floor, fma, ...) as LLVM intrinsics, the others as calls of the host's libm
// (sinf for float, sin for double), marked nobuiltin so that LLVM neither folds them with its own
// correctly rounded constants nor rewrites them (pow(x, 2) into x * x).
#include "llvm/IR/Intrinsics.h"
#include "lower.hpp"

namespace culift::cpujit::detail {
namespace {

// The intrinsic computing `fn` exactly, if there is one.
bool exactIntrinsic(MathFn fn, llvm::Intrinsic::ID& id) {
  switch (fn) {
    case MathFn::Sqrt: id = llvm::Intrinsic::sqrt; return true;
    case MathFn::Fabs: id = llvm::Intrinsic::fabs; return true;
    case MathFn::Floor: id = llvm::Intrinsic::floor; return true;
    case MathFn::Ceil: id = llvm::Intrinsic::ceil; return true;
    case MathFn::Trunc: id = llvm::Intrinsic::trunc; return true;
    case MathFn::Round: id = llvm::Intrinsic::round; return true;
    case MathFn::Rint: id = llvm::Intrinsic::rint; return true;
    case MathFn::Nearbyint: id = llvm::Intrinsic::nearbyint; return true;
    case MathFn::Copysign: id = llvm::Intrinsic::copysign; return true;
    case MathFn::Fma: id = llvm::Intrinsic::fma; return true;
    default: return false;
  }
}

}  // namespace

llvm::Value* FunctionLowerer::mathCall(const Expr& e) {
  const MathFnInfo& m = info(e.math);
  if (e.operands.size() != m.arity) unsupported(e.range, std::string(m.name) + " with the wrong number of arguments");
  // The computation type: the operands' type; integers go to double as <cmath> does.
  Scalar t = e.operands[0]->type.scalar;
  for (const ExprPtr& a : e.operands)
    if (a->type.scalar != t) {
      if (m.domain == MathDomain::Any) unsupported(e.range, std::string(m.name) + " of operands of different types");
      if (isFloating(a->type.scalar) && (a->type.scalar == Scalar::F64 || !isFloating(t))) t = a->type.scalar;
    }
  if (m.domain != MathDomain::Any && !isFloating(t)) t = Scalar::F64;
  if (t == Scalar::Bool || t == Scalar::Void) unsupported(e.range, std::string(m.name) + " of bool");
  std::vector<llvm::Value*> x;
  for (const ExprPtr& a : e.operands) x.push_back(convert(expr(*a), a->type.scalar, t));
  llvm::Value* r = nullptr;
  Scalar produced = t;
  const bool isFloat = isFloating(t);
  using P = llvm::CmpInst::Predicate;
  llvm::Intrinsic::ID id;
  if (m.domain == MathDomain::Classify) {
    produced = Scalar::Bool;
    llvm::Value* inf = llvm::ConstantFP::getInfinity(x[0]->getType());
    switch (e.math) {
      case MathFn::Isnan: r = b_.CreateFCmp(P::FCMP_UNO, x[0], x[0]); break;
      case MathFn::Isinf:
        r = b_.CreateFCmp(P::FCMP_OEQ, b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x[0]), inf);
        break;
      case MathFn::Isfinite:
        r = b_.CreateFCmp(P::FCMP_OLT, b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x[0]), inf);
        break;
      default: {
        llvm::Type* bits = b_.getIntNTy(byteSize(t) * 8);
        r = b_.CreateICmpSLT(b_.CreateBitCast(x[0], bits), llvm::ConstantInt::get(bits, 0));
      }
    }
  } else if (m.domain == MathDomain::Any) {
    switch (e.math) {
      case MathFn::Abs:
        if (isFloat) r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x[0]);
        else if (!isSigned(t)) r = x[0];
        else {
          if (m_.options().checked)
            failIf(b_.CreateICmpEQ(x[0], llvm::ConstantInt::get(x[0]->getType(),
                                                                llvm::APInt::getSignedMinValue(byteSize(t) * 8))),
                   e.range, "signed integer overflow in abs");
          r = b_.CreateSelect(compare(BinaryOp::Lt, t, x[0], llvm::Constant::getNullValue(x[0]->getType())),
                              b_.CreateNeg(x[0]), x[0]);
        }
        break;
      case MathFn::Min:
        r = b_.CreateSelect(compare(BinaryOp::Lt, t, x[1], x[0]), x[1], x[0]);
        break;  // (b < a) ? b : a
      case MathFn::Max:
        r = b_.CreateSelect(compare(BinaryOp::Lt, t, x[0], x[1]), x[1], x[0]);
        break;             // (a < b) ? b : a
      case MathFn::Clamp:  // (v < lo) ? lo : (hi < v) ? hi : v
        r = b_.CreateSelect(compare(BinaryOp::Lt, t, x[0], x[1]), x[1],
                            b_.CreateSelect(compare(BinaryOp::Lt, t, x[2], x[0]), x[2], x[0]));
        break;
      default: unsupported(e.range, "math function '" + std::string(m.name) + "'");
    }
  } else if (e.math == MathFn::Fmin || e.math == MathFn::Fmax) {
    // IEEE minimumNumber / maximumNumber: a NaN argument, quiet or signalling, is ignored
    // (llvm.minnum leaves a signalling one to the target, as libm's fmin does), -0.0 is below
    // +0.0, and otherwise the lesser or greater.
    const bool isMin = e.math == MathFn::Fmin;
    llvm::Value* zero = llvm::ConstantFP::get(x[0]->getType(), 0.0);
    llvm::Value* zeros = b_.CreateAnd(b_.CreateFCmpOEQ(x[0], zero), b_.CreateFCmpOEQ(x[1], zero));
    llvm::Type* bits = b_.getIntNTy(byteSize(t) * 8);
    llvm::Value* xNegative = b_.CreateICmpSLT(b_.CreateBitCast(x[0], bits), llvm::ConstantInt::get(bits, 0));
    llvm::Value* ofZeros = isMin ? b_.CreateSelect(xNegative, x[0], x[1]) : b_.CreateSelect(xNegative, x[1], x[0]);
    llvm::Value* firstWins = isMin ? b_.CreateFCmpOLT(x[0], x[1]) : b_.CreateFCmpOGT(x[0], x[1]);
    llvm::Value* ordered = b_.CreateSelect(firstWins, x[0], x[1]);
    r = b_.CreateSelect(zeros, ofZeros, ordered);
    r = b_.CreateSelect(b_.CreateFCmpUNO(x[1], x[1]), x[0], r);
    r = b_.CreateSelect(b_.CreateFCmpUNO(x[0], x[0]), x[1], r);
  } else if (exactIntrinsic(e.math, id)) {
    r = b_.CreateIntrinsic(id, {x[0]->getType()}, x);
  } else if (e.math == MathFn::Lgamma) {
    // The reentrant form (lgamma writes the global signgam): the same value.
    llvm::AllocaInst* sign = entryAlloca(b_.getInt32Ty(), "signgam");
    auto callee = m_.llvmModule().getOrInsertFunction(isFloat && t == Scalar::F32 ? "lgammaf_r" : "lgamma_r",
                                                      llvm::FunctionType::get(x[0]->getType(),
                                                                              {x[0]->getType(), b_.getPtrTy()}, false));
    auto* c = b_.CreateCall(callee, {x[0], sign});
    c->addFnAttr(llvm::Attribute::NoBuiltin);
    r = c;
  } else {
    std::vector<llvm::Type*> params(x.size(), x[0]->getType());
    const std::string_view name = t == Scalar::F32 ? m.floatName : m.doubleName;
    auto callee = m_.llvmModule().getOrInsertFunction(llvm::StringRef(name.data(), name.size()),
                                                      llvm::FunctionType::get(x[0]->getType(), params, false));
    auto* c = b_.CreateCall(callee, x);
    c->addFnAttr(llvm::Attribute::NoBuiltin);
    r = c;
  }
  if (e.type.scalar != produced && e.type.scalar != Scalar::Void) return convert(r, produced, e.type.scalar);
  return r;
}

}  // namespace culift::cpujit::detail
