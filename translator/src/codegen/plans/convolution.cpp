// Convolution, 3-D f(..., nk, oh, ow): a perfect nest of counted loops (c, r, s) whose body adds
// terms read from two kinds of arrays, run as an implicit GEMM. Its rows are the channels k of
// one image, its columns the positions (n, oh, ow) of every image, its K dimension the terms
// (c, r, s) in source order:
//
//   - a channel operand (the filter, w[((k * C + c) * R + r) * S + s]) is indexed by the channel
//     and the counters: nk bare, or nk % K, never the position;
//   - a position operand (the input, x[((n * C + c) * H + y) * W + xx]) by the position and the
//     counters, the image through nk / K alone;
//   - the term may sit under one condition of the position and the counters (the padding test),
//     which the plan evaluates once per position and term into a flag: a term whose flag is false
//     is skipped as the per-thread entry skips it (never added as a zero).
//
// A block (ConvTiles) computes tileRows channels x tileCols positions, each thread 8 x 4 of them
// in registers; per chunk of 16 terms it stages the counters' values, the position operands and
// flags, then the channel operands (only for terms some position of the block reads), in shared
// memory. An operand whose index is a sum of a part of the position (or channel) and a part of
// the counters, the parts joined by +, - and products with values of the parameters in signed
// arithmetic (the input's ((n * C + c) * H + y) * W + xx, the filter's ((k * C + c) * R + r) * S +
// s), is gathered at a base per position (or channel), computed once per tile, plus an offset per
// term, computed once per chunk, both in 64 bits: no division per gathered element. Two chunks are
// in flight: each thread loads its elements of the next chunk's position operands, then (after a
// barrier, for the terms some position runs) of its channel operands into registers before the
// current chunk's products and stages them after. Every output then runs the loop body
// on the staged values, term by term in source order: the per-thread entry's bits. A launch whose channels per image
// are not positive runs the body per output as written (the per-thread entry's code). A part of a
// launch, the rows nk of [culift_first, the extent), takes the positions of the images its rows
// meet (and, for one image whose channel is nk itself, the channel tiles from culift_first's on);
// the outputs before culift_first are not stored.
#include <algorithm>
#include <array>
#include <cmath>
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

constexpr unsigned kTermStep = 16;  // terms per staged chunk
// A thread's outputs: channels x positions. Tiles of 64 channels or more: tileRows / 16 channels x
// 8 positions, 16 x 16 threads of 128 positions (a term's loads: two 16-byte loads of positions, one
// or two of channels); smaller tiles 8 x 4.
struct ThreadTile {
  unsigned rows, cols;
};
ThreadTile threadTile(unsigned tileRows) { return tileRows >= 64 ? ThreadTile{tileRows / 16, 8} : ThreadTile{8, 4}; }
// The 64-channel entry also holds tiles of 96 channels (6 x 8 a thread, the same 256 threads), which
// it takes where the channels per image fill 96s no worse than 64s (96 channels: one tile instead of
// a tile of 64 and a half-idle one of 32).
constexpr unsigned kNarrowRows = 64, kWideRows = 96;
// The most channels a tile of an entry of `rows` channels takes (its stages' size).
unsigned widestRows(unsigned rows) { return rows == kNarrowRows ? kWideRows : rows; }
constexpr unsigned kMaxOperands = 4;
constexpr std::size_t kStaticShared = 48 * 1024;  // the static shared memory a block may take
constexpr unsigned kMaxLive = 2;
// Elements a channel operand's staged rows carry beyond the tile's channels: the gather stores the
// 16 terms of a channel (a column of the stage) from consecutive threads, which a row of 64 or 32
// elements would put in one bank; 4 more keep each row 16-byte aligned and the column's stores
// two to a bank at most.
constexpr unsigned kChannelPad = 4;
// Counter tables (and culift_any / culift_all marks) of four chunks: the one in the stages
// (culift_cur), the one being gathered (culift_nxt), the one after it (culift_aft), whose terms
// are marked a chunk ahead of its gather, so that its channel operands' loads need no barrier of
// their own after the position gather, and the one the first threads fill meanwhile (culift_fil:
// the slot of the chunk before the current one, which no thread reads any more).
constexpr unsigned kTables = 4;

struct ConvOperand {
  VarId array = kNone;
  const Expr* index = nullptr;
  std::vector<const Expr*> reads;
  bool position = false;  // indexed by the position (else by the channel)
  bool bare = false;      // its index names the first index itself
  Scalar element = Scalar::F32;
};

struct Conv {
  std::vector<const Stmt*> loops;  // outermost first, perfectly nested
  std::vector<VarId> counters;
  std::vector<const Expr*> lower, upper;
  std::vector<bool> inclusive;
  std::vector<const Stmt*> prologue, epilogue, inner;  // inner: the innermost body, groups flattened
  const Stmt* body = nullptr;                          // the innermost loop's body
  const Expr* predicate = nullptr;                     // the condition every term sits under
  VarId divisor = kNone;                               // K of nk / K and nk % K
  std::vector<ConvOperand> operands;
  std::map<VarId, const Expr*> fixed;  // locals set once from a pure expression, in order below
  std::vector<VarId> fixedOrder;
  // The term a false condition skips may run on zeros for its position operands instead, where its
  // channel operands' values are finite (ConvAnalyzer::checkZeroes).
  bool zeroes = false;
};

// The statements of a block, declaration groups flattened.
std::vector<const Stmt*> flatten(const Stmt& s) {
  std::vector<const Stmt*> out;
  if (s.kind != StmtKind::Block) return {&s};
  for (const StmtPtr& c : s.stmts) {
    if (c->kind == StmtKind::Block && !c->scoped)
      for (const StmtPtr& d : c->stmts) out.push_back(d.get());
    else out.push_back(c.get());
  }
  return out;
}

// What an index (or the predicate) depends on, locals set once seen through.
enum Use : unsigned {
  kBare = 1,      // the first index itself
  kImage = 2,     // first index / divisor
  kChannel = 4,   // first index % divisor
  kPosition = 8,  // the second or third index
  kBad = 16,      // an array element, an assignment, a local that changes, another divisor
};

class ConvAnalyzer {
 public:
  explicit ConvAnalyzer(const Function& fn) : fn_(fn), assigned_(assignedVars(*fn.body)) {
    for (unsigned a = 0; a < 3 && a < fn.indexParams.size(); ++a) axes_[a] = static_cast<VarId>(fn.indexParams[a]);
  }

  // The convolution, or nothing: `concerns` says whether the body is a nest of loops at all.
  std::optional<Conv> run(bool& concerns, std::string& reason);

 private:
  bool findNest(std::string& reason);
  bool checkVars(std::string& reason);
  void collectFixed();
  bool checkHeader(const Stmt& loop, std::string& reason);
  bool checkInner(std::string& reason);
  bool termStatements(const Stmt& s, std::string& reason);
  void checkZeroes(const Stmt& guarded);
  const ConvOperand* operandOf(const Expr& read) const;
  bool addRead(const Expr& e, std::string& reason);
  unsigned uses(const Expr& e, unsigned depth = 0);
  bool pure(const Expr& e);
  const std::string& varName(VarId v) const { return fn_.vars[v].name; }

  const Function& fn_;
  VarId axes_[3] = {kNone, kNone, kNone};
  const std::set<VarId> assigned_;
  std::set<VarId> counters_;
  Conv c_;
};

unsigned ConvAnalyzer::uses(const Expr& e, unsigned depth) {
  if (depth > 128) return kBad;
  const Expr& s = stripCasts(e);
  switch (s.kind) {
    case ExprKind::VarRef: {
      if (s.var == axes_[0]) return kBare;
      if (s.var == axes_[1] || s.var == axes_[2]) return kPosition;
      if (counters_.count(s.var)) return 0;
      if (auto it = c_.fixed.find(s.var); it != c_.fixed.end()) return uses(*it->second, depth + 1);
      if (s.var < fn_.numParams && !assigned_.count(s.var) && fn_.vars[s.var].type.isValue()) return 0;
      return kBad;
    }
    case ExprKind::Binary:
      if ((s.binaryOp == BinaryOp::Div || s.binaryOp == BinaryOp::Rem) &&
          stripCasts(*s.operands[0]).kind == ExprKind::VarRef && stripCasts(*s.operands[0]).var == axes_[0]) {
        const Expr& d = stripCasts(*s.operands[1]);
        if (d.kind != ExprKind::VarRef || d.var >= fn_.numParams || assigned_.count(d.var) ||
            !fn_.vars[d.var].type.isValue() || !isInteger(fn_.vars[d.var].type.scalar) ||
            (c_.divisor != kNone && c_.divisor != d.var))
          return kBad;
        c_.divisor = d.var;
        return s.binaryOp == BinaryOp::Div ? kImage : kChannel;
      }
      break;
    case ExprKind::Subscript:
    case ExprKind::Assign:
    case ExprKind::CompoundAssign:
    case ExprKind::IncDec:
    case ExprKind::Call: return kBad;
    default: break;
  }
  unsigned u = 0;
  for (const ExprPtr& o : s.operands)
    if (o) u |= uses(*o, depth + 1);
  return u;
}

bool ConvAnalyzer::pure(const Expr& e) { return !(uses(e) & kBad); }

// The one loop nest at the top level of the body, perfectly nested, at least two deep.
bool ConvAnalyzer::findNest(std::string& reason) {
  const std::vector<const Stmt*> top = flatten(*fn_.body);
  unsigned loops = 0;
  forEachStmt(*fn_.body, [&](const Stmt& s) { loops += isLoop(s) ? 1 : 0; });
  size_t at = top.size();
  for (size_t k = 0; k < top.size(); ++k)
    if (top[k]->kind == StmtKind::For) at = k;
  if (at == top.size()) return false;
  const Stmt* s = top[at];
  while (s && s->kind == StmtKind::For) {
    c_.loops.push_back(s);
    const Stmt* body = s->body.get();
    while (body && body->kind == StmtKind::Block && body->stmts.size() == 1 && body->stmts[0]->kind != StmtKind::Decl)
      body = body->stmts[0].get();
    s = body;
  }
  if (c_.loops.size() < 2) return false;  // one counted loop: the shared analysis's
  if (loops != c_.loops.size()) {
    reason = "the loops are not one perfect nest (" + std::to_string(loops) + " loops, " +
             std::to_string(c_.loops.size()) + " nested)";
    return false;
  }
  c_.prologue.assign(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(at));
  c_.epilogue.assign(top.begin() + static_cast<std::ptrdiff_t>(at) + 1, top.end());
  c_.body = s;
  c_.inner = flatten(*s);
  return true;
}

