// `culift launch` end to end on the CPU backend: the built binary translates a file, launches
// the kernel and prints the result as JSON.
#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "catch.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

namespace {

struct Run {
  int exitCode = -1;
  std::string out;
};

Run culift(const std::string& args) {
  const std::string binary = std::string(CULIFT_BINARY_DIR) + "/tools/culift";
  REQUIRE(llvm::sys::fs::exists(binary));
  Run r;
  FILE* p = popen((binary + " " + args + " 2>&1").c_str(), "r");
  REQUIRE(p);
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string writeSource() {
  llvm::SmallString<128> path;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("culift-launch", "cpp", path));
  std::ofstream out{std::string(path)};
  out << "#define CULIFT_KERNEL [[clang::annotate(\"culift\")]]\n"
         "CULIFT_KERNEL float Scale(const float* x, float a, int i) { return x[i] * a; }\n"
         "CULIFT_KERNEL double Outer(const double* a, const double* b, int i, int j) { return a[i] * b[j]; }\n"
         "CULIFT_KERNEL void Fill(float* y, float v, int i) { y[i] = v / 3.0f; }\n"
         "CULIFT_KERNEL float Ratio(float a, float b) { return a / b; }\n";
  return std::string(path);
}

llvm::json::Object parse(const Run& r) {
  INFO(r.out);
  auto v = llvm::json::parse(r.out);
  REQUIRE(bool(v));
  REQUIRE(v->getAsObject());
  return *v->getAsObject();
}

}  // namespace

TEST_CASE("culift launch runs a 1-D kernel on the CPU backend", "[cli]") {
  const std::string file = writeSource();
  Run r = culift("launch " + file + " --function Scale --extent 4 --args '[[1, 2, 3, 4], 0.5]' --backend cpu");
  INFO(r.out);
  REQUIRE(r.exitCode == 0);
  auto o = parse(r);
  CHECK(o.getString("backend") == "cpu");
  const auto* out = o.getArray("out");
  REQUIRE(out);
  REQUIRE(out->size() == 4);
  CHECK((*out)[0].getAsNumber() == 0.5);
  CHECK((*out)[3].getAsNumber() == 2.0);
  CHECK(o.getNumber("ms").has_value());
  CHECK_FALSE(o.getString("entry"));  // the CPU backend runs the function itself
  // --per-thread asks for the per-thread entry: the same results.
  Run perThread = culift("launch " + file +
                         " --function Scale --extent 4 --args '[[1, 2, 3, 4], 0.5]' --backend cpu --per-thread");
  REQUIRE(perThread.exitCode == 0);
  const auto p = parse(perThread);
  REQUIRE(p.getArray("out"));
  CHECK((*p.getArray("out"))[3].getAsNumber() == 2.0);
  llvm::sys::fs::remove(file);
}

TEST_CASE("culift launch: 2-D, void with arrays, element-wise with nan and inf", "[cli]") {
  const std::string file = writeSource();
  Run outer = culift("launch " + file + " --function Outer --extent 2x3 --args '[[1, 2], [10, 20, 30]]' --backend cpu");
  REQUIRE(outer.exitCode == 0);
  const auto outerJson = parse(outer);  // keep the object alive: `out` points into it
  const auto* out = outerJson.getArray("out");
  REQUIRE(out);
  REQUIRE(out->size() == 6);
  CHECK((*out)[5].getAsNumber() == 60.0);

  Run fill = culift("launch " + file + " --function Fill --extent 3 --args '[[0, 0, 0, 9], 1]' --backend cpu");
  REQUIRE(fill.exitCode == 0);
  auto f = parse(fill);
  CHECK_FALSE(f.getArray("out"));
  const auto* y = f.getObject("arrays")->getArray("y");
  REQUIRE(y);
  REQUIRE(y->size() == 4);
  // 1/3 in float, printed with 9 significant digits so it reads back exactly.
  CHECK(fill.out.find("0.333333343") != std::string::npos);
  CHECK((*y)[3].getAsNumber() == 9.0);

  Run ratio = culift("launch " + file +
                     " --function Ratio --extent 3 --args '[[1, 0, \"inf\"], [0, 0, 2]]' --backend cpu");
  REQUIRE(ratio.exitCode == 0);
  CHECK(ratio.out.find("[\"inf\",\"nan\",\"inf\"]") != std::string::npos);
  llvm::sys::fs::remove(file);
}

