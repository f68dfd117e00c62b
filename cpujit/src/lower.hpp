// Lowering the typed AST to LLVM IR: one ModuleLowerer per kernel (its own llvm::Module, with the
// functions it calls), one FunctionLowerer per lifted function. The semantics are the
// interpreter's (interpreter/src/ops.hpp and compile_*.cpp), operation by operation.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/cpujit.hpp"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

namespace culift::cpujit::detail {

// A construct the lowering does not handle: the kernel is left to the interpreter.
struct Unsupported {
  std::string reason;
  SourceRange range;
};
[[noreturn]] void unsupported(const SourceRange& range, std::string reason);

// Names of the C helpers of a reassociated loop (reassociation_helpers.cpp), per floating type.
struct ReassociationHelpers {
  static const char* endChunk(bool isDouble);          // void(T* partial, T* slots, int64 chunk)
  static const char* total(bool isDouble);             // T(T* partial, T* slots)
  static const char* singleChunkTotal(bool isDouble);  // T(T* partial): the total of a loop of one chunk
};

// Whether neighbouring outputs of kernel `fn` may be computed side by side in lanes, each in its
// own order (lanes.cpp): the kernel is pure and its control flow the same for every output of a
// row. If not, `why` says what stands in the way.
// `axes`: the lanes differ in the innermost index (1) or in the two innermost (2: a tile).
bool lanesFit(const Module& module, const Function& fn, unsigned axes, std::string* why = nullptr);

class ModuleLowerer {
 public:
  ModuleLowerer(llvm::LLVMContext& ctx, const Module& module, const Options& options, std::string name);

  llvm::Module& llvmModule() { return *module_; }
  std::unique_ptr<llvm::Module> take() { return std::move(module_); }
  const Module& astModule() const { return ast_; }
  const Options& options() const { return options_; }
  llvm::LLVMContext& context() { return ctx_; }

  // The IR function of lifted function `id` (lowered on first use). `reassociate`: the launched
  // kernel's own body, with its loop in the reassociating plan's order.
  llvm::Function* function(FuncId id, bool reassociate = false);
  // `lanes` outputs of kernel `id` side by side: the scalar function's parameters once per lane,
  // then where the lanes' results go (in memory types) and the failing site.
  llvm::Function* laneFunction(FuncId id, unsigned lanes);
  bool mayFail(const llvm::Function* f) const;  // whether it can report an error site
  // Defines `name` running outputs [first, last) of kernel `fn` (Kernel::Entry's signature),
  // `lanes` neighbouring outputs at a time where lanesFit() allows (1: one at a time).
  void defineEntry(const Function& fn, const std::string& name, bool reassociate, unsigned lanes);
  // Defines `name` computing a rows x columns tile of 2-D kernel `fn` (Kernel::Tile's signature).
  void defineTile(const Function& fn, const std::string& name, unsigned rows, unsigned columns);

  // A new failure site: its id, returned through the entry's `site` argument.
  std::uint32_t site(const SourceRange& range, std::string message, std::string hint = {});
  std::vector<Diagnostic> takeSites() { return std::move(sites_); }
  void markMayFail(const llvm::Function* f) { failing_[f] = true; }

  // Types: a scalar as a value (bool is i1) and in memory (bool is one byte).
  llvm::Type* valueType(Scalar s);
  llvm::Type* memoryType(Scalar s);
  llvm::FunctionType* signature(const Function& fn, unsigned lanes = 1);

 private:
  llvm::LLVMContext& ctx_;
  const Module& ast_;
  Options options_;
  std::unique_ptr<llvm::Module> module_;
  std::map<std::pair<FuncId, bool>, llvm::Function*> functions_;
  std::map<std::pair<FuncId, unsigned>, llvm::Function*> laneFunctions_;
  std::vector<FuncId> lowering_;  // the functions being lowered now (recursion is refused)
  std::map<const llvm::Function*, bool> failing_;
  std::vector<Diagnostic> sites_;
};

class FunctionLowerer {
 public:
  // `lanes` > 1: f is the function's lane form (ModuleLowerer::laneFunction).
  FunctionLowerer(ModuleLowerer& m, const Function& fn, llvm::Function* f, bool reassociate, unsigned lanes = 1);
  void lowerBody();

