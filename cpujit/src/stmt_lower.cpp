// Statements: blocks, declarations, if, loops, switch (with fall-through), break, continue and
// return, as the interpreter runs them (interpreter/src/compile_stmt.cpp).
#include "lower.hpp"

namespace culift::cpujit::detail {

void FunctionLowerer::declare(const Stmt& s) {
  if (s.var >= fn_.vars.size() || fn_.vars[s.var].isParam) unsupported(s.range, "a declaration of an unknown variable");
  const Var& v = fn_.vars[s.var];
  if (v.isReference()) {
    if (!s.expr) unsupported(s.range, "reference '" + v.name + "' without a referent");
    b_.CreateStore(address(*s.expr), slot_[s.var]);
    return;
  }
  if (v.type.isValue()) {
    if (s.expr) store(slot_[s.var], v.type.scalar, convert(expr(*s.expr), s.expr->type.scalar, v.type.scalar));
    return;
  }
  // A local array: its initializers, the rest zero-filled; uninitialized, nothing.
  if (!s.arrayInitialized && s.inits.empty()) return;
  llvm::Type* elem = m_.memoryType(v.type.scalar);
  const unsigned size = byteSize(v.type.scalar);
  for (std::size_t k = 0; k < s.inits.size(); ++k) {
    llvm::Value* x = convert(expr(*s.inits[k]), s.inits[k]->type.scalar, v.type.scalar);
    store(b_.CreateConstGEP1_64(elem, slot_[s.var], k), v.type.scalar, x);
  }
  if (s.inits.size() < v.type.extent)
    b_.CreateMemSet(b_.CreateConstGEP1_64(elem, slot_[s.var], s.inits.size()), b_.getInt8(0),
                    (v.type.extent - s.inits.size()) * size, llvm::MaybeAlign(size));
}

void FunctionLowerer::forLoop(const Stmt& s) {
  if (reassociate_ && !fn_.reassociatedSums.empty()) return reassociatedLoop(s);
  if (s.init) stmt(*s.init);
  llvm::BasicBlock* head = block("for.cond");
  llvm::BasicBlock* body = block("for.body");
  llvm::BasicBlock* inc = block("for.inc");
  llvm::BasicBlock* end = block("for.end");
  startBlock(head);
  if (s.cond) b_.CreateCondBr(condition(*s.cond), body, end);
  else b_.CreateBr(body);
  b_.SetInsertPoint(body);
  targets_.push_back({end, inc});
  if (!s.body) unsupported(s.range, "a for without a body");
  stmt(*s.body);
  targets_.pop_back();
  startBlock(inc);
  if (s.expr) forEachLane([&] { expr(*s.expr); });
  b_.CreateBr(head);
  b_.SetInsertPoint(end);
}

void FunctionLowerer::whileLoop(const Stmt& s) {
  if (!s.cond || !s.body) unsupported(s.range, "a loop without a condition or a body");
  llvm::BasicBlock* head = block("while.cond");
  llvm::BasicBlock* body = block("while.body");
  llvm::BasicBlock* end = block("while.end");
  startBlock(s.kind == StmtKind::While ? head : body);
  if (s.kind == StmtKind::DoWhile) {
    // The body first; `continue` goes to the condition.
    targets_.push_back({end, head});
    stmt(*s.body);
    targets_.pop_back();
    startBlock(head);
    b_.CreateCondBr(condition(*s.cond), body, end);
  } else {
    b_.CreateCondBr(condition(*s.cond), body, end);
    b_.SetInsertPoint(body);
    targets_.push_back({end, head});
    stmt(*s.body);
    targets_.pop_back();
    startBlock(head);
  }
  b_.SetInsertPoint(end);
}

// The labels are the body's direct statements; control falls through from one to the next.
void FunctionLowerer::switchStmt(const Stmt& s) {
  if (!s.cond || !isInteger(s.cond->type.scalar) || !s.body) unsupported(s.range, "a malformed switch");
  llvm::Value* c = condition(*s.cond);
  std::vector<const Stmt*> direct;
  if (s.body->kind == StmtKind::Block)
    for (const StmtPtr& x : s.body->stmts) direct.push_back(x.get());
  else direct.push_back(s.body.get());
  llvm::BasicBlock* end = block("switch.end");
  llvm::BasicBlock* defaultTo = end;
  std::vector<llvm::BasicBlock*> labels(direct.size(), nullptr);
  for (std::size_t k = 0; k < direct.size(); ++k)
    if (direct[k]->kind == StmtKind::Case || direct[k]->kind == StmtKind::Default) {
      labels[k] = block(direct[k]->kind == StmtKind::Case ? "case" : "default");
      if (direct[k]->kind == StmtKind::Default) defaultTo = labels[k];
    }
  llvm::SwitchInst* sw = b_.CreateSwitch(c, defaultTo);
  for (std::size_t k = 0; k < direct.size(); ++k)
    if (direct[k]->kind == StmtKind::Case)
      sw->addCase(llvm::cast<llvm::ConstantInt>(llvm::ConstantInt::get(c->getType(), direct[k]->caseValue)), labels[k]);
  b_.SetInsertPoint(block("switch.unreachable"));  // statements before the first label never run
  targets_.push_back({end, nullptr});
  for (std::size_t k = 0; k < direct.size(); ++k) {
    if (labels[k]) startBlock(labels[k]);
    else stmt(*direct[k]);
  }
  targets_.pop_back();
  startBlock(end);
}

void FunctionLowerer::stmt(const Stmt& s) {
  // Code after a jump is unreachable; it still gets a block of its own.
  if (b_.GetInsertBlock()->getTerminator()) b_.SetInsertPoint(block("dead"));
  switch (s.kind) {
    case StmtKind::Block:
      for (const StmtPtr& x : s.stmts)
        if (x) stmt(*x);
      return;
    case StmtKind::Decl: return forEachLane([&] { declare(s); });
    case StmtKind::ExprStmt:
      if (s.expr) forEachLane([&] { expr(*s.expr); });
      return;
    case StmtKind::If: {
      if (!s.cond || !s.then) unsupported(s.range, "an if without a condition or a body");
      llvm::BasicBlock* then = block("if.then");
      llvm::BasicBlock* otherwise = s.otherwise ? block("if.else") : nullptr;
      llvm::BasicBlock* end = block("if.end");
      b_.CreateCondBr(condition(*s.cond), then, otherwise ? otherwise : end);
      b_.SetInsertPoint(then);
      stmt(*s.then);
      if (otherwise) {
        startBlock(end);
        b_.SetInsertPoint(otherwise);
        stmt(*s.otherwise);
      }
      startBlock(end);
      return;
    }
    case StmtKind::For: return forLoop(s);
    case StmtKind::While:
    case StmtKind::DoWhile: return whileLoop(s);
    case StmtKind::Break:
      if (targets_.empty()) unsupported(s.range, "a break outside a loop or switch");
      b_.CreateBr(targets_.back().breakTo);
      return;
    case StmtKind::Continue:
      for (auto t = targets_.rbegin(); t != targets_.rend(); ++t)
        if (t->continueTo) {
          b_.CreateBr(t->continueTo);
          return;
        }
      unsupported(s.range, "a continue outside a loop");
    case StmtKind::Return:
      if (s.expr)
        forEachLane([&] {
          llvm::Value* v = expr(*s.expr);
          if (!ret_) unsupported(s.range, "a value returned from a void function");
          b_.CreateStore(convert(v, s.expr->type.scalar, fn_.returnType.scalar), ret_);
        });
      b_.CreateBr(exit_);
      return;
    case StmtKind::Switch: return switchStmt(s);
    case StmtKind::Case:
    case StmtKind::Default:
    case StmtKind::Null: return;
  }
  unsupported(s.range, "an unknown statement kind");
}

}  // namespace culift::cpujit::detail
