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
// pointer to the failing site (i32). Lanes: the parameters once per lane, then the pointer to the
// lanes' results, and nothing returned.
llvm::FunctionType* ModuleLowerer::signature(const Function& fn, unsigned lanes) {
  std::vector<llvm::Type*> params;
  auto* ptr = llvm::PointerType::get(ctx_, 0);
  for (unsigned lane = 0; lane < lanes; ++lane)
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
  if (lanes > 1) params.push_back(ptr);
  params.push_back(ptr);
  const Scalar r = lanes > 1 || fn.returnType.isVoid() ? Scalar::Void : fn.returnType.scalar;
  return llvm::FunctionType::get(valueType(r), params, false);
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

llvm::Function* ModuleLowerer::laneFunction(FuncId id, unsigned lanes) {
  if (id >= ast_.functions.size()) unsupported({}, "a call of an unknown function");
  if (auto it = laneFunctions_.find({id, lanes}); it != laneFunctions_.end()) return it->second;
  const Function& fn = ast_.functions[id];
  auto* f = llvm::Function::Create(signature(fn, lanes), llvm::GlobalValue::InternalLinkage,
                                   fn.name + ".lanes" + std::to_string(lanes), *module_);
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  laneFunctions_[{id, lanes}] = f;
  lowering_.push_back(id);
  FunctionLowerer(*this, fn, f, false, lanes).lowerBody();
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

FunctionLowerer::FunctionLowerer(ModuleLowerer& m, const Function& fn, llvm::Function* f, bool reassociate,
                                 unsigned lanes)
    : m_(m), fn_(fn), f_(f), reassociate_(reassociate), b_(m.context()), lanes_(lanes) {
  allocas_ = llvm::BasicBlock::Create(m.context(), "allocas", f);
  exit_ = llvm::BasicBlock::Create(m.context(), "exit", f);
  b_.SetInsertPoint(allocas_);
  laneSlots_.resize(lanes);
  laneLengths_.resize(lanes);
  laneRets_.resize(lanes);
  auto arg = f->arg_begin();
  for (unsigned lane = 0; lane < lanes; ++lane) {
    slot_.assign(fn.vars.size(), nullptr);
    length_.assign(fn.vars.size(), nullptr);
    ret_ = fn.returnType.isVoid() ? nullptr : b_.CreateAlloca(m.valueType(fn.returnType.scalar), nullptr, "ret");
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
    laneSlots_[lane] = std::move(slot_);
    laneLengths_[lane] = std::move(length_);
    laneRets_[lane] = ret_;
  }
  if (lanes > 1) results_ = &*arg++;
  err_ = &*arg;
  slot_ = std::move(laneSlots_[0]);
  length_ = std::move(laneLengths_[0]);
  ret_ = laneRets_[0];
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
  if (lanes_ > 1) {
    const Scalar s = fn_.returnType.scalar;
    for (unsigned lane = 0; lane < lanes_; ++lane)
      store(b_.CreateConstGEP1_64(m_.memoryType(s), results_, lane), s,
            b_.CreateLoad(laneRets_[lane]->getAllocatedType(), laneRets_[lane]));
    b_.CreateRetVoid();
  } else if (ret_) {
    b_.CreateRet(b_.CreateLoad(ret_->getAllocatedType(), ret_));
  } else {
    b_.CreateRetVoid();
  }
}

void FunctionLowerer::setLane(unsigned lane) {
  if (lane == lane_) return;
  laneSlots_[lane_] = std::move(slot_);
  laneLengths_[lane_] = std::move(length_);
  slot_ = std::move(laneSlots_[lane]);
  length_ = std::move(laneLengths_[lane]);
  ret_ = laneRets_[lane];
  lane_ = lane;
}

void FunctionLowerer::forEachLane(const std::function<void()>& each) {
  const unsigned was = lane_;
  for (unsigned lane = 0; lane < lanes_; ++lane) {
    setLane(lane);
    each();
  }
  setLane(was);
}

llvm::Value* FunctionLowerer::condition(const Expr& c) {
  llvm::Value* first = nullptr;
  forEachLane([&] {
    llvm::Value* v = expr(c);
    if (lane_ == 0) first = v;
  });
  return first;
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
