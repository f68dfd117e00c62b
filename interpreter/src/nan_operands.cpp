// differentNaNsMet (culift/interpreter.hpp): a flag per thread, set where a + or * meets two NaNs
// of different bits (ops.hpp, firstNaN), a rare path.
#include "culift/interpreter.hpp"
#include "ops.hpp"

namespace culift::interp {
namespace {
thread_local bool met = false;
}  // namespace

bool differentNaNsMet() { return met; }
void resetDifferentNaNsMet() { met = false; }

namespace exec {
void noteNaNOperands(std::uint64_t aBits, std::uint64_t bBits) {
  if (aBits != bBits) met = true;
}
}  // namespace exec

}  // namespace culift::interp
