#include "command_line.hpp"

#include <algorithm>
#include <string>

#include "culift/version.hpp"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

namespace culift::cli {

void hideForeignOptions(std::initializer_list<const llvm::cl::OptionCategory*> own) {
  for (auto& [name, option] : llvm::cl::getRegisteredOptions(llvm::cl::SubCommand::getTopLevel())) {
    if (name == "help" || name == "version") continue;
    const bool ours = std::any_of(option->Categories.begin(), option->Categories.end(), [&](const auto* category) {
      return std::find(own.begin(), own.end(), category) != own.end();
    });
    if (!ours) option->setHiddenFlag(llvm::cl::ReallyHidden);
  }
}

void setVersionPrinter(const char* program) {
  llvm::cl::SetVersionPrinter([name = std::string(program)](llvm::raw_ostream& os) {
    os << name << " " << kVersion << " (LLVM/Clang " << LLVM_VERSION_MAJOR << ")\n"
       << "License: " << kLicense << "\n";
  });
}

}  // namespace culift::cli
