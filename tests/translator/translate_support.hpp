// Helpers for front-end tests: translate a snippet (checked by the verifier), find a function,
// print its body (culift/ast/dump.hpp's one-line form).
#pragma once

#include <string>

#include "catch.hpp"
#include "culift/ast/dump.hpp"
#include "culift/translate.hpp"

namespace culift::test {

// Translates `code` (the annotation header is included first) as a virtual file, with the
// verifier on: a malformed tree is an error of the translation.
inline TranslateResult lift(const std::string& code, TranslateOptions options = {}) {
  options.verify = true;
  return translateSource("#include <culift/annotate.hpp>\n" + code, "snippet.cpp", options);
}

// The function named `name` of a successful translation (fails the test otherwise).
inline const Function& function(const TranslateResult& r, const std::string& name) {
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function* f = r.module->find(name);
  REQUIRE(f != nullptr);
  return *f;
}

// The body of `name` as one line.
inline std::string body(const TranslateResult& r, const std::string& name) {
  const Function& f = function(r, name);
  REQUIRE(f.body);
  return ast::dumpLine(f, *f.body);
}

// The declaration statement of the local `name` in `f` (fails the test if there is none).
inline const Stmt& declOf(const Function& f, const std::string& name) {
  const Stmt* found = nullptr;
  auto walk = [&](auto& self, const Stmt* s) -> void {
    if (!s || found) return;
    if (s->kind == StmtKind::Decl && f.vars[s->var].name == name) found = s;
    for (const StmtPtr& c : s->stmts) self(self, c.get());
    self(self, s->init.get());
    self(self, s->then.get());
    self(self, s->otherwise.get());
    self(self, s->body.get());
  };
  walk(walk, f.body.get());
  REQUIRE(found != nullptr);
  return *found;
}

}  // namespace culift::test
