// Min/max row reduction (exact order), 1-D: a warp per row for a loop that keeps a minimum, a
// maximum or where one is (argmax), exactly as the loop keeps it. Lane l scans the iterations l,
// l + 32, ... in order and keeps its candidate with the iteration it came from; five shuffle steps
// then pick, of two lanes' candidates, the better one and of equal ones the one the loop keeps
// (the earlier for `acc < term`, the later for `acc <= term`); the row's value before the loop
// takes the winner as the loop would. This is the loop's own result bit for bit, for every input
// (docs/loop-plans.md#minmax-and-argmax-rows says why and for which forms), so the CPU backend
// runs the loop as written.
#include <limits>
#include <set>
#include <stdexcept>

#include "../literal_spelling.hpp"
#include "ast_match.hpp"
#include "entry_writer.hpp"
#include "plan.hpp"

namespace culift::codegen {
namespace {

// ---- legality --------------------------------------------------------------------------------

// One value the loop keeps: `acc` takes the iteration's term where `acc take term` holds (and the
// extras their values with it), or, for std::fmax / std::fmin, acc = fmax(acc, term).
struct Selection {
  VarId acc = kNone;
  const Expr* term = nullptr;
  BinaryOp take = BinaryOp::Lt;  // Lt, Le: the largest term; Gt, Ge: the smallest; Le, Ge: the last of equal ones
  std::optional<MathFn> ieee;    // Fmax or Fmin: associative and commutative, nothing to take
  std::vector<std::pair<VarId, const Expr*>> extras;  // `arg = k;` beside `best = v;`
};

bool keepsLargest(BinaryOp take) { return take == BinaryOp::Lt || take == BinaryOp::Le; }
bool keepsLast(BinaryOp take) { return take == BinaryOp::Le || take == BinaryOp::Ge; }
bool isOrdering(BinaryOp op) {
  return op == BinaryOp::Lt || op == BinaryOp::Gt || op == BinaryOp::Le || op == BinaryOp::Ge;
}
// a op b == b flipped(op) a.
BinaryOp flipped(BinaryOp op) {
  switch (op) {
    case BinaryOp::Lt: return BinaryOp::Gt;
    case BinaryOp::Gt: return BinaryOp::Lt;
    case BinaryOp::Le: return BinaryOp::Ge;
    default: return BinaryOp::Le;
  }
}
// !(a op b) == a negated(op) b, for values that are not NaN.
BinaryOp negated(BinaryOp op) {
  switch (op) {
    case BinaryOp::Lt: return BinaryOp::Ge;
    case BinaryOp::Gt: return BinaryOp::Le;
    case BinaryOp::Le: return BinaryOp::Gt;
    default: return BinaryOp::Lt;
  }
}

// An operand of a comparison without the promotion of a narrow integer to int.
const Expr& unpromoted(const Expr& e) {
  if (e.kind == ExprKind::Cast && e.type.scalar == Scalar::I32 && !e.operands.empty() && e.operands[0] &&
      isInteger(e.operands[0]->type.scalar) && byteSize(e.operands[0]->type.scalar) < 4)
    return *e.operands[0];
  return e;
}

bool sameExpr(const Expr& a, const Expr& b) { return SwapCompare{kNone, kNone, {}}.expr(a, b); }

// Whether `e` writes nothing (a term is computed once per iteration, in a lane that may not run
// the statements around it in the loop's order).
bool writesNothing(const Expr& e) {
  bool writes = false;
  forEachExpr(e, [&](const Expr& x) { writes = writes || assignmentTarget(x) || x.kind == ExprKind::AtomicRmw; });
  return !writes;
}

bool reads(const Expr& e, const std::set<VarId>& vars) {
  bool found = false;
  forEachExpr(e, [&](const Expr& x) { found = found || (x.kind == ExprKind::VarRef && vars.count(x.var)); });
  return found;
}

// Finds the selections of a loop: each top-level statement of its body is a declaration or one
// of the forms below. `found` stays false when no statement looks like a min or max at all (the
// plan does not concern the loop).
class SelectionFinder {
 public:
  SelectionFinder(const Function& fn, const LoopAnalysis& a) : fn_(fn), a_(a) {}