TEST_CASE("culift launch refuses bad usage with exit code 2", "[cli]") {
  const std::string file = writeSource();
  Run count = culift("launch " + file + " --function Scale --extent 4 --args '[[1, 2, 3, 4]]' --backend cpu");
  CHECK(count.exitCode == 2);
  CHECK(count.out.find("takes 2 arguments") != std::string::npos);

  Run rank = culift("launch " + file + " --function Outer --extent 4 --args '[[1], [2]]' --backend cpu");
  CHECK(rank.exitCode == 2);
  CHECK(rank.out.find("needs 2 axes") != std::string::npos);

  Run extent = culift("launch " + file + " --function Scale --extent 4x --args '[[1], 2]' --backend cpu");
  CHECK(extent.exitCode == 2);

  Run backend = culift("launch " + file + " --function Scale --extent 4 --args '[[1], 2]' --backend tpu");
  CHECK(backend.exitCode == 2);

  Run small = culift("launch " + file + " --function Ratio --extent 5 --args '[[1, 2], [3, 4]]' --backend cpu");
  CHECK(small.exitCode == 2);
  CHECK(small.out.find("is read at every index (5), but the buffer holds 2") != std::string::npos);
  llvm::sys::fs::remove(file);
}

TEST_CASE("culift launch reports an out-of-range read as a run error (exit 1)", "[cli]") {
  const std::string file = writeSource();
  Run r = culift("launch " + file + " --function Scale --extent 8 --args '[[1, 2], 1]' --backend cpu");
  CHECK(r.exitCode == 1);
  CHECK(r.out.find(file) != std::string::npos);
  llvm::sys::fs::remove(file);
}

TEST_CASE("culift probe prints a report and exits 0", "[cli]") {
  Run r = culift("probe");
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("NVRTC") != std::string::npos);
  Run j = culift("probe --json");
  CHECK(j.exitCode == 0);
  auto o = parse(j);
  CHECK(o.getObject("nvrtc"));
  CHECK(o.getBoolean("gpuUsable").has_value());
}

TEST_CASE("culift launch passes uniform parameters once and says which are per element", "[cli][uniform]") {
  llvm::SmallString<128> path;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("culift-uniform", "cpp", path));
  {
    std::ofstream out{std::string(path)};
    out << "#define CULIFT_UNIFORM(...) [[clang::annotate(\"culift:uniform=\" #__VA_ARGS__)]]\n"
           "CULIFT_UNIFORM(slope) float LeakyRelu(float x, float slope) { return x > 0.0f ? x : x * slope; }\n";
  }
  const std::string file(path);
  Run r = culift("launch " + file +
                 " --function LeakyRelu --extent 4 --args '[[-2, -1, 0.5, 3], 0.125]' --backend cpu");
  INFO(r.out);
  REQUIRE(r.exitCode == 0);
  auto o = parse(r);
  const llvm::json::Array* out = o.getArray("out");
  REQUIRE(out);
  REQUIRE(out->size() == 4);
  CHECK((*out)[0].getAsNumber() == -0.25);
  CHECK((*out)[1].getAsNumber() == -0.125);
  CHECK((*out)[2].getAsNumber() == 0.5);
  CHECK((*out)[3].getAsNumber() == 3.0);

  Run asArray = culift("launch " + file +
                       " --function LeakyRelu --extent 4 --args '[[-2, -1, 0.5, 3], [0.125]]' --backend cpu");
  CHECK(asArray.exitCode == 2);
  CHECK(asArray.out.find("argument 2 ('slope', float) (uniform): expected a number, got an array") !=
        std::string::npos);
  Run asNumber = culift("launch " + file + " --function LeakyRelu --extent 4 --args '[1, 0.125]' --backend cpu");
  CHECK(asNumber.exitCode == 2);
  CHECK(asNumber.out.find("argument 1 ('x', const float*) (per element)") != std::string::npos);
  Run count = culift("launch " + file + " --function LeakyRelu --extent 4 --args '[[1]]' --backend cpu");
  CHECK(count.exitCode == 2);
  CHECK(count.out.find("(const float* x (per element), float slope (uniform);") != std::string::npos);
  llvm::sys::fs::remove(path);
}