// No local array, no parameter assigned, no return before the loops; the locals set once.
bool ConvAnalyzer::checkVars(std::string& reason) {
  for (VarId v = 0; v < fn_.vars.size(); ++v) {
    if (fn_.vars[v].type.isArray()) {
      reason = "the local array " + varName(v) + " would be needed per output";
      return false;
    }
    bool written = false;
    forEachExpr(*fn_.body, [&](const Expr& e) {
      const Expr* t = assignmentTarget(e);
      written = written || (t && t->kind == ExprKind::Subscript && !t->operands.empty() &&
                            t->operands[0]->kind == ExprKind::VarRef && t->operands[0]->var == v);
    });
    if (v < fn_.numParams && written) {
      reason = "the kernel writes the array " + varName(v);
      return false;
    }
    if (v < fn_.numParams && assigned_.count(v)) {
      reason = "the parameter " + varName(v) + " is assigned";
      return false;
    }
  }
  for (const Stmt* s : c_.prologue) {
    bool returns = false;
    forEachStmt(*s, [&](const Stmt& x) { returns = returns || x.kind == StmtKind::Return; });
    if (returns) {
      reason = "the statements before the loops may return";
      return false;
    }
  }
  return true;
}

// The locals set once from an expression of the indices, counters and parameters (after the
// counters are known): indices see through them.
void ConvAnalyzer::collectFixed() {
  std::vector<const Stmt*> decls = c_.prologue;
  decls.insert(decls.end(), c_.inner.begin(), c_.inner.end());
  for (const Stmt* s : decls)
    if (s->kind == StmtKind::Decl && s->expr && !assigned_.count(s->var) && fn_.vars[s->var].type.isValue() &&
        pure(*s->expr)) {
      c_.fixed[s->var] = s->expr.get();
      c_.fixedOrder.push_back(s->var);
    }
}

// for (T v = lo; v < hi; ++v), lo and hi of the parameters alone.
bool ConvAnalyzer::checkHeader(const Stmt& loop, std::string& reason) {
  const Stmt* init = loop.init.get();
  if (init && init->kind == StmtKind::Block && !init->scoped && init->stmts.size() == 1) init = init->stmts[0].get();
  if (!init || init->kind != StmtKind::Decl || !init->expr || !fn_.vars[init->var].type.isValue() ||
      !isInteger(fn_.vars[init->var].type.scalar) || !isSigned(fn_.vars[init->var].type.scalar)) {
    reason = "a loop does not declare a signed integer counter (for (int c = lo; c < hi; ++c))";
    return false;
  }
  const VarId v = init->var;
  const Expr* cond = loop.cond.get();
  const Expr* step = loop.expr.get();
  const bool unitStep = step && step->kind == ExprKind::IncDec &&
                        (step->incDecOp == IncDecOp::PreInc || step->incDecOp == IncDecOp::PostInc) &&
                        stripCasts(*step->operands[0]).kind == ExprKind::VarRef &&
                        stripCasts(*step->operands[0]).var == v;
  if (!cond || cond->kind != ExprKind::Binary || (cond->binaryOp != BinaryOp::Lt && cond->binaryOp != BinaryOp::Le) ||
      stripCasts(*cond->operands[0]).kind != ExprKind::VarRef || stripCasts(*cond->operands[0]).var != v || !unitStep ||
      !isSigned(cond->operands[0]->type.scalar)) {
    reason = "the loop over " + varName(v) + " is not for (int " + varName(v) + " = lo; " + varName(v) + " < hi; ++" +
             varName(v) + ")";
    return false;
  }
  for (const Expr* bound : {init->expr.get(), cond->operands[1].get()})
    if (uses(*bound) != 0) {
      reason = "the bounds of the loop over " + varName(v) + " depend on more than the parameters";
      return false;
    }
  counters_.insert(v);
  c_.counters.push_back(v);
  c_.lower.push_back(init->expr.get());
  c_.upper.push_back(cond->operands[1].get());
  c_.inclusive.push_back(cond->binaryOp == BinaryOp::Le);
  return true;
}

// A read of the innermost body: a channel or a position operand.
bool ConvAnalyzer::addRead(const Expr& e, std::string& reason) {
  const VarId array = e.operands[0]->var;
  const Expr& index = *e.operands[1];
  if (fn_.vars[array].type.isPointer() && !fn_.vars[array].type.constElements) {
    reason = varName(array) + " is not a const array";
    return false;
  }
  const unsigned u = uses(index);
  const bool position = !(u & (kBad | kBare | kChannel));
  const bool channel = !(u & (kBad | kPosition | kImage));
  if (!position && !channel) {
    reason = u & kBad ? "the index of " + varName(array) + " depends on what changes"
                      : "the index of " + varName(array) + " depends on both the channel (" + varName(axes_[0]) +
                            ") and the position (" + varName(axes_[1]) + ", " + varName(axes_[2]) + ")";
    return false;
  }
  for (ConvOperand& o : c_.operands)
    if (o.array == array && SwapCompare{kNone, kNone, {}}.expr(*o.index, index)) {
      o.reads.push_back(&e);
      return true;
    }
  ConvOperand o;
  o.array = array;
  o.index = &index;
  o.reads.push_back(&e);
  // An index of the counters alone is the same for every channel: staged with the positions.
  o.position = position;
  o.bare = (u & kBare) != 0;
  o.element = fn_.vars[array].type.scalar;
  c_.operands.push_back(std::move(o));
  return true;
}

// Statements that run once per term as written: no branch, no loop, no way out, no array written;
// reads of array parameters anywhere but in a part of an expression that runs only sometimes.
bool ConvAnalyzer::termStatements(const Stmt& s, std::string& reason) {
  switch (s.kind) {
    case StmtKind::Block:
      for (const StmtPtr& c : s.stmts)
        if (!termStatements(*c, reason)) return false;
      return true;
    case StmtKind::Decl:
    case StmtKind::ExprStmt:
    case StmtKind::Null: break;
    default: reason = "the loop body branches or leaves (one condition around its terms is taken)"; return false;
  }
  bool ok = true;
  std::function<void(const Expr&, bool)> walk = [&](const Expr& e, bool sometimes) {
    if (!ok) return;
    if (const Expr* t = assignmentTarget(e)) {
      const Expr& target = stripCasts(*t);
      if (target.kind != ExprKind::VarRef || target.var < fn_.numParams || counters_.count(target.var)) {
        reason = "the loop body writes an array, a parameter or a counter";
        ok = false;
        return;
      }
    }
    if (e.kind == ExprKind::Call)
      for (const ExprPtr& o : e.operands)
        if (o && o->type.isPointer()) {
          reason = "a call in the loop takes an array";
          ok = false;
          return;
        }
    if (e.kind == ExprKind::Subscript && e.operands.size() == 2 && e.operands[0]->kind == ExprKind::VarRef &&
        e.operands[0]->var < fn_.numParams) {
      if (sometimes) {
        reason = varName(e.operands[0]->var) + " is read under a condition inside the term";
        ok = false;
      } else ok = addRead(e, reason);
      return;
    }
    for (size_t k = 0; k < e.operands.size(); ++k)
      if (e.operands[k])
        walk(*e.operands[k], sometimes || (e.kind == ExprKind::Conditional && k > 0) ||
                                 (e.kind == ExprKind::Binary && isLogical(e.binaryOp) && k > 0));
  };
  for (const Expr* e : {s.expr.get()})
    if (e) walk(*e, false);
  return ok;
}

// The innermost body: declarations, then its terms, all under one condition or none.
bool ConvAnalyzer::checkInner(std::string& reason) {
  size_t decls = 0;
  while (decls < c_.inner.size() && c_.inner[decls]->kind == StmtKind::Decl) ++decls;
  const bool guarded = decls + 1 == c_.inner.size() && c_.inner[decls]->kind == StmtKind::If &&
                       !c_.inner[decls]->otherwise;
  if (guarded) {
    for (size_t k = 0; k < decls; ++k)
      if (!c_.fixed.count(c_.inner[k]->var)) {
        reason = "the declaration of " + varName(c_.inner[k]->var) + " before the condition is not of the indices";
        return false;
      }
    const Expr& cond = *c_.inner[decls]->cond;
    const unsigned u = uses(cond);
    if (u & (kBad | kBare | kChannel)) {
      reason = "the condition around the terms depends on the channel or on what changes";
      return false;
    }
    c_.predicate = &cond;
    if (!termStatements(*c_.inner[decls]->then, reason)) return false;
    checkZeroes(*c_.inner[decls]->then);
  } else {
    for (const Stmt* s : c_.inner)
      if (!termStatements(*s, reason)) return false;
  }
  const bool anyPosition = std::any_of(c_.operands.begin(), c_.operands.end(), [](auto& o) { return o.position; });
  const bool anyChannel = std::any_of(c_.operands.begin(), c_.operands.end(), [](auto& o) { return !o.position; });
  if (!anyPosition || !anyChannel) {
    reason = "no array read in the loops is indexed by the position (" + varName(axes_[1]) + ", " + varName(axes_[2]) +
             ") and another by the channel (" + varName(axes_[0]) + ")";
    return false;
  }
  // With the images found through nk / K, a channel operand reads nk only as nk % K: the entries
  // gather it once for every image.
  for (const ConvOperand& o : c_.operands)
    if (o.bare && c_.divisor != kNone) {
      reason = "the index of " + varName(o.array) + " depends on " + varName(axes_[0]) + " itself, not through " +
               varName(axes_[0]) + " % " + varName(c_.divisor);
      return false;
    }
  if (c_.operands.size() > kMaxOperands) {
    reason = std::to_string(c_.operands.size()) + " staged arrays do not fit shared memory";
    return false;
  }
  return true;
}

