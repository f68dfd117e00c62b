// The verifier on modules built by hand: a well-formed one passes, and each malformed one gives
// the violations expected of it (the node, its location and the rule), all of them, not just the
// first. The dumper's tree on a hand-built function, line for line.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "ast_builder.hpp"
#include "catch.hpp"
#include "culift/ast/dump.hpp"
#include "culift/ast/verify.hpp"

using namespace culift;
using namespace culift::test;

namespace {

template <typename N> N located(N n, unsigned line, unsigned column = 5) {
  n->range = at(line, column);
  return n;
}

// float f(const float* x, float* y, int n, int i) { float s = 0; for (int k = 0; k < n; ++k)
// s += x[k]; y[i] = s; return s; } and float g(float v) { return -v; }, both well formed.
struct Sample {
  Module module;
  VarId x, y, n, i, s, k;
};

Sample sample() {
  Sample out;
  FunctionBuilder b("f", val(Scalar::F32));
  out.x = b.param("x", Type::pointer(Scalar::F32, true));
  out.y = b.param("y", Type::pointer(Scalar::F32, false));
  out.n = b.param("n", val(Scalar::I32));
  out.i = b.param("i", val(Scalar::I32));
  out.s = b.local("s", val(Scalar::F32));
  out.k = b.local("k", val(Scalar::I32));
  const Function& f = b.fn;
  auto loop = forStmt(decl(out.k, lit(0), 3), bin(BinaryOp::Lt, ref(f, out.k), ref(f, out.n)),
                      incdec(IncDecOp::PreInc, ref(f, out.k)),
                      exprStmt(compound(BinaryOp::Add, ref(f, out.s), sub(f, out.x, ref(f, out.k)), Scalar::F32), 4),
                      3);
  Function fn = b.take(stmts(decl(out.s, cast(lit(0), Scalar::F32), 2), std::move(loop),
                             exprStmt(assign(sub(f, out.y, ref(f, out.i)), ref(f, out.s)), 5),
                             ret(call(1, Scalar::F32, exprs(ref(f, out.s))), 6)));
  classifyByHand(fn, IndexMode::Grid1D, {3});
  out.module.functions.push_back(std::move(fn));
  FunctionBuilder h("g", val(Scalar::F32), 8);
  const VarId v = h.param("v", val(Scalar::F32));
  Function g = h.take(stmts(ret(un(UnaryOp::Neg, ref(h.fn, v)), 9)));
  classifyByHand(g, IndexMode::DeviceOnly);
  out.module.functions.push_back(std::move(g));
  return out;
}

std::string violations(const Module& m) { return ast::format(ast::verify(m)); }

// The violations of the sample after `change`, one per line.
std::string after(const std::function<void(Sample&, Function&)>& change) {
  Sample s = sample();
  change(s, s.module.functions[0]);
  return violations(s.module);
}

Stmt& bodyStmt(Function& f, std::size_t k) { return *f.body->stmts.at(k); }

}  // namespace

TEST_CASE("a well-formed module has no violations", "[ast][verify]") {
  const Sample s = sample();
  CHECK(violations(s.module).empty());
}

TEST_CASE("a violation names its location, function, node and rule", "[ast][verify]") {
  Sample s = sample();
  Function& f = s.module.functions[0];
  // y[i] = s becomes y[i] = (s + 1): float plus int.
  ExprPtr sum = located(bin(BinaryOp::Add, ref(f, s.s), lit(1)), 5, 12);
  bodyStmt(f, 2).expr->operands[1] = std::move(sum);
  const std::vector<ast::Violation> v = ast::verify(s.module);
  REQUIRE(v.size() == 1);
  CHECK(v[0].node == "Binary");
  CHECK(v[0].function == "f");
  CHECK(v[0].format() ==
        "kernels.cpp:5:12: in 'f': Binary: operands of '+' have types float and int; the rule is: both operands of an "
        "arithmetic binary or a comparison have one promoted type (int or wider, or floating)");
}

TEST_CASE("every violation is reported, not just the first", "[ast][verify]") {
  const std::string v = after([](Sample& s, Function& f) {
    bodyStmt(f, 0).expr = lit(0);                       // float s = int 0
    bodyStmt(f, 3).expr = ref(f, s.s);                  // return s, fine
    f.body->stmts.push_back(stmt(StmtKind::Break, 7));  // break outside a loop
    f.body->stmts.push_back(exprStmt(ref(f, s.x), 7));  // the array x as a value
  });
  CHECK(v.find("Decl: 's' is float, its initializer int") != std::string::npos);
  CHECK(v.find("Break: it is outside every loop and switch") != std::string::npos);
  CHECK(v.find("VarRef: the array 'x' is used as a value") != std::string::npos);
  CHECK(std::count(v.begin(), v.end(), '\n') == 3);
}

