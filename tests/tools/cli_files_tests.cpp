// `culift run` and `culift launch` with data in files: --args @FILE and @- (stdin), arrays as
// {"npy": "x.npy"} (found beside the arguments file), --out-npy DIR; inputs far beyond the
// command line's limit; and every kind of bad .npy file is a clear error with exit status 2.
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Program.h"
#include "temp_files.hpp"

namespace {

using culift::test::readFile;
using culift::test::writeFile;

// Scratch directories named after this suite.
struct TempDir : culift::test::TempDir {
  TempDir() : culift::test::TempDir("culift-files") {}
};

const std::string kCulift = std::string(CULIFT_BINARY_DIR) + "/tools/culift";

struct Run {
  int code = -1;
  std::string out, err;
};

Run runCulift(const std::vector<std::string>& args, const TempDir& dir, const std::string& stdinFile = "") {
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  llvm::sys::fs::remove(out);
  llvm::sys::fs::remove(err);
  std::vector<llvm::StringRef> argv = {kCulift};
  for (const std::string& a : args) argv.push_back(a);
  std::optional<llvm::StringRef> in;
  if (!stdinFile.empty()) in = llvm::StringRef(stdinFile);
  std::optional<llvm::StringRef> redirects[] = {in, llvm::StringRef(out), llvm::StringRef(err)};
  const int code = culift::test::executeAndWait(kCulift, argv, std::nullopt, redirects);
  return {code, readFile(out), readFile(err)};
}

// A .npy file as NumPy writes one (format 1.0), with any header text, for good and bad files.
std::string npy(const std::string& dict, const void* data, std::size_t bytes) {
  std::string header = dict;
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string file("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  file += header;
  file.append(static_cast<const char*>(data), bytes);
  return file;
}

std::string floatNpy(const std::vector<float>& v) {
  return npy("{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(v.size()) + ",), }", v.data(),
             v.size() * sizeof(float));
}

// The data of a one-dimensional .npy file culift wrote, checking its header as NumPy reads it.
template <typename T> std::vector<T> readNpy(const std::string& path, const std::string& dtype) {
  const std::string file = readFile(path);
  REQUIRE(file.size() >= 10);
  REQUIRE(file.compare(0, 8, std::string("\x93NUMPY\x01\x00", 8)) == 0);
  const std::size_t length = static_cast<unsigned char>(file[8]) | (static_cast<unsigned char>(file[9]) << 8);
  REQUIRE((10 + length) % 64 == 0);  // the data is aligned, as NumPy writes it
  const std::string header = file.substr(10, length);
  CHECK(header.find("'descr': '" + dtype + "'") != std::string::npos);
  CHECK(header.find("'fortran_order': False") != std::string::npos);
  std::vector<T> v((file.size() - 10 - length) / sizeof(T));
  CHECK(header.find("'shape': (" + std::to_string(v.size()) + ",)") != std::string::npos);
  std::memcpy(v.data(), file.data() + 10 + length, v.size() * sizeof(T));
  return v;
}

const char* kSource =
    "#define CULIFT_KERNEL [[clang::annotate(\"culift\")]]\n"
    "CULIFT_KERNEL float Scale(const float* x, float a, int i) { return x[i] * a; }\n"
    "CULIFT_KERNEL void Accumulate(float* y, const float* x, int i) { y[i] += x[i]; }\n"
    "CULIFT_KERNEL float Sum(const float* x, int n) { float s = 0; for (int k = 0; k < n; ++k) s += x[k]; return s; }\n";

TEST_CASE("--args @FILE and @- read the arguments from a file and from stdin") {
  TempDir dir;
  const std::string source = dir.file("k.cpp");
  writeFile(source, kSource);
  writeFile(dir.file("args.json"), "[[1, 2, 3.5], 3]\n");
  Run r = runCulift({"run", source, "--function", "Sum", "--args", "@" + dir.file("args.json")}, dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"result\":6.5") != std::string::npos);

  r = runCulift({"run", source, "--function", "Sum", "--args", "@-"}, dir, dir.file("args.json"));
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"result\":6.5") != std::string::npos);

  writeFile(dir.file("bad.json"), "[[1, 2], \"two\"]");
  r = runCulift({"run", source, "--function", "Sum", "--args", "@" + dir.file("bad.json")}, dir);
  CHECK(r.code == 2);  // the file's JSON is checked as --args is
  CHECK(r.err.find("argument 2 ('n', int): \"two\" is not a number") != std::string::npos);
  r = runCulift({"run", source, "--function", "Sum", "--args", "@" + dir.file("missing.json")}, dir);
  CHECK(r.code == 2);
  CHECK(r.err.find("cannot read the arguments from '" + dir.file("missing.json") + "'") != std::string::npos);
}

