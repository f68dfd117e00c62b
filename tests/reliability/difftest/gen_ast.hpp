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
  // Value structs (GProgram::structs). A leaf read: var.field, where var is a struct variable,
  // a local array of structs or an array-of-structs parameter (args[0]: the element's index,
  // masked into the array; `arrow`: p->field, element 0) and field a path to a scalar leaf
  // ("m0", "n1.m0"), or to an array field of fieldExtent elements (the last arg: its index, masked).
  Field,
  // const member function call var.callee(args) (a non-const one, which writes the object, only
  // as the whole value of a declaration); var's element index in args[0] as for Field.
  Method,
  // a == b of two struct values (args), the struct's operator==
  StructEq,
  // Struct values (type Void, strct: the struct): a variable, an element of an array of structs
  // (args[0]) or a nested struct field (field), as for Field;
  StructVal,
  // S{args} (op "braces"), S{.f = args...} (op "designated", slots: the fields), S{} (op
  // "value"), S(args) (op "ctor"): args scalar values of the fields' types or nested struct values;
  StructInit,
  // a helper returning a struct (callee; it takes the caller's hash when the program folds),
  // or S::make(args) (op "make"): only as the whole initializer of a declaration, the whole
  // value of an assignment or a return (a helper folds into the caller's hash: one per statement);
  StructCall,
  // args[0] + args[1], the struct's operator+
  StructAdd,
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
  // Index: printed as written, not masked (a loop planner's shape over a kPlanArrayLength array,
  // whose index the generator keeps in bounds; frozen, so the reducer does too).
  bool unmasked = false;
  // Call: what follows the callee's name ("<5>", "<long>", "<3>::eval"); the variable a helper's
  // `T&` out-parameter binds (the last argument, -1: none; only the whole value of a declaration,
  // so nothing else in the statement reads it while the helper writes it); viaApply: the lambda
  // `var` is passed to the program's apply template `callee` (callee<R>(lambda, args)).
  std::string templateArgs;
  int outVar = -1;
  bool viaApply = false;
  // Value structs: the struct of a struct value (type Void), a path to a field, the extent of an
  // array field, p->field, the fields a designated initializer names.
  int strct = -1;
  std::string field;
  std::uint64_t fieldExtent = 0;
  bool arrow = false;
  std::vector<int> slots;
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
  // Value structs. S var = a; (a a struct value: StructInit prints as S var{...} / S var(...);
  // null: S var;), op "const": const S var = a;
  StructDecl,
  // S var[extent] = {args...}: element initializers, struct values (StructInit prints as {...})
  StructArrayDecl,
  // var.field op= a (op "" for =): a place as for GExpr::Field (args: its indices)
  FieldAssign,
  // var = a (a a struct value); var an element of an array of structs when args[0] is its index
  StructAssign,
  // auto [params...] = a;  (a struct value; the bindings: variables of the function); op "&":
  // auto& [params...] = a, a a struct variable
  Bindings,
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
  bool plain = false;     // a loop the planner lifts (a contraction): no checksum folds inside it
  bool unmasked = false;  // Store: the index printed as written (a scan's row, in bounds by construction)
  int target = -1;        // RefDecl: the referent (or its array); RangeFor: the array
  // Lambda: its parameters (variables of the function), its return type, whether it writes
  // outer variables (then called only as the whole value of a declaration), whether its
  // parameters are `auto` (its calls convert each argument to the parameter's type), and the
  // first variable id of the lambda's own (ids below are outer variables).
  std::vector<int> params;
  Scalar retType = Scalar::I32;
  bool mutating = false;
  bool generic = false;
  int firstOwnVar = 0;
  // Value structs: FieldAssign's field path and array-field extent.
  std::string field;
  std::uint64_t fieldExtent = 0;
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
  bool isRef = false;          // a reference (T& / const T&: writable says which), to a scalar or a struct
  bool isLambda = false;       // a lambda (type Void): called, never read
  bool templateParam = false;  // the function's non-type template parameter N (an int constant)
  // A value struct (type Void): its GProgram::structs index; with isArray a local array of
  // structs or an array-of-structs parameter (`const S* p`, extent kArrayLength).
  int strct = -1;
  bool isField = false;    // a member function's view of its object's field (printed bare)
  bool isBinding = false;  // a structured binding (never captured by a lambda)
  bool isStruct() const { return strct >= 0; }
};

struct GFunction {
  std::string name;
  Scalar returnType = Scalar::I32;
  std::vector<GVar> vars;  // parameters first
  unsigned numParams = 0;
  std::vector<GStmtPtr> body;
  bool kernel = false;
  bool reassociate = false;  // CULIFT_KERNEL_REASSOCIATE: its loop's sums may be added in the plan's order
  // CULIFT_KERNEL_TENSOR_CORES(<name>): its contraction may run on tensor cores (CPU campaigns only:
  // the emitted entries compile for sm_90 through NVRTC; the GPU leg, which compares bit for bit,
  // generates none). "" for none.
  std::string tensorCores;
  bool stencil = false;        // its body has the stencil plans' shape (Generator: stencil())
  bool scan = false;           // its body has the scan plan's shape (Generator: scan())
  bool convolution = false;    // its body has the convolution plan's shape (Generator: convolution())
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
  // The output's own index in int arithmetic, printed unmasked (in bounds: below 64), for the
  // checksum's store and the stores after the body: a planned shape's kernel writes its outputs
  // at an index the planner proves its own (`(i * 4 + j) * 4 + k`, not `(...) & 63` in unsigned).
  bool plainOwnIndex = false;
  // A helper returning a struct (returnType Void): its GProgram::structs index. When the
  // program folds it takes the caller's hash as a last parameter `unsigned long long& ck`.
  int returnStruct = -1;
  // A member function of a struct: the struct's fields are its first numFields variables (the
  // parameters follow, up to numParams); constMethod: a const member function.
  int ownerStruct = -1;
  unsigned numFields = 0;
  bool constMethod = false;
};

// A field of a value struct: a scalar, a fixed-size array of scalars (extent) or a nested
// struct (strct). A scalar field may have a default member initializer, a literal (bits: culift
// reads an initializer naming an earlier field only in the declaration of a local); an array
// field always has one, its first elements' literals (elements; the rest zero).
struct GField {
  std::string name;
  Scalar type = Scalar::I32;
  int strct = -1;
  std::uint64_t extent = 0;
  bool hasDefault = false;
  std::uint64_t bits = 0;
  std::vector<std::uint64_t> elements;
};

// A leaf of a struct: a scalar or array field, nested structs flattened ("n1.m0").
struct GLeaf {
  std::string path;
  Scalar type = Scalar::I32;
  std::uint64_t extent = 0;
};

struct GStruct {
  std::string name;
  std::vector<GField> fields;
  std::vector<GLeaf> leaves;
  // A constructor S(a0, a1) : fields[ctorFields[0]](a0), ... {} (and S() = default;); empty:
  // an aggregate, initialized by braces and designators.
  std::vector<int> ctorFields;
  bool opAdd = false, opEq = false, opAddAssign = false;
  bool make = false;  // static S make(T v): S{} with every scalar leaf of the first leaf's type v
  std::vector<GFunction> methods;
  // Every leaf of one scalar type, no array field: the struct may be a kernel's array of
  // structs (the scalar type: uniform).
  Scalar uniform = Scalar::Void;
  bool allDefaults = false;  // every leaf has a default member initializer: `S s;` leaves none unset
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
  std::vector<GStruct> structs;  // printed before the helpers; a nested struct before its user
};

}  // namespace culift::rel
