// Module files (docs/module-files.md): a header (signature, format version, xxHash64 of the
// content, content size) and the content, little-endian throughout. Every field of the module is
// written, in declaration order, whatever its node kind: the reader needs no knowledge of which
// fields a kind uses, and a file is the module's whole state. The reader checks every length
// against the bytes left before it allocates, every enumerator against its range and every
// index of a function's metadata against what it indexes; the nodes it builds are then checked
// by the verifier (culift/ast/verify.hpp), so no file makes it read out of bounds or build a
// module the interpreter or the runtime could index out of range.
#include "culift/ast/module_file.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>

#include "culift/ast/stack.hpp"
#include "culift/ast/verify.hpp"
#include "culift/version.hpp"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

namespace culift {
namespace {

constexpr std::string_view kSignature = "CULIFTMF";      // 8 bytes
constexpr std::size_t kHeaderBytes = 8 + 4 + 4 + 8 + 8;  // signature, version, reserved, xxHash64, content size

// Nesting of statements and expressions a file may hold: far beyond what the front end lifts
// (its limits: 1000 levels of statements around 1000 of expressions), and within what culift's
// stack holds for the reader, the writer and the passes that run on a loaded module.
constexpr unsigned kMaxDepth = 5000;

constexpr unsigned kExprKinds = 0
#define CULIFT_EXPR(K) +1
#include "culift/ast/constructs.def"
    ;
constexpr unsigned kStmtKinds = 0
#define CULIFT_STMT(K) +1
#include "culift/ast/constructs.def"
    ;
constexpr unsigned kUnaryOps = 0
#define CULIFT_UNARY_OP(O, S) +1
#include "culift/ast/constructs.def"
    ;
constexpr unsigned kIncDecOps = 0
#define CULIFT_INCDEC_OP(O, S, P, D) +1
#include "culift/ast/constructs.def"
    ;
constexpr unsigned kBinaryOps = 0
#define CULIFT_BINARY_OP(O, S) +1
#include "culift/ast/constructs.def"
    ;
constexpr unsigned kAtomicOps = 0
#define CULIFT_ATOMIC_OP(O, M, C, I) +1
#include "culift/ast/constructs.def"
    ;
constexpr unsigned kMathFns = 0
#define CULIFT_MATH_FN(F, N, A, FN, DN, D) +1
#include "culift/ast/constructs.def"
    ;
constexpr unsigned kScalars = 1  // Void
#define CULIFT_X(E, T, S, B, I, SG, F) +1
    CULIFT_SCALAR_TYPES(CULIFT_X)
#undef CULIFT_X
    ;
constexpr unsigned kShapes = static_cast<unsigned>(Shape::Array) + 1;

// ---- writing --------------------------------------------------------------------------------

class Writer {
 public:
  explicit Writer(std::string& out) : os_(out) {}

  template <typename T> void integer(T v) { llvm::support::endian::write<T>(os_, v, llvm::support::little); }
  void boolean(bool b) { integer<std::uint8_t>(b ? 1 : 0); }
  template <typename E> void enumerator(E e) { integer<std::uint8_t>(static_cast<std::uint8_t>(e)); }
  void count(std::size_t n) { integer<std::uint32_t>(static_cast<std::uint32_t>(n)); }
  void string(std::string_view s) {
    count(s.size());
    os_ << s;
  }
  void strings(const std::vector<std::string>& v) {
    count(v.size());
    for (const std::string& s : v) string(s);
  }

  void type(const Type& t) {
    enumerator(t.scalar);
    enumerator(t.shape);
    boolean(t.constElements);
    integer<std::uint64_t>(t.extent);
  }
  void range(const SourceRange& r) {
    integer<std::uint32_t>(fileIndex(r.begin.file));
    integer<std::uint32_t>(r.begin.line);
    integer<std::uint32_t>(r.begin.column);
    integer<std::uint32_t>(r.endLine);
    integer<std::uint32_t>(r.endColumn);
  }