TEST_CASE("arrays from .npy files, results to .npy files") {
  TempDir dir;
  const std::string source = dir.file("k.cpp");
  writeFile(source, kSource);
  writeFile(dir.file("x.npy"), floatNpy({1.0f, -2.0f, 0.25f, 8.0f}));
  writeFile(dir.file("y.npy"), floatNpy({10.0f, 20.0f, 30.0f, 40.0f}));
  // Relative .npy paths are found beside the arguments file, not in the working directory.
  writeFile(dir.file("args.json"), "[{\"npy\": \"y.npy\"}, {\"npy\": \"x.npy\"}]");
  llvm::sys::fs::create_directory(dir.file("out"));
  Run r = runCulift({"launch", source, "--function", "Accumulate", "--extent", "4", "--backend", "cpu", "--args",
                     "@" + dir.file("args.json"), "--out-npy", dir.file("out")},
                    dir);
  INFO(r.err << r.out);
  REQUIRE(r.code == 0);
  CHECK(readNpy<float>(dir.file("out/y.npy"), "<f4") == std::vector<float>{11.0f, 18.0f, 30.25f, 48.0f});
  auto json = llvm::json::parse(r.out);
  REQUIRE(bool(json));
  const llvm::json::Object* arrays = json->getAsObject()->getObject("arrays");
  REQUIRE(arrays);
  CHECK(arrays->getString("y") == dir.file("out/y.npy"));  // file names instead of numbers

  // `out` too; the JSON on the command line may name .npy files (relative: the working directory).
  r = runCulift({"launch", source, "--function", "Scale", "--extent", "4", "--backend", "cpu", "--args",
                 "[{\"npy\": \"" + dir.file("x.npy") + "\"}, 0.5]", "--out-npy", dir.file("out")},
                dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(readNpy<float>(dir.file("out/out.npy"), "<f4") == std::vector<float>{0.5f, -1.0f, 0.125f, 4.0f});

  // culift run takes .npy arrays as well.
  r = runCulift({"run", source, "--function", "Sum", "--args", "[{\"npy\": \"" + dir.file("x.npy") + "\"}, 4]"}, dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"result\":7.25") != std::string::npos);
}

TEST_CASE("bad .npy files are clear errors with exit status 2") {
  TempDir dir;
  const std::string source = dir.file("k.cpp");
  writeFile(source, kSource);
  const std::vector<double> d = {1, 2, 3, 4};
  const std::vector<float> f = {1, 2, 3, 4};
  struct Bad {
    std::string name, bytes, message;
  };
  const std::vector<Bad> bad = {
      {"double.npy", npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", d.data(), 32),
       "dtype <f8, but the parameter is float (dtype <f4)"},
      {"big.npy", npy("{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }", f.data(), 16), "big-endian"},
      {"fortran.npy", npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", f.data(), 16), "Fortran order"},
      {"short.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", f.data(), 16),
       "truncated: the shape (5,) needs 20 bytes of data, the file has 16"},
      {"long.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", f.data(), 16),
       "4 bytes more than the shape (3,) holds"},
      {"text.npy", "x,y\n1,2\n", "not a NumPy .npy file"},
      {"cut.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", f.data(), 16).substr(0, 30),
       "truncated inside the .npy header"},
  };
  for (const Bad& b : bad) {
    INFO(b.name);
    writeFile(dir.file(b.name), b.bytes);
    Run r = runCulift({"launch", source, "--function", "Scale", "--extent", "4", "--backend", "cpu", "--args",
                       "[{\"npy\": \"" + dir.file(b.name) + "\"}, 0.5]"},
                      dir);
    CHECK(r.code == 2);
    CHECK(r.err.find(b.message) != std::string::npos);
    CHECK(r.err.find("argument 1 ('x', const float*)") != std::string::npos);
  }
  Run r = runCulift({"launch", source, "--function", "Scale", "--extent", "4", "--backend", "cpu", "--args",
                     "[{\"npy\": \"" + dir.file("none.npy") + "\"}, 0.5]"},
                    dir);
  CHECK(r.code == 2);
  CHECK(r.err.find(dir.file("none.npy") + ": cannot read") != std::string::npos);
  r = runCulift({"launch", source, "--function", "Scale", "--extent", "4", "--backend", "cpu", "--args",
                 "[{\"csv\": \"x.csv\"}, 0.5]"},
                dir);
  CHECK(r.code == 2);
  CHECK(r.err.find("must be {\"npy\": \"FILE.npy\"}") != std::string::npos);
  r = runCulift({"launch", source, "--function", "Scale", "--extent", "4", "--backend", "cpu", "--args",
                 "[[1,2,3,4], 0.5]", "--out-npy", dir.file("no/such/dir")},
                dir);
  CHECK(r.code == 2);
  CHECK(r.err.find("--out-npy") != std::string::npos);
}

// Far beyond what one command-line argument can hold (128 KiB): a million floats in, a million
// out, through files only.
TEST_CASE("a launch over a million elements from and to .npy files") {
  TempDir dir;
  const std::string source = dir.file("k.cpp");
  writeFile(source, kSource);
  std::vector<float> x(1 << 20);
  for (std::size_t e = 0; e < x.size(); ++e) x[e] = static_cast<float>(e % 1000) - 500.0f;
  writeFile(dir.file("x.npy"), floatNpy(x));
  writeFile(dir.file("args.json"), "[{\"npy\": \"x.npy\"}, 2]");
  llvm::sys::fs::create_directory(dir.file("out"));
  const auto start = std::chrono::steady_clock::now();
  Run r = runCulift({"launch", source, "--function", "Scale", "--extent", std::to_string(x.size()), "--backend", "cpu",
                     "--args", "@" + dir.file("args.json"), "--out-npy", dir.file("out")},
                    dir);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::vector<float> out = readNpy<float>(dir.file("out/out.npy"), "<f4");
  REQUIRE(out.size() == x.size());
  std::size_t wrong = 0;
  for (std::size_t e = 0; e < x.size(); ++e) wrong += out[e] != x[e] * 2.0f;
  CHECK(wrong == 0);
  WARN("culift launch over 2^20 floats from .npy: " << seconds << " s in all");
}

}  // namespace
