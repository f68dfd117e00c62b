// PLACEHOLDER — replaced by the real pseudocode writer.
#include "culift/codegen.hpp"
namespace culift {
std::string writePseudocode(const Module&, const Function&) { return {}; }
}  // namespace culift
