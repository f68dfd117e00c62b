// Stencils, 2-D and 3-D: a kernel whose reads of an input array are the output's own index plus
// constant offsets (x[(i - 1) * n + j], x[i * n + j + 1], or offsets that loops with constant
// bounds walk over a window, x[(i + di) * n + j + dj] for di, dj in [-1, 1]) reads each element
// for several outputs. Its entries map threads to outputs so that those reads hit in cache: a
// warp's 32 threads take 32 consecutive outputs along the contiguous axis, and each thread walks
// consecutive outputs along the first axis (rows i in 2-D, planes i in 3-D), so the rows or planes
// one output reads at i + 1 are the next output's at i, still in the thread's cache lines (2.5-D
// blocking, through the cache rather than a copy in shared memory: measured on an H200 the copy
// lost to the cache at every shape). Each output runs exactly the per-thread entry's statement, so
// the entries give its bits.
//
// - 2-D (`<f>_walk`, `<f>_walk2`; Tiles2D): a block of 8 warps per 32 columns x 8 * R rows, each
//   thread R consecutive rows of one column (R = 16, or 2 where the launch has too few blocks).
// - 3-D (`<f>_walk3d`; Slabs3D): a block of 8 warps per 8 x 32 outputs of the (j, k) plane, each
//   thread walking the planes i of the block's slab (the runtime cuts i into slabs of 4 planes).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

#include "ast_match.hpp"
#include "entry_writer.hpp"
#include "plan.hpp"

