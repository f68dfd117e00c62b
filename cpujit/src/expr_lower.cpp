// Expressions: literals, variables, array elements, assignments, conditionals, casts and calls,
// each as the interpreter evaluates it (interpreter/src/compile_expr.cpp): operands left to
// right, the right side of an assignment before its target.
#include "lower.hpp"

namespace culift::cpujit::detail {

llvm::Value* FunctionLowerer::load(llvm::Value* addr, Scalar s) {
  llvm::Value* v = b_.CreateLoad(m_.memoryType(s), addr);
  return s == Scalar::Bool ? b_.CreateICmpNE(v, b_.getInt8(0)) : v;
}

void FunctionLowerer::store(llvm::Value* addr, Scalar s, llvm::Value* v) {
  b_.CreateStore(s == Scalar::Bool ? b_.CreateZExt(v, b_.getInt8Ty()) : v, addr);
}

llvm::Value* FunctionLowerer::constant(const Expr& e) {
  const Scalar s = e.type.scalar;
  if (!e.type.isValue() || s == Scalar::Void) unsupported(e.range, "a literal of a non-scalar type");
  if (e.kind == ExprKind::FloatLiteral) {
    if (s == Scalar::F32) return llvm::ConstantFP::get(b_.getFloatTy(), static_cast<float>(e.floatValue));
    if (s == Scalar::F64) return llvm::ConstantFP::get(b_.getDoubleTy(), e.floatValue);
    unsupported(e.range, "a floating literal of a non-floating type");
  }
  if (s == Scalar::Bool) return b_.getInt1(e.intBits != 0);
  if (isFloating(s)) unsupported(e.range, "an integer literal of a floating type");
  return llvm::ConstantInt::get(m_.valueType(s), e.intBits);
}

// The array a subscript or an array argument names: its first element and its length.
llvm::Value* FunctionLowerer::arrayBase(const Expr& a, llvm::Value** length) {
  if (a.kind != ExprKind::VarRef || a.var >= fn_.vars.size() || fn_.vars[a.var].type.isValue())
    unsupported(a.range, "an array that is not an array variable");
  if (length) *length = length_[a.var];
  return slot_[a.var];
}

llvm::Value* FunctionLowerer::subscriptAddress(const Expr& e) {
  if (e.operands.size() != 2) unsupported(e.range, "a subscript without two operands");
  llvm::Value* length = nullptr;
  llvm::Value* base = arrayBase(*e.operands[0], &length);
  const Expr& idx = *e.operands[1];
  const Scalar it = idx.type.scalar;
  if (!isInteger(it) && it != Scalar::Bool) unsupported(idx.range, "an array index of a non-integer type");
  llvm::Value* i = expr(idx);
  llvm::Value* wide = isSigned(it) ? b_.CreateSExt(i, b_.getInt64Ty()) : b_.CreateZExt(i, b_.getInt64Ty());
  if (m_.options().checked) {
    // Unsigned: a negative index is a huge one.
    const Var& array = fn_.vars[e.operands[0]->var];
    failIf(b_.CreateICmpUGE(wide, length), e.range,
           "index out of bounds for " + std::string(array.type.isArray() ? "local array '" : "array '") + array.name +
               "'",
           array.type.isArray() ? ""
                                : "the array passed for this parameter is shorter than the index the function reads");
  }
  return b_.CreateGEP(m_.memoryType(e.type.scalar), base, wide);
}

llvm::Value* FunctionLowerer::address(const Expr& e) {
  if (e.kind == ExprKind::Subscript) return subscriptAddress(e);
  if (e.kind != ExprKind::VarRef || e.var >= fn_.vars.size() || !fn_.vars[e.var].type.isValue())
    unsupported(e.range, std::string("an assignment to a ") + std::string(name(e.kind)));
  if (fn_.vars[e.var].isReference()) return b_.CreateLoad(b_.getPtrTy(), slot_[e.var]);
  return slot_[e.var];
}

llvm::Value* FunctionLowerer::compoundAssign(const Expr& e) {
  if (e.operands.size() != 2) unsupported(e.range, "a compound assignment without two operands");
  const Expr& l = *e.operands[0];
  const Scalar t = l.type.scalar;
  const Scalar c = e.computeType == Scalar::Void ? t : e.computeType;
  if (isComparison(e.binaryOp) || isLogical(e.binaryOp)) unsupported(e.range, "a compound comparison");
  llvm::Value* rhs = expr(*e.operands[1]);
  llvm::Value* addr = address(l);
  llvm::Value* lhs = convert(load(addr, t), t, c);
  llvm::Value* r = isShift(e.binaryOp) ? shift(e.binaryOp, c, lhs, rhs, e.operands[1]->type.scalar, e)
                                       : arithmetic(e.binaryOp, c, lhs, rhs, e);
  llvm::Value* v = convert(r, c, t);
  store(addr, t, v);
  return v;
}

// ++/--: integers wrap (narrow ones are computed in int and wrap on the way back: the same
// bits), floating values add or subtract 1.
llvm::Value* FunctionLowerer::incDec(const Expr& e) {
  if (e.operands.size() != 1) unsupported(e.range, "++/-- without one operand");
  const Expr& l = *e.operands[0];
  const Scalar t = l.type.scalar;
  if (t == Scalar::Bool || t == Scalar::Void) unsupported(e.range, "++/-- on bool");
  llvm::Value* addr = address(l);
  llvm::Value* old = load(addr, t);
  const bool up = delta(e.incDecOp) > 0;
  llvm::Value* now;
  if (isFloating(t)) {
    llvm::Value* one = llvm::ConstantFP::get(m_.valueType(t), 1.0);
    now = up ? b_.CreateFAdd(old, one) : b_.CreateFSub(old, one);
  } else {
    llvm::Value* one = llvm::ConstantInt::get(m_.valueType(t), 1);
    // Narrow integers wrap (computed in int); int and wider overflow only where C++ says undefined.
    const bool nsw = isSigned(t) && byteSize(t) >= 4;
    now = up ? b_.CreateAdd(old, one, "", false, nsw) : b_.CreateSub(old, one, "", false, nsw);
    if (m_.options().checked && isSigned(t) && byteSize(t) >= 4) {
      llvm::Value* limit = up ? llvm::ConstantInt::get(m_.valueType(t), llvm::APInt::getSignedMaxValue(byteSize(t) * 8))
                              : llvm::ConstantInt::get(m_.valueType(t),
                                                       llvm::APInt::getSignedMinValue(byteSize(t) * 8));
      failIf(b_.CreateICmpEQ(old, limit), e.range, "signed integer overflow");
    }
  }
  store(addr, t, now);
  return isPrefix(e.incDecOp) ? now : old;
}

llvm::Value* FunctionLowerer::conditional(const Expr& e) {
  if (e.operands.size() != 3) unsupported(e.range, "a conditional without three operands");
  llvm::Value* c = expr(*e.operands[0]);
  llvm::BasicBlock* yes = block("cond.then");
  llvm::BasicBlock* no = block("cond.else");
  llvm::BasicBlock* join = block("cond.end");
  b_.CreateCondBr(c, yes, no);
  b_.SetInsertPoint(yes);
  llvm::Value* a = expr(*e.operands[1]);
  llvm::BasicBlock* yesEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(no);
  llvm::Value* x = expr(*e.operands[2]);
  llvm::BasicBlock* noEnd = b_.GetInsertBlock();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  if (e.type.isVoid() || a->getType()->isVoidTy()) return nullptr;
  llvm::PHINode* phi = b_.CreatePHI(a->getType(), 2);
  phi->addIncoming(a, yesEnd);
  phi->addIncoming(x, noEnd);
  return phi;
}

llvm::Value* FunctionLowerer::expr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::IntLiteral:
    case ExprKind::FloatLiteral:
    case ExprKind::BoolLiteral: return constant(e);
    case ExprKind::VarRef:
    case ExprKind::Subscript: return load(address(e), e.type.scalar);
    case ExprKind::Unary: return unary(e);
    case ExprKind::Binary: return binary(e);
    case ExprKind::Assign: {
      if (e.operands.size() != 2) unsupported(e.range, "an assignment without two operands");
      llvm::Value* v = expr(*e.operands[1]);  // C++17: the right operand is sequenced first
      store(address(*e.operands[0]), e.operands[0]->type.scalar, v);
      return v;
    }
    case ExprKind::CompoundAssign: return compoundAssign(e);
    case ExprKind::IncDec: return incDec(e);
    case ExprKind::Conditional: return conditional(e);
    case ExprKind::Cast: {
      if (e.operands.size() != 1 || !e.type.isValue()) unsupported(e.range, "a cast without one operand");
      return convert(expr(*e.operands[0]), e.operands[0]->type.scalar, e.type.scalar);
    }
    case ExprKind::Call: return call(e);
    case ExprKind::MathCall: return mathCall(e);
    case ExprKind::Comma:
      if (e.operands.size() != 2) unsupported(e.range, "a comma without two operands");
      expr(*e.operands[0]);
      return expr(*e.operands[1]);
    case ExprKind::Assert:
      if (e.operands.size() != 1) unsupported(e.range, "an assert without one condition");
      failIf(b_.CreateNot(expr(*e.operands[0])), e.range, "assertion '" + e.text + "' failed",
             "GPU kernels check asserts only when compiled with device asserts (EngineOptions::deviceAsserts, "
             "culift launch --device-asserts)");
      return nullptr;
    case ExprKind::AtomicRmw: return atomic(e);
  }
  unsupported(e.range, "an unknown expression kind");
}

