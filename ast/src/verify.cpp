// The verifier (culift/ast/verify.hpp). One rule function per node kind, named after it and
// dispatched through constructs.def, so a kind added to the list without its rules does not
// compile. Each rule reads the node defensively (ids out of range, missing children): a
// malformed tree gives violations, never a crash.
#include "culift/ast/verify.hpp"

#include <algorithm>
#include <utility>

#include "culift/ast/stack.hpp"

namespace culift::ast {
namespace {

std::string text(Scalar s) { return std::string(spelling(s)); }
std::string text(const Type& t) { return culift::toString(t); }
std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

bool isScalarValue(const Type& t) { return t.isValue() && t.scalar != Scalar::Void; }
// A type C++'s integral promotions leave as it is: int and wider, and the floating types.
bool isPromoted(Scalar s) { return isFloating(s) || (isInteger(s) && byteSize(s) >= 4); }

std::string location(const SourceRange& r) {
  std::string s;
  if (!r.begin.file.empty()) s += r.begin.file + ":";
  if (r.begin.valid()) s += std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column) + ":";
  return s;
}

// How an expression is used: most places take a value; an array variable is named only as the
// array of a subscript and as the argument of an array parameter.
enum class Use { Value, Array };

class Verifier {
 public:
  Verifier(const Module& m, const VerifyOptions& options, std::vector<Violation>& out)
      : m_(m), options_(options), out_(out) {}

  void run() {
    for (const Function& f : m_.functions) function(f);
  }

  // ---- expressions: one rule per kind (constructs.def) -----------------------------------

