// A loop plan is one unit, in one file of this folder, listed once in ast's plans.def: its
// legality and analysis (does the plan apply to this kernel, and with which entries — or why
// not, as a vectorizer's missed-optimization remark), and the emitter of its entries. The
// planner (loop_plan.cpp) asks every plan in plans.def's order; the emitter (plan_entries.cpp)
// hands each entry to its plan's unit.
#pragma once

#include <string>
#include <vector>

#include "analysis.hpp"
#include "culift/ast/module.hpp"

namespace culift::codegen {

class CodeWriter;

namespace plans {

// A plan's answer for one kernel.
struct Decision {
  bool applies = false;
  // Why it does not apply, as a person reads it in `culift ast` ("" when the plan does not concern
  // kernels of this kind: a 1-D plan for a 2-D kernel, a plan the kernel did not opt into).
  std::string reason;
  std::vector<PlanEntry> entries;       // fastest first
  std::vector<VarId> reassociatedSums;  // the sums a reassociating plan adds to in its own order

  static Decision skip() { return {}; }  // does not concern the kernel
  static Decision no(std::string why) { return {false, std::move(why), {}, {}}; }
  static Decision yes(std::vector<PlanEntry> entries, std::vector<VarId> sums = {}) {
    return {true, {}, std::move(entries), std::move(sums)};
  }
};

// An entry of `fn` for plan `plan`: named fn.name + suffix, mapping its blocks as plans.def says.
PlanEntry makeEntry(const Function& fn, const std::string& suffix, LoopPlan plan, unsigned rows, unsigned cols,
                    unsigned threads, bool squareOnly);

struct Unit {
  LoopPlan plan;
  // Legality: the plan and its entries for `fn`, or the reason it does not apply. Called only for
  // kernels with a loop the shared analysis could lift (analysis.loop), unless `anyBody`. A plan
  // that applies may give a reason too: a remark `culift ast` prints beside its name (a stencil's
  // halo).
  Decision (*decide)(const Function& fn, const KernelAnalysis& analysis);
  // Codegen: writes `entry` of `fn` (one of those decide gave). Throws std::logic_error when the
  // plan no longer holds for the function (a planner bug).
  void (*emit)(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out);
  // Asked for every kernel, whatever its body (analysis.loop may be empty): a plan that does not
  // lift the one counted loop of the shared analysis (stencils, loop-free or with window loops).
  bool anyBody = false;
  // Asked for a loop that writes arrays (LoopAnalysis::writes: a scan). The planner asks no other
  // plan that lifts the loop for such a kernel.
  bool takesLoopWrites = false;
};

// One Unit per line of plans.def, each defined in its plan's file.
#define CULIFT_LOOP_PLAN(Name, name, Mapping, fileId) extern const Unit k##Name;
#include "culift/ast/plans.def"

// The unit of `plan`.
const Unit& unit(LoopPlan plan);

}  // namespace plans
}  // namespace culift::codegen
