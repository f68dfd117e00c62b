// Prints one function's typed AST as C++ statements and expressions: every cast explicit,
// binary subexpressions fully parenthesized, literals with their exact type. The CUDA emitter
// and the pseudocode writer share it; the flavour decides the few spellings that differ.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "code_writer.hpp"
#include "culift/ast/module.hpp"

namespace culift::codegen {

enum class Flavor {
  Cuda,        // compilable CUDA C: device math names, exact literal casts folded, #line
  Pseudocode,  // what the AST says: every cast as written in the tree, C++ math names
};

// Rewrites for the loop planner's entries, which run a function's statements once per output of
// a register tile: a variable printed as other text (`acc` as `acc_t[culift_m][culift_n]`), the
// declaration of such a variable as an assignment, a subexpression as other text (a load from
// a staged tile), and `return v;` as a statement the entry chooses.
struct PrintRewrites {
  std::unordered_map<VarId, std::string> vars;
  std::unordered_set<VarId> hoisted;  // declared by the entry: `T v = e;` prints as `<text> = e;`
  std::unordered_set<VarId> dropped;  // not needed: `T v = e;` (e without side effects) prints nothing
  // Hoisted sums whose zero initializer prints as a plain `0.0f`, not culift_zero(0.0f): a sum the
  // loop only adds to meets no comparison as the constant (see plan_entries.cpp).
  std::unordered_set<VarId> plainZero;
  std::unordered_map<const Expr*, std::string> exprs;
  std::unordered_set<const Stmt*> unrolled;                      // `for` loops printed after `#pragma unroll`
  std::function<std::string(const std::string& value)> returns;  // value "" for `return;`
};

class AstPrinter {
 public:
  AstPrinter(const Module& module, const Function& function, Flavor flavor, CodeWriter& out);

  // "const float* x, int cols, int i" with the names the body uses.
  std::string parameterList() const;
  // The body's statements between the braces of the function, at `indent`.
  void printBody(unsigned indent);
  // One statement at `indent`, and one whole expression, under the rewrites set (if any).
  void printStatement(const Stmt& s, unsigned indent) { stmt(s, indent); }
  std::string printExpression(const Expr& e) { return top(e); }
  // Rewrites applied from now on (null: none). The printer does not own them.
  void setRewrites(const PrintRewrites* rewrites) { rewrites_ = rewrites; }

  // The name a variable is printed with: the user's, unless it would hide a function the body
  // calls or is empty.
  const std::string& varName(VarId id) const { return names_[id]; }
  // "float x", "const float* x", "float w[4]".
  static std::string declarator(const Type& type, const std::string& name);
  // The same for a variable, a reference as "float& s", "const float& r".
  static std::string declarator(const Var& var, const std::string& name);
  // The name a call to a lifted function prints.
  std::string calleeName(FuncId id) const;

 private:
  struct Printed {
    std::string text;
    bool parenthesized = false;  // "(...)" around the whole text, droppable at the top
  };

  void stmt(const Stmt& s, unsigned indent);
  void block(const Stmt& s, unsigned indent);  // the statements of a block, no braces
  void bracedBody(const std::string& head, const Stmt& body, unsigned indent, const std::string& tail = "}");
  void forLoop(const Stmt& s, unsigned indent);
  void switchStmt(const Stmt& s, unsigned indent);
  std::string declaration(const Stmt& decl);  // "int a = 0" without the semicolon
  std::string forInit(const Stmt& init, bool& hoist);

  Printed expr(const Expr& e);
  std::string top(const Expr& e);       // a whole expression: outer parentheses dropped
  std::string argument(const Expr& e);  // a call argument: a comma expression stays wrapped
  std::string assignedValue(const Expr& e);
  Printed cast(const Expr& e);
  static std::string narrowResult(Scalar target, const std::string& value);
  Printed narrowCompoundAssign(const Expr& e, const std::string& rhs);
  Printed mathCall(const Expr& e);
  Printed atomic(const Expr& e);
  std::string convertedTo(const Expr& e, Scalar s);  // e, with a cast when its type differs

  void collectCalleeNames(const Stmt& s, std::unordered_set<std::string>& names) const;
  std::string mathName(const Expr& e) const;

  const Module& module_;
  const Function& fn_;
  Flavor flavor_;
  CodeWriter& out_;
  std::vector<std::string> names_;
  const PrintRewrites* rewrites_ = nullptr;
};

// The Scalar a math call computes in: its result type for floating functions, its argument's
// for the classification functions (isnan, ...).
Scalar mathComputationType(const Expr& call);

}  // namespace culift::codegen
