// The native leg: many generated programs in one C++ file, compiled once per optimization
// level into a shared library with the host compiler, loaded with dlopen and called through
// one uniform entry point per program.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "program.hpp"

namespace culift::rel {

// `void <name>_entry(void* const* args, void* result)`: args[p] points at parameter p's value
// (scalars) or is the array itself; the result's bytes are copied to `result`.
using NativeEntry = void (*)(void* const* args, void* result);

struct NativeBuild {
  std::string optimization = "-O2";  // "-O0" or "-O2"
  bool ubsan = false;                // also check the generated code for undefined behaviour
};

// The host compiler's command: $CULIFT_HOST_CXX, else clang++-16, else g++ (found on PATH); empty
// when none.
std::string hostCompiler();

// The C++ file holding every program of the batch and its entry point.
std::string nativeBatchSource(const std::vector<const ProgramSpec*>& programs);

class NativeLibrary {
 public:
  ~NativeLibrary();
  NativeLibrary(const NativeLibrary&) = delete;
  NativeLibrary& operator=(const NativeLibrary&) = delete;
  NativeEntry entry(const std::string& programName) const;  // null when missing
  // A UBSan build's report of the last entry called ("batch.cpp:12:7: runtime error: signed
  // integer overflow: ..."), empty when it ran without undefined behaviour (or no UBSan).
  std::string undefinedBehaviour() const;
  const std::string& path() const { return path_; }

  // Loads a shared library built by compileNative. Null (and `error`) when dlopen fails.
  static std::unique_ptr<NativeLibrary> open(const std::string& path, std::string* error);

 private:
  NativeLibrary(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  void* handle_;
  std::string path_;
};

// A host compiler run in flight; wait() collects it.
struct PendingCompile {
  std::string output;   // the shared library
  std::string logPath;  // compiler messages
  int pid = 0;
  std::string startError;
};

// Starts compiling `sourcePath` (already written) into `<sourcePath>.<level>.so`.
PendingCompile startNativeCompile(const std::string& sourcePath, const NativeBuild& build,
                                  const std::string& includeDir);
// Waits for it; returns the loaded library, or null with the compiler's messages in `error`.
std::unique_ptr<NativeLibrary> finishNativeCompile(PendingCompile& pending, std::string* error);

}  // namespace culift::rel
