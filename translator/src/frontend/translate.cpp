// PLACEHOLDER — replaced by the real Clang front end.
#include "culift/translate.hpp"
namespace culift {
std::string TranslateResult::formatDiagnostics(bool color) const {
  std::string s;
  for (const Diagnostic& d : diagnostics) s += d.format(color);
  return s;
}
TranslateResult translate(const std::string&, const TranslateOptions&) { return {}; }
TranslateResult translateSource(const std::string&, const std::string&, const TranslateOptions&) { return {}; }
std::string findClangResourceDir() { return "/usr/lib/llvm-16/lib/clang/16"; }
}  // namespace culift
