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
Run culiftRun(const std::string& source, const std::string& function, const std::string& args) {
  const std::string src = tempFile("culift-run", "cpp");
  std::ofstream(src) << source;
  const std::string out = tempFile("culift-run", "out"), err = tempFile("culift-run", "err");
  const std::string exe = CULIFT_BINARY_DIR "/tools/culift";
  std::vector<llvm::StringRef> argv = {exe,          "run",    src,
                                       "--function", function, "--args",
                                       args,         "--",     "-I" CULIFT_SOURCE_DIR "/include"};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), llvm::StringRef(err)};
  Run r;
  r.exitCode = llvm::sys::ExecuteAndWait(exe, argv, std::nullopt, redirects, 120);
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

TEST_CASE("culift run: 64-bit integers are exact both ways; unsigned wraps", "[run][tools]") {
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
  Run n = culiftRun(kSource, "wrap", "[-1]");  // -1 converts to 4294967295 as in C++, then wraps
  REQUIRE(n.exitCode == 0);
  CHECK(n.out.find("\"result\":0") != std::string::npos);
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
  CHECK(count.err.find("'mulf' takes 2 arguments, --args has 1") != std::string::npos);
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
