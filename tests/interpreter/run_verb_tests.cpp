// `culift run` end to end: the binary on temporary source files; JSON in and out, exit codes.
#include <fstream>
#include <optional>
#include <string>

#include "catch.hpp"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "temp_files.hpp"

namespace {

struct Run {
  int exitCode = -1;
  std::string out, err;
  std::optional<llvm::json::Value> json() const {
    auto v = llvm::json::parse(out);
    if (!v) {
      llvm::consumeError(v.takeError());
      return std::nullopt;
    }
    return std::move(*v);
  }
};

std::string tempFile(const char* prefix, const char* suffix) {
  llvm::SmallString<128> path;
  int fd = -1;
  REQUIRE(!llvm::sys::fs::createTemporaryFile(prefix, suffix, fd, path));
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  return std::string(path);
}

std::string slurp(const std::string& path) {
  auto b = llvm::MemoryBuffer::getFile(path);
  return b ? (*b)->getBuffer().str() : std::string();
}

// Writes `source` to a temporary .cpp file and runs `culift run` on it.
Run culiftRun(const std::string& source, const std::string& function, const std::string& args,
              const std::vector<std::string>& options = {}) {
  const std::string src = tempFile("culift-run", "cpp");
  std::ofstream(src) << source;
  const std::string out = tempFile("culift-run", "out"), err = tempFile("culift-run", "err");
  const std::string exe = CULIFT_BINARY_DIR "/tools/culift";
  std::vector<llvm::StringRef> argv = {exe, "run", src, "--function", function, "--args", args};
  for (const std::string& o : options) argv.push_back(o);
  for (const char* a : {"--", "-I" CULIFT_SOURCE_DIR "/include"}) argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), llvm::StringRef(err)};
  Run r;
  r.exitCode = culift::test::executeAndWait(exe, argv, std::nullopt, redirects, 120);
  r.out = slurp(out);
  r.err = slurp(err);
  llvm::sys::fs::remove(src);
  llvm::sys::fs::remove(out);
  llvm::sys::fs::remove(err);
  return r;
}

const char* kSource = R"cpp(
#include <culift/annotate.hpp>
CULIFT_KERNEL void scale(float* y, const float* x, int n, float f) {
  for (int k = 0; k < n; ++k) y[k] = x[k] * f;
}
CULIFT_KERNEL unsigned long long mix(unsigned long long a, long long b) { return a * 3ull + b; }
CULIFT_KERNEL long long big(long long a) { return a - 1; }
CULIFT_KERNEL unsigned wrap(unsigned a) { return a + 1u; }
CULIFT_KERNEL float mulf(float a, float b) { return a * b; }
CULIFT_KERNEL double muld(double a, double b) { return a * b; }
CULIFT_KERNEL int divide(int a, int b) {
  return a / b;
}
CULIFT_KERNEL bool positive(double a) { return a > 0; }
)cpp";

const char* kRowSum = R"cpp(
#include <culift/annotate.hpp>
CULIFT_KERNEL float RowSum(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k];
  return s;
}
)cpp";

}  // namespace

TEST_CASE("culift run: void function writing an output array", "[run][tools]") {
  Run r = culiftRun(kSource, "scale", "[[0, 0, 0], [1.5, -2, 0.1], 3, 2]");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  auto j = r.json();
  REQUIRE(j);
  const llvm::json::Object* o = j->getAsObject();
  REQUIRE(o);
  CHECK(o->get("result")->kind() == llvm::json::Value::Null);
  const llvm::json::Object* arrays = o->getObject("arrays");
  REQUIRE(arrays);
  CHECK(arrays->get("x") == nullptr);  // const arrays are inputs only
  const llvm::json::Array* y = arrays->getArray("y");
  REQUIRE(y);
  REQUIRE(y->size() == 3);
  CHECK((*y)[0].getAsNumber() == 3.0);
  CHECK((*y)[1].getAsNumber() == -4.0);
  CHECK(r.out.find("0.200000003") != std::string::npos);  // 0.1f * 2 with float's 9 round-trip digits
}

TEST_CASE("culift run: 64-bit integers are exact both ways; unsigned arithmetic wraps", "[run][tools]") {
  Run r = culiftRun(kSource, "mix", "[18446744073709551615, 2]");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.find("\"result\":18446744073709551615") != std::string::npos);  // (2^64-1)*3 + 2 wraps to 2^64-1
  Run b = culiftRun(kSource, "big", "[-9223372036854775807]");
  REQUIRE(b.exitCode == 0);
  CHECK(b.out.find("\"result\":-9223372036854775808") != std::string::npos);
  Run w = culiftRun(kSource, "wrap", "[4294967295]");
  REQUIRE(w.exitCode == 0);
  CHECK(w.out.find("\"result\":0") != std::string::npos);
}

