// Race analysis (race_analysis.hpp). Every access of a kernel's writable array parameter is
// collected, in the kernel and in the functions it calls (their parameters bound to the
// caller's arguments), with its index as a polynomial over atoms: the thread indices, the
// counters of counted loops (`for (int k = 0; k < n; ++k)`) and uniform values (scalar
// parameters, and anything computed from them alone). An index is one element per output when
// every thread index appears in it, each of its varying atoms once and linearly, and their
// coefficients nest (`(i*nj + j)*nk + k`: nj*nk, nk, 1; a counter's range fits under the next
// coefficient). Two such accesses of one array give the same element to one output only when
// their varying terms agree and their offsets are equal (or, for records `p[7*i + 4]`, differ by
// less than the stride). Anything else, an index culift cannot read (`counts[bin[i]]`,
// `y[i / 2]`, `y[0]`), is reported: it may be correct, but nothing shows it is.
#include "race_analysis.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace culift::codegen {
namespace {

constexpr unsigned kMaxCallDepth = 32;

// ---- polynomials over atoms ------------------------------------------------------------------

using Monomial = std::vector<int>;  // sorted atom ids, repeated for powers
using Poly = std::map<Monomial, std::int64_t>;

// Coefficients are int64_t, checked: an index whose coefficients overflow (a generated
// `x[i * 4611686018427387904LL]`) is one culift cannot read.
[[nodiscard]] bool addTo(Poly& p, const Monomial& m, std::int64_t c) {
  if (c == 0) return true;
  auto [it, inserted] = p.emplace(m, c);
  if (inserted) return true;
  if (__builtin_add_overflow(it->second, c, &it->second)) return false;
  if (it->second == 0) p.erase(it);
  return true;
}
Poly constant(std::int64_t c) {
  Poly p;
  if (c != 0) p.emplace(Monomial{}, c);
  return p;
}
Poly atomPoly(int id) {
  Poly p;
  p.emplace(Monomial{id}, 1);
  return p;
}
std::optional<Poly> sum(const Poly& a, const Poly& b, std::int64_t sign) {
  Poly r = a;
  for (const auto& [m, c] : b) {
    std::int64_t term = 0;
    if (__builtin_mul_overflow(sign, c, &term) || !addTo(r, m, term)) return std::nullopt;
  }
  return r;
}
std::optional<Poly> product(const Poly& a, const Poly& b) {
  Poly r;
  for (const auto& [ma, ca] : a)
    for (const auto& [mb, cb] : b) {
      Monomial m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      std::int64_t c = 0;
      if (__builtin_mul_overflow(ca, cb, &c) || !addTo(r, m, c)) return std::nullopt;
    }
  return r;
}
std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

// Atoms: the thread indices, counted loops' counters and uniform values.
struct Atom {
  enum Kind { Axis, Counter, Uniform } kind = Uniform;
  Poly bound;       // Counter: the counter stays in [0, bound)
  std::string key;  // Uniform: what it stands for
};

struct Access {
  VarId array = kNone;  // the kernel's array parameter
  bool write = false;
  bool ticket = false;  // the index is the old value of a fetch_add(c), c > 0: one per call
  std::optional<Poly> index;
  const Expr* at = nullptr;      // the Subscript
  const Function* fn = nullptr;  // where it is written
  const Expr* update = nullptr;  // the assignment, compound assignment or ++ writing it
};

// ---- the spelling of an access for messages ---------------------------------------------------

int precedence(BinaryOp op) {
  switch (op) {
    case BinaryOp::Mul:
    case BinaryOp::Div:
    case BinaryOp::Rem: return 5;
    case BinaryOp::Add:
    case BinaryOp::Sub: return 4;
    case BinaryOp::Shl:
    case BinaryOp::Shr: return 3;
    default: return 1;
  }
}

std::string spell(const Function& fn, const Expr& e, unsigned depth = 0) {
  if (depth > 16) return "...";
  switch (e.kind) {
    case ExprKind::IntLiteral:
      return isSigned(e.type.scalar) ? std::to_string(static_cast<std::int64_t>(e.intBits)) : std::to_string(e.intBits);
    case ExprKind::BoolLiteral: return e.intBits ? "true" : "false";
    case ExprKind::VarRef: return e.var < fn.vars.size() ? fn.vars[e.var].name : "?";
    case ExprKind::Subscript:
      return spell(fn, *e.operands[0], depth + 1) + "[" + spell(fn, *e.operands[1], depth + 1) + "]";
    case ExprKind::Cast:
      if (!e.explicitCast) return spell(fn, *e.operands[0], depth + 1);
      return "(" + std::string(spelling(e.type.scalar)) + ")" + spell(fn, *e.operands[0], depth + 1);
    case ExprKind::Unary: return std::string(spelling(e.unaryOp)) + spell(fn, *e.operands[0], depth + 1);
    case ExprKind::Binary: {
      auto side = [&](const Expr& o, bool right) {
        const Expr* x = &o;
        while (x->kind == ExprKind::Cast && !x->explicitCast) x = x->operands[0].get();
        std::string s = spell(fn, o, depth + 1);
        if (x->kind != ExprKind::Binary) return s;
        const int p = precedence(x->binaryOp), q = precedence(e.binaryOp);
        const bool wrap = p < q || (right && p == q && e.binaryOp != BinaryOp::Add && e.binaryOp != BinaryOp::Mul);
        return wrap ? "(" + s + ")" : s;
      };
      return side(*e.operands[0], false) + " " + std::string(spelling(e.binaryOp)) + " " + side(*e.operands[1], true);
    }
    case ExprKind::AtomicRmw:
      return "std::atomic_ref(" + spell(fn, *e.operands[0], depth + 1) + ")." + std::string(memberName(e.atomicOp)) +
             "(" + spell(fn, *e.operands[1], depth + 1) + ")";
    default: return "...";
  }
}

// ---- collecting the accesses ------------------------------------------------------------------

class Collector {
 public:
  Collector(const Module& module, const Function& kernel) : module_(module), kernel_(kernel) {}

