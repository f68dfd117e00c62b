#include "cli_pick.hpp"

namespace culift::cli {

const Function* pickedFunction(const TranslateResult& result, const std::string& name, std::string& why) {
  const std::vector<std::string> none;
  const std::vector<std::string>& named = result.picked.empty() ? none : result.picked.front();
  if (named.size() == 1)
    if (const Function* fn = result.module->find(named.front())) return fn;
  if (named.size() > 1) {
    std::string list;
    for (const std::string& n : named) list += (list.empty() ? "" : ", ") + n;
    why = "'" + name + "' is a function template with " + std::to_string(named.size()) + " instances (" + list +
          "): name one, e.g. --function " + named.front();
    return nullptr;
  }
  why = "no function '" + name + "' in '" + result.module->sourcePath + "'";
  return nullptr;
}

}  // namespace culift::cli