TEST_CASE("culift run: NaN and infinities in and out; round-trip digits", "[run][tools]") {
  Run a = culiftRun(kSource, "mulf", "[\"inf\", 0]");
  REQUIRE(a.exitCode == 0);
  CHECK(a.out.find("\"result\":\"nan\"") != std::string::npos);
  Run b = culiftRun(kSource, "mulf", "[\"-inf\", 2]");
  REQUIRE(b.exitCode == 0);
  CHECK(b.out.find("\"result\":\"-inf\"") != std::string::npos);
  Run c = culiftRun(kSource, "mulf", "[0.1, 1]");
  REQUIRE(c.exitCode == 0);
  CHECK(c.out.find("\"result\":0.100000001") != std::string::npos);
  Run d = culiftRun(kSource, "muld", "[0.1, 3]");
  REQUIRE(d.exitCode == 0);
  CHECK(d.out.find("\"result\":0.30000000000000004") != std::string::npos);
  Run e = culiftRun(kSource, "positive", "[\"nan\"]");
  REQUIRE(e.exitCode == 0);
  CHECK(e.out.find("\"result\":false") != std::string::npos);
}

TEST_CASE("culift run: interpreter errors exit 1 with the location", "[run][tools]") {
  Run r = culiftRun(kSource, "divide", "[7, 0]");
  CHECK(r.exitCode == 1);
  CHECK(r.err.find(":12:10: error: integer division by zero: 7 / 0") != std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE("culift run: translation errors exit 1", "[run][tools]") {
  Run r = culiftRun("CULIFT_KERNEL int broken(int a) { return a +; }\n#include <culift/annotate.hpp>\n", "broken",
                    "[1]");
  CHECK(r.exitCode == 1);
  CHECK(r.err.find("error:") != std::string::npos);
}

TEST_CASE("culift run: wrong arguments exit 2 with a clear message", "[run][tools]") {
  Run count = culiftRun(kSource, "mulf", "[1]");
  CHECK(count.exitCode == 2);
  CHECK(count.err.find("'mulf' takes 2 arguments (float a, float b), --args has 1") != std::string::npos);
  // The index parameter is an argument here: the message lists every parameter.
  Run index = culiftRun(kRowSum, "RowSum", "[[1, 2, 3, 4], 2]");
  CHECK(index.exitCode == 2);
  CHECK(index.err.find("'RowSum' takes 3 arguments (const float* x, int cols, int i; index parameters included), "
                       "--args has 2") != std::string::npos);
  Run kind = culiftRun(kSource, "scale", "[1, [1], 1, 1]");
  CHECK(kind.exitCode == 2);
  CHECK(kind.err.find("argument 1 ('y', float*): expected an array of numbers") != std::string::npos);
  Run text = culiftRun(kSource, "mulf", "[\"abc\", 1]");
  CHECK(text.exitCode == 2);
  CHECK(text.err.find("is not a number") != std::string::npos);
  Run json = culiftRun(kSource, "mulf", "[1, ");
  CHECK(json.exitCode == 2);
  Run range = culiftRun(kSource, "wrap", "[1e20]");
  CHECK(range.exitCode == 2);
  CHECK(range.err.find("does not fit in unsigned int") != std::string::npos);
}

TEST_CASE("culift run: a number the parameter's type cannot hold is refused, never wrapped", "[run][tools]") {
  const char* source = R"cpp(
#include <culift/annotate.hpp>
CULIFT_KERNEL int Int(int x) { return x; }
CULIFT_KERNEL unsigned Unsigned(unsigned x) { return x; }
CULIFT_KERNEL signed char Char(signed char x) { return x; }
CULIFT_KERNEL unsigned short UShort(unsigned short x) { return x; }
CULIFT_KERNEL long long Long(long long x) { return x; }
CULIFT_KERNEL unsigned long long ULong(unsigned long long x) { return x; }
CULIFT_KERNEL float Float(float x) { return x; }
CULIFT_KERNEL double Double(double x) { return x; }
CULIFT_KERNEL bool Bool(bool x) { return x; }
)cpp";
  struct Refused {
    const char *function, *args, *message;
  };
  for (const Refused& r : std::initializer_list<Refused>{
           {"Int", "[1.5e10]", "15000000000 does not fit in int (-2147483648 to 2147483647)"},
           {"Int", "[3e9]", "3000000000 does not fit in int (-2147483648 to 2147483647)"},
           {"Int", "[2147483648]", "2147483648 does not fit in int"},
           {"Int", "[-2147483649]", "-2147483649 does not fit in int"},
           {"Int", "[3.5]", "3.5 is not an integer (the parameter is int)"},
           {"Int", "[\"nan\"]", "nan is not an integer"},
           {"Int", "[1e300]", "1e+300 does not fit in int"},
           {"Unsigned", "[-1]", "-1 does not fit in unsigned int (0 to 4294967295)"},
           {"Unsigned", "[4294967296]", "4294967296 does not fit in unsigned int"},
           {"Char", "[128]", "128 does not fit in signed char (-128 to 127)"},
           {"UShort", "[65536]", "65536 does not fit in unsigned short (0 to 65535)"},
           {"Long", "[9223372036854775808]", "9223372036854775808 does not fit in long long"},
           {"ULong", "[-1]", "-1 does not fit in unsigned long long (0 to 18446744073709551615)"},
           {"ULong", "[1e20]", "100000000000000000000 does not fit in unsigned long long"},
           {"Float", "[1e39]", "1e+39 is beyond the range of float (largest finite 3.40282347e+38)"},
           {"Double", "[1e400]", "a number beyond the range of double"},
           {"Bool", "[2]", "2 is not a bool: give true, false, 0 or 1"},
       }) {
    Run run = culiftRun(source, r.function, r.args);
    INFO(r.function << " " << r.args << ": " << run.err << run.out);
    CHECK(run.exitCode == 2);
    CHECK(run.err.find(r.message) != std::string::npos);
  }
  struct Accepted {
    const char *function, *args, *result;
  };
  for (const Accepted& a : std::initializer_list<Accepted>{
           {"Int", "[2147483647]", "2147483647"},
           {"Int", "[-2147483648]", "-2147483648"},
           {"Int", "[2e9]", "2000000000"},
           {"Int", "[true]", "1"},
           {"ULong", "[1e19]", "10000000000000000000"},
           {"Float", "[3.4028235e38]", "3.40282347e+38"},
           {"Float", "[-0.0]", "-0"},
           {"Float", "[\"-inf\"]", "\"-inf\""},
           {"Bool", "[1]", "true"},
       }) {
    Run run = culiftRun(source, a.function, a.args);
    INFO(a.function << " " << a.args << ": " << run.err << run.out);
    CHECK(run.exitCode == 0);
    CHECK(run.out.find(std::string("\"result\":") + a.result + ",") != std::string::npos);
  }
}

TEST_CASE("culift run: notes speak of the command line and say what is wrong", "[run][tools]") {
  Run negative = culiftRun(kRowSum, "RowSum", "[[1, 2, 3, 4], 2, -1]");
  CHECK(negative.exitCode == 1);
  CHECK(negative.err.find("error: index -2 is out of bounds for array 'x' of 4 elements") != std::string::npos);
  CHECK(negative.err.find("note: the index is negative: elements are numbered from 0") != std::string::npos);
  CHECK(negative.err.find("shorter") == std::string::npos);
  Run spin = culiftRun(
      "#include <culift/annotate.hpp>\nCULIFT_KERNEL int Spin(int n) { int s = 0; while (n > 0) s += 1; return s; }\n",
      "Spin", "[1]", {"--step-budget", "1000"});
  CHECK(spin.exitCode == 1);
  CHECK(spin.err.find("error: step budget of 1000 exceeded in 'Spin'") != std::string::npos);
  CHECK(spin.err.find("note: the loop may not terminate; raise --step-budget (now 1000) if it is just long") !=
        std::string::npos);
  CHECK(spin.err.find("Options::stepBudget") == std::string::npos);
}

TEST_CASE("culift run: a template instance by the name culift ast lists, or as C++ writes it", "[run][tools]") {
  const char* source = R"cpp(
#include <culift/annotate.hpp>
template <typename T> CULIFT_KERNEL T Saturate(T x) { return x < T(0) ? T(0) : (T(1) < x ? T(1) : x); }
template float Saturate<float>(float);
template double Saturate<double>(double);
template <typename T> CULIFT_KERNEL T Twice(T x) { return x + x; }
template int Twice<int>(int);
)cpp";
  for (const char* name : {"Saturate_float", "Saturate<float>", "Saturate < float >"}) {
    Run r = culiftRun(source, name, "[2.5]");
    INFO(name << ": " << r.err);
    CHECK(r.exitCode == 0);
    CHECK(r.out.find("\"result\":1,") != std::string::npos);
  }
  Run both = culiftRun(source, "Saturate", "[2.5]");
  CHECK(both.exitCode == 2);
  CHECK(both.err.find("'Saturate' is a function template with 2 instances (Saturate_float, Saturate_double): "
                      "name one, e.g. --function Saturate_float") != std::string::npos);
  Run one = culiftRun(source, "Twice", "[21]");  // the one instance
  INFO(one.err);
  CHECK(one.exitCode == 0);
  CHECK(one.out.find("\"result\":42,") != std::string::npos);
  Run none = culiftRun(source, "Saturate_int", "[1]");
  CHECK(none.exitCode == 1);
  CHECK(none.err.find("no function named 'Saturate_int'") != std::string::npos);
}
