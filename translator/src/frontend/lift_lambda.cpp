// Lambdas defined and called inside a lifted function, or passed to a function template. A
// lambda becomes a function of its own whose first parameters are its captures: a capture by
// reference binds the captured variable, a capture by copy binds a hidden copy the defining
// function makes where the lambda is defined (so later changes to the variable are not seen,
// as in C++), an array is passed as an array. A lambda never leaves the function that defines
// it: returning, copying a mutable one or storing one is diagnosed.
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/LambdaCapture.h"
#include "function_state.hpp"

namespace culift::frontend {
namespace {

StmtPtr makeStmt(StmtKind kind, SourceRange r) { return std::make_unique<Stmt>(kind, std::move(r)); }

// The expression under the wrappers a closure value passes through: conversions, temporaries,
// copies and moves of the closure object.
const clang::Expr* closureExpr(const clang::Expr* e) {
  for (;;) {
    e = e->IgnoreImplicit()->IgnoreParens();
    const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(e);
    if (!construct || construct->getNumArgs() != 1) return e;
    e = construct->getArg(0);
  }
}

// The capture of `captured` (a struct's is shared by the capture parameters of its leaves).
const clang::LambdaCapture& captureOf(const clang::LambdaExpr* lambda, const clang::ValueDecl* captured) {
  for (const clang::LambdaCapture& c : lambda->captures())
    if (c.capturesVariable() && c.getCapturedVar() == captured) return c;
  return *lambda->capture_begin();
}

bool copiesSomething(const clang::LambdaExpr* lambda) {
  for (const clang::LambdaCapture& c : lambda->captures())
    if (c.getCaptureKind() == clang::LCK_ByCopy) return true;
  return false;
}

}  // namespace

bool Lifter::isClosureType(clang::QualType t) {
  if (t.isNull()) return false;
  const clang::CXXRecordDecl* rd = t->getAsCXXRecordDecl();
  return rd && rd->isLambda();
}

std::optional<VarId> Lifter::capturedVar(const CaptureParam& p) {
  const auto* vd = llvm::dyn_cast<clang::VarDecl>(p.captured);
  if (p.arrayLeaf >= 0) {
    auto it = fs_->structArrays.find(vd);
    if (it == fs_->structArrays.end() || p.arrayLeaf >= static_cast<int>(it->second.size())) return std::nullopt;
    return it->second[static_cast<std::size_t>(p.arrayLeaf)];
  }
  if (p.leaf >= 0) {
    auto it = fs_->recordVars.find(vd);
    if (it == fs_->recordVars.end() || p.leaf >= static_cast<int>(it->second.size())) return std::nullopt;
    return it->second[static_cast<std::size_t>(p.leaf)];
  }
  auto it = fs_->vars.find(vd);
  if (it == fs_->vars.end()) return std::nullopt;
  return it->second;
}

bool Lifter::captureParams(const clang::LambdaExpr* lambda, std::vector<CaptureParam>& out) {
  out.clear();
  const bool report = !badLambdas_.count(lambda);
  bool ok = true;
  auto reject = [&](clang::SourceLocation where, std::string message, std::string hint = {}) {
    if (report) error(where, std::move(message), std::move(hint));
    ok = false;
  };
  const bool isMutable = lambda->isMutable();
  for (const clang::LambdaCapture& c : lambda->captures()) {
    if (!c.capturesVariable()) {
      reject(c.getLocation(), "a lambda capturing 'this' is not supported");
      continue;
    }
    const auto* vd = llvm::dyn_cast<clang::VarDecl>(c.getCapturedVar());
    if (!vd) {
      reject(c.getLocation(), "a lambda capturing a structured binding is not supported");
      continue;
    }
    const std::string name = vd->getNameAsString();
    const bool byRef = c.getCaptureKind() == clang::LCK_ByRef ||
                       (vd->getType()->isReferenceType() && vd->isInitCapture());
    const clang::QualType t = vd->getType().getNonReferenceType();
    CaptureParam p{vd, name, Type::value(Scalar::Void), Binding::Value};
    if (isClosureType(t)) {
      reject(c.getLocation(), "a lambda capturing another lambda ('" + name + "') is not supported",
             "pass the inner lambda to a function template instead");
      continue;
    }
    if (t->isPointerType()) {
      const clang::QualType pointee = t->getPointeeType();
      std::optional<Scalar> s = scalarOf(pointee);
      if (!s || vd->isInitCapture()) {
        reject(c.getLocation(), "capture '" + name + "' of type " + whyUnsupported(t) + " is not supported");
        continue;
      }
      p.type = Type::pointer(*s, pointee.isConstQualified());
    } else if (const clang::ConstantArrayType* records = ctx_.getAsConstantArrayType(t);
               records && isUserRecord(records->getElementType()) && !vd->isInitCapture()) {
      // A local array of structs, one array per leaf (ps_x, ps_v): each captured as an array is.
      const RecordLayout* layout = recordLayout(records->getElementType(), c.getLocation(), "capture '" + name + "'");
      if (!layout) {
        ok = false;
        continue;
      }
      const bool constElements = records->getElementType().isConstQualified();
      for (unsigned k = 0; k < layout->leaves.size(); ++k) {
        const RecordLeaf& leaf = layout->leaves[k];
        if (leaf.type.isArray()) {
          if (fs_->rejectedVars.count(vd)) ok = false;  // the declaration said so
          else
            reject(c.getLocation(), "capture '" + name + "': an array of structs with an array field ('" + leaf.path +
                                        "') is not supported");
          break;
        }
        CaptureParam q{vd, name + "_" + leaf.path,
                       Type::pointer(leaf.type.scalar, byRef ? constElements : !isMutable || constElements),
                       Binding::Value};
        q.arrayLeaf = static_cast<int>(k);
        out.push_back(std::move(q));
      }
      continue;
    } else if (ctx_.getAsArrayType(t) || stdArrayOf(t)) {
      // An array, a multi-dimensional one or a std::array: the captured array itself.
      const std::optional<ArrayShape> shape = arrayShape(t);
      if (!shape) {
        reject(c.getLocation(), "capture '" + name + "' of type " + whyUnsupported(t) + " is not supported");
        continue;
      }
      if (!byRef && shape->dims[0] == 0) {
        reject(c.getLocation(), "capture '" + name + "' of type " + whyUnsupported(t) + " is not supported");
        continue;
      }
      // By copy: the defining function's copy of the whole array, made where the lambda is
      // defined, which only a mutable lambda may change.
      p.type = Type::pointer(shape->scalar, byRef ? shape->constElements : !isMutable || shape->constElements);
    } else if (std::optional<Scalar> s = scalarOf(t)) {
      p.type = Type::value(*s);
      // A copy the lambda may not change binds as a const reference: the lambda reads its copy.
      const bool writable = byRef ? !t.isConstQualified() : isMutable && !t.isConstQualified();
      p.binding = writable ? Binding::Reference : Binding::ConstReference;
    } else if (isUserRecord(t) && !vd->isInitCapture()) {
      // A struct: one capture per leaf, each as a scalar (or an array, by reference only) is.
      const RecordLayout* layout = recordLayout(t, c.getLocation(), "capture '" + name + "'");
      if (!layout) {
        ok = false;
        continue;
      }
      const bool writable = byRef ? !t.isConstQualified() : isMutable && !t.isConstQualified();
      for (unsigned k = 0; k < layout->leaves.size(); ++k) {
        const RecordLeaf& leaf = layout->leaves[k];
        CaptureParam q{vd, name + "_" + leaf.path, leaf.type, Binding::Value, static_cast<int>(k)};
        if (leaf.type.isArray()) {
          // By copy: the defining function's hidden copy, passed as an array.
          q.type = Type::pointer(leaf.type.scalar, !writable);
        } else {
          q.binding = writable ? Binding::Reference : Binding::ConstReference;
        }
        out.push_back(std::move(q));
      }
      continue;
    } else {
      reject(c.getLocation(), "capture '" + name + "' of type " + whyUnsupported(t) + " is not supported");
      continue;
    }
    out.push_back(std::move(p));
  }
  if (!ok) badLambdas_.insert(lambda);
  return ok;
}

StmtPtr Lifter::closureDecl(const clang::VarDecl* v) {
  const std::string name = v->getNameAsString();
  auto rejected = [&]() -> StmtPtr {
    fs_->rejectedVars.insert(v);
    return nullptr;
  };
  const clang::Expr* init = v->getInit() ? closureExpr(v->getInit()) : nullptr;
  if (!init) {
    error(v->getLocation(), "the lambda '" + name + "' must be initialized with a lambda expression");
    return rejected();
  }
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(init)) {
    // Another name for a closure: the same lambda over the same captures. Only a copy of a
    // mutable lambda has state of its own.
    auto source = fs_->closures.find(ref->getDecl());
    if (source == fs_->closures.end()) {
      if (fs_->rejectedVars.count(llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))) return rejected();
      error(init->getExprLoc(), "the lambda '" + name + "' must be initialized with a lambda expression");
      return rejected();
    }
    if (!v->getType()->isReferenceType() && source->second.lambda->isMutable() &&
        copiesSomething(source->second.lambda)) {
      error(v->getLocation(), "copying the mutable lambda '" + ref->getDecl()->getNameAsString() + "' is not supported",
            "call the lambda by its own name, or bind a reference to it: auto& " + name + " = " +
                ref->getDecl()->getNameAsString() + ";");
      return rejected();
    }
    fs_->closures[v] = Closure{source->second.lambda, source->second.captures};
    StmtPtr nothing = makeStmt(StmtKind::Block, range(v->getSourceRange()));
    nothing->scoped = false;
    return nothing;
  }
  const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(init);
  if (!lambda) {
    const auto* call = llvm::dyn_cast<clang::CallExpr>(init);
    const clang::FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    if (callee)
      error(init->getBeginLoc(),
            "a lambda cannot leave the function that defines it: '" + callee->getQualifiedNameAsString() +
                "' returns one",
            "call the lambda inside the function, or pass it to a function template as an argument");
    else error(init->getBeginLoc(), "the lambda '" + name + "' must be initialized with a lambda expression");
    return rejected();
  }
  lambdas_[lambda->getLambdaClass()->getCanonicalDecl()] = lambda;
  std::vector<CaptureParam> params;
  if (!captureParams(lambda, params)) return rejected();

  // The hidden copies of the captures by copy, declared where the lambda is.
  StmtPtr group = makeStmt(StmtKind::Block, range(v->getSourceRange()));
  group->scoped = false;
  Closure closure{lambda, {}};
  for (const CaptureParam& p : params) {
    const clang::LambdaCapture& c = captureOf(lambda, p.captured);
    const auto* vd = llvm::cast<clang::VarDecl>(p.captured);
    if (vd->isInitCapture()) {
      // [s = expr]: a local of the defining function, named after the lambda.
      StmtPtr decl = varDecl(vd);
      auto id = fs_->vars.find(vd);
      if (!decl || id == fs_->vars.end()) return rejected();
      fs_->fn.vars[id->second].name = name + "_" + p.name;
      group->stmts.push_back(std::move(decl));
      closure.captures.push_back(id->second);
      continue;
    }
    std::optional<VarId> capturedId = capturedVar(p);
    if (!capturedId) {
      if (!fs_->rejectedVars.count(vd))
        error(c.getLocation(), "the lambda '" + name + "' captures '" + p.name + "', which cannot be used here");
      return rejected();
    }
    if (c.getCaptureKind() == clang::LCK_ByRef) {
      closure.captures.push_back(*capturedId);
      continue;
    }
    if (!p.type.isValue()) {  // an array, or an array field of a struct, captured by copy: a local copy of it
      const Type source = fs_->fn.vars[*capturedId].type;
      std::uint64_t extent = 0;
      if (p.arrayLeaf >= 0) {
        extent = ctx_.getAsConstantArrayType(vd->getType().getNonReferenceType())->getSize().getZExtValue();
      } else if (p.leaf >= 0) {
        const RecordLayout& layout = layoutOf(vd->getType().getNonReferenceType()->getAsRecordDecl());
        extent = layout.leaves[static_cast<std::size_t>(p.leaf)].type.extent;
      } else if (const std::optional<ArrayShape> shape = arrayShape(vd->getType().getNonReferenceType())) {
        extent = shape->elements();
      }
      Var copy;
      copy.name = name + "_" + p.name;
      copy.type = Type::array(source.scalar, extent);
      copy.range = range(c.getLocation());
      const VarId id = static_cast<VarId>(fs_->fn.vars.size());
      fs_->fn.vars.push_back(std::move(copy));
      StmtPtr decl = makeStmt(StmtKind::Decl, range(v->getSourceRange()));
      decl->var = id;
      decl->arrayInitialized = true;
      for (std::uint64_t k = 0; k < fs_->fn.vars[id].type.extent; ++k) {
        auto index = std::make_unique<Expr>(ExprKind::IntLiteral, Type::value(Scalar::I32), range(c.getLocation()));
        index->intBits = k;
        auto element = std::make_unique<Expr>(ExprKind::Subscript, Type::value(source.scalar), range(c.getLocation()));
        element->operands.push_back(varRef(*capturedId, c.getLocation()));
        element->operands.push_back(std::move(index));
        decl->inits.push_back(std::move(element));
      }
      group->stmts.push_back(std::move(decl));
      closure.captures.push_back(id);
      continue;
    }
    Var copy;
    copy.name = name + "_" + p.name;
    copy.type = p.type;
    copy.range = range(c.getLocation());
    const VarId id = static_cast<VarId>(fs_->fn.vars.size());
    fs_->fn.vars.push_back(std::move(copy));
    StmtPtr decl = makeStmt(StmtKind::Decl, range(v->getSourceRange()));
    decl->var = id;
    decl->expr = varRef(*capturedId, c.getLocation());
    group->stmts.push_back(std::move(decl));
    closure.captures.push_back(id);
  }
  fs_->closures[v] = std::move(closure);
  // Without copies to make, the declaration leaves nothing (an empty declaration group).
  if (group->stmts.size() == 1) return std::move(group->stmts.front());
  return group;
}

