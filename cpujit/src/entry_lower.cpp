// A kernel's entry: outputs [first, last) of a launch, in C order, as the interpreter's launch
// computes each (interpreter/src/program.cpp). The loop runs row by row with the innermost index
// as its own counter, so that LLVM can vectorize across neighbouring outputs where the body
// allows; each output still computes in its own order, so its bits are the interpreter's.
#include "lower.hpp"

namespace culift::cpujit::detail {
namespace {

struct Unpacked {
  std::vector<llvm::Value*> value;   // per signature parameter: a scalar's value or an array's data
  std::vector<llvm::Value*> length;  // per signature parameter: an array's length
};

Unpacked unpack(ModuleLowerer& m, llvm::IRBuilder<>& b, const Function& fn, llvm::Value* params, llvm::Value* lengths) {
  Unpacked u;
  for (std::size_t k = 0; k < fn.signature.params.size(); ++k) {
    const KernelParam& kp = fn.signature.params[k];
    llvm::Value* p = b.CreateLoad(b.getPtrTy(), b.CreateConstGEP1_64(b.getPtrTy(), params, k), kp.name + ".arg");
    llvm::Value* n = b.CreateLoad(b.getInt64Ty(), b.CreateConstGEP1_64(b.getInt64Ty(), lengths, k));
    if (kp.role == ParamRole::Scalar) {
      llvm::Value* v = b.CreateLoad(m.memoryType(kp.type.scalar), p, kp.name);
      if (kp.type.scalar == Scalar::Bool) v = b.CreateICmpNE(v, b.getInt8(0));
      p = v;
    }
    u.value.push_back(p);
    u.length.push_back(n);
  }
  return u;
}

}  // namespace

void ModuleLowerer::defineEntry(const Function& fn, const std::string& name, bool reassociate) {
  auto& ctx = ctx_;
  llvm::Type* i64 = llvm::Type::getInt64Ty(ctx);
  auto* ptr = llvm::PointerType::get(ctx, 0);
  auto* type = llvm::FunctionType::get(i64, {ptr, ptr, ptr, i64, i64, ptr}, false);
  auto* f = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name, *module_);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  auto arg = f->arg_begin();
  llvm::Value* params = &*arg++;
  llvm::Value* lengths = &*arg++;
  llvm::Value* extents = &*arg++;
  llvm::Value* first = &*arg++;
  llvm::Value* last = &*arg++;
  llvm::Value* siteOut = &*arg;

  llvm::Function* body = function(static_cast<FuncId>(&fn - ast_.functions.data()), reassociate);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::Value* err = b.CreateAlloca(b.getInt32Ty(), nullptr, "err");
  b.CreateStore(b.getInt32(0), err);
  const Unpacked u = unpack(*this, b, fn, params, lengths);
  const unsigned rank = fn.mode == IndexMode::ElementWise ? 1 : culift::rank(fn.mode);
  auto extent = [&](unsigned a) { return b.CreateLoad(i64, b.CreateConstGEP1_64(i64, extents, a)); };
  llvm::Value* inner = extent(rank - 1);
  inner = b.CreateSelect(b.CreateICmpEQ(inner, b.getInt64(0)), b.getInt64(1), inner);
  llvm::Value* middle = rank == 3 ? extent(1) : nullptr;
  if (middle) middle = b.CreateSelect(b.CreateICmpEQ(middle, b.getInt64(0)), b.getInt64(1), middle);
  llvm::BasicBlock* entry = b.GetInsertBlock();
  auto* rowHead = llvm::BasicBlock::Create(ctx, "row", f);
  auto* rowStart = llvm::BasicBlock::Create(ctx, "row.start", f);
  auto* element = llvm::BasicBlock::Create(ctx, "element", f);
  auto* failed = llvm::BasicBlock::Create(ctx, "failed", f);
  auto* next = llvm::BasicBlock::Create(ctx, "element.next", f);
  auto* done = llvm::BasicBlock::Create(ctx, "done", f);
  b.CreateBr(rowHead);

