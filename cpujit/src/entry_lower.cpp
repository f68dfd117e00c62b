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

// The user function's arguments for output x, at `index` (per axis).
void outputArguments(ModuleLowerer& m, llvm::IRBuilder<>& b, const Function& fn, const Unpacked& u,
                     llvm::BasicBlock* entry, llvm::Value* x, llvm::Value* const* index,
                     std::vector<llvm::Value*>& args) {
  const unsigned rank = fn.mode == IndexMode::ElementWise ? 1 : culift::rank(fn.mode);
  const std::size_t outK = fn.signature.params.size() - rank - 1;  // out, then the extents
  const unsigned firstResult = fn.firstResultParam();
  for (unsigned p = 0; p < fn.numParams; ++p) {
    const Var& v = fn.param(p);
    if (p >= firstResult) {  // a field of the struct result: its place in out[x]
      llvm::Value* offset = b.CreateAdd(b.CreateMul(x, b.getInt64(fn.resultRecord->size)),
                                        b.getInt64(fn.resultRecord->fields[p - firstResult].offset));
      args.push_back(b.CreateGEP(b.getInt8Ty(), u.value[outK], offset));
      continue;
    }
    llvm::Value* value = nullptr;
    for (std::size_t a = 0; a < fn.indexParams.size() && fn.mode != IndexMode::ElementWise; ++a)
      if (fn.indexParams[a] == static_cast<int>(p)) value = b.CreateTrunc(index[a], m.valueType(v.type.scalar));
    llvm::Value* length = nullptr;
    for (std::size_t k = 0; k < fn.signature.params.size() && !value; ++k) {
      const KernelParam& kp = fn.signature.params[k];
      if (kp.userParam != static_cast<int>(p)) continue;
      value = u.value[k];
      length = u.length[k];
      if (kp.role == ParamRole::PerElementScalar) {
        value = b.CreateGEP(m.memoryType(v.type.scalar), value, x);
        if (!v.isReference()) {
          value = b.CreateLoad(m.memoryType(v.type.scalar), value);
          if (v.type.scalar == Scalar::Bool) value = b.CreateICmpNE(value, b.getInt8(0));
        }
      } else if (kp.role == ParamRole::Scalar && v.isReference()) {
        llvm::IRBuilder<> at(entry, entry->begin());
        llvm::AllocaInst* tmp = at.CreateAlloca(m.memoryType(v.type.scalar));
        b.CreateStore(v.type.scalar == Scalar::Bool ? b.CreateZExt(value, b.getInt8Ty()) : value, tmp);
        value = tmp;
      }
    }
    if (!value) unsupported(v.range, "kernel parameter '" + v.name + "' has no argument");
    args.push_back(value);
    if (!v.isReference() && !v.type.isValue()) args.push_back(length);
  }
}

// Whether the out array overlaps an array the kernel reads: then the outputs are computed one
// at a time, each stored before the next reads, as the interpreter does.
llvm::Value* outOverlaps(llvm::IRBuilder<>& b, const Function& fn, const Unpacked& u, std::size_t outK) {
  auto range = [&](std::size_t k, std::uint64_t elementBytes) {
    llvm::Value* begin = b.CreatePtrToInt(u.value[k], b.getInt64Ty());
    return std::pair{begin, b.CreateAdd(begin, b.CreateMul(u.length[k], b.getInt64(elementBytes)))};
  };
  const auto [outBegin, outEnd] = range(outK, byteSize(fn.returnType.scalar));
  llvm::Value* overlap = b.getFalse();
  for (std::size_t k = 0; k < fn.signature.params.size(); ++k) {
    const KernelParam& kp = fn.signature.params[k];
    if (kp.role != ParamRole::ReadOnlyArray && kp.role != ParamRole::WritableArray &&
        kp.role != ParamRole::PerElementScalar)
      continue;
    const auto [begin, end] = range(k, kp.record ? kp.record->size : byteSize(kp.type.scalar));
    overlap = b.CreateOr(overlap, b.CreateAnd(b.CreateICmpULT(outBegin, end), b.CreateICmpULT(begin, outEnd)));
  }
  return overlap;
}

}  // namespace

