// The pseudocode view of a lifted function: its typed AST printed as C++ with every implicit
// conversion written out as a cast, headed by its index mode and parameter roles.
#include "ast_printer.hpp"
#include "code_writer.hpp"
#include "culift/codegen.hpp"
#include "kernel_wrapper.hpp"

namespace culift {
namespace {

std::string parameterRole(const Function& fn, unsigned p) {
  for (size_t a = 0; a < fn.indexParams.size(); ++a)
    if (fn.indexParams[a] == static_cast<int>(p)) return "index, axis " + std::to_string(a);
  for (const KernelParam& kp : fn.signature.params)
    if (kp.userParam == static_cast<int>(p)) return std::string(roleName(fn, kp));
  return fn.vars[p].type.isPointer() ? (fn.vars[p].type.constElements ? "input array" : "output array") : "scalar";
}

}  // namespace

std::string writePseudocode(const Module& module, const Function& function) {
  codegen::CodeWriter out(false, {}, {});
  codegen::AstPrinter printer(module, function, codegen::Flavor::Pseudocode, out);
  out.line(0, "// " + function.name + ": " + std::string(name(function.mode)) +
                  (function.isKernel() ? ", " + codegen::describeKernel(function) : std::string()));
  if (function.numParams) {
    std::string roles = "// parameters:";
    for (unsigned p = 0; p < function.numParams; ++p)
      roles += (p ? ", " : " ") + printer.varName(p) + " (" + parameterRole(function, p) + ")";
    out.line(0, roles);
  }
  out.line(0, std::string(spelling(function.returnType.scalar)) + " " + function.name + "(" + printer.parameterList() +
                  ") {");
  printer.printBody(1);
  out.line(0, "}");
  return out.take();
}

}  // namespace culift
