#include "culift/runtime/registry.hpp"

#include <algorithm>
#include <mutex>

namespace culift::rt {
namespace {
std::mutex& registryMutex() {
  static std::mutex m;
  return m;
}
std::vector<std::shared_ptr<const Module>>& registry() {
  static std::vector<std::shared_ptr<const Module>> modules;
  return modules;
}
}  // namespace

void registerModule(std::shared_ptr<const Module> module) {
  if (!module) return;
  std::lock_guard lock(registryMutex());
  auto& r = registry();
  if (std::find(r.begin(), r.end(), module) == r.end()) r.push_back(std::move(module));
}

std::vector<std::shared_ptr<const Module>> registeredModules() {
  std::lock_guard lock(registryMutex());
  return registry();
}

void clearRegisteredModules() {
  std::lock_guard lock(registryMutex());
  registry().clear();
}

}  // namespace culift::rt
