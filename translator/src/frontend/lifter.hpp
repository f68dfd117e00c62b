// The lifter: walks the Clang AST of annotated functions (and the functions they call) and
// builds culift's typed AST. Everything outside the supported subset (constructs.def) becomes a
// diagnostic at the offending node; the walk continues so one run reports every error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "culift/ast/module.hpp"
#include "source_map.hpp"

namespace culift::frontend {

// `e` under parentheses and implicit casts that change nothing but qualification (CK_NoOp).
inline const clang::Expr* withoutNoOpCasts(const clang::Expr* e) {
  e = e->IgnoreParens();
  while (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
    if (cast->getCastKind() != clang::CK_NoOp) break;
    e = cast->getSubExpr()->IgnoreParens();
  }
  return e;
}

class Lifter {
 public:
  // What the translation was asked for beyond the annotations.
  struct Options {
    std::vector<std::string> picked;              // functions picked by name (replace the annotated set)
    bool reassociate = false;                     // every kernel may reassociate its loop's sums
    TensorCores tensorCores = TensorCores::None;  // every kernel's contraction may use tensor cores
  };
  Lifter(clang::ASTContext& context, SourceMap& sources, DiagnosticSink& diags, Module& module, Options options)
      : ctx_(context),
        sm_(context.getSourceManager()),
        sources_(sources),
        diags_(diags),
        module_(module),
        options_(std::move(options)) {}

  // Lifts every annotated function of the translation unit plus the ones picked by name, then
  // every function they call, transitively.
  void run();

  // For each name picked (Options::picked), in order: the functions it named (every explicit
  // instance for a template's name); empty where the name was an error.
  const std::vector<std::vector<FuncId>>& pickedFunctions() const { return picked_; }
  // Whether lifting function `id` reported no error of its own (its signature and body).
  bool liftedCleanly(FuncId id) const { return id < clean_.size() && clean_[id]; }

 private:
  struct CallEdge {
    FuncId caller, callee;
    clang::SourceLocation where;
  };

  // ---- functions (lift_function.cpp) ----
  void collectRoots();
  // Nesting limits. Every pass after the lifter (classifier, emitter, interpreter) recurses as
  // deep as the AST is nested; these bound it, on the stack translate() runs on.
  static constexpr unsigned kMaxExprDepth = 1000;
  static constexpr unsigned kMaxStmtDepth = 1000;
  // Stack kept free below the deepest lift call: what one nesting level and the Clang calls it
  // makes may use. Reaching it is reported as too deep a nesting, before the limits above,
  // only where frames are far larger than in a normal build.
  static constexpr std::size_t kStackReserve = 4u << 20;
  struct NestingLevel {  // one level deeper for the lifetime of a lift call
    unsigned& depth;
    explicit NestingLevel(unsigned& d) : depth(d) { ++depth; }
    ~NestingLevel() { --depth; }
  };
  // Whether a node at nesting level `depth` is too deep (beyond `limit`, or out of stack); the
  // first one under an outermost node is reported, as `what` ("expression", "statement").
  bool tooDeep(unsigned depth, unsigned limit, bool& reported, clang::SourceLocation where, const char* what,
               const char* hint);

