#include "native_leg.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Program.h>

namespace culift::rel {

// Clang first: GCC 12 folds `0.0f - q` and `0.0f + -(float)q` (q an integer) into -(float)q
// even at -O0, -0.0 where q is 0 against C++'s +0.0
// (tests/reliability/regressions/signed_zero_int_subtraction.cpp), and -frounding-math, which
// stops that fold, miscompiles a const array (const_array_inexact_init.cpp).
std::string hostCompiler() {
  if (const char* env = std::getenv("CULIFT_HOST_CXX"); env && *env) {
    auto found = llvm::sys::findProgramByName(env);  // a name on PATH or a path
    return found ? *found : std::string(env);
  }
  for (const char* name : {"clang++-16", "g++"})
    if (auto found = llvm::sys::findProgramByName(name)) return *found;
  return {};
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
  // fmin / fmax ignore a NaN argument, signalling too, as the numerical contract says; glibc's
  // return a NaN for a signalling one.
  s += "#define CULIFT_RUNTIME_MINMAX(name) \\\n"
       "  template <typename X, typename Y> inline auto culift_runtime_##name(X x, Y y) { \\\n"
       "    if constexpr (culift_all_float<X, Y>) { \\\n"
       "      if (x != x) return y; \\\n"
       "      if (y != y) return x; \\\n"
       "      return ::name##f(x, y); \\\n"
       "    } else { \\\n"
       "      const double a = static_cast<double>(x), b = static_cast<double>(y); \\\n"
       "      if (a != a) return b; \\\n"
       "      if (b != b) return a; \\\n"
       "      return ::name(a, b); \\\n"
       "    } \\\n"
       "  } \\\n"
       "  namespace std { using ::culift_runtime_##name; }\n";
  for (const char* f : kMathFunctions) {
    const std::string_view name = f;
    s += std::string(name == "fmin" || name == "fmax" ? "CULIFT_RUNTIME_MINMAX(" : "CULIFT_RUNTIME_MATH(") + f + ")\n";
  }
  for (const char* f : kMathFunctions) s += std::string("#define ") + f + " culift_runtime_" + f + "\n";
  return s + "\n";
}

// The -O0 leg under UBSan (NativeBuild::ubsan) with -fno-sanitize-recover=all: the first
// undefined behaviour stops the program. The sanitizer's handlers are defined here, inside the
// library (hidden, so they bind before the sanitizer runtime's): each writes the report, as UBSan
// words it, with the location and the operands, and jumps back to the program's entry, which
// returns; culift_ub_report() gives the report to the oracle. So a report is a finding that
// carries the program and the text, and the process goes on with the next program.
std::string ubsanPrologue() {
  return R"ub(#ifdef CULIFT_DIFFTEST_UBSAN
#include <csetjmp>
#include <cstdio>
namespace culift_ub {
struct Loc { const char* file; unsigned line, column; };
struct Type { unsigned short kind, info; char name[1]; };
struct WithType { Loc loc; const Type* type; };
struct WithTwoTypes { Loc loc; const Type* first; const Type* second; };
static std::jmp_buf jump;
static bool armed = false;
static char text[2048];
#define CULIFT_UB_HANDLER extern "C" __attribute__((visibility("hidden"), no_sanitize_undefined, noreturn)) void
__attribute__((no_sanitize_undefined)) static const char* value(const Type* t, void* v, char* buf, unsigned long n) {
  const unsigned long long bits = (unsigned long long)v;
  if (t->kind == 0) {
    const unsigned width = 1u << (t->info >> 1);
    if (width > 64) return "(wide)";
    if (t->info & 1) {
      const unsigned shift = 64 - width;
      std::snprintf(buf, n, "%lld", (long long)(bits << shift) >> shift);
    } else {
      std::snprintf(buf, n, "%llu", width == 64 ? bits : bits & ((1ull << width) - 1));
    }
  } else if (t->kind == 1 && t->info == 32) {
    float f;
    __builtin_memcpy(&f, &bits, 4);
    std::snprintf(buf, n, "%.9g", (double)f);
  } else if (t->kind == 1 && t->info == 64) {
    double d;
    __builtin_memcpy(&d, &bits, 8);
    std::snprintf(buf, n, "%.17g", d);
  } else {
    return "(value)";
  }
  return buf;
}
__attribute__((no_sanitize_undefined, noreturn)) static void report(const Loc& loc, const char* message) {
  std::snprintf(text, sizeof text, "%s:%u:%u: runtime error: %s", loc.file ? loc.file : "?", loc.line, loc.column,
                message);
  if (armed) std::longjmp(jump, 1);
  __builtin_trap();
}
__attribute__((no_sanitize_undefined, noreturn)) static void overflow(void* d, void* a, void* b, const char* op) {
  const WithType& w = *(const WithType*)d;
  char x[64], y[64], m[512];
  std::snprintf(m, sizeof m, "%s integer overflow: %s %s %s cannot be represented in type %s",
                (w.type->info & 1) ? "signed" : "unsigned", value(w.type, a, x, sizeof x), op,
                value(w.type, b, y, sizeof y), w.type->name);
  report(w.loc, m);
}
}  // namespace culift_ub
CULIFT_UB_HANDLER __ubsan_handle_add_overflow_abort(void* d, void* a, void* b) { culift_ub::overflow(d, a, b, "+"); }
CULIFT_UB_HANDLER __ubsan_handle_sub_overflow_abort(void* d, void* a, void* b) { culift_ub::overflow(d, a, b, "-"); }
CULIFT_UB_HANDLER __ubsan_handle_mul_overflow_abort(void* d, void* a, void* b) { culift_ub::overflow(d, a, b, "*"); }
CULIFT_UB_HANDLER __ubsan_handle_negate_overflow_abort(void* d, void* a) {
  const culift_ub::WithType& w = *(const culift_ub::WithType*)d;
  char x[64], m[512];
  std::snprintf(m, sizeof m, "negation of %s cannot be represented in type %s",
                culift_ub::value(w.type, a, x, sizeof x), w.type->name);
  culift_ub::report(w.loc, m);
}
CULIFT_UB_HANDLER __ubsan_handle_divrem_overflow_abort(void* d, void* a, void* b) {
  const culift_ub::WithType& w = *(const culift_ub::WithType*)d;
  char x[64], y[64], m[512];
  culift_ub::value(w.type, b, y, sizeof y);
  if (y[0] == '0' && y[1] == 0) std::snprintf(m, sizeof m, "division by zero (of %s, type %s)",
                                              culift_ub::value(w.type, a, x, sizeof x), w.type->name);
  else std::snprintf(m, sizeof m, "division of %s by %s cannot be represented in type %s",
                     culift_ub::value(w.type, a, x, sizeof x), y, w.type->name);
  culift_ub::report(w.loc, m);
}
CULIFT_UB_HANDLER __ubsan_handle_shift_out_of_bounds_abort(void* d, void* a, void* b) {
  const culift_ub::WithTwoTypes& w = *(const culift_ub::WithTwoTypes*)d;
  char x[64], y[64], m[512];
  std::snprintf(m, sizeof m, "shift of %s (type %s) by %s (type %s) is out of bounds",
                culift_ub::value(w.first, a, x, sizeof x), w.first->name, culift_ub::value(w.second, b, y, sizeof y),
                w.second->name);
  culift_ub::report(w.loc, m);
}
CULIFT_UB_HANDLER __ubsan_handle_out_of_bounds_abort(void* d, void* index) {
  const culift_ub::WithTwoTypes& w = *(const culift_ub::WithTwoTypes*)d;
  char x[64], m[512];
  std::snprintf(m, sizeof m, "index %s out of bounds for type %s", culift_ub::value(w.second, index, x, sizeof x),
                w.first->name);
  culift_ub::report(w.loc, m);
}
CULIFT_UB_HANDLER __ubsan_handle_float_cast_overflow_abort(void* d, void* from) {
  // With a location first (GCC's form) or without (the older form): a type descriptor starts
  // with its kind, 0, 1 or 0xffff, where a file name starts with two printable characters.
  const unsigned char* first = *(const unsigned char* const*)d;
  const bool noLocation = first[0] + first[1] < 2 || first[0] == 0xff || first[1] == 0xff;
  const culift_ub::Loc none{nullptr, 0, 0};
  const culift_ub::Type* const* types =
      noLocation ? (const culift_ub::Type* const*)d : &((const culift_ub::WithTwoTypes*)d)->first;
  char x[64], m[512];
  std::snprintf(m, sizeof m, "%s is outside the range of representable values of type %s",
                culift_ub::value(types[0], from, x, sizeof x), types[1]->name);
  culift_ub::report(noLocation ? none : ((const culift_ub::WithTwoTypes*)d)->loc, m);
}
CULIFT_UB_HANDLER __ubsan_handle_load_invalid_value_abort(void* d, void* v) {
  const culift_ub::WithType& w = *(const culift_ub::WithType*)d;
  char x[64], m[512];
  std::snprintf(m, sizeof m, "load of value %s, which is not a valid value for type %s",
                culift_ub::value(w.type, v, x, sizeof x), w.type->name);
  culift_ub::report(w.loc, m);
}
CULIFT_UB_HANDLER __ubsan_handle_type_mismatch_v1_abort(void* d, void*) {
  const culift_ub::WithType& w = *(const culift_ub::WithType*)d;
  char m[512];
  std::snprintf(m, sizeof m, "null or misaligned access through a pointer to %s", w.type->name);
  culift_ub::report(w.loc, m);
}
CULIFT_UB_HANDLER __ubsan_handle_pointer_overflow_abort(void* d, void*, void*) {
  culift_ub::report(*(const culift_ub::Loc*)d, "pointer arithmetic overflow");
}
CULIFT_UB_HANDLER __ubsan_handle_vla_bound_not_positive_abort(void* d, void*) {
  culift_ub::report(*(const culift_ub::Loc*)d, "variable-length array bound is not positive");
}
CULIFT_UB_HANDLER __ubsan_handle_nonnull_arg_abort(void* d) {
  culift_ub::report(*(const culift_ub::Loc*)d, "null pointer passed as an argument declared never null");
}
CULIFT_UB_HANDLER __ubsan_handle_nonnull_return_v1_abort(void*, void* loc) {
  culift_ub::report(*(const culift_ub::Loc*)loc, "null pointer returned from a function declared never null");
}
CULIFT_UB_HANDLER __ubsan_handle_invalid_builtin_abort(void* d) {
  culift_ub::report(*(const culift_ub::Loc*)d, "invalid argument to a builtin (zero to ctz/clz)");
}
CULIFT_UB_HANDLER __ubsan_handle_builtin_unreachable(void* d) {
  culift_ub::report(*(const culift_ub::Loc*)d, "execution reached an unreachable program point");
}
CULIFT_UB_HANDLER __ubsan_handle_missing_return(void* d) {
  culift_ub::report(*(const culift_ub::Loc*)d, "execution reached the end of a value-returning function without returning a value");
}
extern "C" const char* culift_ub_report() { return culift_ub::text; }
#define CULIFT_UB_GUARD culift_ub::text[0] = 0; culift_ub::armed = true; if (setjmp(culift_ub::jump) == 0)
#define CULIFT_UB_DONE culift_ub::armed = false;
#else
#define CULIFT_UB_GUARD
#define CULIFT_UB_DONE
#endif

)ub";
}

}  // namespace

