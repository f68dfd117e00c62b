#include "ast_dump.hpp"

#include <cstdio>

namespace culift::test {

std::string shortName(const Type& t) {
  static const char* const kNames[] = {"void", "bool", "i8",  "u8",  "i16", "u16",
                                       "i32",  "u32",  "i64", "u64", "f32", "f64"};
  std::string s = t.constElements ? "const " : "";
  s += kNames[static_cast<unsigned>(t.scalar)];
  if (t.isPointer()) s += "*";
  if (t.isArray()) s += "[" + std::to_string(t.extent) + "]";
  return s;
}

namespace {
std::string operands(const Function& f, const Expr& e) {
  std::string s;
  for (const ExprPtr& o : e.operands) s += " " + (o ? dump(f, *o) : std::string("<null>"));
  return s;
}
std::string child(const Function& f, const StmtPtr& s) { return s ? dump(f, *s) : std::string("<none>"); }
std::string child(const Function& f, const ExprPtr& e) { return e ? dump(f, *e) : std::string("<none>"); }
}  // namespace

std::string dump(const Function& f, const Expr& e) {
  const std::string type = shortName(e.type);
  switch (e.kind) {
    case ExprKind::IntLiteral:
      return "(Int " + type + " " +
             (isSigned(e.type.scalar) ? std::to_string(static_cast<std::int64_t>(e.intBits))
                                      : std::to_string(e.intBits)) +
             ")";
    case ExprKind::FloatLiteral: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", e.floatValue);
      return "(Float " + type + " " + buf + ")";
    }
    case ExprKind::BoolLiteral: return std::string("(Bool ") + (e.intBits ? "true" : "false") + ")";
    case ExprKind::VarRef: return "(Var " + (e.var < f.vars.size() ? f.vars[e.var].name : std::string("?")) + ")";
    case ExprKind::Subscript: return "(Index" + operands(f, e) + ")";
    case ExprKind::Unary: return "(" + std::string(spelling(e.unaryOp)) + " " + type + operands(f, e) + ")";
    case ExprKind::Binary: return "(" + std::string(spelling(e.binaryOp)) + " " + type + operands(f, e) + ")";
    case ExprKind::Assign: return "(= " + type + operands(f, e) + ")";
    case ExprKind::CompoundAssign:
      return "(" + std::string(spelling(e.binaryOp)) + "= " + type + " in " + shortName(Type::value(e.computeType)) +
             operands(f, e) + ")";
    case ExprKind::IncDec:
      return std::string("(") + (isPrefix(e.incDecOp) ? "pre" : "post") + std::string(spelling(e.incDecOp)) + " " +
             type + operands(f, e) + ")";
    case ExprKind::Conditional: return "(?: " + type + operands(f, e) + ")";
    case ExprKind::Cast: return std::string(e.explicitCast ? "(Cast! " : "(Cast ") + type + operands(f, e) + ")";
    case ExprKind::Call: return "(Call #" + std::to_string(e.callee) + " " + type + operands(f, e) + ")";
    case ExprKind::MathCall: return "(Math " + std::string(info(e.math).name) + " " + type + operands(f, e) + ")";
    case ExprKind::Comma: return "(, " + type + operands(f, e) + ")";
    case ExprKind::Assert: return "(assert \"" + e.text + "\"" + operands(f, e) + ")";
    case ExprKind::AtomicRmw: return "(" + std::string(memberName(e.atomicOp)) + " " + type + operands(f, e) + ")";
  }
  return "(?)";
}

std::string dump(const Function& f, const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Block: {
      std::string out = s.scoped ? "{" : "{|";
      for (const StmtPtr& c : s.stmts) out += " " + child(f, c);
      return out + (s.scoped ? " }" : " |}");
    }
    case StmtKind::Decl: {
      const Var& v = f.vars[s.var];
      std::string out = "(Decl " + v.name + " " + shortName(v.type);
      if (v.binding != Binding::Value) out += v.binding == Binding::ConstReference ? " const&" : "&";
      if (s.expr) out += " " + dump(f, *s.expr);
      if (s.arrayInitialized) {
        out += " = {";
        for (const ExprPtr& e : s.inits) out += " " + child(f, e);
        out += " }";
      }
      return out + ")";
    }
    case StmtKind::ExprStmt: return child(f, s.expr) + ";";
    case StmtKind::If:
      return "(If " + child(f, s.cond) + " " + child(f, s.then) +
             (s.otherwise ? " else " + child(f, s.otherwise) : "") + ")";
    case StmtKind::For:
      return "(For " + child(f, s.init) + " " + child(f, s.cond) + " " + child(f, s.expr) + " " + child(f, s.body) +
             ")";
    case StmtKind::While: return "(While " + child(f, s.cond) + " " + child(f, s.body) + ")";
    case StmtKind::DoWhile: return "(Do " + child(f, s.body) + " " + child(f, s.cond) + ")";
    case StmtKind::Break: return "break;";
    case StmtKind::Continue: return "continue;";
    case StmtKind::Return: return s.expr ? "(Return " + dump(f, *s.expr) + ")" : "(Return)";
    case StmtKind::Switch: return "(Switch " + child(f, s.cond) + " " + child(f, s.body) + ")";
    case StmtKind::Case: return "(Case " + std::to_string(static_cast<std::int64_t>(s.caseValue)) + ")";
    case StmtKind::Default: return "(Default)";
    case StmtKind::Null: return ";";
  }
  return "(?)";
}

}  // namespace culift::test
