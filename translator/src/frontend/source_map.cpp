#include "source_map.hpp"

#include "clang/Lex/Lexer.h"
#include "llvm/Support/MemoryBuffer.h"

namespace culift::frontend {

std::string SourceMap::displayName(llvm::StringRef clangName) const {
  if (clangName == mainPath_) return mainDisplayName_;
  return clangName.str();
}

void SourceMap::remember(const clang::SourceManager& sm, clang::FileID id, const std::string& name) {
  if (texts_.count(name) || id.isInvalid()) return;
  bool invalid = false;
  llvm::StringRef text = sm.getBufferData(id, &invalid);
  if (!invalid) texts_[name] = text.str();
}

SourceLoc SourceMap::loc(const clang::SourceManager& sm, clang::SourceLocation l) {
  SourceLoc out;
  if (l.isInvalid()) return out;
  clang::SourceLocation expansion = sm.getExpansionLoc(l);
  clang::PresumedLoc p = sm.getPresumedLoc(expansion);
  if (p.isInvalid()) return out;
  out.file = displayName(p.getFilename());
  out.line = p.getLine();
  out.column = p.getColumn();
  remember(sm, sm.getFileID(expansion), out.file);
  return out;
}

SourceRange SourceMap::range(const clang::SourceManager& sm, const clang::LangOptions& lang, clang::SourceRange r) {
  SourceRange out;
  out.begin = loc(sm, r.getBegin());
  clang::SourceLocation end = sm.getExpansionLoc(r.getEnd());
  if (end.isValid()) {
    clang::PresumedLoc p = sm.getPresumedLoc(end);
    if (p.isValid()) {
      unsigned length = clang::Lexer::MeasureTokenLength(end, sm, lang);
      out.endLine = p.getLine();
      out.endColumn = p.getColumn() + (length ? length - 1 : 0);
    }
  }
  if (out.endLine == 0) {
    out.endLine = out.begin.line;
    out.endColumn = out.begin.column;
  }
  return out;
}

std::string SourceMap::line(const std::string& file, unsigned lineNo) {
  auto it = texts_.find(file);
  if (it == texts_.end()) {
    auto buffer = llvm::MemoryBuffer::getFile(file == mainDisplayName_ ? mainPath_ : file);
    if (!buffer) return {};
    it = texts_.emplace(file, (*buffer)->getBuffer().str()).first;
  }
  const std::string& text = it->second;
  size_t start = 0;
  for (unsigned l = 1; l < lineNo; ++l) {
    start = text.find('\n', start);
    if (start == std::string::npos) return {};
    ++start;
  }
  size_t end = text.find('\n', start);
  std::string out = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

}  // namespace culift::frontend