  // What a kernel's culift annotations say: its index names (default i, j, k) and whether it may
  // reassociate.
  struct KernelMarks {
    std::vector<std::string> indexNames = {"i", "j", "k"};
    bool reassociate = false;
    TensorCores tensorCores = TensorCores::None;  // CULIFT_KERNEL_TENSOR_CORES
    std::vector<std::string> uniformNames;        // CULIFT_UNIFORM
  };
  FuncId enqueue(const clang::FunctionDecl* fd, bool annotated, KernelMarks marks);
  // Reads the culift annotations of `fd`; reports unknown or conflicting ones.
  bool marksOf(const std::vector<const clang::AnnotateAttr*>& annotations, const clang::FunctionDecl* fd,
               KernelMarks& marks);
  // The index names a CULIFT_KERNEL_INDEX annotation gives; reports a malformed one.
  bool indexNamesOf(const clang::AnnotateAttr* annotation, const clang::FunctionDecl* fd,
                    std::vector<std::string>& names);
  // Adds the parameter names a CULIFT_UNIFORM annotation gives; reports a malformed one.
  bool uniformNamesOf(const clang::AnnotateAttr* annotation, const clang::FunctionDecl* fd,
                      std::vector<std::string>& names);
  // Lifts function `id`'s signature and body, with a FunctionState of its own (fs_).
  void liftFunction(FuncId id);
  bool checkFunctionShape(const clang::FunctionDecl* fd);
  void checkRecursion();
  // The roots a function template gives: its explicit instantiations, or an error saying how to
  // write one (`annotated`: the template carries CULIFT_KERNEL, else it was picked by name).
  std::vector<FuncId> enqueueInstances(const clang::FunctionDecl* pattern, const KernelMarks& marks, bool annotated);
  // Whether `name` (picked by name) names the template instance `instance`: its lifted name
  // (Clip_float) or its name with template arguments as C++ writes them (Clip<float>).
  bool namesInstance(const clang::FunctionDecl* instance, const std::string& name);
  // The name a lifted function gets: the user's for a plain function; for an instance of a
  // template, a static member function or a lambda a readable C identifier (lerp_float,
  // Horner_4_eval, Blend_lambda12) that no other function of the file has.
  std::string liftedName(const clang::FunctionDecl* fd);
  // The same before it is made unique.
  std::string liftedBaseName(const clang::FunctionDecl* fd);
  std::string templateArgsName(llvm::ArrayRef<clang::TemplateArgument> args);

  // ---- types (lift_types.cpp) ----
  std::optional<Scalar> scalarOf(clang::QualType t) const;
  std::string whyUnsupported(clang::QualType t) const;
  std::optional<Type> paramType(const clang::ParmVarDecl* p, Binding& binding);
  std::optional<Type> localType(const clang::VarDecl* v);
  std::optional<Scalar> valueType(clang::QualType t, clang::SourceLocation where);

  // ---- std::array and multi-dimensional arrays (lift_arrays.cpp) ----
  // The shape of an array type: C arrays and std::array<T, N>, nested, of a scalar type;
  // flattened row-major into culift's 1-D arrays.
  struct ArrayShape {
    Scalar scalar = Scalar::Void;
    std::vector<std::uint64_t> dims;  // outermost first; 0: the rows of a parameter T A[][C], unknown
    bool constElements = false;
    std::uint64_t elements() const;  // the product of the known extents
  };
  enum class ShapeProblem { None, VariableLength, Element, TooLarge };
  // std::array<T, N>: T and N.
  static std::optional<std::pair<clang::QualType, std::uint64_t>> stdArrayOf(clang::QualType t);
  // The shape of `t` if it is an array; else nullopt, with `problem` set when it is an array culift
  // cannot hold (`element`: the element type that is no scalar).
  std::optional<ArrayShape> arrayShape(clang::QualType t, ShapeProblem& problem, clang::QualType& element) const;
  std::optional<ArrayShape> arrayShape(clang::QualType t) const;
  // Structured bindings of a std::array or an array: a hidden copy (or, bound by reference, the
  // array itself) whose elements the bindings name. False when `dd` decomposes something else.
  bool decomposition(const clang::DecompositionDecl* dd, StmtPtr& out);
  bool bindingRef(const clang::BindingDecl* b, const clang::DeclRefExpr* e, ExprPtr& out);
  // The shape of the array a variable names: a local, a reference, a parameter T A[][C] / T (*A)[C].
  std::optional<ArrayShape> shapeOfVar(const clang::ValueDecl* v) const;
  // Whether the subscript base `base` makes an element of a multi-dimensional array or a std::array.
  bool isArrayAccess(const clang::Expr* base) const;
  ExprPtr arrayElement(const clang::Expr* e);  // a[r][c], a[k] of a std::array: a flat element
  ExprPtr flatIndex(const ArrayShape& shape, std::vector<ExprPtr> indices);
  ExprPtr stdArrayMember(const clang::CXXMemberCallExpr* e);  // size(), empty(), front(), back()
  // A whole array as the source of a copy: its VarRef, and its element count in `n`.
  ExprPtr wholeArray(const clang::Expr* e, std::uint64_t& n);
  StmtPtr copyLoop(VarId dst, ExprPtr src, std::uint64_t n, const SourceRange& where);
  // for (culift_k = 0; culift_k < n; ++culift_k), without its body: the counter (int, or long
  // long beyond 2^31 - 1) declared in the function being lifted, its variable in `counter`.
  StmtPtr countingLoop(std::uint64_t n, SourceRange r, VarId& counter);
  StmtPtr group(std::vector<StmtPtr> stmts, const SourceRange& where);
  // The flat element list of a (nested) brace initializer; null entries are zeros.
  bool initElements(const clang::Expr* init, const ArrayShape& shape, size_t level, std::vector<ExprPtr>& out);
  void finishInits(std::vector<ExprPtr>& elements, Scalar s, const SourceRange& where);
  // The declaration of a local array with its initializer: a brace list, a copy, a call's result.
  StmtPtr arrayDecl(const clang::VarDecl* v, VarId id, const Type& type, StmtPtr decl);
  bool constantElements(const clang::APValue& value, clang::QualType t, clang::SourceRange where,
                        std::vector<ExprPtr>& out);
  // A constant array (constexpr global, static constexpr local) as a local const array.
  StmtPtr constantTable(const clang::VarDecl* v, VarId& id);
  ExprPtr globalTable(const clang::VarDecl* v, const clang::DeclRefExpr* e);
  // a.fill(v); b = a; b = make(...); as statements. False when `e` is none of them.
  bool arrayStatement(const clang::Expr* e, StmtPtr& out);
  StmtPtr arrayReturn(const clang::ReturnStmt* s);  // return of a function returning a std::array
  bool byValueArrayParam(const clang::ParmVarDecl* p, Var& v);
  void arrayParamsCopied();
  StmtPtr withPrologue(StmtPtr body);

