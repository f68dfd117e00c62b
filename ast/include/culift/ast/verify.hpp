// The verifier: one central check that a module's typed AST is well formed, as every stage
// after the front end assumes (the emitter, the interpreter, the loop planner, module files).
// It states the rules constructs.def's comments give each node kind, so a front-end bug shows
// as a violation naming the node and the rule rather than as wrong code or a crash later on.
// The interpreter's compile and the module-file reader run it first; the front end runs it after
// lifting in debug builds and tests (TranslateOptions::verify, CULIFT_VERIFY_AST=1).
#pragma once

#include <string>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::ast {

// One broken rule: where, which node, what it holds and the rule it breaks.
struct Violation {
  SourceRange range;     // the node's (or the function's, where the node has none)
  std::string function;  // the function it is in ("" for the module itself)
  std::string node;      // the node kind ("Binary", "Decl"), or "Function", "Var", "KernelParam"
  std::string found;     // "operands of '+' have types float and int"
  std::string rule;      // "both operands of an arithmetic binary have the result's type"

  // "kernels.cpp:3:5: in 'f': Binary: operands of '+' have types float and int; the rule is:
  // both operands ...", the location as diagnostics print it.
  std::string format() const;
};

struct VerifyOptions {
  // Every node has a source range (the front end's promise: implicit nodes carry the range of
  // the construct they came from). Off for trees built by hand, which tests leave unlocated.
  bool requireRanges = false;
};

// Every violation of the module's rules, in the order the walk meets them (functions in order,
// each function's variables, signature and then its body in source order); empty when the
// module is well formed. Never fails on a malformed tree (out-of-range ids, missing children):
// those are violations too. Runs on culift's stack (culift/ast/stack.hpp).
std::vector<Violation> verify(const Module& module, const VerifyOptions& options = {});

// The violations one per line (each ending in a newline).
std::string format(const std::vector<Violation>& violations);

}  // namespace culift::ast
