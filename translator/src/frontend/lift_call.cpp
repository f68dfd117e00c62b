// Calls: <cmath> and std::min/max/clamp/abs become MathCall nodes computed in the C++ type;
// calls to functions whose body culift can see are lifted too (as device functions);
// everything else (I/O, library functions, methods, function pointers) is rejected by name.
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "function_state.hpp"
#include "llvm/ADT/StringSet.h"

namespace culift::frontend {
namespace {

bool isIoFunction(llvm::StringRef name) {
  static const llvm::StringSet<> kIo = {"printf",   "fprintf",   "sprintf", "snprintf", "vprintf", "vfprintf",
                                        "vsprintf", "vsnprintf", "puts",    "fputs",    "putchar", "fputc",
                                        "putc",     "scanf",     "fscanf",  "sscanf",   "getchar", "getc",
                                        "fgetc",    "fgets",     "gets",    "fopen",    "fclose",  "fread",
                                        "fwrite",   "fflush",    "perror",  "write",    "read",    "open",
                                        "close",    "getline"};
  return kIo.contains(name);
}

const char* kIoMessage = "I/O is not available in culift kernels";
const char* kIoHint = "return the value, or write it to an output array and print it on the host";

// The builtins <cmath> spells INFINITY, NAN and HUGE_VAL(F) with (glibc: `(__builtin_inff ())`);
// their long double forms are rejected by type.
bool isConstantBuiltin(llvm::StringRef name) {
  static const llvm::StringSet<> kConstants = {"__builtin_inf",      "__builtin_inff",      "__builtin_infl",
                                               "__builtin_huge_val", "__builtin_huge_valf", "__builtin_huge_vall",
                                               "__builtin_nan",      "__builtin_nanf",      "__builtin_nanl",
                                               "__builtin_nans",     "__builtin_nansf",     "__builtin_nansl"};
  return kConstants.contains(name);
}

// A static member function of std::numeric_limits<T> (infinity(), lowest(), epsilon(), ...).
bool isNumericLimitsMember(const clang::FunctionDecl* fd) {
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(fd);
  if (!method || !method->isStatic()) return false;
  const clang::CXXRecordDecl* parent = method->getParent();
  return parent && parent->isInStdNamespace() && parent->getDeclName().isIdentifier() &&
         parent->getName() == "numeric_limits";
}

}  // namespace

bool Lifter::isConstantCall(const clang::FunctionDecl* fd) const {
  if (isNumericLimitsMember(fd)) return true;
  return fd->getBuiltinID() != 0 && fd->getDeclName().isIdentifier() && isConstantBuiltin(fd->getName());
}

ExprPtr Lifter::constantCall(const clang::CallExpr* e, const clang::FunctionDecl* callee, const std::string& spelled) {
  const clang::SourceLocation where = e->getBeginLoc();
  const llvm::StringRef name = callee->getDeclName().isIdentifier() ? callee->getName() : llvm::StringRef();
  // A signaling NaN does not survive as a value: converting or computing with one quiets it
  // (differently on the host and on the device).
  if (name == "signaling_NaN" || name.startswith("__builtin_nans"))
    return fail(where, "signaling NaNs are not supported",
                "use quiet_NaN() or NAN: arithmetic quiets a signaling NaN, on the device as on the host");
  return fold(e, where, "'" + spelled + "'");
}

bool Lifter::isStreamType(clang::QualType t) const {
  if (t.isNull()) return false;
  t = t.getNonReferenceType();
  const clang::CXXRecordDecl* rd = t->getAsCXXRecordDecl();
  if (!rd || !rd->isInStdNamespace()) return false;
  llvm::StringRef name = rd->getName();
  return name.contains("stream") || name.contains("ios") || name == "basic_streambuf";
}

bool Lifter::isLibraryFunction(const clang::FunctionDecl* fd) const {
  if (fd->getBuiltinID() != 0) return true;
  if (fd->isInStdNamespace()) return true;
  const clang::DeclContext* dc = fd->getDeclContext()->getRedeclContext();
  if (!dc->isTranslationUnit()) return false;
  // A global function of the C library.
  return sm_.isInSystemHeader(fd->getLocation());
}

ExprPtr Lifter::call(const clang::CallExpr* e) {
  const clang::SourceLocation where = e->getBeginLoc();

  // Where the std::array this call returns goes (set by the declaration or statement storing it).
  ExprPtr resultArray = std::move(fs_->arrayResult);
  fs_->arrayResult.reset();
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e)) {
    if (op->getOperator() == clang::OO_Subscript && op->getNumArgs() == 2 && stdArrayOf(op->getArg(0)->getType()))
      return arrayElement(op);
    if (op->getOperator() == clang::OO_Equal && op->getNumArgs() == 2 && stdArrayOf(op->getArg(0)->getType()))
      return fail(op->getOperatorLoc(), "assigning a std::array is only supported as a statement of its own",
                  "write b = a; on its own line");
    if (op->getOperator() == clang::OO_Call && op->getNumArgs() > 0 &&
        isClosureType(op->getArg(0)->getType().getNonReferenceType()))
      return closureCall(op);
    if (referencesRejected(e)) return nullptr;  // the object was diagnosed where it was declared
    for (const clang::Expr* arg : op->arguments())
      if (isStreamType(arg->getType())) return fail(where, kIoMessage, kIoHint);
    if (isStdPair(op->getArg(0)->getType()))
      return fail(op->getOperatorLoc(), "operators of a std::pair are not supported",
                  "read and assign its elements: p.first, p.second");
    // Operators of the user's value structs are functions like any other.
    if (const clang::FunctionDecl* callee = op->getDirectCallee(); callee && !isLibraryFunction(callee))
      return liftedCall(op, callee);
    return fail(op->getOperatorLoc(), "overloaded operators of library types are not supported",
                "library types are not available in kernels; operators of your own value structs are");
  }
  if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(e)) {
    if (isStreamType(member->getObjectType())) return fail(where, kIoMessage, kIoHint);
    // libstdc++ declares the members in a base class: the object is converted to it.
    if (isAtomicRef(member->getImplicitObjectArgument()->IgnoreImpCasts()->getType())) return atomicCall(member);
    if (stdArrayOf(member->getImplicitObjectArgument()->getType().getNonReferenceType())) {
      if (referencesRejected(member->getImplicitObjectArgument())) return nullptr;
      return stdArrayMember(member);
    }
    if (referencesRejected(member->getImplicitObjectArgument())) return nullptr;
    const clang::CXXMethodDecl* method = member->getMethodDecl();
    const std::string name = method ? method->getNameAsString() : std::string("?");
    if (method && method->isVirtual())
      return fail(where, "call to virtual method '" + name + "': virtual calls are not supported",
                  "call a non-virtual member function or a free function");
    if (method && isUserRecord(member->getObjectType()) && !isLibraryFunction(method))
      return liftedCall(member, method);
    return fail(where, "call to method '" + name + "' of a library type is not supported",
                "library types are not available in kernels; member functions of your own value structs are");
  }
  if (llvm::isa<clang::CUDAKernelCallExpr, clang::UserDefinedLiteral>(e))
    return fail(where, std::string("unsupported expression '") + e->getStmtClassName() + "'");

  const clang::FunctionDecl* callee = e->getDirectCallee();
  if (!callee) {
    if (referencesRejected(e->getCallee())) return nullptr;
    return fail(where, "calls through function pointers are not supported", "call the function by name");
  }
  const std::string qualified = callee->getQualifiedNameAsString();
  llvm::StringRef name = callee->getDeclName().isIdentifier() ? callee->getName() : llvm::StringRef();

  if (isConstantCall(callee)) return constantCall(e, callee, qualified);
  if (isMinmaxCall(e))
    return fail(where,
                "the std::pair '" + qualified + "' returns can only be held by a local or read as .first or .second",
                "auto [lo, hi] = std::minmax({a, b, c}); or std::minmax(a, b).first; or std::min and std::max");
  for (const clang::Expr* arg : e->arguments())
    if (isStdPair(arg->getType()) && isLibraryFunction(callee))
      return fail(where,
                  "a std::pair can only be read as .first and .second: '" + qualified + "' of one is not supported",
                  "read p.first and p.second");
  if (isLibraryFunction(callee)) {
    llvm::StringRef mathName = name;
    mathName.consume_front("__builtin_");
    if (isIoFunction(mathName)) return fail(where, kIoMessage, kIoHint);
    MathFn fn;
    bool floatForm = false;
    if (!mathName.empty() && lookupMathFn(mathName, fn, floatForm)) return mathCall(e, fn, floatForm, qualified);
    return fail(
        where,
        "call to '" + qualified +
            "' is not supported: it is neither a supported math function nor a function culift can see the body of",
        "on the device, the <cmath> functions, std::min/max/clamp/abs and functions defined in your own code can be called");
  }
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee); method && !method->isStatic())
    return fail(where, "call to method '" + qualified + "': only static member functions can be called",
                "make it static (or a free function) and pass what it needs as parameters");
  // A call of a constexpr function on constants is a constant: folded, as the compiler may.
  if (callee->isConstexpr() && !e->getType()->isVoidType() && scalarOf(e->getType()) && !e->isValueDependent()) {
    clang::Expr::EvalResult value;
    if (e->EvaluateAsRValue(value, ctx_) && !value.HasSideEffects && (value.Val.isInt() || value.Val.isFloat()))
      return literal(value.Val, e->getType(), e->getSourceRange());
  }
  const clang::FunctionDecl* def = callee->getDefinition();
  if (!def || !def->hasBody())
    return fail(where, "call to '" + qualified + "', which has no body culift can see",
                "define the function in this file or in a header it includes");
  if (sm_.isInSystemHeader(def->getLocation()))
    return fail(where, "call to '" + qualified + "' from a system header is not supported");
  return liftedCall(e, def, std::move(resultArray));
}

