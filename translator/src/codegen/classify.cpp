// PLACEHOLDER — replaced by the real classifier.
#include "culift/codegen.hpp"
namespace culift {
void classify(Module&, DiagnosticSink&) {}
}  // namespace culift
