// Files for tests that run culift's programs: a scratch directory removed with the test,
// whole-file reads and writes (bytes as they are), and a program run with its output in files.
#pragma once

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

namespace culift::test {

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

// llvm::sys::ExecuteAndWait, with the files stdout and stderr are redirected to emptied first:
// it opens them for writing without truncating them, so a run whose output is shorter than an
// earlier run's into the same file would leave that output's end behind its own.
inline int executeAndWait(llvm::StringRef program, llvm::ArrayRef<llvm::StringRef> args,
                          std::optional<llvm::ArrayRef<llvm::StringRef>> env,
                          llvm::ArrayRef<std::optional<llvm::StringRef>> redirects, unsigned seconds = 0,
                          std::string* error = nullptr) {
  for (std::size_t fd = 1; fd < redirects.size(); ++fd) {
    if (redirects[fd] && !redirects[fd]->empty()) llvm::sys::fs::remove(*redirects[fd]);
  }
  return llvm::sys::ExecuteAndWait(program, args, env, redirects, seconds, 0, error);
}

// A fresh directory under the system's temporary one, named after `prefix`, removed with its
// contents when the object goes.
class TempDir {
 public:
  explicit TempDir(const char* prefix = "culift-test") {
    llvm::SmallString<128> path;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory(prefix, path));
    path_ = std::string(path.str());
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace culift::test