// The loop over a range's outputs, row by row. With lanes, a row runs in groups of neighbouring
// outputs computed side by side (lanes.cpp), the rest of the row one output at a time; a group
// that fails runs again one output at a time, which reports the first failing output in C order
// (the kernel is pure: running it twice reads the same memory).
void ModuleLowerer::defineEntry(const Function& fn, const std::string& name, bool reassociate, unsigned lanes) {
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

  const FuncId id = static_cast<FuncId>(&fn - ast_.functions.data());
  llvm::Function* body = function(id, reassociate);
  llvm::Function* laned = lanes > 1 && !reassociate ? laneFunction(id, lanes) : nullptr;
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::Value* err = b.CreateAlloca(b.getInt32Ty(), nullptr, "err");
  b.CreateStore(b.getInt32(0), err);
  const Unpacked u = unpack(*this, b, fn, params, lengths);
  const unsigned rank = fn.mode == IndexMode::ElementWise ? 1 : culift::rank(fn.mode);
  const std::size_t outK = fn.signature.params.size() - rank - 1;  // out, then the extents
  auto extent = [&](unsigned a) { return b.CreateLoad(i64, b.CreateConstGEP1_64(i64, extents, a)); };
  llvm::Value* inner = extent(rank - 1);
  inner = b.CreateSelect(b.CreateICmpEQ(inner, b.getInt64(0)), b.getInt64(1), inner);
  llvm::Value* middle = rank == 3 ? extent(1) : nullptr;
  if (middle) middle = b.CreateSelect(b.CreateICmpEQ(middle, b.getInt64(0)), b.getInt64(1), middle);
  llvm::Value* overlap = laned ? outOverlaps(b, fn, u, outK) : nullptr;
  llvm::AllocaInst* results = laned ? b.CreateAlloca(llvm::ArrayType::get(memoryType(fn.returnType.scalar), lanes),
                                                     nullptr, "results")
                                    : nullptr;
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
  llvm::PHINode* e = b.CreatePHI(i64, 3, "e");
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

  auto argumentsAt = [&](llvm::Value* x, std::vector<llvm::Value*>& args) {
    index[rank - 1] = b.CreateSub(x, rowBase);
    outputArguments(*this, b, fn, u, entry, x, index, args);
  };

  // Groups of `lanes` outputs while a whole group fits in the row.
  llvm::PHINode* x = nullptr;
  if (laned) {
    auto* groupHead = llvm::BasicBlock::Create(ctx, "group", f);
    auto* group = llvm::BasicBlock::Create(ctx, "group.run", f);
    auto* groupFailed = llvm::BasicBlock::Create(ctx, "group.failed", f);
    auto* groupStore = llvm::BasicBlock::Create(ctx, "group.store", f);
    auto* tail = llvm::BasicBlock::Create(ctx, "group.end", f);
    b.CreateBr(groupHead);
    b.SetInsertPoint(groupHead);
    llvm::PHINode* g = b.CreatePHI(i64, 2, "g");
    g->addIncoming(e, rowStart);
    llvm::Value* fits = b.CreateICmpULE(b.CreateAdd(g, b.getInt64(lanes)), rowEnd);
    b.CreateCondBr(b.CreateAnd(fits, b.CreateNot(overlap)), group, tail);
    b.SetInsertPoint(group);
    std::vector<llvm::Value*> args;
    for (unsigned lane = 0; lane < lanes; ++lane) argumentsAt(b.CreateAdd(g, b.getInt64(lane)), args);
    args.push_back(results);
    args.push_back(err);
    b.CreateCall(laned, args);
    if (mayFail(laned))
      b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(b.getInt32Ty(), err), b.getInt32(0)), groupFailed, groupStore);
    else b.CreateBr(groupStore);
    b.SetInsertPoint(groupFailed);
    b.CreateStore(b.getInt32(0), err);
    b.CreateBr(element);
    b.SetInsertPoint(groupStore);
    llvm::Type* t = memoryType(fn.returnType.scalar);
    for (unsigned lane = 0; lane < lanes; ++lane)
      b.CreateStore(b.CreateLoad(t, b.CreateConstGEP2_32(results->getAllocatedType(), results, 0, lane)),
                    b.CreateGEP(t, u.value[outK], b.CreateAdd(g, b.getInt64(lane))));
    g->addIncoming(b.CreateAdd(g, b.getInt64(lanes)), groupStore);
    b.CreateBr(groupHead);
    b.SetInsertPoint(tail);
    e->addIncoming(rowEnd, tail);
    b.CreateCondBr(b.CreateICmpULT(g, rowEnd), element, rowHead);
    b.SetInsertPoint(element);
    x = b.CreatePHI(i64, 3, "x");
    x->addIncoming(g, tail);
    x->addIncoming(g, groupFailed);
  } else {
    b.CreateBr(element);
    b.SetInsertPoint(element);
    x = b.CreatePHI(i64, 2, "x");
    x->addIncoming(e, rowStart);
  }

  // One output.
  std::vector<llvm::Value*> args;
  argumentsAt(x, args);
  args.push_back(err);
  llvm::Value* r = b.CreateCall(body, args);
  auto* store = llvm::BasicBlock::Create(ctx, "element.store", f);
  if (mayFail(body)) b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(b.getInt32Ty(), err), b.getInt32(0)), failed, store);
  else b.CreateBr(store);
  b.SetInsertPoint(store);
  if (!fn.returnType.isVoid() && !fn.resultRecord) {
    const KernelParam& out = fn.signature.params[outK];
    if (out.role != ParamRole::ResultArray) unsupported(fn.range, "a kernel without its out array");
    const Scalar s = fn.returnType.scalar;
    llvm::Value* slot = b.CreateGEP(memoryType(s), u.value[outK], x);
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

// A tile of a 2-D kernel: outputs (row + r, column + c) for r < rows, c < columns, side by side
// in rows x columns lanes. Returns 0 when every output was stored, 1 when one failed (nothing is
// stored then; the caller runs the outputs one at a time for the located error).
void ModuleLowerer::defineTile(const Function& fn, const std::string& name, unsigned rows, unsigned columns) {
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
  llvm::Value* row = &*arg++;
  llvm::Value* column = &*arg++;
  if (fn.mode != IndexMode::Grid2D) unsupported(fn.range, "a tile of a kernel that is not 2-D");
  const FuncId id = static_cast<FuncId>(&fn - ast_.functions.data());
  llvm::Function* laned = laneFunction(id, rows * columns);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::Value* err = b.CreateAlloca(b.getInt32Ty(), nullptr, "err");
  b.CreateStore(b.getInt32(0), err);
  const Unpacked u = unpack(*this, b, fn, params, lengths);
  const std::size_t outK = fn.signature.params.size() - 3;
  llvm::Value* inner = b.CreateLoad(i64, b.CreateConstGEP1_64(i64, extents, 1));
  llvm::Type* t = memoryType(fn.returnType.scalar);
  llvm::AllocaInst* results = b.CreateAlloca(llvm::ArrayType::get(t, rows * columns), nullptr, "results");
  std::vector<llvm::Value*> args;
  std::vector<llvm::Value*> outputs;
  for (unsigned r = 0; r < rows; ++r)
    for (unsigned c = 0; c < columns; ++c) {
      llvm::Value* index[3] = {b.CreateAdd(row, b.getInt64(r)), b.CreateAdd(column, b.getInt64(c)), nullptr};
      llvm::Value* x = b.CreateAdd(b.CreateMul(index[0], inner), index[1]);
      outputs.push_back(x);
      outputArguments(*this, b, fn, u, b.GetInsertBlock(), x, index, args);
    }
  args.push_back(results);
  args.push_back(err);
  b.CreateCall(laned, args);
  auto* store = llvm::BasicBlock::Create(ctx, "store", f);
  auto* failed = llvm::BasicBlock::Create(ctx, "failed", f);
  if (mayFail(laned)) b.CreateCondBr(b.CreateICmpNE(b.CreateLoad(b.getInt32Ty(), err), b.getInt32(0)), failed, store);
  else b.CreateBr(store);
  b.SetInsertPoint(store);
  for (unsigned q = 0; q < rows * columns; ++q)
    b.CreateStore(b.CreateLoad(t, b.CreateConstGEP2_32(results->getAllocatedType(), results, 0, q)),
                  b.CreateGEP(t, u.value[outK], outputs[q]));
  b.CreateRet(b.getInt64(0));
  b.SetInsertPoint(failed);
  b.CreateRet(b.getInt64(1));
}

}  // namespace culift::cpujit::detail
