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
    if (handle_) dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_) dlclose(handle_);
}

void* DynamicLibrary::symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

}  // namespace culift::rt::detail
