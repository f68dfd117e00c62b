// Writes a kernel's plan entries: each through the unit of its plan (plans/<plan>.cpp).
#include "plan_entries.hpp"

#include "culift/ast/stack.hpp"
#include "kernel_wrapper.hpp"
#include "plans/plan.hpp"

namespace culift::codegen {

void emitPlanEntries(const Module& module, const Function& fn, CodeWriter& out) {
  if (fn.planEntries.empty()) return;
  // The statements are printed as deep as the user nested them: on culift's stack.
  runOnCuliftStack([&] {
    for (const PlanEntry& e : fn.planEntries) {
      out.blank();
      openEntryGuard(out, e.kernelName);
      plans::unit(e.plan).emit(module, fn, e, out);
      closeEntryGuard(out, e.kernelName);
    }
  });
}

}  // namespace culift::codegen
