// A shared library opened with dlopen. The runtime loads NVRTC and the CUDA driver this way so
// binaries start on machines that have neither. Libraries stay loaded for the process (see the
// destructor).
#pragma once

#include <string>
#include <vector>

namespace culift::rt::detail {

class DynamicLibrary {
 public:
  DynamicLibrary() = default;
  // Tries each candidate in order; the first that loads wins. On failure `whyNot` lists every
  // candidate with dlerror()'s reason.
  static DynamicLibrary openFirst(const std::vector<std::string>& candidates, std::string* whyNot);

  DynamicLibrary(DynamicLibrary&& other) noexcept;
  DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;
  ~DynamicLibrary();

  explicit operator bool() const { return handle_ != nullptr; }
  const std::string& path() const { return path_; }  // the file the loader resolved
  void* symbol(const char* name) const;              // null when absent

  // Typed lookup: `fn` is left null when the library does not export `name`.
  template <typename Fn> bool resolve(Fn*& fn, const char* name) const {
    fn = reinterpret_cast<Fn*>(symbol(name));
    return fn != nullptr;
  }

 private:
  void* handle_ = nullptr;
  std::string path_;
};

}  // namespace culift::rt::detail