// A call of a lifted function: arguments left to right; a reference binds its referent's
// address (a const reference to a temporary: a copy the call reads), an array passes its
// first element and length.
llvm::Value* FunctionLowerer::call(const Expr& e) {
  const Module& module = m_.astModule();
  if (e.callee >= module.functions.size()) unsupported(e.range, "a call of an unknown function");
  const Function& target = module.functions[e.callee];
  if (e.operands.size() != target.numParams) unsupported(e.range, "a call with the wrong number of arguments");
  llvm::Function* callee = m_.function(e.callee);
  std::vector<llvm::Value*> args;
  for (unsigned p = 0; p < target.numParams; ++p) {
    const Expr& a = *e.operands[p];
    const Var& param = target.param(p);
    if (param.isReference()) {
      if (a.kind == ExprKind::VarRef || a.kind == ExprKind::Subscript) {
        args.push_back(address(a));
      } else {
        llvm::AllocaInst* tmp = entryAlloca(m_.memoryType(param.type.scalar), "tmp");
        store(tmp, param.type.scalar, expr(a));
        args.push_back(tmp);
      }
    } else if (param.type.isValue()) {
      args.push_back(expr(a));
    } else {
      llvm::Value* length = nullptr;
      args.push_back(arrayBase(a, &length));
      args.push_back(length);
    }
  }
  args.push_back(err_);
  llvm::Value* r = b_.CreateCall(callee, args);
  checkCalleeFailure(callee);
  return r;
}

