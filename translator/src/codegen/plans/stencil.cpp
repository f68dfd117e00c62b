// Stencils, 2-D and 3-D: a kernel whose reads of an input array are the output's own index plus
// constant offsets (x[(i - 1) * n + j], x[i * n + j + 1], or offsets that loops with constant
// bounds walk over a window, x[(i + di) * n + j + dj] for di, dj in [-1, 1]) copies a tile of
// outputs plus its halo of that array into shared memory with coalesced loads, then runs the
// user's statements once per output, reading the copy: the same operations on the same values as
// the per-thread entry, so its bits.
//
// - 2-D (`<f>_halo`, Tiles2D): a block per tile of 8 x 32 outputs, its staged arrays copied once.
// - 3-D (`<f>_halo3d`, Halo3D; 2.5-D blocking): a block per tile of 8 x 32 outputs of the (j, k)
//   plane and a slab of planes i; each thread walks i through a ring of staged planes, the next
//   plane's copy in flight (cp.async) while the current one is computed.
//
// The copy never reads what the per-thread entry would not. Each staged array has a dominating
// read: one offset d that every output reads (or every output the kernel's pure border tests let
// through, `if (i == 0 || i == n - 1) return ...;` or `if (inside) { ... }`). An element is
// copied only where the output reading it at d lies in the launch and passes those tests; every
// other read of the tile is made from memory as written (a flag per staged element says which),
// and blocks whose whole tile was copied skip the flags.
#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "ast_match.hpp"
#include "entry_writer.hpp"
#include "plan.hpp"

namespace culift::codegen {
namespace {

constexpr unsigned kTileRows = 8;   // outputs per block along y (i in 2-D, j in 3-D)
constexpr unsigned kTileCols = 32;  // along x (j in 2-D, k in 3-D): a warp per row of the tile
constexpr unsigned kThreads = kTileRows * kTileCols;
constexpr std::int64_t kMaxHalo = 8;             // widest halo along one axis (offsets hi - lo)
constexpr std::int64_t kMaxWindow = 16;          // iterations of one window loop at most
constexpr std::size_t kSharedBytes = 48 * 1024;  // static shared memory of one block

// ---- integer index expressions as polynomials ---------------------------------------------------
// Over atoms: the thread indices, the counters of window loops and the scalar parameters no
// statement assigns (locals set once are replaced by their initializers). Exact: the coefficients
// stay far from overflow, and only index arithmetic in signed or 64-bit types is taken (unsigned
// 32-bit arithmetic wraps, which a polynomial would not).

using Monomial = std::vector<VarId>;            // its atoms, sorted (repeated for powers)
using Poly = std::map<Monomial, std::int64_t>;  // no zero coefficients
constexpr std::int64_t kMaxCoefficient = std::int64_t{1} << 40;
constexpr std::size_t kMaxDegree = 4;

bool addTerm(Poly& p, const Monomial& m, std::int64_t c) {
  if (c == 0) return true;
  if (c > kMaxCoefficient || c < -kMaxCoefficient) return false;
  std::int64_t& v = p[m];
  v += c;
  if (v > kMaxCoefficient || v < -kMaxCoefficient) return false;
  if (v == 0) p.erase(m);
  return true;
}

std::optional<Poly> sum(const Poly& a, const Poly& b, std::int64_t sign) {
  Poly r = a;
  for (const auto& [m, c] : b)
    if (!addTerm(r, m, sign * c)) return std::nullopt;
  return r;
}

Monomial times(const Monomial& a, const Monomial& b) {
  Monomial m = a;
  m.insert(m.end(), b.begin(), b.end());
  std::sort(m.begin(), m.end());
  return m;
}

std::optional<Poly> product(const Poly& a, const Poly& b) {
  Poly r;
  for (const auto& [ma, ca] : a)
    for (const auto& [mb, cb] : b) {
      if (ma.size() + mb.size() > kMaxDegree) return std::nullopt;
      if (ca > kMaxCoefficient || ca < -kMaxCoefficient || cb > kMaxCoefficient || cb < -kMaxCoefficient)
        return std::nullopt;
      const __int128 c = static_cast<__int128>(ca) * cb;
      if (c > kMaxCoefficient || c < -kMaxCoefficient) return std::nullopt;
      if (!addTerm(r, times(ma, mb), static_cast<std::int64_t>(c))) return std::nullopt;
    }
  return r;
}

// Whether `sub` is a sub-multiset of `m`; `rest` gets m without it.
bool divides(const Monomial& sub, const Monomial& m, Monomial& rest) {
  rest.clear();
  std::size_t k = 0;
  for (VarId v : m) {
    if (k < sub.size() && sub[k] == v) ++k;
    else rest.push_back(v);
  }
  return k == sub.size();
}

// An offset along one axis: constant + sum of coefficient * window counter.
struct Offset {
  std::int64_t constant = 0;
  std::map<VarId, std::int64_t> counters;
  bool operator==(const Offset&) const = default;
};

struct StagedRead {
  const Expr* read = nullptr;
  Offset d[3];
};

struct StagedArray {
  VarId array = kNone;
  Poly coefficient[3];  // d(index)/d(axis), polynomials in the parameters
  Poly base;            // the rest of the index at offset 0
  std::vector<StagedRead> reads;
  std::int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // the halo: offsets along each axis
  std::int64_t dominant[3] = {0, 0, 0};               // the offset every (let-through) output reads
  std::vector<std::pair<const Expr*, bool>> tests;    // copied only where each holds (true) or fails
};

struct Stencil {
  unsigned rank = 2;
  std::vector<StagedArray> arrays;
  std::vector<VarId> assignedParams;  // a copy per output
};

// A plan's view of a kernel body for the stencil plans.
class StencilAnalyzer {
 public:
  explicit StencilAnalyzer(const Function& fn) : fn_(fn), rank_(rank(fn.mode)) {
    for (unsigned a = 0; a < fn.indexParams.size() && a < 3; ++a) axes_[a] = static_cast<VarId>(fn.indexParams[a]);
    forEachExpr(*fn.body, [&](const Expr& e) {
      if (const Expr* t = assignmentTarget(e); t && t->kind == ExprKind::VarRef) ++assignments_[t->var];
    });
    forEachStmt(*fn.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Decl && s.expr && !assignments_.count(s.var) && fn.vars[s.var].type.isValue() &&
          isInteger(fn.vars[s.var].type.scalar))
        fixed_[s.var] = s.expr.get();
    });
    findWindowLoops();
  }