ExprPtr Lifter::liftedCall(const clang::CallExpr* e, const clang::FunctionDecl* callee, ExprPtr resultArray) {
  const clang::SourceLocation where = e->getBeginLoc();
  const std::string qualified = callee->getQualifiedNameAsString();
  const clang::FunctionDecl* def = callee->getDefinition();
  if (!def || !def->hasBody())
    return fail(where, "call to '" + qualified + "', which has no body culift can see",
                "define the function in this file or in a header it includes");
  if (isClosureType(e->getType().getNonReferenceType()))
    return fail(where, "a lambda cannot leave the function that defines it: '" + qualified + "' returns one",
                "call the lambda inside the function, or pass it to a function template as an argument");
  const bool returnsArray = stdArrayOf(e->getType()).has_value();
  if (returnsArray && !resultArray)
    return fail(where, "the std::array '" + qualified + "' returns must initialize or be assigned to a local array",
                "store it first: auto r = " + qualified + "(...); then use r");
  // A member function takes its object first: the object of a member call, or an operator's
  // left operand.
  const clang::Expr* object = nullptr;
  unsigned first = 0;
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(def);
  if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(e)) {
    object = member->getImplicitObjectArgument();
  } else if (llvm::isa<clang::CXXOperatorCallExpr>(e) && method && !method->isStatic()) {
    object = e->getArg(0);
    first = 1;
  }
  std::vector<const clang::Expr*> args;
  for (unsigned k = first; k < e->getNumArgs(); ++k) args.push_back(e->getArg(k));
  return userCall(e, def, object, nullptr, args, nullptr, std::move(resultArray));
}

