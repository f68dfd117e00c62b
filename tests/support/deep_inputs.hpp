// Inputs nested far beyond what culift accepts, and inputs nested just inside its limits
// (1000 levels of expressions, 1000 of statements), as C++ source of one annotated function
// `int f(int a)`. The front end, the emitter and the interpreter recurse once per level: these
// are the inputs that find a pass whose stack runs out before a limit reports them.
#pragma once

#include <string>
#include <vector>

namespace culift::test {

struct DeepInput {
  std::string name;  // a file name for it, "long_sum.cpp"
  std::string source;
  unsigned line = 0;  // rejected inputs: the line the error names
  std::string error;  // rejected inputs: the error message, or the part of it that matters
  int result = 0;     // accepted inputs: f(3)
};

namespace detail {
inline std::string repeat(const std::string& s, unsigned n) {
  std::string out;
  out.reserve(s.size() * n);
  for (unsigned k = 0; k < n; ++k) out += s;
  return out;
}
inline std::string kernel(const std::string& body) {
  return "#include <culift/annotate.hpp>\nCULIFT_KERNEL int f(int a) {\n" + body + "\n}\n";
}
inline std::string elseIfChain(unsigned n) {  // f(a) = a + 1 for a < n
  std::string body = "  if (a == 0) a = 1;\n";
  for (unsigned k = 1; k < n; ++k)
    body += "  else if (a == " + std::to_string(k) + ") a = " + std::to_string(k + 1) + ";\n";
  return body + "  return a;";
}
}  // namespace detail

// Rejected with a located error: culift's nesting limits, or Clang's bracket limit (256).
inline std::vector<DeepInput> rejectedDeepInputs() {
  using detail::kernel;
  using detail::repeat;
  const std::string expression = "expression is nested too deeply (more than 1000 levels)";
  const std::string statement = "statement is nested too deeply (more than 1000 levels)";
  const std::string brackets = "bracket nesting level exceeded maximum of 256";
  return {
      {"long_sum.cpp", kernel("  return a" + repeat(" + a", 20000) + ";"), 3, expression},
      {"deep_parens.cpp", kernel("  return " + repeat("(", 5000) + "a" + repeat(")", 5000) + ";"), 3, brackets},
      {"deep_blocks.cpp", kernel(repeat("{", 5000) + "a += 1;" + repeat("}", 5000) + "\n  return a;"), 3, brackets},
      {"deep_calls.cpp",
       "#include <culift/annotate.hpp>\nint g(int x) { return x; }\nCULIFT_KERNEL int f(int a) {\n  return " +
           repeat("g(", 5000) + "a" + repeat(")", 5000) + ";\n}\n",
       4, brackets},
      {"deep_conditionals.cpp", kernel("  return " + repeat("a ? a : ", 5000) + "a;"), 3, expression},
      {"deep_unary.cpp", kernel("  return " + repeat("- ", 5000) + "a;"), 3, expression},
      {"deep_assignments.cpp", kernel("  int b = 0;\n  b = " + repeat("b = ", 5000) + "a;\n  return b;"), 4,
       expression},
      {"deep_ifs.cpp", kernel("  " + repeat("if (a) ", 5000) + "a += 1;\n  return a;"), 3, statement},
      {"else_if_chain.cpp", kernel(detail::elseIfChain(5000)), 1001, statement},
  };
}

// Translated, emitted and interpreted: the deepest of each shape the limits let through.
inline std::vector<DeepInput> acceptedDeepInputs() {
  using detail::kernel;
  using detail::repeat;
  return {
      {"sum_900.cpp", kernel("  return a" + repeat(" + a", 900) + ";"), 0, "", 901 * 3},
      {"conditionals_900.cpp", kernel("  return " + repeat("a > 2 ? a : ", 900) + "0;"), 0, "", 3},
      {"unary_900.cpp", kernel("  return " + repeat("- ", 900) + "a;"), 0, "", 3},
      {"ifs_900_around_a_sum_800.cpp",
       kernel("  " + repeat("if (a) ", 900) + "a = a" + repeat(" + a", 800) + ";\n  return a;"), 0, "", 801 * 3},
      {"else_if_chain_900.cpp", kernel(detail::elseIfChain(900)), 0, "", 4},
  };
}

}  // namespace culift::test