  // The stencil, or nothing: `concerns` says whether the kernel reads an array at neighbouring
  // offsets at all (only then is `reason` a remark worth showing).
  std::optional<Stencil> run(const KernelAnalysis& analysis, bool& concerns, std::string& reason);

 private:
  // The reads of one array: staged if they are its neighbouring elements.
  struct Candidate {
    StagedArray staged;
    bool uniform = true;  // every read has one layout
    bool anyRead = false;
  };
  std::vector<Candidate> candidates(const KernelAnalysis& analysis) const;
  std::string writesReason(const std::vector<Candidate>& read) const;
  std::string stage(Candidate& c) const;
  std::size_t sharedBytes(const Stencil& st) const;
  struct Layout {
    Poly coefficient[3];
    Poly rest;
  };
  std::optional<Poly> poly(const Expr& e, unsigned depth = 0) const;
  std::optional<Layout> layout(const Poly& p) const;
  bool reduce(Layout& l, Offset d[3]) const;
  void findWindowLoops();
  bool pure(const Expr& e) const;
  int axisOf(VarId v) const {
    for (unsigned a = 0; a < rank_; ++a)
      if (axes_[a] == v) return static_cast<int>(a);
    return -1;
  }
  const std::string& varName(VarId v) const { return fn_.vars[v].name; }
  std::string axisName(unsigned a) const { return varName(axes_[a]); }

  // The dominating read of `array`: the offsets every output reads on every path (the outputs its
  // border tests let through), as a set to pick from.
  using Point = std::array<std::int64_t, 3>;
  enum class Scan { Found, NotYet, Fail };
  struct Dominance {
    std::set<Point> offsets;
    std::vector<std::pair<const Expr*, bool>> tests;
    struct Guard {
      const Expr* test;
      std::set<Point> offsets;  // those its path reads before it returns
    };
    std::vector<Guard> guards;  // `if (test) <returns>`: outputs passing the test return there
  };
  bool dominate(const StagedArray& s, Point& chosen, std::vector<std::pair<const Expr*, bool>>& tests) const;
  Scan scan(const Stmt& s, const StagedArray& a, Dominance& dom) const;
  void unconditionalReads(const Expr& e, const StagedArray& a, std::vector<const StagedRead*>& out) const;
  void statementReads(const Stmt& s, const StagedArray& a, std::vector<const StagedRead*>& out) const;
  void addOffsets(const std::vector<const StagedRead*>& reads, const std::vector<VarId>& counters,
                  std::set<Point>& out) const;
  void windowReads(const Stmt& loop, const StagedArray& a, std::vector<VarId>& counters, std::set<Point>& out) const;
  const StagedRead* readOf(const StagedArray& a, const Expr& e) const {
    for (const StagedRead& r : a.reads)
      if (r.read == &e) return &r;
    return nullptr;
  }

  const Function& fn_;
  const unsigned rank_;
  VarId axes_[3] = {kNone, kNone, kNone};
  std::map<VarId, unsigned> assignments_;
  std::map<VarId, const Expr*> fixed_;                             // locals set once
  std::map<VarId, std::pair<std::int64_t, std::int64_t>> window_;  // counter: first, last
  std::map<const Stmt*, VarId> windowLoops_;
};

// An index's arithmetic type: signed, or 64 bits (no wrap a polynomial would miss).
bool indexType(const Type& t) {
  return t.isValue() && isInteger(t.scalar) && byteSize(t.scalar) >= 4 &&
         (isSigned(t.scalar) || byteSize(t.scalar) >= 8);
}

std::optional<Poly> StencilAnalyzer::poly(const Expr& e, unsigned depth) const {
  if (depth > 64) return std::nullopt;
  switch (e.kind) {
    case ExprKind::IntLiteral: {
      Poly p;
      const auto v = static_cast<std::int64_t>(e.intBits);
      if (!addTerm(p, {}, v)) return std::nullopt;
      return p;
    }
    case ExprKind::Cast:
      if (!indexType(e.type) || e.operands.empty() || !isInteger(e.operands[0]->type.scalar)) return std::nullopt;
      return poly(*e.operands[0], depth + 1);
    case ExprKind::VarRef: {
      const VarId v = e.var;
      if (axisOf(v) >= 0 || window_.count(v)) return Poly{{{v}, 1}};
      if (v < fn_.numParams) {
        const Type& t = fn_.vars[v].type;
        if (!t.isValue() || !isInteger(t.scalar) || assignments_.count(v) || fn_.vars[v].isReference())
          return std::nullopt;
        return Poly{{{v}, 1}};
      }
      if (auto it = fixed_.find(v); it != fixed_.end()) return poly(*it->second, depth + 1);
      return std::nullopt;
    }
    case ExprKind::Unary: {
      if (e.unaryOp != UnaryOp::Neg && e.unaryOp != UnaryOp::Plus) return std::nullopt;
      auto p = poly(*e.operands[0], depth + 1);
      if (!p || e.unaryOp == UnaryOp::Plus) return p;
      return sum({}, *p, -1);
    }
    case ExprKind::Binary: {
      if (!indexType(e.type)) return std::nullopt;
      if (e.binaryOp != BinaryOp::Add && e.binaryOp != BinaryOp::Sub && e.binaryOp != BinaryOp::Mul)
        return std::nullopt;
      auto l = poly(*e.operands[0], depth + 1), r = poly(*e.operands[1], depth + 1);
      if (!l || !r) return std::nullopt;
      if (e.binaryOp == BinaryOp::Mul) return product(*l, *r);
      return sum(*l, *r, e.binaryOp == BinaryOp::Add ? 1 : -1);
    }
    default: return std::nullopt;
  }
}

// The index as sum(coefficient[a] * axis a) + rest, each coefficient free of thread indices and
// window counters.
std::optional<StencilAnalyzer::Layout> StencilAnalyzer::layout(const Poly& p) const {
  Layout l;
  for (const auto& [m, c] : p) {
    int axis = -1;
    Monomial rest;
    for (VarId v : m) {
      const int a = axisOf(v);
      if (a < 0) {
        rest.push_back(v);
        continue;
      }
      if (axis >= 0) return std::nullopt;  // two thread indices, or a square
      axis = a;
    }
    if (axis < 0) {
      addTerm(l.rest, m, c);
      continue;
    }
    for (VarId v : rest)
      if (window_.count(v)) return std::nullopt;  // a coefficient that changes with the window
    if (!addTerm(l.coefficient[axis], rest, c)) return std::nullopt;
  }
  return l;
}