  void IntLiteral(const Expr& e) {
    operands(e, 0);
    if (!e.type.isValue() || !isInteger(e.type.scalar))
      bad(e, "the literal has type " + text(e.type), "an integer literal has an integer type");
  }
  void FloatLiteral(const Expr& e) {
    operands(e, 0);
    if (!e.type.isValue() || !isFloating(e.type.scalar))
      bad(e, "the literal has type " + text(e.type), "a floating literal is a float or a double");
  }
  void BoolLiteral(const Expr& e) {
    operands(e, 0);
    if (e.type != Type::value(Scalar::Bool)) bad(e, "the literal has type " + text(e.type), "a bool literal is a bool");
    if (e.intBits > 1) bad(e, "its value is " + std::to_string(e.intBits), "a bool literal holds 0 or 1");
  }
  void VarRef(const Expr& e) {
    operands(e, 0);
    const Var* v = var(e.var);
    if (!v) {
      bad(e, "it names variable " + std::to_string(e.var) + " of " + std::to_string(fn_->vars.size()),
          "a variable reference names a variable of its function");
      return;
    }
    if (!inScope_[e.var])
      bad(e, quoted(v->name) + " is used outside the scope of its declaration",
          "a local is used only after its declaration, inside the block that declares it");
    if (e.type.scalar != v->type.scalar || e.type.shape != v->type.shape)
      bad(e, "the reference has type " + text(e.type) + ", " + quoted(v->name) + " is " + text(v->type),
          "a variable reference has its variable's type");
    if (!v->type.isValue() && use_ != Use::Array)
      bad(e, "the array " + quoted(v->name) + " is used as a value",
          "an array variable is named only as a subscript's array or as an array argument");
  }
  void Subscript(const Expr& e) {
    if (!operands(e, 2)) return;
    const Expr& a = *e.operands[0];
    const Var* v = a.kind == ExprKind::VarRef ? var(a.var) : nullptr;
    if (!v || v->type.isValue()) {
      bad(e, "its array is " + describe(a), "a subscript's first operand is a variable that is an array or a pointer");
    } else if (e.type != Type::value(v->type.scalar)) {
      bad(e, "the element has type " + text(e.type) + ", the array " + quoted(v->name) + " is " + text(v->type),
          "a subscript has its array's element type");
    }
    const Type& index = e.operands[1]->type;
    if (!index.isValue() || !isInteger(index.scalar))
      bad(e, "the index has type " + text(index), "an array index is an integer");
    child(a, Use::Array);
    child(*e.operands[1]);
  }
  void Unary(const Expr& e) {
    if (!operands(e, 1)) return;
    const Type& t = e.operands[0]->type;
    const std::string op = quoted(spelling(e.unaryOp));
    if (e.unaryOp == UnaryOp::LogNot) {
      if (t != Type::value(Scalar::Bool) || e.type != Type::value(Scalar::Bool))
        bad(e, op + " of " + text(t) + " gives " + text(e.type), "'!' takes a bool and gives a bool");
    } else {
      if (!t.isValue() || !isPromoted(t.scalar))
        bad(e, op + " of " + text(t), "the operand of an arithmetic unary is promoted (int or wider, or floating)");
      else if (e.unaryOp == UnaryOp::BitNot && !isInteger(t.scalar))
        bad(e, op + " of " + text(t), "'~' takes an integer");
      if (e.type != t)
        bad(e, op + " of " + text(t) + " gives " + text(e.type), "an arithmetic unary has its operand's type");
    }
    child(*e.operands[0]);
  }
  void Binary(const Expr& e) {
    if (!operands(e, 2)) return;
    const Type& a = e.operands[0]->type;
    const Type& b = e.operands[1]->type;
    const BinaryOp op = e.binaryOp;
    const std::string found = "operands of " + quoted(spelling(op)) + " have types " + text(a) + " and " + text(b);
    if (isLogical(op)) {
      if (a != Type::value(Scalar::Bool) || b != Type::value(Scalar::Bool))
        bad(e, found, "the operands of '&&' and '||' are bool");
    } else if (isShift(op)) {
      if (!a.isValue() || !b.isValue() || !isInteger(a.scalar) || !isInteger(b.scalar) || !isPromoted(a.scalar) ||
          !isPromoted(b.scalar))
        bad(e, found, "the operands of a shift are promoted integers (int or wider)");
      if (e.type != a)
        bad(e, "the shift gives " + text(e.type) + " of " + text(a), "a shift has its left operand's type");
    } else {
      if (a != b || !a.isValue() || !isPromoted(a.scalar))
        bad(e, found,
            "both operands of an arithmetic binary or a comparison have one promoted type (int or wider, or "
            "floating)");
      else if ((op == BinaryOp::Rem || op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor) &&
               !isInteger(a.scalar))
        bad(e, found, quoted(spelling(op)) + " takes integers");
    }
    if (isComparison(op) || isLogical(op)) {
      if (e.type != Type::value(Scalar::Bool))
        bad(e, quoted(spelling(op)) + " gives " + text(e.type), "a comparison or a logical operator gives a bool");
    } else if (!isShift(op) && e.type != a) {
      bad(e, quoted(spelling(op)) + " of " + text(a) + " gives " + text(e.type),
          "both operands of an arithmetic binary have the result's type");
    }
    child(*e.operands[0]);
    child(*e.operands[1]);
  }
  void Assign(const Expr& e) {
    if (!operands(e, 2)) return;
    const Expr& l = *e.operands[0];
    assignable(e, l);
    if (e.operands[1]->type != Type::value(l.type.scalar))
      bad(e, "a " + text(e.operands[1]->type) + " is assigned to a " + text(l.type),
          "an assignment's value is converted to the assigned type");
    if (e.type != Type::value(l.type.scalar))
      bad(e, "the assignment has type " + text(e.type) + ", its target " + text(l.type),
          "an assignment has its target's type");
    child(l);
    child(*e.operands[1]);
  }
  void CompoundAssign(const Expr& e) {
    if (!operands(e, 2)) return;
    const Expr& l = *e.operands[0];
    assignable(e, l);
    const BinaryOp op = e.binaryOp;
    const std::string spelled = quoted(std::string(spelling(op)) + "=");
    const Scalar c = e.computeType == Scalar::Void ? l.type.scalar : e.computeType;
    const Type& r = e.operands[1]->type;
    if (isComparison(op) || isLogical(op)) {
      bad(e, "the operator is " + spelled, "a compound assignment's operator is arithmetic, bitwise or a shift");
    } else if (isShift(op)) {
      if (!isInteger(c) || !r.isValue() || !isInteger(r.scalar) || !isPromoted(r.scalar))
        bad(e, spelled + " computes in " + text(c) + " with a " + text(r) + " count",
            "a compound shift computes in an integer type by a promoted integer count");
    } else {
      if (r != Type::value(c))
        bad(e, spelled + " computes in " + text(c) + ", its operand is " + text(r),
            "a compound assignment's operand has its computation type");
      if (!isPromoted(c))
        bad(e, spelled + " computes in " + text(c), "a compound assignment computes in a promoted type");
      else if ((op == BinaryOp::Rem || op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor) &&
               !isInteger(c))
        bad(e, spelled + " computes in " + text(c), spelled + " computes in an integer type");
    }
    if (e.type != Type::value(l.type.scalar))
      bad(e, "the assignment has type " + text(e.type) + ", its target " + text(l.type),
          "an assignment has its target's type");
    child(l);
    child(*e.operands[1]);
  }
  void IncDec(const Expr& e) {
    if (!operands(e, 1)) return;
    const Expr& l = *e.operands[0];
    assignable(e, l);
    if (l.type.scalar == Scalar::Bool)
      bad(e, quoted(spelling(e.incDecOp)) + " of a bool", "'++' and '--' take no bool");
    if (e.type != Type::value(l.type.scalar))
      bad(e, quoted(spelling(e.incDecOp)) + " of " + text(l.type) + " gives " + text(e.type),
          "'++' and '--' have their operand's type");
    child(l);
  }
  void Conditional(const Expr& e) {
    if (!operands(e, 3)) return;
    condition(*e.operands[0], "Conditional", "a conditional's condition is a bool");
    const Type& a = e.operands[1]->type;
    const Type& b = e.operands[2]->type;
    if (a != e.type || b != e.type || !isScalarValue(e.type))
      bad(e, "the branches have types " + text(a) + " and " + text(b) + ", the result " + text(e.type),
          "both branches of a conditional have its scalar result type");
    for (const ExprPtr& o : e.operands) child(*o);
  }
  void Cast(const Expr& e) {
    if (!operands(e, 1)) return;
    const Type& from = e.operands[0]->type;
    if (!isScalarValue(e.type) || !isScalarValue(from))
      bad(e, "a cast from " + text(from) + " to " + text(e.type), "a cast converts a scalar value to a scalar type");
    child(*e.operands[0]);
  }
  void Call(const Expr& e) {
    operands(e, e.operands.size());
    if (e.callee >= m_.functions.size()) {
      bad(e, "it calls function " + std::to_string(e.callee) + " of " + std::to_string(m_.functions.size()),
          "a call names a function of its module");
      for (const ExprPtr& o : e.operands)
        if (o) child(*o, Use::Array);
      return;
    }
    const Function& target = m_.functions[e.callee];
    const std::string callee = quoted(target.name);
    if (e.type != Type::value(target.returnType.scalar) || !target.returnType.isValue())
      bad(e,
          "the call of " + callee + " has type " + text(e.type) + ", " + callee + " returns " + text(target.returnType),
          "a call has its callee's return type");
    if (e.operands.size() != target.numParams || target.numParams > target.vars.size()) {
      bad(e,
          callee + " is called with " + std::to_string(e.operands.size()) + " arguments, it takes " +
              std::to_string(target.numParams),
          "a call passes one argument per parameter");
      for (const ExprPtr& o : e.operands)
        if (o) child(*o, Use::Array);
      return;
    }
    for (unsigned p = 0; p < target.numParams; ++p) {
      if (!e.operands[p]) continue;
      const Expr& a = *e.operands[p];
      const Var& param = target.vars[p];
      const std::string which = "argument " + std::to_string(p + 1) + " of " + callee;
      if (param.isReference()) {
        if (a.type != Type::value(param.type.scalar))
          report(a.range, "Call", which + " is a " + text(a.type) + " for a reference to " + text(param.type),
                 "the argument of a reference parameter has the referent's type");
        bindable(a, param, which, "Call");
        child(a);
      } else if (param.type.isValue()) {
        if (a.type != Type::value(param.type.scalar))
          report(a.range, "Call", which + " is a " + text(a.type) + " for a " + text(param.type),
                 "an argument is converted to its parameter's type");
        child(a);
      } else {
        const Var* v = a.kind == ExprKind::VarRef ? var(a.var) : nullptr;
        if (!v || v->type.isValue() || v->type.scalar != param.type.scalar)
          report(a.range, "Call", which + " is " + describe(a) + " for a " + text(param.type),
                 "the argument of an array parameter is an array variable of its element type");
        else if (v->type.constElements && !param.type.constElements)
          report(a.range, "Call", which + " is the const array " + quoted(v->name) + " for a " + text(param.type),
                 "a const array is passed only to a const array parameter");
        child(a, Use::Array);
      }
    }
  }
  void MathCall(const Expr& e) {
    const MathFnInfo& m = info(e.math);
    const std::string fn = quoted(m.name);
    if (!operands(e, m.arity)) return;
    bool scalars = true;
    for (const ExprPtr& a : e.operands)
      if (!isScalarValue(a->type)) {
        bad(*a, "an argument of " + fn + " is " + text(a->type), "a math function takes scalar values");
        scalars = false;
      }
    if (scalars) {
      Scalar t = e.operands[0]->type.scalar;
      bool same = true;
      for (const ExprPtr& a : e.operands) {
        same = same && a->type.scalar == t;
        if (isFloating(a->type.scalar) && (a->type.scalar == Scalar::F64 || !isFloating(t))) t = a->type.scalar;
      }
      if (m.domain == MathDomain::Any) {
        if (!same) bad(e, fn + " of operands of different types", "std::min, max, clamp and abs take one type");
        if (t == Scalar::Bool)
          bad(e, fn + " of bool", "std::min, max, clamp and abs take an arithmetic type, not bool");
        if (e.type != Type::value(t))
          bad(e, fn + " of " + text(t) + " gives " + text(e.type),
              "std::min, max, clamp and abs give their operands' type");
      } else {
        if (!isFloating(t)) t = Scalar::F64;
        const Type result = Type::value(m.domain == MathDomain::Classify ? Scalar::Bool : t);
        if (e.type != result)
          bad(e, fn + " of " + text(t) + " gives " + text(e.type),
              m.domain == MathDomain::Classify ? "a classification gives a bool"
                                               : "a math function gives its computation type (float only when every "
                                                 "argument is a float)");
      }
    }
    for (const ExprPtr& a : e.operands) child(*a);
  }
  void Comma(const Expr& e) {
    if (!operands(e, 2)) return;
    if (e.type != e.operands[1]->type)
      bad(e, "the comma has type " + text(e.type) + ", its right operand " + text(e.operands[1]->type),
          "a comma has its right operand's type");
    child(*e.operands[0]);
    child(*e.operands[1]);
  }
  void Assert(const Expr& e) {
    if (!operands(e, 1)) return;
    condition(*e.operands[0], "Assert", "an assertion's condition is a bool");
    if (!e.type.isVoid()) bad(e, "the assertion has type " + text(e.type), "an assertion is void");
    child(*e.operands[0]);
  }
  void AtomicRmw(const Expr& e) {
    if (!operands(e, 2)) return;
    const Expr& el = *e.operands[0];
    const Var* array = el.kind == ExprKind::Subscript && el.operands.size() == 2 && el.operands[0] &&
                               el.operands[0]->kind == ExprKind::VarRef
                           ? var(el.operands[0]->var)
                           : nullptr;
    const std::string op = quoted(memberName(e.atomicOp));
    if (!array || !array->isParam || !array->type.isPointer() || array->type.constElements)
      bad(e, op + " updates " + describe(el),
          "an atomic operation updates an element of an array parameter that is not const");
    const Scalar t = e.type.scalar;
    static constexpr Scalar kAtomic[] = {Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64, Scalar::F32, Scalar::F64};
    if (!e.type.isValue() || std::find(std::begin(kAtomic), std::end(kAtomic), t) == std::end(kAtomic))
      bad(e, op + " of a " + text(e.type), "an atomic operation is on int, long long (signed or not), float or double");
    if (el.type != e.type || e.operands[1]->type != e.type)
      bad(e,
          op + " of a " + text(el.type) + " element with a " + text(e.operands[1]->type) + " operand gives " +
              text(e.type),
          "an atomic operation's element, operand and value have one type");
    if (integersOnly(e.atomicOp) && !isInteger(t)) bad(e, op + " of a " + text(t), op + " takes integers");
    child(el);
    child(*e.operands[1]);
  }