  std::optional<std::vector<Selection>> find();
  bool found = false;
  std::string reason;

 private:
  struct Comparison {
    VarId acc;
    const Expr* term;
    BinaryOp op;  // acc op term
  };
  bool kept(const Expr& e) const {  // a local declared before the loop
    return e.kind == ExprKind::VarRef && std::find(a_.carried.begin(), a_.carried.end(), e.var) != a_.carried.end();
  }
  std::optional<Comparison> comparison(const Expr& cond) const;
  std::optional<Selection> fromAssign(const Expr& assign);
  std::optional<Selection> fromIf(const Stmt& s);
  // `sel` as the loop states it: take where `acc op term` is false (floating: also for a NaN term).
  std::optional<Selection> takenWhenFalse(Selection sel, BinaryOp op, const std::string& form);
  std::nullopt_t fail(std::string why) {
    if (reason.empty()) reason = std::move(why);
    return std::nullopt;
  }
  const std::string& nameOf(VarId v) const { return fn_.vars[v].name; }

  const Function& fn_;
  const LoopAnalysis& a_;
};

std::optional<SelectionFinder::Comparison> SelectionFinder::comparison(const Expr& cond) const {
  if (cond.kind != ExprKind::Binary || !isOrdering(cond.binaryOp)) return std::nullopt;
  const Expr& l = unpromoted(*cond.operands[0]);
  const Expr& r = unpromoted(*cond.operands[1]);
  if (kept(l) && !reads(r, {l.var})) return Comparison{l.var, &r, cond.binaryOp};
  if (kept(r) && !reads(l, {r.var})) return Comparison{r.var, &l, flipped(cond.binaryOp)};
  return std::nullopt;
}

std::optional<Selection> SelectionFinder::takenWhenFalse(Selection sel, BinaryOp op, const std::string& form) {
  if (isFloating(fn_.vars[sel.acc].type.scalar)) {
    found = true;
    return fail(form +
                " takes a NaN term (a comparison with NaN is false), so only the loop's order gives its result: " +
                "write " + nameOf(sel.acc) + " = std::max(" + nameOf(sel.acc) + ", term) or if (term > " +
                nameOf(sel.acc) + ") ..., which skip NaN terms");
  }
  sel.take = negated(op);
  return sel;
}

std::optional<Selection> SelectionFinder::fromAssign(const Expr& assign) {
  if (assign.kind != ExprKind::Assign || !kept(*assign.operands[0])) return std::nullopt;
  Selection sel;
  sel.acc = assign.operands[0]->var;
  const Expr& value = *assign.operands[1];
  const std::string m = nameOf(sel.acc);
  auto isAcc = [&](const Expr& e) { return e.kind == ExprKind::VarRef && e.var == sel.acc; };
  if (value.kind == ExprKind::MathCall && value.operands.size() == 2 &&
      (value.math == MathFn::Max || value.math == MathFn::Min || value.math == MathFn::Fmax ||
       value.math == MathFn::Fmin)) {
    found = true;
    const bool first = isAcc(*value.operands[0]);
    if (first == isAcc(*value.operands[1]))
      return fail(m + " = " + std::string(info(value.math).name) + "(...) does not compare " + m + " with one term");
    sel.term = value.operands[first ? 1 : 0].get();
    if (value.math == MathFn::Fmax || value.math == MathFn::Fmin) {
      sel.ieee = value.math;
      return sel;
    }
    // std::max(a, b) is (a < b) ? b : a, std::min(a, b) is (b < a) ? b : a.
    const bool max = value.math == MathFn::Max;
    if (first) {
      sel.take = max ? BinaryOp::Lt : BinaryOp::Gt;
      return sel;
    }
    return takenWhenFalse(sel, max ? BinaryOp::Gt : BinaryOp::Lt,
                          m + " = std::" + (max ? "max" : "min") + "(term, " + m + ")");
  }
  if (value.kind != ExprKind::Conditional) return std::nullopt;
  const std::optional<Comparison> c = comparison(*value.operands[0]);
  if (!c || c->acc != sel.acc) return std::nullopt;
  found = true;
  const Expr& yes = *value.operands[1];
  const Expr& no = *value.operands[2];
  if (isAcc(no) && sameExpr(yes, *c->term)) {
    sel.term = &yes;
    sel.take = c->op;
    return sel;
  }
  if (isAcc(yes) && sameExpr(no, *c->term)) {
    sel.term = &no;
    return takenWhenFalse(sel, c->op, m + " = cond ? " + m + " : term");
  }
  return fail("the term compared with " + m + " is not the one assigned to it");
}

std::optional<Selection> SelectionFinder::fromIf(const Stmt& s) {
  if (s.kind != StmtKind::If || !s.cond) return std::nullopt;
  const std::optional<Comparison> c = comparison(*s.cond);
  if (!c) return std::nullopt;
  found = true;
  Selection sel;
  sel.acc = c->acc;
  sel.take = c->op;
  const std::string m = nameOf(sel.acc);
  if (s.otherwise) return fail("the if that compares " + m + " with a term has an else");
  std::vector<const Stmt*> taken;
  if (s.then->kind == StmtKind::Block)
    for (const StmtPtr& t : s.then->stmts) taken.push_back(t.get());
  else taken.push_back(s.then.get());
  std::set<VarId> assigned;
  for (const Stmt* t : taken) {
    const Expr* e = t->kind == StmtKind::ExprStmt ? t->expr.get() : nullptr;
    if (!e || e->kind != ExprKind::Assign || !kept(*e->operands[0]))
      return fail("where " + m + " takes a term, the loop does more than assign locals declared before it");
    const VarId v = e->operands[0]->var;
    if (!assigned.insert(v).second) return fail(nameOf(v) + " is assigned twice where " + m + " takes a term");
    if (v == sel.acc) sel.term = e->operands[1].get();
    else sel.extras.emplace_back(v, e->operands[1].get());
  }
  if (!sel.term || !sameExpr(*sel.term, *c->term))
    return fail("the term compared with " + m + " is not the one assigned to it");
  return sel;
}

std::optional<std::vector<Selection>> SelectionFinder::find() {
  const Stmt& body = *a_.loop->body;
  std::vector<const Stmt*> stmts;
  if (body.kind == StmtKind::Block)
    for (const StmtPtr& s : body.stmts) stmts.push_back(s.get());
  else stmts.push_back(&body);
  std::vector<Selection> out;
  std::vector<const Expr*> values;  // what the iteration computes: initializers, terms, extras
  bool other = false;
  for (const Stmt* s : stmts) {
    if (s->kind == StmtKind::Decl) {
      if (s->expr) values.push_back(s->expr.get());
      continue;
    }
    std::optional<Selection> sel = s->kind == StmtKind::ExprStmt && s->expr ? fromAssign(*s->expr) : fromIf(*s);
    if (!sel) {
      other = true;
      continue;
    }
    values.push_back(sel->term);
    for (const auto& [v, e] : sel->extras) values.push_back(e);
    out.push_back(std::move(*sel));
  }
  if (!found) return std::nullopt;
  if (!reason.empty()) return std::nullopt;
  if (other)
    return fail(
        "the loop does more than keep minima and maxima (a statement other than a declaration"
        " or an update of one)");
  std::set<VarId> kept;
  for (const Selection& s : out) {
    const Scalar t = fn_.vars[s.acc].type.scalar;
    if (t == Scalar::Bool) return fail("the kept value " + nameOf(s.acc) + " is a bool");
    if (!kept.insert(s.acc).second) return fail(nameOf(s.acc) + " is updated twice in the loop");
    for (const auto& [v, e] : s.extras)
      if (!kept.insert(v).second) return fail(nameOf(v) + " is assigned twice in the loop");
  }
  for (const Expr* e : values) {
    if (!writesNothing(*e)) return fail("a term of the loop assigns a variable");
    if (reads(*e, kept)) return fail("a term of the loop reads a kept value (it would see another lane's)");
  }
  return out;
}

// The loop's selections, or nothing with `reason` ("" when the loop keeps no min or max).
std::optional<std::vector<Selection>> selections(const Function& fn, const LoopAnalysis& a, std::string& reason) {
  SelectionFinder finder(fn, a);
  std::optional<std::vector<Selection>> out = finder.find();
  reason = finder.found ? finder.reason : std::string();
  return out;
}

// What `culift ast` says of a selection.
std::string describe(const Function& fn, const Selection& s) {
  const std::string& m = fn.vars[s.acc].name;
  if (s.ieee) return m + ": std::" + std::string(info(*s.ieee).name) + " of its terms (associative)";
  std::string d = m + ": the " + (keepsLargest(s.take) ? "largest" : "smallest") + " term, the " +
                  (keepsLast(s.take) ? "last" : "first") + " of equal ones";
  if (isFloating(fn.vars[s.acc].type.scalar)) d += ", NaN terms skipped";
  for (const auto& [v, e] : s.extras) d += ", with " + fn.vars[v].name;
  return d;
}

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid1D) return plans::Decision::skip();
  const LoopAnalysis& a = *analysis.loop;
  std::string why;
  const std::optional<std::vector<Selection>> sels = selections(f, a, why);
  if (!sels) return why.empty() ? plans::Decision::skip() : plans::Decision::no(why);
  if (std::string w = prologueWriteReason(a); !w.empty()) return plans::Decision::no(w);
  for (const StagedOperand& o : a.operands)
    if (!o.kContiguous)
      return plans::Decision::no("consecutive " + f.vars[f.indexParams[0]].name + " read neighbouring elements of " +
                                 f.vars[o.array].name + " already (one thread per output is coalesced)");
  plans::Decision d = plans::Decision::yes(
      {plans::makeEntry(f, "_extremum", LoopPlan::ExtremumRowReduction, 8, 1, 256, false)});
  d.reason.clear();
  for (size_t s = 0; s < sels->size(); ++s) d.reason += (s ? "; " : "") + describe(f, (*sels)[s]);
  return d;
}

