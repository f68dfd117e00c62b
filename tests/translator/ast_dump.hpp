// A compact one-line S-expression print of the typed AST, so tests can state exactly which
// nodes, types and casts the front end produced: `(Mul f64 (Cast f64 (Var f)) (Float f64 1))`.
#pragma once

#include <string>

#include "culift/ast/module.hpp"

namespace culift::test {

std::string dump(const Function& f, const Expr& e);
std::string dump(const Function& f, const Stmt& s);
std::string shortName(const Type& t);  // i32, f32*, const f32*, f32[6]

}  // namespace culift::test