  // ---- the steps of liftFunction (lift_function.cpp), on the function being lifted ----
  // The return type; a std::array a helper returns: its shape (written through a last parameter).
  std::optional<ArrayShape> liftReturnType();
  // The parameters, in order: a lambda's captures, a member function's object, the function's own,
  // then the result's (a returned std::array, a returned struct's leaves).
  void liftParams(const std::optional<ArrayShape>& resultShape);
  void lambdaCaptureParams();  // a lambda's captures, as its first parameters
  void objectParams();         // a member function's object, as its leaves
  // One parameter (`index`: its position, naming it when unnamed); false where a lambda parameter
  // was rejected (it takes no position then).
  bool liftParam(const clang::ParmVarDecl* p, unsigned index);
  bool closureParam(const clang::ParmVarDecl* p, const std::string& name);  // a lambda passed to a template
  void liftBody();       // the prologue's temporaries, the prologue, then the body
  void uniformFields();  // CULIFT_UNIFORM naming a struct parameter: its fields
  // A row of a multi-dimensional array that a range for binds by reference
  // (for (const auto& row : m)): the flat index of its first element is the sum of the range
  // for counters times their strides.
  struct RowView {
    VarId array = kNone;
    std::vector<std::pair<VarId, std::uint64_t>> terms;  // counter, elements per step
    ArrayShape shape;                                    // the row's own dimensions
    Scalar indexType = Scalar::I64;
  };
  ExprPtr rowOffset(const RowView& view, const SourceRange& where);
  // The view a range for runs over: an array variable, a table or a row bound by an outer one.
  std::optional<RowView> rangeView(const clang::VarDecl* v, const clang::DeclRefExpr* ref);
  struct PendingCopy {
    VarId param;
    const clang::ParmVarDecl* decl;
    std::uint64_t elements;
  };

  // ---- statements (lift_stmt.cpp) ----
  StmtPtr stmt(const clang::Stmt* s);
  StmtPtr declStmt(const clang::DeclStmt* s);
  StmtPtr varDecl(const clang::VarDecl* v);
  StmtPtr switchStmt(const clang::SwitchStmt* s);
  void switchBodyItem(const clang::Stmt* s, Scalar condType, std::vector<StmtPtr>& out);
  StmtPtr rangeFor(const clang::CXXForRangeStmt* s);
  // A reference local `T& r = init;`: a Decl of a reference bound to a variable or an array
  // element, or (bound to a temporary, whose life the reference extends) of a plain local.
  StmtPtr referenceDecl(const clang::VarDecl* v);