// ---- codegen ---------------------------------------------------------------------------------

// The value no term beats: the lowest of the type for a maximum (a term equal to it is taken only
// by `<=`, and then marked with its iteration), the highest for a minimum, NaN for fmax / fmin.
std::string unbeaten(Scalar t, const Selection& s) {
  if (isFloating(t)) {
    const double inf = std::numeric_limits<double>::infinity();
    const double v = s.ieee ? std::numeric_limits<double>::quiet_NaN() : keepsLargest(s.take) ? -inf : inf;
    return floatingLiteral(v, t, true).text;
  }
  const unsigned bits = 8 * byteSize(t);
  const std::uint64_t all = bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  const std::uint64_t top = std::uint64_t{1} << (bits - 1);
  const std::uint64_t lowest = isSigned(t) ? top : 0, highest = isSigned(t) ? top - 1 : all;
  return integerLiteral(keepsLargest(s.take) ? lowest : highest, t).text;
}

// `v` of type `t` from lane culift_lane ^ culift_d (narrow integers through int).
std::string shuffled(Scalar t, const std::string& v) {
  if (byteSize(t) < 4)
    return "(" + std::string(spelling(t)) + ")__shfl_xor_sync(0xffffffffu, (int)" + v + ", culift_d)";
  return "__shfl_xor_sync(0xffffffffu, " + v + ", culift_d)";
}