  std::vector<Access> run() {
    Scope top;
    top.fn = &kernel_;
    const std::vector<int>& axes = kernel_.mode == IndexMode::ElementWise ? std::vector<int>{} : kernel_.indexParams;
    for (unsigned p = 0; p < kernel_.numParams; ++p) {
      const Var& v = kernel_.vars[p];
      auto axis = std::find(axes.begin(), axes.end(), static_cast<int>(p));
      if (v.type.isPointer()) {
        if (!v.type.constElements) top.arrays[p] = p;
      } else if (axis != axes.end()) {
        top.values[p] = atomPoly(newAtom(Atom::Axis, {}, "axis"));
      } else if (v.type.isValue() && !v.isReference()) {
        top.values[p] = atomPoly(newAtom(Atom::Uniform, {}, "param " + v.name));
      }
    }
    // A parameter the body assigns is no longer the same for every output.
    prepare(top);
    for (unsigned p = 0; p < kernel_.numParams; ++p)
      if (top.assigned.count(p)) top.values.erase(p);
    if (kernel_.body) stmt(*kernel_.body, top, 0);
    return std::move(accesses_);
  }

  const std::vector<Atom>& atoms() const { return atoms_; }
  int ticketAtom() { return newAtom(Atom::Axis, {}, "ticket"); }

 private:
  struct Scope {
    const Function* fn = nullptr;
    std::map<VarId, std::optional<Poly>> values;  // bound scalar parameters
    std::map<VarId, VarId> arrays;                // array parameters bound to a kernel array
    std::map<VarId, const Expr*> defs;            // locals declared with a value and never assigned
    std::map<VarId, int> counters;                // counted loops' counters
    std::map<VarId, std::vector<const Expr*>> assignments;
    std::set<VarId> assigned;
  };

  int newAtom(Atom::Kind kind, Poly bound, std::string key) {
    Atom a;
    a.kind = kind;
    a.bound = std::move(bound);
    a.key = std::move(key);
    atoms_.push_back(std::move(a));
    return static_cast<int>(atoms_.size() - 1);
  }
  int uniformAtom(const std::string& key) {
    for (std::size_t k = 0; k < atoms_.size(); ++k)
      if (atoms_[k].kind == Atom::Uniform && atoms_[k].key == key) return static_cast<int>(k);
    return newAtom(Atom::Uniform, {}, key);
  }
  bool uniform(const Poly& p) const {
    for (const auto& [m, c] : p)
      for (int a : m)
        if (atoms_[a].kind != Atom::Uniform) return false;
    return true;
  }
  static std::string keyOf(const Poly& p) {
    std::string s;
    for (const auto& [m, c] : p) {
      s += std::to_string(c) + "*";
      for (int a : m) s += std::to_string(a) + ".";
      s += "+";
    }
    return s;
  }