  // ---- statements: one rule per kind ------------------------------------------------------

  void Block(const Stmt& s) {
    if (s.scoped) enterScope();
    for (const StmtPtr& c : s.stmts) {
      if (!c) bad(s, "it holds a missing statement", "a block's statements are all present");
      else stmt(*c);
    }
    if (s.scoped) leaveScope();
  }
  void Decl(const Stmt& s) {
    const Var* v = var(s.var);
    if (!v || s.var < fn_->numParams) {
      bad(s, v ? "it declares the parameter " + quoted(v->name) : "it declares variable " + std::to_string(s.var),
          "a declaration declares a local of its function");
      if (s.expr) child(*s.expr);
      for (const ExprPtr& i : s.inits)
        if (i) child(*i);
      return;
    }
    if (declared_[s.var]) bad(s, quoted(v->name) + " is declared again", "each local is declared once");
    declared_[s.var] = true;
    if (v->isReference()) {
      if (!s.expr) {
        bad(s, "the reference " + quoted(v->name) + " is bound to nothing", "a reference is bound at its declaration");
      } else {
        if (s.expr->type != Type::value(v->type.scalar))
          bad(s, "the reference " + quoted(v->name) + " to " + text(v->type) + " is bound to a " + text(s.expr->type),
              "a reference is bound to a value of its referent's type");
        bindable(*s.expr, *v, "the referent of " + quoted(v->name), "Decl");
        child(*s.expr);
      }
      if (!s.inits.empty() || s.arrayInitialized)
        bad(s, "the reference " + quoted(v->name) + " has array initializers", "only an array has array initializers");
    } else if (v->type.isValue()) {
      if (s.expr) {
        if (s.expr->type != v->type)
          bad(s, quoted(v->name) + " is " + text(v->type) + ", its initializer " + text(s.expr->type),
              "a scalar's initializer is converted to its type");
        child(*s.expr);
      }
      if (!s.inits.empty() || s.arrayInitialized)
        bad(s, "the scalar " + quoted(v->name) + " has array initializers", "only an array has array initializers");
    } else {
      if (s.expr) {
        bad(s, "the array " + quoted(v->name) + " has a scalar initializer",
            "an array is initialized by its element list");
        child(*s.expr);
      }
      if (s.inits.size() > v->type.extent)
        bad(s,
            std::to_string(s.inits.size()) + " initializers for " + quoted(v->name) + " of " +
                std::to_string(v->type.extent) + " elements",
            "an array has at most as many initializers as elements");
      for (const ExprPtr& i : s.inits) {
        if (!i) {
          bad(s, "an initializer of " + quoted(v->name) + " is missing", "an array's initializers are all present");
          continue;
        }
        if (i->type != Type::value(v->type.scalar))
          bad(*i, "an initializer of " + quoted(v->name) + " (" + text(v->type) + ") is a " + text(i->type),
              "an array's initializers are converted to its element type");
        child(*i);
      }
    }
    inScope_[s.var] = true;
    if (!scopes_.empty()) scopes_.back().push_back(s.var);
  }
  void ExprStmt(const Stmt& s) {
    if (!s.expr) bad(s, "it holds no expression", "an expression statement holds an expression");
    else child(*s.expr);
  }
  void If(const Stmt& s) {
    if (!s.cond) bad(s, "it has no condition", "an if has a condition");
    else conditionChild(*s.cond, "If", "an if's condition is a bool");
    if (!s.then) bad(s, "it has no branch", "an if has a statement to run");
    else scopedStmt(*s.then);
    if (s.otherwise) scopedStmt(*s.otherwise);
  }
  void For(const Stmt& s) {
    enterScope();
    if (s.init) {
      const StmtKind k = s.init->kind;
      if (k != StmtKind::Decl && k != StmtKind::ExprStmt && k != StmtKind::Null &&
          !(k == StmtKind::Block && !s.init->scoped))
        bad(*s.init, "a for's initializer is a " + std::string(name(k)),
            "a for's initializer is a declaration, a declaration group or an expression statement");
      stmt(*s.init);
    }
    if (s.cond) conditionChild(*s.cond, "For", "a for's condition is a bool");
    if (s.expr) child(*s.expr);
    loopBody(s);
    leaveScope();
  }
  void While(const Stmt& s) {
    if (!s.cond) bad(s, "it has no condition", "a while has a condition");
    else conditionChild(*s.cond, "While", "a while's condition is a bool");
    loopBody(s);
  }
  void DoWhile(const Stmt& s) {
    loopBody(s);
    if (!s.cond) bad(s, "it has no condition", "a do-while has a condition");
    else conditionChild(*s.cond, "DoWhile", "a do-while's condition is a bool");
  }
  void Break(const Stmt& s) {
    if (loops_ == 0 && switches_ == 0)
      bad(s, "it is outside every loop and switch", "a break is inside a loop or a switch");
  }
  void Continue(const Stmt& s) {
    if (loops_ == 0) bad(s, "it is outside every loop", "a continue is inside a loop");
  }
  void Return(const Stmt& s) {
    const Type& rt = fn_->returnType;
    if (s.expr) {
      if (rt.isVoid())
        bad(s, "it returns a " + text(s.expr->type) + " from a void function", "a void function returns no value");
      else if (s.expr->type != Type::value(rt.scalar))
        bad(s, "it returns a " + text(s.expr->type) + " from a function returning " + text(rt),
            "a return's value is converted to the function's return type");
      child(*s.expr);
    } else if (!rt.isVoid()) {
      bad(s, "it returns no value from a function returning " + text(rt), "a non-void function returns a value");
    }
  }
  void Switch(const Stmt& s) {
    Scalar t = Scalar::Void;
    if (!s.cond) {
      bad(s, "it has no condition", "a switch has a condition");
    } else {
      t = s.cond->type.scalar;
      if (!s.cond->type.isValue() || !isInteger(t) || !isPromoted(t))
        report(s.cond->range, "Switch", "the switch is on a " + text(s.cond->type),
               "a switch's condition is a promoted integer");
      child(*s.cond);
    }
    if (!s.body) {
      bad(s, "it has no body", "a switch has a body");
      return;
    }
    // The labels are the body's own statements: what the interpreter and the emitter jump to.
    const unsigned bits = byteSize(t) * 8;
    const std::uint64_t mask = bits == 0 || bits >= 64 ? ~0ull : (1ull << bits) - 1;
    std::vector<std::uint64_t> values;
    bool sawDefault = false;
    auto label = [&](const Stmt& x) {
      if (x.kind == StmtKind::Case) {
        const std::uint64_t v = x.caseValue & mask;
        if (std::find(values.begin(), values.end(), v) != values.end())
          bad(x, "the case value " + std::to_string(v) + " is repeated", "a switch's case values are distinct");
        values.push_back(v);
      } else if (x.kind == StmtKind::Default) {
        if (sawDefault) bad(x, "a second default", "a switch has at most one default");
        sawDefault = true;
      }
    };
    ++switches_;
    if (s.body->kind == StmtKind::Block) {
      if (s.body->scoped) enterScope();
      for (const StmtPtr& x : s.body->stmts) {
        if (!x) {
          bad(*s.body, "it holds a missing statement", "a block's statements are all present");
          continue;
        }
        label(*x);
        stmt(*x, /*labelHere=*/true);
      }
      if (s.body->scoped) leaveScope();
    } else {
      label(*s.body);
      enterScope();
      stmt(*s.body, /*labelHere=*/true);
      leaveScope();
    }
    --switches_;
  }
  void Case(const Stmt& s) {
    if (!labelHere_)
      bad(s, "a case label that is not a statement of a switch's body",
          "a case label is a statement of its switch's body");
  }
  void Default(const Stmt& s) {
    if (!labelHere_)
      bad(s, "a default label that is not a statement of a switch's body",
          "a default label is a statement of its switch's body");
  }
  void Null(const Stmt&) {}

