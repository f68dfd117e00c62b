#include "culift/runtime/host_launchers.hpp"

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::rt {
namespace {

std::mutex& launchersMutex() {
  static std::mutex m;
  return m;
}
std::map<const Module*, std::vector<HostLauncher>>& launchers() {
  static std::map<const Module*, std::vector<HostLauncher>> byModule;
  return byModule;
}

}  // namespace

void registerHostLaunchers(const Module& module, std::span<const HostLauncher> list) {
  std::lock_guard lock(launchersMutex());
  launchers()[&module].assign(list.begin(), list.end());
}

const HostLauncher* findHostLauncher(const Module& module, const Function& fn, std::string_view* mismatch) {
  std::lock_guard lock(launchersMutex());
  auto it = launchers().find(&module);
  if (it == launchers().end()) return nullptr;
  for (const HostLauncher& l : it->second) {
    if (fn.name != l.kernel) continue;
    if (fn.signature.toString() == l.signature) return &l;
    if (mismatch) *mismatch = l.signature;
    return nullptr;
  }
  return nullptr;
}

}  // namespace culift::rt