class ExtremumWriter : EntryWriter {
 public:
  ExtremumWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out)
      : EntryWriter(module, fn, out), e_(e), unroll_(widestElement() > 4 ? 8 : 16) {
    std::string why;
    std::optional<std::vector<Selection>> s = selections(fn, a_, why);
    if (!s) throw std::logic_error("min/max row reduction of " + fn.name + " does not hold: " + why);
    sels_ = std::move(*s);
  }

  void write();

 private:
  std::string m(size_t s) const { return "culift_m" + str(s); }
  std::string w(size_t s) const { return "culift_w" + str(s); }
  std::string x(size_t s, size_t e) const { return "culift_x" + str(s) + "_" + str(e); }
  std::string fmaxName(const Selection& s) const {
    const MathFnInfo& i = info(*s.ieee);
    return std::string(fn_.vars[s.acc].type.scalar == Scalar::F32 ? i.floatName : i.doubleName);
  }
  void laneState();
  void lanePart();
  void iteration(const std::string& t);
  void update(size_t s);
  void laneTree();
  void combine(size_t s);
  void takeWinners();

  const PlanEntry& e_;
  const unsigned unroll_;  // iterations per lane and step: loads in flight
  std::vector<Selection> sels_;
  PrintRewrites perOut_, step_;
  bool usesK_ = false;
};

