// Statements: declarations, loops, branches, switch fall-through, local arrays, calls between
// lifted functions, and the #line directives that map emitted lines to the user's.
#include "emit_test_support.hpp"
#include "nvrtc_compile.hpp"

using namespace culift;
using namespace culift::test;

namespace {

// int Control(const float* a, float* o, int n): one of every statement kind.
Function controlFunction() {
  FunctionBuilder fb("Control", val(Scalar::I32), 10);
  const VarId a = fb.param("a", Type::pointer(Scalar::F32, true));
  const VarId o = fb.param("o", Type::pointer(Scalar::F32, false));
  const VarId n = fb.param("n", val(Scalar::I32));
  const VarId acc = fb.local("acc", val(Scalar::I32));
  const VarId k = fb.local("k", val(Scalar::I32));
  const VarId p = fb.local("p", val(Scalar::I32));
  const VarId q = fb.local("q", val(Scalar::I32));
  const VarId m = fb.local("m", val(Scalar::I32));
  const VarId w = fb.local("w", val(Scalar::F64));
  const VarId t = fb.local("t", Type::array(Scalar::F32, 4, true));
  const VarId z = fb.local("z", Type::array(Scalar::I32, 3));
  const VarId u = fb.local("u", Type::array(Scalar::F64, 2));
  const VarId sum = fb.local("sum", val(Scalar::F32));
  const Function& f = fb.fn;

  auto body = stmts(
      decl(acc, lit(0), 11), decl(sum, cast(lit(0), Scalar::F32), 12),
      declArray(t, exprs(flit(1), flit(0.5)), true, 13), declArray(z, {}, true, 14), declArray(u, {}, false, 15),
      // for (int k = 0; k < n; ++k) { if (k == 3) continue; if (k > 7) break; sum += a[k]; }
      forStmt(decl(k, lit(0), 16), bin(BinaryOp::Lt, ref(f, k), ref(f, n)), incdec(IncDecOp::PreInc, ref(f, k)),
              block(stmts(ifStmt(bin(BinaryOp::Eq, ref(f, k), lit(3)), stmt(StmtKind::Continue, 17), nullptr, 17),
                          ifStmt(bin(BinaryOp::Gt, ref(f, k), lit(7)), stmt(StmtKind::Break, 18), nullptr, 18),
                          exprStmt(compound(BinaryOp::Add, ref(f, sum), sub(f, a, ref(f, k)), Scalar::F32), 19)),
                    16),
              16),
      // for (int p = 0, q = n; p < q; ++p, --q) acc += p * q;
      forStmt(group(stmts(decl(p, lit(0), 20), decl(q, ref(f, n), 20)), 20), bin(BinaryOp::Lt, ref(f, p), ref(f, q)),
              comma(incdec(IncDecOp::PreInc, ref(f, p)), incdec(IncDecOp::PreDec, ref(f, q))),
              exprStmt(compound(BinaryOp::Add, ref(f, acc), bin(BinaryOp::Mul, ref(f, p), ref(f, q)), Scalar::I32), 21),
              20),
      // for (int m = 0, double w = 1;...) cannot be written in C++; the AST may still group
      // declarations of two types (a front end lowering): hoisted into a block.
      forStmt(group(stmts(decl(m, lit(0), 22), decl(w, flit(1, Scalar::F64), 22)), 22),
              bin(BinaryOp::Lt, ref(f, m), lit(2)), incdec(IncDecOp::PostInc, ref(f, m)),
              exprStmt(assign(sub(f, u, ref(f, m)), ref(f, w)), 23), 22),
      whileStmt(bin(BinaryOp::Gt, ref(f, acc), lit(100)),
                exprStmt(compound(BinaryOp::Div, ref(f, acc), lit(2), Scalar::I32), 25), 24),
      doWhile(block(stmts(exprStmt(incdec(IncDecOp::PostInc, ref(f, acc)), 27)), 26),
              bin(BinaryOp::Lt, ref(f, acc), lit(0)), 26),
      switchStmt(ref(f, n),
                 stmts(caseLabel(1, 29), exprStmt(compound(BinaryOp::Add, ref(f, acc), lit(1), Scalar::I32), 30),
                       caseLabel(2, 31),  // falls through from case 1
                       exprStmt(compound(BinaryOp::Add, ref(f, acc), lit(2), Scalar::I32), 32),
                       stmt(StmtKind::Break, 33), caseLabel(static_cast<std::uint64_t>(-4), 34),
                       block(stmts(exprStmt(assign(ref(f, acc), lit(0)), 35)), 34), stmt(StmtKind::Default, 36)),
                 28),
      ifStmt(bin(BinaryOp::Lt, ref(f, n), lit(0)), exprStmt(assign(ref(f, acc), lit(-1)), 38),
             ifStmt(bin(BinaryOp::Eq, ref(f, n), lit(0)), exprStmt(assign(ref(f, acc), lit(0)), 39),
                    block(stmts(exprStmt(assign(sub(f, o, lit(0)), ref(f, sum)), 40),
                                exprStmt(assign(sub(f, z, lit(2)), cast(sub(f, t, lit(1)), Scalar::I32)), 41)),
                          40),
                    39),
             37),
      stmt(StmtKind::Null, 42), block(stmts(decl(k, lit(5), 43)), 43),
      ret(bin(BinaryOp::Add, ref(f, acc), sub(f, z, lit(2))), 44));
  return fb.take(std::move(body));
}

}  // namespace

