// Modules registered before an engine exists: Engine::tryCreate compiles them all up front
// (so compile errors and compile time show at start-up, not at the first launch).
#pragma once

#include <memory>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::rt {

void registerModule(std::shared_ptr<const Module> module);  // once per module; repeats are ignored
std::vector<std::shared_ptr<const Module>> registeredModules();
void clearRegisteredModules();

}  // namespace culift::rt
