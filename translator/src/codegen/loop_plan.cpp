// The loop planner's plan step: for every kernel, the shared analysis (plans/analysis.cpp), then
// each plan of plans.def in its order of preference (plans/<plan>.cpp); the first that applies is
// the kernel's plan, and the reasons of those before it that did not are its remark
// (Function::loopPlanReason, shown by `culift ast`).
#include "culift/ast/stack.hpp"
#include "culift/codegen.hpp"
#include "plans/ast_match.hpp"
#include "plans/plan.hpp"
#include "race_analysis.hpp"

namespace culift {

static void planLoopsHere(Module& module);

// Why a kernel's loop keeps running per thread because of references ("" when none is involved):
// a write through a reference reaches a variable the analysis would not see written, so a
// function that declares one, or passes arguments to a callee's reference parameters, is left as
// written.
static std::string referenceReason(const Module& module, const Function& f) {
  for (const Var& v : f.vars)
    if (v.isReference()) return "the function uses the reference '" + v.name + "'";
  std::string reason;
  visitExprs(*f.body, [&](const Expr& e) {
    if (e.kind == ExprKind::Call && e.callee < module.functions.size() && reason.empty()) {
      const Function& callee = module.functions[e.callee];
      for (unsigned p = 0; p < callee.numParams; ++p)
        if (callee.vars[p].isReference())
          reason = "a call passes '" + callee.name + "' a reference ('" + callee.vars[p].name + "')";
    }
    return reason.empty();
  });
  return reason;
}

// The function holding the loop that a call of `f`'s body reaches (directly or through further
// calls), or null: the analysis looks at the kernel's own statements only.
static const Function* loopInCallee(const Module& module, const Function& f, std::vector<bool>& seen) {
  const Function* found = nullptr;
  visitExprs(*f.body, [&](const Expr& e) {
    if (e.kind == ExprKind::Call && e.callee < module.functions.size() && !seen[e.callee]) {
      seen[e.callee] = true;
      const Function& callee = module.functions[e.callee];
      if (callee.body && codegen::hasLoop(*callee.body)) found = &callee;
      else if (callee.body) found = loopInCallee(module, callee, seen);
    }
    return found == nullptr;
  });
  return found;
}

void planLoops(Module& module) {
  // The analysis recurses as deep as the user nested the body: on culift's stack.
  runOnCuliftStack([&] { planLoopsHere(module); });
}

// Why no plan may lift the loop of `f`, whatever the plan ("" when none of these holds).
static std::string sharedReason(const Module& module, const Function& f) {
  if (std::string why = referenceReason(module, f); !why.empty()) return why;
  if (f.resultRecord) return "it returns a struct (the entries store one value per output)";
  if (codegen::usesAtomics(module, f))
    return "it updates memory with atomics (the entries stage what one output reads and writes)";
  return {};
}

void planLoop(const Module& module, Function& f) {
  f.loopPlan = LoopPlan::PerThread;
  f.loopPlanReason.clear();
  f.planEntries.clear();
  f.reassociatedSums.clear();
  if (!f.isKernel() || !f.body) return;
  const codegen::KernelAnalysis analysis = codegen::analyzeKernel(f);
  if (std::string why = sharedReason(module, f); !why.empty()) {
    f.loopPlanReason = analysis.loop ? std::move(why) : analysis.loopReason;
    return;
  }
  static constexpr LoopPlan kOrder[] = {
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) LoopPlan::Name,
#include "culift/ast/plans.def"
  };
  // A loop that writes arrays is one only the plans that take such loops lift.
  const bool loopWrites = analysis.loop && !analysis.loop->writes.empty();
  for (LoopPlan p : kOrder) {
    const codegen::plans::Unit& unit = codegen::plans::unit(p);
    if (!analysis.loop && !unit.anyBody) continue;
    if (loopWrites && !unit.takesLoopWrites && !unit.anyBody) continue;
    codegen::plans::Decision d = unit.decide(f, analysis);
    if (!d.applies) {
      if (!d.reason.empty()) f.loopPlanReason = std::move(d.reason);
      continue;
    }
    f.loopPlan = p;
    if (!d.reason.empty()) f.loopPlanReason = std::move(d.reason);
    f.planEntries = std::move(d.entries);
    f.reassociatedSums = std::move(d.reassociatedSums);
    return;
  }
  if (loopWrites && f.loopPlanReason.empty()) f.loopPlanReason = analysis.loop->writesReason;
  // Without a loop to lift, and no plan for the body as it is: why the loop runs per thread.
  if (!analysis.loop && f.loopPlanReason.empty()) {
    f.loopPlanReason = analysis.loopReason;
    std::vector<bool> seen(module.functions.size());
    if (f.loopPlanReason.empty() && !codegen::hasLoop(*f.body))
      if (const Function* callee = loopInCallee(module, f, seen))
        f.loopPlanReason = "the loop is in '" + callee->name +
                           "', which the planner does not see through: write it in the kernel's body to plan it";
  }
}

void planLoopsHere(Module& module) {
  for (Function& f : module.functions) planLoop(module, f);
}

}  // namespace culift