 private:
  // ---- the walk ---------------------------------------------------------------------------

  void function(const Function& f) {
    fn_ = &f;
    const SourceRange& at = f.range;
    auto badFn = [&](std::string found, std::string rule) {
      report(at, "Function", std::move(found), std::move(rule));
    };
    if (!f.returnType.isValue()) badFn("it returns " + text(f.returnType), "a function returns a scalar or void");
    if (f.numParams > f.vars.size()) {
      badFn("it has " + std::to_string(f.numParams) + " parameters of " + std::to_string(f.vars.size()) + " variables",
            "a function's parameters are its first variables");
      return;
    }
    for (std::size_t k = 0; k < f.vars.size(); ++k) variable(f, static_cast<VarId>(k));
    signature(f);
    for (VarId v : f.reassociatedSums) {
      const Var* sum = var(v);
      if (!sum || !sum->type.isValue() || !isFloating(sum->type.scalar) || sum->isReference())
        badFn("a reassociated sum is " + (sum ? quoted(sum->name) + " (" + text(sum->type) + ")" : std::to_string(v)),
              "a reassociated sum is a float or double variable of the function");
    }
    if (f.loopPlan != LoopPlan::PerThread && !f.isKernel())
      badFn("a device-only function has the loop plan " + quoted(name(f.loopPlan)), "only a kernel has a loop plan");
    if (!f.body) {
      badFn("it has no body", "a function has a body");
      return;
    }
    declared_.assign(f.vars.size(), false);
    inScope_.assign(f.vars.size(), false);
    for (unsigned p = 0; p < f.numParams; ++p) inScope_[p] = true;
    scopes_.clear();
    loops_ = switches_ = 0;
    stmtRange_ = nullptr;
    stmt(*f.body);
    fn_ = nullptr;
  }

