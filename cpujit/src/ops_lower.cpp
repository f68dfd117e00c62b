// Operators and conversions with the interpreter's semantics (interpreter/src/ops.hpp): integers
// wrap where C++ defines it; what C++ leaves undefined (signed overflow, a division by zero, a
// shift count out of range, a floating value outside an integer's range) is an error in checked
// code and a value without a trap in unchecked code, never LLVM's poison or a crash.
#include "llvm/IR/Intrinsics.h"
#include "lower.hpp"

namespace culift::cpujit::detail {

llvm::Value* FunctionLowerer::convert(llvm::Value* v, Scalar from, Scalar to) {
  if (from == to) return v;
  if (from == Scalar::Void || to == Scalar::Void) unsupported({}, "a conversion of a void value");
  llvm::Type* t = m_.valueType(to);
  if (to == Scalar::Bool) {
    if (isFloating(from)) return b_.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));  // NaN is true
    return b_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }
  const bool fromFloat = isFloating(from), toFloat = isFloating(to);
  if (fromFloat && toFloat) return byteSize(to) > byteSize(from) ? b_.CreateFPExt(v, t) : b_.CreateFPTrunc(v, t);
  if (fromFloat) {
    // Out of range is undefined behaviour (an error in the interpreter): saturate, not poison.
    const auto id = isSigned(to) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    return b_.CreateIntrinsic(id, {t, v->getType()}, {v});
  }
  const bool srcSigned = (from != Scalar::Bool && isSigned(from)) ||
                         (m_.options().plantedBug == PlantedBug::UnsignedNarrowSignExtends && byteSize(from) < 4 &&
                          byteSize(to) > byteSize(from) && from != Scalar::Bool);
  if (toFloat) return srcSigned ? b_.CreateSIToFP(v, t) : b_.CreateUIToFP(v, t);
  return srcSigned ? b_.CreateSExtOrTrunc(v, t) : b_.CreateZExtOrTrunc(v, t);
}

namespace {

llvm::Value* signedMin(llvm::Type* t) {
  return llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(t->getIntegerBitWidth()));
}

}  // namespace

llvm::Value* FunctionLowerer::arithmetic(BinaryOp op, Scalar t, llvm::Value* a, llvm::Value* b, const Expr& at) {
  if (isFloating(t)) {
    switch (op) {
      case BinaryOp::Add: return b_.CreateFAdd(a, b);
      case BinaryOp::Sub: return b_.CreateFSub(a, b);
      case BinaryOp::Mul: return b_.CreateFMul(a, b);
      case BinaryOp::Div: return b_.CreateFDiv(a, b);
      default: unsupported(at.range, "operator '" + std::string(spelling(op)) + "' on a floating type");
    }
  }
  const bool sgn = t != Scalar::Bool && isSigned(t);
  const bool checked = m_.options().checked;
  auto overflowing = [&](llvm::Intrinsic::ID id) {
    llvm::Value* r = b_.CreateBinaryIntrinsic(id, a, b);
    failIf(b_.CreateExtractValue(r, 1), at.range, "signed integer overflow");
    return b_.CreateExtractValue(r, 0);
  };
  switch (op) {
    // Signed overflow is undefined (an error in the interpreter): `nsw`, as a C++ compiler assumes,
    // lets LLVM widen int indices into 64-bit induction variables.
    case BinaryOp::Add:
      return checked && sgn ? overflowing(llvm::Intrinsic::sadd_with_overflow) : b_.CreateAdd(a, b, "", false, sgn);
    case BinaryOp::Sub:
      return checked && sgn ? overflowing(llvm::Intrinsic::ssub_with_overflow) : b_.CreateSub(a, b, "", false, sgn);
    case BinaryOp::Mul:
      return checked && sgn ? overflowing(llvm::Intrinsic::smul_with_overflow) : b_.CreateMul(a, b, "", false, sgn);
    case BinaryOp::BitAnd: return b_.CreateAnd(a, b);
    case BinaryOp::BitOr: return b_.CreateOr(a, b);
    case BinaryOp::BitXor: return b_.CreateXor(a, b);
    case BinaryOp::Div:
    case BinaryOp::Rem: break;
    default: unsupported(at.range, "operator '" + std::string(spelling(op)) + "' here");
  }
  if (t == Scalar::Bool) unsupported(at.range, "a division of bool values");
  llvm::Type* ty = a->getType();
  llvm::Value* zero = llvm::ConstantInt::get(ty, 0);
  const bool div = op == BinaryOp::Div;
  llvm::Value* byZero = b_.CreateICmpEQ(b, zero);
  llvm::Value* overflow = b_.getFalse();
  if (sgn)
    overflow = b_.CreateAnd(b_.CreateICmpEQ(a, signedMin(ty)),
                            b_.CreateICmpEQ(b, llvm::ConstantInt::getSigned(ty, -1)));
  if (checked) {
    failIf(byZero, at.range, div ? "integer division by zero" : "integer remainder by zero");
    if (sgn)
      failIf(overflow, at.range, div ? "signed integer overflow in division" : "signed integer overflow in remainder");
  }
  llvm::Value* bad = b_.CreateOr(byZero, overflow);
  // Unchecked (and past the check): divide by 1 where C++ gives no result, so nothing traps.
  llvm::Value* divisor = b_.CreateSelect(bad, llvm::ConstantInt::get(ty, 1), b);
  if (div) return sgn ? b_.CreateSDiv(a, divisor) : b_.CreateUDiv(a, divisor);
  return sgn ? b_.CreateSRem(a, divisor) : b_.CreateURem(a, divisor);
}

