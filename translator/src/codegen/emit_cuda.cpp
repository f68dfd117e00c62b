// PLACEHOLDER — replaced by the real CUDA emitter.
#include "culift/codegen.hpp"
namespace culift {
std::string emitCuda(const Module&, const EmitOptions&) { return {}; }
}  // namespace culift