// Splits the rest of a layout into offsets along the axes (whole multiples of each axis's
// coefficient, affine in the window counters) and the base left over, largest coefficients first;
// false when the base still depends on a window counter.
bool StencilAnalyzer::reduce(Layout& l, Offset d[3]) const {
  auto leading = [](const Poly& p) {
    const Monomial* best = nullptr;
    for (const auto& [m, c] : p)
      if (!best || m.size() >= best->size()) best = &m;
    return best;
  };
  std::vector<unsigned> order;
  for (unsigned a = 0; a < rank_; ++a)
    if (!l.coefficient[a].empty()) order.push_back(a);
  std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) {
    return leading(l.coefficient[x])->size() > leading(l.coefficient[y])->size();
  });
  for (unsigned a : order) {
    const Monomial lm = *leading(l.coefficient[a]);
    const std::int64_t lc = l.coefficient[a].at(lm);
    const Poly snapshot = l.rest;
    for (const auto& [m, c] : snapshot) {
      Monomial t;
      if (!l.rest.count(m) || !divides(lm, m, t)) continue;
      if (!(t.empty() || (t.size() == 1 && window_.count(t[0])))) continue;
      if (c % lc != 0) return false;
      const std::int64_t q = c / lc;
      if (t.empty()) d[a].constant += q;
      else d[a].counters[t[0]] += q;
      auto shifted = product(l.coefficient[a], Poly{{t, q}});
      if (!shifted) return false;
      auto left = sum(l.rest, *shifted, -1);
      if (!left) return false;
      l.rest = std::move(*left);
    }
  }
  for (const auto& [m, c] : l.rest)
    for (VarId v : m)
      if (window_.count(v)) return false;
  return true;
}

// Loops `for (int d = lo; d <= hi; ++d)` with literal bounds whose counter nothing else assigns:
// their counters are offsets.
void StencilAnalyzer::findWindowLoops() {
  forEachStmt(*fn_.body, [&](const Stmt& s) {
    if (s.kind != StmtKind::For || !s.init || !s.cond || !s.expr) return;
    const Stmt* init = s.init.get();
    if (init->kind == StmtKind::Block && !init->scoped && init->stmts.size() == 1) init = init->stmts[0].get();
    if (init->kind != StmtKind::Decl || !init->expr) return;
    const VarId c = init->var;
    if (!fn_.vars[c].type.isValue() || !isInteger(fn_.vars[c].type.scalar)) return;
    const Expr& cond = *s.cond;
    if (cond.kind != ExprKind::Binary || (cond.binaryOp != BinaryOp::Lt && cond.binaryOp != BinaryOp::Le)) return;
    const Expr& lhs = stripCasts(*cond.operands[0]);
    if (lhs.kind != ExprKind::VarRef || lhs.var != c) return;
    const Expr& step = *s.expr;
    const bool unit = (step.kind == ExprKind::IncDec &&
                       (step.incDecOp == IncDecOp::PreInc || step.incDecOp == IncDecOp::PostInc)) ||
                      (step.kind == ExprKind::CompoundAssign && step.binaryOp == BinaryOp::Add &&
                       stripCasts(*step.operands[1]).kind == ExprKind::IntLiteral &&
                       stripCasts(*step.operands[1]).intBits == 1);
    if (!unit || stripCasts(*step.operands[0]).kind != ExprKind::VarRef || stripCasts(*step.operands[0]).var != c)
      return;
    auto it = assignments_.find(c);
    if (it == assignments_.end() || it->second != 1) return;  // the step only
    const auto lo = poly(*init->expr), bound = poly(*cond.operands[1]);
    auto constant = [](const std::optional<Poly>& p, std::int64_t& v) {
      if (!p || p->size() > 1 || (p->size() == 1 && !p->begin()->first.empty())) return false;
      v = p->empty() ? 0 : p->begin()->second;
      return true;
    };
    std::int64_t first = 0, last = 0;
    if (!constant(lo, first) || !constant(bound, last)) return;
    if (cond.binaryOp == BinaryOp::Lt) --last;
    if (last < first || last - first >= kMaxWindow) return;
    window_[c] = {first, last};
    windowLoops_[&s] = c;
  });
}

// A border test the copy can evaluate for any output: thread indices, parameters no statement
// assigns, literals and arithmetic; no element, call or assignment.
bool StencilAnalyzer::pure(const Expr& e) const {
  bool ok = true;
  forEachExpr(e, [&](const Expr& x) {
    switch (x.kind) {
      case ExprKind::IntLiteral:
      case ExprKind::FloatLiteral:
      case ExprKind::BoolLiteral:
      case ExprKind::Unary:
      case ExprKind::Binary:
      case ExprKind::Cast:
      case ExprKind::Conditional: break;
      case ExprKind::VarRef:
        if (axisOf(x.var) < 0 && (x.var >= fn_.numParams || !fn_.vars[x.var].type.isValue() ||
                                  assignments_.count(x.var) || fn_.vars[x.var].isReference()))
          ok = false;
        break;
      default: ok = false;
    }
  });
  return ok;
}

bool containsReturn(const Stmt& s) {
  bool found = false;
  forEachStmt(s, [&](const Stmt& x) { found = found || x.kind == StmtKind::Return; });
  return found;
}

bool leaves(const Stmt& s) {
  bool found = false;
  forEachStmt(s, [&](const Stmt& x) {
    found = found || x.kind == StmtKind::Return || x.kind == StmtKind::Break || x.kind == StmtKind::Continue;
  });
  return found;
}

// Every path through `s` returns.
bool alwaysReturns(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Return: return true;
    case StmtKind::Block:
      for (const StmtPtr& c : s.stmts)
        if (c && alwaysReturns(*c)) return true;
      return false;
    case StmtKind::If: return s.then && s.otherwise && alwaysReturns(*s.then) && alwaysReturns(*s.otherwise);
    default: return false;
  }
}

// The reads of `a` that evaluating `e` always makes (not under ?:, && or ||).
void StencilAnalyzer::unconditionalReads(const Expr& e, const StagedArray& a,
                                         std::vector<const StagedRead*>& out) const {
  if (const StagedRead* r = readOf(a, e)) out.push_back(r);
  for (std::size_t k = 0; k < e.operands.size(); ++k) {
    if (!e.operands[k]) continue;
    if (k > 0 && (e.kind == ExprKind::Conditional || (e.kind == ExprKind::Binary && isLogical(e.binaryOp)))) break;
    unconditionalReads(*e.operands[k], a, out);
  }
}