  // Which locals keep the value they were declared with, and every assignment of a variable.
  void prepare(Scope& s) {
    if (!s.fn->body) return;
    std::function<void(const Stmt&)> walk = [&](const Stmt& st) {
      if (st.kind == StmtKind::Decl && st.var < s.fn->vars.size() && st.expr && s.fn->vars[st.var].type.isValue() &&
          !s.fn->vars[st.var].isReference())
        s.defs[st.var] = st.expr.get();
      for (const Stmt* c : {st.init.get(), st.then.get(), st.otherwise.get(), st.body.get()})
        if (c) walk(*c);
      for (const StmtPtr& c : st.stmts)
        if (c) walk(*c);
    };
    walk(*s.fn->body);
    visitExprs(*s.fn->body, [&](const Expr& e) {
      auto target = [&](const Expr& l) {
        if (l.kind == ExprKind::VarRef) {
          s.assignments[l.var].push_back(&e);
          s.assigned.insert(l.var);
        }
      };
      if ((e.kind == ExprKind::Assign || e.kind == ExprKind::CompoundAssign || e.kind == ExprKind::IncDec) &&
          !e.operands.empty())
        target(*e.operands[0]);
      if (e.kind == ExprKind::Call && e.callee < module_.functions.size()) {
        const Function& callee = module_.functions[e.callee];
        for (std::size_t a = 0; a < e.operands.size() && a < callee.numParams; ++a)
          if (callee.vars[a].binding == Binding::Reference) target(*e.operands[a]);
      }
      return true;
    });
    // A reference local bound to a variable writes it through another name.
    std::function<void(const Stmt&)> refs = [&](const Stmt& st) {
      if (st.kind == StmtKind::Decl && st.var < s.fn->vars.size() && s.fn->vars[st.var].isReference() && st.expr &&
          st.expr->kind == ExprKind::VarRef)
        s.assigned.insert(st.expr->var);
      for (const Stmt* c : {st.init.get(), st.then.get(), st.otherwise.get(), st.body.get()})
        if (c) refs(*c);
      for (const StmtPtr& c : st.stmts)
        if (c) refs(*c);
    };
    refs(*s.fn->body);
    for (VarId v : s.assigned) s.defs.erase(v);
  }

  std::optional<Poly> value(const Expr& e, Scope& s, unsigned depth) {
    if (depth > 64) return std::nullopt;
    switch (e.kind) {
      case ExprKind::IntLiteral: {
        std::int64_t v = static_cast<std::int64_t>(e.intBits);
        const unsigned bits = 8 * byteSize(e.type.scalar);
        if (bits < 64 && isSigned(e.type.scalar) && (e.intBits >> (bits - 1) & 1)) v -= std::int64_t{1} << bits;
        return constant(v);
      }
      case ExprKind::BoolLiteral: return constant(e.intBits ? 1 : 0);
      case ExprKind::Cast:
        if (!isInteger(e.type.scalar) || !isInteger(e.operands[0]->type.scalar)) return opaque(e, s, depth);
        return value(*e.operands[0], s, depth + 1);
      case ExprKind::VarRef: {
        if (auto it = s.counters.find(e.var); it != s.counters.end()) return atomPoly(it->second);
        if (auto it = s.values.find(e.var); it != s.values.end()) return it->second;
        if (auto it = s.defs.find(e.var); it != s.defs.end()) return value(*it->second, s, depth + 1);
        return std::nullopt;
      }
      case ExprKind::Unary:
        if (e.unaryOp == UnaryOp::Plus) return value(*e.operands[0], s, depth + 1);
        if (e.unaryOp == UnaryOp::Neg) {
          auto a = value(*e.operands[0], s, depth + 1);
          if (a) return sum({}, *a, -1);
          return std::nullopt;
        }
        return opaque(e, s, depth);
      case ExprKind::Binary: {
        if (e.binaryOp == BinaryOp::Add || e.binaryOp == BinaryOp::Sub || e.binaryOp == BinaryOp::Mul) {
          auto a = value(*e.operands[0], s, depth + 1);
          auto b = value(*e.operands[1], s, depth + 1);
          if (!a || !b) return std::nullopt;
          if (e.binaryOp == BinaryOp::Mul) return product(*a, *b);
          return sum(*a, *b, e.binaryOp == BinaryOp::Add ? 1 : -1);
        }
        return opaque(e, s, depth);
      }
      default: return opaque(e, s, depth);
    }
  }

