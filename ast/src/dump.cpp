// The AST dumper (culift/ast/dump.hpp): the indented tree of `culift ast --dump` and the
// one-line S-expressions tests compare lifted trees with.
#include "culift/ast/dump.hpp"

#include "culift/ast/stack.hpp"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace culift::ast {
namespace {

std::string floating(double v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format("%.17g", v);
  return s;
}

std::string integer(const Expr& e) {
  if (e.type.scalar == Scalar::Bool) return e.intBits ? "true" : "false";
  return isSigned(e.type.scalar) ? std::to_string(static_cast<std::int64_t>(e.intBits)) : std::to_string(e.intBits);
}

std::string varName(const Function& f, VarId v) { return v < f.vars.size() ? f.vars[v].name : std::string("?"); }

std::string rangeText(const SourceRange& r) {
  if (!r.begin.valid()) return "<no range>";
  return std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column) + "-" + std::to_string(r.endLine) + ":" +
         std::to_string(r.endColumn);
}

std::string bindingText(Binding b) {
  switch (b) {
    case Binding::Value: return "";
    case Binding::Reference: return "&";
    case Binding::ConstReference: return " const&";
  }
  return "";
}

// ---- the tree ---------------------------------------------------------------------------

class TreeWriter {
 public:
  TreeWriter(const Module& m, const Function& f, llvm::raw_ostream& os) : m_(m), f_(f), os_(os) {}

  void function() {
    os_ << "Function " << f_.name << " -> " << toString(f_.returnType) << "  " << name(f_.mode)
        << (f_.annotated ? "" : ", called by a kernel") << "  " << rangeText(f_.range) << "\n";
    for (std::size_t v = 0; v < f_.vars.size(); ++v) {
      const Var& var = f_.vars[v];
      os_ << "  " << (v < f_.numParams ? "Param " : "Local ") << "#" << v << " " << var.name << " : "
          << toString(var.type) << bindingText(var.binding) << "  " << rangeText(var.range) << "\n";
    }
    if (f_.body) stmt(*f_.body, 1);
    else os_ << "  <missing body>\n";
  }

 private:
  void line(unsigned depth) { os_.indent(2 * depth); }

  void expr(const Expr& e, unsigned depth) {
    line(depth);
    os_ << name(e.kind);
    switch (e.kind) {
      case ExprKind::IntLiteral:
      case ExprKind::BoolLiteral: os_ << " " << integer(e); break;
      case ExprKind::FloatLiteral: os_ << " " << floating(e.floatValue); break;
      case ExprKind::VarRef: os_ << " " << varName(f_, e.var) << " #" << e.var; break;
      case ExprKind::Unary: os_ << " '" << spelling(e.unaryOp) << "'"; break;
      case ExprKind::Binary: os_ << " '" << spelling(e.binaryOp) << "'"; break;
      case ExprKind::CompoundAssign:
        os_ << " '" << spelling(e.binaryOp) << "=' in "
            << (e.computeType == Scalar::Void ? std::string("the target's type")
                                              : std::string(spelling(e.computeType)));
        break;
      case ExprKind::IncDec:
        os_ << (isPrefix(e.incDecOp) ? " prefix '" : " postfix '") << spelling(e.incDecOp) << "'";
        break;
      case ExprKind::Cast: os_ << (e.explicitCast ? " explicit" : " implicit"); break;
      case ExprKind::Call:
        os_ << " " << (e.callee < m_.functions.size() ? m_.functions[e.callee].name : std::string("?")) << " #"
            << e.callee;
        break;
      case ExprKind::MathCall: os_ << " " << info(e.math).name; break;
      case ExprKind::Assert: os_ << " \"" << e.text << "\""; break;
      case ExprKind::AtomicRmw: os_ << " " << memberName(e.atomicOp); break;
      case ExprKind::Subscript:
      case ExprKind::Assign:
      case ExprKind::Conditional:
      case ExprKind::Comma: break;
    }
    os_ << " : " << toString(e.type) << "  " << rangeText(e.range) << "\n";
    for (const ExprPtr& o : e.operands) child(o, depth + 1);
  }