TEST_CASE("statements print as the AST says, with braces and C++ scoping", "[codegen][stmt]") {
  Module module{"control.cpp", {}, {}};
  module.functions.push_back(controlFunction());
  const std::string src = emitCuda(module, EmitOptions{false});
  requireLinesInOrder(src, {
                               "__device__ int Control(const float* a, float* o, int n) {",
                               "int acc = 0;",
                               "float sum = culift_zero(0.0f);",
                               "const float t[4] = {1.0f, 0.5f};",
                               "int z[3] = {};",
                               "double u[2];",
                               "for (int k = 0; k < n; ++k) {",
                               "if (k == 3) {",
                               "continue;",
                               "}",
                               "if (k > 7) {",
                               "break;",
                               "}",
                               "sum += a[k];",
                               "}",
                               "for (int p = 0, q = n; p < q; ++p, --q) {",
                               "acc += p * q;",
                               "}",
                               "{",
                               "int m = 0;",
                               "double w = 1.0;",
                               "for (; m < 2; m++) {",
                               "u[m] = w;",
                               "}",
                               "}",
                               "while (acc > 100) {",
                               "acc /= 2;",
                               "}",
                               "do {",
                               "acc++;",
                               "} while (acc < 0);",
                               "switch (n) {",
                               "case 1:",
                               "acc += 1;",
                               "case 2:",
                               "acc += 2;",
                               "break;",
                               "case -4:",
                               "{",
                               "acc = 0;",
                               "}",
                               "default:",
                               ";",
                               "}",
                               "if (n < 0) {",
                               "acc = -1;",
                               "} else if (n == 0) {",
                               "acc = 0;",
                               "} else {",
                               "o[0] = sum;",
                               "z[2] = (int)t[1];",
                               "}",
                               ";",
                               "{",
                               "int k = 5;",
                               "}",
                               "return acc + z[2];",
                               "}",
                           });
  requireCompiles(src, "control.cu");
}

TEST_CASE("lifted callees are emitted before their callers", "[codegen][call]") {
  Module module{"calls.cpp", {}, {}};
  // Caller first in module order, callee second: the emitter must reorder.
  FunctionBuilder caller("Caller", val(Scalar::F32), 1);
  const VarId x = caller.param("x", Type::pointer(Scalar::F32, true));
  const VarId i = caller.param("i", val(Scalar::I32));
  const Function& cf = caller.fn;
  auto callerBody = stmts(ret(bin(BinaryOp::Mul, call(1, Scalar::F32, exprs(ref(cf, x), ref(cf, i))), flit(2)), 2));
  module.functions.push_back(caller.take(std::move(callerBody)));
  classifyByHand(module.functions[0], IndexMode::Grid1D, {1});

  FunctionBuilder helper("Twice", val(Scalar::F32), 5);
  const VarId hx = helper.param("v", Type::pointer(Scalar::F32, true));
  const VarId hi = helper.param("k", val(Scalar::I32));
  const Function& hf = helper.fn;
  auto helperBody = stmts(ret(bin(BinaryOp::Add, sub(hf, hx, ref(hf, hi)), sub(hf, hx, ref(hf, hi))), 6));
  module.functions.push_back(helper.take(std::move(helperBody)));
  module.functions[1].deviceName = "culift_Twice";  // the device name, not the user's name, is called

  const std::string src = emitCuda(module, EmitOptions{false});
  requireLinesInOrder(
      src,
      {
          "// Twice, from kernels.cpp:5: DeviceOnly, a __device__ function for other lifted functions",
          "__device__ float culift_Twice(const float* v, int k) {",
          "return v[k] + v[k];",
          "__device__ float Caller(const float* x, int i) {",
          "return culift_Twice(x, i) * 2.0f;",
          "extern \"C\" __global__ void Caller_kernel(const float* __restrict__ x, float* __restrict__ out, long long n_i) {",
      });
  CHECK(src.find("Twice_kernel") == std::string::npos);  // a device-only function has no wrapper
  requireCompiles(src, "calls.cu");
}