  void variable(const Function& f, VarId k) {
    const Var& v = f.vars[k];
    const bool param = k < f.numParams;
    auto badVar = [&](std::string found, std::string rule) {
      report(v.range.begin.valid() ? v.range : f.range, "Var", quoted(v.name) + " " + std::move(found),
             std::move(rule));
    };
    if (v.isParam != param)
      badVar(param ? "is a parameter not marked as one" : "is a local marked as a parameter",
             "the first numParams variables, and only they, are parameters");
    if (v.type.scalar == Scalar::Void) badVar("is void", "a variable has a scalar type");
    if (v.isReference() && !v.type.isValue()) badVar("is a reference to " + text(v.type), "a reference is to a scalar");
    if (param && v.type.isArray()) badVar("is a parameter of type " + text(v.type), "an array parameter is a pointer");
    if (!param && v.type.isPointer()) badVar("is a local of type " + text(v.type), "only a parameter is a pointer");
    if (v.type.isArray() && v.type.extent == 0) badVar("is an array of no elements", "a local array has elements");
  }

  void signature(const Function& f) {
    auto badSig = [&](std::string found, std::string rule) {
      report(f.range, "KernelParam", std::move(found), std::move(rule));
    };
    if (!f.isKernel()) {
      if (!f.signature.params.empty())
        badSig("a device-only function has a kernel signature", "only a kernel has a kernel signature");
      if (!f.planEntries.empty()) badSig("a device-only function has plan entries", "only a kernel has plan entries");
      return;
    }
    const unsigned axes = f.mode == IndexMode::ElementWise ? 0 : rank(f.mode);
    if (f.indexParams.size() != axes)
      badSig("a " + std::string(name(f.mode)) + " kernel has " + std::to_string(f.indexParams.size()) +
                 " index parameters",
             "a kernel has one index parameter per axis of its grid (none for an element-wise one)");
    for (int p : f.indexParams) {
      if (p < 0 || static_cast<unsigned>(p) >= f.numParams) {
        badSig("an index parameter is parameter " + std::to_string(p) + " of " + std::to_string(f.numParams),
               "an index parameter is a parameter of the function");
        continue;
      }
      const Var& v = f.vars[p];
      if (!v.type.isValue() || !isInteger(v.type.scalar) || v.isReference())
        badSig("the index parameter " + quoted(v.name) + " is " + text(v.type),
               "an index parameter is an integer value");
    }
    std::vector<bool> seen(f.numParams, false);
    unsigned outs = 0;
    std::vector<bool> extents(3, false);
    for (const KernelParam& p : f.signature.params) {
      const std::string kp = "the kernel parameter " + quoted(p.name) + " [" + std::string(name(p.role)) + "]";
      const bool user = p.role != ParamRole::ResultArray && p.role != ParamRole::Extent;
      if (!user) {
        if (p.userParam != -1)
          badSig(kp + " names user parameter " + std::to_string(p.userParam),
                 "an out or extent parameter is no user parameter");
      } else if (p.userParam < 0 || static_cast<unsigned>(p.userParam) >= f.numParams) {
        badSig(kp + " names user parameter " + std::to_string(p.userParam) + " of " + std::to_string(f.numParams),
               "a kernel parameter of the user's names one of the function's parameters");
        continue;
      } else {
        if (seen[p.userParam]) badSig(kp + " passes a parameter twice", "each user parameter is passed once");
        seen[p.userParam] = true;
        if (std::find(f.indexParams.begin(), f.indexParams.end(), p.userParam) != f.indexParams.end())
          badSig(kp + " passes an index parameter",
                 "index parameters come from the launch, not the kernel's arguments");
      }
      const Var* v = user ? &f.vars[p.userParam] : nullptr;
      switch (p.role) {
        case ParamRole::ReadOnlyArray:
        case ParamRole::WritableArray: {
          const bool input = p.role == ParamRole::ReadOnlyArray;
          if (!v->type.isPointer() || v->type.constElements != input || p.type != v->type)
            badSig(kp + " is " + text(p.type) + " for the parameter " + text(v->type),
                   input ? "an input array is a const pointer parameter, passed as it is"
                         : "an output array is a pointer parameter that is not const, passed as it is");
          break;
        }
        case ParamRole::Scalar:
          if (!v->type.isValue() || p.type != Type::value(v->type.scalar))
            badSig(kp + " is " + text(p.type) + " for the parameter " + text(v->type),
                   "a scalar kernel parameter is a scalar parameter, passed as it is");
          break;
        case ParamRole::PerElementScalar:
          if (f.mode != IndexMode::ElementWise || !v->type.isValue() || p.type != Type::pointer(v->type.scalar, true))
            badSig(kp + " is " + text(p.type) + " for the parameter " + text(v->type) + " of a " +
                       std::string(name(f.mode)) + " kernel",
                   "an element input is a scalar parameter of an element-wise kernel, passed as a const pointer");
          break;
        case ParamRole::ResultArray: {
          ++outs;
          const Scalar s = f.resultRecord ? f.resultRecord->scalar : f.returnType.scalar;
          if (s == Scalar::Void || p.type != Type::pointer(s, false))
            badSig(kp + " is " + text(p.type) + " for a function returning " + text(f.returnType),
                   "the out array is a pointer to the function's result type, not const");
          break;
        }
        case ParamRole::Extent:
          if (p.type != Type::value(Scalar::I64) || p.axis < 0 || static_cast<unsigned>(p.axis) >= rank(f.mode))
            badSig(kp + " is " + text(p.type) + " on axis " + std::to_string(p.axis),
                   "an extent is a long long, one per axis of the kernel");
          else if (extents[p.axis]) badSig(kp + " repeats axis " + std::to_string(p.axis), "one extent per axis");
          else extents[p.axis] = true;
          break;
      }
      if (p.record && (!p.type.isPointer() || p.record->scalar != p.type.scalar))
        badSig(kp + " has a record of " + text(p.record->scalar) + " fields but is " + text(p.type),
               "an array of structs is a pointer to its fields' scalar type");
    }
    const bool returns = !f.returnType.isVoid() || f.resultRecord;
    if (outs != (returns ? 1u : 0u))
      badSig("the kernel has " + std::to_string(outs) + " out arrays and returns " + text(f.returnType),
             "a kernel has one out array when its function returns a value, none otherwise");
    for (unsigned a = 0; a < rank(f.mode); ++a)
      if (!extents[a])
        badSig("the kernel has no extent for axis " + std::to_string(a), "a kernel has an extent per axis");
  }