  // An expression culift does not read as a polynomial: a uniform atom of its own when it
  // depends on uniform values alone (n / 2 is the same for every output), else unknown.
  std::optional<Poly> opaque(const Expr& e, Scope& s, unsigned depth) {
    if (e.kind != ExprKind::Binary && e.kind != ExprKind::Unary && e.kind != ExprKind::Cast &&
        e.kind != ExprKind::MathCall && e.kind != ExprKind::Conditional)
      return std::nullopt;
    std::string key = std::string(name(e.kind)) + std::to_string(static_cast<int>(e.binaryOp)) + "." +
                      std::to_string(static_cast<int>(e.unaryOp)) + "." + std::to_string(static_cast<int>(e.math)) +
                      "." + std::string(spelling(e.type.scalar)) + "(";
    for (const ExprPtr& o : e.operands) {
      auto p = value(*o, s, depth + 1);
      if (!p || !uniform(*p)) return std::nullopt;
      key += keyOf(*p) + ",";
    }
    return atomPoly(uniformAtom(key + ")"));
  }

  void record(const Expr& sub, bool write, const Expr* update, Scope& s) {
    if (sub.kind != ExprKind::Subscript || sub.operands[0]->kind != ExprKind::VarRef) return;
    auto it = s.arrays.find(sub.operands[0]->var);
    if (it == s.arrays.end()) return;
    Access a;
    a.array = it->second;
    a.write = write;
    a.index = value(*sub.operands[1], s, 0);
    const Expr* index = sub.operands[1].get();
    while (index->kind == ExprKind::Cast && !index->explicitCast) index = index->operands[0].get();
    if (index->kind == ExprKind::AtomicRmw && index->atomicOp == AtomicOp::Add && isInteger(index->type.scalar)) {
      auto step = value(*index->operands[1], s, 0);
      a.ticket = step && step->size() == 1 && step->begin()->first.empty() && step->begin()->second > 0;
    }
    a.at = &sub;
    a.fn = s.fn;
    a.update = update;
    accesses_.push_back(std::move(a));
  }

  // The accesses of `e`; `asWrite`: e is the target of an assignment.
  void expr(const Expr& e, Scope& s, unsigned depth, const Expr* update = nullptr) {
    switch (e.kind) {
      case ExprKind::Subscript:
        record(e, update != nullptr, update, s);
        expr(*e.operands[1], s, depth);
        return;
      case ExprKind::Assign:
      case ExprKind::CompoundAssign:
      case ExprKind::IncDec:
        expr(*e.operands[0], s, depth, &e);
        for (std::size_t k = 1; k < e.operands.size(); ++k) expr(*e.operands[k], s, depth);
        return;
      case ExprKind::AtomicRmw:
        // Not an access that races: its index and operand are read as usual.
        expr(*e.operands[0]->operands[1], s, depth);
        expr(*e.operands[1], s, depth);
        return;
      case ExprKind::Call: call(e, s, depth); return;
      default:
        for (const ExprPtr& o : e.operands)
          if (o) expr(*o, s, depth);
    }
  }

