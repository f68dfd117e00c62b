// Captures Clang's own diagnostics (syntax errors, missing includes, bad arguments) and turns
// them into culift Diagnostics, so the library never prints and the user sees them all.
#pragma once

#include <vector>

#include "clang/Basic/Diagnostic.h"
#include "culift/ast/source.hpp"
#include "source_map.hpp"

namespace culift::frontend {

class ClangDiagnosticCollector : public clang::DiagnosticConsumer {
 public:
  explicit ClangDiagnosticCollector(SourceMap& sources) : sources_(sources) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override;

  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  bool sawError() const { return sawError_; }

 private:
  SourceMap& sources_;
  std::vector<Diagnostic> diags_;
  bool sawError_ = false;
};

}  // namespace culift::frontend
