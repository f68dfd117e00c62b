// Per thread: one thread per output, the loop as written. Every kernel has this plan's two entries
// (kernel_wrapper.cpp: 32-bit and 64-bit indices); it is the kernel's plan when no other applies,
// and it adds no entry of its own.
#include <stdexcept>

#include "plan.hpp"

namespace culift::codegen {
namespace {

plans::Decision decide(const Function&, const KernelAnalysis&) { return plans::Decision::skip(); }

void emit(const Module&, const Function&, const PlanEntry& entry, CodeWriter&) {
  throw std::logic_error("a per-thread plan has no extra entry (" + entry.kernelName + ")");
}

}  // namespace

const plans::Unit plans::kPerThread{LoopPlan::PerThread, decide, emit};

}  // namespace culift::codegen