void ExtremumWriter::write() {
  CodeWriter::Scope entry = signature(
      e_, {fn_.name + ": " + std::string(culift::name(e_.plan)) + ", a warp per output, " + str(e_.threads / 32) +
               " per block of " + str(e_.threads) +
               " threads; lane l keeps the best of the iterations l, l + 32, ... with its iteration, then lanes",
           "l and l ^ d keep the better of their two (of equal ones, the one the loop keeps) for d = 16 .. 1: "
           "the loop's own result (the per-thread entry's bits)."});
  extents(false);
  aliases();
  out_.say("const int culift_lane = threadIdx.x % 32;");
  CodeWriter::Scope rows = warpPerRow(e_.threads / 32);
  perOut_ = prologueOnEveryLane();
  bounds();
  step_ = perOut_;
  step_.returns = nullptr;
  usesK_ = mentions(*a_.loop->body, a_.counter, step_);
  laneState();
  lanePart();
  laneTree();
  takeWinners();
  out_.say("// The statements after the loop, on the first lane; a return stores the value.");
  out_.say("if (culift_lane != 0) continue;");
  epilogueStoring(perOut_);
}

void ExtremumWriter::laneState() {
  for (size_t s = 0; s < sels_.size(); ++s) {
    const Selection& sel = sels_[s];
    const Scalar t = fn_.vars[sel.acc].type.scalar;
    out_.say(std::string(spelling(t)) + " " + m(s) + " = " + unbeaten(t, sel) + ";  // this lane's " + name(sel.acc));
    if (sel.ieee) continue;
    out_.say("long long " + w(s) + " = -1;  // the iteration it came from (-1: none)");
    for (size_t e = 0; e < sel.extras.size(); ++e)
      out_.say(typeOf(sel.extras[e].first) + " " + x(s, e) + " = {};  // " + name(sel.extras[e].first) + " with it");
  }
}

// Lane culift_lane's iterations culift_lane, + 32, ... in order, `unroll_` per step.
void ExtremumWriter::lanePart() {
  out_.say("long long culift_t = culift_lane;  // iteration index");
  out_.say("#pragma unroll 1");
  {
    CodeWriter::Scope steps = out_.open("for (; culift_t + " + str(32 * (unroll_ - 1)) +
                                        " < culift_trip; culift_t += " + str(32 * unroll_) + ")");
    out_.say("#pragma unroll");
    CodeWriter::Scope unrolled = out_.open("for (int culift_u = 0; culift_u < " + str(unroll_) + "; ++culift_u)");
    iteration("culift_t + 32 * culift_u");
  }
  out_.say("#pragma unroll 1");
  CodeWriter::Scope rest = out_.open("for (; culift_t < culift_trip; culift_t += 32)");
  iteration("culift_t");
}

// One iteration: the loop body's declarations as written, each update as this lane's.
void ExtremumWriter::iteration(const std::string& t) {
  out_.say("const long long culift_it = " + t + ";");
  if (usesK_) out_.say(counterAt("culift_it"));
  const Stmt& body = *a_.loop->body;
  size_t next = 0;
  auto statement = [&](const Stmt& s) {
    if (s.kind == StmtKind::Decl) printWith(step_, s);
    else update(next++);
  };
  if (body.kind == StmtKind::Block)
    for (const StmtPtr& s : body.stmts) statement(*s);
  else statement(body);
}

