#include "culift/ast/source.hpp"

#include <string_view>

namespace culift {
namespace {
std::string_view severityWord(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "error";
}
std::string_view severityColor(Severity s) {
  switch (s) {
    case Severity::Note: return "\x1b[1;36m";
    case Severity::Warning: return "\x1b[1;35m";
    case Severity::Error: return "\x1b[1;31m";
  }
  return "";
}
}  // namespace

std::string Diagnostic::format(bool color) const {
  const std::string_view bold = color ? "\x1b[1m" : "";
  const std::string_view reset = color ? "\x1b[0m" : "";
  std::string out;
  out += bold;
  if (!loc.file.empty()) {
    out += loc.file;
    out += ':';
  }
  if (loc.valid()) {
    out += std::to_string(loc.line) + ":" + std::to_string(loc.column) + ":";
  }
  if (!loc.file.empty() || loc.valid()) out += ' ';
  out += reset;
  if (color) out += severityColor(severity);
  out += severityWord(severity);
  out += ": ";
  out += reset;
  out += bold;
  out += message;
  out += reset;
  out += '\n';
  if (!sourceLine.empty()) {
    out += sourceLine;
    out += '\n';
    // Keep tabs so the caret lines up under the column in a terminal.
    std::string caret;
    for (unsigned c = 1; c < loc.column && c - 1 < sourceLine.size(); ++c)
      caret += sourceLine[c - 1] == '\t' ? '\t' : ' ';
    out += caret;
    if (color) out += "\x1b[1;32m";
    out += '^';
    out += reset;
    out += '\n';
  }
  if (!hint.empty()) {
    if (color) out += severityColor(Severity::Note);
    out += "note: ";
    out += reset;
    out += hint;
    out += '\n';
  }
  return out;
}

void DiagnosticSink::report(Diagnostic d) {
  if (d.sourceLine.empty() && lookup_ && d.loc.valid()) d.sourceLine = lookup_(d.loc.file, d.loc.line);
  if (d.severity == Severity::Error) ++errors_;
  diags_.push_back(std::move(d));
}

void DiagnosticSink::error(SourceLoc loc, std::string message, std::string hint) {
  report(Diagnostic{Severity::Error, std::move(loc), std::move(message), {}, std::move(hint)});
}

void DiagnosticSink::warning(SourceLoc loc, std::string message, std::string hint) {
  report(Diagnostic{Severity::Warning, std::move(loc), std::move(message), {}, std::move(hint)});
}

std::string DiagnosticSink::formatAll(bool color) const {
  std::string out;
  for (const Diagnostic& d : diags_) out += d.format(color);
  return out;
}

}  // namespace culift
