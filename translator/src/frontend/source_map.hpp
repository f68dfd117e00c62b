// Turns Clang source locations into culift SourceLocs (macro expansion sites, presumed file
// names as the user spelled them) and keeps the text of every file seen, so diagnostics can
// show the offending line even after the Clang AST is gone.
#pragma once

#include <map>
#include <string>

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "culift/ast/source.hpp"

namespace culift::frontend {

class SourceMap {
 public:
  // `mainPath` is the absolute path Clang sees; `mainDisplayName` is how the user named it.
  SourceMap(std::string mainPath, std::string mainDisplayName)
      : mainPath_(std::move(mainPath)), mainDisplayName_(std::move(mainDisplayName)) {}

  // Records the text of a file that Clang does not read from disk (the main file).
  void addText(const std::string& displayName, std::string text) { texts_[displayName] = std::move(text); }

  SourceLoc loc(const clang::SourceManager& sm, clang::SourceLocation l);
  SourceRange range(const clang::SourceManager& sm, const clang::LangOptions& lang, clang::SourceRange r);

  // The text of `line` in `file` (1-based), without the line break; "" if unknown.
  std::string line(const std::string& file, unsigned line);

  std::string displayName(llvm::StringRef clangName) const;

 private:
  void remember(const clang::SourceManager& sm, clang::FileID id, const std::string& name);

  std::string mainPath_, mainDisplayName_;
  std::map<std::string, std::string> texts_;
};

}  // namespace culift::frontend