  void expr(const Expr* e) {
    boolean(e != nullptr);
    if (!e) return;
    enumerator(e->kind);
    type(e->type);
    range(e->range);
    integer<std::uint64_t>(e->intBits);
    std::uint64_t floatBits = 0;
    std::memcpy(&floatBits, &e->floatValue, sizeof floatBits);
    integer<std::uint64_t>(floatBits);
    integer<std::uint32_t>(e->var);
    integer<std::uint32_t>(e->callee);
    enumerator(e->math);
    enumerator(e->unaryOp);
    enumerator(e->binaryOp);
    enumerator(e->incDecOp);
    enumerator(e->atomicOp);
    enumerator(e->computeType);
    boolean(e->explicitCast);
    string(e->text);
    count(e->operands.size());
    for (const ExprPtr& o : e->operands) expr(o.get());
  }

  void stmt(const Stmt* s) {
    boolean(s != nullptr);
    if (!s) return;
    enumerator(s->kind);
    range(s->range);
    integer<std::uint32_t>(s->var);
    expr(s->cond.get());
    expr(s->expr.get());
    count(s->inits.size());
    for (const ExprPtr& e : s->inits) expr(e.get());
    boolean(s->arrayInitialized);
    stmt(s->init.get());
    stmt(s->then.get());
    stmt(s->otherwise.get());
    stmt(s->body.get());
    count(s->stmts.size());
    for (const StmtPtr& c : s->stmts) stmt(c.get());
    boolean(s->scoped);
    integer<std::uint64_t>(s->caseValue);
  }

  void record(const RecordView& r) {
    string(r.name);
    enumerator(r.scalar);
    integer<std::uint32_t>(r.size);
    integer<std::uint32_t>(r.align);
    count(r.fields.size());
    for (const RecordField& field : r.fields) {
      string(field.path);
      integer<std::uint32_t>(field.offset);
    }
  }

  void function(const Function& f) {
    string(f.name);
    type(f.returnType);
    count(f.vars.size());
    for (const Var& v : f.vars) {
      string(v.name);
      type(v.type);
      range(v.range);
      boolean(v.isParam);
      enumerator(v.binding);
    }
    integer<std::uint32_t>(f.numParams);
    stmt(f.body.get());
    range(f.range);
    boolean(f.annotated);
    strings(f.indexNames);
    boolean(f.reassociate);
    enumerator(f.tensorCores);
    strings(f.uniformNames);
    enumerator(f.mode);
    count(f.indexParams.size());
    for (int p : f.indexParams) integer<std::int32_t>(p);
    count(f.signature.params.size());
    for (const KernelParam& p : f.signature.params) {
      string(p.name);
      type(p.type);
      enumerator(p.role);
      integer<std::int32_t>(p.userParam);
      integer<std::int32_t>(p.axis);
      boolean(p.record.has_value());
      if (p.record) record(*p.record);
    }
    string(f.deviceName);
    string(f.kernelName);
    string(f.wideKernelName);
    integer<std::uint32_t>(f.itemsPerThread);
    integer<std::uint32_t>(f.arrayAlignment);
    integer<std::uint8_t>(moduleFileId(f.loopPlan));
    string(f.loopPlanReason);
    count(f.planEntries.size());
    for (const PlanEntry& e : f.planEntries) {
      string(e.kernelName);
      integer<std::uint8_t>(moduleFileId(e.plan));
      integer<std::uint32_t>(e.tileRows);
      integer<std::uint32_t>(e.tileCols);
      integer<std::uint32_t>(e.threads);
      boolean(e.squareOnly);
      integer<std::uint32_t>(e.sharedBytes);
      integer<std::uint32_t>(e.blocksPerSm);
      boolean(e.edgeKernel);
      count(e.tensorMaps.size());
      for (const TensorMapOperand& m : e.tensorMaps) {
        integer<std::uint32_t>(m.buffer);
        integer<std::uint32_t>(m.strideParam);
        integer<std::int64_t>(m.stride);
        integer<std::uint32_t>(m.boxCols);
        integer<std::uint32_t>(m.boxRows);
      }
    }
    count(f.reassociatedSums.size());
    for (VarId v : f.reassociatedSums) integer<std::uint32_t>(v);
    strings(f.fusedOf);
  }

  // Source file names are written once, in a table after the functions; locations name them by
  // their index in it (first use first, so the same module gives the same table).
  std::uint32_t fileIndex(const std::string& file) {
    auto [it, inserted] = files_.emplace(file, static_cast<std::uint32_t>(fileOrder_.size()));
    if (inserted) fileOrder_.push_back(file);
    return it->second;
  }
  const std::vector<std::string>& files() const { return fileOrder_; }