  void stmt(const Stmt& s, unsigned depth) {
    line(depth);
    os_ << name(s.kind);
    switch (s.kind) {
      case StmtKind::Block: os_ << (s.scoped ? "" : " (declaration group)"); break;
      case StmtKind::Decl:
        os_ << " " << varName(f_, s.var) << " #" << s.var;
        if (s.var < f_.vars.size())
          os_ << " : " << toString(f_.vars[s.var].type) << bindingText(f_.vars[s.var].binding);
        if (s.arrayInitialized || !s.inits.empty())
          os_ << " = {" << s.inits.size() << " initializer" << (s.inits.size() == 1 ? "" : "s") << ", rest zero}";
        break;
      case StmtKind::Case: {
        const std::int64_t v = static_cast<std::int64_t>(s.caseValue);
        os_ << " " << v;
        break;
      }
      default: break;
    }
    os_ << "  " << rangeText(s.range) << "\n";
    // Children in the order they run, each part named where a statement has several.
    auto part = [&](const char* label, const auto& p) {
      if (!p) return;
      line(depth + 1);
      os_ << label << ":\n";
      child(p, depth + 2);
    };
    switch (s.kind) {
      case StmtKind::For:
        part("init", s.init);
        part("cond", s.cond);
        part("inc", s.expr);
        part("body", s.body);
        return;
      case StmtKind::If:
        part("cond", s.cond);
        part("then", s.then);
        part("else", s.otherwise);
        return;
      case StmtKind::DoWhile:
        part("body", s.body);
        part("cond", s.cond);
        return;
      default: break;
    }
    if (s.cond) child(s.cond, depth + 1);
    if (s.expr) child(s.expr, depth + 1);
    for (const ExprPtr& e : s.inits) child(e, depth + 1);
    if (s.init) child(s.init, depth + 1);
    if (s.then) child(s.then, depth + 1);
    if (s.otherwise) child(s.otherwise, depth + 1);
    if (s.body) child(s.body, depth + 1);
    for (const StmtPtr& c : s.stmts) child(c, depth + 1);
  }

  void child(const ExprPtr& e, unsigned depth) {
    if (e) return expr(*e, depth);
    line(depth);
    os_ << "<missing>\n";
  }
  void child(const StmtPtr& s, unsigned depth) {
    if (s) return stmt(*s, depth);
    line(depth);
    os_ << "<missing>\n";
  }

  const Module& m_;
  const Function& f_;
  llvm::raw_ostream& os_;
};

// ---- one line ---------------------------------------------------------------------------

std::string operands(const Function& f, const Expr& e) {
  std::string s;
  for (const ExprPtr& o : e.operands) s += " " + (o ? dumpLine(f, *o) : std::string("<null>"));
  return s;
}
std::string child(const Function& f, const StmtPtr& s) { return s ? dumpLine(f, *s) : std::string("<none>"); }
std::string child(const Function& f, const ExprPtr& e) { return e ? dumpLine(f, *e) : std::string("<none>"); }

}  // namespace

std::string shortName(const Type& t) {
  static const char* const kNames[] = {"void", "bool", "i8",  "u8",  "i16", "u16",
                                       "i32",  "u32",  "i64", "u64", "f32", "f64"};
  const unsigned k = static_cast<unsigned>(t.scalar);
  std::string s = t.constElements ? "const " : "";
  s += k < std::size(kNames) ? kNames[k] : "?";
  if (t.isPointer()) s += "*";
  if (t.isArray()) s += "[" + std::to_string(t.extent) + "]";
  return s;
}

std::string dumpTree(const Module& module, const Function& fn) {
  std::string s;
  llvm::raw_string_ostream os(s);
  runOnCuliftStack([&] { TreeWriter(module, fn, os).function(); });
  return s;
}

std::string dumpTree(const Module& module) {
  std::string s;
  for (const Function& f : module.functions) s += dumpTree(module, f);
  return s;
}

std::string dumpLine(const Function& f, const Expr& e) {
  const std::string type = shortName(e.type);
  switch (e.kind) {
    case ExprKind::IntLiteral: return "(Int " + type + " " + integer(e) + ")";
    case ExprKind::FloatLiteral: return "(Float " + type + " " + floating(e.floatValue) + ")";
    case ExprKind::BoolLiteral: return std::string("(Bool ") + (e.intBits ? "true" : "false") + ")";
    case ExprKind::VarRef: return "(Var " + varName(f, e.var) + ")";
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

std::string dumpLine(const Function& f, const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Block: {
      std::string out = s.scoped ? "{" : "{|";
      for (const StmtPtr& c : s.stmts) out += " " + child(f, c);
      return out + (s.scoped ? " }" : " |}");
    }
    case StmtKind::Decl: {
      if (s.var >= f.vars.size()) return "(Decl ?)";
      const Var& v = f.vars[s.var];
      std::string out = "(Decl " + v.name + " " + shortName(v.type);
      if (v.binding != Binding::Value) out += v.binding == Binding::ConstReference ? " const&" : "&";
      if (s.expr) out += " " + dumpLine(f, *s.expr);
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
    case StmtKind::Return: return s.expr ? "(Return " + dumpLine(f, *s.expr) + ")" : "(Return)";
    case StmtKind::Switch: return "(Switch " + child(f, s.cond) + " " + child(f, s.body) + ")";
    case StmtKind::Case: return "(Case " + std::to_string(static_cast<std::int64_t>(s.caseValue)) + ")";
    case StmtKind::Default: return "(Default)";
    case StmtKind::Null: return ";";
  }
  return "(?)";
}

}  // namespace culift::ast
