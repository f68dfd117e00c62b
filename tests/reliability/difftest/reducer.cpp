#include "reducer.hpp"

#include <set>

#include "type_rules.hpp"

namespace culift::rel {
namespace {

void exprSlots(GExprPtr& e, std::vector<GExprPtr*>& out) {
  if (!e || e->frozen) return;
  out.push_back(&e);
  for (GExprPtr& a : e->args) exprSlots(a, out);
}

void stmtSlots(std::vector<GStmtPtr>& block, std::vector<std::pair<std::vector<GStmtPtr>*, std::size_t>>& stmts,
               std::vector<GExprPtr*>& exprs) {
  for (std::size_t k = 0; k < block.size(); ++k) {
    stmts.emplace_back(&block, k);
    GStmt& s = *block[k];
    exprSlots(s.a, exprs);
    exprSlots(s.b, exprs);
    exprSlots(s.cond, exprs);
    for (GExprPtr& a : s.args) exprSlots(a, exprs);
    stmtSlots(s.body, stmts, exprs);
    stmtSlots(s.orelse, stmts, exprs);
    for (GCase& c : s.cases) stmtSlots(c.body, stmts, exprs);
  }
}

bool exprUses(const GExpr& e, int var) {
  if ((e.kind == GExprKind::Var || e.kind == GExprKind::Index || e.kind == GExprKind::Call ||
       e.kind == GExprKind::Field || e.kind == GExprKind::Method || e.kind == GExprKind::StructVal) &&
      e.var == var)
    return true;
  if (e.kind == GExprKind::Call && e.outVar == var) return true;
  for (const GExprPtr& a : e.args)
    if (exprUses(*a, var)) return true;
  return false;
}

// Statements whose `var` is the variable they declare (not one they read or write).
bool declares(const GStmt& s) {
  switch (s.kind) {
    case GStmtKind::Decl:
    case GStmtKind::ArrayDecl:
    case GStmtKind::For:
    case GStmtKind::While:
    case GStmtKind::DoWhile:
    case GStmtKind::RefDecl:
    case GStmtKind::RangeFor:
    case GStmtKind::Lambda:
    case GStmtKind::StructDecl:
    case GStmtKind::StructArrayDecl: return true;
    default: return false;
  }
}

bool stmtUses(const GStmt& s, int var, const GStmt* except) {
  if (&s != except) {
    if (s.var == var && !declares(s)) return true;
    if (s.target == var) return true;  // a reference's referent, a range for's array
  }
  for (const GExprPtr* e : {&s.a, &s.b, &s.cond})
    if (*e && exprUses(**e, var)) return true;
  for (const GExprPtr& a : s.args)
    if (exprUses(*a, var)) return true;
  for (const auto* block : {&s.body, &s.orelse})
    for (const GStmtPtr& c : *block)
      if (stmtUses(*c, var, except)) return true;
  for (const GCase& c : s.cases)
    for (const GStmtPtr& b : c.body)
      if (stmtUses(*b, var, except)) return true;
  return false;
}

void callees(const GExpr& e, std::set<std::string>& out) {
  if (e.kind == GExprKind::Call || e.kind == GExprKind::Clamp || e.kind == GExprKind::StructCall) out.insert(e.callee);
  for (const GExprPtr& a : e.args) callees(*a, out);
}
void callees(const GStmt& s, std::set<std::string>& out) {
  for (const GExprPtr* e : {&s.a, &s.b, &s.cond})
    if (*e) callees(**e, out);
  for (const GExprPtr& a : s.args) callees(*a, out);
  for (const auto* block : {&s.body, &s.orelse})
    for (const GStmtPtr& c : *block) callees(*c, out);
  for (const GCase& c : s.cases)
    for (const GStmtPtr& b : c.body) callees(*b, out);
}

// Deep copy, so a rejected candidate leaves the original untouched.
GExprPtr clone(const GExprPtr& e) {
  if (!e) return nullptr;
  if (e->frozen) return e;  // shared and never edited
  auto c = std::make_shared<GExpr>(*e);
  for (GExprPtr& a : c->args) a = clone(a);
  return c;
}
GStmtPtr clone(const GStmtPtr& s) {
  auto c = std::make_shared<GStmt>(*s);
  c->a = clone(s->a);
  c->b = clone(s->b);
  c->cond = clone(s->cond);
  for (GExprPtr& a : c->args) a = clone(a);
  for (GStmtPtr& b : c->body) b = clone(b);
  for (GStmtPtr& b : c->orelse) b = clone(b);
  for (GCase& k : c->cases)
    for (GStmtPtr& b : k.body) b = clone(b);
  return c;
}
GProgram clone(const GProgram& p) {
  GProgram c = p;
  for (GFunction& f : c.functions)
    for (GStmtPtr& s : f.body) s = clone(s);
  return c;
}

GExprPtr zeroOf(Scalar t) {
  auto e = std::make_shared<GExpr>();
  e->kind = GExprKind::Lit;
  e->type = t;
  e->bits = t == Scalar::Bool ? 0 : isFloat(t) ? bitsOfFloat(t, 0.0) : 0;
  return e;
}

bool containsJump(const std::vector<GStmtPtr>& block) {
  for (const GStmtPtr& s : block) {
    if (s->kind == GStmtKind::Break || s->kind == GStmtKind::Continue) return true;
    if (s->kind == GStmtKind::If && (containsJump(s->body) || containsJump(s->orelse))) return true;
  }
  return false;
}

}  // namespace

ReduceStats reduceProgram(Generated& program, const std::function<bool(const ProgramSpec&)>& stillFails,
                          unsigned maxAttempts) {
  ReduceStats stats;
  auto attempt = [&](GProgram candidate) {
    ++stats.attempts;
    ProgramSpec spec = program.spec;
    refreshSpec(candidate, spec);
    if (!stillFails(spec)) return false;
    program.tree = std::move(candidate);
    program.spec = std::move(spec);
    ++stats.accepted;
    return true;
  };

  bool progress = true;
  while (progress && stats.attempts < maxAttempts) {
    progress = false;
    // Unused helpers first: they cost nothing to check.
    {
      std::set<std::string> used;
      for (const GFunction& f : program.tree.functions)
        for (const GStmtPtr& s : f.body) callees(*s, used);
      for (const GStruct& st : program.tree.structs)  // (member functions call clamp helpers)
        for (const GFunction& m : st.methods)
          for (const GStmtPtr& s : m.body) callees(*s, used);
      GProgram c = clone(program.tree);
      const std::size_t before = c.functions.size();
      std::erase_if(c.functions, [&](const GFunction& f) { return !f.kernel && !used.count(f.name); });
      if (c.functions.size() != before && attempt(std::move(c))) progress = true;
    }
    // Statements, from the last one backwards (later statements depend on earlier ones).
    for (std::size_t fi = 0; fi < program.tree.functions.size() && stats.attempts < maxAttempts && !progress; ++fi) {
      GProgram c = clone(program.tree);
      GFunction& f = c.functions[fi];
      if (f.isClampHelper || f.isApplyHelper) continue;
      std::vector<std::pair<std::vector<GStmtPtr>*, std::size_t>> stmts;
      std::vector<GExprPtr*> exprs;
      stmtSlots(f.body, stmts, exprs);
      for (std::size_t n = stmts.size(); n-- > 0 && stats.attempts < maxAttempts;) {
        auto [block, index] = stmts[n];
        const GStmt& s = *(*block)[index];
        if (block == &f.body && index + 1 == f.body.size() && s.kind == GStmtKind::Return) continue;
        if (s.kind == GStmtKind::Decl || s.kind == GStmtKind::ArrayDecl || s.kind == GStmtKind::RefDecl ||
            s.kind == GStmtKind::Lambda || s.kind == GStmtKind::StructDecl || s.kind == GStmtKind::StructArrayDecl) {
          bool used = false;
          for (const GStmtPtr& t : f.body) used = used || stmtUses(*t, s.var, &s);
          if (used) continue;
        }
        if (s.kind == GStmtKind::Bindings) {  // declares every binding
          bool used = false;
          for (int b : s.params)
            for (const GStmtPtr& t : f.body) used = used || stmtUses(*t, b, &s);
          if (used) continue;
        }
        // Candidate 1: drop the statement. Candidate 2: an if (or if constexpr) replaced by its then-branch.
        GProgram d = clone(program.tree);
        std::vector<std::pair<std::vector<GStmtPtr>*, std::size_t>> ds;
        std::vector<GExprPtr*> de;
        stmtSlots(d.functions[fi].body, ds, de);
        auto [dblock, dindex] = ds[n];
        GStmtPtr removed = (*dblock)[dindex];
        dblock->erase(dblock->begin() + static_cast<long>(dindex));
        if (attempt(d)) {
          progress = true;
          break;
        }
        if ((removed->kind == GStmtKind::If || removed->kind == GStmtKind::IfConstexpr) && !removed->body.empty()) {
          GProgram h = clone(program.tree);
          std::vector<std::pair<std::vector<GStmtPtr>*, std::size_t>> hs;
          std::vector<GExprPtr*> he;
          stmtSlots(h.functions[fi].body, hs, he);
          auto [hblock, hindex] = hs[n];
          GStmtPtr ifs = (*hblock)[hindex];
          hblock->erase(hblock->begin() + static_cast<long>(hindex));
          hblock->insert(hblock->begin() + static_cast<long>(hindex), ifs->body.begin(), ifs->body.end());
          if (!containsJump(ifs->body) && attempt(h)) {
            progress = true;
            break;
          }
        }
      }
    }
    if (progress) continue;
    // Expressions: zero literals, then operands of the same type.
    for (std::size_t fi = 0; fi < program.tree.functions.size() && stats.attempts < maxAttempts && !progress; ++fi) {
      if (program.tree.functions[fi].isClampHelper || program.tree.functions[fi].isApplyHelper) continue;
      std::vector<std::pair<std::vector<GStmtPtr>*, std::size_t>> stmts;
      std::vector<GExprPtr*> exprs;
      stmtSlots(program.tree.functions[fi].body, stmts, exprs);
      const GFunction& f = program.tree.functions[fi];
      // A whole array (an array argument of a helper) is no scalar: never replaced, nor a replacement.
      auto wholeArray = [&](const GExpr& x) {
        return x.kind == GExprKind::Var && x.var >= 0 && f.vars[static_cast<std::size_t>(x.var)].isArray;
      };
      for (std::size_t n = 0; n < exprs.size() && stats.attempts < maxAttempts && !progress; ++n) {
        const GExpr& e = **exprs[n];
        // (Struct values stay: a literal of their type would not be one.)
        if (e.kind == GExprKind::Lit || e.type == Scalar::Void || wholeArray(e)) continue;
        std::vector<GExprPtr> replacements;
        replacements.push_back(zeroOf(e.type));
        for (const GExprPtr& a : e.args)
          if (a->type == e.type && !a->frozen && !wholeArray(*a)) replacements.push_back(a);
        for (const GExprPtr& rep : replacements) {
          GProgram c = clone(program.tree);
          std::vector<std::pair<std::vector<GStmtPtr>*, std::size_t>> cs;
          std::vector<GExprPtr*> ce;
          stmtSlots(c.functions[fi].body, cs, ce);
          *ce[n] = clone(rep);
          if (attempt(std::move(c))) {
            progress = true;
            break;
          }
        }
      }
    }
  }
  return stats;
}

}  // namespace culift::rel
