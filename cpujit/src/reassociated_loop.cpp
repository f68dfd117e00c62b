// The loop of a reassociating kernel (Function::reassociatedSums) in its plan's one order
// (culift/ast/reassociation.hpp), as the interpreter's ReassociatedLoopNode runs it: each
// iteration's term is what the body adds to a sum that starts from -0.0; lane t % 32 adds it to its
// partial; every 4096 iterations the chunk's warp sum goes to a slot (reassociation_helpers.cpp);
// after the loop the slots' warp sum is added to the sum's value before the loop.
#include "culift/ast/reassociation.hpp"
#include "lower.hpp"

namespace culift::cpujit::detail {
namespace {

// Whether `s` holds a jump out of the loop it is the body of (the planner admits none).
bool jumpsOut(const Stmt& s, bool inInnerLoop, bool inSwitch) {
  switch (s.kind) {
    case StmtKind::Return: return true;
    case StmtKind::Break: return !inInnerLoop && !inSwitch;
    case StmtKind::Continue: return !inInnerLoop;
    default: break;
  }
  const bool loop = s.kind == StmtKind::For || s.kind == StmtKind::While || s.kind == StmtKind::DoWhile;
  const bool sw = s.kind == StmtKind::Switch;
  for (const Stmt* x : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (x && jumpsOut(*x, inInnerLoop || loop, inSwitch || sw)) return true;
  for (const StmtPtr& x : s.stmts)
    if (x && jumpsOut(*x, inInnerLoop || loop, inSwitch || sw)) return true;
  return false;
}

}  // namespace

void FunctionLowerer::reassociatedLoop(const Stmt& s) {
  if (!s.body || jumpsOut(*s.body, false, false))
    unsupported(s.range, "a reassociated loop with a break, continue or return");
  struct Sum {
    llvm::Value* slot;
    llvm::Type* type;
    bool isDouble;
    llvm::Value* before = nullptr;
    llvm::AllocaInst* partial = nullptr;
    llvm::AllocaInst* slots = nullptr;
  };
  std::vector<Sum> sums;
  for (VarId v : fn_.reassociatedSums) {
    if (v >= fn_.vars.size() || !fn_.vars[v].type.isValue() || !isFloating(fn_.vars[v].type.scalar) ||
        fn_.vars[v].isReference())
      unsupported(s.range, "a reassociated sum that is not a float or double variable");
    const Scalar t = fn_.vars[v].type.scalar;
    sums.push_back({slot_[v], m_.valueType(t), t == Scalar::F64});
  }
  llvm::Module& mod = m_.llvmModule();
  auto* ptr = b_.getPtrTy();
  auto endChunk = [&](const Sum& sum, llvm::Value* chunk) {
    auto fn = mod.getOrInsertFunction(ReassociationHelpers::endChunk(sum.isDouble),
                                      llvm::FunctionType::get(b_.getVoidTy(), {ptr, ptr, b_.getInt64Ty()}, false));
    b_.CreateCall(fn, {sum.partial, sum.slots, chunk});
  };
  auto negZero = [&](const Sum& sum) { return llvm::ConstantFP::get(sum.type, -0.0); };

  if (s.init) stmt(*s.init);
  for (Sum& sum : sums) {
    sum.before = b_.CreateLoad(sum.type, sum.slot);
    sum.partial = entryAlloca(llvm::ArrayType::get(sum.type, kReassociationLanes), "partial");
    sum.slots = entryAlloca(llvm::ArrayType::get(sum.type, kReassociationSlots), "slots");
    for (unsigned l = 0; l < kReassociationLanes; ++l)
      b_.CreateStore(negZero(sum), b_.CreateConstGEP1_64(sum.type, sum.partial, l));
    // The slots start from -0.0 in the first endChunk call.
  }
  llvm::AllocaInst* t = entryAlloca(b_.getInt64Ty(), "t");
  b_.CreateStore(b_.getInt64(0), t);
  llvm::BasicBlock* head = block("rloop.cond");
  llvm::BasicBlock* chunkEnd = block("rloop.chunk");
  llvm::BasicBlock* body = block("rloop.body");
  llvm::BasicBlock* end = block("rloop.end");
  startBlock(head);
  llvm::BasicBlock* test = block("rloop.test");
  if (s.cond) b_.CreateCondBr(expr(*s.cond), test, end);
  else b_.CreateBr(test);
  b_.SetInsertPoint(test);
  llvm::Value* tv = b_.CreateLoad(b_.getInt64Ty(), t);
  llvm::Value* atChunk = b_.CreateAnd(b_.CreateICmpSGT(tv, b_.getInt64(0)),
                                      b_.CreateICmpEQ(b_.CreateSRem(tv, b_.getInt64(kReassociationChunk)),
                                                      b_.getInt64(0)));
  b_.CreateCondBr(atChunk, chunkEnd, body);
  b_.SetInsertPoint(chunkEnd);
  for (const Sum& sum : sums)
    endChunk(sum, b_.CreateSub(b_.CreateSDiv(tv, b_.getInt64(kReassociationChunk)), b_.getInt64(1)));
  b_.CreateBr(body);
  b_.SetInsertPoint(body);
  for (const Sum& sum : sums) b_.CreateStore(negZero(sum), sum.slot);
  stmt(*s.body);
  if (b_.GetInsertBlock()->getTerminator()) b_.SetInsertPoint(block("dead"));
  llvm::Value* lane = b_.CreateAnd(b_.CreateLoad(b_.getInt64Ty(), t), b_.getInt64(kReassociationLanes - 1));
  for (const Sum& sum : sums) {
    llvm::Value* p = b_.CreateGEP(sum.type, sum.partial, lane);
    b_.CreateStore(b_.CreateFAdd(b_.CreateLoad(sum.type, p), b_.CreateLoad(sum.type, sum.slot)), p);
  }
  if (s.expr) expr(*s.expr);
  b_.CreateStore(b_.CreateAdd(b_.CreateLoad(b_.getInt64Ty(), t), b_.getInt64(1)), t);
  b_.CreateBr(head);

  // After the loop: a loop of one chunk (or none) totals its partials; a longer one ends its last
  // chunk and totals the slots.
  b_.SetInsertPoint(end);
  llvm::Value* trips = b_.CreateLoad(b_.getInt64Ty(), t);
  llvm::BasicBlock* one = block("rloop.one");
  llvm::BasicBlock* many = block("rloop.many");
  llvm::BasicBlock* finish = block("rloop.finish");
  b_.CreateCondBr(b_.CreateICmpSLE(trips, b_.getInt64(kReassociationChunk)), one, many);
  b_.SetInsertPoint(one);
  for (const Sum& sum : sums) {
    auto fn = mod.getOrInsertFunction(ReassociationHelpers::singleChunkTotal(sum.isDouble),
                                      llvm::FunctionType::get(sum.type, {ptr}, false));
    b_.CreateStore(b_.CreateFAdd(sum.before, b_.CreateCall(fn, {sum.partial})), sum.slot);
  }
  b_.CreateBr(finish);
  b_.SetInsertPoint(many);
  for (const Sum& sum : sums) {
    endChunk(sum, b_.CreateSDiv(b_.CreateSub(trips, b_.getInt64(1)), b_.getInt64(kReassociationChunk)));
    auto fn = mod.getOrInsertFunction(ReassociationHelpers::total(sum.isDouble),
                                      llvm::FunctionType::get(sum.type, {ptr, ptr}, false));
    b_.CreateStore(b_.CreateFAdd(sum.before, b_.CreateCall(fn, {sum.partial, sum.slots})), sum.slot);
  }
  b_.CreateBr(finish);
  b_.SetInsertPoint(finish);
}

}  // namespace culift::cpujit::detail