  // ---- expressions (lift_expr.cpp) ----
  // The form a context takes an expression in: a scalar (or array) expression, or a struct
  // value's leaves (`dest`: the variables a call's struct result may be written to directly).
  struct Want {
    bool record = false;
    const std::vector<VarId>* dest = nullptr;
  };
  struct LiftedValue;  // an expression lifted in the form wanted (with RecordValue, below)
  // The one dispatch over Clang's expression kinds: each kind is decided here, for both forms
  // (the struct cases are in lift_record.cpp). `expr` and `recordValue` call it.
  LiftedValue value(const clang::Expr* e, Want want);
  ExprPtr expr(const clang::Expr* e);  // a scalar (or array) expression
  ExprPtr literalExpr(const clang::Expr* e);
  ExprPtr zeroInit(const clang::Expr* e);  // T(), T{} and the elements a brace list leaves out
  ExprPtr conditional(const clang::ConditionalOperator* c);
  ExprPtr constructExpr(const clang::CXXConstructExpr* c);  // a std::array copy; other objects are rejected
  ExprPtr rejectedExpr(const clang::Expr* e);               // the kinds culift does not lift, diagnosed
  ExprPtr implicitCast(const clang::ImplicitCastExpr* e);
  ExprPtr explicitCast(const clang::ExplicitCastExpr* e);
  ExprPtr declRef(const clang::DeclRefExpr* e);
  ExprPtr subscript(const clang::ArraySubscriptExpr* e);
  ExprPtr unary(const clang::UnaryOperator* e);
  ExprPtr binary(const clang::BinaryOperator* e);
  ExprPtr initList(const clang::InitListExpr* e);
  // assert(cond): the call <cassert> makes when the condition fails, or null for any other `?:`.
  const clang::CallExpr* assertionFailure(const clang::ConditionalOperator* c) const;
  ExprPtr assertion(const clang::ConditionalOperator* c, const clang::CallExpr* failure);
  ExprPtr lvalue(const clang::Expr* e, const char* what);
  // The argument of a reference parameter: the variable or array element it binds to or, for a
  // const reference, the value of the temporary it binds to. Null (diagnosed) otherwise.
  ExprPtr referenceArgument(const clang::Expr* arg, const clang::ParmVarDecl* param);
  ExprPtr fold(const clang::Expr* e, clang::SourceLocation where, const std::string& what);
  ExprPtr literal(const clang::APValue& v, clang::QualType t, clang::SourceRange r);
  ExprPtr zero(Scalar s, clang::SourceRange r);
  ExprPtr convert(ExprPtr e, Scalar to, bool explicitCast = false);

  // ---- calls (lift_call.cpp) ----
  ExprPtr call(const clang::CallExpr* e);
  ExprPtr mathCall(const clang::CallExpr* e, MathFn fn, bool floatForm, const std::string& spelled);
  bool isLibraryFunction(const clang::FunctionDecl* fd) const;
  // Calls that are constants: the builtins behind INFINITY, NAN and HUGE_VAL(F), and the static
  // members of std::numeric_limits<T>. They are folded to literals.
  bool isConstantCall(const clang::FunctionDecl* fd) const;
  ExprPtr constantCall(const clang::CallExpr* e, const clang::FunctionDecl* callee, const std::string& spelled);
  bool isStreamType(clang::QualType t) const;

