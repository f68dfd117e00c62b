#include "culift/ast/nodes.hpp"

#include <iterator>

namespace culift {
namespace {
constexpr std::string_view kExprNames[] = {
#define CULIFT_EXPR(K) #K,
#include "culift/ast/constructs.def"
};
constexpr std::string_view kStmtNames[] = {
#define CULIFT_STMT(K) #K,
#include "culift/ast/constructs.def"
};
constexpr std::string_view kUnarySpellings[] = {
#define CULIFT_UNARY_OP(O, S) S,
#include "culift/ast/constructs.def"
};
struct IncDecInfo {
  std::string_view spelling;
  bool prefix;
  int delta;
};
constexpr IncDecInfo kIncDec[] = {
#define CULIFT_INCDEC_OP(O, S, P, D) {S, P, D},
#include "culift/ast/constructs.def"
};
constexpr std::string_view kBinarySpellings[] = {
#define CULIFT_BINARY_OP(O, S) S,
#include "culift/ast/constructs.def"
};
struct AtomicInfo {
  std::string_view member;
  std::string_view cuda;
  bool integersOnly;
};
constexpr AtomicInfo kAtomics[] = {
#define CULIFT_ATOMIC_OP(O, M, C, I) {M, C, I},
#include "culift/ast/constructs.def"
};
constexpr MathFnInfo kMath[] = {
#define CULIFT_MATH_FN(F, N, A, FN, DN, D) {MathFn::F, N, A, FN, DN, MathDomain::D},
#include "culift/ast/constructs.def"
};
}  // namespace

std::string_view name(ExprKind k) { return kExprNames[static_cast<unsigned>(k)]; }
std::string_view name(StmtKind k) { return kStmtNames[static_cast<unsigned>(k)]; }
std::string_view spelling(UnaryOp op) { return kUnarySpellings[static_cast<unsigned>(op)]; }
std::string_view spelling(IncDecOp op) { return kIncDec[static_cast<unsigned>(op)].spelling; }
bool isPrefix(IncDecOp op) { return kIncDec[static_cast<unsigned>(op)].prefix; }
int delta(IncDecOp op) { return kIncDec[static_cast<unsigned>(op)].delta; }
std::string_view spelling(BinaryOp op) { return kBinarySpellings[static_cast<unsigned>(op)]; }

bool isComparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::Lt:
    case BinaryOp::Gt:
    case BinaryOp::Le:
    case BinaryOp::Ge:
    case BinaryOp::Eq:
    case BinaryOp::Ne: return true;
    default: return false;
  }
}
bool isLogical(BinaryOp op) { return op == BinaryOp::LogAnd || op == BinaryOp::LogOr; }
bool isShift(BinaryOp op) { return op == BinaryOp::Shl || op == BinaryOp::Shr; }

std::string_view memberName(AtomicOp op) { return kAtomics[static_cast<unsigned>(op)].member; }
std::string_view cudaName(AtomicOp op) { return kAtomics[static_cast<unsigned>(op)].cuda; }
bool integersOnly(AtomicOp op) { return kAtomics[static_cast<unsigned>(op)].integersOnly; }
bool lookupAtomicOp(std::string_view member, AtomicOp& op) {
  for (unsigned k = 0; k < std::size(kAtomics); ++k) {
    if (kAtomics[k].member == member) {
      op = static_cast<AtomicOp>(k);
      return true;
    }
  }
  return false;
}

const MathFnInfo& info(MathFn fn) { return kMath[static_cast<unsigned>(fn)]; }

bool lookupMathFn(std::string_view cxxName, MathFn& fn, bool& floatForm) {
  for (const MathFnInfo& m : kMath) {
    if (m.name == cxxName) {
      fn = m.fn;
      floatForm = false;
      return true;
    }
  }
  // C spellings: labs/llabs (integer abs), and the float forms "sqrtf", "fabsf", ...
  if (cxxName == "labs" || cxxName == "llabs") {
    fn = MathFn::Abs;
    floatForm = false;
    return true;
  }
  if (cxxName.size() > 1 && cxxName.back() == 'f') {
    std::string_view base = cxxName.substr(0, cxxName.size() - 1);
    for (const MathFnInfo& m : kMath) {
      if (m.name == base && m.domain == MathDomain::Floating) {
        fn = m.fn;
        floatForm = true;
        return true;
      }
    }
  }
  return false;
}

// The children move to a work list before their parent goes, so every node dies with no
// children left and no destructor calls another.
Expr::~Expr() {
  std::vector<ExprPtr> pending = std::move(operands);
  while (!pending.empty()) {
    ExprPtr e = std::move(pending.back());
    pending.pop_back();
    if (!e) continue;
    for (ExprPtr& o : e->operands) pending.push_back(std::move(o));
  }
}

Stmt::~Stmt() {
  std::vector<StmtPtr> pending;
  const auto detachChildren = [&pending](Stmt& s) {
    for (StmtPtr* c : {&s.init, &s.then, &s.otherwise, &s.body})
      if (*c) pending.push_back(std::move(*c));
    for (StmtPtr& c : s.stmts)
      if (c) pending.push_back(std::move(c));
  };
  detachChildren(*this);
  while (!pending.empty()) {
    StmtPtr s = std::move(pending.back());
    pending.pop_back();
    detachChildren(*s);
  }
}

void visitExprs(const Expr& e, const std::function<bool(const Expr&)>& visit) {
  if (!visit(e)) return;
  for (const ExprPtr& o : e.operands)
    if (o) visitExprs(*o, visit);
}

void visitExprs(const Stmt& s, const std::function<bool(const Expr&)>& visit) {
  for (const Expr* e : {s.cond.get(), s.expr.get()})
    if (e) visitExprs(*e, visit);
  for (const ExprPtr& e : s.inits)
    if (e) visitExprs(*e, visit);
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (c) visitExprs(*c, visit);
  for (const StmtPtr& c : s.stmts)
    if (c) visitExprs(*c, visit);
}

}  // namespace culift