void StencilAnalyzer::statementReads(const Stmt& s, const StagedArray& a, std::vector<const StagedRead*>& out) const {
  switch (s.kind) {
    case StmtKind::ExprStmt:
    case StmtKind::Return:
      if (s.expr) unconditionalReads(*s.expr, a, out);
      return;
    case StmtKind::Decl:
      if (s.expr) unconditionalReads(*s.expr, a, out);
      for (const ExprPtr& e : s.inits)
        if (e) unconditionalReads(*e, a, out);
      return;
    case StmtKind::If:
    case StmtKind::While:
    case StmtKind::Switch:
      if (s.cond) unconditionalReads(*s.cond, a, out);
      return;
    case StmtKind::Block:
      if (!s.scoped)  // a declaration group
        for (const StmtPtr& c : s.stmts)
          if (c) statementReads(*c, a, out);
      return;
    default: return;
  }
}

// The offsets `reads` take for every value of the window counters `counters` (the loops around
// them, each running every iteration); reads of other counters are left out.
void StencilAnalyzer::addOffsets(const std::vector<const StagedRead*>& reads, const std::vector<VarId>& counters,
                                 std::set<Point>& out) const {
  std::map<VarId, std::int64_t> at;
  std::function<void(std::size_t)> each = [&](std::size_t n) {
    if (n < counters.size()) {
      const auto [first, last] = window_.at(counters[n]);
      for (std::int64_t v = first; v <= last; ++v) {
        at[counters[n]] = v;
        each(n + 1);
      }
      return;
    }
    for (const StagedRead* r : reads) {
      Point p = {0, 0, 0};
      bool known = true;
      for (unsigned x = 0; x < rank_; ++x) {
        p[x] = r->d[x].constant;
        for (const auto& [v, c] : r->d[x].counters) {
          auto it = at.find(v);
          if (it == at.end()) known = false;
          else p[x] += c * it->second;
        }
      }
      if (known) out.insert(p);
    }
  };
  each(0);
}

// A window loop nest: the offsets its body reads in every iteration (nothing leaves the loop).
void StencilAnalyzer::windowReads(const Stmt& loop, const StagedArray& a, std::vector<VarId>& counters,
                                  std::set<Point>& out) const {
  auto it = windowLoops_.find(&loop);
  if (it == windowLoops_.end() || !loop.body || leaves(*loop.body) || counters.size() >= 3) return;
  counters.push_back(it->second);
  std::vector<const Stmt*> body;
  if (loop.body->kind == StmtKind::Block && loop.body->scoped)
    for (const StmtPtr& c : loop.body->stmts) body.push_back(c.get());
  else body.push_back(loop.body.get());
  for (const Stmt* s : body) {
    std::vector<const StagedRead*> reads;
    statementReads(*s, a, reads);
    addOffsets(reads, counters, out);
    if (s->kind == StmtKind::For) windowReads(*s, a, counters, out);
  }
  counters.pop_back();
}

StencilAnalyzer::Scan StencilAnalyzer::scan(const Stmt& s, const StagedArray& a, Dominance& dom) const {
  {
    std::vector<const StagedRead*> reads;
    statementReads(s, a, reads);
    addOffsets(reads, {}, dom.offsets);
    if (!dom.offsets.empty()) return Scan::Found;
  }
  bool readsHere = false;
  forEachExpr(s, [&](const Expr& e) { readsHere = readsHere || readOf(a, e); });
  switch (s.kind) {
    case StmtKind::Block:
      for (const StmtPtr& c : s.stmts) {
        if (!c) continue;
        const Scan r = scan(*c, a, dom);
        if (r != Scan::NotYet) return r;
      }
      return Scan::NotYet;
    case StmtKind::If: {
      if (!s.otherwise && alwaysReturns(*s.then)) {  // a border: `if (test) return ...;`
        Dominance inner;
        Dominance::Guard g{s.cond.get(), {}};
        if (scan(*s.then, a, inner) == Scan::Found && inner.tests.empty() && inner.guards.empty())
          g.offsets = std::move(inner.offsets);
        dom.guards.push_back(std::move(g));
        return Scan::NotYet;
      }
      if (!containsReturn(s) && !readsHere) return Scan::NotYet;
      if (containsReturn(s)) return Scan::Fail;
      if (s.otherwise) {  // both branches read: the offsets both read
        Dominance then, otherwise;
        if (scan(*s.then, a, then) != Scan::Found || scan(*s.otherwise, a, otherwise) != Scan::Found) return Scan::Fail;
        if (!then.tests.empty() || !then.guards.empty() || !otherwise.tests.empty() || !otherwise.guards.empty())
          return Scan::Fail;
        for (const Point& p : then.offsets)
          if (otherwise.offsets.count(p)) dom.offsets.insert(p);
        return dom.offsets.empty() ? Scan::Fail : Scan::Found;
      }
      // `if (inside) { ... }`: the outputs that pass read in there.
      if (!pure(*s.cond)) return Scan::Fail;
      dom.tests.emplace_back(s.cond.get(), true);
      return scan(*s.then, a, dom) == Scan::Found ? Scan::Found : Scan::Fail;
    }
    case StmtKind::For: {
      std::vector<VarId> counters;
      windowReads(s, a, counters, dom.offsets);
      if (!dom.offsets.empty()) return Scan::Found;
      return containsReturn(s) ? Scan::Fail : Scan::NotYet;
    }
    default: return containsReturn(s) ? Scan::Fail : Scan::NotYet;
  }
}

// The offset the copy stages by: one every output reads, preferring one the most border paths
// read too (their tests then need no evaluation), then 0; the border paths that do not read it
// become tests the copy evaluates.
bool StencilAnalyzer::dominate(const StagedArray& a, Point& chosen,
                               std::vector<std::pair<const Expr*, bool>>& tests) const {
  Dominance dom;
  if (scan(*fn_.body, a, dom) != Scan::Found) return false;
  std::size_t best = 0;
  bool any = false;
  for (const Point& p : dom.offsets) {
    std::size_t covered = 0;
    for (const Dominance::Guard& g : dom.guards) covered += g.offsets.count(p);
    const bool zero = p == Point{0, 0, 0};
    if (!any || covered > best || (covered == best && zero)) chosen = p, best = covered, any = true;
  }
  tests = std::move(dom.tests);
  for (const Dominance::Guard& g : dom.guards) {
    if (g.offsets.count(chosen)) continue;  // that path reads at the same offset
    if (!pure(*g.test)) return false;
    tests.emplace_back(g.test, false);
  }
  return true;
}