  void call(const Expr& e, Scope& s, unsigned depth) {
    if (e.callee >= module_.functions.size()) return;
    const Function& callee = module_.functions[e.callee];
    Scope inner;
    inner.fn = &callee;
    for (std::size_t a = 0; a < e.operands.size(); ++a) {
      const Expr& arg = *e.operands[a];
      if (a >= callee.numParams) {
        expr(arg, s, depth);
        continue;
      }
      const Var& p = callee.vars[a];
      if (p.type.isPointer()) {
        if (arg.kind == ExprKind::VarRef)
          if (auto it = s.arrays.find(arg.var); it != s.arrays.end()) inner.arrays[a] = it->second;
      } else if (p.isReference()) {
        // Bound to an element: written through the reference (a const one only read).
        expr(arg, s, depth, p.binding == Binding::Reference ? &e : nullptr);
      } else {
        expr(arg, s, depth);
        inner.values[a] = value(arg, s, 0);
      }
    }
    if (depth >= kMaxCallDepth || !callee.body) return;
    prepare(inner);
    for (unsigned p = 0; p < callee.numParams; ++p)
      if (inner.assigned.count(p)) inner.values.erase(p);
    stmt(*callee.body, inner, depth + 1);
  }

  // `for (int k = a; k < b; ++k)` with a >= 0 and b uniform, k changed by the increment alone:
  // k is a counter in [0, b).
  void counter(const Stmt& f, Scope& s) {
    if (!f.init || f.init->kind != StmtKind::Decl || !f.init->expr || !f.cond || !f.expr) return;
    const VarId k = f.init->var;
    if (k >= s.fn->vars.size() || !isInteger(s.fn->vars[k].type.scalar)) return;
    auto only = s.assignments.find(k);
    if (only == s.assignments.end() || only->second.size() != 1 || only->second[0] != f.expr.get()) return;
    const Expr& inc = *f.expr;
    const bool step = (inc.kind == ExprKind::IncDec &&
                       (inc.incDecOp == IncDecOp::PreInc || inc.incDecOp == IncDecOp::PostInc)) ||
                      (inc.kind == ExprKind::CompoundAssign && inc.binaryOp == BinaryOp::Add &&
                       value(*inc.operands[1], s, 0).value_or(Poly{}) == constant(1));
    if (!step) return;
    const Expr* cond = f.cond.get();
    if (cond->kind != ExprKind::Binary || (cond->binaryOp != BinaryOp::Lt && cond->binaryOp != BinaryOp::Le)) return;
    const Expr* lhs = cond->operands[0].get();
    while (lhs->kind == ExprKind::Cast && !lhs->explicitCast) lhs = lhs->operands[0].get();
    if (lhs->kind != ExprKind::VarRef || lhs->var != k) return;
    auto start = value(*f.init->expr, s, 0);
    auto bound = value(*cond->operands[1], s, 0);
    if (!start || !bound || !uniform(*bound)) return;
    if (start->size() > 1 || (start->size() == 1 && (!start->begin()->first.empty() || start->begin()->second < 0)))
      return;
    if (cond->binaryOp == BinaryOp::Le) {
      bound = sum(*bound, constant(1), 1);
      if (!bound) return;
    }
    s.counters[k] = newAtom(Atom::Counter, *bound, "counter");
  }

  void stmt(const Stmt& st, Scope& s, unsigned depth) {
    if (st.kind == StmtKind::For) counter(st, s);
    if (st.kind == StmtKind::Decl && st.var < s.fn->vars.size() && s.fn->vars[st.var].isReference() && st.expr) {
      expr(*st.expr, s, depth, s.fn->vars[st.var].binding == Binding::Reference ? st.expr.get() : nullptr);
    } else {
      for (const Expr* e : {st.cond.get(), st.expr.get()})
        if (e) expr(*e, s, depth);
    }
    for (const ExprPtr& e : st.inits)
      if (e) expr(*e, s, depth);
    for (const Stmt* c : {st.init.get(), st.then.get(), st.otherwise.get(), st.body.get()})
      if (c) stmt(*c, s, depth);
    for (const StmtPtr& c : st.stmts)
      if (c) stmt(*c, s, depth);
  }

  const Module& module_;
  const Function& kernel_;
  std::vector<Atom> atoms_;
  std::vector<Access> accesses_;
};

// ---- one element per output ------------------------------------------------------------------

struct Term {
  int var;               // the varying atom
  Monomial coefficient;  // its uniform atoms
  std::int64_t literal;  // its number
};

struct Shape {
  bool injective = false;
  std::vector<Term> terms;  // by coefficient, smallest first
  Poly offset;              // the uniform rest
};

class Checker {
 public:
  Checker(const std::vector<Atom>& atoms, unsigned axes) : atoms_(atoms), axes_(axes) {}