// The operand whose reads hold `read`, or none.
const ConvOperand* ConvAnalyzer::operandOf(const Expr& read) const {
  for (const ConvOperand& o : c_.operands)
    if (std::find(o.reads.begin(), o.reads.end(), &read) != o.reads.end()) return &o;
  return nullptr;
}

// Whether the guarded term is `acc += p * w` (or `acc -= ...`, `acc = acc + ...`, the factors in
// either order, converted to a floating type that holds their values), p a read of a position
// operand and w one of a channel operand, and acc a floating local that the statements before the
// loops set to +0 and that nothing but the term changes. Then the term on p = 0 leaves the bits of
// acc wherever w's value is finite: 0 * w is +0 or -0, acc starts at +0 and, rounding to nearest, a
// sum or fused multiply-add whose value is exactly zero is +0, so acc is never -0, and x + 0 and
// x - 0 are x for every other x (a NaN acc stays the device's one NaN). So a chunk whose staged
// channel values are all finite runs every term with no flag (conv.zeroes; the entries check the
// values per chunk). Flushing subnormal results to zero (MathMode::Fast) could make acc -0: that
// mode gives no bit guarantee.
void ConvAnalyzer::checkZeroes(const Stmt& guarded) {
  const Stmt* t = &guarded;
  while (t->kind == StmtKind::Block && t->stmts.size() == 1) t = t->stmts[0].get();
  if (t->kind != StmtKind::ExprStmt || !t->expr) return;
  const Expr& e = *t->expr;
  // Conversions that keep every value of the operand, to a floating type.
  auto exact = [&](const Expr& x) -> const Expr& {
    const Expr* p = &x;
    while (p->kind == ExprKind::Cast && !p->operands.empty() && p->type.isValue() && isFloating(p->type.scalar)) {
      const Type& from = p->operands[0]->type;
      if (!from.isValue() || !(isInteger(from.scalar) || byteSize(from.scalar) <= byteSize(p->type.scalar))) break;
      p = p->operands[0].get();
    }
    return *p;
  };
  const Expr* target = nullptr;
  const Expr* product = nullptr;
  if (e.kind == ExprKind::CompoundAssign && (e.binaryOp == BinaryOp::Add || e.binaryOp == BinaryOp::Sub) &&
      isFloating(e.computeType)) {
    target = e.operands[0].get();
    product = e.operands[1].get();
  } else if (e.kind == ExprKind::Assign && e.operands[1]->kind == ExprKind::Binary &&
             (e.operands[1]->binaryOp == BinaryOp::Add || e.operands[1]->binaryOp == BinaryOp::Sub) &&
             isFloating(e.operands[1]->type.scalar)) {
    target = e.operands[0].get();
    const Expr& sum = *e.operands[1];
    for (unsigned k = 0; k < 2 && !product; ++k) {
      const Expr& a = exact(*sum.operands[k]);
      if (a.kind == ExprKind::VarRef && a.var == target->var && (k == 0 || sum.binaryOp == BinaryOp::Add))
        product = sum.operands[1 - k].get();
    }
  }
  if (!target || !product || target->kind != ExprKind::VarRef || !fn_.vars[target->var].type.isValue() ||
      !isFloating(fn_.vars[target->var].type.scalar))
    return;
  const VarId acc = target->var;
  const Expr& mul = exact(*product);
  if (mul.kind != ExprKind::Binary || mul.binaryOp != BinaryOp::Mul || !isFloating(mul.type.scalar)) return;
  const ConvOperand* a = operandOf(exact(*mul.operands[0]));
  const ConvOperand* b = operandOf(exact(*mul.operands[1]));
  if (!a || !b || a->position == b->position) return;
  // acc: declared before the loops as +0, and set nowhere else.
  bool zero = false;
  for (const Stmt* s : c_.prologue) {
    if (s->kind == StmtKind::Decl && s->var == acc && s->expr) {
      const Expr& init = exact(*s->expr);
      zero = (init.kind == ExprKind::FloatLiteral && init.floatValue == 0 && !std::signbit(init.floatValue)) ||
             (init.kind == ExprKind::IntLiteral && init.intBits == 0);
    } else if (s->kind != StmtKind::Decl) {
      return;
    }
  }
  unsigned writes = 0;
  forEachExpr(*fn_.body, [&](const Expr& x) {
    if (const Expr* w = assignmentTarget(x); w && w->kind == ExprKind::VarRef && w->var == acc) ++writes;
  });
  c_.zeroes = zero && writes == 1;
}

std::optional<Conv> ConvAnalyzer::run(bool& concerns, std::string& reason) {
  concerns = false;
  if (fn_.mode != IndexMode::Grid3D || fn_.indexParams.size() != 3 || fn_.returnType.isVoid()) return std::nullopt;
  if (!findNest(reason)) {
    concerns = !reason.empty();
    return std::nullopt;
  }
  concerns = true;
  if (!checkVars(reason)) return std::nullopt;
  for (const Stmt* loop : c_.loops)
    if (!checkHeader(*loop, reason)) return std::nullopt;
  collectFixed();
  if (!checkInner(reason)) return std::nullopt;
  return std::move(c_);
}

std::optional<Conv> analyzeConvolution(const Function& fn, bool& concerns, std::string& reason) {
  ConvAnalyzer a(fn);
  return a.run(concerns, reason);
}

// The loop body's rewrites: the staged reads and the predicate by their staged values, the inner
// declarations nothing else uses dropped; and the locals of the statements before the loops that
// the body (so rewritten) or the statements after the loops still use: registers per output.
struct TermRewrites {
  PrintRewrites step;
  std::vector<VarId> live;
};

TermRewrites termRewrites(const Conv& c) {
  TermRewrites t;
  for (size_t p = 0; p < c.operands.size(); ++p)
    for (const Expr* read : c.operands[p].reads)
      t.step.exprs[read] = "culift_v" + str(p) + (c.operands[p].position ? "[culift_n]" : "[culift_m]");
  if (c.predicate) t.step.exprs[c.predicate] = "culift_fv[culift_n]";
  // From the last declaration back: one is dropped when no statement after it still names it.
  for (size_t k = c.inner.size(); k-- > 0;) {
    const Stmt* d = c.inner[k];
    if (d->kind != StmtKind::Decl || !c.fixed.count(d->var)) continue;
    bool used = false;
    for (size_t l = k + 1; l < c.inner.size(); ++l) {
      const Stmt* later = c.inner[l];
      if (later->kind == StmtKind::Decl && t.step.dropped.count(later->var)) continue;
      used = used || mentions(*later, d->var, t.step);
    }
    if (!used) t.step.dropped.insert(d->var);
  }
  for (const Stmt* s : c.prologue) {
    if (s->kind != StmtKind::Decl) continue;
    bool used = false;
    for (const Stmt* in : c.inner)
      if (!(in->kind == StmtKind::Decl && t.step.dropped.count(in->var))) used = used || mentions(*in, s->var, t.step);
    for (const Stmt* e : c.epilogue) used = used || mentions(*e, s->var, t.step);
    if (used) t.live.push_back(s->var);
  }
  return t;
}

// Shared memory of a tile of `rows` channels and `cols` positions with `stages` stages, in bytes.
std::size_t sharedBytes(const Conv& c, unsigned rows, unsigned cols, unsigned stages) {
  // flags, the counters', culift_any's and culift_all's tables of kTables chunks, the counters' step
  std::size_t bytes = stages * kTermStep * cols + kTables * kTermStep * 4 * (c.counters.size() + 2) +
                      8 * c.counters.size();
  for (const ConvOperand& o : c.operands) {
    bytes += stages * kTermStep * (o.position ? cols : rows + kChannelPad) * byteSize(o.element);
    bytes += 8 * ((o.position ? cols : rows) + kTables * kTermStep);  // a separable gather's bases and offsets
  }
  return bytes;
}

plans::Decision decide(const Function& f, const KernelAnalysis&) {
  bool concerns = false;
  std::string reason;
  std::optional<Conv> conv = analyzeConvolution(f, concerns, reason);
  if (!conv) return concerns ? plans::Decision::no(reason) : plans::Decision::skip();
  const TermRewrites t = termRewrites(*conv);
  if (t.live.size() > kMaxLive)
    return plans::Decision::no(std::to_string(t.live.size()) +
                               " values live across the loops do not fit a register tile");
  std::vector<PlanEntry> entries;
  for (unsigned rows : {64u, 32u}) {
    const unsigned cols = rows * 2;
    if (sharedBytes(*conv, widestRows(rows), cols, 1) <= kStaticShared)
      entries.push_back(plans::makeEntry(f, "_conv" + str(rows) + "x" + str(cols), LoopPlan::Convolution, rows, cols,
                                         rows * cols / (threadTile(rows).rows * threadTile(rows).cols), false));
  }
  if (entries.empty()) return plans::Decision::no("the staged arrays do not fit shared memory");
  return plans::Decision::yes(std::move(entries));
}

// ---- the entries ---------------------------------------------------------------------------------