void ExtremumWriter::update(size_t s) {
  const Selection& sel = sels_.at(s);
  const std::string term = printWith(step_, *sel.term);
  if (sel.ieee) {
    out_.say(m(s) + " = " + fmaxName(sel) + "(" + m(s) + ", " + term + ");");
    return;
  }
  CodeWriter::Scope one = out_.open("");
  out_.say("const " + typeOf(sel.acc) + " culift_c" + str(s) + " = " + term + ";");
  CodeWriter::Scope taken = out_.open("if (" + m(s) + " " + std::string(spelling(sel.take)) + " culift_c" + str(s) +
                                      ")");
  out_.say(m(s) + " = culift_c" + str(s) + ";");
  out_.say(w(s) + " = culift_it;");
  for (size_t e = 0; e < sel.extras.size(); ++e)
    out_.say(x(s, e) + " = " + printWith(step_, *sel.extras[e].second) + ";");
}

void ExtremumWriter::laneTree() {
  out_.say("#pragma unroll");
  CodeWriter::Scope tree = out_.open("for (int culift_d = 16; culift_d >= 1; culift_d /= 2)");
  for (size_t s = 0; s < sels_.size(); ++s) combine(s);
}

// Lanes l and l ^ d keep the better of their candidates: both pick the same one (a candidate is
// never NaN, and of equal ones the iteration decides), so every lane ends with the row's.
void ExtremumWriter::combine(size_t s) {
  const Selection& sel = sels_[s];
  const Scalar t = fn_.vars[sel.acc].type.scalar;
  if (sel.ieee) {
    out_.say(m(s) + " = " + fmaxName(sel) + "(" + m(s) + ", " + shuffled(t, m(s)) + ");");
    return;
  }
  CodeWriter::Scope one = out_.open("");
  out_.say("const " + typeOf(sel.acc) + " culift_om = " + shuffled(t, m(s)) + ";");
  out_.say("const long long culift_ow = " + shuffled(Scalar::I64, w(s)) + ";");
  for (size_t e = 0; e < sel.extras.size(); ++e)
    out_.say("const " + typeOf(sel.extras[e].first) + " culift_ox" + str(e) + " = " +
             shuffled(fn_.vars[sel.extras[e].first].type.scalar, x(s, e)) + ";");
  const std::string better = keepsLargest(sel.take) ? " > " : " < ";
  const std::string tie = keepsLast(sel.take) ? "culift_ow > " + w(s)
                                              : "culift_ow >= 0 && (" + w(s) + " < 0 || culift_ow < " + w(s) + ")";
  CodeWriter::Scope other = out_.open("if (culift_om" + better + m(s) + " || (culift_om == " + m(s) + " && " + tie +
                                          "))",
                                      keepsLast(sel.take) ? "of equal ones the later" : "of equal ones the earlier");
  out_.say(m(s) + " = culift_om;");
  out_.say(w(s) + " = culift_ow;");
  for (size_t e = 0; e < sel.extras.size(); ++e) out_.say(x(s, e) + " = culift_ox" + str(e) + ";");
}

// The value before the loop meets the row's winner last, as the loop's first iteration met it.
void ExtremumWriter::takeWinners() {
  for (size_t s = 0; s < sels_.size(); ++s) {
    const Selection& sel = sels_[s];
    const std::string acc = name(sel.acc);
    if (sel.ieee) {
      out_.say(acc + " = " + fmaxName(sel) + "(" + acc + ", " + m(s) + ");");
      continue;
    }
    CodeWriter::Scope taken = out_.open("if (" + w(s) + " >= 0 && " + acc + " " + std::string(spelling(sel.take)) +
                                        " " + m(s) + ")");
    out_.say(acc + " = " + m(s) + ";");
    for (size_t e = 0; e < sel.extras.size(); ++e) out_.say(name(sel.extras[e].first) + " = " + x(s, e) + ";");
  }
}

void emit(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  ExtremumWriter(module, fn, entry, out).write();
}

}  // namespace

const plans::Unit plans::kExtremumRowReduction{LoopPlan::ExtremumRowReduction, decide, emit};

}  // namespace culift::codegen