TEST_CASE("culift launch takes a template instance by the name culift ast lists, or as C++ writes it", "[cli]") {
  llvm::SmallString<128> path;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("culift-launch-template", "cpp", path));
  const std::string file(path);
  std::ofstream{file} << "#define CULIFT_KERNEL [[clang::annotate(\"culift\")]]\n"
                         "template <typename T> CULIFT_KERNEL T Clip(T x, T lo, T hi) { return x < lo ? lo : (hi < x "
                         "? hi : x); }\n"
                         "template float Clip<float>(float, float, float);\n"
                         "template int Clip<int>(int, int, int);\n";
  for (const char* name : {"Clip_float", "'Clip<float>'", "'Clip< float >'"}) {
    Run r = culift("launch " + file + " --function " + name +
                   " --extent 3 --args '[[-5, 0.5, 7], [0, 0, 0], [1, 1, 1]]' --backend cpu");
    INFO(name << ": " << r.out);
    REQUIRE(r.exitCode == 0);
    CHECK(r.out.find("\"out\":[0,0.5,1]") != std::string::npos);
  }
  Run both = culift("launch " + file + " --function Clip --extent 1 --args '[[1], [0], [1]]' --backend cpu");
  CHECK(both.exitCode == 2);
  CHECK(both.out.find("'Clip' is a function template with 2 instances (Clip_float, Clip_int): name one") !=
        std::string::npos);
  // A value an int cannot hold is refused, not wrapped.
  Run wide = culift("launch " + file + " --function Clip_int --extent 1 --args '[[3e9], [0], [1]]' --backend cpu");
  CHECK(wide.exitCode == 2);
  CHECK(wide.out.find("element 0: 3000000000 does not fit in int (-2147483648 to 2147483647)") != std::string::npos);
  llvm::sys::fs::remove(file);
}

TEST_CASE("culift launch: atomics give exact counts on the CPU backend; --check-conflicts stops a race", "[cli]") {
  llvm::SmallString<128> path, args;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("culift-launch-atomics", "cpp", path));
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("culift-launch-atomics", "json", args));
  {
    std::ofstream out{std::string(path)};
    out << "#include <atomic>\n"
           "#define CULIFT_KERNEL [[clang::annotate(\"culift\")]]\n"
           "CULIFT_KERNEL void Histogram(const int* bin, int* counts, int i) {\n"
           "  std::atomic_ref<int>(counts[bin[i]]).fetch_add(1);\n"
           "}\n"
           "CULIFT_KERNEL void Racy(const int* bin, int* counts, int i) { counts[bin[i]] += 1; }\n";
    std::ofstream json{std::string(args)};
    json << "[[";
    for (int k = 0; k < 100000; ++k) json << (k ? "," : "") << k % 4;
    json << "], [0, 0, 0, 0]]";
  }
  const std::string file(path);
  for (int run = 0; run < 3; ++run) {
    Run r = culift("launch " + file + " --function Histogram --extent 100000 --args @" + std::string(args) +
                   " --backend cpu");
    REQUIRE(r.exitCode == 0);
    auto o = parse(r);
    const llvm::json::Object* arrays = o.getObject("arrays");
    REQUIRE(arrays);
    const llvm::json::Array* counts = arrays->getArray("counts");
    REQUIRE(counts);
    REQUIRE(counts->size() == 4);
    for (const llvm::json::Value& c : *counts) CHECK(c.getAsInteger() == 25000);
  }
  // The race: warned about at translation, and a checked launch stops at the first conflict.
  Run racy = culift("launch " + file + " --function Racy --extent 100000 --args @" + std::string(args) +
                    " --check-conflicts");
  INFO(racy.out);
  CHECK(racy.exitCode == 1);
  CHECK(racy.out.find(":6:63: warning: possible data race: 'counts[bin[i]]'") != std::string::npos);
  CHECK(racy.out.find(":6:63: error: output ") != std::string::npos);
  CHECK(racy.out.find(" of 'counts', which output ") != std::string::npos);
  CHECK(racy.out.find("(a data race)") != std::string::npos);
  Run gpu = culift("launch " + file +
                   " --function Racy --extent 4 --args '[[0,1,2,3],[0,0,0,0]]' --check-conflicts "
                   "--backend gpu");
  CHECK(gpu.exitCode == 2);
  llvm::sys::fs::remove(path);
  llvm::sys::fs::remove(args);
}