  // ---- atomics (lift_atomic.cpp) ----
  bool isAtomicRef(clang::QualType t) const;  // std::atomic_ref<T>
  // std::atomic_ref<T>(a[k]).fetch_add(v) and the other read-modify-write members: AtomicRmw.
  ExprPtr atomicCall(const clang::CXXMemberCallExpr* e);
  // ---- std::min/std::max of an initializer list, std::minmax (lift_minmax.cpp) ----
  // Lowered to the two-operand std::min/std::max nodes, making libstdc++'s comparisons in its
  // order; every element evaluated once, in order.
  ExprPtr minMaxList(const clang::CallExpr* e, MathFn fn, const std::string& spelled);
  // The elements of a call of std::min/max/minmax (an initializer list's or the two arguments),
  // converted to T; into temporaries (assigned by `effects`, in order) where one has side
  // effects, or, when `reused`, where one is not a variable or a literal. False after a diagnostic.
  bool minMaxOperands(const clang::CallExpr* e, const std::string& spelled, bool reused, std::vector<ExprPtr>& effects,
                      std::vector<ExprPtr>& out);
  // A local declared before the statement being lifted (read as the VarRef returned).
  ExprPtr elementTemporary(Scalar s, const SourceRange& r, const std::string& base);
  bool isMinmaxCall(const clang::Expr* e) const;
  static bool isInitializerList(const clang::Expr* arg);  // of type std::initializer_list<T>
  static bool isStdPair(clang::QualType t);
  // The result of std::minmax(...): effects, then its two elements (each an expression free of
  // side effects, to be used once).
  struct MinmaxValue {
    std::vector<ExprPtr> effects;
    ExprPtr first, second;
  };
  std::optional<MinmaxValue> minmaxValue(const clang::CallExpr* e);
  // A std::pair std::minmax returned, held by a local (auto p = ...; auto [lo, hi] = ...): its two
  // elements as locals, or, for the references std::minmax(a, b) returns, the arguments' places
  // and whether b < a was true at the call.
  struct MinmaxPair {
    VarId first = kNone, second = kNone;
    VarId swapped = kNone;
    ExprPtr a, b;
  };
  StmtPtr minmaxDecl(const clang::VarDecl* v);  // v: a local or a structured binding's hidden variable
  ExprPtr pairElement(const MinmaxPair& pair, unsigned k, const SourceRange& r);
  ExprPtr pairMember(const clang::MemberExpr* e);                              // p.first, std::minmax(...).second
  ExprPtr pairBinding(const clang::BindingDecl* b, clang::SourceRange where);  // null: not one of references

  // ---- lambdas (lift_lambda.cpp) ----
  // A lambda is lifted as a function taking its captures first, then its parameters: a capture
  // by reference binds the captured variable; a capture by copy binds a hidden copy made where
  // the lambda is defined (a const reference to it, a plain reference for a mutable lambda); an
  // array is passed as an array. A closure variable or closure parameter of the function being
  // lifted stands for those arguments.
  struct Closure {
    const clang::LambdaExpr* lambda = nullptr;
    std::vector<VarId> captures;  // what the lifted function's capture parameters bind to
  };
  struct CaptureParam {
    const clang::ValueDecl* captured;  // the variable the lambda body names
    std::string name;
    Type type;
    Binding binding;
    int leaf = -1;  // a captured struct: one capture parameter per leaf, this one's index
    // A captured local array of structs: one capture parameter per leaf's array (ps_x, ps_v).
    int arrayLeaf = -1;
  };
  static bool isClosureType(clang::QualType t);
  // The variable a capture parameter binds to in the function defining the lambda.
  std::optional<VarId> capturedVar(const CaptureParam& p);
  // The capture parameters of a lambda's function (diagnosed and empty-handed when one cannot be).
  bool captureParams(const clang::LambdaExpr* lambda, std::vector<CaptureParam>& out);
  StmtPtr closureDecl(const clang::VarDecl* v);
  // What a closure argument (a closure variable, parameter or a lambda written in the call)
  // passes: the capture arguments. False (diagnosed) when it cannot be passed.
  bool closureArguments(const clang::Expr* arg, bool byValue, std::vector<ExprPtr>& out);
  ExprPtr closureCall(const clang::CXXOperatorCallExpr* call);
  ExprPtr varRef(VarId id, clang::SourceRange where);
  std::map<const clang::CXXRecordDecl*, const clang::LambdaExpr*> lambdas_;  // every lambda seen
  std::map<FuncId, const clang::LambdaExpr*> lambdaOf_;                      // lifted call operators
  std::set<const clang::LambdaExpr*> badLambdas_;                            // diagnosed once
  // Whether `e` mentions a variable whose declaration was already diagnosed.
  bool referencesRejected(const clang::Stmt* e) const;