  // A row: the outputs that share every index but the innermost.
  b.SetInsertPoint(rowHead);
  llvm::PHINode* e = b.CreatePHI(i64, 2, "e");
  e->addIncoming(first, entry);
  b.CreateCondBr(b.CreateICmpULT(e, last), rowStart, done);
  b.SetInsertPoint(rowStart);
  llvm::Value* row = b.CreateUDiv(e, inner, "row");
  llvm::Value* rowBase = b.CreateMul(row, inner);
  llvm::Value* rowEnd = b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, last, b.CreateAdd(rowBase, inner));
  llvm::Value* index[3] = {row, nullptr, nullptr};
  if (rank == 3) {
    index[0] = b.CreateUDiv(row, middle);
    index[1] = b.CreateURem(row, middle);
  }
  b.CreateBr(element);

  b.SetInsertPoint(element);
  llvm::PHINode* x = b.CreatePHI(i64, 2, "x");
  x->addIncoming(e, rowStart);
  index[rank - 1] = b.CreateSub(x, rowBase);
  std::vector<llvm::Value*> args;
  const unsigned firstResult = fn.firstResultParam();
  for (unsigned p = 0; p < fn.numParams; ++p) {
    const Var& v = fn.param(p);
    if (p >= firstResult) {                                         // a field of the struct result: its place in out[x]
      const std::size_t k = fn.signature.params.size() - rank - 1;  // out, then the extents
      llvm::Value* offset = b.CreateAdd(b.CreateMul(x, b.getInt64(fn.resultRecord->size)),
                                        b.getInt64(fn.resultRecord->fields[p - firstResult].offset));
      args.push_back(b.CreateGEP(b.getInt8Ty(), u.value[k], offset));
      continue;
    }
    llvm::Value* value = nullptr;
    for (std::size_t a = 0; a < fn.indexParams.size() && fn.mode != IndexMode::ElementWise; ++a)
      if (fn.indexParams[a] == static_cast<int>(p)) value = b.CreateTrunc(index[a], valueType(v.type.scalar));
    llvm::Value* length = nullptr;
    for (std::size_t k = 0; k < fn.signature.params.size() && !value; ++k) {
      const KernelParam& kp = fn.signature.params[k];
      if (kp.userParam != static_cast<int>(p)) continue;
      value = u.value[k];
      length = u.length[k];
      if (kp.role == ParamRole::PerElementScalar) {
        value = b.CreateGEP(memoryType(v.type.scalar), value, x);
        if (!v.isReference()) {
          value = b.CreateLoad(memoryType(v.type.scalar), value);
          if (v.type.scalar == Scalar::Bool) value = b.CreateICmpNE(value, b.getInt8(0));
        }
      } else if (kp.role == ParamRole::Scalar && v.isReference()) {
        llvm::IRBuilder<> at(entry, entry->begin());
        llvm::AllocaInst* tmp = at.CreateAlloca(memoryType(v.type.scalar));
        b.CreateStore(v.type.scalar == Scalar::Bool ? b.CreateZExt(value, b.getInt8Ty()) : value, tmp);
        value = tmp;
      }
    }
    if (!value) unsupported(v.range, "kernel parameter '" + v.name + "' has no argument");
    args.push_back(value);
    if (!v.isReference() && !v.type.isValue()) args.push_back(length);
  }
  args.push_back(err);
  llvm::Value* r = b.CreateCall(body, args);
  auto* store = llvm::BasicBlock::Create(ctx, "element.store", f);
  if (mayFail(body)) b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(b.getInt32Ty(), err), b.getInt32(0)), failed, store);
  else b.CreateBr(store);
  b.SetInsertPoint(store);
  if (!fn.returnType.isVoid() && !fn.resultRecord) {
    const KernelParam& out = fn.signature.params[fn.signature.params.size() - rank - 1];
    if (out.role != ParamRole::ResultArray) unsupported(fn.range, "a kernel without its out array");
    const Scalar s = fn.returnType.scalar;
    llvm::Value* slot = b.CreateGEP(memoryType(s), u.value[fn.signature.params.size() - rank - 1], x);
    b.CreateStore(s == Scalar::Bool ? b.CreateZExt(r, b.getInt8Ty()) : r, slot);
  }
  b.CreateBr(next);

  b.SetInsertPoint(next);
  llvm::Value* x1 = b.CreateAdd(x, b.getInt64(1));
  x->addIncoming(x1, next);
  e->addIncoming(rowEnd, next);
  b.CreateCondBr(b.CreateICmpULT(x1, rowEnd), element, rowHead);

  b.SetInsertPoint(failed);
  b.CreateStore(b.CreateLoad(b.getInt32Ty(), err), siteOut);
  b.CreateRet(x);
  b.SetInsertPoint(done);
  b.CreateRet(b.getInt64(~0ull));
}

}  // namespace culift::cpujit::detail
