// Mapping Clang types onto culift's scalar types and shapes (typedefs, aliases and <cstdint>
// names through canonical types; integers by size and signedness, so `long` is 64-bit here).
#include "clang/AST/Type.h"
#include "function_state.hpp"

namespace culift::frontend {
namespace {
const char* kArrayParamHint = "pass scalars by value and arrays as pointers: const float* x (input), float* x (output)";
}

std::optional<Scalar> Lifter::scalarOf(clang::QualType t) const {
  if (t.isNull()) return std::nullopt;
  clang::QualType c = t.getCanonicalType().getUnqualifiedType();
  if (const auto* et = c->getAs<clang::EnumType>()) {
    clang::QualType underlying = et->getDecl()->getIntegerType();
    if (underlying.isNull()) return std::nullopt;
    c = underlying.getCanonicalType().getUnqualifiedType();
  }
  const auto* bt = llvm::dyn_cast<clang::BuiltinType>(c);
  if (!bt) return std::nullopt;
  switch (bt->getKind()) {
    case clang::BuiltinType::Bool: return Scalar::Bool;
    case clang::BuiltinType::Float: return Scalar::F32;
    case clang::BuiltinType::Double: return Scalar::F64;
    case clang::BuiltinType::Char_S:
    case clang::BuiltinType::Char_U:
    case clang::BuiltinType::SChar:
    case clang::BuiltinType::UChar:
    case clang::BuiltinType::Short:
    case clang::BuiltinType::UShort:
    case clang::BuiltinType::Int:
    case clang::BuiltinType::UInt:
    case clang::BuiltinType::Long:
    case clang::BuiltinType::ULong:
    case clang::BuiltinType::LongLong:
    case clang::BuiltinType::ULongLong: {
      const bool isSigned = c->isSignedIntegerType();
      switch (ctx_.getTypeSize(c)) {
        case 8: return isSigned ? Scalar::I8 : Scalar::U8;
        case 16: return isSigned ? Scalar::I16 : Scalar::U16;
        case 32: return isSigned ? Scalar::I32 : Scalar::U32;
        case 64: return isSigned ? Scalar::I64 : Scalar::U64;
        default: return std::nullopt;
      }
    }
    default: return std::nullopt;
  }
}

std::string Lifter::whyUnsupported(clang::QualType t) const {
  return "'" + t.getAsString(clang::PrintingPolicy(ctx_.getLangOpts())) + "'";
}

std::optional<Type> Lifter::paramType(const clang::ParmVarDecl* p, Binding& binding) {
  const clang::QualType t = p->getType();
  const std::string name = "'" + p->getNameAsString() + "'";
  const clang::SourceLocation where = p->getLocation().isValid() ? p->getLocation() : p->getBeginLoc();
  binding = Binding::Value;
  if (t->isReferenceType()) {
    const clang::QualType referent = t.getNonReferenceType();
    ShapeProblem problem;
    clang::QualType element;
    // A helper's reference to a std::array or an array: the caller's array, as a pointer.
    if (std::optional<ArrayShape> shape = arrayShape(referent, problem, element); shape && !fs_->fn.annotated)
      return Type::pointer(shape->scalar, shape->constElements);
    std::optional<Scalar> s = scalarOf(referent);
    // A kernel's parameters come from the host, per launch: values and arrays only.
    if (!s || fs_->fn.annotated) {
      error(where, "reference parameter " + name + " of type " + whyUnsupported(t) + " is not supported",
            fs_->fn.annotated ? kArrayParamHint
                              : "references to scalars (float&, const float&) are supported; pass arrays as pointers");
      return std::nullopt;
    }
    binding = referent.isConstQualified() ? Binding::ConstReference : Binding::Reference;
    return Type::value(*s);
  }
  if (t->isPointerType()) {
    clang::QualType pointee = t->getPointeeType();
    if (pointee->isArrayType()) {
      // T A[][C] or T (*A)[C]: rows of constant extents, one flat array for culift.
      ShapeProblem problem;
      clang::QualType element;
      if (std::optional<ArrayShape> shape = arrayShape(pointee, problem, element))
        return Type::pointer(shape->scalar, shape->constElements);
      if (problem == ShapeProblem::VariableLength) {
        error(where,
              "the inner extents of the multi-dimensional array parameter " + name + " of type " + whyUnsupported(t) +
                  " must be constants",
              "give the inner dimensions constant sizes (const float A[][64]), or pass a flat array and index it: "
              "x[i * cols + j]");
        return std::nullopt;
      }
      if (problem == ShapeProblem::Element) {
        error(where, "parameter " + name + " points to unsupported type " + whyUnsupported(element), kArrayParamHint);
        return std::nullopt;
      }
    }
    if (pointee->isPointerType() || pointee->isArrayType()) {
      error(where, "pointer-to-pointer parameter " + name + " of type " + whyUnsupported(t) + " is not supported",
            "pass a flat array and index it: x[i * cols + j]");
      return std::nullopt;
    }
    if (std::optional<Scalar> s = scalarOf(pointee)) return Type::pointer(*s, pointee.isConstQualified());
    error(where, "parameter " + name + " points to unsupported type " + whyUnsupported(pointee),
          pointee->isRecordType() ? "arrays of structs of your own types are supported (every field one scalar type); "
                                    "library types are not: pass one array per field"
                                  : kArrayParamHint);
    return std::nullopt;
  }
  if (std::optional<Scalar> s = scalarOf(t)) return Type::value(*s);
  if (stdArrayOf(t)) {
    ShapeProblem problem;
    clang::QualType element;
    std::optional<ArrayShape> shape = arrayShape(t, problem, element);
    if (shape && !fs_->fn.annotated) return Type::pointer(shape->scalar, true);  // copied by the callee
    if (!shape) {
      error(where, "parameter " + name + " is a std::array of unsupported element type " + whyUnsupported(element),
            "supported: std::array of bool, char, the integer types, float and double");
      return std::nullopt;
    }
    error(where, "std::array parameter " + name + " of a kernel is not supported", kArrayParamHint);
    return std::nullopt;
  }
  if (t->isRecordType()) {
    // Value structs of the user's code are lifted by recordParam; what is left are library types.
    error(where, "parameter " + name + " has class type " + whyUnsupported(t) + ": library types are not supported",
          "pass scalars, arrays as pointers, or a value struct of your own");
  } else {
    error(where, "parameter " + name + " has unsupported type " + whyUnsupported(t),
          "supported: bool, char, the integer types, float, double, and pointers to them");
  }
  return std::nullopt;
}

std::optional<Type> Lifter::localType(const clang::VarDecl* v) {
  const clang::QualType t = v->getType();
  const std::string name = "'" + v->getNameAsString() + "'";
  const clang::SourceLocation where = v->getLocation();
  if (t->isReferenceType()) {
    if (std::optional<Scalar> s = scalarOf(t.getNonReferenceType())) return Type::value(*s);
    error(where, "reference variable " + name + " of type " + whyUnsupported(t) + " is not supported",
          "references to scalars (float&, const float&) are supported; index an array directly");
    return std::nullopt;
  }
  if (t->isPointerType()) {
    error(where, "local pointer variable " + name + " is not supported", "index the array instead: x[i * cols + k]");
    return std::nullopt;
  }
  if (ctx_.getAsArrayType(t) || stdArrayOf(t)) {
    // T v[N], T m[R][C], std::array<T, N> (nested too): one flat array of R*C elements.
    ShapeProblem problem;
    clang::QualType element;
    std::optional<ArrayShape> shape = arrayShape(t, problem, element);
    if (shape) return Type::array(shape->scalar, shape->elements(), shape->constElements);
    if (problem == ShapeProblem::VariableLength) {
      error(where, "variable-length array " + name + " is not supported", "give the array a constant size");
      return std::nullopt;
    }
    if (problem == ShapeProblem::TooLarge) {
      error(where, "local array " + name + " is too large");
      return std::nullopt;
    }
    if (stdArrayOf(t) && !ctx_.getAsArrayType(element) && !element->isRecordType()) {
      error(where, "std::array " + name + " has unsupported element type " + whyUnsupported(element),
            "supported: std::array of bool, char, the integer types, float and double");
      return std::nullopt;
    }
    if (isClosureType(element)) {
      error(where, "a lambda cannot be stored in an array ('" + v->getNameAsString() + "')",
            "call the lambda where it is defined, or pass it to a function template");
      return std::nullopt;
    }
    error(where, "local array " + name + " has unsupported element type " + whyUnsupported(element));
    return std::nullopt;
  }
  if (std::optional<Scalar> s = scalarOf(t)) return Type::value(*s);
  if (const clang::CXXRecordDecl* rd = t->getAsCXXRecordDecl(); rd && rd->isLambda()) {
    error(where, "lambdas are not supported", "write a separate function: culift lifts the functions a kernel calls");
    return std::nullopt;
  }
  if (t->isRecordType()) {
    // Value structs of the user's code are lifted by recordDecl; what is left are library types.
    error(where,
          "local variable " + name + " has class type " + whyUnsupported(t) + ": library types are not supported",
          "use scalar variables, a fixed-size array such as float v[6], or a value struct of your own");
  } else {
    error(where, "local variable " + name + " has unsupported type " + whyUnsupported(t),
          "supported: bool, char, the integer types, float, double, and fixed-size arrays and std::arrays of them");
  }
  return std::nullopt;
}

std::optional<Scalar> Lifter::valueType(clang::QualType t, clang::SourceLocation where) {
  if (std::optional<Scalar> s = scalarOf(t)) return s;
  error(where, "expression of type " + whyUnsupported(t) + " is not supported",
        "supported: bool, char, the integer types, float and double");
  return std::nullopt;
}

}  // namespace culift::frontend