TEST_CASE("each expression rule", "[ast][verify]") {
  struct Case {
    const char* what;
    std::function<void(Sample&, Function&)> change;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"an int literal of type float",
       [](Sample&, Function& f) { bodyStmt(f, 0).expr->operands[0]->type = val(Scalar::F32); },
       "IntLiteral: the literal has type float; the rule is: an integer literal has an integer type"},
      {"a float literal of type int",
       [](Sample&, Function& f) { bodyStmt(f, 0).expr->operands[0] = flit(0, Scalar::I32); },
       "FloatLiteral: the literal has type int; the rule is: a floating literal is a float or a double"},
      {"a bool literal of 2",
       [](Sample&, Function& f) {
         ExprPtr b = blit(true);
         b->intBits = 2;
         bodyStmt(f, 0).expr->operands[0] = std::move(b);
       },
       "a bool literal holds 0 or 1"},
      {"a variable out of range", [](Sample&, Function& f) { bodyStmt(f, 3).expr->operands[0]->var = 42; },
       "VarRef: it names variable 42 of 6; the rule is: a variable reference names a variable of its function"},
      {"a local used after its scope", [](Sample& s, Function& f) { bodyStmt(f, 2).expr->operands[1] = ref(f, s.k); },
       "VarRef: 'k' is used outside the scope of its declaration"},
      {"a local used before its declaration",
       [](Sample& s, Function& f) { bodyStmt(f, 0).expr->operands[0] = cast(ref(f, s.s), Scalar::F32); },
       "'s' is used outside the scope of its declaration"},
      {"a reference of the wrong type",
       [](Sample&, Function& f) { bodyStmt(f, 3).expr->operands[0]->type = val(Scalar::F64); },
       "VarRef: the reference has type double, 's' is float; the rule is: a variable reference has its variable's type"},
      {"a subscript of a scalar",
       [](Sample& s, Function& f) { bodyStmt(f, 2).expr->operands[0]->operands[0] = ref(f, s.n); },
       "Subscript: its array is the variable 'n' (int); the rule is: a subscript's first operand is a variable"},
      {"a subscript of another element type",
       [](Sample&, Function& f) { bodyStmt(f, 2).expr->operands[0]->type = val(Scalar::F64); },
       "Subscript: the element has type double, the array 'y' is float*"},
      {"a floating index", [](Sample& s, Function& f) { bodyStmt(f, 2).expr->operands[0]->operands[1] = ref(f, s.s); },
       "Subscript: the index has type float; the rule is: an array index is an integer"},
      {"'!' of a float",
       [](Sample& s, Function& f) { bodyStmt(f, 3).expr->operands[0] = un(UnaryOp::LogNot, ref(f, s.s)); },
       "Unary: '!' of float gives bool; the rule is: '!' takes a bool and gives a bool"},
      {"'~' of a float",
       [](Sample& s, Function& f) { bodyStmt(f, 3).expr->operands[0] = un(UnaryOp::BitNot, ref(f, s.s)); },
       "Unary: '~' of float; the rule is: '~' takes an integer"},
      {"'-' of a short",
       [](Sample& s, Function& f) {
         bodyStmt(f, 3).expr->operands[0] = cast(un(UnaryOp::Neg, cast(ref(f, s.n), Scalar::I16)), Scalar::F32);
       },
       "Unary: '-' of short; the rule is: the operand of an arithmetic unary is promoted"},
      {"'&&' of ints",
       [](Sample& s, Function& f) { bodyStmt(f, 1).cond = bin(BinaryOp::LogAnd, ref(f, s.n), ref(f, s.n)); },
       "Binary: operands of '&&' have types int and int; the rule is: the operands of '&&' and '||' are bool"},
      {"a comparison giving int", [](Sample&, Function& f) { bodyStmt(f, 1).cond->type = val(Scalar::I32); },
       "the rule is: a comparison or a logical operator gives a bool"},
      {"'%' of floats",
       [](Sample& s, Function& f) { bodyStmt(f, 3).expr->operands[0] = bin(BinaryOp::Rem, ref(f, s.s), ref(f, s.s)); },
       "Binary: operands of '%' have types float and float; the rule is: '%' takes integers"},
      {"a shift of a float",
       [](Sample& s, Function& f) { bodyStmt(f, 3).expr->operands[0] = bin(BinaryOp::Shl, ref(f, s.s), ref(f, s.n)); },
       "the rule is: the operands of a shift are promoted integers"},
      {"a sum of another type than its operands",
       [](Sample& s, Function& f) {
         ExprPtr sum = bin(BinaryOp::Add, ref(f, s.s), ref(f, s.s));
         sum->type = val(Scalar::F64);
         bodyStmt(f, 3).expr = cast(std::move(sum), Scalar::F32);
       },
       "Binary: '+' of float gives double; the rule is: both operands of an arithmetic binary have the result's type"},
      {"an assignment to a const array",
       [](Sample& s, Function& f) { bodyStmt(f, 2).expr->operands[0]->operands[0] = ref(f, s.x); },
       "Assign: the target of Assign is an element of the const array 'x'; the rule is: no element of a const array "
       "is written"},
      {"an assignment of another type", [](Sample& s, Function& f) { bodyStmt(f, 2).expr->operands[1] = ref(f, s.n); },
       "Assign: a int is assigned to a float; the rule is: an assignment's value is converted to the assigned type"},
      {"an assignment to a literal", [](Sample&, Function& f) { bodyStmt(f, 2).expr->operands[0] = flit(1); },
       "Assign: the target of Assign is a FloatLiteral (float); the rule is: an assignment writes a scalar variable"},
      {"a compound comparison", [](Sample&, Function& f) { bodyStmt(f, 1).body->expr->binaryOp = BinaryOp::Lt; },
       "CompoundAssign: the operator is '<='; the rule is: a compound assignment's operator is arithmetic"},
      {"a compound operand of another type",
       [](Sample&, Function& f) { bodyStmt(f, 1).body->expr->computeType = Scalar::F64; },
       "CompoundAssign: '+=' computes in double, its operand is float"},
      {"'++' of a bool",
       [](Sample&, Function& f) {
         Expr& inc = *bodyStmt(f, 1).expr;
         inc.operands[0]->type = val(Scalar::Bool);
         inc.type = val(Scalar::Bool);
       },
       "IncDec: '++' of a bool; the rule is: '++' and '--' take no bool"},
      {"a conditional on an int",
       [](Sample& s, Function& f) { bodyStmt(f, 3).expr->operands[0] = cond(ref(f, s.n), ref(f, s.s), ref(f, s.s)); },
       "Conditional: the condition is a int; the rule is: a conditional's condition is a bool"},
      {"a conditional's branches of two types",
       [](Sample& s, Function& f) {
         bodyStmt(f, 3).expr->operands[0] = cond(blit(true), ref(f, s.s), cast(ref(f, s.s), Scalar::F64));
       },
       "Conditional: the branches have types float and double, the result float"},
      {"a cast to an array type", [](Sample&, Function& f) { bodyStmt(f, 0).expr->type = Type::array(Scalar::F32, 2); },
       "Cast: a cast from int to float[2]; the rule is: a cast converts a scalar value to a scalar type"},
      {"a call of a missing function", [](Sample&, Function& f) { bodyStmt(f, 3).expr->callee = 9; },
       "Call: it calls function 9 of 2; the rule is: a call names a function of its module"},
      {"a call with two arguments",
       [](Sample& s, Function& f) { bodyStmt(f, 3).expr->operands.push_back(ref(f, s.s)); },
       "Call: 'g' is called with 2 arguments, it takes 1; the rule is: a call passes one argument per parameter"},
      {"a call's argument of another type",
       [](Sample& s, Function& f) { bodyStmt(f, 3).expr->operands[0] = ref(f, s.n); },
       "Call: argument 1 of 'g' is a int for a float; the rule is: an argument is converted to its parameter's type"},
      {"a call of another result type", [](Sample&, Function& f) { bodyStmt(f, 3).expr->type = val(Scalar::F64); },
       "Call: the call of 'g' has type double, 'g' returns float"},
      {"a math call with one argument too many",
       [](Sample& s, Function& f) {
         bodyStmt(f, 3).expr = math(MathFn::Sqrt, Scalar::F32, exprs(ref(f, s.s), ref(f, s.s)));
       },
       "MathCall: it has 2 operands; the rule is: a MathCall has 1 operands"},
      {"sqrt of a float giving double",
       [](Sample& s, Function& f) {
         bodyStmt(f, 3).expr = cast(math(MathFn::Sqrt, Scalar::F64, exprs(ref(f, s.s))), Scalar::F32);
       },
       "MathCall: 'sqrt' of float gives double; the rule is: a math function gives its computation type"},
      {"isnan giving a float",
       [](Sample& s, Function& f) { bodyStmt(f, 3).expr = math(MathFn::Isnan, Scalar::F32, exprs(ref(f, s.s))); },
       "MathCall: 'isnan' of float gives float; the rule is: a classification gives a bool"},
      {"std::min of two types",
       [](Sample& s, Function& f) {
         bodyStmt(f, 3).expr = math(MathFn::Min, Scalar::F32, exprs(ref(f, s.s), ref(f, s.n)));
       },
       "MathCall: 'min' of operands of different types; the rule is: std::min, max, clamp and abs take one type"},
      {"a comma of another type than its right operand",
       [](Sample& s, Function& f) {
         ExprPtr c = comma(ref(f, s.n), ref(f, s.s));
         c->type = val(Scalar::I32);
         bodyStmt(f, 2).expr = std::move(c);
       },
       "Comma: the comma has type int, its right operand float; the rule is: a comma has its right operand's type"},
      {"an assertion on an int",
       [](Sample& s, Function& f) {
         ExprPtr a = node(ExprKind::Assert, val(Scalar::Void));
         a->operands = exprs(ref(f, s.n));
         bodyStmt(f, 2).expr = std::move(a);
       },
       "Assert: the condition is a int; the rule is: an assertion's condition is a bool"},
      {"an atomic update of a const array",
       [](Sample& s, Function& f) {
         ExprPtr a = node(ExprKind::AtomicRmw, val(Scalar::F32));
         a->operands = exprs(sub(f, s.x, ref(f, s.i)), ref(f, s.s));
         bodyStmt(f, 2).expr = std::move(a);
       },
       "AtomicRmw: 'fetch_add' updates a Subscript (float); the rule is: an atomic operation updates an element of an "
       "array parameter that is not const"},
      {"an atomic minimum of floats",
       [](Sample& s, Function& f) {
         ExprPtr a = node(ExprKind::AtomicRmw, val(Scalar::F32));
         a->atomicOp = AtomicOp::Min;
         a->operands = exprs(sub(f, s.y, ref(f, s.i)), ref(f, s.s));
         bodyStmt(f, 2).expr = std::move(a);
       },
       "AtomicRmw: 'fetch_min' of a float; the rule is: 'fetch_min' takes integers"},
      {"a missing operand", [](Sample&, Function& f) { bodyStmt(f, 2).expr->operands[1] = nullptr; },
       "Assign: an operand is missing; the rule is: a node's operands are all present"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string v = after(c.change);
    INFO(v);
    CHECK(v.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("each statement and function rule", "[ast][verify]") {
  struct Case {
    const char* what;
    std::function<void(Sample&, Function&)> change;
    const char* expected;
  };
  const std::vector<Case> cases = {
      {"a local declared twice",
       [](Sample& s, Function& f) { f.body->stmts.insert(f.body->stmts.begin() + 1, decl(s.s, nullptr, 2)); },
       "Decl: 's' is declared again; the rule is: each local is declared once"},
      {"a parameter declared",
       [](Sample& s, Function& f) { f.body->stmts.insert(f.body->stmts.begin(), decl(s.n, lit(0), 2)); },
       "Decl: it declares the parameter 'n'; the rule is: a declaration declares a local of its function"},
      {"an array with too many initializers",
       [](Sample&, Function& f) {
         const VarId a = static_cast<VarId>(f.vars.size());
         f.vars.push_back(Var{"a", Type::array(Scalar::I32, 1), {}, false});
         f.body->stmts.insert(f.body->stmts.begin(), declArray(a, exprs(lit(1), lit(2)), true, 2));
       },
       "Decl: 2 initializers for 'a' of 1 elements; the rule is: an array has at most as many initializers as "
       "elements"},
      {"a reference bound to a temporary",
       [](Sample& s, Function& f) {
         const VarId r = static_cast<VarId>(f.vars.size());
         f.vars.push_back(Var{"r", val(Scalar::F32), {}, false, Binding::Reference});
         f.body->stmts.insert(f.body->stmts.begin() + 1, decl(r, bin(BinaryOp::Add, ref(f, s.s), ref(f, s.s)), 2));
       },
       "Decl: the referent of 'r' is a Binary (float), a temporary; the rule is: a reference that is not const binds "
       "a variable or an array element"},
      {"a reference bound to nothing",
       [](Sample&, Function& f) {
         const VarId r = static_cast<VarId>(f.vars.size());
         f.vars.push_back(Var{"r", val(Scalar::F32), {}, false, Binding::ConstReference});
         f.body->stmts.insert(f.body->stmts.begin(), decl(r, nullptr, 2));
       },
       "Decl: the reference 'r' is bound to nothing; the rule is: a reference is bound at its declaration"},
      {"an expression statement without one", [](Sample&, Function& f) { bodyStmt(f, 2).expr = nullptr; },
       "ExprStmt: it holds no expression"},
      {"an if on a float",
       [](Sample& s, Function& f) {
         f.body->stmts.insert(f.body->stmts.begin() + 1, ifStmt(ref(f, s.s), ret(ref(f, s.s)), nullptr, 3));
       },
       "If: the condition is a float; the rule is: an if's condition is a bool"},
      {"a for without a body", [](Sample&, Function& f) { bodyStmt(f, 1).body = nullptr; },
       "For: it has no body; the rule is: a loop has a body"},
      {"a for whose initializer is a return", [](Sample& s, Function& f) { bodyStmt(f, 1).init = ret(ref(f, s.s), 3); },
       "Return: a for's initializer is a Return; the rule is: a for's initializer is a declaration"},
      {"a while on an int",
       [](Sample& s, Function& f) {
         f.body->stmts.insert(f.body->stmts.begin() + 1, whileStmt(ref(f, s.n), stmt(StmtKind::Break, 3), 3));
       },
       "While: the condition is a int; the rule is: a while's condition is a bool"},
      {"a do-while without a condition",
       [](Sample&, Function& f) {
         f.body->stmts.insert(f.body->stmts.begin() + 1, doWhile(stmt(StmtKind::Continue, 3), nullptr, 3));
       },
       "DoWhile: it has no condition; the rule is: a do-while has a condition"},
      {"a continue outside a loop", [](Sample&, Function& f) { f.body->stmts.push_back(stmt(StmtKind::Continue, 7)); },
       "Continue: it is outside every loop; the rule is: a continue is inside a loop"},
      {"a return without a value", [](Sample&, Function& f) { bodyStmt(f, 3).expr = nullptr; },
       "Return: it returns no value from a function returning float; the rule is: a non-void function returns a value"},
      {"a return of another type", [](Sample& s, Function& f) { bodyStmt(f, 3).expr = ref(f, s.n); },
       "Return: it returns a int from a function returning float; the rule is: a return's value is converted"},
      {"a switch on a float with a repeated case",
       [](Sample& s, Function& f) {
         f.body->stmts.insert(f.body->stmts.begin() + 1,
                              switchStmt(ref(f, s.s), stmts(caseLabel(1, 3), caseLabel(1, 4), stmt(StmtKind::Break, 4)),
                                         3));
       },
       "Switch: the switch is on a float; the rule is: a switch's condition is a promoted integer"},
      {"a repeated case value",
       [](Sample& s, Function& f) {
         f.body->stmts.insert(f.body->stmts.begin() + 1,
                              switchStmt(ref(f, s.n), stmts(caseLabel(1, 3), caseLabel(1, 4), stmt(StmtKind::Break, 4)),
                                         3));
       },
       "Case: the case value 1 is repeated; the rule is: a switch's case values are distinct"},
      {"a case label outside its switch's body", [](Sample&, Function& f) { bodyStmt(f, 1).body = caseLabel(2, 4); },
       "Case: a case label that is not a statement of a switch's body"},
      {"a default label outside a switch",
       [](Sample&, Function& f) { f.body->stmts.push_back(stmt(StmtKind::Default, 7)); },
       "Default: a default label that is not a statement of a switch's body"},
      {"a function without a body", [](Sample&, Function& f) { f.body = nullptr; },
       "Function: it has no body; the rule is: a function has a body"},
      {"more parameters than variables", [](Sample&, Function& f) { f.numParams = 9; },
       "Function: it has 9 parameters of 6 variables"},
      {"a local marked as a parameter", [](Sample& s, Function& f) { f.vars[s.s].isParam = true; },
       "Var: 's' is a local marked as a parameter"},
      {"a local pointer", [](Sample& s, Function& f) { f.vars[s.s].type = Type::pointer(Scalar::F32, false); },
       "Var: 's' is a local of type float*; the rule is: only a parameter is a pointer"},
      {"a reassociated sum that is an int", [](Sample& s, Function& f) { f.reassociatedSums = {s.n}; },
       "Function: a reassociated sum is 'n' (int); the rule is: a reassociated sum is a float or double variable"},
      {"an input array that is not const",
       [](Sample&, Function& f) { f.signature.params[0].role = ParamRole::WritableArray; },
       "KernelParam: the kernel parameter 'x' [output array] is const float* for the parameter const float*; the rule "
       "is: an output array is a pointer parameter that is not const"},
      {"an index parameter passed as an argument",
       [](Sample& s, Function& f) {
         f.signature.params.insert(f.signature.params.begin(),
                                   KernelParam{"i", val(Scalar::I32), ParamRole::Scalar, static_cast<int>(s.i), -1});
       },
       "KernelParam: the kernel parameter 'i' [scalar] passes an index parameter"},
      {"a 1-D kernel without its index", [](Sample&, Function& f) { f.indexParams.clear(); },
       "a Grid1D kernel has 0 index parameters; the rule is: a kernel has one index parameter per axis"},
      {"a kernel without its out array",
       [](Sample&, Function& f) {
         std::erase_if(f.signature.params, [](const KernelParam& p) { return p.role == ParamRole::ResultArray; });
       },
       "the kernel has 0 out arrays and returns float"},
      {"an extent of type int", [](Sample&, Function& f) { f.signature.params.back().type = val(Scalar::I32); },
       "KernelParam: the kernel parameter 'n_i' [extent] is int on axis 0; the rule is: an extent is a long long"},
      {"a device function with plan entries",
       [](Sample& s, Function&) { s.module.functions[1].planEntries.push_back(PlanEntry{"g_rows"}); },
       "KernelParam: a device-only function has plan entries; the rule is: only a kernel has plan entries"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string v = after(c.change);
    INFO(v);
    CHECK(v.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("ranges are required where the front end promises them", "[ast][verify]") {
  Sample s = sample();
  // The hand-built expressions have none: fine by default, each a violation when required.
  CHECK(ast::verify(s.module).empty());
  const std::vector<ast::Violation> v = ast::verify(s.module, ast::VerifyOptions{.requireRanges = true});
  REQUIRE(!v.empty());
  CHECK(v[0].rule == "every node has the source range of the construct it came from");
  CHECK(v[0].found == "its source range is empty");
}

TEST_CASE("the dumper prints the tree with types, names and ranges", "[ast][dump]") {
  Sample s = sample();
  const Function& g = s.module.functions[1];
  CHECK(ast::dumpTree(s.module, g) ==
        "Function g -> float  DeviceOnly  8:1-8:2\n"
        "  Param #0 v : float  <no range>\n"
        "  Block  8:3-8:4\n"
        "    Return  9:3-9:4\n"
        "      Unary '-' : float  <no range>\n"
        "        VarRef v #0 : float  <no range>\n");
  const std::string f = ast::dumpTree(s.module, s.module.functions[0]);
  CHECK(f.find("Function f -> float  Grid1D  1:1-1:2\n  Param #0 x : const float*") == 0);
  CHECK(f.find("    For  3:3-3:4\n      init:\n        Decl k #5 : int  3:3-3:4\n") != std::string::npos);
  CHECK(f.find("CompoundAssign '+=' in float : float") != std::string::npos);
  CHECK(f.find("Call g #1 : float") != std::string::npos);
  CHECK(ast::dumpLine(g, *g.body) == "{ (Return (- f32 (Var v))) }");
  // A malformed tree prints, with what is missing marked.
  s.module.functions[1].body->stmts[0]->expr->operands[0]->var = 7;
  s.module.functions[1].body->stmts.push_back(nullptr);
  const std::string bad = ast::dumpTree(s.module, s.module.functions[1]);
  CHECK(bad.find("VarRef ? #7") != std::string::npos);
  CHECK(bad.find("    <missing>\n") != std::string::npos);
}