// E1 << E2 is E1 * 2^E2 modulo 2^N (C++20, signed too); >> is arithmetic on signed values. A
// count that is negative or not below the width is undefined.
llvm::Value* FunctionLowerer::shift(BinaryOp op, Scalar t, llvm::Value* a, llvm::Value* count, Scalar countType,
                                    const Expr& at) {
  if (!isInteger(t) || byteSize(t) < 4) unsupported(at.range, "a shift of a " + std::string(spelling(t)));
  if (!isInteger(countType) && countType != Scalar::Bool) unsupported(at.range, "a shift count of a non-integer");
  const unsigned width = byteSize(t) * 8;
  llvm::Type* ty = a->getType();
  llvm::Value* n = convert(count, countType, isSigned(countType) ? Scalar::I64 : Scalar::U64);
  if (m_.options().checked)
    failIf(b_.CreateICmpUGE(n, b_.getInt64(width)), at.range, "shift count out of range",
           "a shift count must be at least 0 and less than the width of the shifted type");
  llvm::Value* masked = b_.CreateTrunc(b_.CreateAnd(n, b_.getInt64(width - 1)), ty);
  if (op == BinaryOp::Shl) return b_.CreateShl(a, masked);
  const bool arithmetic = isSigned(t) && m_.options().plantedBug != PlantedBug::SignedShiftRightLogical;
  return arithmetic ? b_.CreateAShr(a, masked) : b_.CreateLShr(a, masked);
}