  // Expressions (expr_lower.cpp, math_lower.cpp).
  llvm::Value* expr(const Expr& e);
  llvm::Value* address(const Expr& lvalue);  // a variable's or element's memory
  llvm::Value* load(llvm::Value* addr, Scalar s);
  void store(llvm::Value* addr, Scalar s, llvm::Value* v);
  llvm::Value* convert(llvm::Value* v, Scalar from, Scalar to);
  llvm::Value* arithmetic(BinaryOp op, Scalar t, llvm::Value* a, llvm::Value* b, const Expr& at);
  llvm::Value* shift(BinaryOp op, Scalar t, llvm::Value* a, llvm::Value* count, Scalar countType, const Expr& at);
  llvm::Value* compare(BinaryOp op, Scalar t, llvm::Value* a, llvm::Value* b);
  llvm::Value* mathCall(const Expr& e);
  llvm::Value* call(const Expr& e);
  llvm::Value* atomic(const Expr& e);

  // Statements (stmt_lower.cpp, reassociated_loop.cpp).
  void stmt(const Stmt& s);
  void reassociatedLoop(const Stmt& s);

  // Control flow: a new block, a branch to the error exit when `bad` holds.
  llvm::BasicBlock* block(const char* name);
  void startBlock(llvm::BasicBlock* bb);  // continues emitting in bb (the current one ends first)
  void failIf(llvm::Value* bad, const SourceRange& range, std::string message, std::string hint = {});
  void checkCalleeFailure(llvm::Function* callee);
  llvm::IRBuilder<>& builder() { return b_; }
  ModuleLowerer& lowerer() { return m_; }
  const Function& function() const { return fn_; }
  llvm::AllocaInst* entryAlloca(llvm::Type* t, const char* name);

 private:
  llvm::Value* arrayBase(const Expr& arrayRef, llvm::Value** length);
  llvm::Value* subscriptAddress(const Expr& e);
  llvm::Value* constant(const Expr& e);
  llvm::Value* unary(const Expr& e);
  llvm::Value* binary(const Expr& e);
  llvm::Value* logical(const Expr& e);
  llvm::Value* compoundAssign(const Expr& e);
  llvm::Value* incDec(const Expr& e);
  llvm::Value* conditional(const Expr& e);
  void declare(const Stmt& s);
  void forLoop(const Stmt& s);
  void whileLoop(const Stmt& s);
  void switchStmt(const Stmt& s);
  // Lanes: `each` runs once per lane with that lane's variables; a condition is evaluated in
  // every lane (for its side effects) and lane 0's value decides, as every lane's is the same.
  void forEachLane(const std::function<void()>& each);
  llvm::Value* condition(const Expr& c);
  void setLane(unsigned lane);

  ModuleLowerer& m_;
  const Function& fn_;
  llvm::Function* f_;
  bool reassociate_;
  llvm::IRBuilder<> b_;
  llvm::BasicBlock* allocas_ = nullptr;
  llvm::BasicBlock* exit_ = nullptr;
  llvm::AllocaInst* ret_ = nullptr;
  llvm::Value* err_ = nullptr;        // i32*: the failing site, 0 while none
  std::vector<llvm::Value*> slot_;    // per variable: its memory (a reference: where its referent's address is)
  std::vector<llvm::Value*> length_;  // per array variable: its element count (i64)
  struct Targets {
    llvm::BasicBlock* breakTo;
    llvm::BasicBlock* continueTo;  // null for a switch
  };
  std::vector<Targets> targets_;
  unsigned lanes_ = 1;
  unsigned lane_ = 0;                                   // the lane slot_, length_ and ret_ are of
  std::vector<std::vector<llvm::Value*>> laneSlots_;    // per lane but the current one: its slot_
  std::vector<std::vector<llvm::Value*>> laneLengths_;  // likewise for length_
  std::vector<llvm::AllocaInst*> laneRets_;             // per lane: its return value
  llvm::Value* results_ = nullptr;                      // lanes: where the results go
};

}  // namespace culift::cpujit::detail
