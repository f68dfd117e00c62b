// Files for tests that run culift's programs: a scratch directory removed with the test, and
// whole-file reads and writes (bytes as they are).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

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