TEST_CASE("a local named like a called function is renamed so the call still resolves", "[codegen][names]") {
  Module module{"names.cpp", {}, {}};
  FunctionBuilder fb("Shadow", val(Scalar::F32), 1);
  const VarId x = fb.param("x", val(Scalar::F32));
  const VarId local = fb.local("sqrtf", val(Scalar::F32));
  const Function& f = fb.fn;
  auto body = stmts(decl(local, ref(f, x), 2), ret(math(MathFn::Sqrt, Scalar::F32, exprs(ref(f, local))), 3));
  module.functions.push_back(fb.take(std::move(body)));
  const std::string src = emitCuda(module, EmitOptions{false});
  requireLinesInOrder(src, {"float sqrtf_1 = x;", "return sqrtf(sqrtf_1);"});
  requireCompiles(src, "names.cu");
}

TEST_CASE("#line directives map statements to the user's lines and generated code to itself", "[codegen][line]") {
  Module module{"src/control.cpp", {}, {}};
  module.functions.push_back(controlFunction());
  classifyByHand(module.functions[0], IndexMode::DeviceOnly);
  FunctionBuilder fb("Row", val(Scalar::F32), 50);
  const VarId x = fb.param("x", Type::pointer(Scalar::F32, true));
  const VarId i = fb.param("i", val(Scalar::I32));
  const Function& f = fb.fn;
  auto body = stmts(ret(sub(f, x, ref(f, i)), 51));
  module.functions.push_back(fb.take(std::move(body)));
  classifyByHand(module.functions[1], IndexMode::Grid1D, {1});

  const std::string src = emitCuda(module, EmitOptions{true});
  const std::vector<std::string> lines = linesOf(src);
  // Replay the directives: every statement line must map to the line its AST node says.
  std::string file = cudaFileName(module);
  unsigned mapped = 1;
  bool sawUser = false, sawResync = false;
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& text = lines[k];
    if (text.rfind("#line ", 0) == 0) {
      const size_t q = text.find('"');
      mapped = static_cast<unsigned>(std::stoul(text.substr(6, q - 7)));
      file = text.substr(q + 1, text.size() - q - 2);
      if (file == "control.cu") {
        sawResync = true;
        CHECK(mapped == k + 2);  // the line after the directive is line k + 2 (1-based)
      }
      continue;
    }
    const std::string t = trim(text);
    if (t == "int acc = 0;") CHECK((file == "kernels.cpp" && mapped == 11));
    if (t == "acc += 2;") CHECK((file == "kernels.cpp" && mapped == 32));
    if (t == "} else if (n == 0) {") CHECK((file == "kernels.cpp" && mapped == 39));
    if (t == "return x[i];") CHECK((file == "kernels.cpp" && mapped == 51));
    if (t.rfind("__device__ float Row(", 0) == 0) CHECK((file == "kernels.cpp" && mapped == 50));
    if (t.rfind("extern \"C\"", 0) == 0) CHECK((file == "control.cu" && mapped == k + 1));
    sawUser = sawUser || file == "kernels.cpp";
    ++mapped;
  }
  CHECK(sawUser);
  CHECK(sawResync);
  CHECK(cudaFileName(module) == "control.cu");
  // Consecutive source lines need no directive between them.
  CHECK(src.find("#line 12 ") == std::string::npos);

  const std::string plain = emitCuda(module, EmitOptions{false});
  CHECK(plain.find("#line") == std::string::npos);
  requireCompiles(src, "control.cu");
}
