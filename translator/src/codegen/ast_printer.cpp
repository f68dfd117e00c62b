#include "ast_printer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "culift/ast/stack.hpp"
#include "literal_spelling.hpp"

namespace culift::codegen {
namespace {

std::string stripped(const LiteralText& t) { return t.parenthesized ? t.text.substr(1, t.text.size() - 2) : t.text; }

std::string castSpelling(const Type& t) { return "(" + toString(t) + ")"; }

// signed char, short and their unsigned forms: the device computes with them in 32 bits.
bool isNarrowInteger(Scalar s) { return isInteger(s) && byteSize(s) < 4; }

// Integer conversions that go through the prelude's culift_narrow on the device: to a char or
// short from a wider integer (see AstPrinter::narrowResult), and to int from an unsigned int or a
// 64-bit integer, which wraps modulo 2^32 where the value does not fit. Left to it, the device
// compiler's optimizer took the 64-bit extension of such an int for the extension of its operand
// plus the constant (`(long long)(int)((unsigned)m + 0xfffffffdu)` as `(long long)m - 3`, wrong
// for m below INT_MIN + 3; seed 20261206, program 2940 of the GPU leg, reduced).
bool hiddenConversion(Scalar target, Scalar source) {
  if (!isInteger(source)) return false;
  if (isNarrowInteger(target)) return byteSize(source) >= 4;
  return target == Scalar::I32 && (source == Scalar::U32 || byteSize(source) == 8);
}


// An expression of literals only ((-2147483647) - 1), which the device compiler folds whole.
bool literalsOnly(const Expr& e) {
  bool only = true;
  visitExprs(e, [&](const Expr& x) {
    only = only && (x.kind == ExprKind::IntLiteral || x.kind == ExprKind::FloatLiteral ||
                    x.kind == ExprKind::BoolLiteral || x.kind == ExprKind::Unary || x.kind == ExprKind::Binary ||
                    x.kind == ExprKind::Cast || x.kind == ExprKind::Conditional);
    return only;
  });
  return only;
}

// An integer or bool of literals only converted to a floating type: a constant to the device
// compiler, possibly a zero it then treats as no C++ zero (culift_zero in the prelude says how).
// A literal known to be nonzero ((float)16777217, which rounds) is no zero.
bool foldedToFloating(const Expr& operand, Scalar target) {
  if (!isFloating(target) || !operand.type.isValue() || isFloating(operand.type.scalar) || !literalsOnly(operand))
    return false;
  const auto c = constantOf(operand);
  return !c || c->u == 0;
}

// A floating divisor the device compiler may take for a number when it is not: it assumes a
// quotient of two numbers is a number, so that for `v = 33.0f; v -= v; v /= v;` it drops a
// later `v != v` (0/0 is NaN). The divisor goes through culift_opaque unless it is a finite,
// nonzero literal (x / 2.0f stays a multiplication by 0.5f).
bool opaqueDivisor(const Expr& divisor) {
  if (auto c = constantOf(divisor); c && c->isFloat) return !(std::isfinite(c->f) && c->f != 0);
  return true;
}

// A left shift of a 64-bit integer by a constant count (`16`, `16ull & 63`): the count goes
// through culift_hide. The device assembler, given five steps of `s = (s - 23) << 16` (the start
// shifted out after four), took the value after the third step for the fourth's and the fifth's
// (GPU leg, seed 20261220, p4210); with a count it cannot see, it computes each step.
bool hiddenShiftCount(BinaryOp op, Scalar shifted, const Expr& count) {
  return op == BinaryOp::Shl && isInteger(shifted) && byteSize(shifted) == 8 && literalsOnly(count);
}

std::string fileBaseName(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

Scalar mathComputationType(const Expr& call) {
  const MathFnInfo& m = info(call.math);
  const Scalar firstArg = call.operands.empty() ? Scalar::Void : call.operands[0]->type.scalar;
  switch (m.domain) {
    case MathDomain::Floating: return isFloating(call.type.scalar) ? call.type.scalar : firstArg;
    case MathDomain::Classify: return firstArg;
    case MathDomain::Any: return call.type.scalar;
  }
  return call.type.scalar;
}

AstPrinter::AstPrinter(const Module& module, const Function& function, Flavor flavor, CodeWriter& out)
    : module_(module), fn_(function), flavor_(flavor), out_(out) {
  // A local named like a function the body calls (`float sqrtf = ...; sqrtf(x)`) would hide
  // that function in the emitted code, where C++ named it through std::. Rename such locals.
  std::unordered_set<std::string> called;
  // This walk and the printing recurse as deep as the body is nested: on culift's stack.
  if (fn_.body) runOnCuliftStack([&] { collectCalleeNames(*fn_.body, called); });
  names_.reserve(fn_.vars.size());
  for (VarId id = 0; id < fn_.vars.size(); ++id) {
    const std::string& name = fn_.vars[id].name;
    if (name.empty()) names_.push_back("culift_v" + std::to_string(id));
    else if (called.count(name)) names_.push_back(name + "_" + std::to_string(id));
    else names_.push_back(name);
  }
}

std::string AstPrinter::declarator(const Type& type, const std::string& name) {
  std::string s;
  if (type.constElements && !type.isValue()) s += "const ";
  s += spelling(type.scalar);
  if (type.isPointer()) return s + "* " + name;
  s += ' ';
  s += name;
  if (type.isArray()) s += "[" + std::to_string(type.extent) + "]";
  return s;
}

std::string AstPrinter::declarator(const Var& var, const std::string& name) {
  switch (var.binding) {
    case Binding::Value: break;
    case Binding::Reference: return std::string(spelling(var.type.scalar)) + "& " + name;
    case Binding::ConstReference: return "const " + std::string(spelling(var.type.scalar)) + "& " + name;
  }
  return declarator(var.type, name);
}

std::string AstPrinter::calleeName(FuncId id) const {
  if (id >= module_.functions.size()) throw std::logic_error("call to a function the module does not hold");
  const Function& callee = module_.functions[id];
  return callee.deviceName.empty() ? callee.name : callee.deviceName;
}

std::string AstPrinter::parameterList() const {
  std::string s;
  for (unsigned p = 0; p < fn_.numParams; ++p) {
    if (p) s += ", ";
    s += declarator(fn_.vars[p], names_[p]);
  }
  return s;
}

// ---- statements ---------------------------------------------------------------------------

void AstPrinter::printBody(unsigned indent) {
  if (!fn_.body) return;
  runOnCuliftStack([&] {
    if (fn_.body->kind == StmtKind::Block) block(*fn_.body, indent);
    else stmt(*fn_.body, indent);
  });
}

void AstPrinter::block(const Stmt& s, unsigned indent) {
  for (const StmtPtr& child : s.stmts) stmt(*child, indent);
}

// `head {`, the body's statements, `tail`. A block body shares the braces: the same scope.
void AstPrinter::bracedBody(const std::string& head, const Stmt& body, unsigned indent, const std::string& tail) {
  out_.line(indent, head);
  if (body.kind == StmtKind::Block && body.scoped) block(body, indent + 1);
  else stmt(body, indent + 1);
  if (!tail.empty()) out_.line(indent, tail);
}

std::string AstPrinter::declaration(const Stmt& decl) {
  const Var& v = fn_.vars.at(decl.var);
  std::string s = declarator(v, names_[decl.var]);
  if (v.type.isArray()) {
    if (decl.arrayInitialized) {
      s += " = {";
      for (size_t k = 0; k < decl.inits.size(); ++k) {
        if (k) s += ", ";
        s += argument(*decl.inits[k]);  // a comma expression would end the element
      }
      s += "}";
    }
  } else if (decl.expr) {
    s += " = " + argument(*decl.expr);  // a comma expression would start another declarator
  }
  return s;
}

void AstPrinter::stmt(const Stmt& s, unsigned indent) {
  if (s.kind != StmtKind::Block) out_.mapToUser(s.range.begin);
  switch (s.kind) {
    case StmtKind::Block:
      if (!s.scoped) {
        block(s, indent);  // a declaration group: its declarations one after another
        return;
      }
      out_.mapToUser(s.range.begin);
      out_.line(indent, "{");
      block(s, indent + 1);
      out_.line(indent, "}");
      return;
    case StmtKind::Decl:
      if (rewrites_ && rewrites_->dropped.count(s.var)) return;
      if (rewrites_ && rewrites_->hoisted.count(s.var)) {
        if (s.expr && rewrites_->plainZero.count(s.var) && s.expr->kind == ExprKind::FloatLiteral &&
            s.expr->floatValue == 0) {
          const bool single = s.expr->type.scalar == Scalar::F32;
          const char* zero = std::signbit(s.expr->floatValue) ? (single ? "-0.0f" : "-0.0") : (single ? "0.0f" : "0.0");
          out_.line(indent, rewrites_->vars.at(s.var) + " = " + zero + ";");
          return;
        }
        if (s.expr) out_.line(indent, rewrites_->vars.at(s.var) + " = " + assignedValue(*s.expr) + ";");
        return;
      }
      out_.line(indent, declaration(s) + ";");
      return;
    case StmtKind::ExprStmt: out_.line(indent, top(*s.expr) + ";"); return;
    case StmtKind::If: {
      bracedBody("if (" + top(*s.cond) + ") {", *s.then, indent, "");
      const Stmt* otherwise = s.otherwise.get();
      while (otherwise) {
        if (otherwise->kind == StmtKind::If) {
          out_.mapToUser(otherwise->range.begin);
          bracedBody("} else if (" + top(*otherwise->cond) + ") {", *otherwise->then, indent, "");
          otherwise = otherwise->otherwise.get();
        } else {
          bracedBody("} else {", *otherwise, indent, "");
          otherwise = nullptr;
        }
      }
      out_.line(indent, "}");
      return;
    }
    case StmtKind::For: forLoop(s, indent); return;
    case StmtKind::While: bracedBody("while (" + top(*s.cond) + ") {", *s.body, indent); return;
    case StmtKind::DoWhile:
      bracedBody("do {", *s.body, indent, "");
      out_.mapToUser(s.cond->range.begin);
      out_.line(indent, "} while (" + top(*s.cond) + ");");
      return;
    case StmtKind::Break: out_.line(indent, "break;"); return;
    case StmtKind::Continue: out_.line(indent, "continue;"); return;
    case StmtKind::Return:
      if (rewrites_ && rewrites_->returns) {
        // The value lands in a declaration or an assignment: a comma expression keeps its parentheses.
        out_.line(indent, rewrites_->returns(s.expr ? argument(*s.expr) : std::string()));
        return;
      }
      out_.line(indent, s.expr ? "return " + top(*s.expr) + ";" : "return;");
      return;
    case StmtKind::Switch: switchStmt(s, indent); return;
    case StmtKind::Case:
    case StmtKind::Default:
      // Labels are printed by switchStmt; one elsewhere still prints as written.
      out_.line(indent, s.kind == StmtKind::Default ? "default:" : "case " + std::to_string(s.caseValue) + ":");
      return;
    case StmtKind::Null: out_.line(indent, ";"); return;
  }
}

// The init of a for header: one declaration, a declaration group of one type
// (`int a = 0, b = n`) or an expression. Anything else is hoisted into an enclosing block.
std::string AstPrinter::forInit(const Stmt& init, bool& hoist) {
  hoist = false;
  switch (init.kind) {
    case StmtKind::Null: return "";
    case StmtKind::Decl: return declaration(init);
    case StmtKind::ExprStmt: return top(*init.expr);
    case StmtKind::Block: {
      if (init.scoped || init.stmts.empty()) break;
      const Stmt& first = *init.stmts[0];
      if (first.kind != StmtKind::Decl) break;
      const Type type = fn_.vars.at(first.var).type;
      if (!type.isValue()) break;
      for (const StmtPtr& d : init.stmts)
        if (d->kind != StmtKind::Decl || fn_.vars.at(d->var).type != type || fn_.vars.at(d->var).isReference())
          hoist = true;
      if (hoist) break;
      std::string s = declaration(first);
      for (size_t k = 1; k < init.stmts.size(); ++k) {
        const Stmt& d = *init.stmts[k];
        s += ", " + names_[d.var];
        if (d.expr) s += " = " + argument(*d.expr);
      }
      return s;
    }
    default: break;
  }
  hoist = true;
  return "";
}

void AstPrinter::forLoop(const Stmt& s, unsigned indent) {
  if (rewrites_ && rewrites_->unrolled.count(&s)) out_.line(indent, "#pragma unroll");
  bool hoist = false;
  std::string init = s.init ? forInit(*s.init, hoist) : "";
  // "; cond; inc) {", with no stray blanks where a part is empty: `for (;;)`.
  const std::string rest = ";" + (s.cond ? " " + top(*s.cond) : std::string()) + ";" +
                           (s.expr ? " " + top(*s.expr) : std::string()) + ") {";
  if (!hoist) {
    bracedBody("for (" + init + rest, *s.body, indent);
    return;
  }
  // Declarations of different types in the init: an enclosing block gives them the scope
  // the for statement gave them.
  out_.line(indent, "{");
  stmt(*s.init, indent + 1);
  out_.mapToUser(s.range.begin);
  bracedBody("for (" + rest, *s.body, indent + 1);
  out_.line(indent, "}");
}

void AstPrinter::switchStmt(const Stmt& s, unsigned indent) {
  const Scalar condType = s.cond->type.scalar;
  out_.line(indent, "switch (" + top(*s.cond) + ") {");
  if (s.body->kind == StmtKind::Block && s.body->scoped) {
    bool endsWithLabel = false;
    for (const StmtPtr& child : s.body->stmts) {
      if (child->kind == StmtKind::Case || child->kind == StmtKind::Default) {
        out_.mapToUser(child->range.begin);
        out_.line(indent + 1, child->kind == StmtKind::Default
                                  ? std::string("default:")
                                  : "case " + stripped(integerLiteral(child->caseValue, condType)) + ":");
        endsWithLabel = true;
      } else {
        stmt(*child, indent + 2);
        endsWithLabel = false;
      }
    }
    // A label must label a statement: a final `case 3:` labels an empty one, as in C++23.
    if (endsWithLabel) out_.line(indent + 2, ";");
  } else {
    stmt(*s.body, indent + 1);
  }
  out_.line(indent, "}");
}

// ---- expressions --------------------------------------------------------------------------

std::string AstPrinter::top(const Expr& e) {
  Printed p = expr(e);
  if (p.parenthesized) return p.text.substr(1, p.text.size() - 2);
  return std::move(p.text);
}

std::string AstPrinter::argument(const Expr& e) {
  if (e.kind == ExprKind::Comma) return expr(e).text;
  return top(e);
}

// The right side of `=` or `op=`: whole, except nested assignments and commas, which keep
// their parentheses to be read at a glance.
std::string AstPrinter::assignedValue(const Expr& e) {
  if (e.kind == ExprKind::Assign || e.kind == ExprKind::CompoundAssign || e.kind == ExprKind::Comma)
    return expr(e).text;
  return top(e);
}

std::string AstPrinter::convertedTo(const Expr& e, Scalar s) {
  if (!e.type.isValue() || e.type.scalar == s || s == Scalar::Void) return assignedValue(e);
  if (flavor_ == Flavor::Cuda) {
    if (auto c = constantOf(e))
      if (auto folded = foldExactCast(*c, s)) return stripped(*folded);
    // As in cast(): an integer constant becoming a floating one stays out of the device compiler's sight.
    if (foldedToFloating(e, s)) return "culift_opaque((" + std::string(spelling(s)) + ")" + expr(e).text + ")";
  }
  return "(" + std::string(spelling(s)) + ")" + expr(e).text;
}

AstPrinter::Printed AstPrinter::expr(const Expr& e) {
  const auto wrap = [](std::string s) { return Printed{"(" + s + ")", true}; };
  if (rewrites_) {
    if (auto it = rewrites_->exprs.find(&e); it != rewrites_->exprs.end()) return {it->second, false};
    if (e.kind == ExprKind::VarRef)
      if (auto it = rewrites_->vars.find(e.var); it != rewrites_->vars.end()) return {it->second, false};
  }
  switch (e.kind) {
    case ExprKind::IntLiteral: {
      LiteralText t = integerLiteral(e.intBits, e.type.scalar);
      return {std::move(t.text), t.parenthesized};
    }
    case ExprKind::FloatLiteral: {
      const double v = e.type.scalar == Scalar::F32 ? static_cast<float>(e.floatValue) : e.floatValue;
      LiteralText t = floatingLiteral(v, e.type.scalar, flavor_ == Flavor::Cuda);
      return {std::move(t.text), t.parenthesized};
    }
    case ExprKind::BoolLiteral: return {e.intBits ? "true" : "false", false};
    case ExprKind::VarRef: return {names_.at(e.var), false};
    case ExprKind::Subscript: {
      const Expr& base = *e.operands[0];
      std::string b = expr(base).text;
      if (base.kind != ExprKind::VarRef && base.kind != ExprKind::Subscript) b = "(" + b + ")";
      return {b + "[" + top(*e.operands[1]) + "]", false};
    }
    case ExprKind::Unary:
      // A floating negation flips the sign bit through the prelude's culift_neg: the device
      // assembler negated a value it knew to be zero as an integer (-|x| with x = +0.0 became
      // +0.0 once |x| == 0 had been tested).
      // A negated literal is the negative literal: the device assembler, once it had folded
      // `36.0f < culift_neg(7.5f)` to false, ran a loop holding `if (...) break;` once instead of
      // twice (GPU leg, seed 20261207, p136).
      if (flavor_ == Flavor::Cuda && e.unaryOp == UnaryOp::Neg && isFloating(e.type.scalar)) {
        const Expr& x = *e.operands[0];
        if (x.kind == ExprKind::FloatLiteral && x.type.scalar == e.type.scalar) {
          const double v = e.type.scalar == Scalar::F32 ? static_cast<float>(x.floatValue) : x.floatValue;
          LiteralText t = floatingLiteral(-v, e.type.scalar, true);
          return {std::move(t.text), t.parenthesized};
        }
        return {"culift_neg(" + argument(x) + ")", false};
      }
      return wrap(std::string(spelling(e.unaryOp)) + expr(*e.operands[0]).text);
    case ExprKind::Binary:
      if (flavor_ == Flavor::Cuda && e.binaryOp == BinaryOp::Div && isFloating(e.type.scalar) &&
          opaqueDivisor(*e.operands[1]))
        return wrap(expr(*e.operands[0]).text + " / culift_opaque(" + argument(*e.operands[1]) + ")");
      if (flavor_ == Flavor::Cuda && hiddenShiftCount(e.binaryOp, e.type.scalar, *e.operands[1]))
        return wrap(expr(*e.operands[0]).text + " << culift_hide(" + argument(*e.operands[1]) + ")");
      return wrap(expr(*e.operands[0]).text + " " + std::string(spelling(e.binaryOp)) + " " +
                  expr(*e.operands[1]).text);
    case ExprKind::Assign: return wrap(expr(*e.operands[0]).text + " = " + assignedValue(*e.operands[1]));
    case ExprKind::CompoundAssign: {
      // `x op= rhs` is what C++ computes: (T)((computeType)x op rhs), and it evaluates an
      // element lvalue `a[f(i)]` once. The rhs is in the computation type unless the op is a
      // shift (operands promoted separately).
      const Expr& rhs = *e.operands[1];
      std::string r = (isShift(e.binaryOp) || e.computeType == Scalar::Void) ? assignedValue(rhs)
                                                                             : convertedTo(rhs, e.computeType);
      if (flavor_ == Flavor::Cuda && isNarrowInteger(e.operands[0]->type.scalar) && isInteger(e.computeType))
        return narrowCompoundAssign(e, r);
      if (flavor_ == Flavor::Cuda && e.binaryOp == BinaryOp::Div && isFloating(e.computeType) && opaqueDivisor(rhs))
        r = "culift_opaque(" + r + ")";
      if (flavor_ == Flavor::Cuda && hiddenShiftCount(e.binaryOp, e.operands[0]->type.scalar, rhs))
        r = "culift_hide(" + r + ")";
      return wrap(expr(*e.operands[0]).text + " " + std::string(spelling(e.binaryOp)) + "= " + r);
    }
    case ExprKind::IncDec: {
      const std::string op(spelling(e.incDecOp));
      const std::string target = expr(*e.operands[0]).text;
      if (flavor_ == Flavor::Cuda && isNarrowInteger(e.operands[0]->type.scalar)) {
        // Through the device prelude, in 32 bits (see narrowResult).
        const bool inc = e.incDecOp == IncDecOp::PreInc || e.incDecOp == IncDecOp::PostInc;
        return {std::string("culift_") + (isPrefix(e.incDecOp) ? "pre_" : "post_") + (inc ? "inc(" : "dec(") +
                    top(*e.operands[0]) + ")",
                false};
      }
      return wrap(isPrefix(e.incDecOp) ? op + target : target + op);
    }
    case ExprKind::Conditional:
      return wrap(expr(*e.operands[0]).text + " ? " + expr(*e.operands[1]).text + " : " + expr(*e.operands[2]).text);
    case ExprKind::Cast: return cast(e);
    case ExprKind::Call: {
      std::string s = calleeName(e.callee) + "(";
      for (size_t k = 0; k < e.operands.size(); ++k) {
        if (k) s += ", ";
        s += argument(*e.operands[k]);
      }
      return {s + ")", false};
    }
    case ExprKind::MathCall: return mathCall(e);
    case ExprKind::AtomicRmw: return atomic(e);
    case ExprKind::Comma: return wrap(top(*e.operands[0]) + ", " + top(*e.operands[1]));
    case ExprKind::Assert:
      if (flavor_ == Flavor::Pseudocode) return {"assert(" + top(*e.operands[0]) + ")", false};
      // The device prelude's culift_assert: checked only when compiled with CULIFT_DEVICE_ASSERTS.
      return {"culift_assert(" + top(*e.operands[0]) + ", " + stringLiteral(e.text) + ", " +
                  stringLiteral(fileBaseName(e.range.begin.file)) + ", " + std::to_string(e.range.begin.line) + ")",
              false};
  }
  throw std::logic_error("unknown expression kind");
}

AstPrinter::Printed AstPrinter::cast(const Expr& e) {
  const Expr& operand = *e.operands[0];
  // No conversion at all: an implicit no-op, or a cast of a value already cast to the type.
  if (operand.type == e.type && (!e.explicitCast || operand.kind == ExprKind::Cast)) return expr(operand);
  if (flavor_ == Flavor::Cuda && e.type.isValue()) {
    if (auto c = constantOf(operand)) {
      if (auto folded = foldExactCast(*c, e.type.scalar)) return {folded->text, folded->parenthesized};
    }
  }
  // An integer constant the fold above could not spell (a cast of a cast, arithmetic of literals)
  // converted to a floating type: the device compiler folds it whole, and a floating constant
  // zero is what culift_zero keeps from it (the prelude says why), so the value goes through
  // culift_opaque: `m = (float)(unsigned char)0; m = (v < m) ? v : m;` became a min instruction.
  if (flavor_ == Flavor::Cuda && e.type.isValue() && foldedToFloating(operand, e.type.scalar))
    return {"culift_opaque(" + castSpelling(e.type) + expr(operand).text + ")", false};
  if (flavor_ == Flavor::Cuda && e.type.isValue() && operand.type.isValue() &&
      hiddenConversion(e.type.scalar, operand.type.scalar) && !literalsOnly(operand)) {
    // A conversion of a conversion this one hides too prints as a plain cast inside it:
    // culift_narrow<unsigned char>((int)(u + 1u)), not culift_narrow<int> within it.
    if (operand.kind == ExprKind::Cast && operand.operands[0]->type.isValue() &&
        hiddenConversion(operand.type.scalar, operand.operands[0]->type.scalar))
      return {narrowResult(e.type.scalar, castSpelling(operand.type) + expr(*operand.operands[0]).text), false};
    return {narrowResult(e.type.scalar, argument(operand)), false};
  }
  if (flavor_ == Flavor::Cuda && e.type.isValue() && isInteger(e.type.scalar) && byteSize(e.type.scalar) == 8 &&
      operand.type.isValue() && isNarrowInteger(operand.type.scalar) && !literalsOnly(operand))
    return {castSpelling(e.type) + "culift_widen(" + argument(operand) + ")", false};
  // A cast binds tighter than every binary operator and looser than postfix ones; its
  // operand is a primary or parenthesized already. No outer parentheses needed.
  return {castSpelling(e.type) + expr(operand).text, false};
}

// An integer converted to a signed or unsigned char or short on the device: through the
// prelude's culift_narrow, which hides the value from the device compiler's front end. Left to
// it, the front end narrows the arithmetic before the conversion to 16-bit operations (`s *= 12`
// as mul.lo.s16), and the device assembler mistranslates some of them: a neg.s16 of -32768
// followed by a widening gives +32768 (`short x = -32768; x = -x; (long long)x`). In 32 bits the
// result converts modulo 2^N, as C++ defines.
std::string AstPrinter::narrowResult(Scalar target, const std::string& value) {
  return "culift_narrow<" + std::string(spelling(target)) + ">(" + value + ")";
}

// `x op= r` on a narrow integer x: x = culift_narrow<T>((C)x op r), x read and written once, r
// evaluated before x as C++17 sequences it. A variable with a value free of side effects is
// written out so; an element (or a value that changes something) goes through a lambda that
// takes r first and binds x by reference.
AstPrinter::Printed AstPrinter::narrowCompoundAssign(const Expr& e, const std::string& rhs) {
  const Expr& target = *e.operands[0];
  const Expr& value = *e.operands[1];
  const Scalar t = target.type.scalar;
  const Scalar c = e.computeType;
  const std::string op(spelling(e.binaryOp));
  bool simple = target.kind == ExprKind::VarRef;
  visitExprs(value, [&](const Expr& x) {
    if (x.kind == ExprKind::Assign || x.kind == ExprKind::CompoundAssign || x.kind == ExprKind::IncDec ||
        x.kind == ExprKind::Call)
      simple = false;
    return simple;
  });
  // (C)x op r, r parenthesized unless it is one name or number.
  const auto computed = [&](const std::string& x, const std::string& r) {
    const bool primary = std::all_of(r.begin(), r.end(), [](char ch) {
      return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.';
    });
    return narrowResult(t, "(" + std::string(spelling(c)) + ")" + x + " " + op + " " + (primary ? r : "(" + r + ")"));
  };
  if (simple) {
    const std::string x = expr(target).text;
    return {"(" + x + " = " + computed(x, rhs) + ")", true};
  }
  const std::string rType(spelling(isShift(e.binaryOp) ? value.type.scalar : c));
  const std::string tType(spelling(t));
  return {"[&](" + rType + " culift_r) -> " + tType + "& { " + tType + "& culift_x = " + top(target) +
              "; return culift_x = " + computed("culift_x", "culift_r") + "; }(" + rhs + ")",
          false};
}

std::string AstPrinter::mathName(const Expr& e) const {
  const MathFnInfo& m = info(e.math);
  if (flavor_ == Flavor::Pseudocode) return "std::" + std::string(m.name);
  return std::string(mathComputationType(e) == Scalar::F32 ? m.floatName : m.doubleName);
}

// The device's atomic on the element's address; the overloads CUDA lacks (64-bit signed add and
// sub, 64-bit unsigned and floating sub) are the device prelude's culift_atomic_add/_sub.
AstPrinter::Printed AstPrinter::atomic(const Expr& e) {
  const Expr& element = *e.operands[0];
  const std::string value = top(*e.operands[1]);
  if (flavor_ == Flavor::Pseudocode)
    return {"atomic_ref(" + expr(element).text + ")." + std::string(memberName(e.atomicOp)) + "(" + value + ")", false};
  const Scalar t = e.type.scalar;
  std::string fn(cudaName(e.atomicOp));
  if (e.atomicOp == AtomicOp::Add && t == Scalar::I64) fn = "culift_atomic_add";
  if (e.atomicOp == AtomicOp::Sub && t != Scalar::I32 && t != Scalar::U32) fn = "culift_atomic_sub";
  return {fn + "(&" + expr(element).text + ", " + value + ")", false};
}

AstPrinter::Printed AstPrinter::mathCall(const Expr& e) {
  const MathFnInfo& m = info(e.math);
  const Scalar computation = mathComputationType(e);
  std::string s = mathName(e) + "(";
  for (size_t k = 0; k < e.operands.size(); ++k) {
    if (k) s += ", ";
    // Device overloads are chosen by argument type: give each argument the computation type
    // so `sqrtf` sees a float and culift_min two of one type, as the C++ call had.
    const bool convert = flavor_ == Flavor::Cuda && m.domain != MathDomain::Classify;
    s += convert ? convertedTo(*e.operands[k], computation) : argument(*e.operands[k]);
  }
  return {s + ")", false};
}

void AstPrinter::collectCalleeNames(const Stmt& s, std::unordered_set<std::string>& names) const {
  visitExprs(s, [&](const Expr& e) {
    if (e.kind == ExprKind::Call && e.callee < module_.functions.size()) names.insert(calleeName(e.callee));
    if (e.kind == ExprKind::MathCall) {
      const MathFnInfo& m = info(e.math);
      names.insert(std::string(m.floatName));
      names.insert(std::string(m.doubleName));
    }
    return true;
  });
}

}  // namespace culift::codegen