bool Lifter::closureArguments(const clang::Expr* arg, bool byValue, std::vector<ExprPtr>& out) {
  const clang::Expr* e = closureExpr(arg);
  const clang::SourceRange where = arg->getSourceRange();
  if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    auto closure = fs_->closures.find(ref->getDecl());
    if (closure == fs_->closures.end()) {
      if (referencesRejected(ref)) return false;
      error(e->getExprLoc(), "'" + ref->getDecl()->getNameAsString() + "' is not a lambda culift can pass");
      return false;
    }
    if (byValue && closure->second.lambda->isMutable() && copiesSomething(closure->second.lambda)) {
      error(e->getExprLoc(),
            "the mutable lambda '" + ref->getDecl()->getNameAsString() +
                "' is passed by copy: a copy of a mutable lambda is not supported",
            "take it by reference in the function template: F& f");
      return false;
    }
    for (VarId id : closure->second.captures) out.push_back(varRef(id, where));
    return true;
  }
  const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(e);
  if (!lambda) {
    error(arg->getExprLoc(), "only a lambda or the name of one can be passed here");
    return false;
  }
  lambdas_[lambda->getLambdaClass()->getCanonicalDecl()] = lambda;
  std::vector<CaptureParam> params;
  if (!captureParams(lambda, params)) return false;
  if (lambda->isMutable() && copiesSomething(lambda)) {
    error(lambda->getBeginLoc(), "a mutable lambda written in a call is not supported",
          "name it first: auto f = [...](...) mutable { ... }; and pass f");
    return false;
  }
  // Written in the call: the captures by copy are copies made now (explicit casts, so that both
  // backends bind the callee's const references to the copies, not to the variables).
  for (const CaptureParam& p : params) {
    const clang::LambdaCapture& c = captureOf(lambda, p.captured);
    const auto* vd = llvm::cast<clang::VarDecl>(p.captured);
    if (vd->isInitCapture()) {
      if (vd->getType()->isReferenceType()) {
        error(c.getLocation(), "a reference init-capture in a lambda written in a call is not supported",
              "name the lambda first: auto f = [...](...) { ... }; and pass f");
        return false;
      }
      ExprPtr value = expr(vd->getInit());
      if (!value) return false;
      out.push_back(convert(std::move(value), p.type.scalar, /*explicitCast=*/true));
      continue;
    }
    std::optional<VarId> captured = capturedVar(p);
    if (!captured) {
      if (!fs_->rejectedVars.count(vd))
        error(c.getLocation(), "the lambda captures '" + p.name + "', which cannot be used here");
      return false;
    }
    if (c.getCaptureKind() == clang::LCK_ByCopy && !p.type.isValue() && p.leaf >= 0) {
      const std::string var = vd->getNameAsString();
      error(c.getLocation(),
            "the struct '" + var + "' has an array field ('" + p.name.substr(var.size() + 1) +
                "'): a lambda written in a call cannot copy it",
            "name the lambda first: auto f = [...](...) { ... }; and pass f, or capture the struct by reference");
      return false;
    }
    ExprPtr value = varRef(*captured, where);
    if (c.getCaptureKind() == clang::LCK_ByCopy && p.type.isValue())
      value = convert(std::move(value), p.type.scalar, /*explicitCast=*/true);
    out.push_back(std::move(value));
  }
  return true;
}

