// Regression files: a reduced failing program as plain C++ (it compiles as it is), with the
// kernel's signature and the failing arguments in `// culift-...:` comment lines, so a test
// can replay it through the same oracle.
#pragma once

#include <optional>
#include <string>

#include "program.hpp"

namespace culift::rel {

// The file's text. `title` says what it guards; `detail` what differed when it was found.
std::string writeRegression(const ProgramSpec& program, const std::string& title, const std::string& detail);
// Parses a file written by writeRegression (null, with `error`, when it is malformed).
std::optional<ProgramSpec> readRegression(const std::string& text, const std::string& name, std::string* error);

std::string scalarTag(Scalar s);  // "i32", "f64", "bool", "void"
std::optional<Scalar> scalarFromTag(const std::string& tag);

}  // namespace culift::rel
