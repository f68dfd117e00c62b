// The CUDA C translation unit of a module: header, device prelude, every __device__ function
// (callees before callers), then one extern "C" __global__ wrapper per kernel.
#include <stdexcept>
#include <string>
#include <vector>

#include "ast_printer.hpp"
#include "code_writer.hpp"
#include "culift/ast/stack.hpp"
#include "culift/codegen.hpp"
#include "kernel_wrapper.hpp"
#include "plan_entries.hpp"

namespace culift {
namespace {

// std::min, std::max, std::clamp and std::abs with the exact C++ definitions: std::min(a, b)
// is `(b < a) ? b : a`, which differs from fminf for NaN and signed zeros.
constexpr std::string_view kDevicePrelude =
    "// ---- culift device prelude: std::min, std::max, std::clamp, std::abs as C++ defines them ----\n"
    "template <typename T> __device__ __forceinline__ T culift_min(T a, T b) { return (b < a) ? b : a; }\n"
    "template <typename T> __device__ __forceinline__ T culift_max(T a, T b) { return (a < b) ? b : a; }\n"
    "template <typename T> __device__ __forceinline__ T culift_clamp(T v, T lo, T hi) {\n"
    "  return (v < lo) ? lo : (hi < v) ? hi : v;\n"
    "}\n"
    "__device__ __forceinline__ int culift_abs(int v) { return abs(v); }\n"
    "__device__ __forceinline__ long long culift_abs(long long v) { return llabs(v); }\n"
    "__device__ __forceinline__ float culift_abs(float v) { return fabsf(v); }\n"
    "__device__ __forceinline__ double culift_abs(double v) { return fabs(v); }\n"
    "// std::atomic_ref's fetch_add and fetch_sub where CUDA has no atomic of the type: 64-bit signed\n"
    "// integers through the unsigned atomic (two's complement: the same bits), sub as an add of the\n"
    "// negation (for floating values a - v and a + -v round alike).\n"
    "__device__ __forceinline__ long long culift_atomic_add(long long* p, long long v) {\n"
    "  return (long long)atomicAdd((unsigned long long*)p, (unsigned long long)v);\n"
    "}\n"
    "__device__ __forceinline__ long long culift_atomic_sub(long long* p, long long v) {\n"
    "  return (long long)atomicAdd((unsigned long long*)p, 0ull - (unsigned long long)v);\n"
    "}\n"
    "__device__ __forceinline__ unsigned long long culift_atomic_sub(unsigned long long* p, unsigned long long v) {\n"
    "  return atomicAdd(p, 0ull - v);\n"
    "}\n"
    "__device__ __forceinline__ float culift_atomic_sub(float* p, float v) { return atomicAdd(p, -v); }\n"
    "__device__ __forceinline__ double culift_atomic_sub(double* p, double v) { return atomicAdd(p, -v); }\n"
    "// A value the device compiler cannot see through (an empty mov in inline PTX), which keeps it\n"
    "// from rules that do not hold. The device assembler removes the mov.\n"
    "__device__ __forceinline__ float culift_opaque(float v) {\n"
    "  float r;\n"
    "  asm(\"mov.b32 %0, %1;\" : \"=f\"(r) : \"f\"(v));\n"
    "  return r;\n"
    "}\n"
    "__device__ __forceinline__ double culift_opaque(double v) {\n"
    "  double r;\n"
    "  asm(\"mov.b64 %0, %1;\" : \"=d\"(r) : \"d\"(v));\n"
    "  return r;\n"
    "}\n"
    "__device__ __forceinline__ int culift_opaque(int v) {\n"
    "  int r;\n"
    "  asm(\"mov.b32 %0, %1;\" : \"=r\"(r) : \"r\"(v));\n"
    "  return r;\n"
    "}\n"
    "__device__ __forceinline__ unsigned int culift_opaque(unsigned int v) {\n"
    "  unsigned int r;\n"
    "  asm(\"mov.b32 %0, %1;\" : \"=r\"(r) : \"r\"(v));\n"
    "  return r;\n"
    "}\n"
    "__device__ __forceinline__ long long culift_opaque(long long v) {\n"
    "  long long r;\n"
    "  asm(\"mov.b64 %0, %1;\" : \"=l\"(r) : \"l\"(v));\n"
    "  return r;\n"
    "}\n"
    "__device__ __forceinline__ unsigned long long culift_opaque(unsigned long long v) {\n"
    "  unsigned long long r;\n"
    "  asm(\"mov.b64 %0, %1;\" : \"=l\"(r) : \"l\"(v));\n"
    "  return r;\n"
    "}\n"
    "// Floating zeros: with a constant zero z the compiler turns `(z < x) ? x : z` into max(x, z),\n"
    "// which orders -0.0 below +0.0 where C++ finds them equal.\n"
    "__device__ __forceinline__ float culift_zero(float z) { return culift_opaque(z); }\n"
    "__device__ __forceinline__ double culift_zero(double z) { return culift_opaque(z); }\n"
    "// Floating negation flips the sign bit in inline PTX (an integer xor): the device assembler\n"
    "// negated a value it knew to be zero as an integer, which gives +0.0 for -(+0.0).\n"
    "__device__ __forceinline__ float culift_neg(float v) {\n"
    "  float r;\n"
    "  asm(\"xor.b32 %0, %1, 0x80000000;\" : \"=f\"(r) : \"f\"(v));\n"
    "  return r;\n"
    "}\n"
    "__device__ __forceinline__ double culift_neg(double v) {\n"
    "  double r;\n"
    "  asm(\"xor.b64 %0, %1, 0x8000000000000000;\" : \"=d\"(r) : \"d\"(v));\n"
    "  return r;\n"
    "}\n"
    "// Floating divisors go through culift_opaque: the compiler takes a quotient of two numbers\n"
    "// for a number, which 0/0 is not.\n"
    "// An integer converted to a char or short: the arithmetic before stays in 32 bits, where the\n"
    "// compiler would narrow it to 16-bit operations it does not always get right.\n"
    "template <typename T, typename S> __device__ __forceinline__ T culift_narrow(S v) { return (T)culift_opaque(v); }\n"
    "// ++ and -- of a char or short, through culift_narrow.\n"
    "template <typename T> __device__ __forceinline__ T& culift_pre_inc(T& x) { return x = culift_narrow<T>(x + 1); }\n"
    "template <typename T> __device__ __forceinline__ T& culift_pre_dec(T& x) { return x = culift_narrow<T>(x - 1); }\n"
    "template <typename T> __device__ __forceinline__ T culift_post_inc(T& x) {\n"
    "  const T old = x;\n"
    "  x = culift_narrow<T>(x + 1);\n"
    "  return old;\n"
    "}\n"
    "template <typename T> __device__ __forceinline__ T culift_post_dec(T& x) {\n"
    "  const T old = x;\n"
    "  x = culift_narrow<T>(x - 1);\n"
    "  return old;\n"
    "}\n"
    "// N elements read or written as one aligned access (element-wise kernels)\n"
    "template <typename T, int N> struct alignas(sizeof(T) * N) culift_vec { T v[N]; };\n"
    "// ---- end of culift device prelude ----\n";

// assert(cond) as culift_assert(cond, "cond", "file", line): compiled out as NDEBUG does, unless
// the kernel is compiled with -DCULIFT_DEVICE_ASSERTS (EngineOptions::deviceAsserts). A failed
// device assert prints its condition and location, and the launch fails with CUDA_ERROR_ASSERT.
constexpr std::string_view kAssertPrelude =
    "// ---- culift device asserts: checked only when compiled with -DCULIFT_DEVICE_ASSERTS ----\n"
    "#ifdef CULIFT_DEVICE_ASSERTS\n"
    "#define culift_assert(cond, text, file, line) \\\n"
    "  ((cond) ? (void)0 : __assertfail(text, file, line, __func__, sizeof(char)))\n"
    "#else\n"
    "#define culift_assert(cond, text, file, line) ((void)0)\n"
    "#endif\n";

bool hasAssert(const Module& module) {
  bool found = false;
  for (const Function& fn : module.functions)
    if (fn.body && !found)
      visitExprs(*fn.body, [&](const Expr& e) {
        found = found || e.kind == ExprKind::Assert;
        return !found;
      });
  return found;
}

void collectCallees(const Stmt& s, std::vector<FuncId>& out) {
  visitExprs(s, [&](const Expr& e) {
    if (e.kind == ExprKind::Call) out.push_back(e.callee);
    return true;
  });
}

// Depth-first post-order over the call graph, starting from the functions in module order, so
// callees come first and unrelated functions keep their order.
std::vector<const Function*> calleesFirst(const Module& module) {
  const size_t n = module.functions.size();
  enum class Mark { None, Active, Done };
  std::vector<Mark> marks(n, Mark::None);
  std::vector<const Function*> order;
  auto visit = [&](auto&& self, FuncId id) -> void {
    if (id >= n || marks[id] != Mark::None) return;  // Active: recursion, rejected up front
    marks[id] = Mark::Active;
    std::vector<FuncId> callees;
    if (module.functions[id].body) collectCallees(*module.functions[id].body, callees);
    for (FuncId c : callees) self(self, c);
    marks[id] = Mark::Done;
    order.push_back(&module.functions[id]);
  };
  for (FuncId id = 0; id < n; ++id) visit(visit, id);
  return order;
}

std::string baseName(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string location(const Function& fn) {
  if (!fn.range.begin.valid()) return {};
  return ", from " + baseName(fn.range.begin.file) + ":" + std::to_string(fn.range.begin.line);
}

void emitDeviceFunction(const Module& module, const Function& fn, codegen::CodeWriter& out) {
  codegen::AstPrinter printer(module, fn, codegen::Flavor::Cuda, out);
  const std::string deviceName = fn.deviceName.empty() ? fn.name : fn.deviceName;
  out.line(0, "// " + fn.name + location(fn) + ": " + std::string(name(fn.mode)) +
                  (fn.isKernel() ? "" : ", a __device__ function for other lifted functions"));
  if (fn.isKernel()) out.line(0, "// " + codegen::describeKernel(fn));
  out.mapToUser(fn.range.begin);
  out.line(0, "__device__ " + std::string(spelling(fn.returnType.scalar)) + " " + deviceName + "(" +
                  printer.parameterList() + ") {");
  printer.printBody(1);
  out.line(0, "}");
}

}  // namespace

static std::string emitCudaHere(const Module& module, const EmitOptions& options);

std::string emitCudaFunction(const Module& module, const Function& function) {
  codegen::CodeWriter out(false, cudaFileName(module), module.sourcePath);
  // The walks below recurse as deep as the user nested the code: on culift's stack.
  runOnCuliftStack([&] {
    codegen::emitRecordTypes({&function}, out);
    emitDeviceFunction(module, function, out);
    if (function.isKernel()) {
      out.blank();
      codegen::emitKernelWrapper(function, out);
      codegen::emitPlanEntries(module, function, out);
    }
  });
  return out.take();
}

std::string cudaFileName(const Module& module) {
  std::string base = baseName(module.sourcePath);
  const size_t dot = base.find_last_of('.');
  if (dot != std::string::npos && dot != 0) base.resize(dot);
  if (base.empty()) base = "culift_module";
  return base + ".cu";
}

std::string emitCuda(const Module& module, const EmitOptions& options) {
  std::string cuda;
  // The walks below (callees, statements) recurse as deep as the user nested the code.
  runOnCuliftStack([&] { cuda = emitCudaHere(module, options); });
  return cuda;
}

std::string emitCudaHere(const Module& module, const EmitOptions& options) {
  codegen::CodeWriter out(options.lineDirectives, cudaFileName(module), module.sourcePath);
  out.line(0, "// Generated by culift " + std::string(kTranslatorVersion) + " from " +
                  (module.sourcePath.empty() ? std::string("<memory>") : module.sourcePath) +
                  ". Do not edit: change the C++ source and translate again.");
  out.blank();
  out.lines(kDevicePrelude);
  if (hasAssert(module)) out.lines(kAssertPrelude);
  for (const Function& fn : module.functions)
    if (!fn.planEntries.empty()) {
      out.lines(codegen::kPlanPrelude);
      break;
    }

  const std::vector<const Function*> order = calleesFirst(module);
  codegen::emitRecordTypes(order, out);
  for (const Function* fn : order) {
    out.blank();
    emitDeviceFunction(module, *fn, out);
  }

  for (const Function* fn : order) {
    if (!fn->isKernel()) continue;
    out.mapToGenerated();
    out.blank();
    codegen::emitKernelWrapper(*fn, out);
    codegen::emitPlanEntries(module, *fn, out);
  }
  if (options.launchers) {
    out.mapToGenerated();
    out.blank();
    out.line(0, "// ---- host launchers (nvcc only): culift_launch_<function>(kernel parameters..., stream) ----");
    out.line(0, "#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)");
    out.line(0, "#include <algorithm>");
    for (const Function* fn : order) {
      if (!fn->isKernel()) continue;
      out.blank();
      codegen::emitKernelLauncher(*fn, out);
    }
    out.line(0, "#endif  // host launchers");
  }
  return out.take();
}

}  // namespace culift