  void located(const SourceRange& r, std::string_view node) {
    if (!options_.requireRanges) return;
    if (!r.begin.valid() || r.begin.file.empty() || r.endLine < r.begin.line ||
        (r.endLine == r.begin.line && r.endColumn < r.begin.column))
      report(r, node,
             "its source range is " +
                 (r.begin.valid() ? location(r) + "-" + std::to_string(r.endLine) + ":" + std::to_string(r.endColumn)
                                  : std::string("empty")),
             "every node has the source range of the construct it came from");
  }

  void expr(const Expr& e) {
    located(e.range, name(e.kind));
    switch (e.kind) {
#define CULIFT_EXPR(K) \
  case ExprKind::K: K(e); return;
#include "culift/ast/constructs.def"
    }
    bad(e, "its kind is " + std::to_string(static_cast<unsigned>(e.kind)), "a node's kind is one of constructs.def");
  }

  void stmt(const Stmt& s, bool labelHere = false) {
    located(s.range, name(s.kind));
    const bool outer = labelHere_;
    const SourceRange* outerRange = stmtRange_;
    labelHere_ = labelHere;
    if (s.range.begin.valid()) stmtRange_ = &s.range;
    switch (s.kind) {
#define CULIFT_STMT(K) \
  case StmtKind::K: K(s); break;
#include "culift/ast/constructs.def"
      default:
        bad(s, "its kind is " + std::to_string(static_cast<unsigned>(s.kind)),
            "a node's kind is one of constructs.def");
    }
    labelHere_ = outer;
    stmtRange_ = outerRange;
  }