  // ---- value structs (lift_record.cpp) ----
  // A struct value is scalarized: a variable of struct type is its leaves (the scalar and
  // fixed-size array fields, nested structs flattened, in declaration order), each a variable of
  // its own named after the path (v_x, o_b_c). A helper returning a struct writes its leaves
  // through reference parameters after its own; a member function takes the object's leaves
  // first (const references for a const one). No node or type of the AST knows structs.
  struct RecordLeaf {
    std::string path;  // the field path, joined with '_' ("x", "inner_c")
    Type type;         // a scalar value, or a fixed-size array of scalars (Type::array)
  };
  struct RecordLayout {
    std::vector<RecordLeaf> leaves;
    // Each field of this record (not of nested ones): its first leaf and how many it has.
    std::map<const clang::FieldDecl*, std::pair<unsigned, unsigned>> fields;
    std::string problem, hint;  // why it is not a value struct ("" when it is)
  };
  // The initial value of one leaf in an initialization (aggregate, default, member initializer).
  struct LeafInit {
    std::vector<ExprPtr> before;  // effects to run before this leaf is initialized
    ExprPtr scalar;               // a scalar leaf's value (null: left uninitialized)
    bool arrayInit = false;       // an array leaf: initialized (the elements given, the rest zero)
    std::vector<ExprPtr> elements;
    ExprPtr arraySource;  // or a copy of this array (a VarRef)
  };
  // A struct-valued expression: effects to run first (calls writing temporaries, assignments),
  // then one expression per leaf (array leaves are always VarRefs of arrays). Addressable leaves
  // are variables: a reference may bind to them, an assignment write them.
  struct RecordValue {
    const RecordLayout* layout = nullptr;
    std::vector<ExprPtr> effects;
    std::vector<ExprPtr> leaves;
    bool addressable = false;
  };
  // What the dispatch (`value`) gives: the scalar expression or the struct value asked for; null
  // or empty after a diagnostic.
  struct LiftedValue {
    LiftedValue(ExprPtr e) : scalar(std::move(e)) {}
    LiftedValue(std::optional<RecordValue> v) : record(std::move(v)) {}
    ExprPtr scalar;
    std::optional<RecordValue> record;
  };
  // A struct type culift scalarizes: a class, struct or union of the user's code (library types
  // and lambdas are not; unions are diagnosed by recordLayout).
  bool isUserRecord(clang::QualType t) const;
  const RecordLayout& layoutOf(const clang::RecordDecl* rd);
  // The layout of a struct type, or null after a diagnostic naming `what` ("parameter 'p'").
  const RecordLayout* recordLayout(clang::QualType t, clang::SourceLocation where, const std::string& what);
  std::string freshName(const std::string& base);
  // Declares one variable per leaf, named base_path: parameters (array leaves as pointers) or locals.
  std::vector<VarId> declareLeaves(const RecordLayout& layout, const std::string& base, clang::SourceRange where,
                                   bool isParam, Binding binding, bool constArrays);
  // The struct parameter `p` (by value, const S& or S&) as leaf parameters of the function.
  bool recordParam(const clang::ParmVarDecl* p, unsigned index);
  StmtPtr recordDecl(const clang::VarDecl* v);
  StmtPtr decompositionDecl(const clang::DecompositionDecl* d);
  // A local array of structs P ps[n]: one array per leaf (ps_x[n], ps_y[n]); ps[k] is a struct
  // value whose leaves are ps_x[k], ps_y[k].
  StmtPtr structArrayDecl(const clang::VarDecl* v);
  // for (const P& p : ps) over a local array of structs: an index loop whose body first declares
  // the element's leaves (references to ps_x[culift_k], ..., or copies of them).
  StmtPtr structArrayFor(const clang::CXXForRangeStmt* s, const clang::VarDecl* array);
  // An array of structs as a parameter (const Particle* p): one pointer to the records' scalar
  // type; p[k] is a struct value whose leaves are p[k * elements + offset] (offsets in elements).
  struct RecordPointer {
    VarId var = kNone;
    const RecordLayout* layout = nullptr;
    std::uint32_t elements = 0;
    std::vector<std::uint32_t> offsets;  // one per leaf
  };
  // Whether `t` is a pointer to a value struct of the user's code.
  bool isRecordPointer(clang::QualType t) const;
  // The parameter `p` of type S* / const S*: the pointer type the function takes (a pointer to
  // S's one scalar type), with S's layout as the host lays it out in `view`; null after a
  // diagnostic (fields of several types, an array field, ...).
  std::optional<Type> recordPointerParam(const clang::ParmVarDecl* p, RecordView& view, RecordPointer& pointer);
  // The host's layout of the struct `type` as an array of records (`what` names it in the
  // diagnostics: fields of several types, an array field, ...); `pointer` gets the leaves'
  // offsets in elements.
  std::optional<RecordView> recordViewOf(clang::QualType type, clang::SourceLocation where, const std::string& what,
                                         RecordPointer& pointer);
  // p[index] (p->x: index 0) of an array-of-structs parameter.
  std::optional<RecordValue> recordElement(const RecordPointer& pointer, const clang::Expr* index, SourceRange r);
  static bool allVariables(const RecordValue& value);
  static ExprPtr cloneLvalue(const Expr& e);
  StmtPtr recordReturn(const clang::ReturnStmt* r);
  StmtPtr recordExprStmt(const clang::Expr* e);
  // A struct-valued expression evaluated for its effects only, as one expression (null if none).
  ExprPtr recordEffects(const clang::Expr* e);
  // Runs `lift` with `this` naming the nested struct whose first leaf is LeafInit `at`.
  bool insideNested(const clang::RecordDecl* inner, std::size_t at, const std::function<bool()>& lift);
  // A struct-valued expression (through the one dispatch, `value`).
  std::optional<RecordValue> recordValue(const clang::Expr* e, const std::vector<VarId>* dest = nullptr);
  // The cases of the dispatch for a struct value. The layout of `e`'s type; null after a diagnostic.
  const RecordLayout* valueLayout(const clang::Expr* e);
  RecordValue leavesOf(const RecordLayout* layout, const std::vector<VarId>& ids, SourceRange r);  // variables
  std::optional<RecordValue> recordThis(const clang::Expr* e);                                     // *this
  std::optional<RecordValue> recordVariable(const clang::DeclRefExpr* ref, const RecordLayout* layout);
  std::optional<RecordValue> recordMember(const clang::MemberExpr* member, const RecordLayout* layout);
  std::optional<RecordValue> recordSubscript(const clang::ArraySubscriptExpr* element, const RecordLayout* layout);
  // Brace lists, value and default initialization, copies and constructor calls.
  std::optional<RecordValue> recordInit(const clang::Expr* e, const RecordLayout* layout,
                                        const std::vector<VarId>* dest);
  // The value an initialization gives (`inits`: one per leaf): array leaves in temporaries.
  RecordValue initializedValue(const clang::Expr* e, const RecordLayout* layout, std::vector<LeafInit>& inits);
  std::optional<RecordValue> unsupportedRecord(const clang::Expr* e);  // diagnosed
  // Aggregate and default initialization, one LeafInit per leaf; 0 when `e` is neither form.
  int directInit(const clang::Expr* e, std::vector<LeafInit>& out);
  bool defaultInit(const clang::RecordDecl* rd, bool zero, clang::SourceRange where, std::vector<LeafInit>& out);
  bool fieldInit(const clang::FieldDecl* fd, const clang::Expr* init, std::vector<LeafInit>& out);
  bool nestedFieldInit(clang::QualType type, const clang::Expr* init, std::vector<LeafInit>& out);
  bool scalarFieldInit(const clang::FieldDecl* fd, const clang::Expr* init, std::vector<LeafInit>& out);
  // Temporaries of a struct's leaves, declared before the statement being lifted.
  std::vector<VarId> temporaries(const RecordLayout& layout, const std::string& base, clang::SourceRange where);
  RecordValue materialize(RecordValue value, const std::string& base, clang::SourceRange where);
  // Assignments of `value`'s leaves to the variables `targets` (array leaves element by element).
  void assignLeaves(const std::vector<VarId>& targets, RecordValue& value, std::vector<ExprPtr>& out,
                    SourceRange where);
  ExprPtr memberExpr(const clang::MemberExpr* e);
  // A call of a function culift lifts: `object`'s leaves first (member functions), then the
  // arguments (struct arguments as their leaves), then `out` (a struct result's leaves), then
  // `resultArray` (where a returned std::array goes).
  // A constructor's call passes `self`, the leaves it constructs, instead of an object.
  ExprPtr userCall(const clang::Expr* call, const clang::FunctionDecl* def, const clang::Expr* object,
                   const std::vector<VarId>* self, const std::vector<const clang::Expr*>& args,
                   const std::vector<VarId>* out, ExprPtr resultArray = nullptr);
  // A call of a scalar or void function culift lifts (member functions and operators too);
  // `resultArray` is where a returned std::array goes (the callee's last parameter).
  ExprPtr liftedCall(const clang::CallExpr* e, const clang::FunctionDecl* callee, ExprPtr resultArray = nullptr);
  StmtPtr leafDecl(VarId id, LeafInit& init, const SourceRange& r);
  // Array copies of more elements than this are loops (culift_k) instead of one statement each.
  static constexpr std::uint64_t kUnrolledCopy = 8;
  StmtPtr copyLoop(VarId dst, VarId src, std::uint64_t n, const SourceRange& r);
  void effectStatements(std::vector<ExprPtr>& effects, std::vector<StmtPtr>& out);
  // Pushes the arguments `arg` passes to `param` (one, or a struct's leaves); effects to run first.
  bool pushArgument(const clang::Expr* arg, const clang::ParmVarDecl* param, std::vector<ExprPtr>& args,
                    std::vector<ExprPtr>& effects);
  std::optional<RecordValue> recordCall(const clang::Expr* e, const std::vector<VarId>* dest);
  // A member function returning a reference to its own class (operator+= and the like): lifted
  // as a void function; the only value it may return is *this.
  static bool returnsOwnObject(const clang::FunctionDecl* fd);
  ExprPtr sequence(std::vector<ExprPtr> effects, ExprPtr last);
  std::map<const clang::RecordDecl*, RecordLayout> layouts_;
  std::set<const RecordLayout*> reportedLayouts_;  // struct types diagnosed once at least
  // Statements (a Decl, an ExprStmt, ...) and the temporaries they declared, as one statement.
  StmtPtr stmtNode(const clang::Stmt* s);
  // What runs before a function's body: copies of by-value array fields, a constructor's
  // member initializers (into the prologue).
  void prologueOf(const clang::FunctionDecl* fd);

