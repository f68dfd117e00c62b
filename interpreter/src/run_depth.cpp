// How deep a run of each function nests on the stack (compiler.hpp: runDepths), so that
// Program runs the deep ones on culift's stack and the shallow rest on the caller's.
#include <algorithm>

#include "compiler.hpp"

namespace culift::interp::exec {
namespace {

// A call costs its frame (invoke keeps 2 KB of locals inline) on top of the callee's nodes:
// about as much stack as this many expression levels.
constexpr unsigned kCallLevels = 16;

unsigned add(unsigned a, unsigned b) { return a > kUnboundedDepth - b ? kUnboundedDepth : a + b; }

struct CallSite {
  FuncId callee;
  unsigned depth;
};

// The deepest node of one function's body and the depth of each call it makes.
struct BodyWalk {
  unsigned deepest = 0;
  std::vector<CallSite> calls;

  void expr(const Expr& e, unsigned depth) {
    deepest = std::max(deepest, depth);
    if (e.kind == ExprKind::Call) calls.push_back({e.callee, depth});
    for (const ExprPtr& o : e.operands)
      if (o) expr(*o, depth + 1);
  }
  void stmt(const Stmt& s, unsigned depth) {
    deepest = std::max(deepest, depth);
    for (const Expr* e : {s.cond.get(), s.expr.get()})
      if (e) expr(*e, depth + 1);
    for (const ExprPtr& e : s.inits)
      if (e) expr(*e, depth + 1);
    for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
      if (c) stmt(*c, depth + 1);
    for (const StmtPtr& c : s.stmts)
      if (c) stmt(*c, depth + 1);
  }
};

}  // namespace

std::vector<unsigned> runDepths(const Module& module) {
  const std::size_t n = module.functions.size();
  std::vector<BodyWalk> walks(n);
  for (std::size_t k = 0; k < n; ++k)
    if (module.functions[k].body) walks[k].stmt(*module.functions[k].body, 1);

  enum class Mark { None, Active, Done };
  std::vector<Mark> marks(n, Mark::None);
  std::vector<unsigned> depth(n, 0);
  auto visit = [&](auto&& self, std::size_t k) -> unsigned {
    if (marks[k] == Mark::Active) return kUnboundedDepth;  // recursion
    if (marks[k] == Mark::Done) return depth[k];
    marks[k] = Mark::Active;
    unsigned d = walks[k].deepest;
    for (const CallSite& c : walks[k].calls)
      d = std::max(d, c.callee < n ? add(c.depth + kCallLevels, self(self, c.callee)) : kUnboundedDepth);
    marks[k] = Mark::Done;
    return depth[k] = d;
  };
  for (std::size_t k = 0; k < n; ++k) visit(visit, k);
  return depth;
}

}  // namespace culift::interp::exec
