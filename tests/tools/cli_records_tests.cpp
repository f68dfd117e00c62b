// `culift run` and `culift launch` with arrays of structs: records in as JSON objects keyed by
// field path (flat, "pos_x", or nested, {"pos": {"x": ...}}) or as the records' scalars, records
// out as objects; a missing, unknown or repeated field is a clear error with exit status 2.
#include <cstring>
#include <optional>
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

struct TempDir : culift::test::TempDir {
  TempDir() : culift::test::TempDir("culift-records") {}
};

const std::string kCulift = std::string(CULIFT_BINARY_DIR) + "/tools/culift";

struct Run {
  int code = -1;
  std::string out, err;
};

Run runCulift(const std::vector<std::string>& args, const TempDir& dir) {
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  std::vector<llvm::StringRef> argv = {kCulift};
  for (const std::string& a : args) argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), llvm::StringRef(err)};
  const int code = culift::test::executeAndWait(kCulift, argv, std::nullopt, redirects);
  return {code, readFile(out), readFile(err)};
}

const char* kSource =
    "#include <culift/annotate.hpp>\n"
    "struct Vec3 { float x, y, z; };\n"
    "struct Particle { Vec3 pos; Vec3 vel; float mass; };\n"
    "CULIFT_KERNEL float Kinetic(const Particle* ps, int i) { return 0.5f * ps[i].mass * ps[i].vel.x * ps[i].vel.x; }\n"
    "CULIFT_KERNEL void Step(const Particle* in, Particle* out, float dt, int i) {\n"
    "  Particle p = in[i];\n"
    "  p.pos.x += dt * p.vel.x;\n"
    "  out[i] = p;\n"
    "}\n"
    "CULIFT_KERNEL Particle Advance(const Particle* in, float dt, int i) {\n"
    "  Particle p = in[i];\n"
    "  p.pos.x += dt * p.vel.x;\n"
    "  return p;\n"
    "}\n"
    "CULIFT_KERNEL Vec3 Spread(float a, float b) { return {a, b, a * b}; }\n";

const std::string kInclude = "-I" CULIFT_SOURCE_DIR "/include";

// Two particles, every field by its path.
const char* kParticles =
    "[{\"pos_x\": 1, \"pos_y\": 2, \"pos_z\": 3, \"vel_x\": 4, \"vel_y\": 5, \"vel_z\": 6, \"mass\": 0.5},"
    " {\"pos_x\": -1, \"pos_y\": 0, \"pos_z\": 0, \"vel_x\": 2, \"vel_y\": 0, \"vel_z\": 0, \"mass\": 3}]";

llvm::json::Object parse(const Run& r) {
  INFO(r.out << r.err);
  auto v = llvm::json::parse(r.out);
  REQUIRE(bool(v));
  REQUIRE(v->getAsObject());
  return *v->getAsObject();
}

std::vector<double> numbers(const llvm::json::Array* a) {
  REQUIRE(a);
  std::vector<double> v;
  for (const llvm::json::Value& x : *a) v.push_back(x.getAsNumber().value_or(-999));
  return v;
}

}  // namespace