std::string rangeText(std::int64_t lo, std::int64_t hi) {
  auto signedText = [](std::int64_t v) { return v > 0 ? "+" + std::to_string(v) : std::to_string(v); };
  return signedText(lo) + ".." + signedText(hi);
}

// The reads of each array, as layouts and offsets, in the order the arrays are first read.
std::vector<StencilAnalyzer::Candidate> StencilAnalyzer::candidates(const KernelAnalysis& analysis) const {
  std::map<VarId, Candidate> byArray;
  std::vector<VarId> order;
  for (const ArrayRead& r : analysis.reads) {
    auto [it, added] = byArray.try_emplace(r.array);
    if (added) order.push_back(r.array);
    Candidate& c = it->second;
    c.staged.array = r.array;
    auto p = poly(*r.index);
    std::optional<Layout> l = p ? layout(*p) : std::nullopt;
    StagedRead read;
    read.read = r.read;
    if (!l || !reduce(*l, read.d)) {
      c.uniform = false;
      continue;
    }
    bool threadDependent = false;
    for (unsigned a = 0; a < rank_; ++a) threadDependent = threadDependent || !l->coefficient[a].empty();
    if (!threadDependent) continue;  // the same element for every output: read as written
    if (!c.anyRead) {
      for (unsigned a = 0; a < rank_; ++a) c.staged.coefficient[a] = l->coefficient[a];
      c.staged.base = l->rest;
      c.anyRead = true;
    } else {
      for (unsigned a = 0; a < rank_; ++a) c.uniform = c.uniform && c.staged.coefficient[a] == l->coefficient[a];
      c.uniform = c.uniform && c.staged.base == l->rest;
    }
    c.staged.reads.push_back(std::move(read));
  }
  std::vector<Candidate> all;
  for (VarId v : order) all.push_back(std::move(byArray.at(v)));
  return all;
}

// Why the kernel's writes rule a stencil out (empty when they do not): a write must be at the
// output's own index, never to an array the kernel reads (`read`), never through a call.
std::string StencilAnalyzer::writesReason(const std::vector<Candidate>& read) const {
  std::string why;
  forEachExpr(*fn_.body, [&](const Expr& e) {
    if (!why.empty()) return;
    if (e.kind == ExprKind::Call)
      for (const ExprPtr& o : e.operands)
        if (o && o->type.isPointer() && !o->type.constElements)
          why = "a call takes the writable array " + (o->kind == ExprKind::VarRef ? varName(o->var) : std::string("?"));
    const Expr* t = assignmentTarget(e);
    if (!t || t->kind != ExprKind::Subscript || t->operands[0]->kind != ExprKind::VarRef) return;
    const VarId array = t->operands[0]->var;
    if (array >= fn_.numParams) return;  // a local array
    for (const Candidate& c : read)
      if (c.staged.array == array) {
        why = varName(array) +
              " is written and read (in place: each output must read the values before any is written)";
        return;
      }
    auto p = poly(*t->operands[1]);
    std::optional<Layout> l = p ? layout(*p) : std::nullopt;
    Offset d[3];
    bool own = l && reduce(*l, d);
    for (unsigned a = 0; own && a < rank_; ++a)
      own = !l->coefficient[a].empty() && d[a].constant == 0 && d[a].counters.empty();
    if (!own) why = varName(array) + " is written at another index than the output's own";
  });
  return why;
}

// Checks one neighbouring-read array and finds its halo and dominating read: the reason it cannot
// be staged, or empty.
std::string StencilAnalyzer::stage(Candidate& c) const {
  StagedArray& s = c.staged;
  const std::string name = varName(s.array);
  if (!c.uniform) return "the reads of " + name + " are not all the output's index plus constant offsets";
  for (unsigned a = 0; a < rank_; ++a)
    if (s.coefficient[a].empty()) return "the index of " + name + " does not depend on " + axisName(a);
  if (s.coefficient[rank_ - 1] != Poly{{{}, 1}})
    return "consecutive " + axisName(rank_ - 1) + " do not read neighbouring elements of " + name;
  for (std::size_t k = 0; k < s.reads.size(); ++k)
    for (unsigned a = 0; a < rank_; ++a) {
      const Offset& d = s.reads[k].d[a];
      std::int64_t lo = d.constant, hi = d.constant;
      for (const auto& [v, coefficient] : d.counters) {
        const auto [first, last] = window_.at(v);
        lo += std::min(coefficient * first, coefficient * last);
        hi += std::max(coefficient * first, coefficient * last);
      }
      s.lo[a] = k ? std::min(s.lo[a], lo) : lo;
      s.hi[a] = k ? std::max(s.hi[a], hi) : hi;
    }
  for (unsigned a = 0; a < rank_; ++a)
    if (s.hi[a] - s.lo[a] > kMaxHalo)
      return "the halo of " + name + " along " + axisName(a) + " is wider than " + std::to_string(kMaxHalo);
  Point chosen = {0, 0, 0};
  if (!dominate(s, chosen, s.tests))
    return "no read of " + name +
           " at one offset is made by every output (a copy of its halo could read outside the array)";
  std::copy(chosen.begin(), chosen.end(), s.dominant);
  return {};
}

// The shared memory the staged tiles, their halos and their flags take.
std::size_t StencilAnalyzer::sharedBytes(const Stencil& st) const {
  std::size_t shared = 0;
  for (const StagedArray& s : st.arrays) {
    const std::size_t rows = kTileRows + static_cast<std::size_t>(s.hi[rank_ - 2] - s.lo[rank_ - 2]);
    const std::size_t cols = kTileCols + static_cast<std::size_t>(s.hi[rank_ - 1] - s.lo[rank_ - 1]);
    const std::size_t planes = rank_ == 3 ? static_cast<std::size_t>(s.hi[0] - s.lo[0]) + 3 : 1;
    shared += planes * rows * cols * (byteSize(fn_.vars[s.array].type.scalar) + 1);
  }
  return shared;
}

