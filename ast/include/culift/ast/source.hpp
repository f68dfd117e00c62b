// Source locations and the one diagnostic type every module reports user-facing errors with.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace culift {

// A position in the user's source. Lines and columns count from 1; 0 means unknown.
struct SourceLoc {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;

  bool valid() const { return line != 0; }
};

struct SourceRange {
  SourceLoc begin;
  unsigned endLine = 0;    // same file as begin
  unsigned endColumn = 0;  // inclusive
};

enum class Severity : std::uint8_t { Note, Warning, Error };

// A clang-style diagnostic: `file:line:col: error: message`, the source line, a caret, a hint.
struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
  std::string sourceLine;  // the text of loc's line, if known
  std::string hint;        // optional "note: ..." line

  // The full clang-style text, ending in a newline. With `color`, ANSI colours as clang uses.
  std::string format(bool color = false) const;
};

// Collects diagnostics; the single sink user-facing errors go through.
class DiagnosticSink {
 public:
  // Gives the text of a source line, so diagnostics reported without one can show it.
  using LineLookup = std::function<std::string(const std::string& file, unsigned line)>;
  void setLineLookup(LineLookup lookup) { lookup_ = std::move(lookup); }

  void report(Diagnostic d);
  void error(SourceLoc loc, std::string message, std::string hint = {});
  void warning(SourceLoc loc, std::string message, std::string hint = {});
  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  bool hasErrors() const { return errors_ != 0; }
  unsigned errorCount() const { return errors_; }
  std::string formatAll(bool color = false) const;

 private:
  std::vector<Diagnostic> diags_;
  unsigned errors_ = 0;
  LineLookup lookup_;
};

}  // namespace culift