class ConvWriter : EntryWriter {
 public:
  ConvWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out)
      : EntryWriter(module, fn, out, false),
        e_(e),
        tk_(e.tileRows),
        tp_(e.tileCols),
        rowsPerThread_(threadTile(tk_).rows),
        colsPerThread_(threadTile(tk_).cols),
        wide_(tk_ == kNarrowRows && tp_ == 128 &&
              e.threads == kWideRows * tp_ / (threadTile(kWideRows).rows * threadTile(kWideRows).cols)) {
    bool concerns = false;
    std::string reason;
    std::optional<Conv> c = analyzeConvolution(fn, concerns, reason);
    if (!c) throw std::logic_error("convolution plan of " + fn.name + " does not hold: " + reason);
    c_ = std::move(*c);
    TermRewrites t = termRewrites(c_);
    step_ = std::move(t.step);
    live_ = std::move(t.live);
    for (VarId v : c_.fixedOrder) inline_.vars[v] = "(" + printWith(inline_, *c_.fixed.at(v)) + ")";
    for (const ConvOperand& o : c_.operands) separable_.push_back(separable(*o.index));
    stages_ = sharedBytes(c_, wide_ ? widestRows(tk_) : tk_, tp_, 2) <= kStaticShared ? 2 : 1;
    // Every gathered element of a thread is at one position (threadIdx.x % tp_), and each thread
    // gathers as many elements of every chunk.
    if (e.threads % tp_ != 0 || kTermStep * tp_ % e.threads != 0 || kTermStep * tk_ % e.threads != 0 ||
        kTermStep * tp_ / e.threads > 32)
      throw std::logic_error("convolution entry " + e.kernelName + ": " + str(e.threads) +
                             " threads do not divide its tiles");
  }

  void write();

 private:
  bool names(const Expr& e, VarId v) const;
  std::vector<const Stmt*> termStatements() const;
  std::vector<VarId> axesUsed(const std::vector<const Stmt*>& stmts, const PrintRewrites& r) const;
  // `value`: the indices' values, by default the output's (culift_nk and the position table's).
  void declareAxes(const std::vector<VarId>& which,
                   const std::array<std::string, 3>& value = {"culift_nk", "culift_poh[culift_pp]",
                                                              "culift_pow[culift_pp]"});
  void gatherPosition();
  void bounds();
  void perThread();
  void sharedTiles();
  void registers();
  // The loops over this thread's outputs (culift_m, culift_n); inner closes before outer.
  struct PerOutput {
    CodeWriter::Scope outer, inner;
  };
  PerOutput perOutput(const std::string& what, const std::vector<VarId>& axes, bool guard);
  void outputIndices(const std::vector<VarId>& axes, bool guard);
  void counterTable(const std::string& buffer, const std::string& q0, bool advance = false);
  void positionTable();
  std::string gatheredTerm() const;
  void gatheredValues(const std::function<bool(VarId)>& used, const std::string& table);
  void markPositions(const std::string& q0, const std::string& table);
  void gatherPositions(const std::string& table);
  void stagePositions(const std::string& stage);
  bool gatherUses(VarId v, bool position) const;
  void gatherChannels(const std::string& table);
  void stageChannels(const std::string& stage);
  std::string stagedBarrier() const;
  // A thread's elements of a chunk's channel operands.
  unsigned channelsGathered() const { return kTermStep * tk_ / e_.threads; }
  // A thread's elements of a chunk's position operands.
  unsigned gathered() const { return kTermStep * tp_ / e_.threads; }
  void counters(const std::function<bool(VarId)>& used, const std::string& table);
  bool separable(const Expr& index) const;
  std::string index64(const Expr& index, const std::map<VarId, std::string>& values);
  std::map<VarId, std::string> termValues(const std::string& nk, const std::string& oh, const std::string& ow,
                                          const std::optional<std::string>& table) const;
  std::string bases(size_t p) const { return "culift_b" + str(p); }
  // A separable position operand's element at this thread's gather position and the first term.
  std::string gatherBase(size_t p) const { return "culift_gx" + str(p); }
  std::string predicateText();
  std::string offsets(size_t p) const { return "culift_d" + str(p); }
  // `all`: the term runs for every output the block stores (culift_all), so no flag is read.
  void termStep(bool all);
  void chunk();
  void chunks();
  std::string tileName(size_t p) const { return "culift_s" + str(p); }
  // Two blocks of 256 threads a multiprocessor (__launch_bounds__' second argument: at most 128
  // registers a thread), where the sums and staged values are 4 bytes or narrower: ptxas would
  // schedule the terms' loads ahead into more registers, and one block leaves the gathers' latency
  // bare. Wider values (double sums) need more than 128 registers.
  bool twoBlocks() const {
    if (e_.threads < 256) return false;
    for (const ConvOperand& o : c_.operands)
      if (byteSize(o.element) > 4) return false;
    for (VarId v : live_)
      if (!fn_.vars[v].type.isValue() || byteSize(fn_.vars[v].type.scalar) > 4) return false;
    return true;
  }
  std::string axisType(unsigned a) const { return typeOf(static_cast<VarId>(fn_.indexParams[a])); }
  VarId axis(unsigned a) const { return static_cast<VarId>(fn_.indexParams[a]); }
  std::string store(const std::string& index, const std::string& v) const {
    return params_.outName + "[" + index + "] = " + v + ";";
  }

  const PlanEntry& e_;
  unsigned tk_;                             // channels per block (of the tile loop being written)
  const unsigned tp_;                       // positions per block
  unsigned rowsPerThread_, colsPerThread_;  // channels and positions per thread
  const bool wide_;                         // the entry also holds tiles of kWideRows channels
  // Two stages where they fit (a chunk staged into one while the block's products read the other:
  // one barrier a chunk), else one (a barrier before the staging too).
  unsigned stages_ = 1;
  void setTile(unsigned rows) {
    tk_ = rows;
    rowsPerThread_ = threadTile(rows).rows;
    colsPerThread_ = threadTile(rows).cols;
  }
  void tileLoop();
  // The tile's position of this thread's output column n (of culift_tx): runs of 4 positions, the
  // first at culift_tx * 4 and each next one a run of the tile's threads on, so that the 16-byte
  // loads of a term's positions by a warp's 8 columns of threads fall in one shared-memory wavefront.
  std::string colOf(const std::string& n) const {
    if (colsPerThread_ <= 4) return "culift_tx * " + str(colsPerThread_) + " + " + n;
    return "((" + n + ") / 4 * " + str(tp_ / (colsPerThread_ / 4)) + " + culift_tx * 4 + (" + n + ") % 4)";
  }
  // The tile's channel of this thread's output row m (of culift_ty); 6 a thread: 4 at culift_ty * 4,
  // 2 in the last third at culift_ty * 2 (a 16-byte and an 8-byte load a term). Row 0 is the thread's
  // first channel.
  std::string rowOf(const std::string& m) const {
    if (rowsPerThread_ != 6) return "culift_ty * " + str(rowsPerThread_) + " + " + m;
    return "((" + m + ") < 4 ? culift_ty * 4 + (" + m + ") : " + str(tk_ / 6 * 4) + " + culift_ty * 2 + (" + m +
           ") - 4)";
  }
  Conv c_;
  PrintRewrites step_, inline_, perOut_;
  std::vector<VarId> live_;
  std::vector<bool> separable_;  // per operand: gathered at a base plus an offset
};

// Whether `e` names `v`, through the locals set once.
bool ConvWriter::names(const Expr& e, VarId v) const {
  bool found = false;
  std::function<void(const Expr&, unsigned)> walk = [&](const Expr& x, unsigned depth) {
    forEachExpr(x, [&](const Expr& y) {
      if (found || y.kind != ExprKind::VarRef) return;
      if (y.var == v) found = true;
      else if (auto it = c_.fixed.find(y.var); it != c_.fixed.end() && depth < 64) walk(*it->second, depth + 1);
    });
  };
  walk(e, 0);
  return found;
}

// Whether `index` is a part of the indices plus a part of the counters (see the header): every
// node that depends on both is a signed +, - or unary -, a product with a value of the
// parameters alone, or a widening between signed integers; a division divides by the parameters
// alone; the locals set once seen through.
bool ConvWriter::separable(const Expr& index) const {
  enum : unsigned { kIndices = 1, kCounters = 2, kOther = 4 };
  struct Part {
    unsigned deps = 0;
    bool ok = true;
  };
  std::function<Part(const Expr&, unsigned)> part = [&](const Expr& e, unsigned depth) -> Part {
    if (depth > 128) return {kOther, false};
    if (e.kind == ExprKind::VarRef) {
      for (unsigned a = 0; a < 3; ++a)
        if (e.var == axis(a)) return {kIndices, true};
      if (std::find(c_.counters.begin(), c_.counters.end(), e.var) != c_.counters.end()) return {kCounters, true};
      if (auto it = c_.fixed.find(e.var); it != c_.fixed.end()) return part(*it->second, depth + 1);
      return {e.var < fn_.numParams && fn_.vars[e.var].type.isValue() ? 0u : kOther, true};
    }
    if (e.kind == ExprKind::IntLiteral) return {0, true};
    // A division by anything but the parameters could divide by zero where the source does not
    // (the parts are evaluated at the first term and at index 0).
    if (e.kind == ExprKind::Binary && (e.binaryOp == BinaryOp::Div || e.binaryOp == BinaryOp::Rem) &&
        part(*e.operands[1], depth + 1).deps != 0)
      return {kOther, false};
    Part all;
    std::vector<Part> ops;
    for (const ExprPtr& o : e.operands) {
      if (!o) continue;
      ops.push_back(part(*o, depth + 1));
      all.deps |= ops.back().deps;
      all.ok = all.ok && ops.back().ok;
    }
    if (all.deps & kOther) return {all.deps, false};
    if ((all.deps & (kIndices | kCounters)) != (kIndices | kCounters)) return {all.deps, true};  // one part alone
    const bool signedInt = e.type.isValue() && isInteger(e.type.scalar) && isSigned(e.type.scalar);
    if (!signedInt || !all.ok) return {all.deps, false};
    if (e.kind == ExprKind::Unary && (e.unaryOp == UnaryOp::Neg || e.unaryOp == UnaryOp::Plus)) return all;
    if (e.kind == ExprKind::Cast) {
      const Expr& from = *e.operands[0];
      const bool widening = from.type.isValue() && isInteger(from.type.scalar) && isSigned(from.type.scalar) &&
                            byteSize(from.type.scalar) <= byteSize(e.type.scalar);
      return {all.deps, widening};
    }
    if (e.kind != ExprKind::Binary || ops.size() != 2) return {all.deps, false};
    if (e.binaryOp == BinaryOp::Add || e.binaryOp == BinaryOp::Sub) return all;
    if (e.binaryOp == BinaryOp::Mul) return {all.deps, ops[0].deps == 0 || ops[1].deps == 0};
    return {all.deps, false};
  };
  const Part p = part(index, 0);
  return p.ok && !(p.deps & kOther);
}

// `index` in 64-bit arithmetic, the indices and counters of `values` given as 64-bit values (the
// parameters' own subexpressions stay as the source computes them).
std::string ConvWriter::index64(const Expr& index, const std::map<VarId, std::string>& values) {
  PrintRewrites r;
  for (const auto& [v, text] : values) r.vars[v] = "((long long)(" + text + "))";
  for (VarId v : c_.fixedOrder) r.vars[v] = "(" + printWith(r, *c_.fixed.at(v)) + ")";
  return "(long long)(" + printWith(r, index) + ")";
}