ExprPtr Lifter::closureCall(const clang::CXXOperatorCallExpr* call) {
  const clang::SourceLocation where = call->getBeginLoc();
  const clang::Expr* object = closureExpr(call->getArg(0));
  if (llvm::isa<clang::LambdaExpr>(object))
    return fail(where, "a lambda called where it is written is not supported",
                "name it first: auto f = [...](...) { ... }; then call f(...)");
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(object);
  auto closure = ref ? fs_->closures.find(ref->getDecl()) : fs_->closures.end();
  if (closure == fs_->closures.end()) {
    if (referencesRejected(object)) return nullptr;
    return fail(where, "only a lambda named in this function can be called",
                "define the lambda in the function that calls it, or pass it to a function template");
  }
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
  const clang::FunctionDecl* def = method ? method->getDefinition() : nullptr;
  if (!def || !def->hasBody()) return fail(where, "the body of this lambda cannot be seen");

  std::optional<Scalar> result;
  if (isClosureType(call->getType()))
    return fail(where, "a lambda cannot leave the function that defines it: this lambda returns one");
  if (!call->getType()->isVoidType()) {
    result = valueType(call->getType(), where);
    if (!result) return nullptr;
  }
  std::vector<ExprPtr> args, effects;
  bool ok = true;
  for (VarId id : closure->second.captures) args.push_back(varRef(id, call->getArg(0)->getSourceRange()));
  for (unsigned k = 1; k < call->getNumArgs(); ++k) {
    const clang::ParmVarDecl* param = k - 1 < def->getNumParams() ? def->getParamDecl(k - 1) : nullptr;
    ok = pushArgument(call->getArg(k), param, args, effects) && ok;
  }
  const FuncId id = enqueue(def, false, {});
  lambdaOf_[id] = closure->second.lambda;
  edges_.push_back({fs_->id, id, where});
  if (!ok) return nullptr;
  auto out = std::make_unique<Expr>(ExprKind::Call, Type::value(result.value_or(Scalar::Void)),
                                    range(call->getSourceRange()));
  out->callee = id;
  out->operands = std::move(args);
  return sequence(std::move(effects), std::move(out));
}

}  // namespace culift::frontend