// std::atomic_ref<T>(a[k]).fetch_op(v): the element's address first, then the operand.
llvm::Value* FunctionLowerer::atomic(const Expr& e) {
  if (e.operands.size() != 2 || e.operands[0]->kind != ExprKind::Subscript)
    unsupported(e.range, "an atomic operation on something other than an array element");
  const Scalar t = e.type.scalar;
  llvm::Value* addr = address(*e.operands[0]);
  llvm::Value* v = expr(*e.operands[1]);
  using Op = llvm::AtomicRMWInst::BinOp;
  Op op = Op::Add;
  switch (e.atomicOp) {
    case AtomicOp::Add: op = isFloating(t) ? Op::FAdd : Op::Add; break;
    case AtomicOp::Sub: op = isFloating(t) ? Op::FSub : Op::Sub; break;
    case AtomicOp::Min: op = isSigned(t) ? Op::Min : Op::UMin; break;
    case AtomicOp::Max: op = isSigned(t) ? Op::Max : Op::UMax; break;
  }
  if (byteSize(t) < 4 || (integersOnly(e.atomicOp) && !isInteger(t)))
    unsupported(e.range, "an atomic operation on a " + std::string(spelling(t)));
  return b_.CreateAtomicRMW(op, addr, v, llvm::MaybeAlign(byteSize(t)), llvm::AtomicOrdering::Monotonic);
}

}  // namespace culift::cpujit::detail
