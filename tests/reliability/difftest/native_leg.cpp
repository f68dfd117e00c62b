#include "native_leg.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Program.h>

namespace culift::rel {

std::string hostCompiler() {
  if (const char* env = std::getenv("CULIFT_HOST_CXX"); env && *env) return env;
  auto found = llvm::sys::findProgramByName("g++");
  return found ? *found : std::string();
}

namespace {

// The <cmath> functions generated programs call (constructs.def's floating functions).
constexpr const char* kMathFunctions[] = {"sqrt",  "cbrt",  "fabs",   "fmin",      "fmax",  "fdim",      "fma",
                                          "exp",   "exp2",  "expm1",  "log",       "log2",  "log10",     "log1p",
                                          "pow",   "sin",   "cos",    "tan",       "asin",  "acos",      "atan",
                                          "atan2", "sinh",  "cosh",   "tanh",      "asinh", "acosh",     "atanh",
                                          "erf",   "erfc",  "tgamma", "lgamma",    "hypot", "floor",     "ceil",
                                          "round", "trunc", "rint",   "nearbyint", "fmod",  "remainder", "copysign"};

// Math calls left to the run-time library. Given arguments it can see, GCC evaluates a math
// call at compile time (correctly rounded, with its own NaN signs) where the library computes
// another value at run time: the -O2 leg would then differ from -O0 and the interpreter. The
// native legs compile with -fno-builtin, so ::acosh and ::acoshf are plain library calls, and
// std::acosh, whose float overload calls __builtin_acoshf, is routed to them: after the includes
// every math name becomes a wrapper choosing the float or the double library function as
// <cmath> does (all arguments float: the float form; otherwise double).
std::string runtimeMathPrologue() {
  std::string s =
      "// Math calls go to the run-time library: never evaluated at compile time.\n"
      "template <typename... A> inline constexpr bool culift_all_float = (std::is_same_v<A, float> && ...);\n"
      "#define CULIFT_RUNTIME_MATH(name) \\\n"
      "  template <typename... A> inline auto culift_runtime_##name(A... a) { \\\n"
      "    if constexpr (culift_all_float<A...>) return ::name##f(a...); \\\n"
      "    else return ::name(static_cast<double>(a)...); \\\n"
      "  } \\\n"
      "  namespace std { using ::culift_runtime_##name; }\n";
  for (const char* f : kMathFunctions) s += std::string("CULIFT_RUNTIME_MATH(") + f + ")\n";
  for (const char* f : kMathFunctions) s += std::string("#define ") + f + " culift_runtime_" + f + "\n";
  return s + "\n";
}

}  // namespace

std::string nativeBatchSource(const std::vector<const ProgramSpec*>& programs) {
  std::ostringstream out;
  // Every header a program includes comes first: the math names are macros after them.
  out << "#include <culift/annotate.hpp>\n#include <algorithm>\n#include <cmath>\n#include <cstdint>\n#include <cstring>\n"
         "#include <limits>\n#include <type_traits>\n\n";
  out << runtimeMathPrologue();
  for (const ProgramSpec* p : programs) {
    out << p->functions << '\n';
    out << "extern \"C\" void " << p->name << "_entry(void* const* a, void* r) {\n  ";
    if (p->returnType != Scalar::Void) out << "const auto v = ";
    else out << "(void)r;\n  ";
    out << p->kernel << "(";
    for (std::size_t k = 0; k < p->params.size(); ++k) {
      const ParamSpec& q = p->params[k];
      if (k) out << ", ";
      if (q.array) out << "(" << (q.writable ? "" : "const ") << cppType(q.type) << "*)a[" << k << "]";
      else out << "*(const " << cppType(q.type) << "*)a[" << k << "]";
    }
    out << ");\n";
    if (p->returnType != Scalar::Void) out << "  std::memcpy(r, &v, sizeof v);\n";
    out << "}\n\n";
  }
  return out.str();
}

NativeLibrary::~NativeLibrary() {
  if (handle_) dlclose(handle_);
}

NativeEntry NativeLibrary::entry(const std::string& programName) const {
  return reinterpret_cast<NativeEntry>(dlsym(handle_, (programName + "_entry").c_str()));
}

std::unique_ptr<NativeLibrary> NativeLibrary::open(const std::string& path, std::string* error) {
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    if (error) *error = dlerror();
    return nullptr;
  }
  return std::unique_ptr<NativeLibrary>(new NativeLibrary(h, path));
}

PendingCompile startNativeCompile(const std::string& sourcePath, const NativeBuild& build,
                                  const std::string& includeDir) {
  PendingCompile p;
  const std::string level = build.optimization.substr(1) + (build.ubsan ? "-ubsan" : "");
  p.output = sourcePath + "." + level + ".so";
  p.logPath = sourcePath + "." + level + ".log";
  const std::string cxx = hostCompiler();
  if (cxx.empty()) {
    p.startError = "no host C++ compiler (g++ not on PATH; set CULIFT_HOST_CXX)";
    return p;
  }
  // -ffp-contract=off: no a*b+c fused into an FMA. -frounding-math: no compile-time folding
  // of inexact floating results. -fno-builtin: no math call evaluated at compile time, exact
  // results included (GCC folds tgamma(15.0) to 87178291200, the library gives
  // 87178291199.999985); with the prologue of nativeBatchSource, <cmath>'s overloads too.
  std::vector<std::string> args = {cxx,
                                   "-std=c++20",
                                   "-shared",
                                   "-fPIC",
                                   build.optimization,
                                   "-ffp-contract=off",
                                   "-fno-fast-math",
                                   "-frounding-math",
                                   "-fno-builtin",
                                   "-w",
                                   "-I" + includeDir,
                                   sourcePath,
                                   "-o",
                                   p.output};
  if (build.ubsan) {
    args.insert(args.begin() + 1, {"-fsanitize=undefined,float-cast-overflow", "-fno-sanitize=vptr"});
  }
  std::vector<llvm::StringRef> refs(args.begin(), args.end());
  const std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(p.logPath),
                                                      llvm::StringRef(p.logPath)};
  std::string err;
  bool failed = false;
  llvm::sys::ProcessInfo pi = llvm::sys::ExecuteNoWait(cxx, refs, std::nullopt, redirects, 0, &err, &failed);
  if (failed) p.startError = "cannot run " + cxx + ": " + err;
  p.pid = pi.Pid;
  return p;
}

std::unique_ptr<NativeLibrary> finishNativeCompile(PendingCompile& pending, std::string* error) {
  if (!pending.startError.empty()) {
    if (error) *error = pending.startError;
    return nullptr;
  }
  llvm::sys::ProcessInfo pi;
  pi.Pid = pending.pid;
  std::string err;
  llvm::sys::ProcessInfo done = llvm::sys::Wait(pi, std::nullopt, &err);
  if (done.ReturnCode != 0) {
    std::ifstream log(pending.logPath);
    std::stringstream text;
    text << log.rdbuf();
    if (error)
      *error = "host compiler failed (" + std::to_string(done.ReturnCode) + "): " + err + "\n" +
               text.str().substr(0, 4000);
    return nullptr;
  }
  return NativeLibrary::open(pending.output, error);
}

}  // namespace culift::rel
