// The lowering's frame: types, the IR signature of a lifted function, the functions of a kernel's
// IR module, failure sites, and a function's entry, exit and error checks.
#include <algorithm>

#include "llvm/IR/MDBuilder.h"
#include "lower.hpp"

namespace culift::cpujit::detail {

void unsupported(const SourceRange& range, std::string reason) { throw Unsupported{std::move(reason), range}; }

ModuleLowerer::ModuleLowerer(llvm::LLVMContext& ctx, const Module& module, const Options& options, std::string name)
    : ctx_(ctx), ast_(module), options_(options), module_(std::make_unique<llvm::Module>(name, ctx)) {
  sites_.emplace_back();  // site 0: no failure
}

llvm::Type* ModuleLowerer::valueType(Scalar s) {
  switch (s) {
    case Scalar::Void: return llvm::Type::getVoidTy(ctx_);
    case Scalar::Bool: return llvm::Type::getInt1Ty(ctx_);
    case Scalar::F32: return llvm::Type::getFloatTy(ctx_);
    case Scalar::F64: return llvm::Type::getDoubleTy(ctx_);
    default: return llvm::Type::getIntNTy(ctx_, byteSize(s) * 8);
  }
}

llvm::Type* ModuleLowerer::memoryType(Scalar s) {
  return s == Scalar::Bool ? llvm::Type::getInt8Ty(ctx_) : valueType(s);
}

// Scalars by value, references as pointers, arrays as a pointer and an i64 length; last, the
// pointer to the failing site (i32).
llvm::FunctionType* ModuleLowerer::signature(const Function& fn) {
  std::vector<llvm::Type*> params;
  auto* ptr = llvm::PointerType::get(ctx_, 0);
  for (unsigned p = 0; p < fn.numParams; ++p) {
    const Var& v = fn.param(p);
    if (v.isReference()) {
      params.push_back(ptr);
    } else if (v.type.isValue()) {
      params.push_back(valueType(v.type.scalar));
    } else {
      params.push_back(ptr);
      params.push_back(llvm::Type::getInt64Ty(ctx_));
    }
  }
  params.push_back(ptr);
  return llvm::FunctionType::get(valueType(fn.returnType.isVoid() ? Scalar::Void : fn.returnType.scalar), params,
                                 false);
}

llvm::Function* ModuleLowerer::function(FuncId id, bool reassociate) {
  if (id >= ast_.functions.size()) unsupported({}, "a call of an unknown function");
  if (auto it = functions_.find({id, reassociate}); it != functions_.end()) return it->second;
  const Function& fn = ast_.functions[id];
  if (std::find(lowering_.begin(), lowering_.end(), id) != lowering_.end())
    unsupported(fn.range, "'" + fn.name + "' calls itself");
  auto* f = llvm::Function::Create(signature(fn), llvm::GlobalValue::InternalLinkage,
                                   fn.name + (reassociate ? ".reassociated" : ""), *module_);
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  functions_[{id, reassociate}] = f;
  lowering_.push_back(id);
  FunctionLowerer(*this, fn, f, reassociate).lowerBody();
  lowering_.pop_back();
  return f;
}

bool ModuleLowerer::mayFail(const llvm::Function* f) const {
  auto it = failing_.find(f);
  return it != failing_.end() && it->second;
}

std::uint32_t ModuleLowerer::site(const SourceRange& range, std::string message, std::string hint) {
  Diagnostic d;
  d.severity = Severity::Error;
  d.loc = range.begin;
  d.message = std::move(message);
  d.hint = std::move(hint);
  sites_.push_back(std::move(d));
  return static_cast<std::uint32_t>(sites_.size() - 1);
}

// ---- a function's frame --------------------------------------------------------------------

FunctionLowerer::FunctionLowerer(ModuleLowerer& m, const Function& fn, llvm::Function* f, bool reassociate)
    : m_(m), fn_(fn), f_(f), reassociate_(reassociate), b_(m.context()) {
  allocas_ = llvm::BasicBlock::Create(m.context(), "allocas", f);
  exit_ = llvm::BasicBlock::Create(m.context(), "exit", f);
  b_.SetInsertPoint(allocas_);
  slot_.assign(fn.vars.size(), nullptr);
  length_.assign(fn.vars.size(), nullptr);
  if (!fn.returnType.isVoid()) ret_ = b_.CreateAlloca(m.valueType(fn.returnType.scalar), nullptr, "ret");
  auto arg = f->arg_begin();
  for (unsigned p = 0; p < fn.numParams; ++p, ++arg) {
    const Var& v = fn.param(p);
    if (v.isReference()) {
      slot_[p] = b_.CreateAlloca(b_.getPtrTy(), nullptr, v.name + ".ref");
      b_.CreateStore(&*arg, slot_[p]);
    } else if (v.type.isValue()) {
      slot_[p] = b_.CreateAlloca(m.valueType(v.type.scalar), nullptr, v.name);
      b_.CreateStore(&*arg, slot_[p]);
    } else {
      slot_[p] = &*arg;
      ++arg;
      length_[p] = &*arg;
    }
  }
  err_ = &*arg;
  for (std::size_t v = fn.numParams; v < fn.vars.size(); ++v) {
    const Var& var = fn.vars[v];
    if (var.isReference()) {
      slot_[v] = b_.CreateAlloca(b_.getPtrTy(), nullptr, var.name + ".ref");
    } else if (var.type.isArray()) {
      auto* t = llvm::ArrayType::get(m.memoryType(var.type.scalar), var.type.extent);
      slot_[v] = b_.CreateAlloca(t, nullptr, var.name);
      length_[v] = b_.getInt64(var.type.extent);
    } else if (var.type.isValue()) {
      slot_[v] = b_.CreateAlloca(m.valueType(var.type.scalar), nullptr, var.name);
    } else {
      unsupported(var.range, "local pointer '" + var.name + "'");
    }
  }
}

void FunctionLowerer::lowerBody() {
  llvm::BasicBlock* body = block("body");
  startBlock(body);
  if (!fn_.body) unsupported(fn_.range, "'" + fn_.name + "' has no body");
  stmt(*fn_.body);
  if (!b_.GetInsertBlock()->getTerminator()) b_.CreateBr(exit_);
  b_.SetInsertPoint(allocas_);
  b_.CreateBr(body);
  b_.SetInsertPoint(exit_);
  if (ret_) b_.CreateRet(b_.CreateLoad(ret_->getAllocatedType(), ret_));
  else b_.CreateRetVoid();
}

llvm::AllocaInst* FunctionLowerer::entryAlloca(llvm::Type* t, const char* name) {
  llvm::IRBuilder<> at(allocas_, allocas_->begin());
  return at.CreateAlloca(t, nullptr, name);
}

llvm::BasicBlock* FunctionLowerer::block(const char* name) { return llvm::BasicBlock::Create(m_.context(), name, f_); }

void FunctionLowerer::startBlock(llvm::BasicBlock* bb) {
  if (llvm::BasicBlock* cur = b_.GetInsertBlock(); cur && cur != allocas_ && !cur->getTerminator()) b_.CreateBr(bb);
  b_.SetInsertPoint(bb);
}

void FunctionLowerer::failIf(llvm::Value* bad, const SourceRange& range, std::string message, std::string hint) {
  const std::uint32_t id = m_.site(range, std::move(message), std::move(hint));
  llvm::BasicBlock* fail = block("fail");
  llvm::BasicBlock* ok = block("ok");
  b_.CreateCondBr(bad, fail, ok, llvm::MDBuilder(m_.context()).createBranchWeights(1, 1 << 20));
  b_.SetInsertPoint(fail);
  b_.CreateStore(b_.getInt32(id), err_);
  b_.CreateBr(exit_);
  b_.SetInsertPoint(ok);
  m_.markMayFail(f_);
}

void FunctionLowerer::checkCalleeFailure(llvm::Function* callee) {
  if (!m_.mayFail(callee)) return;
  llvm::BasicBlock* fail = block("callee.failed");
  llvm::BasicBlock* ok = block("ok");
  llvm::Value* failed = b_.CreateICmpNE(b_.CreateLoad(b_.getInt32Ty(), err_), b_.getInt32(0));
  b_.CreateCondBr(failed, fail, ok, llvm::MDBuilder(m_.context()).createBranchWeights(1, 1 << 20));
  b_.SetInsertPoint(fail);
  b_.CreateBr(exit_);
  b_.SetInsertPoint(ok);
  m_.markMayFail(f_);
}

}  // namespace culift::cpujit::detail