  Shape shape(const std::optional<Poly>& index) const {
    Shape r;
    if (!index) return r;
    std::map<int, Term> byVar;
    for (const auto& [m, c] : *index) {
      int varying = -1;
      Monomial rest;
      for (int a : m) {
        if (atoms_[a].kind == Atom::Uniform) {
          rest.push_back(a);
        } else if (varying < 0) {
          varying = a;
        } else {
          return r;  // i * j, k * k: not linear
        }
      }
      if (varying < 0) {
        if (!addTo(r.offset, m, c)) return r;
        continue;
      }
      if (!byVar.emplace(varying, Term{varying, rest, c}).second) return r;  // (n + 1) * i
    }
    unsigned axesSeen = 0;
    for (const auto& [v, t] : byVar) {
      if (atoms_[v].kind == Atom::Axis) ++axesSeen;
      r.terms.push_back(t);
    }
    if (axesSeen != axes_ || r.terms.empty()) return r;
    std::sort(r.terms.begin(), r.terms.end(),
              [](const Term& a, const Term& b) { return a.coefficient.size() < b.coefficient.size(); });
    for (std::size_t k = 0; k + 1 < r.terms.size(); ++k) {
      const Term& lo = r.terms[k];
      const Term& hi = r.terms[k + 1];
      if (lo.literal != hi.literal) return r;
      if (lo.coefficient.size() >= hi.coefficient.size() ||
          !std::includes(hi.coefficient.begin(), hi.coefficient.end(), lo.coefficient.begin(), lo.coefficient.end()))
        return r;
      if (atoms_[lo.var].kind == Atom::Counter) {
        // The counter's range fits under the next coefficient: coefficient * bound == next.
        const Poly c{{lo.coefficient, 1}}, h{{hi.coefficient, 1}};
        if (product(c, atoms_[lo.var].bound) != h) return r;
      }
    }
    r.injective = true;
    return r;
  }

  // Whether two accesses with one element per output give each output the same elements.
  bool sameElements(const Shape& a, const Shape& b) const {
    if (a.terms.size() != b.terms.size()) return false;
    for (std::size_t k = 0; k < a.terms.size(); ++k) {
      const Term &x = a.terms[k], &y = b.terms[k];
      if (x.coefficient != y.coefficient || x.literal != y.literal) return false;
      const Atom &p = atoms_[x.var], &q = atoms_[y.var];
      if (p.kind != q.kind) return false;
      if (p.kind == Atom::Axis && x.var != y.var) return false;
      if (p.kind == Atom::Counter && p.bound != q.bound) return false;
    }
    const std::optional<Poly> d = sum(a.offset, b.offset, -1);
    if (!d) return false;
    if (d->empty()) return true;
    // Fields of a record: p[7*i + 4] and p[7*i + 1] never meet when 3 is no multiple of 7.
    if (a.terms.size() == 1 && a.terms[0].coefficient.empty() && d->size() == 1 && d->begin()->first.empty()) {
      // diff is not 0: under the stride in magnitude, it is no multiple of it.
      const std::int64_t stride = a.terms[0].literal, diff = d->begin()->second;
      return stride != 0 && magnitude(diff) < magnitude(stride);
    }
    return false;
  }