  void child(const Expr& e, Use use = Use::Value) {
    const Use outer = use_;
    const bool outerLabel = labelHere_;
    use_ = use;
    expr(e);
    use_ = outer;
    labelHere_ = outerLabel;
  }

  // A statement in a scope of its own (an if's branch, a loop's body).
  void scopedStmt(const Stmt& s) {
    enterScope();
    stmt(s);
    leaveScope();
  }
  void loopBody(const Stmt& s) {
    if (!s.body) {
      bad(s, "it has no body", "a loop has a body");
      return;
    }
    ++loops_;
    const unsigned outerSwitches = switches_;
    switches_ = 0;  // a break in the body leaves the loop
    scopedStmt(*s.body);
    switches_ = outerSwitches;
    --loops_;
  }

  void enterScope() { scopes_.emplace_back(); }
  void leaveScope() {
    if (scopes_.empty()) return;
    for (VarId v : scopes_.back()) inScope_[v] = false;
    scopes_.pop_back();
  }

  bool operands(const Expr& e, std::size_t n) {
    bool ok = true;
    if (e.operands.size() != n) {
      bad(e, "it has " + std::to_string(e.operands.size()) + " operands",
          "a " + std::string(name(e.kind)) + " has " + std::to_string(n) + " operands");
      ok = false;
    }
    for (const ExprPtr& o : e.operands)
      if (!o) {
        bad(e, "an operand is missing", "a node's operands are all present");
        ok = false;
      }
    // A node whose shape is wrong gets no further rules: they read its operands.
    if (!ok)
      for (const ExprPtr& o : e.operands)
        if (o) child(*o, Use::Array);
    return ok;
  }