namespace culift::codegen {
namespace {

constexpr unsigned kWarps = 8;      // warps per block: rows of the tile along y (2-D: of rows per thread)
constexpr unsigned kTileCols = 32;  // outputs per block along x (j in 2-D, k in 3-D): a warp per row
constexpr unsigned kThreads = kWarps * kTileCols;
constexpr unsigned kRowsPerThread[2] = {16, 2};  // 2-D: the entries' rows per thread, largest first
constexpr unsigned kPlanesPerStep = 4;           // 3-D: planes of one unrolled step of the walk
constexpr std::int64_t kMaxWindow = 16;          // iterations of one window loop at most
constexpr unsigned kWindowColumns = 4;  // 3-D, windows in registers: outputs along k a thread of <f>_win3d4 takes
constexpr std::int64_t kMaxWindowRegisters = 128;  // ... and the registers its windows may take
constexpr unsigned kStages = 4;  // <f>_win3d4 through shared memory: planes of a staged array's ring of tiles
constexpr std::int64_t kMaxStagedBytes = 40 * 1024;  // ... and the static shared memory they may take
constexpr std::int64_t kStreamAhead = 3;  // <f>_win3d4 streaming its planes: the planes copied ahead, at most,
constexpr unsigned kStreamStages = 5;     // ... into a ring of this many tiles where they fit kMaxStagedBytes
constexpr unsigned kStreamRows = 2;       // ... and the rows along j a thread takes where they fit its registers
// <f>_win3d4n, the streamed entry's narrow tiles: threads along k and a block's threads (a tile of 32 x
// 32 outputs, two rows of four a thread), for extents the 128 columns of <f>_win3d4 would leave idle.
constexpr unsigned kNarrowLanes = 8;
constexpr unsigned kNarrowThreads = 128;

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
};

// A read of an element the same for every output, its index of window counters and parameters
// only (a convolution's weight, w[(di + 1) * 9 + ...]): the windows' entry loads each such element
// into a register once per thread.
struct UniformRead {
  const Expr* read = nullptr;
  VarId array = kNone;
  const Expr* index = nullptr;
  std::vector<VarId> counters;  // the window counters it names, each once
};

struct Stencil {
  unsigned rank = 2;
  std::vector<StagedArray> arrays;
  std::vector<const Stmt*> windowLoops;  // loops with constant bounds whose counters are offsets
  std::map<VarId, std::pair<std::int64_t, std::int64_t>> windows;  // their counters: first, last
  std::vector<UniformRead> uniform;
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
  std::vector<UniformRead> uniformReads(const KernelAnalysis& analysis) const;
  std::string writesReason(const std::vector<Candidate>& read) const;
  std::string stage(Candidate& c) const;
  struct Layout {
    Poly coefficient[3];
    Poly rest;
  };
  std::optional<Poly> poly(const Expr& e, unsigned depth = 0) const;
  std::optional<Layout> layout(const Poly& p) const;
  bool reduce(Layout& l, Offset d[3]) const;
  void findWindowLoops();
  int axisOf(VarId v) const {
    for (unsigned a = 0; a < rank_; ++a)
      if (axes_[a] == v) return static_cast<int>(a);
    return -1;
  }
  const std::string& varName(VarId v) const { return fn_.vars[v].name; }
  std::string axisName(unsigned a) const { return varName(axes_[a]); }

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
  // Constant coefficients (rows and planes of literal size) largest first.
  auto magnitude = [&](unsigned a) {
    const Monomial* m = leading(l.coefficient[a]);
    return m->empty() ? std::abs(l.coefficient[a].at(*m)) : std::int64_t{0};
  };
  std::stable_sort(order.begin(), order.end(), [&](unsigned x, unsigned y) {
    const std::size_t sx = leading(l.coefficient[x])->size(), sy = leading(l.coefficient[y])->size();
    return sx != sy ? sx > sy : magnitude(x) > magnitude(y);
  });
  for (unsigned a : order) {
    const Monomial lm = *leading(l.coefficient[a]);
    const std::int64_t lc = l.coefficient[a].at(lm);
    const Poly snapshot = l.rest;
    for (const auto& [m, c] : snapshot) {
      Monomial t;
      if (!l.rest.count(m) || !divides(lm, m, t)) continue;
      if (!(t.empty() || (t.size() == 1 && window_.count(t[0])))) continue;
      // A constant coefficient (a row of 10 elements: x[(i + 1) * 10 + j - 1]) takes the nearest
      // whole multiple and leaves the rest to the axes after it; a coefficient of parameters
      // (x[(i + 1) * n + j - 1]) only whole multiples.
      std::int64_t q = c / lc;
      if (lm.empty()) {
        const std::int64_t r = c - q * lc;
        if (2 * std::abs(r) > std::abs(lc)) q += (r > 0) == (lc > 0) ? 1 : -1;
        if (q == 0) continue;
      } else if (c % lc != 0) {
        return false;
      }
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

// The reads of a const array parameter the body never writes whose index names only window
// counters and parameters no statement assigns, through +, - and * (and casts).
std::vector<UniformRead> StencilAnalyzer::uniformReads(const KernelAnalysis& analysis) const {
  std::set<VarId> written;
  forEachExpr(*fn_.body, [&](const Expr& e) {
    if (const Expr* t = assignmentTarget(e);
        t && t->kind == ExprKind::Subscript && t->operands[0]->kind == ExprKind::VarRef)
      written.insert(t->operands[0]->var);
  });
  std::vector<UniformRead> out;
  for (const ArrayRead& r : analysis.reads) {
    if (r.array >= fn_.numParams || written.count(r.array) || !fn_.vars[r.array].type.constElements) continue;
    bool ok = true;
    std::set<VarId> counters;
    // The entry evaluates the index for every combination of the counters, also those the body
    // never reaches: only arithmetic that cannot trap (no division, remainder or shift).
    forEachExpr(*r.index, [&](const Expr& e) {
      if (e.kind == ExprKind::Call || assignmentTarget(e)) ok = false;
      if (e.kind == ExprKind::Binary && e.binaryOp != BinaryOp::Add && e.binaryOp != BinaryOp::Sub &&
          e.binaryOp != BinaryOp::Mul)
        ok = false;
      if (e.kind != ExprKind::VarRef) return;
      if (window_.count(e.var)) counters.insert(e.var);
      else if (e.var >= fn_.numParams || axisOf(e.var) >= 0 || assignments_.count(e.var) ||
               !fn_.vars[e.var].type.isValue() || fn_.vars[e.var].isReference())
        ok = false;
    });
    if (ok) out.push_back({r.read, r.array, r.index, {counters.begin(), counters.end()}});
  }
  return out;
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

// Checks one neighbouring-read array and finds its halo: the reason it is no stencil's, or empty.
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
  return {};
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
  for (const auto& [loop, counter] : windowLoops_) st.windowLoops.push_back(loop);
  st.windows = window_;
  st.uniform = uniformReads(analysis);
  for (Candidate* c : neighbouring) {
    if (reason = stage(*c); !reason.empty()) return std::nullopt;
    st.arrays.push_back(std::move(c->staged));
  }
  // 3-D: one ring of planes for every staged array (the widest halo along i).
  if (rank_ == 3)
    for (StagedArray& s : st.arrays)
      for (const StagedArray& t : st.arrays) s.lo[0] = std::min(s.lo[0], t.lo[0]), s.hi[0] = std::max(s.hi[0], t.hi[0]);
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

plans::Decision decideFor(const Function& f, IndexMode mode, std::vector<PlanEntry> entries) {
  if (f.mode != mode || !f.body) return plans::Decision::skip();
  bool concerns = false;
  std::string why;
  const std::optional<Stencil> st = analyzeStencil(f, concerns, why);
  if (!st) return concerns ? plans::Decision::no(why) : plans::Decision::skip();
  plans::Decision d = plans::Decision::yes(std::move(entries));
  d.reason = haloText(*st);
  return d;
}

plans::Decision decide2D(const Function& f, const KernelAnalysis&) {
  std::vector<PlanEntry> entries;
  for (unsigned rows : kRowsPerThread)
    entries.push_back(plans::makeEntry(f, rows == kRowsPerThread[0] ? "_walk" : "_walk" + str(rows), LoopPlan::Stencil,
                                       kWarps * rows, kTileCols, kThreads, false));
  return decideFor(f, IndexMode::Grid2D, std::move(entries));
}
plans::Decision decide3D(const Function& f, const KernelAnalysis&) {
  return decideFor(f, IndexMode::Grid3D,
                   {plans::makeEntry(f, "_walk3d", LoopPlan::Stencil3D, kWarps, kTileCols, kThreads, false)});
}

// The elements of a uniform read over its counters' windows.
std::int64_t uniformElements(const Stencil& st, const UniformRead& u) {
  std::int64_t n = 1;
  for (VarId c : u.counters) n *= st.windows.at(c).second - st.windows.at(c).first + 1;
  return n;
}

// Registers a thread's windows take: the planes of the halo along i x its rows x its columns (and
// the thread's `columns` - 1 outputs more along k), per staged array, and the uniform reads'
// elements, in 4-byte registers.
std::int64_t windowRegisters(const Function& f, const Stencil& st, unsigned columns) {
  std::int64_t n = 0;
  for (const StagedArray& s : st.arrays)
    n += (1 + s.hi[0] - s.lo[0]) * (s.hi[1] - s.lo[1] + 1) * (s.hi[2] - s.lo[2] + columns) *
         ((byteSize(f.vars[s.array].type.scalar) + 3) / 4);
  for (const UniformRead& u : st.uniform)
    n += uniformElements(st, u) * ((byteSize(f.vars[u.array].type.scalar) + 3) / 4);
  return n;
}

unsigned windowBlocksPerSm(const Function& f, const PlanEntry& e, const Stencil& st);
unsigned windowRowsPerThread(const Function& f, const PlanEntry& e, const Stencil& st);

// Outputs along k a thread of a windows entry takes: one in <f>_win3d (a warp's 32 columns, 256
// threads), kWindowColumns in the others (<f>_win3d4's 128 columns, <f>_win3d4n's 32 of 128 threads).
unsigned windowColumns(const PlanEntry& e) {
  return e.tileCols == kTileCols && e.threads == kThreads ? 1 : kWindowColumns;
}
// ... and the rows of threads of its block along j.
unsigned windowThreadRows(const PlanEntry& e) { return e.threads / (e.tileCols / windowColumns(e)); }

// Windows in registers: a 3-D stencil whose reads walk windows (loops with constant bounds over
// the offsets, a convolution's 27 points) and whose windows fit the registers. Kernels without
// window loops (a 7-point stencil, each offset written out) keep the cache walk alone.
plans::Decision decide3DWindows(const Function& f, const KernelAnalysis&) {
  if (f.mode != IndexMode::Grid3D || !f.body) return plans::Decision::skip();
  bool concerns = false;
  std::string why;
  const std::optional<Stencil> st = analyzeStencil(f, concerns, why);
  if (!st || st->windowLoops.empty()) return plans::Decision::skip();
  if (const std::int64_t regs = windowRegisters(f, *st, 1); regs > kMaxWindowRegisters)
    return plans::Decision::no("its windows would take " + std::to_string(regs) + " registers a thread (at most " +
                               std::to_string(kMaxWindowRegisters) + ")");
  // Four outputs a thread along k where their windows fit too (they share each row's loads).
  std::vector<PlanEntry> entries;
  if (windowRegisters(f, *st, kWindowColumns) <= kMaxWindowRegisters)
    entries.push_back(plans::makeEntry(f, "_win3d" + str(kWindowColumns), LoopPlan::Stencil3DWindows, kWarps,
                                       kTileCols * kWindowColumns, kThreads, false));
  entries.push_back(plans::makeEntry(f, "_win3d", LoopPlan::Stencil3DWindows, kWarps, kTileCols, kThreads, false));
  for (PlanEntry& e : entries) {
    e.tileRows = windowThreadRows(e) * windowRowsPerThread(f, e, *st);  // the runtime's grid follows it
    e.blocksPerSm = windowBlocksPerSm(f, e, *st);                       // ... and its slabs these
  }
  // The streamed entry of two rows a thread again in narrow tiles (32 x 32 outputs, 128 threads),
  // after it: the runtime takes whichever leaves fewer outputs of the (j, k) plane idle.
  if (entries.front().tileCols == kTileCols * kWindowColumns && entries.front().blocksPerSm == 2) {
    PlanEntry narrow = plans::makeEntry(f, "_win3d" + str(kWindowColumns) + "n", LoopPlan::Stencil3DWindows, 1,
                                        kNarrowLanes * kWindowColumns, kNarrowThreads, false);
    narrow.tileRows = windowThreadRows(narrow) * windowRowsPerThread(f, narrow, *st);
    narrow.blocksPerSm = windowBlocksPerSm(f, narrow, *st);
    if (narrow.tileRows == windowThreadRows(narrow) * kStreamRows) entries.insert(entries.begin() + 1, narrow);
  }
  entries.push_back(plans::makeEntry(f, "_walk3d", LoopPlan::Stencil3D, kWarps, kTileCols, kThreads, false));
  plans::Decision d = plans::Decision::yes(std::move(entries));
  d.reason = haloText(*st);
  return d;
}

// ---- codegen ---------------------------------------------------------------------------------

// 3-D entries: this block's slab of planes [culift_z0, culift_z1), the grid's z splitting the
// part's planes evenly.
void blockSlab(CodeWriter& out) {
  out.say(
      "const int culift_per = (culift_ni - (int)culift_first + (int)gridDim.z - 1) / (int)gridDim.z;  // planes per slab");
  out.say(
      "const int culift_z0 = (int)culift_first + blockIdx.z * culift_per, culift_z1 = min(culift_ni, culift_z0 + culift_per);");
}

// The walk over the slab's planes in steps of `step` (culift_s; each step's planes unrolled inside).
CodeWriter::Scope slabSteps(CodeWriter& out, std::size_t step) {
  out.say("#pragma unroll 1");
  return out.open("for (int culift_s = culift_z0; culift_s < culift_z1; culift_s += " + str(step) + ")");
}

class WalkWriter : EntryWriter {
 public:
  WalkWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out, const Stencil& st)
      : EntryWriter(module, fn, out, false), e_(e), halo_(haloText(st)), rank_(st.rank) {}

  void write() {
    const unsigned rows = e_.tileRows / kWarps;  // 2-D: rows per thread
    // 3-D without loops: six blocks an SM (at most 40 registers a thread). Measured on an H200,
    // heat-3d 256³ in doubles took 3.25 ms instead of 3.50 with the 48 registers the device
    // assembler chose alone (five blocks), 3.44 ms at seven or eight blocks (32 registers,
    // spills). A window loop's body takes more (the 27-point convolution 63: 40 spilled).
    CodeWriter::Scope entry = signature(e_, comment(rows), "", rank_ == 3 && !hasLoop(*fn_.body) ? 6 : 0);
    static constexpr std::array<const char*, 3> kCount = {"culift_ni", "culift_nj", "culift_nk"};
    static constexpr std::array<const char*, 3> kIndex = {"culift_i", "culift_j", "culift_k"};
    std::array<std::string, 3> v, n;
    for (unsigned a = 0; a < rank_; ++a) {
      v[a] = kIndex[a], n[a] = kCount[a];
      out_.say("const int " + n[a] + " = (int)" + params_.extent[a] + ";");
    }
    const std::string statement = perOutputStatement(fn_, v, n);
    out_.say("const int culift_tx = threadIdx.x % " + str(kTileCols) + ", culift_ty = threadIdx.x / " + str(kTileCols) +
             ";");
    if (rank_ == 2) {
      out_.say("const int culift_j = blockIdx.x * " + str(kTileCols) + " + culift_tx;");
      out_.say("const int culift_i0 = (int)culift_first + blockIdx.y * " + str(e_.tileRows) + " + culift_ty * " +
               str(rows) + ";  // this thread's first row");
      CodeWriter::Scope column = out_.open("if (culift_j < culift_nj)");
      out_.say("#pragma unroll");
      CodeWriter::Scope walk = out_.open("for (int culift_t = 0; culift_t < " + str(rows) + "; ++culift_t)");
      out_.say("const int culift_i = culift_i0 + culift_t;");
      out_.say("if (culift_i >= culift_ni) break;");
      out_.say(statement);
      return;
    }
    out_.say("const int culift_k = blockIdx.x * " + str(kTileCols) + " + culift_tx;");
    out_.say("const int culift_j = blockIdx.y * " + str(kWarps) + " + culift_ty;");
    blockSlab(out_);
    CodeWriter::Scope inside = out_.open("if (culift_j < culift_nj && culift_k < culift_nk)");
    CodeWriter::Scope slab = slabSteps(out_, kPlanesPerStep);
    out_.say("#pragma unroll  // the planes of one step: one plane's loads are the next one's, without a reload");
    CodeWriter::Scope walk = out_.open("for (int culift_t = 0; culift_t < " + str(kPlanesPerStep) + "; ++culift_t)");
    out_.say("const int culift_i = culift_s + culift_t;");
    out_.say("if (culift_i >= culift_z1) break;");
    out_.say(statement);
  }

 private:
  std::vector<std::string> comment(unsigned rows) const {
    if (rank_ == 2)
      return {fn_.name + ": stencil (" + halo_ + "), " + str(e_.tileRows) + " x " + str(kTileCols) +
                  " outputs per block of " + str(kThreads) + " threads; each thread " + str(rows) +
                  " consecutive rows of one column,",
              "so that the rows an output reads below are the next output's (in cache); each output as the "
              "per-thread entry runs it (its bits)."};
    return {fn_.name + ": stencil, 2.5-D blocking (" + halo_ + "), " + str(kWarps) + " x " + str(kTileCols) +
                " outputs of the (j, k) plane per block of " + str(kThreads) + " threads,",
            "each thread walking the planes i of the block's slab, so that the planes an output reads ahead are the "
            "next output's",
            "(in cache); each output as the per-thread entry runs it (its bits)."};
  }

  const PlanEntry& e_;
  const std::string halo_;
  const unsigned rank_;
};

// The windows of a 3-D stencil in registers (`<f>_win3d4`, `<f>_win3d`; Slabs3DWindows). Each
// thread (j, k .. k + C - 1: C outputs along k, 4 or 1) walks the planes i of its slab, holding
// for every staged array the values of the planes its outputs read (the halo along i, H + 1
// planes) at every offset (dj, dk) of the halo: each plane's values are loaded once per thread,
// not once per output that reads them, and C outputs share each row's (the 27-point convolution:
// 18 loads for 4 outputs, against 27 an output through the cache). The planes are a ring of H + 1
// register planes, plane i in slot (i - the slab's first plane + the halo's first offset) mod
// (H + 1); a step of H + 1 planes is unrolled, so every slot index is a constant and nothing
// moves. Each output runs the function's body as written through a copy of the device
// function whose reads of the staged arrays take the registers (`<entry>_at`): the same operations
// on the same values, the per-thread entry's bits. A load is made where its element lies in the
// array (the runtime passes every array's element count): a plane's window is checked once, and
// element by element only where it crosses an end. Values loaded for outputs whose body does not
// read them (a border that returns its own element) are not used. With four outputs a thread, an
// array of 4-byte elements contiguous along k is loaded in 16-byte vectors where the thread's
// first output is so aligned, and four 4-byte results are stored as one vector where aligned.
class WindowWriter : EntryWriter {
  static constexpr std::array<const char*, 4> kLane = {"x", "y", "z", "w"};  // a 16-byte vector's lanes

 public:
  WindowWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out, const Stencil& st)
      : EntryWriter(module, fn, out, false),
        e_(e),
        st_(st),
        halo_(haloText(st)),
        cols_(windowColumns(e)),
        lanes_(e.tileCols / cols_),
        threadRows_(windowThreadRows(e)),
        rows_(e.tileRows / threadRows_),
        staged_(stagedInShared()) {
    stream_ = streamPlan();  // after staged_: the stream takes the planes through shared memory
  }

  // Whether the streamed form of kStreamRows rows a thread (this writer's) keeps to the registers of
  // two blocks an SM: its running values (iterations x rows x columns), its window of a plane and the
  // uniform values, in 4-byte registers, no more than the 27-point convolution's (3 x 2 x 4 + 4 x 6 +
  // 27, measured at two blocks an SM without a spill).
  bool rowsFit() const {
    if (!stream_ || rows_ != kStreamRows) return false;
    auto words = [](Scalar t) { return static_cast<std::int64_t>((byteSize(t) + 3) / 4); };
    const std::int64_t span = stream_->last - stream_->first + 1;
    std::int64_t values = windowRows(0) * columns(0) * words(fn_.vars[st_.arrays[0].array].type.scalar);
    for (VarId v : stream_->carried) values += span * rows_ * cols_ * words(fn_.vars[v].type.scalar);
    for (const UniformRead& u : st_.uniform) values += uniformElements(st_, u) * words(fn_.vars[u.array].type.scalar);
    return values <= 3 * 2 * 4 + 4 * 6 + 27;
  }

  // The blocks a multiprocessor holds as the entry asks for them (__launch_bounds__): where the
  // planes are streamed, 1024 threads of one row (four blocks of 256; the 27-point convolution's
  // streamed entry of one row took 56 registers) or 512 of two rows (two of 256, four of the narrow
  // tiles' 128: at most 128 registers); three where the windows' ring is no larger than the
  // convolution's (at most 80 registers), else not asked (0).
  unsigned blocksPerSm() const { return stream_ ? (rows_ > 1 ? 2 : 4) * kThreads / e_.threads : threeBlocks() ? 3 : 0; }

  void write() {
    if (rows_ != 1 && !stream_)
      throw std::logic_error("stencil plan of " + fn_.name + ": " + str(rows_) + " rows a thread, planes not streamed");
    if (stream_) {
      speculated_ = true;
      streamPart();
      streamLast();
    } else {
      helper();
    }
    entry();
  }

 private:
  std::int64_t lo(std::size_t p, unsigned a) const { return st_.arrays[p].lo[a]; }
  std::int64_t width(std::size_t p, unsigned a) const { return st_.arrays[p].hi[a] - st_.arrays[p].lo[a] + 1; }
  std::int64_t halo() const { return st_.arrays[0].hi[0] - st_.arrays[0].lo[0]; }   // the same for every array
  std::size_t ring() const { return static_cast<std::size_t>(halo()) + 1; }         // register planes
  std::int64_t columns(std::size_t p) const { return width(p, 2) + cols_ - 1; }     // a row's values
  std::int64_t windowRows(std::size_t p) const { return width(p, 1) + rows_ - 1; }  // a plane's rows
  std::string regs(std::size_t p) const { return "culift_w" + str(p); }
  std::string element(std::size_t p) const { return std::string(spelling(fn_.vars[st_.arrays[p].array].type.scalar)); }
  std::string dims(std::size_t p) const {
    return "[" + str(stream_ ? 1 : ring()) + "][" + str(static_cast<std::size_t>(windowRows(p))) + "][" +
           str(static_cast<std::size_t>(columns(p))) + "]";
  }
  std::string uniformRegs(std::size_t q) const { return "culift_u" + str(q); }
  std::string uniformDims(std::size_t q) const {
    std::string d;
    for (VarId c : st_.uniform[q].counters)
      d += "[" + str(static_cast<std::size_t>(st_.windows.at(c).second - st_.windows.at(c).first + 1)) + "]";
    return d.empty() ? "[1]" : d;
  }
  // The device function's copy for this entry's registers (one per entry: their shapes differ).
  std::string helperName() const { return e_.kernelName + "_at"; }
  static std::string literal(std::int64_t v) { return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v); }
  // The greatest multiple of 4 not above v (a column's 16-byte group of 4-byte elements).
  static std::int64_t floor4(std::int64_t v) { return v - ((v % 4) + 4) % 4; }

  // An offset along one axis: its constant plus each window counter times its coefficient.
  std::string offset(const Offset& d) const {
    std::string t = std::to_string(d.constant);
    for (const auto& [v, c] : d.counters) t += " + " + literal(c) + " * " + name(v);
    return "(" + t + ")";
  }

  // A polynomial of the parameters in 64 bits.
  std::string polyText(const Poly& p) const {
    if (p.empty()) return "0LL";
    std::string t;
    for (const auto& [m, c] : p) {
      std::string term = "(long long)" + literal(c);
      for (VarId v : m) term += " * (long long)" + name(v);
      t += (t.empty() ? "" : " + ") + term;
    }
    return "(" + t + ")";
  }

  // `<entry>_at`: the function's body, its reads of the staged arrays taken from the registers
  // (plane culift_slot holds the output's plane plus the halo's first offset along i), its window
  // loops unrolled (so that every register index is a constant).
  // The reads of the staged arrays from the ring of register planes, the uniform reads from their
  // registers, the window loops unrolled.
  PrintRewrites ringRewrites() const {
    PrintRewrites r = uniformRewrites();
    for (std::size_t p = 0; p < st_.arrays.size(); ++p)
      for (const StagedRead& read : st_.arrays[p].reads)
        r.exprs[read.read] = regs(p) + "[(culift_slot + " + offset(read.d[0]) + " - " + literal(lo(p, 0)) + ") % " +
                             str(ring()) + "][" + offset(read.d[1]) + " - " + literal(lo(p, 1)) + "][culift_col + " +
                             offset(read.d[2]) + " - " + literal(lo(p, 2)) + "]";
    return r;
  }
  PrintRewrites uniformRewrites() const {
    PrintRewrites r;
    for (std::size_t q = 0; q < st_.uniform.size(); ++q) {
      std::string at = uniformRegs(q);
      for (VarId c : st_.uniform[q].counters) at += "[" + name(c) + " - " + literal(st_.windows.at(c).first) + "]";
      if (st_.uniform[q].counters.empty()) at += "[0]";
      r.exprs[st_.uniform[q].read] = at;
    }
    for (const Stmt* loop : st_.windowLoops) r.unrolled.insert(loop);
    return r;
  }
  // The helpers' parameters of the windows' and the uniform reads' registers.
  std::string registerParams() const {
    std::string params;
    for (std::size_t p = 0; p < st_.arrays.size(); ++p)
      params += "const " + element(p) + " (&" + regs(p) + ")" + dims(p) + ", ";
    for (std::size_t q = 0; q < st_.uniform.size(); ++q)
      params += "const " + typeOf(st_.uniform[q].array) + " (&" + uniformRegs(q) + ")" + uniformDims(q) + ", ";
    return params;
  }

  void helper() {
    const PrintRewrites r = ringRewrites();
    const std::string params = registerParams();
    out_.say("// " + fn_.name + " for " + e_.kernelName + ": the body, its reads of " + arrayNames() +
             " from the thread's registers.");
    CodeWriter::Scope f = out_.open("__device__ __forceinline__ " + std::string(spelling(fn_.returnType.scalar)) + " " +
                                    helperName() + "(" + params + "int culift_slot, int culift_col, " +
                                    printer_.parameterList() + ")");
    speculated_ = staged_ && !outputVector().empty() && speculatable(r);
    if (!speculated_) {
      printBody(r, *fn_.body);
      return;
    }
    // Guards that return early become selects at the end: the body runs whole for every output,
    // so that a thread's outputs are one stretch of code without branches.
    std::string chain;
    std::size_t guards = 0;
    for (const StmtPtr& c : fn_.body->stmts) {
      if (const Expr* value = guardReturn(*c)) {
        chain += guardAsSelect(r, *c, *value, guards++);
      } else if (c.get() == fn_.body->stmts.back().get()) {
        out_.say("return " + chain + "(" + printWith(r, *c->expr) + ");");
      } else {
        printWith(r, *c);
      }
    }
  }

  // Guard number m, `if (cond) return value;`, evaluated in place (culift_e<m>, culift_v<m>); its
  // part of the selects the copy returns at the end.
  std::string guardAsSelect(const PrintRewrites& r, const Stmt& guard, const Expr& value, std::size_t m) {
    const std::string n = str(m);
    out_.say("const bool culift_e" + n + " = " + printWith(r, *guard.cond) + ";  // returns early");
    out_.say("const " + std::string(spelling(fn_.returnType.scalar)) + " culift_v" + n + " = " + printWith(r, value) +
             ";");
    return "culift_e" + n + " ? culift_v" + n + " : ";
  }

  // The value of `if (cond) return value;` (no else; the return alone or in a block of its own).
  static const Expr* guardReturn(const Stmt& s) {
    if (s.kind != StmtKind::If || s.otherwise || !s.then) return nullptr;
    const Stmt* r = s.then.get();
    if (r->kind == StmtKind::Block && r->stmts.size() == 1) r = r->stmts[0].get();
    return r->kind == StmtKind::Return && r->expr ? r->expr.get() : nullptr;
  }

  // Whether every output may run the whole body, its early returns taken as selects at the end:
  // the body's top level is statements, guards `if (cond) return value;` and a last `return`; it
  // reads memory only where the reads take registers, writes only variables, calls nothing but math
  // functions, and loops only over windows (constant bounds), so that running what an early
  // return would skip changes nothing the output sees and cannot fault.
  bool speculatable(const PrintRewrites& r) const {
    const Stmt& body = *fn_.body;
    if (body.kind != StmtKind::Block || body.stmts.empty()) return false;
    const Stmt& last = *body.stmts.back();
    if (last.kind != StmtKind::Return || !last.expr) return false;
    std::set<const Stmt*> windows(st_.windowLoops.begin(), st_.windowLoops.end());
    bool pure = true;
    for (const StmtPtr& c : body.stmts) {
      if (guardReturn(*c) || c.get() == &last) continue;
      forEachStmt(*c, [&](const Stmt& s) {
        switch (s.kind) {
          case StmtKind::Block:
          case StmtKind::Decl:
          case StmtKind::ExprStmt:
          case StmtKind::If:
          case StmtKind::Null: break;
          case StmtKind::For: pure = pure && windows.count(&s) > 0; break;
          default: pure = false;  // returns inside, other loops, switches, jumps
        }
      });
    }
    // An integer quotient or remainder by zero (or of the least value by -1) is undefined: run
    // where an early return would skip it, the compiler could take its operands for values they
    // are not. Only literal divisors other than 0 and -1 are taken.
    auto safeDivision = [](const Expr& e) {
      if ((e.binaryOp != BinaryOp::Div && e.binaryOp != BinaryOp::Rem) || e.operands.size() != 2) return true;
      const Scalar t = e.kind == ExprKind::CompoundAssign ? e.computeType : e.type.scalar;
      if (isFloating(t)) return true;
      const Expr& d = stripCasts(*e.operands[1]);
      return d.kind == ExprKind::IntLiteral && d.intBits != 0 && static_cast<std::int64_t>(d.intBits) != -1;
    };
    forEachExpr(body, [&](const Expr& e) {
      switch (e.kind) {
        case ExprKind::Binary: pure = pure && safeDivision(e); break;
        case ExprKind::Subscript: pure = pure && r.exprs.count(&e) > 0; break;
        case ExprKind::Assign:
        case ExprKind::CompoundAssign:
        case ExprKind::IncDec:
          pure = pure && assignmentTarget(e)->kind == ExprKind::VarRef &&
                 (e.kind != ExprKind::CompoundAssign || safeDivision(e));
          break;
        case ExprKind::Call:
        case ExprKind::Assert:
        case ExprKind::AtomicRmw: pure = false; break;
        default: break;
      }
    });
    return pure;
  }

  // ---- the planes streamed into running values (`stream_`) ----
  // A body that adds up its window plane by plane: one window loop at its top level over the planes
  // (counter d, every read of the staged array inside it at plane d + a constant), the values it
  // carries from one iteration to the next declared before it, and reads of the array outside it
  // only at constant offsets and only in guards or after it. Plane p, once in shared memory, then
  // runs iteration d of the loop for output plane p - the constant - d, from the values that
  // output's earlier iterations left in the thread's registers: the outputs of several planes are
  // under way at once, each one's operations those of the per-thread entry in the same order (its
  // bits), and a thread holds its window of one plane, not of every plane its outputs read.
  struct StreamPlan {
    const Stmt* loop = nullptr;  // the window loop over the planes
    VarId counter = kNone;
    std::int64_t first = 0, last = 0;  // its bounds
    std::int64_t base = 0;             // the plane offset of its reads at counter 0
    std::size_t at = 0;                // its place among the body's statements
    std::vector<VarId> carried;        // declared before it, assigned in it
    std::int64_t ahead = 0;            // planes copied ahead
    unsigned stages = kStages;         // the ring's tiles
  };

  static VarId counterOf(const Stmt& loop) {
    const Stmt* init = loop.init.get();
    if (init && init->kind == StmtKind::Block && !init->scoped && init->stmts.size() == 1) init = init->stmts[0].get();
    return init && init->kind == StmtKind::Decl ? init->var : kNone;
  }

  // The body's statements at its top level, a declaration of several variables (a block of its
  // own, not a scope) taken apart.
  std::vector<const Stmt*> topLevel() const {
    std::vector<const Stmt*> out;
    for (const StmtPtr& c : fn_.body->stmts) {
      if (c->kind == StmtKind::Block && !c->scoped)
        for (const StmtPtr& d : c->stmts) out.push_back(d.get());
      else out.push_back(c.get());
    }
    return out;
  }

  std::optional<StreamPlan> streamPlan() const {
    if (!staged_ || outputVector().empty() || st_.arrays.size() != 1 || !speculatable(ringRewrites())) return {};
    const std::vector<const Stmt*> body = topLevel();
    const std::set<const Stmt*> windows(st_.windowLoops.begin(), st_.windowLoops.end());
    StreamPlan s;
    for (std::size_t q = 0; q < body.size(); ++q) {
      if (!windows.count(body[q])) continue;
      if (s.loop) return {};  // one loop over the planes
      s.loop = body[q], s.at = q;
    }
    if (!s.loop || (s.counter = counterOf(*s.loop)) == kNone || !st_.windows.count(s.counter)) return {};
    std::tie(s.first, s.last) = st_.windows.at(s.counter);
    std::set<const Expr*> inside, staged;
    forEachExpr(*s.loop, [&](const Expr& e) { inside.insert(&e); });
    bool based = false;
    std::int64_t least = std::numeric_limits<std::int64_t>::max(), most = std::numeric_limits<std::int64_t>::min();
    for (const StagedRead& read : st_.arrays[0].reads) {
      staged.insert(read.read);
      const Offset& d = read.d[0];
      if (inside.count(read.read)) {
        if (d.counters.size() != 1 || !d.counters.count(s.counter) || d.counters.at(s.counter) != 1) return {};
        if (based && d.constant != s.base) return {};
        s.base = d.constant, based = true;
        continue;
      }
      for (const Offset& a : read.d)
        if (!a.counters.empty()) return {};
      least = std::min(least, d.constant), most = std::max(most, d.constant);
    }
    if (!based) return {};
    // The reads outside the loop are made with the loop's last plane: in it or the planes before,
    // still in the ring of tiles while the copies run `ahead` planes on.
    const std::int64_t finish = s.base + s.last;
    if (most != std::numeric_limits<std::int64_t>::min() && most > finish) return {};
    const std::int64_t kept = most == std::numeric_limits<std::int64_t>::min() ? 0 : finish - least;
    if (kStreamStages * tileElements(0) * 4 <= kMaxStagedBytes) s.stages = kStreamStages;
    s.ahead = std::min<std::int64_t>(kStreamAhead, static_cast<std::int64_t>(s.stages) - 1 - kept);
    if (s.ahead < 1) return {};
    std::set<VarId> assigned, declared;
    forEachExpr(*s.loop, [&](const Expr& e) {
      if (const Expr* t = assignmentTarget(e); t && t->kind == ExprKind::VarRef) assigned.insert(t->var);
    });
    forEachStmt(*s.loop, [&](const Stmt& c) {
      if (c.kind == StmtKind::Decl) declared.insert(c.var);
    });
    bool fits = true;
    for (std::size_t q = 0; q < body.size(); ++q) {
      const Stmt& c = *body[q];
      if (q == s.at) continue;
      // Before the loop, the array is read in guards alone (they run with the output's last plane).
      if (q < s.at && !guardReturn(c)) forEachExpr(c, [&](const Expr& e) { fits = fits && !staged.count(&e); });
      if (q < s.at && c.kind == StmtKind::Decl && assigned.count(c.var)) {
        if (!c.expr || !fn_.vars[c.var].type.isValue()) return {};
        s.carried.push_back(c.var);
      }
    }
    for (VarId v : assigned)
      if (!declared.count(v) && std::find(s.carried.begin(), s.carried.end(), v) == s.carried.end()) return {};
    // Before the loop, a carried value is named by its declaration alone: a guard or statement
    // there that read it would see its first value, not the one the loop leaves.
    auto carriedRef = [&](const Expr& e) {
      return e.kind == ExprKind::VarRef && std::find(s.carried.begin(), s.carried.end(), e.var) != s.carried.end();
    };
    for (std::size_t q = 0; q < s.at; ++q) {
      const Stmt& c = *body[q];
      if (c.kind == StmtKind::Decl && std::find(s.carried.begin(), s.carried.end(), c.var) != s.carried.end()) {
        if (c.expr) forEachExpr(*c.expr, [&](const Expr& e) { fits = fits && !carriedRef(e); });
        continue;
      }
      forEachExpr(c, [&](const Expr& e) { fits = fits && !carriedRef(e); });
    }
    // A carried value is set by its declaration and the loop alone.
    for (std::size_t q = 0; q < body.size(); ++q)
      if (q != s.at)
        forEachExpr(*body[q], [&](const Expr& e) {
          const Expr* t = assignmentTarget(e);
          if (t && t->kind == ExprKind::VarRef &&
              std::find(s.carried.begin(), s.carried.end(), t->var) != s.carried.end())
            fits = false;
        });
    if (!fits || s.carried.empty()) return {};
    return s;
  }

  std::string carriedName(std::size_t m) const { return "culift_a" + str(m); }

  // The reads of the staged array inside the loop from the thread's window of the current plane.
  PrintRewrites streamRewrites() const {
    PrintRewrites r = uniformRewrites();
    for (const StagedRead& read : st_.arrays[0].reads)
      r.exprs[read.read] = regs(0) + "[0][culift_row + " + offset(read.d[1]) + " - " + literal(lo(0, 1)) +
                           "][culift_col + " + offset(read.d[2]) + " - " + literal(lo(0, 2)) + "]";
    return r;
  }

  // The loop's iteration `counter` (an expression), in a block of its own.
  void streamIteration(const PrintRewrites& r, const std::string& counter) {
    CodeWriter::Scope iteration = out_.open("");
    out_.say("const " + typeOf(stream_->counter) + " " + name(stream_->counter) + " = " + counter + ";");
    printWith(r, *stream_->loop->body);
  }

  // `<entry>_part<d>`: iteration d (not the last) of the loop for one output, its carried values
  // in the thread's registers (set by their declarations at the first).
  void streamPart() {
    PrintRewrites r = streamRewrites();
    std::string carried;
    for (std::size_t m = 0; m < stream_->carried.size(); ++m) {
      const VarId v = stream_->carried[m];
      r.vars[v] = carriedName(m);
      carried += typeOf(v) + "& " + carriedName(m) + ", ";
    }
    out_.say("// " + fn_.name + " for " + e_.kernelName + ": iteration culift_di of its loop over " +
             name(stream_->counter) +
             " (not the last) for one output, the values it carries in the thread's registers.");
    out_.say("template <int culift_di>");
    CodeWriter::Scope f = out_.open("__device__ __forceinline__ void " + e_.kernelName + "_part(" + registerParams() +
                                    carried + "int culift_row, int culift_col, " + printer_.parameterList() + ")");
    const std::vector<const Stmt*> body = topLevel();
    for (std::size_t q = 0; q < stream_->at; ++q) {
      const Stmt& c = *body[q];
      if (guardReturn(c)) continue;
      const auto it = std::find(stream_->carried.begin(), stream_->carried.end(), c.var);
      if (c.kind == StmtKind::Decl && it != stream_->carried.end()) {
        out_.say("if (culift_di == " + literal(stream_->first) + ") " +
                 carriedName(static_cast<std::size_t>(it - stream_->carried.begin())) + " = " + printWith(r, *c.expr) +
                 ";");
        continue;
      }
      printWith(r, c);
    }
    streamIteration(r, "culift_di");
  }

  // A read of the staged array outside the loop (a guard's: constant offsets from the output), and
  // its offsets along (i, j, k).
  static bool guardRead(const StagedRead& read) { return read.d[0].counters.empty(); }
  static std::array<std::int64_t, 3> offsetsOf(const StagedRead& read) {
    return {read.d[0].constant, read.d[1].constant, read.d[2].constant};
  }

  // The staged array's elements the guards read, each offset once, in the order of the reads.
  std::vector<std::array<std::int64_t, 3>> guardOffsets() const {
    std::vector<std::array<std::int64_t, 3>> out;
    for (const StagedRead& read : st_.arrays[0].reads)
      if (guardRead(read) && std::find(out.begin(), out.end(), offsetsOf(read)) == out.end())
        out.push_back(offsetsOf(read));
    return out;
  }

  // `<entry>_last`: the loop's last iteration for one output, then the statements after it; its
  // guards as selects, the elements they read (from the tiles in shared memory) its arguments.
  void streamLast() {
    PrintRewrites r = streamRewrites();
    const std::vector<std::array<std::int64_t, 3>> guards = guardOffsets();
    std::string read;
    for (std::size_t m = 0; m < guards.size(); ++m) read += element(0) + " culift_g" + str(m) + ", ";
    for (const StagedRead& sr : st_.arrays[0].reads)
      if (guardRead(sr))
        r.exprs[sr.read] = "culift_g" + str(static_cast<std::size_t>(
                                            std::find(guards.begin(), guards.end(), offsetsOf(sr)) - guards.begin()));
    std::string carried;
    for (std::size_t m = 0; m < stream_->carried.size(); ++m) {
      const VarId v = stream_->carried[m];
      r.vars[v] = carriedName(m);
      carried += typeOf(v) + " " + carriedName(m) + ", ";
    }
    const std::string t(spelling(fn_.returnType.scalar));
    out_.say("// " + fn_.name + " for " + e_.kernelName + ": the last iteration of its loop over " +
             name(stream_->counter) + " for one output and the statements after it; its early returns as selects, " +
             "the elements of " + arrayNames() + " they read (culift_g...) loaded by the caller from the tiles in " +
             "shared memory.");
    CodeWriter::Scope f = out_.open("__device__ __forceinline__ " + t + " " + e_.kernelName + "_last(" +
                                    registerParams() + read + carried + "int culift_row, int culift_col, " +
                                    printer_.parameterList() + ")");
    std::string chain;
    std::size_t guardCount = 0;
    const std::vector<const Stmt*> body = topLevel();
    for (std::size_t q = 0; q < body.size(); ++q) {
      const Stmt& c = *body[q];
      if (q == stream_->at) {
        streamIteration(r, literal(stream_->last));
      } else if (const Expr* value = guardReturn(c)) {
        chain += guardAsSelect(r, c, *value, guardCount++);
      } else if (q + 1 == body.size()) {
        out_.say("return " + chain + "(" + printWith(r, *c.expr) + ");");
      } else if (c.kind != StmtKind::Decl ||
                 std::find(stream_->carried.begin(), stream_->carried.end(), c.var) == stream_->carried.end()) {
        printWith(r, c);
      }
    }
  }

  // The elements the guards of the thread's outputs of plane culift_i in its row `row` read, from
  // the tiles in shared memory: one 16-byte load a guard offset where the outputs' elements are a
  // group of the tile's row (the output's own element among them), one load an output elsewhere.
  // Returns each output's arguments.
  std::vector<std::string> loadGuardElements(unsigned row) {
    const std::vector<std::array<std::int64_t, 3>> guards = guardOffsets();
    std::vector<std::string> args(cols_);
    const std::string v = vectorType(0);
    for (std::size_t m = 0; m < guards.size(); ++m) {
      const std::array<std::int64_t, 3>& g = guards[m];
      const std::int64_t column = g[2] - tileFirstCol(0);
      const std::string at = stage(0, "culift_i - culift_z0 + " + literal(g[0] - lo(0, 0))) + " + (culift_ty * " +
                             str(rows_) + " + " + literal(static_cast<std::int64_t>(row) + g[1] - lo(0, 1)) + ") * " +
                             str(static_cast<std::size_t>(tileColumns(0))) + " + " + str(kWindowColumns) +
                             " * culift_tx + " + literal(column);
      const std::string var = "culift_g" + str(m) + (row ? "r" + str(row) : "");
      if (column % 4 == 0) {
        out_.say("const " + v + " " + var + " = *reinterpret_cast<const " + v + "*>(" + at + ");  // for the guards");
        for (unsigned u = 0; u < cols_; ++u) args[u] += var + "." + kLane[u] + ", ";
      } else {
        out_.say("const " + element(0) + "* const " + var + " = " + at + ";  // for the guards");
        for (unsigned u = 0; u < cols_; ++u) args[u] += var + "[" + str(u) + "], ";
      }
    }
    return args;
  }

  // The slab's planes streamed: every ring plane of the slab in turn, copied `ahead` planes ahead;
  // with plane n in shared memory, each thread loads its window of it and runs, for every iteration
  // d of the loop, that iteration for its outputs of plane (the plane - the reads' offset - d), the
  // last iteration storing them. Steps of as many planes as the loop has iterations, unrolled, so
  // that the slots of the carried values are constants.
  void streamWalk(const std::string& leading, const std::array<std::string, 3>& n) {
    const StreamPlan& s = *stream_;
    const std::size_t h = static_cast<std::size_t>(halo());
    const std::int64_t span = s.last - s.first + 1;
    const std::string ahead = str(static_cast<std::size_t>(s.ahead)), spanText = str(static_cast<std::size_t>(span));
    out_.say("const int culift_np = culift_z1 - culift_z0 + " + str(h) + ";  // ring planes the slab reads");
    for (std::int64_t q = 0; q < s.ahead; ++q) copyPlanes(str(static_cast<std::size_t>(q)));
    for (std::size_t m = 0; m < s.carried.size(); ++m)
      out_.say(typeOf(s.carried[m]) + " " + carriedName(m) + "[" + spanText + "][" + str(rows_) + "][" + str(cols_) +
               "];  // " + name(s.carried[m]) + " of the outputs under way, output plane z in slot (z - culift_z0) % " +
               spanText);
    out_.say("#pragma unroll 1");
    CodeWriter::Scope slab = out_.open("for (int culift_s = 0; culift_s < culift_np; culift_s += " + spanText + ")");
    out_.say("#pragma unroll");
    CodeWriter::Scope step = out_.open("for (int culift_t = 0; culift_t < " + spanText + "; ++culift_t)");
    out_.say("const int culift_n = culift_s + culift_t;  // ring plane culift_z0 + " + literal(lo(0, 0)) +
             " + culift_n");
    out_.say("if (culift_n >= culift_np) break;");
    out_.say("culift_copy_wait<" + str(static_cast<std::size_t>(s.ahead - 1)) + ">();");
    out_.say("__syncthreads();");
    copyPlanes("culift_n + " + ahead);
    loadStaged(0, "0", "culift_n");
    CodeWriter::Scope live = out_.open("if (culift_j < culift_nj && culift_k < culift_nk)");
    for (std::int64_t d = s.first; d <= s.last; ++d) {
      // Output plane culift_s + culift_t + lo - base - d, in slot (culift_t + lo - base - d) % span.
      const std::int64_t shift = lo(0, 0) - s.base - d;
      const std::string slot = "(culift_t + " + str(static_cast<std::size_t>(((shift % span) + span) % span)) + ") % " +
                               spanText;
      CodeWriter::Scope part = out_.open("");
      out_.say("const int culift_i = culift_z0 + culift_n + " + literal(shift) + ";  // its output plane");
      CodeWriter::Scope in = out_.open("if (culift_i >= culift_z0 && culift_i < culift_z1)");
      std::string ks;
      for (unsigned u = 0; u < cols_; ++u) ks += (u ? ", " : "") + ("culift_k" + str(u)) + " = culift_k + " + str(u);
      out_.say("const int " + ks + ";");
      // The thread's rows in turn, row r (output row culift_j + r) where it lies in the extents.
      for (unsigned row = 0; row < rows_; ++row) {
        std::optional<CodeWriter::Scope> inRow;
        std::string j = "culift_j";
        if (row > 0) {
          j = "culift_j" + str(row);
          inRow.emplace(out_.open("if (culift_j + " + str(row) + " < culift_nj)"));
          out_.say("const int " + j + " = culift_j + " + str(row) + ";");
        }
        std::vector<PerOutput> outputs;
        const std::vector<std::string> guards = d < s.last ? std::vector<std::string>(cols_) : loadGuardElements(row);
        for (unsigned u = 0; u < cols_; ++u) {
          const std::string k = "culift_k" + str(u), at = str(row) + ", " + str(u);
          std::string carried;
          for (std::size_t m = 0; m < s.carried.size(); ++m)
            carried += carriedName(m) + "[" + slot + "][" + str(row) + "][" + str(u) + "], ";
          if (d < s.last)
            outputs.push_back(perOutputParts(fn_, {"culift_i", j, k}, n, e_.kernelName + "_part<" + literal(d) + ">",
                                             leading + carried + at));
          else
            outputs.push_back(perOutputParts(fn_, {"culift_i", j, k}, n, e_.kernelName + "_last",
                                             leading + guards[u] + carried + at));
        }
        if (d < s.last) {
          for (const PerOutput& o : outputs) out_.say(o.call + ";");
          continue;
        }
        storeOutputs(outputs);
      }
    }
  }

  // The thread's outputs, each computed (an output past the row too, not stored), then stored: one
  // 16-byte store where all are in the row and aligned.
  void storeOutputs(const std::vector<PerOutput>& outputs) {
    const std::string t(spelling(fn_.returnType.scalar)), v = outputVector();
    std::string values;
    for (unsigned u = 0; u < cols_; ++u) values += (u ? ", " : "") + ("culift_o" + str(u) + " = (" + t + ")0");
    out_.say(t + " " + values + ";");
    for (unsigned u = 0; u < cols_; ++u) {
      if (speculated_) {
        out_.say("culift_o" + str(u) + " = " + outputs[u].call + ";");
        continue;
      }
      CodeWriter::Scope output = out_.open("if (culift_k + " + str(u) + " < culift_nk)");
      out_.say("culift_o" + str(u) + " = " + outputs[u].call + ";");
    }
    CodeWriter::Scope whole = out_.open("if (culift_ov && culift_k + " + str(cols_ - 1) + " < culift_nk)");
    out_.say(v + " culift_v;");
    for (unsigned u = 0; u < cols_; ++u) out_.say("culift_v." + std::string(kLane[u]) + " = culift_o" + str(u) + ";");
    out_.say("*reinterpret_cast<" + v + "*>(&" + outputs[0].target + ") = culift_v;");
    whole.otherwise();
    for (unsigned u = 0; u < cols_; ++u)
      out_.say("if (culift_k + " + str(u) + " < culift_nk) " + outputs[u].target + " = culift_o" + str(u) + ";");
  }

  std::string arrayNames() const {
    std::string t;
    for (std::size_t p = 0; p < st_.arrays.size(); ++p) t += (p ? ", " : "") + name(st_.arrays[p].array);
    return t;
  }

  // The parameter of an array's element count.
  std::string lengthOf(VarId array) const {
    for (std::size_t k = 0; k < fn_.signature.params.size(); ++k)
      if (fn_.signature.params[k].userParam == static_cast<int>(array)) return "culift_len" + str(k);
    throw std::logic_error("stencil plan of " + fn_.name + ": a staged array is no kernel parameter");
  }
  std::string lengthOf(std::size_t p) const { return lengthOf(st_.arrays[p].array); }

  // The elements every uniform read takes over its counters' windows, into registers (an element
  // outside the array, which no output reads, as zero).
  void loadUniform(std::size_t q) {
    const UniformRead& u = st_.uniform[q];
    out_.say(typeOf(u.array) + " " + uniformRegs(q) + uniformDims(q) + ";  // " + name(u.array) + "[" +
             printer_.printExpression(*u.index) + "], loaded once");
    CodeWriter::Scope all = out_.open("");
    std::vector<CodeWriter::Scope> loops;
    PrintRewrites r;
    std::string at = uniformRegs(q);
    for (std::size_t n = 0; n < u.counters.size(); ++n) {
      const VarId c = u.counters[n];
      const std::string v = "culift_v" + str(n);
      out_.say("#pragma unroll");
      loops.push_back(out_.open("for (int " + v + " = " + literal(st_.windows.at(c).first) + "; " + v +
                                " <= " + literal(st_.windows.at(c).second) + "; ++" + v + ")"));
      r.vars[c] = "((" + typeOf(c) + ")" + v + ")";
      at += "[" + v + " - " + literal(st_.windows.at(c).first) + "]";
    }
    if (u.counters.empty()) at += "[0]";
    out_.say("const long long culift_x = (long long)(" + printWith(r, *u.index) + ");");
    out_.say(at + " = culift_x >= 0 && culift_x < " + lengthOf(u.array) + " ? " + name(u.array) + "[culift_x] : (" +
             typeOf(u.array) + ")0;");
    while (!loops.empty()) loops.pop_back();  // innermost first
  }

  // The unrolled loops over array p's window of a plane: culift_dj over its rows, culift_dk over
  // its columns (the innermost scope first when they end).
  std::pair<CodeWriter::Scope, CodeWriter::Scope> windowLoops(std::size_t p) {
    out_.say("#pragma unroll");
    CodeWriter::Scope rows = out_.open("for (int culift_dj = 0; culift_dj < " +
                                       str(static_cast<std::size_t>(width(p, 1))) + "; ++culift_dj)");
    out_.say("#pragma unroll");
    CodeWriter::Scope cols = out_.open("for (int culift_dk = 0; culift_dk < " +
                                       str(static_cast<std::size_t>(columns(p))) + "; ++culift_dk)");
    return {std::move(rows), std::move(cols)};
  }

  // ---- the planes through shared memory (`staged_`) ----
  // A block's tile of a staged array's plane: the rows of its outputs and their halo, the columns
  // from the halo's first offset to past its last, each end taken out to a 16-byte group of the
  // block's first output (a multiple of 4 columns from it), so that every group lies in one row.
  std::int64_t tileRows(std::size_t p) const { return threadRows_ * rows_ + width(p, 1) - 1; }
  std::int64_t tileFirstCol(std::size_t p) const { return floor4(lo(p, 2)); }
  std::int64_t tileColumns(std::size_t p) const {
    const std::int64_t end = static_cast<std::int64_t>(e_.tileCols) + st_.arrays[p].hi[2];  // past the last column
    return floor4(end + 3) - tileFirstCol(p);
  }
  std::int64_t tileElements(std::size_t p) const { return tileRows(p) * tileColumns(p); }
  // The bytes of a staged array's element (stagedInShared: 4-byte elements only).
  static constexpr std::size_t kElementBytes = 4;
  std::string shared(std::size_t p) const { return "culift_sh" + str(p); }
  // The tiles of a staged array's ring: kStages, or the stream's.
  unsigned stages() const { return stream_ ? stream_->stages : kStages; }
  // The first element of array p's tile of ring plane `n` (an int expression) in shared memory.
  std::string stage(std::size_t p, const std::string& n) const {
    return shared(p) + " + " + ringSlot(n) + " * " + str(static_cast<std::size_t>(tileElements(p)));
  }
  // The stage of the ring that ring plane `n` (an int expression) takes: n % stages().
  std::string ringSlot(const std::string& n) const { return "(unsigned)(" + n + ") % " + str(stages()) + "u"; }

  // Whether the planes go through shared memory: four outputs a thread, every staged array of
  // 4-byte elements read in 16-byte groups along k, and their rings of kStages tiles within
  // kMaxStagedBytes (the analysis gives every staged array of a 3-D stencil the same halo along i).
  bool stagedInShared() const {
    if (cols_ != kWindowColumns) return false;
    std::int64_t bytes = 0;
    for (std::size_t p = 0; p < st_.arrays.size(); ++p) {
      if (vectorType(p).empty()) return false;
      bytes += kStages * tileElements(p) * 4;
    }
    return bytes <= kMaxStagedBytes;
  }

  // A thread's 16-byte groups of a tile: groups threadIdx.x, + the block's threads, ... of the tile's
  // groups in row-major order.
  std::size_t groups(std::size_t p) const { return static_cast<std::size_t>(tileElements(p) / 4); }
  std::size_t groupsPerThread(std::size_t p) const { return (groups(p) + e_.threads - 1) / e_.threads; }

  // Each of the thread's groups of array p's tile: its first element in plane 0 (culift_qp<p>), and
  // its place in a tile of the ring in bytes (culift_qb<p>); then the planes whose groups of the
  // thread all lie in the array, 16-byte aligned: culift_pin<p>0 through culift_pin<p>1 (none where
  // the rows are not so aligned or the planes do not step forward). The ring's shared address
  // (culift_sa<p>) is taken once, so that a plane's copies add offsets to it and to the groups'
  // pointers only.
  void groupOffsets(std::size_t p) {
    const std::string c = "culift_c" + str(p), g = str(groupsPerThread(p)), P = str(p);
    const std::string perRow = str(static_cast<std::size_t>(tileColumns(p) / 4));
    out_.say("const culift_saddr culift_sa" + P + " = culift_shared_at(" + shared(p) +
             ");  // the ring's shared address");
    out_.say("const " + element(p) + "* culift_qp" + P + "[" + g +
             "];  // the thread's groups of the tile in plane 0: their first elements");
    out_.say("int culift_qb" + P + "[" + g + "];  // ... and their places in a tile of the ring, in bytes");
    out_.say("int culift_pin" + P + "0, culift_pin" + P + "1;");
    CodeWriter::Scope range = out_.open("");
    out_.say(
        "long long culift_ql = 0x7fffffffffffffffLL, culift_qh = -0x7fffffffffffffffLL - 1;  // the least and the greatest");
    {
      out_.say("#pragma unroll");
      CodeWriter::Scope each = out_.open("for (int culift_g = 0; culift_g < " + g + "; ++culift_g)");
      out_.say("const int culift_q = threadIdx.x + " + str(e_.threads) + " * culift_g, culift_y = culift_q / " +
               perRow + ", culift_x = culift_q - culift_y * " + perRow + ";");
      out_.say("const long long culift_o = " + c + "b + " + c + "1 * (long long)culift_y + 4 * culift_x;");
      out_.say("culift_qp" + P + "[culift_g] = " + name(st_.arrays[p].array) + " + culift_o;");
      out_.say("culift_qb" + P + "[culift_g] = (culift_y * " + str(static_cast<std::size_t>(tileColumns(p))) +
               " + 4 * culift_x) * " + str(kElementBytes) + ";");
      CodeWriter::Scope mine = out_.open("if (culift_q < " + str(groups(p)) + ")");
      out_.say("culift_ql = min(culift_ql, culift_o);");
      out_.say("culift_qh = max(culift_qh, culift_o);");
    }
    // The least plane whose first group starts at or after the array's first element, and the
    // greatest whose last group ends before its end (divisions rounded down and up by hand: C++
    // rounds towards zero), kept far from int's limits.
    out_.say("culift_pin" + P + "0 = 1, culift_pin" + P + "1 = 0;");
    CodeWriter::Scope inside = out_.open("if (" + c + "v && " + c + "0 > 0 && culift_ql <= culift_qh)",
                                         "planes step forward, rows aligned");
    out_.say("const long long culift_need = -culift_ql, culift_room = " + lengthOf(p) + " - 4 - culift_qh;");
    out_.say("culift_pin" + P + "0 = (int)max(culift_need <= 0 ? -(-culift_need / " + c + "0) : (culift_need + " + c +
             "0 - 1) / " + c + "0, -(1LL << 30));");
    out_.say("culift_pin" + P + "1 = (int)min(culift_room >= 0 ? culift_room / " + c + "0 : -((-culift_room + " + c +
             "0 - 1) / " + c + "0), 1LL << 30);");
  }

  // The copy of the tiles of ring plane `n` (an int expression: plane z0 + the halo's first offset
  // + n of each staged array) into stage n % stages(), started where the slab reads that plane, then
  // the group committed (an empty group otherwise, so that every thread's groups stay counted).
  // Where the thread's groups lie in the array, aligned: one asynchronous 16-byte copy each, to the
  // ring's shared address plus the stage's and the group's bytes; otherwise element by element, an
  // element outside the array as zero (as the loads from global memory take it).
  void copyPlanes(const std::string& n) {
    CodeWriter::Scope planes = out_.open("if ((" + n + ") < culift_np)", "the slab reads this plane");
    for (std::size_t p = 0; p < st_.arrays.size(); ++p) {
      const std::string c = "culift_c" + str(p), a = name(st_.arrays[p].array), t = element(p), P = str(p);
      CodeWriter::Scope copy = out_.open("");
      out_.say("const int culift_pl = culift_z0 + " + literal(lo(p, 0)) + " + (" + n + ");  // the plane");
      out_.say("const long long culift_pe = " + c + "0 * (long long)culift_pl;  // its first element");
      auto groupLoop = [&](const std::string& body) {
        out_.say("#pragma unroll");
        CodeWriter::Scope each = out_.open("for (int culift_g = 0; culift_g < " + str(groupsPerThread(p)) +
                                           "; ++culift_g)");
        if (groups(p) % e_.threads != 0)
          out_.say("if (culift_g == " + str(groupsPerThread(p) - 1) +
                   " && threadIdx.x >= " + str(groups(p) % e_.threads) + ") break;");
        out_.say(body);
      };
      CodeWriter::Scope inside = out_.open("if (culift_pl >= culift_pin" + P + "0 && culift_pl <= culift_pin" + P +
                                           "1)");
      out_.say("const culift_saddr culift_sb = culift_sa" + P + " + " + ringSlot(n) + " * " +
               str(static_cast<std::size_t>(tileElements(p)) * kElementBytes) + "u;  // the stage's shared address");
      groupLoop("culift_copy_async16_at(culift_sb + culift_qb" + P + "[culift_g], culift_qp" + P +
                "[culift_g] + culift_pe);");
      inside.otherwise();
      out_.say(t + "* const culift_st = " + stage(p, n) + ";");
      groupLoop("culift_copy_group4(culift_st + culift_qb" + P + "[culift_g] / " + str(kElementBytes) + ", " + a +
                ", (culift_qp" + P + "[culift_g] - " + a + ") + culift_pe, " + lengthOf(p) + ");");
    }
    planes.close();
    out_.say("culift_copy_commit();");
  }

  // Ring plane `n` readable by every thread (its copy done, the block past the barrier), and the
  // copy of ring plane n + kStages - 1 started into the stage whose plane every thread read before
  // the barrier.
  void arrive(const std::string& n) {
    out_.say("culift_copy_wait<" + str(kStages - 2) + ">();");
    out_.say("__syncthreads();");
    copyPlanes("(" + n + ") + " + str(kStages - 1));
  }

  // The 16-byte vector of array p's 4-byte elements (float4, int4, uint4), or "" where its rows
  // are not read so: a thread of four outputs along k whose array steps by one element along k.
  std::string vectorType(std::size_t p) const {
    const Poly& along = st_.arrays[p].coefficient[2];
    if (cols_ != 4 || along.size() != 1 || !along.begin()->first.empty() || along.begin()->second != 1) return "";
    return vector4(fn_.vars[st_.arrays[p].array].type.scalar);
  }
  static std::string vector4(Scalar s) {
    switch (s) {
      case Scalar::F32: return "float4";
      case Scalar::I32: return "int4";
      case Scalar::U32: return "uint4";
      default: return "";
    }
  }
  // Whether window column `col` of array p lies in a group of 4 of the thread's row that starts at
  // a multiple of 4 from its first output (a 16-byte vector where that output's element is aligned
  // so), the group wholly in the window.
  bool inVector(std::size_t p, std::int64_t col) const {
    const std::int64_t o = col + lo(p, 2), first = floor4(o);
    return first >= lo(p, 2) && first + 3 <= st_.arrays[p].hi[2] + cols_ - 1;
  }

  // A row of array p's window from its 16-byte groups and the scalars beside them: `row`, the
  // element of the thread's first output in that row (aligned to 16 bytes).
  void vectorRow(std::size_t p, const std::string& slot, const std::string& row) {
    const std::string v = vectorType(p);
    out_.say("const " + element(p) + "* culift_r = " + row + ";  // the row at the thread's first output");
    for (std::int64_t col = 0; col < columns(p); ++col) {
      const std::int64_t o = col + lo(p, 2);
      const std::string target = regs(p) + "[" + slot + "][culift_dj][" + std::to_string(col) + "] = ";
      if (!inVector(p, col)) {
        out_.say(target + "culift_r[" + std::to_string(o) + "];");
        continue;
      }
      const std::int64_t lane = o - floor4(o), group = floor4(o) / 4;
      const std::string g = "culift_g" + (group < 0 ? "m" + std::to_string(-group) : std::to_string(group));
      if (lane == 0)
        out_.say("const " + v + " " + g + " = *reinterpret_cast<const " + v + "*>(culift_r + " + std::to_string(o) +
                 ");");
      out_.say(target + g + "." + kLane[static_cast<std::size_t>(lane)] + ";");
    }
  }

  // Plane `plane` (an int expression) of array p into register plane `slot`: loaded without checks
  // where the window lies in the array (rows in 16-byte groups where the array has them and the
  // thread's rows are so aligned, else one by one), element by element with checks where it
  // crosses an end. The three are separate branches: a load that chose between a group and single
  // elements at run time would issue both.
  void loadPlane(std::size_t p, const std::string& slot, const std::string& plane) {
    CodeWriter::Scope load = out_.open("");
    const std::string c = "culift_c" + str(p);
    out_.say("const long long culift_e = " + c + "o + " + c + "0 * (long long)(" + plane + ");  // its centre");
    const std::string inside = "culift_e >= " + c + "in0 && culift_e < " + c + "in1";
    auto loads = [&](bool checked) {
      const auto window = windowLoops(p);
      const std::string at = "culift_e + " + c + "1 * (long long)(culift_dj + " + literal(lo(p, 1)) +
                             ") + (long long)(culift_dk + " + literal(lo(p, 2)) + ")";
      const std::string target = regs(p) + "[" + slot + "][culift_dj][culift_dk]";
      if (!checked) {
        out_.say(target + " = " + name(st_.arrays[p].array) + "[" + at + "];");
        return;
      }
      out_.say("const long long culift_x = " + at + ";");
      out_.say(target + " = culift_x >= 0 && culift_x < " + lengthOf(p) + " ? " + name(st_.arrays[p].array) +
               "[culift_x] : (" + element(p) + ")0;");
    };
    if (!vectorType(p).empty()) {
      CodeWriter::Scope groups = out_.open("if (" + c + "v && " + inside + ")",
                                           "the window lies in the array, its rows in 16-byte groups");
      out_.say("#pragma unroll");
      CodeWriter::Scope rows = out_.open("for (int culift_dj = 0; culift_dj < " +
                                         str(static_cast<std::size_t>(width(p, 1))) + "; ++culift_dj)");
      vectorRow(p, slot,
                name(st_.arrays[p].array) + " + (culift_e + " + c + "1 * (long long)(culift_dj + " + literal(lo(p, 1)) +
                    "))");
      rows.close();
      groups.otherwise("} else if (" + inside + ") {  // the window lies in the array");
      loads(false);
      groups.otherwise();
      loads(true);
      return;
    }
    CodeWriter::Scope whole = out_.open("if (" + inside + ")", "the window lies in the array");
    loads(false);
    whole.otherwise();
    loads(true);
  }

  // Ring plane `n` of array p from its stage in shared memory into register plane `slot`.
  void loadStaged(std::size_t p, const std::string& slot, const std::string& n) {
    CodeWriter::Scope load = out_.open("");
    out_.say("const " + element(p) + "* const culift_st = " + stage(p, n) + " + culift_ty * " +
             str(static_cast<std::size_t>(rows_ * tileColumns(p))) + " + (" + str(kWindowColumns) + " * culift_tx - (" +
             std::to_string(tileFirstCol(p)) + "));  // the thread's first output in the tile's first row");
    out_.say("#pragma unroll");
    CodeWriter::Scope rows = out_.open("for (int culift_dj = 0; culift_dj < " +
                                       str(static_cast<std::size_t>(windowRows(p))) + "; ++culift_dj)");
    vectorRow(p, slot, "culift_st + culift_dj * " + str(static_cast<std::size_t>(tileColumns(p))));
  }

  // The planes of the block's slab, each thread's outputs from its windows: the halo's first planes,
  // then steps of ring() planes; each plane i of a step loads plane i + the halo's last offset of
  // every staged array, then runs the thread's outputs of plane i.
  void walk(const std::string& leading, const std::array<std::string, 3>& n) {
    const std::size_t h = static_cast<std::size_t>(halo()), r = ring();
    if (staged_) {
      out_.say("const int culift_np = culift_z1 - culift_z0 + " + str(h) + ";  // ring planes the slab reads");
      for (unsigned q = 0; q + 1 < kStages; ++q) copyPlanes(str(q));
      for (std::size_t q = 0; q < h; ++q) {
        arrive(str(q));
        for (std::size_t p = 0; p < st_.arrays.size(); ++p) loadStaged(p, str(q), str(q));
      }
    } else {
      for (std::size_t q = 0; q < h; ++q)
        for (std::size_t p = 0; p < st_.arrays.size(); ++p)
          loadPlane(p, str(q), "culift_z0 + " + literal(lo(p, 0) + static_cast<std::int64_t>(q)));
    }
    CodeWriter::Scope slab = slabSteps(out_, r);
    out_.say("#pragma unroll  // plane culift_s + t + (the halo's last offset) into slot (t + " + str(h) + ") % " +
             str(r));
    CodeWriter::Scope step = out_.open("for (int culift_t = 0; culift_t < " + str(r) + "; ++culift_t)");
    out_.say("const int culift_i = culift_s + culift_t;");
    out_.say("if (culift_i >= culift_z1) break;");
    if (staged_) {
      out_.say("const int culift_n = culift_i - culift_z0 + " + str(h) + ";  // its last plane's in the ring");
      arrive("culift_n");
      for (std::size_t p = 0; p < st_.arrays.size(); ++p)
        loadStaged(p, "(culift_t + " + str(h) + ") % " + str(r), "culift_n");
    } else {
      for (std::size_t p = 0; p < st_.arrays.size(); ++p)
        loadPlane(p, "(culift_t + " + str(h) + ") % " + str(r), "culift_i + " + literal(st_.arrays[p].hi[0]));
    }
    // With the planes in shared memory every thread of the block takes part in the copies and
    // barriers; those past the extents compute nothing.
    std::optional<CodeWriter::Scope> live;
    if (staged_) live.emplace(out_.open("if (culift_j < culift_nj && culift_k < culift_nk)"));
    if (cols_ == 1) {
      out_.say(perOutputStatement(fn_, {"culift_i", "culift_j", "culift_k"}, n, helperName(), leading + "culift_t, 0"));
      return;
    }
    const std::string v = outputVector();
    std::vector<PerOutput> outputs;
    std::string ks;
    for (unsigned u = 0; u < cols_; ++u) {
      const std::string k = "culift_k" + str(u);
      outputs.push_back(
          perOutputParts(fn_, {"culift_i", "culift_j", k}, n, helperName(), leading + "culift_t, " + str(u)));
      ks += (u ? ", " : "") + k + " = culift_k + " + str(u);
    }
    out_.say("const int " + ks + ";");
    if (v.empty()) {
      for (unsigned u = 0; u < cols_; ++u) {
        CodeWriter::Scope output = out_.open("if (culift_k + " + str(u) + " < culift_nk)");
        out_.say(outputs[u].statement());
      }
      return;
    }
    storeOutputs(outputs);
  }

  void entry() {
    std::string lengths;
    for (std::size_t k = 0; k < fn_.signature.params.size(); ++k)
      if (fn_.signature.params[k].type.isPointer())
        lengths += (lengths.empty() ? "" : ", ") + ("long long culift_len" + str(k));
    const std::string what = fn_.name + ": stencil, 2.5-D blocking with the windows in registers (" + halo_ + "), " +
                             str(e_.tileRows) + " x " + str(e_.tileCols) +
                             " outputs of the (j, k) plane per block of " + str(e_.threads) + " threads, " +
                             str(cols_) + " along k" + (rows_ > 1 ? " x " + str(rows_) + " along j" : std::string()) +
                             " per thread,";
    CodeWriter::Scope entry =
        stream_ ? signature(e_,
                            {what,
                             "each thread walking the planes of the block's slab as they arrive in shared memory, "
                             "each plane's window loaded once and each plane",
                             "running its iteration of the loop over " + name(stream_->counter) +
                                 " for the outputs under way (their carried values in registers);",
                             "each output as the per-thread entry runs it (its bits)."},
                            lengths, blocksPerSm())
                : signature(e_,
                            {what,
                             "each thread walking the planes i of the block's slab with the values of " + arrayNames() +
                                 " its outputs read in a ring of registers, loaded once per plane;",
                             "each output as the per-thread entry runs it (its bits)."},
                            lengths, blocksPerSm());
    aliases();
    static constexpr std::array<const char*, 3> kCount = {"culift_ni", "culift_nj", "culift_nk"};
    std::array<std::string, 3> n;
    for (unsigned a = 0; a < 3; ++a) {
      n[a] = kCount[a];
      out_.say("const int " + n[a] + " = (int)" + params_.extent[a] + ";");
    }
    out_.say("const int culift_k = (blockIdx.x * " + str(lanes_) + " + threadIdx.x % " + str(lanes_) + ") * " +
             str(cols_) + ", culift_j = blockIdx.y * " + str(e_.tileRows) + " + threadIdx.x / " + str(lanes_) +
             (rows_ > 1 ? " * " + str(rows_) : std::string()) + ";  // the thread's first output along k and j");
    blockSlab(out_);
    if (staged_)
      out_.say("const int culift_tx = threadIdx.x % " + str(lanes_) + ", culift_ty = threadIdx.x / " + str(lanes_) +
               ";");
    CodeWriter::Scope inside = out_.open(
        staged_ ? "if (culift_z0 < culift_z1)"
                : "if (culift_j < culift_nj && culift_k < culift_nk && culift_z0 < culift_z1)");
    if (!outputVector().empty())
      out_.say("const bool culift_ov = (culift_nk & 3) == 0 && (reinterpret_cast<unsigned long long>(" +
               params_.outName + ") & 15) == 0;  // the outputs' rows in 16-byte groups");
    std::string leading;
    for (std::size_t p = 0; p < st_.arrays.size(); ++p) {
      const StagedArray& a = st_.arrays[p];
      const std::string c = "culift_c" + str(p);
      out_.say(element(p) + " " + regs(p) + dims(p) + ";  // " + name(a.array) +
               (stream_ ? ": the thread's window of the current plane, rows x columns"
                        : ": a ring of planes x rows x columns of the thread's windows"));
      out_.say("const long long " + c + "0 = " + polyText(a.coefficient[0]) + ", " + c +
               "1 = " + polyText(a.coefficient[1]) + ";  // a plane's elements, a row's");
      leading += regs(p) + ", ";
      if (staged_) {
        out_.say("__shared__ __align__(16) " + element(p) + " " + shared(p) + "[" +
                 str(static_cast<std::size_t>(stages() * tileElements(p))) + "];  // " + name(a.array) +
                 ": a ring of " + str(stages()) + " planes of the block's tile, " +
                 str(static_cast<std::size_t>(tileRows(p))) + " rows x " +
                 str(static_cast<std::size_t>(tileColumns(p))) + " columns");
        out_.say("const long long " + c + "b = " + polyText(a.base) + " + " + c + "1 * (long long)((int)blockIdx.y * " +
                 str(e_.tileRows) + " + " + literal(lo(p, 1)) + ") + " + polyText(a.coefficient[2]) +
                 " * (long long)((int)blockIdx.x * " + str(e_.tileCols) + " + " + literal(tileFirstCol(p)) +
                 ");  // the tile's first element in plane 0");
        out_.say("const bool " + c + "v = (" + c + "0 & 3) == 0 && (" + c +
                 "1 & 3) == 0 && ((reinterpret_cast<unsigned long long>(" + name(a.array) +
                 ") / 4 + (unsigned long long)" + c + "b) & 3) == 0;  // the tiles' rows in aligned 16-byte groups");
        groupOffsets(p);
        continue;
      }
      out_.say("const long long " + c + "o = " + polyText(a.base) + " + " + c + "1 * (long long)culift_j + " +
               polyText(a.coefficient[2]) + " * (long long)culift_k;  // the thread's element of plane 0");
      out_.say("const long long " + c + "in0 = -((" + c + "1 < 0 ? " + c + "1 * " + literal(a.hi[1]) + " : " + c +
               "1 * " + literal(a.lo[1]) + ") + " + literal(a.lo[2]) + "), " + c + "in1 = " + lengthOf(p) + " - ((" +
               c + "1 < 0 ? " + c + "1 * " + literal(a.lo[1]) + " : " + c + "1 * " + literal(a.hi[1]) + ") + " +
               literal(a.hi[2] + cols_ - 1) +
               ");  // the centres whose windows lie in the array: from in0 up to, not with, in1");
      if (!vectorType(p).empty())
        out_.say("const bool " + c + "v = (" + c + "0 & 3) == 0 && (" + c +
                 "1 & 3) == 0 && ((reinterpret_cast<unsigned long long>(" + name(a.array) +
                 ") / 4 + (unsigned long long)" + c +
                 "o) & 3) == 0;  // the thread's first outputs' elements 16-byte aligned in every row");
    }
    for (std::size_t q = 0; q < st_.uniform.size(); ++q) {
      loadUniform(q);
      leading += uniformRegs(q) + ", ";
    }
    if (stream_) streamWalk(leading, n);
    else walk(leading, n);
  }

  // Whether the entry asks for three blocks an SM (__launch_bounds__(256, 3): at most 80 registers
  // a thread): four outputs a thread over windows and uniform values of 4 bytes or narrower, no more
  // of them than the 27-point convolution's (3 planes x 3 rows x 6 columns, and 27 weights). That
  // one took 90 registers alone (two blocks an SM, 54 % of a copy's bandwidth on an H100, where the
  // hand-written form at 80 registers, three blocks, reached 72 %); under the bound ptxas keeps it at
  // 80 with no spill.
  bool threeBlocks() const {
    if (cols_ != 4 || e_.threads != kThreads) return false;
    if (!fn_.returnType.isValue() || byteSize(fn_.returnType.scalar) > 4) return false;
    std::int64_t values = 0;
    for (std::size_t p = 0; p < st_.arrays.size(); ++p) {
      if (byteSize(fn_.vars[st_.arrays[p].array].type.scalar) > 4) return false;
      values += static_cast<std::int64_t>(ring()) * width(p, 1) * columns(p);
    }
    for (const UniformRead& u : st_.uniform) {
      if (byteSize(fn_.vars[u.array].type.scalar) > 4) return false;
      values += uniformElements(st_, u);
    }
    return values <= 3 * 3 * 6 + 27;
  }

  // The 16-byte vector a thread's four outputs are stored as (a function returning a 4-byte
  // scalar), or "".
  std::string outputVector() const {
    if (cols_ != 4 || fn_.returnType.isVoid() || !fn_.returnType.isValue()) return "";
    return vector4(fn_.returnType.scalar);
  }

  const PlanEntry& e_;
  const Stencil& st_;
  const std::string halo_;
  const unsigned cols_;               // outputs along k per thread
  const unsigned lanes_;              // threads along k (a row of the block: kTileCols, or fewer for narrow tiles)
  const unsigned threadRows_;         // ... and the block's rows of threads along j
  const unsigned rows_;               // outputs along j per thread (kStreamRows where the planes are streamed, else 1)
  const bool staged_;                 // the planes through shared memory
  bool speculated_ = false;           // every output runs the whole body (helper() decides)
  std::optional<StreamPlan> stream_;  // the planes streamed into running values (the constructor decides)
};

unsigned windowBlocksPerSm(const Function& f, const PlanEntry& e, const Stencil& st) {
  const Module none;  // the writer's printer names f's variables; nothing is printed
  CodeWriter out(false, "", "");
  return WindowWriter(none, f, e, out, st).blocksPerSm();
}

// The rows along j a thread of `e` takes: kStreamRows where the form of that many rows streams its
// planes and fits its registers, else 1 (a larger tile streams only where the smaller one would).
unsigned windowRowsPerThread(const Function& f, const PlanEntry& e, const Stencil& st) {
  const Module none;
  CodeWriter out(false, "", "");
  PlanEntry rows = e;
  rows.tileRows = windowThreadRows(e) * kStreamRows;
  return WindowWriter(none, f, rows, out, st).rowsFit() ? kStreamRows : 1;
}

void emitWindows(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  bool concerns = false;
  std::string why;
  std::optional<Stencil> st = analyzeStencil(fn, concerns, why);
  if (!st || st->rank != 3) throw std::logic_error("stencil plan of " + fn.name + " does not hold: " + why);
  WindowWriter(module, fn, entry, out, *st).write();
}

void emitFor(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  bool concerns = false;
  std::string why;
  std::optional<Stencil> st = analyzeStencil(fn, concerns, why);
  if (!st) throw std::logic_error("stencil plan of " + fn.name + " does not hold: " + why);
  WalkWriter(module, fn, entry, out, *st).write();
}

}  // namespace

const plans::Unit plans::kStencil{LoopPlan::Stencil, decide2D, emitFor, true};
const plans::Unit plans::kStencil3D{LoopPlan::Stencil3D, decide3D, emitFor, true};
const plans::Unit plans::kStencil3DWindows{LoopPlan::Stencil3DWindows, decide3DWindows, emitWindows, true};

}  // namespace culift::codegen