ExprPtr Lifter::mathCall(const clang::CallExpr* e, MathFn fn, bool floatForm, const std::string& spelled) {
  const clang::SourceLocation where = e->getBeginLoc();
  const MathFnInfo& m = info(fn);
  const bool initializerList = e->getNumArgs() > 0 && isInitializerList(e->getArg(0));
  if ((fn == MathFn::Min || fn == MathFn::Max) &&
      (initializerList || (e->getNumArgs() == 3 && !scalarOf(e->getArg(2)->getType().getNonReferenceType()))))
    return minMaxList(e, fn, spelled);  // a list, or a comparator (diagnosed there)
  for (const clang::Expr* arg : e->arguments()) {
    if (isInitializerList(arg)) return fail(where, "'" + spelled + "' with an initializer list is not supported");
  }
  if (e->getNumArgs() != m.arity)
    return fail(where, "'" + spelled + "' with " + std::to_string(e->getNumArgs()) +
                           " argument(s) is not supported: culift supports " + std::string(m.name) + " with " +
                           std::to_string(m.arity));
  std::optional<Scalar> result = valueType(e->getType(), where);
  std::vector<ExprPtr> args;
  bool ok = result.has_value();
  for (const clang::Expr* arg : e->arguments()) {
    args.push_back(expr(arg));
    ok = ok && args.back();
  }
  if (!ok) return nullptr;
  for (const ExprPtr& a : args)
    if (!a->type.isValue())
      return fail(where, "an array cannot be passed to '" + spelled + "'", "index the array: x[i]");

  Scalar compute = *result;
  if (m.domain != MathDomain::Any) {
    // <cmath> computes in float only when every argument is float; otherwise in double
    // (integer arguments convert to double).
    bool allFloat = true;
    for (const ExprPtr& a : args) allFloat = allFloat && a->type.scalar == Scalar::F32;
    compute = floatForm || allFloat ? Scalar::F32 : Scalar::F64;
  }
  auto out = std::make_unique<Expr>(ExprKind::MathCall,
                                    Type::value(m.domain == MathDomain::Floating ? compute : *result),
                                    range(e->getSourceRange()));
  out->math = fn;
  for (ExprPtr& a : args) out->operands.push_back(convert(std::move(a), compute));
  if (out->type.scalar != *result) return convert(std::move(out), *result);
  return out;
}

}  // namespace culift::frontend