// The launch's extents, the positions per image and the channels per image, each loop's start
// and trip count, and whether the tiles may run (else the body runs per output as written).
void ConvWriter::bounds() {
  out_.say("const long long culift_n0 = (long long)" + params_.extent[0] + ", culift_n1 = (long long)" +
           params_.extent[1] + ", culift_n2 = (long long)" + params_.extent[2] + ";");
  out_.say("const long long culift_plane = culift_n1 * culift_n2;  // positions per image");
  out_.say("const long long culift_kpi = " +
           (c_.divisor != kNone ? "(long long)" + name(c_.divisor) : std::string("culift_n0")) +
           ";  // channels per image");
  std::string terms = "1.0";
  for (size_t d = 0; d < c_.counters.size(); ++d) {
    const VarId v = c_.counters[d];
    const Stmt& loop = *c_.loops[d];
    const std::string ct(spelling(loop.cond->operands[0]->type.scalar));
    const std::string lo = "culift_lo" + str(d), hi = "culift_hi" + str(d), t = "culift_t" + str(d);
    out_.say("const " + typeOf(v) + " " + lo + " = " + printWith(inline_, *c_.lower[d]) + ";");
    out_.say("const " + ct + " " + hi + " = " + printWith(inline_, *c_.upper[d]) + ";");
    out_.say("const long long " + t + " = (" + ct + ")" + lo + (c_.inclusive[d] ? " <= " : " < ") + hi +
             " ? (long long)" + hi + " - (long long)(" + ct + ")" + lo + (c_.inclusive[d] ? " + 1" : "") +
             " : 0;  // iterations of the loop over " + name(v));
    terms += " * (double)" + t;
  }
  std::string product = "1";
  for (size_t d = 0; d < c_.counters.size(); ++d) product += " * culift_t" + str(d);
  out_.say("const bool culift_tiled = culift_kpi > 0 && " + terms + " < 4.0e18;");
  out_.say("const long long culift_terms = culift_tiled ? " + product + " : 0;  // (c, r, s) in source order");
}

// The body as written, one output per thread, for a launch the tiles do not take.
void ConvWriter::perThread() {
  CodeWriter::Scope fallback = out_.open("if (!culift_tiled)", "channels per image not positive: per output");
  out_.say("#pragma unroll 1");
  {
    CodeWriter::Scope each = out_.open(
        "for (long long culift_e = culift_first * culift_plane + ((long long)blockIdx.y * gridDim.x + blockIdx.x) * "
        "blockDim.x + threadIdx.x; culift_e < culift_n0 * culift_plane; culift_e += (long long)gridDim.x * gridDim.y * "
        "blockDim.x)");
    out_.say("const long long culift_pos = culift_e % culift_plane;");
    out_.say("const " + axisType(0) + " " + name(axis(0)) + " = (" + axisType(0) + ")(culift_e / culift_plane);");
    out_.say("const " + axisType(1) + " " + name(axis(1)) + " = (" + axisType(1) + ")(culift_pos / culift_n2);");
    out_.say("const " + axisType(2) + " " + name(axis(2)) + " = (" + axisType(2) + ")(culift_pos % culift_n2);");
    PrintRewrites r;
    r.returns = [this](const std::string& v) { return "{ " + store("culift_e", v) + " continue; }"; };
    printWith(r, *fn_.body);
  }
  out_.say("return;");
}

void ConvWriter::sharedTiles() {
  for (size_t p = 0; p < c_.operands.size(); ++p) {
    const ConvOperand& o = c_.operands[p];
    out_.say("__shared__ __align__(16) " + std::string(spelling(o.element)) + " " + tileName(p) + "[" + str(stages_) +
             "][" + str(kTermStep) + "][" + str(o.position ? tp_ : tk_ + kChannelPad) + "];  // " + name(o.array) +
             "[" + printer_.printExpression(*o.index) + "], by " + (o.position ? "position" : "channel"));
  }
  if (c_.predicate)
    out_.say("__shared__ __align__(16) unsigned char culift_f[" + str(stages_) + "][" + str(kTermStep) + "][" +
             str(tp_) + "];  // the term runs for this position");
  for (size_t d = 0; d < c_.counters.size(); ++d)
    out_.say("__shared__ " + typeOf(c_.counters[d]) + " culift_c" + str(d) + "[" + str(kTables) + "][" +
             str(kTermStep) + "];  // " + name(c_.counters[d]) + " of each term");
  for (size_t p = 0; p < c_.operands.size(); ++p)
    if (separable_[p])
      out_.say("__shared__ long long " + bases(p) + "[" + str(c_.operands[p].position ? tp_ : tk_) + "], " +
               offsets(p) + "[" + str(kTables) + "][" + str(kTermStep) + "];  // " + name(c_.operands[p].array) +
               "'s index: a base per " + (c_.operands[p].position ? "position" : "channel") +
               " (the first term's), plus an offset per term");
  out_.say("__shared__ int culift_any[" + str(kTables) + "][" + str(kTermStep) +
           "];  // some position of the block runs the term (the tables of three chunks: culift_cur, culift_nxt, "
           "culift_aft)");
  if (c_.predicate)
    out_.say("__shared__ int culift_all[" + str(kTables) + "][" + str(kTermStep) +
             "];  // every position of the block whose outputs it stores runs the term");
  out_.say("__shared__ long long culift_pimg[" + str(tp_) + "], culift_ppos[" + str(tp_) +
           "];  // the tile's positions: image (-1 beyond the launch), position in it");
  out_.say("__shared__ int culift_poh[" + str(tp_) + "], culift_pow[" + str(tp_) + "];");
}

void ConvWriter::registers() {
  perOut_ = PrintRewrites{};
  for (VarId v : live_) {
    const std::string reg = "culift_" + name(v) + "_" + str(v);
    out_.say(typeOf(v) + " " + reg + "[" + str(rowsPerThread_) + "][" + str(colsPerThread_) + "] = {};");
    perOut_.vars[v] = reg + "[culift_m][culift_n]";
    perOut_.hoisted.insert(v);
    step_.vars[v] = perOut_.vars[v];
  }
  // Locals of the statements before the loops used by neither the loops nor the statements after.
  for (const Stmt* s : c_.prologue) {
    if (s->kind != StmtKind::Decl || !c_.fixed.count(s->var) || perOut_.vars.count(s->var)) continue;
    bool used = false;
    for (const Stmt* t : c_.prologue) used = used || (t != s && mentions(*t, s->var, perOut_));
    if (!used) perOut_.dropped.insert(s->var);
  }
}

// The statements of the loop body the printed body still has (the dropped declarations not).
std::vector<const Stmt*> ConvWriter::termStatements() const {
  std::vector<const Stmt*> out;
  for (const Stmt* s : c_.inner)
    if (!(s->kind == StmtKind::Decl && step_.dropped.count(s->var))) out.push_back(s);
  return out;
}

// The indices that `stmts`, printed under `r`, name.
std::vector<VarId> ConvWriter::axesUsed(const std::vector<const Stmt*>& stmts, const PrintRewrites& r) const {
  std::vector<VarId> used;
  for (unsigned a = 0; a < 3; ++a)
    if (std::any_of(stmts.begin(), stmts.end(), [&](const Stmt* s) {
          return !(s->kind == StmtKind::Decl && r.dropped.count(s->var)) && mentions(*s, axis(a), r);
        }))
      used.push_back(axis(a));
  return used;
}

// Declares the indices (of `which`) of the output or element being handled: from culift_nk and
// the block's table of positions (culift_pp, the position in the tile).
void ConvWriter::declareAxes(const std::vector<VarId>& which, const std::array<std::string, 3>& value) {
  for (unsigned a = 0; a < 3; ++a)
    if (std::find(which.begin(), which.end(), axis(a)) != which.end())
      out_.say("const " + axisType(a) + " " + name(axis(a)) + " = (" + axisType(a) + ")(" + value[a] + ");");
}

// The indices of output (culift_m, culift_n) of this thread; with `guard`, outputs beyond the
// launch go on to the next.
void ConvWriter::outputIndices(const std::vector<VarId>& used, bool guard) {
  if (!guard && used.empty()) return;
  out_.say("const long long culift_k = culift_k0 + " + rowOf("culift_m") + ";");
  out_.say("const int culift_pp = " + colOf("culift_n") + ";");
  out_.say("const long long culift_img = culift_pimg[culift_pp], culift_pos = culift_ppos[culift_pp];");
  out_.say("const long long culift_nk = culift_img * culift_kpi + culift_k;");
  if (guard)
    out_.say(
        "if (culift_img < 0 || culift_k >= culift_kpi || culift_nk < culift_first || culift_nk >= culift_n0) continue;");
  declareAxes(used);
}

ConvWriter::PerOutput ConvWriter::perOutput(const std::string& what, const std::vector<VarId>& axes, bool guard) {
  out_.say("// " + what);
  out_.say("#pragma unroll");
  CodeWriter::Scope outer = out_.open("for (int culift_m = 0; culift_m < " + str(rowsPerThread_) + "; ++culift_m)");
  out_.say("#pragma unroll");
  CodeWriter::Scope inner = out_.open("for (int culift_n = 0; culift_n < " + str(colsPerThread_) + "; ++culift_n)");
  outputIndices(axes, guard);
  return {std::move(outer), std::move(inner)};
}

