// Printing the typed AST as it is, node by node (not as code: culift's pseudocode writer does
// that): the contributor's view of what the front end built (`culift ast --dump`), and the
// compact form tests state lifted trees in.
#pragma once

#include <string>

#include "culift/ast/module.hpp"

namespace culift::ast {

// An indented tree, one node a line: its kind, operator or name, value, type and source range
// (line:col-line:col, or "<no range>"), children indented below. A function's header names its
// result, index mode and variables (parameters first, each with its type and binding). Safe on
// malformed trees: an id out of range prints as "?", a missing child as "<missing>".
std::string dumpTree(const Module& module);
std::string dumpTree(const Module& module, const Function& fn);

// One line, as an S-expression: `(* f64 (Cast f64 (Var f)) (Float f64 1))`, `{ (Decl s f32 ...)
// (Return (Var s)) }` (a declaration group is `{| ... |}`). No source ranges: what tests compare.
std::string dumpLine(const Function& fn, const Expr& e);
std::string dumpLine(const Function& fn, const Stmt& s);

// The short spelling of a type both forms use: i32, f32*, const f32*, f32[6], void.
std::string shortName(const Type& t);

}  // namespace culift::ast
