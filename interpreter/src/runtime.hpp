// The interpreter's run-time representation: raw 8-byte values, frames, and the compiled
// expression and statement nodes. Variables live in slots resolved before any run, so
// execution never looks a name up.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "culift/interpreter.hpp"

namespace culift::interp::exec {

// One scalar of any type, stored in its first sizeof(T) bytes (the rest is unspecified).
struct Raw {
  std::uint64_t bits = 0;
};

template <typename T> inline T get(Raw r) {
  T v;
  std::memcpy(&v, &r.bits, sizeof(T));
  return v;
}
template <typename T> inline Raw make(T v) {
  Raw r;
  std::memcpy(&r.bits, &v, sizeof(T));
  return r;
}

// The C++ type of each Scalar, for templates.
template <Scalar S> struct CppOf;
#define CULIFT_X(E, T, S, B, I, SG, F)  \
  template <> struct CppOf<Scalar::E> { \
    using type = T;                     \
  };
CULIFT_SCALAR_TYPES(CULIFT_X)
#undef CULIFT_X
template <Scalar S> using Cpp = typename CppOf<S>::type;

// Calls f.template operator()<Scalar::X>() for the runtime scalar `s` (not Void).
template <typename F> decltype(auto) dispatch(Scalar s, F&& f) {
  switch (s) {
#define CULIFT_X(E, T, S, B, I, SG, F) \
  case Scalar::E: return f.template operator()<Scalar::E>();
    CULIFT_SCALAR_TYPES(CULIFT_X)
#undef CULIFT_X
    case Scalar::Void: break;
  }
  return f.template operator()<Scalar::I32>();  // unreachable: callers never pass Void
}

// A checked launch's record of one writable array (Options::checkConflicts): per element, the
// launch element (output) that wrote it and the one that read it, each plus one (0: none;
// kSeveralReaders: more than one output read it). Reads and writes of an element by two
// different outputs are a conflict: on the GPU the outputs run in no fixed order.
struct ConflictShadow {
  static constexpr std::uint64_t kSeveralReaders = ~std::uint64_t{0};
  std::unique_ptr<std::atomic<std::uint64_t>[]> writer;
  std::unique_ptr<std::atomic<std::uint64_t>[]> reader;
  std::string name;  // the kernel parameter
};

// A view of an array: a caller's array (no init flags) or a local array (init flags when it
// was declared without an initializer).
struct ArrayView {
  std::byte* data = nullptr;
  std::uint8_t* init = nullptr;  // per element: 1 = written; null = always initialized
  std::uint64_t size = 0;
  bool writable = false;
  ConflictShadow* shadow = nullptr;  // a checked launch's writable array: its accesses are recorded
};

// An lvalue resolved at run time: a scalar slot or an array element in memory, and its
// written-flag (null when not tracked). What a reference variable is bound to.
struct Place {
  std::byte* p;
  std::uint8_t* flag;
};

struct Context;
struct CompiledFunction;

struct Frame {
  Raw* slots = nullptr;
  std::uint8_t* defined = nullptr;  // per scalar slot: 1 once written (checked slots only)
  ArrayView* arrays = nullptr;
  Place* refs = nullptr;  // per reference variable: its referent, once bound
  Raw ret;
  Context* ctx = nullptr;
  const CompiledFunction* fn = nullptr;
};

struct Context {
  std::uint64_t steps = 0;
  std::uint64_t budget = 0;
  unsigned depth = 0;
  // The launched kernel, when its loop runs in its plan's reassociated order (its own frame
  // only: the same function called from another one adds in source order).
  const CompiledFunction* reassociating = nullptr;
  std::uint64_t element = 0;  // the launch element (output) this thread computes
};

// Records a read or a write of element k of a checked launch's array; an Error at `at` when
// another output of the launch wrote it (or, for a write, read it).
void noteRead(const Frame& f, const Expr& at, const ArrayView& v, std::uint64_t k);
void noteWrite(const Frame& f, const Expr& at, const ArrayView& v, std::uint64_t k);

enum class Flow : std::uint8_t { Normal, Break, Continue, Return };

struct ExprNode {
  const Expr* src;
  explicit ExprNode(const Expr* e) : src(e) {}
  virtual ~ExprNode() = default;
  virtual Raw eval(Frame& f) const = 0;
};
using ExprNodePtr = std::unique_ptr<ExprNode>;

struct StmtNode {
  const Stmt* src;
  explicit StmtNode(const Stmt* s) : src(s) {}
  virtual ~StmtNode() = default;
  virtual Flow exec(Frame& f) const = 0;
};
using StmtNodePtr = std::unique_ptr<StmtNode>;

// A local array's storage in the frame.
struct LocalArray {
  std::uint32_t array = 0;     // index in Frame::arrays
  std::size_t offset = 0;      // bytes into the frame's array storage
  std::size_t initOffset = 0;  // bytes into the frame's init-flag storage
  std::uint64_t extent = 0;
  bool writable = true;
};

struct CompiledFunction {
  const Function* fn = nullptr;
  std::vector<std::uint32_t> slotOf;  // per var: scalar slot, array index or reference index
  std::uint32_t numRefs = 0;
  std::uint32_t numSlots = 0;
  std::vector<std::uint32_t> checkedSlots;  // slots of locals whose reads are checked
  std::uint32_t numArrays = 0;
  std::vector<LocalArray> locals;
  std::size_t arrayBytes = 0;
  std::size_t arrayInitBytes = 0;
  StmtNodePtr body;
};

// Errors. `fail` builds the diagnostic at the node's location (with the source line when the
// file can be read) and throws interp::Error.
[[noreturn]] void fail(const SourceRange& where, std::string message, std::string hint = {});
[[noreturn]] void failNoLoc(std::string message);
std::string describe(Scalar s, Raw v);               // "2147483647", "nan", "1.5"
std::string varName(const Frame& f, const Expr& e);  // "'x'" or "the expression"
// The function running on this thread (names variables in error messages).
extern thread_local const Function* currentFunction;

// Runs `cf` with a fresh frame, its parameters bound to the arguments: per parameter a value
// (scalarArgs), an array (arrayArgs) or, for a reference parameter, a place (refArgs; may be
// null when the function has none).
Raw invoke(const CompiledFunction& cf, Context& ctx, const Raw* scalarArgs, const ArrayView* arrayArgs,
           const SourceRange* callSite, const Place* refArgs = nullptr);

struct ProgramData;
const CompiledFunction& compiledCallee(const ProgramData& p, FuncId id);

}  // namespace culift::interp::exec
