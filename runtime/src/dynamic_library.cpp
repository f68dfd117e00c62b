#include "dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <utility>

namespace culift::rt::detail {

DynamicLibrary DynamicLibrary::openFirst(const std::vector<std::string>& candidates, std::string* whyNot) {
  std::string reasons;
  for (const auto& name : candidates) {
    if (name.empty()) continue;
    void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* err = dlerror();
      reasons += "  " + name + ": " + (err ? err : "not loadable") + "\n";
      continue;
    }
    DynamicLibrary lib;
    lib.handle_ = handle;
    lib.path_ = name;
    // The loader's link map names the file it actually resolved (soname searches included).
    link_map* map = nullptr;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) lib.path_ = map->l_name;
    return lib;
  }
  if (whyNot) *whyNot = reasons;
  return {};
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
  if (this != &other) {
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

// Never dlclose: NVRTC and the CUDA driver keep process-wide state (their own C++ runtime's
// allocations, the driver's contexts), and unloading them under live state is unsafe. dlopen
// counts references, so loading again later is cheap.
DynamicLibrary::~DynamicLibrary() = default;

void* DynamicLibrary::symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

}  // namespace culift::rt::detail