TEST_CASE("culift launch takes records as objects keyed by field path and prints them so") {
  TempDir dir;
  const std::string source = dir.file("particles.hpp");
  writeFile(source, kSource);
  auto launch = [&](const std::string& function, const std::string& args) {
    return runCulift({"launch", source, "--function", function, "--extent", "2", "--backend", "cpu", "--args", args,
                      "--", kInclude},
                     dir);
  };
  Run r = launch("Kinetic", std::string("[") + kParticles + "]");
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(numbers(parse(r).getArray("out")) == std::vector<double>{4, 6});  // 0.5 * m * vx * vx

  // Nested objects, as the struct is written, in any order.
  r = launch(
      "Kinetic",
      "[[{\"mass\": 0.5, \"vel\": {\"x\": 4, \"y\": 5, \"z\": 6}, \"pos\": {\"x\": 1, \"y\": 2, \"z\": 3}},"
      "  {\"pos\": {\"x\": -1, \"y\": 0, \"z\": 0}, \"vel_x\": 2, \"vel\": {\"y\": 0, \"z\": 0}, \"mass\": 3}]]");
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(numbers(parse(r).getArray("out")) == std::vector<double>{4, 6});

  // The records' floats, as the kernel reads them.
  r = launch("Kinetic", "[[1, 2, 3, 4, 5, 6, 0.5, -1, 0, 0, 2, 0, 0, 3]]");
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(numbers(parse(r).getArray("out")) == std::vector<double>{4, 6});

  // A written array of records prints as records.
  r = launch("Step", std::string("[") + kParticles + ", [{\"pos_x\": 0, \"pos_y\": 0, \"pos_z\": 0, \"vel_x\": 0, " +
                         "\"vel_y\": 0, \"vel_z\": 0, \"mass\": 0}, {\"pos_x\": 0, \"pos_y\": 0, \"pos_z\": 0, " +
                         "\"vel_x\": 0, \"vel_y\": 0, \"vel_z\": 0, \"mass\": 0}], 0.25]");
  INFO(r.err);
  REQUIRE(r.code == 0);
  const llvm::json::Object o = parse(r);
  const llvm::json::Array* out = o.getObject("arrays") ? o.getObject("arrays")->getArray("out") : nullptr;
  REQUIRE(out);
  REQUIRE(out->size() == 2);
  const llvm::json::Object* first = (*out)[0].getAsObject();
  REQUIRE(first);
  CHECK(first->getNumber("pos_x") == 2.0);  // 1 + 0.25 * 4
  CHECK(first->getNumber("vel_z") == 6.0);
  CHECK(first->getNumber("mass") == 0.5);
  CHECK(first->size() == 7);
  CHECK((*out)[1].getAsObject()->getNumber("pos_x") == -0.5);
  // Fields in declaration order.
  CHECK(r.out.find("{\"pos_x\":2,\"pos_y\":2,\"pos_z\":3,\"vel_x\":4,\"vel_y\":5,\"vel_z\":6,\"mass\":0.5}") !=
        std::string::npos);

  // A flat output array of records still prints as records.
  r = launch("Step", std::string("[") + kParticles + ", [0,0,0,0,0,0,0, 0,0,0,0,0,0,0], 0.25]");
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("{\"pos_x\":-0.5,") != std::string::npos);
}

TEST_CASE("culift run takes and prints records too") {
  TempDir dir;
  const std::string source = dir.file("particles.hpp");
  writeFile(source, kSource);
  Run r = runCulift({"run", source, "--function", "Kinetic", "--args", std::string("[") + kParticles + ", 1]", "--",
                     kInclude},
                    dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"result\":6") != std::string::npos);
  r = runCulift({"run", source, "--function", "Step", "--args",
                 std::string("[") + kParticles + ", [0,0,0,0,0,0,0, 0,0,0,0,0,0,0], 0.5, 1]", "--", kInclude},
                dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find(
            "\"arrays\":{\"out\":[{\"pos_x\":0,\"pos_y\":0,\"pos_z\":0,\"vel_x\":0,\"vel_y\":0,\"vel_z\":0,"
            "\"mass\":0},{\"pos_x\":0,\"pos_y\":0,\"pos_z\":0,\"vel_x\":2,\"vel_y\":0,\"vel_z\":0,\"mass\":3}]}") !=
        std::string::npos);
}

TEST_CASE("records from files: --args @FILE, and a .npy of the records' floats") {
  TempDir dir;
  const std::string source = dir.file("particles.hpp");
  writeFile(source, kSource);
  writeFile(dir.file("args.json"), std::string("[") + kParticles + "]");
  Run r = runCulift({"launch", source, "--function", "Kinetic", "--extent", "2", "--backend", "cpu", "--args",
                     "@" + dir.file("args.json"), "--", kInclude},
                    dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(numbers(parse(r).getArray("out")) == std::vector<double>{4, 6});

  const std::vector<float> floats = {1, 2, 3, 4, 5, 6, 0.5f, -1, 0, 0, 2, 0, 0, 3};
  std::string npy("\x93NUMPY\x01\x00", 8);
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 7), }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  npy += static_cast<char>(header.size());
  npy += '\0';
  npy += header;
  npy.append(reinterpret_cast<const char*>(floats.data()), floats.size() * sizeof(float));
  writeFile(dir.file("ps.npy"), npy);
  llvm::sys::fs::create_directory(dir.file("out"));
  r = runCulift({"launch", source, "--function", "Step", "--extent", "2", "--backend", "cpu", "--args",
                 "[{\"npy\": \"" + dir.file("ps.npy") + "\"}, {\"npy\": \"" + dir.file("ps.npy") + "\"}, 1]",
                 "--out-npy", dir.file("out"), "--", kInclude},
                dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  // The written records go to a .npy of their floats, as they lie in memory.
  const std::string written = readFile(dir.file("out/out.npy"));
  REQUIRE(written.size() >= 14 * sizeof(float));
  std::vector<float> back(14);
  std::memcpy(back.data(), written.data() + written.size() - 14 * sizeof(float), 14 * sizeof(float));
  std::vector<float> want = floats;
  want[0] += 4;  // pos_x += 1 * vel_x
  want[7] += 2;
  CHECK(back == want);
}