std::string nativeBatchSource(const std::vector<const ProgramSpec*>& programs) {
  std::ostringstream out;
  // Every header a program includes comes first: the math names are macros after them.
  out << "#include <culift/annotate.hpp>\n#include <algorithm>\n#include <array>\n#include <cmath>\n#include <cstdint>\n#include <cstring>\n"
         "#include <limits>\n#include <type_traits>\n\n";
  out << runtimeMathPrologue();
  out << ubsanPrologue();
  for (const ProgramSpec* p : programs) {
    out << p->functions << '\n';
    out << "extern \"C\" void " << p->name << "_entry(void* const* a, void* r) {\n  CULIFT_UB_GUARD {\n  ";
    if (p->returnType != Scalar::Void) out << "const auto v = ";
    else out << "(void)r;\n  ";
    out << p->kernel << "(";
    for (std::size_t k = 0; k < p->params.size(); ++k) {
      const ParamSpec& q = p->params[k];
      if (k) out << ", ";
      if (q.array)
        out << "(" << (q.writable ? "" : "const ") << (q.record ? q.recordType : cppType(q.type)) << "*)a[" << k << "]";
      else out << "*(const " << cppType(q.type) << "*)a[" << k << "]";
    }
    out << ");\n";
    if (p->returnType != Scalar::Void) out << "  std::memcpy(r, &v, sizeof v);\n";
    out << "  }\n  CULIFT_UB_DONE\n}\n\n";
  }
  return out.str();
}

