// Line-oriented text output that knows which source line each emitted line maps to, and
// writes #line directives only where the mapping would otherwise be wrong: so NVRTC errors
// and cuda-gdb point at the user's C++ lines, and generated code at the generated file.
//
// It also owns the indentation of what is written structurally: say() writes a line at the
// current depth, open() a `head {` whose Scope closes it (`}`) one level out when it ends, so a
// fragment of code is written the same wherever it is nested. line(indent, ...) writes at an
// explicit depth (the AST printer's statements, given the writer's depth()).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "culift/ast/source.hpp"

namespace culift::codegen {

class CodeWriter {
 public:
  // `generatedName`: the name the emitted text itself goes by ("pearson_metrics.cu"); it is
  // also the name NVRTC should be given, so lines before the first directive map to it.
  CodeWriter(bool lineDirectives, std::string generatedName, std::string fallbackUserFile);

  // One line of text at `indent` levels (two spaces each). `text` holds no newline.
  void line(unsigned indent, std::string_view text);
  void blank() { line(0, {}); }
  // Several lines at once (ends with a newline).
  void lines(std::string_view text);

  // The next line comes from the user's `loc`.
  void mapToUser(const SourceLoc& loc);
  // The next line is generated code: map it to its own line in the emitted file.
  void mapToGenerated();

  std::string take() { return std::move(out_); }

  // ---- structured output ----
  // An open block: its lines are one level deeper than its head; it writes its closing line one
  // level out when it ends (or at close()).
  class [[nodiscard]] Scope {
   public:
    Scope(Scope&& other) noexcept : out_(other.out_), tail_(std::move(other.tail_)) { other.out_ = nullptr; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Scope& operator=(Scope&&) = delete;
    ~Scope() { close(); }
    // `} else {`: a line one level out, the block staying open.
    void otherwise(std::string_view between = "} else {");
    void close();

   private:
    friend class CodeWriter;
    Scope(CodeWriter& out, std::optional<std::string> tail) : out_(&out), tail_(std::move(tail)) {}
    CodeWriter* out_;
    std::optional<std::string> tail_;  // nothing: no closing line
  };
  unsigned depth() const { return depth_; }
  // One line at the current depth.
  void say(std::string_view text) { line(depth_, text); }
  // `head {` (head "" writes a bare `{`; a comment follows the brace as `  // comment`), then one
  // level deeper until the scope ends with `}`.
  Scope open(std::string_view head, std::string_view comment = {});
  // One level deeper without a line of its own (a fragment written inside a block the caller
  // wrote itself).
  Scope indented() {
    ++depth_;
    return Scope(*this, std::nullopt);
  }

 private:
  void directive(unsigned line, const std::string& file);

  bool enabled_;
  std::string generatedName_;
  std::string fallbackUserFile_;
  std::string out_;
  unsigned physicalLine_ = 1;  // the number the next line has in the emitted text
  std::string mappedFile_;     // the file and line the compiler takes the next line for
  unsigned mappedLine_ = 1;
  unsigned depth_ = 0;  // of say() and open()
};

}  // namespace culift::codegen
