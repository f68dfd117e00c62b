// Scalar arguments of `culift run` and `culift launch` from JSON: a number, "nan", "inf", "-inf"
// or true/false, as a value of the parameter's type. docs/cli.md states the rule; values the type
// cannot hold are refused, never wrapped or rounded to infinity.
#pragma once

#include <optional>
#include <string>

#include "culift/ast/type.hpp"
#include "culift/runtime/scalar_value.hpp"
#include "llvm/Support/JSON.h"

namespace culift::cli {

// `j` as a value of `type`, or nothing with `why`. Integers take exact integers in their range
// (also written as 3e9 or 2.0) and true/false; floating types take any number, rounded to
// nearest, and the NaN and infinity strings; bool takes true/false, 0 and 1. Refused: an integer
// out of the type's range, a fraction or NaN or infinity for an integer, a finite number beyond
// float's or double's largest finite value, a string other than the NaN and infinity ones.
std::optional<rt::ScalarValue> scalarFromJson(const llvm::json::Value& j, Scalar type, std::string& why);

}  // namespace culift::cli