NativeLibrary::~NativeLibrary() {
  if (handle_) dlclose(handle_);
}

NativeEntry NativeLibrary::entry(const std::string& programName) const {
  return reinterpret_cast<NativeEntry>(dlsym(handle_, (programName + "_entry").c_str()));
}

std::string NativeLibrary::undefinedBehaviour() const {
  using Report = const char* (*)();
  auto report = reinterpret_cast<Report>(dlsym(handle_, "culift_ub_report"));
  return report ? std::string(report()) : std::string();
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
    p.startError = "no host C++ compiler (neither clang++-16 nor g++ on PATH; set CULIFT_HOST_CXX)";
    return p;
  }
  // -ffp-contract=off: no a*b+c fused into an FMA. -fno-builtin: no math call evaluated at
  // compile time, exact results included (GCC folds tgamma(15.0) to 87178291200, the library
  // gives 87178291199.999985); with the prologue of nativeBatchSource, <cmath>'s overloads too.
  // No -frounding-math: + - * / and conversions folded at compile time round as at run time
  // (to nearest), and GCC 12 at -O0 with -frounding-math miscompiles a const local array
  // initialized with an inexact conversion (`const float a[5] = {(float)1e-40, ...}` reads
  // 0x1.eeaf38p-49; tests/reliability/regressions/const_array_inexact_init.cpp).
  std::vector<std::string> args = {cxx,
                                   "-std=c++20",
                                   "-shared",
                                   "-fPIC",
                                   build.optimization,
                                   "-ffp-contract=off",
                                   "-fno-fast-math",
                                   "-fno-builtin",
                                   "-w",
                                   "-I" + includeDir,
                                   sourcePath,
                                   "-o",
                                   p.output};
  if (build.ubsan) {
    args.insert(args.begin() + 1, {"-fsanitize=undefined,float-cast-overflow", "-fno-sanitize-recover=all",
                                   "-fno-sanitize=vptr", "-DCULIFT_DIFFTEST_UBSAN"});
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
