// Turns a Function's typed AST into run-time nodes: variables resolved to slots, types and
// operators resolved to template instances, hot shapes (operands that are plain variables or
// constants) fused into single nodes.
#pragma once

#include "runtime.hpp"

namespace culift::interp::exec {

struct ProgramData {
  std::shared_ptr<const Module> module;
  Options options;
  std::vector<CompiledFunction> functions;  // parallel to module->functions
  std::vector<unsigned> runDepth;           // parallel to module->functions: see runDepths()
};

// How deep running each function of `module` nests on the stack, counted in expression levels:
// its deepest statement or expression and, at each call, the callee's depth plus a call's own
// frame. kUnboundedDepth for a function that may recurse. Running a node recurses into its
// children, so this is what a call needs of the stack it runs on.
inline constexpr unsigned kUnboundedDepth = ~0u;
std::vector<unsigned> runDepths(const Module& module);

// An array index of the shape `c`, `a + c` or `a * b + c` over int variables held in slots
// (row-major indexing): computed inline, with the same overflow checks as the nodes.
struct AffineIndex {
  enum Form : std::uint8_t { Var, Sum, MulAdd } form = Var;
  std::uint32_t a = 0, b = 0, c = 0;
  const Expr* add = nullptr;  // the Binary nodes, for error locations
  const Expr* mul = nullptr;
};

// How an operand is reached: through a node, straight from a slot, as a constant, or as an
// array element with an affine index.
struct Operand {
  enum Kind { Node, Slot, Const, Elem } kind = Node;
  ExprNodePtr node;
  std::uint32_t slot = 0;  // Slot; Elem: the array
  Raw value;
  AffineIndex index;  // Elem
  const Expr* src = nullptr;
};

// An lvalue: a scalar slot, an array element or a reference's referent, resolved at run time to
// a place in memory.
struct LvalueNode {
  const Expr* src;
  Scalar type;
  explicit LvalueNode(const Expr* e) : src(e), type(e->type.scalar) {}
  virtual ~LvalueNode() = default;
  virtual Place place(Frame& f) const = 0;
  // The place of an atomic update: not recorded as a write by a checked launch (atomics of
  // several outputs on one element are what atomics are for). Only array elements have one.
  virtual Place atomicPlace(Frame& f) const { return place(f); }
  // Checks that the place holds a written value (reads of uninitialized locals are errors).
  virtual void checkRead(Frame& f, const Place& p) const = 0;
};
using LvalueNodePtr = std::unique_ptr<LvalueNode>;

class Compiler {
 public:
  Compiler(ProgramData& program, CompiledFunction& fn);
  void compileBody();

  ExprNodePtr expr(const Expr& e);
  Operand operand(const Expr& e, bool allowElem = false);
  // Recognizes an int index of the form c, a + c, a * b + c with plain int variables.
  bool affineIndex(const Expr& idx, AffineIndex& out) const;
  ExprNodePtr toNode(Operand&& o, const Expr& e);
  LvalueNodePtr lvalue(const Expr& e);
  // The place a reference binds to: a variable, an array element (of a const array too) or the
  // referent of another reference. Null when `e` is none of them (a temporary).
  LvalueNodePtr referent(const Expr& e);
  StmtNodePtr stmt(const Stmt& s);

  // Expression kinds, one function each (compile_expr.cpp, compile_ops.cpp, compile_math.cpp).
  ExprNodePtr binary(const Expr& e);
  ExprNodePtr unary(const Expr& e);
  ExprNodePtr cast(const Expr& e);
  ExprNodePtr assign(const Expr& e);
  ExprNodePtr compoundAssign(const Expr& e);
  ExprNodePtr incDec(const Expr& e);
  ExprNodePtr subscriptLoad(const Expr& e);
  ExprNodePtr varLoad(const Expr& e);
  ExprNodePtr call(const Expr& e);
  ExprNodePtr mathCall(const Expr& e);
  ExprNodePtr atomic(const Expr& e);  // compile_atomic.cpp

  bool isChecked(VarId v) const { return checked_[v]; }
  // A scalar variable with a slot of its own (not an array, not a reference).
  bool isSlotVar(VarId v) const { return v < fn_.slotOf.size() && var(v).type.isValue() && !var(v).isReference(); }
  // A read of a scalar variable that needs no check: served straight from its slot.
  bool plainSlot(const Expr& e) const { return e.kind == ExprKind::VarRef && isSlotVar(e.var) && !checked_[e.var]; }
  std::uint32_t slotOf(VarId v) const { return fn_.slotOf[v]; }
  const Var& var(VarId v) const { return fn_.fn->vars[v]; }
  const ProgramData& program() const { return program_; }
  [[noreturn]] void malformed(const SourceRange& where, const std::string& what) const;

 private:
  ProgramData& program_;
  CompiledFunction& fn_;
  std::vector<bool> checked_;  // locals declared without an initializer: reads are checked
};

// Evaluates a constant subtree once at compile time (literals and casts that cannot fail).
bool isConstant(const Expr& e);

// Generic conversion and operator tables (for compound assignments whose computation type
// differs from the lvalue's type, and other rare shapes).
using ConvertFn = Raw (*)(Raw, const Expr&);
ConvertFn converter(Scalar from, Scalar to);
// A node converting `operand`'s value with `fn` (located at `e`).
ExprNodePtr convertNode(const Expr& e, ConvertFn fn, ExprNodePtr operand);
using BinaryFn = Raw (*)(Raw, Raw, Scalar rhsType, const Expr&);
BinaryFn binaryFn(BinaryOp op, Scalar type);  // null when the operator does not apply

// Reads and writes a scalar of `type` at a place (bool normalized to 0/1).
Raw loadAt(const std::byte* p, Scalar type);
void storeAt(std::byte* p, Scalar type, Raw v);

}  // namespace culift::interp::exec