  void condition(const Expr& c, std::string_view node, const char* rule) {
    if (c.type != Type::value(Scalar::Bool)) report(c.range, node, "the condition is a " + text(c.type), rule);
  }
  void conditionChild(const Expr& c, std::string_view node, const char* rule) {
    condition(c, node, rule);
    child(c);
  }

  // `l` is written by `e`: a scalar variable or an array element, not const.
  void assignable(const Expr& e, const Expr& l) {
    const std::string what = "the target of " + std::string(name(e.kind));
    if (l.kind == ExprKind::VarRef) {
      const Var* v = var(l.var);
      if (v && !v->type.isValue())
        bad(e, what + " is the array " + quoted(v->name), "an assignment writes a scalar variable or an array element");
      else if (v && v->binding == Binding::ConstReference)
        bad(e, what + " is the const reference " + quoted(v->name), "nothing is written through a const reference");
    } else if (l.kind == ExprKind::Subscript) {
      const Var* v = l.operands.size() == 2 && l.operands[0] && l.operands[0]->kind == ExprKind::VarRef
                         ? var(l.operands[0]->var)
                         : nullptr;
      if (v && v->type.constElements)
        bad(e, what + " is an element of the const array " + quoted(v->name), "no element of a const array is written");
    } else {
      bad(e, what + " is " + describe(l), "an assignment writes a scalar variable or an array element");
    }
  }

  // `a` is bound to the reference `ref`: a place (a scalar variable, an array element, another
  // reference's referent), or, for a const reference, any value.
  void bindable(const Expr& a, const Var& ref, const std::string& what, std::string_view node) {
    if (ref.binding == Binding::ConstReference) return;
    if (a.kind == ExprKind::VarRef) {
      const Var* v = var(a.var);
      if (v && v->binding == Binding::ConstReference)
        report(a.range, node, what + " is the const reference " + quoted(v->name),
               "a reference that is not const binds no const one");
    } else if (a.kind == ExprKind::Subscript) {
      const Var* v = a.operands.size() == 2 && a.operands[0] && a.operands[0]->kind == ExprKind::VarRef
                         ? var(a.operands[0]->var)
                         : nullptr;
      if (v && v->type.constElements)
        report(a.range, node, what + " is an element of the const array " + quoted(v->name),
               "a reference that is not const binds no element of a const array");
    } else {
      report(a.range, node, what + " is " + describe(a) + ", a temporary",
             "a reference that is not const binds a variable or an array element");
    }
  }

  std::string describe(const Expr& e) const {
    if (e.kind == ExprKind::VarRef) {
      const Var* v = var(e.var);
      return v ? "the " + std::string(v->type.isValue() ? "variable " : "array ") + quoted(v->name) + " (" +
                     text(v->type) + ")"
               : "variable " + std::to_string(e.var);
    }
    return "a " + std::string(name(e.kind)) + " (" + text(e.type) + ")";
  }

  const Var* var(VarId v) const { return fn_ && v < fn_->vars.size() ? &fn_->vars[v] : nullptr; }

  void bad(const Expr& e, std::string found, std::string rule) {
    report(e.range, name(e.kind), std::move(found), std::move(rule));
  }
  void bad(const Stmt& s, std::string found, std::string rule) {
    report(s.range, name(s.kind), std::move(found), std::move(rule));
  }
  void report(const SourceRange& r, std::string_view node, std::string found, std::string rule) {
    Violation v;
    // A node without a location (a tree built by hand) is located at its statement's.
    v.range = r.begin.valid() || !fn_ ? r : stmtRange_ ? *stmtRange_ : fn_->range;
    v.function = fn_ ? fn_->name : std::string();
    v.node = std::string(node);
    v.found = std::move(found);
    v.rule = std::move(rule);
    out_.push_back(std::move(v));
  }

  const Module& m_;
  const VerifyOptions& options_;
  std::vector<Violation>& out_;
  const Function* fn_ = nullptr;
  std::vector<bool> declared_;  // per variable: its declaration was met
  std::vector<bool> inScope_;   // per variable: it may be named here
  std::vector<std::vector<VarId>> scopes_;
  unsigned loops_ = 0;     // loops around the statement (a continue's targets)
  unsigned switches_ = 0;  // switches around it inside the innermost loop (a break's targets, with loops_)
  Use use_ = Use::Value;
  bool labelHere_ = false;                  // the statement is one of a switch body's own
  const SourceRange* stmtRange_ = nullptr;  // the innermost located statement's
};

}  // namespace

std::string Violation::format() const {
  std::string s = location(range);
  if (!s.empty()) s += " ";
  if (!function.empty()) s += "in '" + function + "': ";
  return s + node + ": " + found + "; the rule is: " + rule;
}

std::vector<Violation> verify(const Module& module, const VerifyOptions& options) {
  std::vector<Violation> out;
  runOnCuliftStack([&] { Verifier(module, options, out).run(); });
  return out;
}

std::string format(const std::vector<Violation>& violations) {
  std::string s;
  for (const Violation& v : violations) s += v.format() + "\n";
  return s;
}

}  // namespace culift::ast