std::optional<Stencil> StencilAnalyzer::run(const KernelAnalysis& analysis, bool& concerns, std::string& reason) {
  concerns = false;
  reason.clear();
  std::vector<Candidate> read = candidates(analysis);
  // Neighbouring reads: two offsets of one array, or offsets a window walks.
  std::vector<Candidate*> neighbouring;
  for (Candidate& c : read) {
    bool neighbours = false;
    for (const StagedRead& r : c.staged.reads)
      for (unsigned a = 0; a < rank_; ++a)
        neighbours = neighbours || !r.d[a].counters.empty() || !(r.d[a] == c.staged.reads.front().d[a]);
    if (neighbours) neighbouring.push_back(&c);
  }
  if (neighbouring.empty()) return std::nullopt;
  concerns = true;
  for (unsigned a = 0; a < rank_; ++a)
    if (assignments_.count(axes_[a])) {
      reason = "the index parameter " + axisName(a) + " is assigned";
      return std::nullopt;
    }
  if (reason = writesReason(read); !reason.empty()) return std::nullopt;
  Stencil st;
  st.rank = rank_;
  for (Candidate* c : neighbouring) {
    if (reason = stage(*c); !reason.empty()) return std::nullopt;
    st.arrays.push_back(std::move(c->staged));
  }
  // 3-D: one ring of planes for every staged array (the widest halo along i).
  if (rank_ == 3)
    for (StagedArray& s : st.arrays)
      for (const StagedArray& t : st.arrays) s.lo[0] = std::min(s.lo[0], t.lo[0]), s.hi[0] = std::max(s.hi[0], t.hi[0]);
  if (const std::size_t shared = sharedBytes(st); shared > kSharedBytes) {
    reason = "the staged tiles and halos need " + std::to_string(shared) + " bytes of shared memory (at most " +
             std::to_string(kSharedBytes) + ")";
    return std::nullopt;
  }
  for (VarId v = 0; v < fn_.numParams; ++v)
    if (assignments_.count(v) && fn_.vars[v].type.isValue()) st.assignedParams.push_back(v);
  return st;
}

// "halo x -1..+1, y -1..+1" over every staged array (x the contiguous axis).
std::string haloText(const Stencil& st) {
  static const char* kAxis[3] = {"x", "y", "z"};
  std::string text = "halo";
  for (unsigned n = 0; n < st.rank; ++n) {
    const unsigned a = st.rank - 1 - n;
    std::int64_t lo = 0, hi = 0;
    for (const StagedArray& s : st.arrays) lo = std::min(lo, s.lo[a]), hi = std::max(hi, s.hi[a]);
    text += std::string(n ? ", " : " ") + kAxis[n] + " " + rangeText(lo, hi);
  }
  return text;
}

std::optional<Stencil> analyzeStencil(const Function& fn, bool& concerns, std::string& reason) {
  return StencilAnalyzer(fn).run(analyzeKernel(fn), concerns, reason);
}

// ---- legality --------------------------------------------------------------------------------

plans::Decision decideFor(const Function& f, IndexMode mode, LoopPlan plan, const char* suffix) {
  if (f.mode != mode || !f.body) return plans::Decision::skip();
  bool concerns = false;
  std::string why;
  const std::optional<Stencil> st = analyzeStencil(f, concerns, why);
  if (!st) return concerns ? plans::Decision::no(why) : plans::Decision::skip();
  plans::Decision d = plans::Decision::yes({plans::makeEntry(f, suffix, plan, kTileRows, kTileCols, kThreads, false)});
  d.reason = haloText(*st);
  return d;
}

plans::Decision decide2D(const Function& f, const KernelAnalysis&) {
  return decideFor(f, IndexMode::Grid2D, LoopPlan::Stencil, "_halo");
}
plans::Decision decide3D(const Function& f, const KernelAnalysis&) {
  return decideFor(f, IndexMode::Grid3D, LoopPlan::Stencil3D, "_halo3d");
}

// ---- codegen ---------------------------------------------------------------------------------

std::string num(std::int64_t v) { return std::to_string(v); }

class StencilWriter : EntryWriter {
 public:
  StencilWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out, Stencil st)
      : EntryWriter(module, fn, out, false), e_(e), st_(std::move(st)), rank_(st_.rank) {}

  void write();

 private:
  std::string extent(unsigned a) const { return std::string("culift_n") + "ijk"[a]; }
  std::string axisType(unsigned a) const { return typeOf(axisVar(a)); }
  std::int64_t rowsOf(const StagedArray& s) const { return kTileRows + s.hi[rank_ - 2] - s.lo[rank_ - 2]; }
  std::int64_t colsOf(const StagedArray& s) const { return kTileCols + s.hi[rank_ - 1] - s.lo[rank_ - 1]; }
  std::int64_t planesOf(const StagedArray& s) const { return rank_ == 3 ? s.hi[0] - s.lo[0] + 3 : 1; }
  std::string elementType(const StagedArray& s) const { return std::string(spelling(fn_.vars[s.array].type.scalar)); }
  std::string polyText(const Poly& p) const;
  std::string offsetText(const Offset& d, std::int64_t shift) const;
  std::string address(const StagedArray& s) const;
  void declareShared();
  void stage(const StagedArray& s, std::size_t p, const std::string& plane);
  PrintRewrites outputRewrites();
  void output();

  const PlanEntry& e_;
  const Stencil st_;
  const unsigned rank_;
};

std::string StencilWriter::polyText(const Poly& p) const {
  std::string text;
  for (const auto& [m, c] : p) {
    const std::int64_t magnitude = c < 0 ? -c : c;
    std::string term = magnitude != 1 || m.empty() ? std::to_string(magnitude) + "LL" : std::string();
    for (VarId v : m) term += (term.empty() ? "" : " * ") + std::string("(long long)") + name(v);
    text += text.empty() ? (c < 0 ? "-" : "") + term : (c < 0 ? " - " : " + ") + term;
  }
  return text;
}

// `shift + d` as a C expression of the window counters.
std::string StencilWriter::offsetText(const Offset& d, std::int64_t shift) const {
  std::string text = std::to_string(d.constant + shift);
  for (const auto& [v, c] : d.counters)
    text += (c < 0 ? " - " : " + ") + (c == 1 || c == -1 ? std::string() : std::to_string(c < 0 ? -c : c) + " * ") +
            name(v);
  return text;
}

// The index of `s` that the output at the thread indices reads at its dominating offset.
std::string StencilWriter::address(const StagedArray& s) const {
  std::string text = polyText(s.base);
  for (unsigned a = 0; a < rank_; ++a) {
    const std::int64_t d = s.dominant[a];
    const std::string at = "(long long)" + name(axisVar(a)) + (d ? (d > 0 ? " + " : " - ") + num(d < 0 ? -d : d) : "");
    const Poly& c = s.coefficient[a];
    const std::string term = c == Poly{{{}, 1}} ? (d ? "(" + at + ")" : at) : "(" + polyText(c) + ") * (" + at + ")";
    text += (text.empty() ? "" : " + ") + term;
  }
  return text;
}