llvm::Value* FunctionLowerer::compare(BinaryOp op, Scalar t, llvm::Value* a, llvm::Value* b) {
  using P = llvm::CmpInst::Predicate;
  if (isFloating(t)) {
    switch (op) {
      case BinaryOp::Lt:
        return b_.CreateFCmp(m_.options().plantedBug == PlantedBug::NaNLessThanTrue ? P::FCMP_ULT : P::FCMP_OLT, a, b);
      case BinaryOp::Gt: return b_.CreateFCmp(P::FCMP_OGT, a, b);
      case BinaryOp::Le: return b_.CreateFCmp(P::FCMP_OLE, a, b);
      case BinaryOp::Ge: return b_.CreateFCmp(P::FCMP_OGE, a, b);
      case BinaryOp::Eq: return b_.CreateFCmp(P::FCMP_OEQ, a, b);
      default: return b_.CreateFCmp(P::FCMP_UNE, a, b);
    }
  }
  const bool sgn = t != Scalar::Bool && isSigned(t);
  switch (op) {
    case BinaryOp::Lt: return b_.CreateICmp(sgn ? P::ICMP_SLT : P::ICMP_ULT, a, b);
    case BinaryOp::Gt: return b_.CreateICmp(sgn ? P::ICMP_SGT : P::ICMP_UGT, a, b);
    case BinaryOp::Le: return b_.CreateICmp(sgn ? P::ICMP_SLE : P::ICMP_ULE, a, b);
    case BinaryOp::Ge: return b_.CreateICmp(sgn ? P::ICMP_SGE : P::ICMP_UGE, a, b);
    case BinaryOp::Eq: return b_.CreateICmpEQ(a, b);
    default: return b_.CreateICmpNE(a, b);
  }
}

// && and || evaluate their right operand only when it decides.
llvm::Value* FunctionLowerer::logical(const Expr& e) {
  const bool isAnd = e.binaryOp == BinaryOp::LogAnd;
  llvm::Value* l = expr(*e.operands[0]);
  llvm::BasicBlock* from = b_.GetInsertBlock();
  llvm::BasicBlock* rhs = block(isAnd ? "and.rhs" : "or.rhs");
  llvm::BasicBlock* join = block(isAnd ? "and.end" : "or.end");
  if (isAnd) b_.CreateCondBr(l, rhs, join);
  else b_.CreateCondBr(l, join, rhs);
  b_.SetInsertPoint(rhs);
  llvm::Value* r = expr(*e.operands[1]);
  llvm::BasicBlock* rhsEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  llvm::PHINode* phi = b_.CreatePHI(b_.getInt1Ty(), 2);
  phi->addIncoming(b_.getInt1(!isAnd), from);
  phi->addIncoming(r, rhsEnd);
  return phi;
}

llvm::Value* FunctionLowerer::binary(const Expr& e) {
  if (e.operands.size() != 2) unsupported(e.range, "a binary operator without two operands");
  if (isLogical(e.binaryOp)) return logical(e);
  const Scalar t = e.operands[0]->type.scalar;
  llvm::Value* a = expr(*e.operands[0]);
  llvm::Value* b = expr(*e.operands[1]);
  if (isShift(e.binaryOp)) return shift(e.binaryOp, t, a, b, e.operands[1]->type.scalar, e);
  if (t == Scalar::Void || e.operands[1]->type.scalar != t)
    unsupported(e.range, "operands of '" + std::string(spelling(e.binaryOp)) + "' of different types");
  if (isComparison(e.binaryOp)) return compare(e.binaryOp, t, a, b);
  return arithmetic(e.binaryOp, t, a, b, e);
}

llvm::Value* FunctionLowerer::unary(const Expr& e) {
  if (e.operands.size() != 1) unsupported(e.range, "a unary operator without one operand");
  const Scalar t = e.operands[0]->type.scalar;
  llvm::Value* a = expr(*e.operands[0]);
  switch (e.unaryOp) {
    case UnaryOp::Plus: return a;
    case UnaryOp::LogNot: return b_.CreateNot(a);
    case UnaryOp::BitNot:
      if (!isInteger(t)) unsupported(e.range, "'~' on a non-integer operand");
      return b_.CreateNot(a);
    case UnaryOp::Neg:
      if (t == Scalar::Bool) unsupported(e.range, "'-' on bool");
      if (isFloating(t)) return b_.CreateFNeg(a);
      if (m_.options().checked && isSigned(t))
        failIf(b_.CreateICmpEQ(a, signedMin(a->getType())), e.range, "signed integer overflow in negation");
      return b_.CreateNeg(a);
  }
  unsupported(e.range, "an unknown unary operator");
}

}  // namespace culift::cpujit::detail