 private:
  const std::vector<Atom>& atoms_;
  unsigned axes_;
};

std::string where(const Access& a) {
  return "'" + spell(*a.fn, *a.at) + "' (line " + std::to_string(a.at->range.begin.line) + ")";
}

void warn(DiagnosticSink& diags, const Access& at, std::string message, std::string hint) {
  Diagnostic d;
  d.severity = Severity::Warning;
  d.loc = at.at->range.begin;
  d.message = std::move(message);
  d.hint = std::move(hint);
  diags.report(std::move(d));
}

// The atomic a racy accumulation should be: `counts[k] += v` -> fetch_add(v).
std::string atomicHint(const Access& a) {
  const std::string element = spell(*a.fn, *a.at);
  const std::string type(spelling(a.at->type.scalar));
  std::string op = "fetch_add", value = "v";
  if (a.update && a.update->kind == ExprKind::IncDec) {
    const bool inc = a.update->incDecOp == IncDecOp::PreInc || a.update->incDecOp == IncDecOp::PostInc;
    op = inc ? "fetch_add" : "fetch_sub";
    value = "1";
  } else if (a.update && a.update->kind == ExprKind::CompoundAssign &&
             (a.update->binaryOp == BinaryOp::Add || a.update->binaryOp == BinaryOp::Sub)) {
    op = a.update->binaryOp == BinaryOp::Add ? "fetch_add" : "fetch_sub";
    value = spell(*a.fn, *a.update->operands[1]);
  }
  return "for an accumulation, update the element atomically: std::atomic_ref<" + type + ">(" + element + ")." + op +
         "(" + value + "); otherwise give each output an element of its own";
}

void diagnoseKernel(const Module& module, const Function& kernel, DiagnosticSink& diags) {
  Collector collector(module, kernel);
  const std::vector<Access> accesses = collector.run();
  const unsigned axes = kernel.mode == IndexMode::ElementWise ? 1 : rank(kernel.mode);
  Checker checker(collector.atoms(), axes);
  std::vector<Shape> shapes;
  for (const Access& a : accesses) {
    shapes.push_back(checker.shape(a.index));
    if (a.ticket) {
      // kept[std::atomic_ref<int>(n[0]).fetch_add(1)]: each call takes another element (until
      // the counter wraps), an index of its own that no other access shares.
      shapes.back().injective = true;
      shapes.back().terms = {Term{collector.ticketAtom(), {}, 1}};
    }
  }
  std::set<const Expr*> reported;
  auto once = [&](const Access& a) { return reported.insert(a.at).second; };
  const char* stencilHint =
      "write the results to a separate output array and keep this one an input (const), or read only the "
      "elements the same output writes";
  for (std::size_t x = 0; x < accesses.size(); ++x) {
    const Access& a = accesses[x];
    if (a.write && !shapes[x].injective) {
      if (once(a))
        warn(diags, a,
             "possible data race: " + where(a) +
                 " may be written by more than one output of the launch; culift cannot prove its index differs "
                 "between outputs",
             atomicHint(a));
      continue;
    }
    // The first write of the same array that this access may meet in another output.
    for (std::size_t y = 0; y < accesses.size(); ++y) {
      const Access& w = accesses[y];
      if (y == x || !w.write || w.array != a.array) continue;
      if (!shapes[y].injective) {
        if (a.write) continue;  // reported at the write
      } else if (shapes[x].injective && checker.sameElements(shapes[x], shapes[y])) {
        continue;
      }
      if (a.write && y > x) continue;  // two writes: reported at the later one
      if (once(a)) {
        if (a.write)
          warn(diags, a,
               "possible data race: " + where(a) +
                   " writes an element that another output of the launch may write at " + where(w),
               "give each output elements of its own (one index per output, y[i]), or update shared elements with "
               "std::atomic_ref");
        else
          warn(diags, a,
               "possible data race: " + where(a) + " reads an element that another output of the launch may write at " +
                   where(w) + "; the result depends on the order the outputs run in",
               stencilHint);
      }
      break;
    }
  }
}

bool usesAtomicsIn(const Module& module, const Stmt& body, std::set<FuncId>& seen) {
  bool found = false;
  visitExprs(body, [&](const Expr& e) {
    if (found) return false;
    if (e.kind == ExprKind::AtomicRmw) found = true;
    if (e.kind == ExprKind::Call && e.callee < module.functions.size() && seen.insert(e.callee).second &&
        module.functions[e.callee].body)
      found = found || usesAtomicsIn(module, *module.functions[e.callee].body, seen);
    return !found;
  });
  return found;
}

}  // namespace

bool usesAtomics(const Module& module, const Function& fn) {
  std::set<FuncId> seen;
  return fn.body && usesAtomicsIn(module, *fn.body, seen);
}

void diagnoseRaces(const Module& module, DiagnosticSink& diags) {
  for (const Function& f : module.functions)
    if (f.isKernel() && f.body) diagnoseKernel(module, f, diags);
}

}  // namespace culift::codegen