void StencilWriter::declareShared() {
  for (std::size_t p = 0; p < st_.arrays.size(); ++p) {
    const StagedArray& s = st_.arrays[p];
    const std::string dims = (rank_ == 3 ? "[" + str(planesOf(s)) + "]" : std::string()) + "[" + str(rowsOf(s)) + "][" +
                             str(colsOf(s)) + "]";
    std::string halo;
    for (unsigned a = 0; a < rank_; ++a) halo += (a ? ", " : "") + name(axisVar(a)) + " " + rangeText(s.lo[a], s.hi[a]);
    out_.say("__shared__ __align__(16) " + elementType(s) + " culift_s" + str(p) + dims + ";  // " + name(s.array) +
             ": the tile and its halo (" + halo + ")");
    out_.say("__shared__ bool culift_ok" + str(p) + dims + ";  // copied (else read from memory, as written)");
  }
}

// Copies the tile of staged array `p` (of plane `plane` along i, in 3-D) into shared memory: each
// element where the output reading it at the dominating offset is in the launch and passes the
// border tests; culift_missed is set where one is left out.
void StencilWriter::stage(const StagedArray& s, std::size_t p, const std::string& plane) {
  const std::string rows = str(rowsOf(s)), cols = str(colsOf(s));
  const std::string slot = rank_ == 3 ? "[culift_slot]" : "";
  CodeWriter::Scope loop = out_.open("for (int culift_q = culift_tid; culift_q < " + str(rowsOf(s) * colsOf(s)) +
                                     "; culift_q += " + str(kThreads) + ")");
  out_.say("const int culift_r = culift_q / " + cols + ", culift_c = culift_q % " + cols + ";");
  out_.say("// The output that reads this element at offset (" + [&] {
    std::string t;
    for (unsigned a = 0; a < rank_; ++a) t += (a ? ", " : "") + std::to_string(s.dominant[a]);
    return t;
  }() + ").");
  const unsigned y = rank_ - 2, x = rank_ - 1;
  if (rank_ == 3)
    out_.say("const " + axisType(0) + " " + name(axisVar(0)) + " = " + plane + " - (" + num(s.dominant[0]) + ");");
  out_.say("const " + axisType(y) + " " + name(axisVar(y)) + " = culift_y0 + (" + num(s.lo[y] - s.dominant[y]) +
           ") + culift_r;");
  out_.say("const " + axisType(x) + " " + name(axisVar(x)) + " = culift_x0 + (" + num(s.lo[x] - s.dominant[x]) +
           ") + culift_c;");
  std::string in;
  for (unsigned a = 0; a < rank_; ++a)
    in += (a ? " && " : "") + name(axisVar(a)) + " >= 0 && " + name(axisVar(a)) + " < " + extent(a);
  PrintRewrites none;
  for (const auto& [test, holds] : s.tests)
    in += std::string(" && ") + (holds ? "" : "!") + "(" + printWith(none, *test) + ")";
  out_.say("const bool culift_in = " + in + ";");
  const std::string dst = "culift_s" + str(p) + slot + "[culift_r][culift_c]";
  const std::string src = name(s.array) + "[" + address(s) + "]";
  out_.say(rank_ == 3 ? "if (culift_in) culift_copy_async(&" + dst + ", &" + src + ");"
                      : "if (culift_in) " + dst + " = " + src + ";");
  out_.say("culift_ok" + str(p) + slot + "[culift_r][culift_c] = culift_in;");
  out_.say("culift_missed = culift_missed || !culift_in;");
}

// The reads of the staged arrays, from the copy where it holds them; the thread's returns store.
PrintRewrites StencilWriter::outputRewrites() {
  PrintRewrites r;
  for (VarId v : st_.assignedParams) r.vars[v] = "culift_" + name(v) + "_" + str(v);
  for (std::size_t p = 0; p < st_.arrays.size(); ++p) {
    const StagedArray& s = st_.arrays[p];
    for (const StagedRead& read : s.reads) {
      std::string at;
      if (rank_ == 3)
        at = "[(culift_z - culift_z0 + " + offsetText(read.d[0], -s.lo[0]) + ") % " + str(planesOf(s)) + "]";
      at += "[culift_ty + " + offsetText(read.d[rank_ - 2], -s.lo[rank_ - 2]) + "][culift_tx + " +
            offsetText(read.d[rank_ - 1], -s.lo[rank_ - 1]) + "]";
      PrintRewrites plain = r;  // the index as written, for the read from memory
      const std::string written = printWith(plain, *read.read);
      r.exprs[read.read] = "((culift_all || culift_ok" + str(p) + at + ") ? culift_s" + str(p) + at + " : " + written +
                           ")";
    }
  }
  const bool value = returnsValue();
  r.returns = [this, value](const std::string& v) {
    if (!value) return std::string("goto culift_next;");
    std::string index = rank_ == 3 ? "((long long)" + name(axisVar(0)) + " * culift_nj + " + name(axisVar(1)) +
                                         ") * culift_nk + " + name(axisVar(2))
                                   : "(long long)" + name(axisVar(0)) + " * culift_nj + " + name(axisVar(1));
    return "{ " + params_.outName + "[" + index + "] = " + v + "; goto culift_next; }";
  };
  return r;
}

// This thread's output: the statements as written, once.
void StencilWriter::output() {
  const unsigned y = rank_ - 2, x = rank_ - 1;
  if (rank_ == 3) out_.say("const " + axisType(0) + " " + name(axisVar(0)) + " = culift_z;");
  out_.say("const " + axisType(y) + " " + name(axisVar(y)) + " = culift_y0 + culift_ty;");
  out_.say("const " + axisType(x) + " " + name(axisVar(x)) + " = culift_x0 + culift_tx;");
  CodeWriter::Scope inside = out_.open("if (" + name(axisVar(y)) + " < " + extent(y) + " && " + name(axisVar(x)) +
                                       " < " + extent(x) + ")");
  const PrintRewrites r = outputRewrites();
  for (VarId v : st_.assignedParams)
    out_.say(typeOf(v) + " culift_" + name(v) + "_" + str(v) + " = " + name(v) + ";  // assigned by the body");
  printBody(r, *fn_.body);
}

