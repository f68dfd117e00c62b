#include "clang_diagnostics.hpp"

#include "llvm/ADT/SmallString.h"

namespace culift::frontend {

void ClangDiagnosticCollector::HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) {
  clang::DiagnosticConsumer::HandleDiagnostic(level, info);
  Diagnostic d;
  switch (level) {
    case clang::DiagnosticsEngine::Ignored:
    case clang::DiagnosticsEngine::Remark: return;
    case clang::DiagnosticsEngine::Note: d.severity = Severity::Note; break;
    case clang::DiagnosticsEngine::Warning: d.severity = Severity::Warning; break;
    case clang::DiagnosticsEngine::Error:
    case clang::DiagnosticsEngine::Fatal:
      d.severity = Severity::Error;
      sawError_ = true;
      break;
  }
  llvm::SmallString<256> message;
  info.FormatDiagnostic(message);
  d.message = message.str().str();
  if (info.hasSourceManager() && info.getLocation().isValid()) {
    d.loc = sources_.loc(info.getSourceManager(), info.getLocation());
    if (d.loc.valid()) d.sourceLine = sources_.line(d.loc.file, d.loc.line);
  }
  // The driver and the compiler each check the command line: a diagnostic of it (an unknown
  // warning option) arrives once per check. Say it once.
  if (!d.loc.valid()) {
    for (const Diagnostic& seen : diags_)
      if (!seen.loc.valid() && seen.severity == d.severity && seen.message == d.message) return;
  }
  diags_.push_back(std::move(d));
}

}  // namespace culift::frontend
