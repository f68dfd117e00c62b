// Line-oriented text output that knows which source line each emitted line maps to, and
// writes #line directives only where the mapping would otherwise be wrong: so NVRTC errors
// and cuda-gdb point at the user's C++ lines, and generated code at the generated file.
#pragma once

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

 private:
  void directive(unsigned line, const std::string& file);

  bool enabled_;
  std::string generatedName_;
  std::string fallbackUserFile_;
  std::string out_;
  unsigned physicalLine_ = 1;  // the number the next line has in the emitted text
  std::string mappedFile_;     // the file and line the compiler takes the next line for
  unsigned mappedLine_ = 1;
};

}  // namespace culift::codegen