void StencilWriter::write() {
  const std::string halo = haloText(st_);
  std::vector<std::string> comment;
  if (rank_ == 2) {
    comment = {fn_.name + ": stencil (" + halo + "), " + str(kTileRows) + " x " + str(kTileCols) +
                   " outputs per block of " + str(kThreads) + " threads; each staged array's tile and halo copied",
               "to shared memory once (coalesced), then each output runs the statements as written, reading the",
               "copy where it holds the element (the per-thread entry's bits)."};
  } else {
    comment = {fn_.name + ": stencil, 2.5-D blocking (" + halo + "), " + str(kTileRows) + " x " + str(kTileCols) +
                   " outputs of the (j, k) plane per block of " + str(kThreads) + " threads,",
               "walking a slab of planes i through a ring of staged planes, the next one in flight; each output runs",
               "the statements as written, reading the copy where it holds the element (the per-thread entry's bits)."};
  }
  CodeWriter::Scope entry = signature(e_, comment);
  for (unsigned a = 0; a < rank_; ++a) out_.say("const int " + extent(a) + " = (int)" + params_.extent[a] + ";");
  aliases();
  declareShared();
  out_.say("const int culift_tid = threadIdx.x, culift_ty = culift_tid / " + str(kTileCols) +
           ", culift_tx = culift_tid % " + str(kTileCols) + ";");
  if (rank_ == 2) {
    out_.say("const int culift_y0 = blockIdx.y * " + str(kTileRows) + ", culift_x0 = blockIdx.x * " + str(kTileCols) +
             ";  // the tile's first output");
    out_.say("bool culift_missed = false;");
    for (std::size_t p = 0; p < st_.arrays.size(); ++p) stage(st_.arrays[p], p, "");
    out_.say("const bool culift_all = __syncthreads_or(culift_missed) == 0;  // every element copied: no flag read");
    {
      CodeWriter::Scope one = out_.open("");
      output();
    }
    if (containsReturn(*fn_.body)) out_.say("culift_next:;  // where a return goes on");
    return;
  }
  // 3-D: every staged array has a ring of the same planes (the analysis gave them one halo along i).
  out_.say("const int culift_y0 = blockIdx.y * " + str(kTileRows) + ", culift_x0 = blockIdx.x * " + str(kTileCols) +
           ";  // the tile's first output");
  out_.say("const int culift_per = (culift_ni + (int)gridDim.z - 1) / (int)gridDim.z;  // planes per slab");
  out_.say("const int culift_z0 = blockIdx.z * culift_per, culift_z1 = min(culift_ni, culift_z0 + culift_per);");
  out_.say("if (culift_z0 >= culift_z1) return;  // the whole block");
  out_.say("unsigned culift_partial = 0;  // the ring's slots whose plane was not copied whole");
  // Each staged array has a ring of its own halo's planes + 2: the plane in flight, and one more so
  // that a slot is written two steps after its last use (one barrier per plane).
  auto stagePlane = [&](const std::string& plane) {
    for (std::size_t p = 0; p < st_.arrays.size(); ++p) {
      const StagedArray& s = st_.arrays[p];
      CodeWriter::Scope one = out_.open("");
      out_.say("const int culift_slot = (" + plane + " - culift_z0 - (" + num(s.lo[0]) + ")) % " + str(planesOf(s)) +
               ";");
      stage(s, p, plane);
    }
  };
  out_.say("// The planes of the first output plane, then one plane ahead per step.");
  const StagedArray& first = st_.arrays.front();
  {
    CodeWriter::Scope pro = out_.open("for (int culift_e = culift_z0 + (" + num(first.lo[0]) +
                                      "); culift_e <= culift_z0 + (" + num(first.hi[0]) + "); ++culift_e)");
    out_.say("bool culift_missed = false;");
    stagePlane("culift_e");
    out_.say("if (__syncthreads_or(culift_missed)) culift_partial |= 1u << ((culift_e - culift_z0 - (" +
             num(first.lo[0]) + ")) % " + str(planesOf(first)) + ");");
  }
  out_.say("culift_copy_commit();");
  out_.say("#pragma unroll 1");
  CodeWriter::Scope walk = out_.open("for (int culift_z = culift_z0; culift_z < culift_z1; ++culift_z)");
  out_.say("bool culift_missed = false;");
  {
    CodeWriter::Scope ahead = out_.open("if (culift_z + 1 < culift_z1)");
    out_.say("const int culift_e = culift_z + " + num(first.hi[0] + 1) + ";");
    stagePlane("culift_e");
  }
  out_.say("culift_copy_commit();");
  out_.say("culift_copy_wait<1>();  // every plane but the one just started");
  out_.say("const bool culift_next_partial = __syncthreads_or(culift_missed) != 0;  // and visible to every thread");
  out_.say("const unsigned culift_ahead = 1u << ((culift_z + 1 - culift_z0 + " + num(first.hi[0] - first.lo[0]) +
           ") % " + str(planesOf(first)) + ");");
  out_.say("culift_partial = culift_next_partial ? culift_partial | culift_ahead : culift_partial & ~culift_ahead;");
  out_.say("unsigned culift_used = 0;  // the slots of planes culift_z + (" + num(first.lo[0]) + ") .. culift_z + (" +
           num(first.hi[0]) + ")");
  out_.say("for (int culift_t = 0; culift_t <= " + num(first.hi[0] - first.lo[0]) +
           "; ++culift_t) culift_used |= 1u << ((culift_z - culift_z0 + culift_t) % " + str(planesOf(first)) + ");");
  out_.say("const bool culift_all = (culift_partial & culift_used) == 0;  // every element copied: no flag read");
  {
    CodeWriter::Scope one = out_.open("");
    output();
  }
  if (containsReturn(*fn_.body)) out_.say("culift_next:;  // where a return goes on to the next plane");
}

void emitFor(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  bool concerns = false;
  std::string why;
  std::optional<Stencil> st = analyzeStencil(fn, concerns, why);
  if (!st) throw std::logic_error("stencil plan of " + fn.name + " does not hold: " + why);
  StencilWriter(module, fn, entry, out, std::move(*st)).write();
}

}  // namespace

const plans::Unit plans::kStencil{LoopPlan::Stencil, decide2D, emitFor, true};
const plans::Unit plans::kStencil3D{LoopPlan::Stencil3D, decide3D, emitFor, true};

}  // namespace culift::codegen
