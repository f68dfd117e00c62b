// The typed AST: the currency every module shares. No Clang dependency.
//
// Every node knows its C++ type and source range. Every implicit conversion Clang inserted is
// an explicit Cast node; lvalue-to-rvalue and array-to-pointer decay are not conversions and
// leave no node. Node kinds, operators and math functions come from constructs.def.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "culift/ast/source.hpp"
#include "culift/ast/type.hpp"

namespace culift {

enum class ExprKind : std::uint8_t {
#define CULIFT_EXPR(K) K,
#include "culift/ast/constructs.def"
};

enum class StmtKind : std::uint8_t {
#define CULIFT_STMT(K) K,
#include "culift/ast/constructs.def"
};

enum class UnaryOp : std::uint8_t {
#define CULIFT_UNARY_OP(O, S) O,
#include "culift/ast/constructs.def"
};

enum class IncDecOp : std::uint8_t {
#define CULIFT_INCDEC_OP(O, S, P, D) O,
#include "culift/ast/constructs.def"
};

enum class BinaryOp : std::uint8_t {
#define CULIFT_BINARY_OP(O, S) O,
#include "culift/ast/constructs.def"
};

enum class AtomicOp : std::uint8_t {
#define CULIFT_ATOMIC_OP(O, M, C, I) O,
#include "culift/ast/constructs.def"
};

enum class MathDomain : std::uint8_t { Floating, Classify, Any };

enum class MathFn : std::uint8_t {
#define CULIFT_MATH_FN(F, N, A, FN, DN, D) F,
#include "culift/ast/constructs.def"
};

struct MathFnInfo {
  MathFn fn;
  std::string_view name;  // C++ name without namespace: "sqrt"
  unsigned arity;
  std::string_view floatName;   // CUDA device function for float: "sqrtf"
  std::string_view doubleName;  // for double: "sqrt"
  MathDomain domain;
};

std::string_view name(ExprKind k);
std::string_view name(StmtKind k);
std::string_view spelling(UnaryOp op);
std::string_view spelling(IncDecOp op);
std::string_view spelling(BinaryOp op);
bool isPrefix(IncDecOp op);
int delta(IncDecOp op);          // +1 or -1
bool isComparison(BinaryOp op);  // < > <= >= == !=
bool isLogical(BinaryOp op);     // && ||
bool isShift(BinaryOp op);
std::string_view memberName(AtomicOp op);  // "fetch_add"
std::string_view cudaName(AtomicOp op);    // "atomicAdd"
bool integersOnly(AtomicOp op);            // fetch_min, fetch_max
// The atomic operation std::atomic_ref's member `member` performs, if culift supports it.
bool lookupAtomicOp(std::string_view member, AtomicOp& op);
const MathFnInfo& info(MathFn fn);
// Looks up a C++ math name ("sqrt", "sqrtf", "fabsf", "fminf", "labs", "llabs"). On success
// sets `fn` and `floatForm` (true for the C float forms such as "sqrtf").
bool lookupMathFn(std::string_view cxxName, MathFn& fn, bool& floatForm);

using VarId = std::uint32_t;
using FuncId = std::uint32_t;
inline constexpr std::uint32_t kNone = ~0u;

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;

struct Expr {
  ExprKind kind = ExprKind::IntLiteral;
  Type type;  // the C++ type of the value (an lvalue's declared type for VarRef/Subscript)
  SourceRange range;

  std::uint64_t intBits = 0;   // IntLiteral (two's complement of the literal's type), BoolLiteral
  double floatValue = 0;       // FloatLiteral
  VarId var = kNone;           // VarRef
  FuncId callee = kNone;       // Call
  MathFn math = MathFn::Sqrt;  // MathCall
  UnaryOp unaryOp = UnaryOp::Neg;
  BinaryOp binaryOp = BinaryOp::Add;  // Binary, CompoundAssign
  IncDecOp incDecOp = IncDecOp::PreInc;
  AtomicOp atomicOp = AtomicOp::Add;  // AtomicRmw
  Scalar computeType = Scalar::Void;  // CompoundAssign: type the operation is done in
  bool explicitCast = false;          // Cast: written by the user (C-style, static_cast, functional)
  std::string text;                   // Assert: the condition as the user wrote it ("n > 0")

  std::vector<ExprPtr> operands;

  Expr() = default;
  Expr(ExprKind k, Type t, SourceRange r) : kind(k), type(t), range(std::move(r)) {}
  // Frees the operands without recursion: a host app may drop a deeply nested module on a
  // thread with little stack.
  ~Expr();
  Expr(Expr&&) = default;
  Expr& operator=(Expr&&) = default;
};

struct Stmt {
  StmtKind kind = StmtKind::Null;
  SourceRange range;

  VarId var = kNone;              // Decl
  ExprPtr cond;                   // If, For (may be null), While, DoWhile, Switch
  ExprPtr expr;                   // ExprStmt; Return (null = no value); For increment (may be null); Decl scalar init
  std::vector<ExprPtr> inits;     // Decl of a local array with an initializer list (rest zero-filled)
  bool arrayInitialized = false;  // Decl of a local array: `= {...}` given (even `= {}`)
  StmtPtr init;                   // For init (may be null)
  StmtPtr then;                   // If
  StmtPtr otherwise;              // If else branch (may be null)
  StmtPtr body;                   // For, While, DoWhile, Switch
  std::vector<StmtPtr> stmts;     // Block
  bool scoped = true;             // Block: false for a declaration group
  std::uint64_t caseValue = 0;    // Case: the label in the switch condition's type

  Stmt() = default;
  Stmt(StmtKind k, SourceRange r) : kind(k), range(std::move(r)) {}
  ~Stmt();  // without recursion, as ~Expr
  Stmt(Stmt&&) = default;
  Stmt& operator=(Stmt&&) = default;
};

// Calls `visit` on every expression of a tree, outermost first (a statement's own expressions,
// then those of the statements it holds, in order); where `visit` returns false, that
// expression's operands are not visited.
void visitExprs(const Expr& e, const std::function<bool(const Expr&)>& visit);
void visitExprs(const Stmt& s, const std::function<bool(const Expr&)>& visit);

// How a variable holds its value: storage of its own, or a reference bound once (a local at its
// declaration, a parameter at each call) to a variable, an array element or, for a const
// reference parameter, a temporary. Reads and writes of a reference reach its referent.
enum class Binding : std::uint8_t {
  Value,
  Reference,       // T&
  ConstReference,  // const T&
};

struct Var {
  std::string name;
  Type type;  // a reference's referent type (a scalar value)
  SourceRange range;
  bool isParam = false;
  Binding binding = Binding::Value;

  bool isReference() const { return binding != Binding::Value; }
};

}  // namespace culift