// The tile's positions, once per tile: no output or gathered element divides by the extents.
void ConvWriter::positionTable() {
  out_.say("__syncthreads();  // the last tile is done with the table");
  {
    CodeWriter::Scope each = out_.open("for (int culift_e = threadIdx.x; culift_e < " + str(tp_) +
                                       "; culift_e += " + str(e_.threads) + ")");
    out_.say("const long long culift_p = culift_p0 + culift_e;");
    out_.say("const long long culift_q = culift_p < culift_allpos ? culift_p / culift_plane : -1;");
    out_.say("const long long culift_img = culift_q < 0 ? -1 : culift_img0 + culift_q;");
    out_.say("const long long culift_pos = culift_q < 0 ? 0 : culift_p - culift_q * culift_plane;");
    out_.say("culift_pimg[culift_e] = culift_img;");
    out_.say("culift_ppos[culift_e] = culift_pos;");
    out_.say("culift_poh[culift_e] = (int)(culift_pos / culift_n2);");
    out_.say("culift_pow[culift_e] = (int)(culift_pos % culift_n2);");
    for (size_t p = 0; p < c_.operands.size(); ++p)
      if (separable_[p] && c_.operands[p].position)
        out_.say(bases(p) + "[culift_e] = culift_img < 0 ? 0 : " +
                 index64(*c_.operands[p].index, termValues("culift_img * culift_kpi", "culift_pos / culift_n2",
                                                           "culift_pos % culift_n2", std::nullopt)) +
                 ";");
  }
  for (size_t p = 0; p < c_.operands.size(); ++p) {
    if (!separable_[p] || c_.operands[p].position) continue;
    CodeWriter::Scope each = out_.open("for (int culift_e = threadIdx.x; culift_e < " + str(tk_) +
                                       "; culift_e += " + str(e_.threads) + ")");
    out_.say("const long long culift_nk = culift_k0 + culift_e;  // the channel, in the first image");
    out_.say(bases(p) + "[culift_e] = culift_nk < culift_kpi && culift_nk < culift_n0 ? " +
             index64(*c_.operands[p].index, termValues("culift_nk", "0", "0", std::nullopt)) + " : 0;");
  }
  out_.say("__syncthreads();");
}

// The values of the indices (nk, oh, ow) and of the counters for index64: this thread's entry of
// counter table `table`, or without one each loop's start (culift_lo0 ...).
std::map<VarId, std::string> ConvWriter::termValues(const std::string& nk, const std::string& oh, const std::string& ow,
                                                    const std::optional<std::string>& table) const {
  std::map<VarId, std::string> v = {{axis(0), nk}, {axis(1), oh}, {axis(2), ow}};
  for (size_t d = 0; d < c_.counters.size(); ++d)
    v[c_.counters[d]] = table ? "culift_c" + str(d) + "[" + *table + "][threadIdx.x]" : "culift_lo" + str(d);
  return v;
}

// The counters of the chunk of terms from `q0` in table `buffer`, by the first threads (and no
// position has run a term yet). With `advance`, the buffer holds the chunk kTables before (each
// slot the term kTables * kTermStep before its new one, where that one is a term): its counters plus
// the digits of kTables * kTermStep (culift_adv), carried, instead of a division per counter.
void ConvWriter::counterTable(const std::string& buffer, const std::string& q0, bool advance) {
  CodeWriter::Scope first = out_.open("if (threadIdx.x < " + str(kTermStep) + ")");
  out_.say("const long long culift_q = " + q0 + " + threadIdx.x;");
  {
    CodeWriter::Scope any = out_.open("if (culift_q < culift_terms)");
    if (advance) {
      out_.say("long long culift_v, culift_carry = 0;");
      for (size_t d = c_.counters.size(); d-- > 0;) {
        const std::string slot = "culift_c" + str(d) + "[" + buffer + "][threadIdx.x]";
        out_.say("culift_v = (long long)" + slot + " + culift_adv[" + str(d) + "] + culift_carry;");
        if (d > 0) {
          out_.say("culift_carry = culift_v >= (long long)culift_lo" + str(d) + " + culift_t" + str(d) + ";");
          out_.say("if (culift_carry) culift_v -= culift_t" + str(d) + ";");
        }
        out_.say(slot + " = (" + typeOf(c_.counters[d]) + ")culift_v;");
      }
    }
    // In 32 bits where every term's number fits (a 64-bit division costs many instructions).
    auto decompose = [&](const std::string& type) {
      out_.say(type + " culift_u = (" + type + ")culift_q;");
      for (size_t d = c_.counters.size(); d-- > 0;) {
        const std::string t = "(" + type + ")culift_t" + str(d);
        out_.say("culift_c" + str(d) + "[" + buffer + "][threadIdx.x] = (" + typeOf(c_.counters[d]) +
                 ")((long long)culift_lo" + str(d) + " + (long long)(culift_u % " + t + "));");
        if (d > 0) out_.say("culift_u /= " + t + ";");
      }
    };
    if (!advance) {
      CodeWriter::Scope narrow = out_.open("if (culift_terms <= 0xffffffffll)");
      decompose("unsigned");
      narrow.otherwise();
      decompose("long long");
    }
    for (size_t p = 0; p < c_.operands.size(); ++p)
      if (separable_[p])
        out_.say(offsets(p) + "[" + buffer +
                 "][threadIdx.x] = " + index64(*c_.operands[p].index, termValues("0", "0", "0", buffer)) + " - " +
                 index64(*c_.operands[p].index, termValues("0", "0", "0", std::nullopt)) + ";");
  }
  out_.say("culift_any[" + buffer + "][threadIdx.x] = 0;");
  if (c_.predicate) out_.say("culift_all[" + buffer + "][threadIdx.x] = 1;");
}

// The counters of term culift_qq from table `table`, those `used` says are needed.
void ConvWriter::counters(const std::function<bool(VarId)>& used, const std::string& table) {
  for (size_t d = 0; d < c_.counters.size(); ++d)
    if (used(c_.counters[d]))
      out_.say("const " + typeOf(c_.counters[d]) + " " + name(c_.counters[d]) + " = culift_c" + str(d) + "[" + table +
               "][culift_qq];");
}

// This thread's position in every gather of the tile's chunks: the block's threads are a multiple
// of its positions, so element culift_e = threadIdx.x + u * threads is always at position
// threadIdx.x % positions; and whether the block stores outputs of it, once per tile.
void ConvWriter::gatherPosition() {
  out_.say("const int culift_gpp = threadIdx.x % " + str(tp_) + ";  // this thread's position in every gather");
  // Its image, indices and separable operands' first elements in registers for the tile's chunks
  // (read from the tables after each barrier, the device compiler reloaded them for every element).
  out_.say("const long long culift_gimg = culift_pimg[culift_gpp];");
  out_.say("const int culift_goh = culift_poh[culift_gpp], culift_gow = culift_pow[culift_gpp];");
  for (size_t p = 0; p < c_.operands.size(); ++p)
    if (separable_[p] && c_.operands[p].position)
      out_.say("const " + std::string(spelling(c_.operands[p].element)) + "* const " + gatherBase(p) + " = " +
               name(c_.operands[p].array) + " + " + bases(p) + "[culift_gpp];");
  out_.say(
      "const bool culift_gsome = culift_gimg >= 0 && culift_gimg * culift_kpi + culift_k0 < culift_n0;  // the block "
      "stores outputs of the position");
}

// The predicate as the flags evaluate it: a chain of `&&` whose terms are safe to evaluate whatever
// the others give (no division, remainder or shift, no call or array read, through the locals set
// once) joined by `&`, so that the device compiler sets a flag without a branch per term (the same
// value: the terms have no side effects); otherwise as written.
std::string ConvWriter::predicateText() {
  std::vector<const Expr*> terms;
  std::function<void(const Expr&)> split = [&](const Expr& e) {
    if (e.kind == ExprKind::Binary && e.binaryOp == BinaryOp::LogAnd) {
      split(*e.operands[0]);
      split(*e.operands[1]);
    } else {
      terms.push_back(&e);
    }
  };
  split(*c_.predicate);
  std::function<bool(const Expr&, unsigned)> safe = [&](const Expr& e, unsigned depth) {
    if (depth > 64) return false;
    switch (e.kind) {
      case ExprKind::IntLiteral:
      case ExprKind::FloatLiteral:
      case ExprKind::BoolLiteral: return true;
      case ExprKind::VarRef:
        if (auto it = c_.fixed.find(e.var); it != c_.fixed.end()) return safe(*it->second, depth + 1);
        return true;
      case ExprKind::Cast:
      case ExprKind::Unary: break;
      case ExprKind::Binary:
        if (e.binaryOp == BinaryOp::Div || e.binaryOp == BinaryOp::Rem || e.binaryOp == BinaryOp::Shl ||
            e.binaryOp == BinaryOp::Shr)
          return false;
        break;
      default: return false;
    }
    for (const ExprPtr& o : e.operands)
      if (o && !safe(*o, depth + 1)) return false;
    return true;
  };
  if (terms.size() < 2 || !std::all_of(terms.begin(), terms.end(), [&](const Expr* t) { return safe(*t, 0); }))
    return printWith(inline_, *c_.predicate);
  std::string text;
  for (const Expr* t : terms) text += (text.empty() ? "(bool)(" : " & (bool)(") + printWith(inline_, *t) + ")";
  return text;
}

// Term culift_qq of element culift_u of this thread's gather (its position is culift_gpp).
std::string ConvWriter::gatheredTerm() const {
  return "const int culift_qq = threadIdx.x / " + str(tp_) + " + culift_u * " + str(e_.threads / tp_) + ";";
}

// The indices of the gathered position (culift_gpp) and the counters of term culift_qq from table
// `table`, those `used` names.
void ConvWriter::gatheredValues(const std::function<bool(VarId)>& used, const std::string& table) {
  std::vector<VarId> axes;
  for (unsigned a = 0; a < 3; ++a)
    if (used(axis(a))) axes.push_back(axis(a));
  declareAxes(axes, {"culift_gimg * culift_kpi", "culift_goh", "culift_gow"});
  counters(used, table);
}

// The flags of the chunk from `q0` (its counter table `table`), a chunk before its gather: bit u of
// culift_mf says whether this thread's element culift_e = threadIdx.x + u * threads of the chunk's
// terms x positions is read, which is where its term runs for a position some output of the block
// has, as the per-thread entry reads it; a term some position runs is marked in culift_any, a term
// such a position does not run is unmarked in culift_all.
void ConvWriter::markPositions(const std::string& q0, const std::string& table) {
  auto usedByFlags = [&](VarId v) { return c_.predicate && names(*c_.predicate, v); };
  out_.say("culift_mf = 0u;");
  out_.say("#pragma unroll");
  CodeWriter::Scope each = out_.open("for (int culift_u = 0; culift_u < " + str(gathered()) + "; ++culift_u)");
  out_.say(gatheredTerm());
  CodeWriter::Scope inLaunch = out_.open("if (" + q0 + " + culift_qq < culift_terms && culift_gsome)");
  gatheredValues(usedByFlags, table);
  std::optional<CodeWriter::Scope> runs;
  if (c_.predicate) runs.emplace(out_.open("if (" + predicateText() + ")"));
  out_.say("culift_mf |= 1u << culift_u;");
  out_.say("culift_any[" + table + "][culift_qq] = 1;");
  if (runs) {
    runs->otherwise();
    out_.say("culift_all[" + table + "][culift_qq] = 0;");
  }
}

