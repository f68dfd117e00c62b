#include "code_writer.hpp"

namespace culift::codegen {

CodeWriter::CodeWriter(bool lineDirectives, std::string generatedName, std::string fallbackUserFile)
    : enabled_(lineDirectives),
      generatedName_(std::move(generatedName)),
      fallbackUserFile_(std::move(fallbackUserFile)),
      mappedFile_(generatedName_) {}

void CodeWriter::line(unsigned indent, std::string_view text) {
  if (!text.empty()) out_.append(2 * indent, ' ');
  out_ += text;
  out_ += '\n';
  ++physicalLine_;
  ++mappedLine_;
}

void CodeWriter::lines(std::string_view text) {
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    line(0, text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

void CodeWriter::directive(unsigned line, const std::string& file) {
  std::string escaped;
  for (char c : file) {
    if (c == '\\' || c == '"') escaped += '\\';
    escaped += c;
  }
  out_ += "#line " + std::to_string(line) + " \"" + escaped + "\"\n";
  ++physicalLine_;
  mappedFile_ = file;
  mappedLine_ = line;
}

void CodeWriter::mapToUser(const SourceLoc& loc) {
  if (!enabled_ || !loc.valid()) return;
  const std::string& file = loc.file.empty() ? fallbackUserFile_ : loc.file;
  if (file == mappedFile_ && loc.line == mappedLine_) return;
  directive(loc.line, file);
}

void CodeWriter::mapToGenerated() {
  if (!enabled_) return;
  if (mappedFile_ == generatedName_ && mappedLine_ == physicalLine_) return;
  // The directive occupies one line itself: the line after it is physicalLine_ + 1.
  directive(physicalLine_ + 1, generatedName_);
}

CodeWriter::Scope CodeWriter::open(std::string_view head, std::string_view comment) {
  std::string text = head.empty() ? std::string("{") : std::string(head) + " {";
  if (!comment.empty()) text += "  // " + std::string(comment);
  say(text);
  ++depth_;
  return Scope(*this, std::string("}"));
}

void CodeWriter::Scope::otherwise(std::string_view between) {
  if (!out_) return;
  --out_->depth_;
  out_->say(between);
  ++out_->depth_;
}

void CodeWriter::Scope::close() {
  if (!out_) return;
  --out_->depth_;
  if (tail_) out_->say(*tail_);
  out_ = nullptr;
}

}  // namespace culift::codegen
