// Helpers for codegen unit tests: a module of small probe functions, each `return <expr>;`,
// and line-order checks on emitted text.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ast_builder.hpp"
#include "catch.hpp"
#include "culift/codegen.hpp"

namespace culift::test {

inline std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

inline std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// Each expected line must be (after trimming) equal to some emitted line, in this order.
inline void requireLinesInOrder(const std::string& text, const std::vector<std::string>& expected) {
  const std::vector<std::string> lines = linesOf(text);
  size_t next = 0;
  for (const std::string& want : expected) {
    bool found = false;
    while (next < lines.size() && !found) found = trim(lines[next++]) == want;
    INFO("emitted:\n" << text);
    INFO("missing, or out of order: " << want);
    REQUIRE(found);
  }
}

// Functions f0, f1, ... over a fixed parameter list, each `return <expr>;`.
class ExprProbe {
 public:
  // Parameter ids of every probe function.
  enum : VarId { x, d, n, u, l, ul, s, a, o, b, c, h };

  // Adds `T fK(...) { return make(fn); }` and returns K.
  size_t add(Scalar result, const std::function<ExprPtr(const Function&)>& make) {
    FunctionBuilder fb("f" + std::to_string(module.functions.size()), val(result));
    fb.param("x", val(Scalar::F32));
    fb.param("d", val(Scalar::F64));
    fb.param("n", val(Scalar::I32));
    fb.param("u", val(Scalar::U32));
    fb.param("l", val(Scalar::I64));
    fb.param("ul", val(Scalar::U64));
    fb.param("s", val(Scalar::I16));
    fb.param("a", Type::pointer(Scalar::F32, true));
    fb.param("o", Type::pointer(Scalar::F32, false));
    fb.param("b", val(Scalar::Bool));
    fb.param("c", val(Scalar::I8));
    fb.param("h", val(Scalar::U8));
    ExprPtr e = make(fb.fn);
    module.functions.push_back(fb.take(stmts(ret(std::move(e), 2))));
    return module.functions.size() - 1;
  }

  // The emitted statement of probe K ("return x + 1.0f;").
  std::string returnLine(size_t k) {
    if (emitted.empty()) emitted = emitCuda(module, EmitOptions{false});
    const std::vector<std::string> lines = linesOf(emitted);
    const std::string head = " f" + std::to_string(k) + "(";
    for (size_t i = 0; i + 1 < lines.size(); ++i)
      if (lines[i].rfind("__device__", 0) == 0 && lines[i].find(head) != std::string::npos) return trim(lines[i + 1]);
    return "<no function f" + std::to_string(k) + ">";
  }

  Module module{"probes.cpp", {}, {}};
  std::string emitted;
};

}  // namespace culift::test