// The position operands of the chunk whose counter table is `table` into this thread's registers,
// the elements whose bits culift_rf (its markPositions) holds.
void ConvWriter::gatherPositions(const std::string& table) {
  auto usedByLoads = [&](VarId v) { return gatherUses(v, true); };
  out_.say("#pragma unroll");
  CodeWriter::Scope each = out_.open("for (int culift_u = 0; culift_u < " + str(gathered()) + "; ++culift_u)");
  CodeWriter::Scope runs = out_.open("if ((culift_rf >> culift_u) & 1u)");
  out_.say(gatheredTerm());
  gatheredValues(usedByLoads, table);
  for (size_t p = 0; p < c_.operands.size(); ++p)
    if (c_.operands[p].position)
      out_.say("culift_r" + str(p) + "[culift_u] = " + (separable_[p] ? gatherBase(p) : name(c_.operands[p].array)) +
               "[" +
               (separable_[p] ? offsets(p) + "[" + table + "][culift_qq]" : printWith(inline_, *c_.operands[p].index)) +
               "];");
}

// The registers gatherPositions filled, into the stages (a zero where the term does not run).
void ConvWriter::stagePositions(const std::string& stage) {
  out_.say("#pragma unroll");
  CodeWriter::Scope each = out_.open("for (int culift_u = 0; culift_u < " + str(gathered()) + "; ++culift_u)");
  out_.say(gatheredTerm());
  out_.say("const bool culift_run = (culift_rf >> culift_u) & 1u;");
  for (size_t p = 0; p < c_.operands.size(); ++p)
    if (c_.operands[p].position) {
      const std::string t(spelling(c_.operands[p].element));
      out_.say(tileName(p) + "[" + stage + "][culift_qq][culift_gpp] = culift_run ? culift_r" + str(p) +
               "[culift_u] : (" + t + ")0;");
    }
  if (c_.predicate) out_.say("culift_f[" + stage + "][culift_qq][culift_gpp] = culift_run;");
}

// Whether gathering a chunk's position operands (their flags not: markPositions) or its channel
// operands names `v`: a separable operand's index is its base plus the term's offset, which name
// nothing.
bool ConvWriter::gatherUses(VarId v, bool position) const {
  bool u = false;
  for (size_t p = 0; p < c_.operands.size(); ++p)
    u = u || (c_.operands[p].position == position && !separable_[p] && names(*c_.operands[p].index, v));
  return u;
}

// The channel operands of the chunk whose counter table is `table`, for the terms some position of
// the block runs, into this thread's registers (culift_w<p>, culift_wf its bits of the elements
// read) for stageChannels to store: consecutive threads take consecutive terms of a channel
// (neighbouring elements of a filter), each thread its elements' loads in flight together.
void ConvWriter::gatherChannels(const std::string& table) {
  auto usedByChannels = [&](VarId v) { return gatherUses(v, false); };
  out_.say("culift_wf = 0u;");
  out_.say("#pragma unroll");
  CodeWriter::Scope each = out_.open("for (int culift_u = 0; culift_u < " + str(channelsGathered()) + "; ++culift_u)");
  out_.say("const int culift_e = threadIdx.x + culift_u * " + str(e_.threads) + ";");
  out_.say("const int culift_qq = culift_e % " + str(kTermStep) + ", culift_kk = culift_e / " + str(kTermStep) + ";");
  out_.say("const long long culift_nk = culift_k0 + culift_kk;  // the channel, in the first image");
  CodeWriter::Scope runs = out_.open("if (culift_any[" + table +
                                     "][culift_qq] && culift_nk < culift_kpi && culift_nk < culift_n0)");
  std::vector<VarId> axes;
  if (usedByChannels(axis(0))) axes.push_back(axis(0));
  declareAxes(axes);
  counters(usedByChannels, table);
  for (size_t p = 0; p < c_.operands.size(); ++p)
    if (!c_.operands[p].position)
      out_.say("culift_w" + str(p) + "[culift_u] = " + name(c_.operands[p].array) + "[" +
               (separable_[p] ? bases(p) + "[culift_kk] + " + offsets(p) + "[" + table + "][culift_qq]"
                              : printWith(inline_, *c_.operands[p].index)) +
               "];");
  out_.say("culift_wf |= 1u << culift_u;");
}

// The registers gatherChannels filled, into the stages. Where a skipped term may run on zeros
// (conv.zeroes), an element not read is staged as a zero and culift_zbad says whether one this
// thread staged is not finite.
void ConvWriter::stageChannels(const std::string& stage) {
  if (c_.zeroes) out_.say("culift_zbad = 0;");
  out_.say("#pragma unroll");
  CodeWriter::Scope each = out_.open("for (int culift_u = 0; culift_u < " + str(channelsGathered()) + "; ++culift_u)");
  out_.say("const int culift_e = threadIdx.x + culift_u * " + str(e_.threads) + ";");
  std::optional<CodeWriter::Scope> read;
  if (c_.zeroes) out_.say("const bool culift_read = (culift_wf >> culift_u) & 1u;");
  else read.emplace(out_.open("if ((culift_wf >> culift_u) & 1u)"));
  for (size_t p = 0; p < c_.operands.size(); ++p) {
    const ConvOperand& o = c_.operands[p];
    if (o.position) continue;
    std::string v = "culift_w" + str(p) + "[culift_u]";
    if (c_.zeroes) {
      const std::string t(spelling(o.element));
      out_.say("const " + t + " culift_z" + str(p) + " = culift_read ? " + v + " : (" + t + ")0;");
      v = "culift_z" + str(p);
    }
    out_.say(tileName(p) + "[" + stage + "][culift_e % " + str(kTermStep) + "][culift_e / " + str(kTermStep) +
             "] = " + v + ";");
    if (c_.zeroes && isFloating(o.element)) out_.say("culift_zbad |= !isfinite(" + v + ");");
  }
}

// The barrier after a chunk's staging; where a skipped term may run on zeros, it also tells the
// block whether every staged channel value is finite (culift_zok).
std::string ConvWriter::stagedBarrier() const {
  return c_.zeroes ? "culift_zok = __syncthreads_or(culift_zbad) == 0;" : "__syncthreads();";
}

// One term for every output of the thread: the staged values, then the loop body.
void ConvWriter::termStep(bool all) {
  const Stmt& body = *c_.body;
  const std::vector<const Stmt*> terms = termStatements();
  counters(
      [&](VarId v) {
        return std::any_of(terms.begin(), terms.end(), [&](const Stmt* s) { return mentions(*s, v, step_); });
      },
      "culift_cur");
  for (size_t p = 0; p < c_.operands.size(); ++p) {
    const ConvOperand& o = c_.operands[p];
    const unsigned n = o.position ? colsPerThread_ : rowsPerThread_;
    const std::string v = "culift_v" + str(p);
    out_.say(std::string(spelling(o.element)) + " " + v + "[" + str(n) + "];");
    out_.say("#pragma unroll");
    out_.say("for (int culift_u = 0; culift_u < " + str(n) + "; ++culift_u) " + v + "[culift_u] = " + tileName(p) +
             "[culift_sb][culift_qq][" + (o.position ? colOf("culift_u") : rowOf("culift_u")) + "];");
  }
  if (c_.predicate && !all) {
    out_.say("bool culift_fv[" + str(colsPerThread_) + "];");
    out_.say("#pragma unroll");
    out_.say("for (int culift_u = 0; culift_u < " + str(colsPerThread_) +
             "; ++culift_u) culift_fv[culift_u] = culift_f[culift_sb][culift_qq][" + colOf("culift_u") + "] != 0;");
  }
  PrintRewrites r = step_;
  if (c_.predicate && all) r.exprs[c_.predicate] = "true";
  PerOutput each = perOutput("The loop body, per output.", axesUsed(terms, r), false);
  printBody(r, body);
}