  // ---- helpers ----
  SourceLoc loc(clang::SourceLocation l) { return sources_.loc(sm_, l); }
  SourceRange range(clang::SourceRange r) { return sources_.range(sm_, ctx_.getLangOpts(), r); }
  void error(clang::SourceLocation where, std::string message, std::string hint = {});
  ExprPtr fail(clang::SourceLocation where, std::string message, std::string hint = {}) {
    error(where, std::move(message), std::move(hint));
    return nullptr;
  }

  clang::ASTContext& ctx_;
  clang::SourceManager& sm_;
  SourceMap& sources_;
  DiagnosticSink& diags_;
  Module& module_;
  Options options_;

  std::set<std::string> userNames_;                   // every function name of the user's code
  std::set<std::string> generatedNames_;              // names liftedName gave out
  std::vector<std::vector<FuncId>> picked_;           // pickedFunctions()
  std::vector<bool> clean_;                           // liftedCleanly(), by FuncId
  std::map<const clang::FunctionDecl*, FuncId> ids_;  // canonical decl -> id
  std::vector<const clang::FunctionDecl*> decls_;     // id -> definition
  std::vector<CallEdge> edges_;

  // The function being lifted (function_state.hpp): everything that belongs to one function's
  // lifting lives there, made fresh for each function by liftFunction and gone after it.
  struct FunctionState;
  FunctionState* fs_ = nullptr;
};

// Names of the annotation that marks a kernel, and its index-name override prefix.
inline constexpr const char* kAnnotation = "culift";
inline constexpr const char* kIndexAnnotationPrefix = "culift:index=";
inline constexpr const char* kReassociateAnnotation = "culift:reassociate";
inline constexpr const char* kUniformAnnotationPrefix = "culift:uniform=";
inline constexpr const char* kTensorCoresAnnotationPrefix = "culift:tensor_cores=";

}  // namespace culift::frontend
