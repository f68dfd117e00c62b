// Prints a generated program tree as C++ source, with every guard in place.
#pragma once

#include <string>

#include "gen_ast.hpp"

namespace culift::rel {

std::string printProgram(const GProgram& program);
std::string typeName(Scalar s, bool alias);

}  // namespace culift::rel