// The chunks of terms, two in flight: while the block runs the chunk in the stages (its table
// culift_cur), each thread holds its elements of the next chunk (culift_nxt) in registers, the
// position operands where the flags say their terms run and the channel operands for the terms some
// position runs (culift_any, complete since the last barrier: a chunk's terms are marked during the
// chunk before's products), both loaded before the chunk's products so that their loads overlap
// them; it marks the chunk after (culift_aft), and the first threads fill the table of the chunk
// before the current one (culift_fil) with the chunk kTables - 1 on. Then every output runs each
// term of the chunk, and the registers go to the other stage (with one stage: to it, after a
// barrier).
void ConvWriter::chunks() {
  // Registers of the next chunk: each position operand's elements and their flags.
  for (size_t p = 0; p < c_.operands.size(); ++p)
    if (c_.operands[p].position)
      out_.say(std::string(spelling(c_.operands[p].element)) + " culift_r" + str(p) + "[" + str(gathered()) + "];");
  out_.say("unsigned culift_rf;  // bit u: this thread's element u of the next chunk runs its term");
  out_.say("unsigned culift_mf;  // bit u: this thread's element u of the chunk after runs its term");
  for (size_t p = 0; p < c_.operands.size(); ++p)
    if (!c_.operands[p].position)
      out_.say(std::string(spelling(c_.operands[p].element)) + " culift_w" + str(p) + "[" + str(channelsGathered()) +
               "];");
  out_.say("unsigned culift_wf;  // bit u: this thread read its element u of the next chunk's channel operands");
  if (c_.zeroes) {
    out_.say("int culift_zbad;  // a channel value this thread staged is not finite");
    out_.say("bool culift_zok;  // every channel value staged is finite: the terms skipped run on zeros");
  }
  out_.say("int culift_cur = 0;  // the slot of the chunk in the stages");
  out_.say("int culift_sb = 0;  // the stage it is in");
  // The first chunk into the stages, the second one marked, every table filled (the position
  // table's last barrier follows the last tile's chunks: nothing reads the stages or the tables now).
  for (unsigned b = 0; b < kTables; ++b) counterTable(str(b), str(b * kTermStep));
  out_.say("__syncthreads();");
  markPositions("0", "0");
  out_.say("culift_rf = culift_mf;");
  markPositions(str(kTermStep), "1");
  out_.say("__syncthreads();");
  gatherPositions("0");
  gatherChannels("0");
  stagePositions("0");
  stageChannels("0");
  out_.say(stagedBarrier());
  out_.say("#pragma unroll 1");
  CodeWriter::Scope each = out_.open(
      "for (long long culift_q0 = 0; culift_q0 < culift_terms; culift_q0 += " + str(kTermStep) + ")");
  out_.say("const int culift_nxt = (culift_cur + 1) % " + str(kTables) + ", culift_aft = (culift_cur + 2) % " +
           str(kTables) + ", culift_fil = (culift_cur + " + str(kTables - 1) + ") % " + str(kTables) + ";");
  out_.say("const bool culift_more = culift_q0 + " + str(kTermStep) + " < culift_terms;");
  {
    CodeWriter::Scope more = out_.open("if (culift_more)");
    out_.say("culift_rf = culift_mf;");
    gatherPositions("culift_nxt");
    gatherChannels("culift_nxt");
    markPositions("(culift_q0 + " + str(2 * kTermStep) + ")", "culift_aft");
  }
  // The chunk kTables - 1 on into the slot of the one before the current (the first kTables chunks'
  // tables are filled before the loop).
  {
    CodeWriter::Scope later = out_.open("if (culift_q0 > 0)");
    counterTable("culift_fil", "(culift_q0 + " + str((kTables - 1) * kTermStep) + ")", true);
  }
  {
    // A thread whose channels are all beyond the image's (the last channel tile's) has no output
    // to store: it only gathers.
    CodeWriter::Scope run = out_.open("if (culift_k0 + " + rowOf("0") + " < culift_kpi)");
    chunk();
  }
  if (stages_ == 1) out_.say("__syncthreads();  // the chunk's terms are done with the stage");
  {
    CodeWriter::Scope more = out_.open("if (culift_more)");
    const std::string next = stages_ == 2 ? "culift_sb ^ 1" : "0";
    stagePositions(next);
    stageChannels(next);
  }
  out_.say("culift_cur = culift_nxt;");
  if (stages_ == 2) out_.say("culift_sb ^= 1;");
  out_.say(stagedBarrier());
}

// One chunk of terms in the stages: every output runs each term.
void ConvWriter::chunk() {
  out_.say("const int culift_nq = (int)(culift_terms - culift_q0 < " + str(kTermStep) +
           " ? culift_terms - culift_q0 : " + str(kTermStep) + ");");
  // One term for every output: most terms of a convolution run for every position of a block (only
  // windows at a border leave some out), and those read no flag.
  auto term = [&] {
    if (!c_.predicate) return termStep(false);
    CodeWriter::Scope every = out_.open("if (culift_all[culift_cur][culift_qq])");
    termStep(true);
    every.otherwise();
    termStep(false);
  };
  // A whole chunk's terms unrolled. Where the skipped terms may run on zeros, only a chunk whose
  // channel values are finite, every term run so (the staged position values of a skipped term are
  // zeros): one run of the chunk's products with no branch, which the device compiler schedules as
  // one; other chunks (an infinite or NaN channel value: rare) take the loop below, not unrolled.
  CodeWriter::Scope whole = out_.open("if (culift_nq == " + str(kTermStep) + (c_.zeroes ? " && culift_zok" : "") + ")");
  out_.say("#pragma unroll");
  {
    CodeWriter::Scope steps = out_.open("for (int culift_qq = 0; culift_qq < " + str(kTermStep) + "; ++culift_qq)");
    if (c_.zeroes) termStep(true);
    else term();
  }
  whole.otherwise();
  out_.say("#pragma unroll 1");
  CodeWriter::Scope steps = out_.open("for (int culift_qq = 0; culift_qq < culift_nq; ++culift_qq)");
  term();
}

void ConvWriter::write() {
  const unsigned threadCols = tp_ / colsPerThread_;
  CodeWriter::Scope entry = signature(e_,
                                      {fn_.name + ": " + std::string(culift::name(e_.plan)) + ", " + str(tk_) +
                                       " channels x " + str(tp_) + " positions per block of " + str(e_.threads) +
                                       " threads, " + str(rowsPerThread_) + " x " + str(colsPerThread_) +
                                       " per thread, the terms (" +
                                       [&] {
                                         std::string s;
                                         for (VarId v : c_.counters) s += (s.empty() ? "" : ", ") + name(v);
                                         return s;
                                       }() +
                                       ") in chunks of " + str(kTermStep) +
                                       "; each output runs the loops in source order (the "
                                       "per-thread entry's bits)."},
                                      "", twoBlocks() ? 2 : 0);
  aliases();
  bounds();
  perThread();
  // A part of the launch (the rows nk of [culift_first, culift_n0)) takes the positions of the images
  // its rows meet; the outputs before culift_first are not stored.
  out_.say("const long long culift_img0 = culift_first / culift_kpi;  // the part's first image");
  out_.say(
      "const long long culift_allpos = ((culift_n0 + culift_kpi - 1) / culift_kpi - culift_img0) * "
      "culift_plane;  // positions of the part's images");
  const unsigned narrow = tk_;
  if (wide_) setTile(kWideRows);  // the stages of the wider tile
  sharedTiles();
  // The digits of kTables * kTermStep terms in the counters' trip counts (the innermost first; the
  // outermost takes the rest): the step of a counter table from a chunk to the one kTables after.
  // Visible to the table's threads after the first tile's first barrier.
  out_.say("__shared__ long long culift_adv[" + str(c_.counters.size()) + "];");
  {
    CodeWriter::Scope once = out_.open("if (threadIdx.x == 0 && culift_terms > 0)");
    out_.say("long long culift_u = " + str(kTables * kTermStep) + ";");
    for (size_t d = c_.counters.size(); d-- > 0;) {
      if (d == 0) {
        out_.say("culift_adv[0] = culift_u;");
        break;
      }
      out_.say("culift_adv[" + str(d) + "] = culift_u % culift_t" + str(d) + ";");
      out_.say("culift_u /= culift_t" + str(d) + ";");
    }
  }
  // A warp holds 4 x 8 of the threadCols x (threads / threadCols) threads: its load of a term's
  // positions (4 a thread) reads 8 distinct 16-byte pieces, one shared-memory wavefront, where a row
  // of 32 threads read 32 (four); with the channels' two loads, 3 wavefronts a term for 32 products
  // a thread instead of 6: four warps issuing products take 0.375 a clock of the multiprocessor's
  // one instead of 0.75. A warp's channels stay consecutive (32 of them), for the warps beyond the
  // image's channels to skip the products.
  if (threadCols % 8 != 0 || (e_.threads / threadCols) % 4 != 0)
    throw std::logic_error("convolution entry " + e_.kernelName + ": its threads are not warps of 4 x 8");
  out_.say("const int culift_tx = (int)(threadIdx.x / 32 % " + str(threadCols / 8) +
           " * 8 + threadIdx.x % 8), culift_ty = (int)(threadIdx.x / 32 / " + str(threadCols / 8) +
           " * 4 + threadIdx.x % 32 / 8);  // a warp: 4 x 8 threads");
  if (!wide_) return tileLoop();
  out_.say("// Tiles of " + str(kWideRows) +
           " channels where the channels per image fill them no worse than tiles of " + str(narrow) + ".");
  CodeWriter::Scope wider = out_.open("if ((culift_kpi + " + str(kWideRows - 1) + ") / " + str(kWideRows) + " * " +
                                      str(kWideRows) + " <= (culift_kpi + " + str(narrow - 1) + ") / " + str(narrow) +
                                      " * " + str(narrow) + ")");
  tileLoop();
  wider.otherwise();
  setTile(narrow);
  tileLoop();
}

// The loop over the launch's tiles of tk_ channels.
void ConvWriter::tileLoop() {
  // One image whose channel is the first index: the part's channel tiles from culift_first's on.
  out_.say("const long long culift_kbase = " +
           (c_.divisor != kNone ? std::string("0") : "culift_first / " + str(tk_) + " * " + str(tk_)) +
           ";  // the first channel tile's");
  out_.say("const long long culift_tilesK = (culift_kpi - culift_kbase + " + str(tk_ - 1) + ") / " + str(tk_) +
           ", culift_tilesP = (culift_allpos + " + str(tp_ - 1) + ") / " + str(tp_) + ";");
  out_.say("#pragma unroll 1");
  CodeWriter::Scope tiles = out_.open(
      "for (long long culift_t = (long long)blockIdx.y * gridDim.x + blockIdx.x; culift_t < culift_tilesK * "
      "culift_tilesP; culift_t += (long long)gridDim.x * gridDim.y)");
  out_.say("const long long culift_k0 = culift_kbase + culift_t % culift_tilesK * " + str(tk_) + ";");
  out_.say("const long long culift_p0 = culift_t / culift_tilesK * " + str(tp_) + ";");
  positionTable();
  gatherPosition();
  registers();
  {
    PerOutput each = perOutput("The statements before the loops, per output.", axesUsed(c_.prologue, perOut_), true);
    for (const Stmt* s : c_.prologue) printWith(perOut_, *s);
  }
  chunks();
  PrintRewrites after = perOut_;
  after.returns = [this](const std::string& v) {
    return "{ " + store("culift_nk * culift_plane + culift_pos", v) + " continue; }";
  };
  PerOutput each = perOutput("The statements after the loops, per output.", axesUsed(c_.epilogue, after), true);
  for (const Stmt* s : c_.epilogue) printWith(after, *s);
}

void emit(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  ConvWriter(module, fn, entry, out).write();
}

}  // namespace

const plans::Unit plans::kConvolution{LoopPlan::Convolution, decide, emit, true};

}  // namespace culift::codegen
