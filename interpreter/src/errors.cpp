// Interpreter errors: diagnostics at the node's location, with the values involved.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "ops.hpp"

namespace culift::interp {

Error::Error(Diagnostic d) : std::runtime_error(d.format()), diag_(std::move(d)) {}

std::string Value::toString() const {
  return exec::describe(type, [&] {
    exec::Raw r;
    switch (type) {
      case Scalar::Bool: r = exec::make(b); break;
      case Scalar::F32: r = exec::make(f); break;
      case Scalar::F64: r = exec::make(d); break;
      case Scalar::I8: r = exec::make(static_cast<std::int8_t>(i)); break;
      case Scalar::I16: r = exec::make(static_cast<std::int16_t>(i)); break;
      case Scalar::I32: r = exec::make(static_cast<std::int32_t>(i)); break;
      case Scalar::I64: r = exec::make(i); break;
      case Scalar::U8: r = exec::make(static_cast<std::uint8_t>(u)); break;
      case Scalar::U16: r = exec::make(static_cast<std::uint16_t>(u)); break;
      case Scalar::U32: r = exec::make(static_cast<std::uint32_t>(u)); break;
      case Scalar::U64: r = exec::make(u); break;
      case Scalar::Void: break;
    }
    return r;
  }());
}

namespace exec {

thread_local const Function* currentFunction = nullptr;

namespace {
std::string formatFloating(double v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

std::string sourceLineOf(const SourceLoc& loc) {
  if (!loc.valid() || loc.file.empty()) return {};
  std::ifstream in(loc.file);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (n == loc.line) return line;
  return {};
}

// A short rendering of an operand for messages: a variable's name or a literal.
std::string operandText(const Expr& e) {
  const Expr* x = &e;
  while (x->kind == ExprKind::Cast && !x->explicitCast && x->operands.size() == 1) x = x->operands[0].get();
  if (x->kind == ExprKind::VarRef && currentFunction && x->var < currentFunction->vars.size())
    return currentFunction->vars[x->var].name;
  if (x->kind == ExprKind::Subscript && x->operands.size() == 2) {
    std::string base = operandText(*x->operands[0]);
    return base.empty() ? std::string() : base + "[" + operandText(*x->operands[1]) + "]";
  }
  if (x->kind == ExprKind::IntLiteral || x->kind == ExprKind::FloatLiteral) return "literal";
  return {};
}
}  // namespace

std::string describe(Scalar s, Raw v) {
  switch (s) {
    case Scalar::Bool: return get<bool>(v) ? "true" : "false";
    case Scalar::F32: return formatFloating(get<float>(v), 9);
    case Scalar::F64: return formatFloating(get<double>(v), 17);
    case Scalar::I8: return std::to_string(get<std::int8_t>(v));
    case Scalar::I16: return std::to_string(get<std::int16_t>(v));
    case Scalar::I32: return std::to_string(get<std::int32_t>(v));
    case Scalar::I64: return std::to_string(get<std::int64_t>(v));
    case Scalar::U8: return std::to_string(get<std::uint8_t>(v));
    case Scalar::U16: return std::to_string(get<std::uint16_t>(v));
    case Scalar::U32: return std::to_string(get<std::uint32_t>(v));
    case Scalar::U64: return std::to_string(get<std::uint64_t>(v));
    case Scalar::Void: break;
  }
  return "void";
}

void fail(const SourceRange& where, std::string message, std::string hint) {
  Diagnostic d;
  d.severity = Severity::Error;
  d.loc = where.begin;
  d.message = std::move(message);
  d.hint = std::move(hint);
  d.sourceLine = sourceLineOf(d.loc);
  throw Error(std::move(d));
}

void failNoLoc(std::string message) {
  Diagnostic d;
  d.message = std::move(message);
  throw Error(std::move(d));
}

std::string varName(const Frame& f, const Expr& e) {
  if (e.kind == ExprKind::VarRef && f.fn && e.var < f.fn->fn->vars.size())
    return "'" + f.fn->fn->vars[e.var].name + "'";
  return "of the expression";
}

void failArith(const Expr& e, std::string what, std::string lhs, std::string rhs) {
  std::string op;
  std::string type(spelling(e.type.scalar));
  std::string names;
  if (e.kind == ExprKind::Binary || e.kind == ExprKind::CompoundAssign) {
    op = std::string(spelling(e.binaryOp));
    if (e.kind == ExprKind::CompoundAssign) type = std::string(spelling(e.computeType));
    else if (!e.operands.empty()) type = std::string(spelling(e.operands[0]->type.scalar));
    std::string a = e.operands.size() == 2 ? operandText(*e.operands[0]) : "";
    std::string b = e.operands.size() == 2 ? operandText(*e.operands[1]) : "";
    if (!a.empty() || !b.empty())
      names = " ('" + (a.empty() ? "..." : a) + "' " + op + (e.kind == ExprKind::CompoundAssign ? "= '" : " '") +
              (b.empty() ? "..." : b) + "')";
  } else if (e.kind == ExprKind::IncDec) {
    op = std::string(spelling(e.incDecOp));
    std::string a = e.operands.size() == 1 ? operandText(*e.operands[0]) : "";
    fail(e.range, what + ": " + lhs + " " + op + " overflows " + type + (a.empty() ? "" : " ('" + a + "')"));
  } else if (e.kind == ExprKind::Unary) {
    std::string a = e.operands.size() == 1 ? operandText(*e.operands[0]) : "";
    fail(e.range, what + ": -(" + rhs + ") does not fit in " + type + (a.empty() ? "" : " ('" + a + "')"));
  } else {
    fail(e.range, what + ": " + lhs + " does not fit in " + type);
  }
  fail(e.range, what + ": " + lhs + " " + op + " " + rhs + " in " + type + names,
       what.find("zero") != std::string::npos ? "guard the divisor before dividing" : "");
}

void failShift(const Expr& e, std::string lhs, std::string count, unsigned width) {
  std::string b = e.operands.size() == 2 ? operandText(*e.operands[1]) : "";
  const std::string what = count.starts_with("-")
                               ? std::string("negative")
                               : "not less than the width " + std::to_string(width) + " of the shifted type";
  fail(e.range,
       "shift count " + count + (b.empty() ? "" : " ('" + b + "')") + " is " + what + " (shifting " + lhs + ")",
       "shift counts must be in [0, " + std::to_string(width - 1) + "]");
}

void failConvert(const Expr& e, std::string value, Scalar to) {
  std::string a = e.operands.size() == 1 ? operandText(*e.operands[0]) : "";
  fail(e.range,
       "conversion of " + value + (a.empty() ? "" : " ('" + a + "')") + " to " + std::string(spelling(to)) +
           " is out of range",
       "floating-point to integer conversion of a value outside the integer's range is undefined");
}

}  // namespace exec
}  // namespace culift::interp