 private:
  llvm::raw_string_ostream os_;
  std::map<std::string, std::uint32_t> files_;
  std::vector<std::string> fileOrder_;
};

// The content: the writing culift's version, the source path, the functions, the CUDA source,
// the device images, then the table of source file names.
std::string content(const Module& m) {
  std::string body;
  Writer w(body);
  w.string(kVersion);
  w.string(m.sourcePath);
  w.count(m.functions.size());
  for (const Function& f : m.functions) w.function(f);
  w.string(m.cudaSource);
  w.count(m.images.size());
  for (const DeviceImage& image : m.images) {
    w.string(image.target);
    w.strings(image.options);
    w.string(image.image());
  }
  std::string files;
  Writer fw(files);
  fw.strings(w.files());
  return body + files;
}

// ---- reading --------------------------------------------------------------------------------

class Reader {
 public:
  Reader(std::string_view bytes, std::string_view name, std::size_t base) : data_(bytes), name_(name), base_(base) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw ModuleFileError(name_ + ": " + what + " (at byte " + std::to_string(base_ + pos_) + ")");
  }

  std::size_t left() const { return data_.size() - pos_; }
  std::size_t position() const { return pos_; }

  template <typename T> T integer(const char* what) {
    if (left() < sizeof(T)) fail(std::string("truncated: it ends inside ") + what);
    T v = llvm::support::endian::read<T, llvm::support::little, llvm::support::unaligned>(data_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }
  bool boolean(const char* what) {
    std::uint8_t b = integer<std::uint8_t>(what);
    if (b > 1) fail(std::string(what) + " is " + std::to_string(b) + ", not 0 or 1");
    return b != 0;
  }
  // An enumerator stored as a byte, below `count`.
  template <typename E> E enumerator(unsigned count, const char* what) {
    std::uint8_t v = integer<std::uint8_t>(what);
    if (v >= count) fail(std::string(what) + " " + std::to_string(v) + " is not one culift knows");
    return static_cast<E>(v);
  }
  // A loop plan, by its module-file id (plans.def).
  LoopPlan loopPlan() {
    const std::uint8_t id = integer<std::uint8_t>("loop plan");
    const std::optional<LoopPlan> plan = loopPlanOfModuleFileId(id);
    if (!plan) fail("loop plan " + std::to_string(id) + " is not one culift knows");
    return *plan;
  }
  // A number of elements that follow, each at least `minBytes` long: more than the bytes left
  // can hold is corruption, found before anything is allocated.
  std::uint32_t count(std::size_t minBytes, const char* what) {
    std::uint32_t n = integer<std::uint32_t>(what);
    if (static_cast<std::uint64_t>(n) * minBytes > left())
      fail(std::string("truncated or corrupt: ") + std::to_string(n) + " " + what + " cannot fit in the " +
           std::to_string(left()) + " bytes left");
    return n;
  }
  std::string string(const char* what) { return std::string(view(what)); }
  // The next string where it lies in the bytes read.
  std::string_view view(const char* what) {
    std::uint32_t n = count(1, what);
    const std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::vector<std::string> strings(const char* what) {
    std::vector<std::string> v(count(4, what));
    for (std::string& s : v) s = string(what);
    return v;
  }

 private:
  std::string_view data_;
  std::string name_;
  std::size_t base_;  // where data_ starts in the file (for the byte offsets of errors)
  std::size_t pos_ = 0;
};

// Reads the content into a Module, checking every field; source file names are resolved at the
// end, once their table (after the functions) has been read.
class ModuleReader {
 public:
  ModuleReader(Reader& r, ImageBytes images) : r_(r), images_(images) {}

  std::shared_ptr<Module> read() {
    auto m = std::make_shared<Module>();
    std::string writer = r_.string("the version of culift that wrote it");
    (void)writer;
    m->sourcePath = r_.string("the source path");
    m->functions.resize(r_.count(16, "functions"));
    for (Function& f : m->functions) function(f);
    m->cudaSource = r_.string("the CUDA source");
    m->images.resize(r_.count(12, "device images"));
    for (DeviceImage& image : m->images) {
      image.target = r_.string("a device image's target");
      image.options = r_.strings("a device image's options");
      if (images_ == ImageBytes::Borrow) image.borrowed = r_.view("a device image");
      else image.bytes = r_.string("a device image");
    }
    std::vector<std::string> files = r_.strings("source file names");
    if (r_.left() != 0) r_.fail(std::to_string(r_.left()) + " bytes follow the module's content");
    for (auto& [loc, index] : locations_) {
      if (index >= files.size())
        r_.fail("a source location names file " + std::to_string(index) + " of " + std::to_string(files.size()));
      loc->file = files[index];
    }
    // What the nodes hold (operands, types, variables, calls) is the verifier's to check, as for
    // every module: a file that reads but breaks its rules is corrupt too.
    if (const std::vector<ast::Violation> violations = ast::verify(*m); !violations.empty())
      r_.fail("the module breaks the typed AST's rules: " + violations.front().format() +
              (violations.size() > 1 ? " (and " + std::to_string(violations.size() - 1) + " more)" : ""));
    return m;
  }

 private:
  Type type() {
    Type t;
    t.scalar = r_.enumerator<Scalar>(kScalars, "scalar type");
    t.shape = r_.enumerator<Shape>(kShapes, "type shape");
    t.constElements = r_.boolean("a type's const flag");
    t.extent = r_.integer<std::uint64_t>("an array extent");
    return t;
  }

  // `s` must stay where it is until read() ends: its file name is filled in then.
  void range(SourceRange& s) {
    locations_.emplace_back(&s.begin, r_.integer<std::uint32_t>("a source file index"));
    s.begin.line = r_.integer<std::uint32_t>("a source line");
    s.begin.column = r_.integer<std::uint32_t>("a source column");
    s.endLine = r_.integer<std::uint32_t>("a source line");
    s.endColumn = r_.integer<std::uint32_t>("a source column");
  }

  void enter() {
    if (++depth_ > kMaxDepth) r_.fail("nested deeper than " + std::to_string(kMaxDepth) + " levels");
  }

  ExprPtr expr(const Function& f, const char* what) {
    if (!r_.boolean(what)) return nullptr;
    enter();
    auto e = std::make_unique<Expr>();
    e->kind = r_.enumerator<ExprKind>(kExprKinds, "expression kind");
    e->type = type();
    range(e->range);
    e->intBits = r_.integer<std::uint64_t>("a literal");
    std::uint64_t floatBits = r_.integer<std::uint64_t>("a floating literal");
    std::memcpy(&e->floatValue, &floatBits, sizeof floatBits);
    e->var = r_.integer<std::uint32_t>("a variable id");
    e->callee = r_.integer<std::uint32_t>("a callee");
    e->math = r_.enumerator<MathFn>(kMathFns, "math function");
    e->unaryOp = r_.enumerator<UnaryOp>(kUnaryOps, "unary operator");
    e->binaryOp = r_.enumerator<BinaryOp>(kBinaryOps, "binary operator");
    e->incDecOp = r_.enumerator<IncDecOp>(kIncDecOps, "increment operator");
    e->atomicOp = r_.enumerator<AtomicOp>(kAtomicOps, "atomic operation");
    e->computeType = r_.enumerator<Scalar>(kScalars, "computation type");
    e->explicitCast = r_.boolean("a cast's explicit flag");
    e->text = r_.string("an assertion's text");
    e->operands.resize(r_.count(1, "operands"));
    for (ExprPtr& o : e->operands) {
      o = expr(f, "an operand");
      if (!o) r_.fail(std::string("a ") + std::string(name(e->kind)) + " expression has a missing operand");
    }
    --depth_;
    return e;
  }

  StmtPtr stmt(const Function& f, const char* what) {
    if (!r_.boolean(what)) return nullptr;
    enter();
    auto s = std::make_unique<Stmt>();
    s->kind = r_.enumerator<StmtKind>(kStmtKinds, "statement kind");
    range(s->range);
    s->var = r_.integer<std::uint32_t>("a declared variable");
    s->cond = expr(f, "a condition");
    s->expr = expr(f, "an expression");
    s->inits.resize(r_.count(1, "array initializers"));
    for (ExprPtr& e : s->inits)
      if (!(e = expr(f, "an array initializer"))) r_.fail("an array initializer is missing");
    s->arrayInitialized = r_.boolean("an array's initialized flag");
    s->init = stmt(f, "a for statement's initializer");
    s->then = stmt(f, "an if statement's branch");
    s->otherwise = stmt(f, "an else branch");
    s->body = stmt(f, "a loop body");
    s->stmts.resize(r_.count(1, "statements"));
    for (StmtPtr& c : s->stmts)
      if (!(c = stmt(f, "a statement"))) r_.fail("a block holds a missing statement");
    s->scoped = r_.boolean("a block's scoped flag");
    s->caseValue = r_.integer<std::uint64_t>("a case label");
    --depth_;
    return s;
  }

  void function(Function& f) {
    f.name = r_.string("a function name");
    f.returnType = type();
    f.vars.resize(r_.count(16, "variables"));
    for (Var& v : f.vars) {
      v.name = r_.string("a variable name");
      v.type = type();
      range(v.range);
      v.isParam = r_.boolean("a variable's parameter flag");
      v.binding = r_.enumerator<Binding>(static_cast<unsigned>(Binding::ConstReference) + 1, "variable binding");
      if (v.binding != Binding::Value && !v.type.isValue())
        r_.fail("variable '" + v.name + "' is a reference to an array");
    }
    f.numParams = r_.integer<std::uint32_t>("the number of parameters");
    if (f.numParams > f.vars.size())
      r_.fail(f.name + " has " + std::to_string(f.numParams) + " parameters but " + std::to_string(f.vars.size()) +
              " variables");
    f.body = stmt(f, "a function body");
    if (!f.body) r_.fail(f.name + " has no body");
    range(f.range);
    f.annotated = r_.boolean("a function's annotated flag");
    f.indexNames = r_.strings("index names");
    f.reassociate = r_.boolean("a function's reassociate flag");
    f.tensorCores = r_.enumerator<TensorCores>(static_cast<unsigned>(TensorCores::FP16) + 1, "tensor cores");
    f.uniformNames = r_.strings("uniform parameter names");
    f.mode = r_.enumerator<IndexMode>(static_cast<unsigned>(IndexMode::DeviceOnly) + 1, "index mode");
    f.indexParams.resize(r_.count(4, "index parameters"));
    for (int& p : f.indexParams) p = userParam(f, false, "an index parameter");
    if (f.indexParams.size() > 3)
      r_.fail(f.name + " has " + std::to_string(f.indexParams.size()) + " index parameters");
    f.signature.params.resize(r_.count(16, "kernel parameters"));
    for (KernelParam& p : f.signature.params) {
      p.name = r_.string("a kernel parameter's name");
      p.type = type();
      p.role = r_.enumerator<ParamRole>(static_cast<unsigned>(ParamRole::Extent) + 1, "parameter role");
      p.userParam = userParam(f, true, "a kernel parameter's user parameter");
      p.axis = r_.integer<std::int32_t>("a kernel parameter's axis");
      if (p.axis < -1 || p.axis > 2) r_.fail("a kernel parameter of " + f.name + " on axis " + std::to_string(p.axis));
      if (r_.boolean("a kernel parameter's record flag")) p.record = record(f, p);
      // A kernel returning a struct: its out array's record, written through the last parameters.
      if (p.role == ParamRole::ResultArray && p.record) {
        const std::size_t fields = p.record->fields.size();
        if (fields > f.numParams) r_.fail(f.name + " returns a struct of more fields than it has parameters");
        for (std::size_t k = f.numParams - fields; k < f.numParams; ++k)
          if (f.vars[k].binding != Binding::Reference || f.vars[k].type != Type::value(p.record->scalar))
            r_.fail(f.name + " returns a struct, but its parameter '" + f.vars[k].name + "' is no " +
                    std::string(spelling(p.record->scalar)) + "& for a field");
        f.resultRecord = p.record;
      }
    }
    f.deviceName = r_.string("a device function name");
    f.kernelName = r_.string("a kernel name");
    f.wideKernelName = r_.string("a kernel name");
    f.itemsPerThread = r_.integer<std::uint32_t>("items per thread");
    f.arrayAlignment = r_.integer<std::uint32_t>("an array alignment");
    f.loopPlan = r_.loopPlan();
    f.loopPlanReason = r_.string("a loop plan's reason");
    f.planEntries.resize(r_.count(18, "plan entries"));
    for (PlanEntry& e : f.planEntries) {
      e.kernelName = r_.string("a plan entry's kernel name");
      e.plan = r_.loopPlan();
      e.mapping = blockMapping(e.plan);
      e.tileRows = r_.integer<std::uint32_t>("a tile's rows");
      e.tileCols = r_.integer<std::uint32_t>("a tile's columns");
      e.threads = r_.integer<std::uint32_t>("threads per block");
      e.squareOnly = r_.boolean("a plan entry's square flag");
      e.sharedBytes = r_.integer<std::uint32_t>("a plan entry's dynamic shared memory");
      e.blocksPerSm = r_.integer<std::uint32_t>("a plan entry's blocks per multiprocessor");
      e.edgeKernel = r_.boolean("a plan entry's edge kernel flag");
      e.tensorMaps.resize(r_.count(24, "a plan entry's tensor maps"));
      for (TensorMapOperand& m : e.tensorMaps) {
        m.buffer = r_.integer<std::uint32_t>("a tensor map's array");
        m.strideParam = r_.integer<std::uint32_t>("a tensor map's stride parameter");
        m.stride = r_.integer<std::int64_t>("a tensor map's stride");
        m.boxCols = r_.integer<std::uint32_t>("a tensor map's box columns");
        m.boxRows = r_.integer<std::uint32_t>("a tensor map's box rows");
        if (m.buffer >= f.numParams || (m.strideParam != kNone && m.strideParam >= f.numParams))
          r_.fail("a tensor map of " + f.kernelName + " names variable " + std::to_string(m.buffer) + " or " +
                  std::to_string(m.strideParam) + ", not a parameter");
      }
    }
    f.reassociatedSums.resize(r_.count(4, "reassociated sums"));
    for (VarId& v : f.reassociatedSums) {
      v = r_.integer<std::uint32_t>("a reassociated sum");
      if (v >= f.vars.size()) r_.fail("a reassociated sum of " + f.name + " is variable " + std::to_string(v));
    }
    f.fusedOf = r_.strings("the kernels a fused kernel runs");
    if (!f.fusedOf.empty() && f.fusedOf.size() != 2)
      r_.fail(f.name + " fuses " + std::to_string(f.fusedOf.size()) + " kernels (a fused kernel runs two)");
  }

  // An array of structs' layout, checked as the runtime relies on it: every field one element of
  // the parameter's scalar type, inside a record of whole elements.
  RecordView record(const Function& f, const KernelParam& p) {
    RecordView r;
    r.name = r_.string("a record's name");
    r.scalar = r_.enumerator<Scalar>(kScalars, "a record's scalar type");
    r.size = r_.integer<std::uint32_t>("a record's size");
    r.align = r_.integer<std::uint32_t>("a record's alignment");
    r.fields.resize(r_.count(8, "record fields"));
    for (RecordField& field : r.fields) {
      field.path = r_.string("a record field's path");
      field.offset = r_.integer<std::uint32_t>("a record field's offset");
    }
    const std::string what = "record " + r.name + " of parameter '" + p.name + "' of " + f.name;
    if (r.scalar == Scalar::Void || r.scalar != p.type.scalar || !p.type.isPointer())
      r_.fail(what + " holds " + std::string(spelling(r.scalar)) + " fields, but the parameter is " +
              culift::toString(p.type));
    const std::uint32_t element = byteSize(r.scalar);
    if (r.size == 0 || r.size % element != 0)
      r_.fail(what + " is " + std::to_string(r.size) + " bytes, not a whole number of " + std::to_string(element) +
              "-byte " + std::string(spelling(r.scalar)) + " fields");
    if (r.align == 0 || (r.align & (r.align - 1)) != 0 || r.size % r.align != 0)
      r_.fail(what + " is aligned to " + std::to_string(r.align) + " bytes, which is not a power of two dividing its " +
              std::to_string(r.size) + " bytes");
    if (r.fields.empty()) r_.fail(what + " has no fields");
    for (const RecordField& field : r.fields)
      if (field.offset >= r.size || field.offset % element != 0)
        r_.fail(what + ": field " + field.path + " at byte " + std::to_string(field.offset) + " is not one of its " +
                std::to_string(r.size / element) + " " + std::string(spelling(r.scalar)) + " elements");
    return r;
  }

  int userParam(const Function& f, bool noneAllowed, const char* what) {
    std::int32_t p = r_.integer<std::int32_t>(what);
    if ((p == -1 && noneAllowed) || (p >= 0 && static_cast<std::uint32_t>(p) < f.numParams)) return p;
    r_.fail(std::string(what) + " of " + f.name + " is parameter " + std::to_string(p) + " of " +
            std::to_string(f.numParams));
  }

  Reader& r_;
  ImageBytes images_;
  unsigned depth_ = 0;
  // Each source location read and the index of its file, resolved once the table is read. The
  // pointers stay valid: they point into nodes (heap) and into vectors sized before filling.
  std::vector<std::pair<SourceLoc*, std::uint32_t>> locations_;
};

void writeHeader(std::string& out, std::uint32_t version, std::uint64_t hash, std::uint64_t size) {
  llvm::raw_string_ostream os(out);
  os << kSignature;
  llvm::support::endian::write<std::uint32_t>(os, version, llvm::support::little);
  llvm::support::endian::write<std::uint32_t>(os, 0, llvm::support::little);  // reserved
  llvm::support::endian::write<std::uint64_t>(os, hash, llvm::support::little);
  llvm::support::endian::write<std::uint64_t>(os, size, llvm::support::little);
}

// xxHash64 rather than a CRC: a module with cubins is megabytes, and an app that embeds it
// checks it at every start (about 0.1 ms a megabyte, a sixth of a CRC-32's time).
std::uint64_t checksum(std::string_view bytes) { return llvm::xxHash64(llvm::StringRef(bytes.data(), bytes.size())); }

}  // namespace

bool isModuleFile(std::string_view bytes) { return bytes.substr(0, kSignature.size()) == kSignature; }

std::string saveModule(const Module& module) {
  std::string body;
  runOnCuliftStack([&] { body = content(module); });
  std::string out;
  out.reserve(kHeaderBytes + body.size());
  writeHeader(out, kModuleFileVersion, checksum(body), body.size());
  out += body;
  return out;
}

void saveModuleFile(const Module& module, const std::string& path) {
  const std::string bytes = saveModule(module);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (!ec) {
    os << bytes;
    os.close();
    ec = os.error();
  }
  if (ec) throw ModuleFileError(path + ": cannot write the module file: " + ec.message());
}

std::shared_ptr<Module> loadModule(std::string_view bytes, std::string_view name, ImageBytes images) {
  const std::string where(name);
  if (!isModuleFile(bytes))
    throw ModuleFileError(where + ": not a culift module file (it does not start with \"" + std::string(kSignature) +
                          "\"; `culift emit FILE --module OUT` writes one)");
  Reader header(bytes.substr(0, std::min(bytes.size(), kHeaderBytes)), where, 0);
  (void)header.integer<std::uint64_t>("the signature");
  const std::uint32_t version = header.integer<std::uint32_t>("the header (the format version)");
  if (version != kModuleFileVersion)
    throw ModuleFileError(where + ": module file format version " + std::to_string(version) + "; culift " + kVersion +
                          " reads version " + std::to_string(kModuleFileVersion) +
                          " only: translate the source again with this culift (culift emit --module)");
  if (header.integer<std::uint32_t>("the header (reserved)") != 0)
    throw ModuleFileError(where + ": corrupt: the header's reserved field is not zero");
  const std::uint64_t hash = header.integer<std::uint64_t>("the header (the checksum)");
  const std::uint64_t size = header.integer<std::uint64_t>("the header (the content size)");
  const std::string_view body = bytes.substr(kHeaderBytes);
  if (body.size() < size)
    throw ModuleFileError(where + ": truncated: the header announces " + std::to_string(size) + " bytes of content, " +
                          std::to_string(body.size()) + " follow");
  if (body.size() > size)
    throw ModuleFileError(where + ": " + std::to_string(body.size() - size) +
                          " bytes follow the module's content (two files joined, or a corrupt header)");
  if (checksum(body) != hash)
    throw ModuleFileError(
        where +
        ": corrupt: the content's checksum (xxHash64) does not match the header's (the file was changed "
        "or damaged after culift wrote it)");
  std::shared_ptr<Module> module;
  runOnCuliftStack([&] {
    Reader r(body, where, kHeaderBytes);
    module = ModuleReader(r, images).read();
  });
  return module;
}

std::shared_ptr<Module> loadModuleFile(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) throw ModuleFileError(path + ": cannot read the module file: " + buffer.getError().message());
  return loadModule((*buffer)->getBuffer(), path);
}

}  // namespace culift
