#include "plan.hpp"

namespace culift::codegen::plans {

PlanEntry makeEntry(const Function& fn, const std::string& suffix, LoopPlan plan, unsigned rows, unsigned cols,
                    unsigned threads, bool squareOnly) {
  PlanEntry e;
  e.kernelName = fn.name + suffix;
  e.plan = plan;
  e.tileRows = rows;
  e.tileCols = cols;
  e.threads = threads;
  e.squareOnly = squareOnly;
  e.mapping = blockMapping(plan);
  return e;
}

const Unit& unit(LoopPlan plan) {
  switch (plan) {
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) \
  case LoopPlan::Name: return k##Name;
#include "culift/ast/plans.def"
  }
  return kPerThread;
}

}  // namespace culift::codegen::plans