TEST_CASE("culift launch passes an element-wise kernel's table whole, and a no-kernel function is refused",
          "[cli][elementwise]") {
  llvm::SmallString<128> path;
  REQUIRE_FALSE(llvm::sys::fs::createTemporaryFile("culift-table", "cpp", path));
  {
    std::ofstream out{std::string(path)};
    out << "#define CULIFT_KERNEL [[clang::annotate(\"culift\")]]\n"
           "CULIFT_KERNEL float Horner(const float* coeff, int degree, float x) {\n"
           "  float acc = 0.f;\n"
           "  for (int k = 0; k <= degree; ++k) acc = acc * x + coeff[k];\n"
           "  return acc;\n"
           "}\n"
           "CULIFT_KERNEL float Dot2(const float* a, const float* b) { return a[0] * b[0] + a[1] * b[1]; }\n";
  }
  const std::string file(path);
  // 2x^2 + 3x + 4 at x = 0.5, 1, 2 with degree 2; degree 0 gives the first coefficient.
  Run r = culift("launch " + file +
                 " --function Horner --extent 4 --args '[[2, 3, 4], [2, 2, 2, 0], [0.5, 1, 2, 7]]' --backend cpu");
  INFO(r.out);
  REQUIRE(r.exitCode == 0);
  auto o = parse(r);
  const llvm::json::Array* out = o.getArray("out");
  REQUIRE(out);
  REQUIRE(out->size() == 4);
  CHECK((*out)[0].getAsNumber() == 6.0);
  CHECK((*out)[1].getAsNumber() == 9.0);
  CHECK((*out)[2].getAsNumber() == 18.0);
  CHECK((*out)[3].getAsNumber() == 2.0);

  Run count = culift("launch " + file + " --function Horner --extent 4 --args '[[1]]' --backend cpu");
  CHECK(count.exitCode == 2);
  CHECK(count.out.find("(const float* coeff (the same for every element), const int* degree (per element), "
                       "const float* x (per element);") != std::string::npos);
  Run scalarTable = culift("launch " + file + " --function Horner --extent 1 --args '[1, [0], [1]]' --backend cpu");
  CHECK(scalarTable.exitCode == 2);
  CHECK(scalarTable.out.find("argument 1 ('coeff', const float*) (the same for every element)") != std::string::npos);

  Run dot = culift("launch " + file + " --function Dot2 --extent 1 --args '[[1, 2], [3, 4]]' --backend cpu");
  CHECK(dot.exitCode == 2);
  CHECK(dot.out.find("warning: 'Dot2' gives no kernel") != std::string::npos);
  CHECK(dot.out.find("'Dot2' is a device-only function") != std::string::npos);
  llvm::sys::fs::remove(path);
}

TEST_CASE("culift launch --devices splits the launch over a device group", "[cli][group]") {
  const std::string file = writeSource();
  // 2-D over three CPU engines: the same `out` as one engine, and the JSON says how many took part.
  const std::string args = "--function Outer --extent 5x3 --args '[[1, 2, 3, 4, 5], [10, 20, 30]]'";
  Run one = culift("launch " + file + " " + args + " --backend cpu");
  Run three = culift("launch " + file + " " + args + " --devices cpu:3");
  INFO(one.out << three.out);
  REQUIRE(one.exitCode == 0);
  REQUIRE(three.exitCode == 0);
  const auto a = parse(one), b = parse(three);
  REQUIRE(a.getArray("out"));
  REQUIRE(b.getArray("out"));
  CHECK(*a.getArray("out") == *b.getArray("out"));
  CHECK(b.getInteger("devices") == 3);
  CHECK_FALSE(a.getInteger("devices"));
  // Each engine's outputs: rows of 3, balanced (5 rows: 1, 2, 2).
  CHECK(b.getString("split") == std::string("rows"));
  const llvm::json::Array* parts = b.getArray("parts");
  REQUIRE(parts);
  REQUIRE(parts->size() == 3);
  CHECK(*(*parts)[0].getAsArray() == llvm::json::Array{0, 3});
  CHECK(*(*parts)[1].getAsArray() == llvm::json::Array{3, 9});
  CHECK(*(*parts)[2].getAsArray() == llvm::json::Array{9, 15});
  // A void kernel: each engine's writes gathered.
  Run fill = culift("launch " + file + " --function Fill --extent 3 --args '[[0, 0, 0, 9], 1]' --devices cpu:2");
  REQUIRE(fill.exitCode == 0);
  CHECK(fill.out.find("[0.333333343,0.333333343,0.333333343,9]") != std::string::npos);
  // A bad group is a usage error.
  Run bad = culift("launch " + file + " " + args + " --devices cpu:0");
  CHECK(bad.exitCode == 2);
  CHECK(bad.out.find("--devices cpu:N takes 1 to 64 CPU engines") != std::string::npos);
  llvm::sys::fs::remove(file);
}
