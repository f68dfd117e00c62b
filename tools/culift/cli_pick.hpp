// `--function NAME` for the verbs that run one function (`culift run`, `culift launch`): the
// lifted function the name picked, which may be a template instance (Clip_float, Clip<float>),
// or a template with one explicit instance.
#pragma once

#include <string>

#include "culift/translate.hpp"

namespace culift::cli {

// The function `name` (TranslateOptions::functions[0]) picked in a successful translation, or
// null with `why`: a template with several instances (they are listed), or none.
const Function* pickedFunction(const TranslateResult& result, const std::string& name, std::string& why);

}  // namespace culift::cli
