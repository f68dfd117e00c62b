// The generator's own small program tree. Every construct that could be undefined behaviour
// in C++ is a node whose printed form carries its guard (masked shifts and indices, guarded
// divisions, wrapped or bounded signed arithmetic, clamped float-to-integer conversions), so
// any edit the reducer makes to the tree still prints a program free of undefined behaviour.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "culift/ast/type.hpp"

namespace culift::rel {

struct GExpr;
struct GStmt;
using GExprPtr = std::shared_ptr<GExpr>;
using GStmtPtr = std::shared_ptr<GStmt>;

enum class GExprKind : std::uint8_t {
  Lit,     // bits: the value's bits in `type`
  Var,     // var
  Unary,   // op: "-", "~", "!", "+"; arith says how "-" avoids overflow
  Binary,  // op; arith for + - * and <<; bound for the Bounded form
  Cast,    // (type)(a): never floating to integer (that is a ClampCall)
  Cond,    // a ? b : c
  Math,    // name ("sqrt"), cForm (sqrtf), args
  Call,    // callee: a helper's or a lambda's name (var: the lambda), see GExpr::templateArgs, outVar, viaApply
  Clamp,   // floating to integer conversion through a clamping helper: callee
  Index,   // var[index], index masked into the array's length
  Comma,   // (a, b)
  // op "&&": ((b & 3) != 0 && (a <div> (b & 3)) > 1); op "||": ((b & 3) == 0 || (a <div> (b & 3)) == 1),
  // <div> name "/" or "%": a short-circuit that guards a division, so evaluating both sides
  // eagerly divides by zero (a and b: integers of type `bound`'s promoted kind, see generator).
  GuardedLogical,
};

// How + - * (and unary -, and << of a signed value) stay free of signed overflow.
enum class Arith : std::uint8_t {
  Direct,   // cannot overflow for these operand types (or unsigned/floating)
  Wrapped,  // computed in the unsigned type of the same width, converted back
  Bounded,  // each operand reduced modulo `bound` first
};

struct GExpr {
  GExprKind kind = GExprKind::Lit;
  Scalar type = Scalar::I32;  // the C++ type of the expression
  std::string op;
  Arith arith = Arith::Direct;
  std::int64_t bound = 0;
  std::uint64_t bits = 0;
  int var = -1;
  std::string callee;
  std::string name;      // Math: std name
  bool cForm = false;    // Math: C name with the f suffix (sinf)
  bool guarded = false;  // Binary / and %: divisor checked at run time
  bool frozen = false;   // a thread's own output index: the reducer leaves it alone
  // Call: what follows the callee's name ("<5>", "<long>", "<3>::eval"); the variable a helper's
  // `T&` out-parameter binds (the last argument, -1: none; only the whole value of a declaration,
  // so nothing else in the statement reads it while the helper writes it); viaApply: the lambda
  // `var` is passed to the program's apply template `callee` (callee<R>(lambda, args)).
  std::string templateArgs;
  int outVar = -1;
  bool viaApply = false;
  std::vector<GExprPtr> args;
};

enum class GStmtKind : std::uint8_t {
  Decl,       // var = a  (scalar)
  ArrayDecl,  // var[extent] = {args...}
  Assign,     // var = a
  Compound,   // var op= a
  Store,      // var[index] = value  (args[0] index, args[1] value)
  IncDec,     // op: "++x", "x++", "--x", "x--"
  If,         // cond, body, orelse
  For,        // counter var, from, to (exclusive), step (+1/+2 up, -1 down), body
  While,      // counter var declared before (initialized to 0), body starts with counter++
  DoWhile,    // same, do { counter++; ... } while (counter < to)
  Switch,     // cond; cases
  Break,
  Continue,
  Return,  // a (may be null in void functions)
  Block,
  // T& var = target (a scalar variable) or target[args[0]] (an element of a local array); op
  // "const" for a const T& (read-only alias). Every later read and write goes to the referent.
  RefDecl,
  // for (T var : target) body, target a local array; op "&": by reference (T& or const T&)
  RangeFor,
  // auto var = [capture](params) -> R { body; return a; }; op: "&", "=" or "list" (the outer
  // variables the body uses, written ones by reference); LambdaInfo in GStmt.
  Lambda,
  // if constexpr (var <op> from) body else orelse: var is the function's template parameter N
  IfConstexpr,
};

struct GCase {
  std::vector<std::int64_t> labels;  // empty: default
  std::vector<GStmtPtr> body;
  bool breaks = true;  // false: falls through into the next case
};

struct GStmt {
  GStmtKind kind = GStmtKind::Block;
  int var = -1;
  std::string op;
  GExprPtr a, b, cond;
  std::vector<GExprPtr> args;
  std::vector<GStmtPtr> body;    // If then / loop body / Block
  std::vector<GStmtPtr> orelse;  // If else
  bool hasElse = false;
  std::vector<GCase> cases;
  std::int64_t from = 0, to = 0, step = 1;
  bool plain = false;  // a loop the planner lifts (a contraction): no checksum folds inside it
  int target = -1;     // RefDecl: the referent (or its array); RangeFor: the array
  // Lambda: its parameters (variables of the function), its return type, whether it writes
  // outer variables (then called only as the whole value of a declaration), whether its
  // parameters are `auto` (its calls convert each argument to the parameter's type), and the
  // first variable id of the lambda's own (ids below are outer variables).
  std::vector<int> params;
  Scalar retType = Scalar::I32;
  bool mutating = false;
  bool generic = false;
  int firstOwnVar = 0;
};

struct GVar {
  std::string name;
  Scalar type = Scalar::I32;
  std::uint64_t extent = 0;  // local array length, or kArrayLength for array parameters
  bool isArray = false;
  bool isParam = false;
  bool writable = true;  // false for const arrays, index parameters and loop counters
  bool isConst = false;  // `const` local array
  int axis = -1;
  bool isRef = false;          // a reference (T& / const T&: writable says which) to a scalar
  bool isLambda = false;       // a lambda (type Void): called, never read
  bool templateParam = false;  // the function's non-type template parameter N (an int constant)
};

struct GFunction {
  std::string name;
  Scalar returnType = Scalar::I32;
  std::vector<GVar> vars;  // parameters first
  unsigned numParams = 0;
  std::vector<GStmtPtr> body;
  bool kernel = false;
  bool reassociate = false;    // CULIFT_KERNEL_REASSOCIATE: its loop's sums may be added in the plan's order
  bool isClampHelper = false;  // printed from its description, never reduced
  Scalar clampFrom = Scalar::F32;
  // The program's apply templates (template <class R, class F, class A> R apply(F f, A a)),
  // printed from this description like the clamp helpers: applyByRef takes F& f.
  bool isApplyHelper = false;
  bool applyByRef = false;
  // A template: kTemplateValue (template <int N>, N: the variable templateParam), as a class
  // template with a static member when classTemplate (name<N>::eval); kTemplateType (template
  // <typename T>, every scalar of type `generic` spelled T but array parameters).
  enum Template : std::uint8_t { kNone, kTemplateValue, kTemplateType } templateKind = kNone;
  bool classTemplate = false;
  Scalar generic = Scalar::I32;
  // A void kernel's checksum output (GProgram::checksum): the array parameter it goes to and the
  // thread's own index there.
  int checksumOut = -1;
  GExprPtr checksumIndex;
};

struct GProgram {
  std::string name;
  std::vector<GFunction> functions;  // callees before callers; the kernel last
  bool aliasTypes = false;           // spell integer types as std::int32_t etc.
  // Every value matters: each function folds every scalar it writes, every array element it
  // stores and every local array it declares into a running hash `ck` (unsigned arithmetic;
  // floating values through an exact, NaN-blind decomposition), and returns the hash mixed with
  // its result; a void kernel writes it to its checksum output. Any wrong intermediate value
  // then changes what the oracle compares.
  bool checksum = false;
};

}  // namespace culift::rel