TEST_CASE("a record with a field missing, unknown or given twice is an error with exit status 2") {
  TempDir dir;
  const std::string source = dir.file("particles.hpp");
  writeFile(source, kSource);
  struct Bad {
    std::string args, message;
  };
  const std::string good = "{\"pos_x\": 1, \"pos_y\": 2, \"pos_z\": 3, \"vel_x\": 4, \"vel_y\": 5, \"vel_z\": 6, ";
  const std::vector<Bad> bad = {
      {"[[" + good + "\"mass\": 1}, " + good + "\"weight\": 1}]]",
       "argument 1 ('ps', const Particle*), record 1: Particle has no field 'weight' (its fields: pos_x, pos_y, "
       "pos_z, vel_x, vel_y, vel_z, mass)"},
      {"[[" + good + "\"mass\": 1}, " + good + "\"pos\": {}}]]",
       "argument 1 ('ps', const Particle*), record 1: field 'mass' is missing"},
      {"[[" + good + "\"mass\": 1, \"pos\": {\"x\": 7}}]]",
       "argument 1 ('ps', const Particle*), record 0: field 'pos_x' is given twice"},
      {"[[" + good + "\"mass\": \"heavy\"}]]",
       "argument 1 ('ps', const Particle*), record 0, field 'mass': \"heavy\" is not a number"},
      {"[[" + good + "\"mass\": 1}, 5]]",
       "argument 1 ('ps', const Particle*), record 1: expected an object keyed by Particle's fields"},
      {"[7]",
       "argument 1 ('ps', const Particle*): expected an array of Particle records (objects keyed by field), "
       "of numbers or {\"npy\": \"FILE.npy\"}"},
  };
  for (const Bad& b : bad) {
    INFO(b.args);
    for (const char* verb : {"launch", "run"}) {
      INFO(verb);
      std::vector<std::string> args = {verb, source, "--function", "Kinetic", "--args"};
      args.push_back(std::string(verb) == "run" ? b.args.substr(0, b.args.size() - 1) + ", 0]" : b.args);
      if (std::string(verb) == "launch") args.insert(args.end(), {"--extent", "1", "--backend", "cpu"});
      args.insert(args.end(), {"--", kInclude});
      const Run r = runCulift(args, dir);
      CHECK(r.code == 2);
      CHECK(r.err.find(b.message) != std::string::npos);
      INFO(r.err);
    }
  }
}

TEST_CASE("a kernel returning a struct: culift launch prints out as records, culift run its result as one") {
  TempDir dir;
  const std::string source = dir.file("particles.hpp");
  writeFile(source, kSource);
  Run r = runCulift({"launch", source, "--function", "Advance", "--extent", "2", "--backend", "cpu", "--args",
                     std::string("[") + kParticles + ", 0.25]", "--", kInclude},
                    dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"out\":[{\"pos_x\":2,\"pos_y\":2,\"pos_z\":3,\"vel_x\":4,\"vel_y\":5,\"vel_z\":6,"
                   "\"mass\":0.5},{\"pos_x\":-0.5,") != std::string::npos);
  r = runCulift({"run", source, "--function", "Spread", "--args", "[1.5, -2]", "--", kInclude}, dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("\"result\":{\"x\":1.5,\"y\":-2,\"z\":-3}") != std::string::npos);
  // The result's fields are not arguments.
  r = runCulift({"run", source, "--function", "Spread", "--args", "[1.5, -2, 0, 0, 0]", "--", kInclude}, dir);
  CHECK(r.code == 2);
  CHECK(r.err.find("'Spread' takes 2 arguments (float a, float b), --args has 5") != std::string::npos);
}
