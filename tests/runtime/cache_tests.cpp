// The compile cache with real NVRTC compiles: hit after miss, miss reasons, corrupt and
// truncated files discarded and rebuilt, an unwritable directory degrading to memory only.
#include <fstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/compiler.hpp"
#include "culift/runtime/error.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace culift::rt;

namespace {

const char* kKernel = R"(
extern "C" __global__ void twice(const float* x, float* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x)
    y[i] = 2.0f * x[i];
}
)";

// A fresh directory under the system temp dir, removed at the end.
struct TempDir {
  std::string path;
  TempDir() {
    llvm::SmallString<128> p;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-cache-test", p));
    path = std::string(p);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path); }
};

std::shared_ptr<const Nvrtc> nvrtc() {
  static auto n = Nvrtc::load();
  REQUIRE(n);
  return n;
}

CompileRequest request(std::vector<std::string> options = {}) {
  CompileRequest r;
  r.source = kKernel;
  r.programName = "twice.cu";
  r.options = std::move(options);
  r.translatorVersion = "test";
  return r;
}

CompileCache::Options quiet(const std::string& dir, std::vector<std::string>* warnings = nullptr) {
  CompileCache::Options o;
  o.directory = dir;
  o.warn = [warnings](const std::string& m) {
    if (warnings) warnings->push_back(m);
  };
  return o;
}

std::vector<char> readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("a compile misses, is stored, then hits in memory and on disk", "[cache]") {
  TempDir dir;
  const CompileTarget sm90{90, true};
  {
    CompileCache cache(quiet(dir.path));
    CompiledImage first = compileImage(*nvrtc(), &cache, request(), sm90);
    CHECK_FALSE(first.fromCache);
    CHECK(first.milliseconds > 0);
    CHECK(cache.stats().misses == 1);
    CHECK(cache.stats().stores == 1);
    CHECK(cache.lastMiss().reason == MissReason::NoEntry);
    CHECK(llvm::sys::fs::exists(cache.pathFor(first.key)));

    CompiledImage second = compileImage(*nvrtc(), &cache, request(), sm90);
    CHECK(second.fromCache);
    CHECK(*second.image == *first.image);
    CHECK(cache.stats().memoryHits == 1);
  }
  // A new cache object (a new process) finds the file.
  CompileCache cache(quiet(dir.path));
  CompiledImage third = compileImage(*nvrtc(), &cache, request(), sm90);
  CHECK(third.fromCache);
  CHECK(cache.stats().diskHits == 1);
  CHECK(cache.stats().misses == 0);
  CHECK(cache.explain(third.key).reason == MissReason::Hit);
}

TEST_CASE("the key covers options, target, NVRTC and translator versions", "[cache]") {
  auto base = CacheKey::make("src", {"-arch=sm_90"}, "sm_90", "13.0", "0.1.0");
  CHECK(base.digest() != CacheKey::make("src2", {"-arch=sm_90"}, "sm_90", "13.0", "0.1.0").digest());
  CHECK(base.digest() != CacheKey::make("src", {"-arch=sm_90", "--fmad=false"}, "sm_90", "13.0", "0.1.0").digest());
  CHECK(base.digest() != CacheKey::make("src", {"-arch=sm_90"}, "compute_90", "13.0", "0.1.0").digest());
  CHECK(base.digest() != CacheKey::make("src", {"-arch=sm_90"}, "sm_90", "12.8", "0.1.0").digest());
  CHECK(base.digest() != CacheKey::make("src", {"-arch=sm_90"}, "sm_90", "13.0", "0.2.0").digest());
  CHECK(base.digest() == CacheKey::make("src", {"-arch=sm_90"}, "sm_90", "13.0", "0.1.0").digest());
}

TEST_CASE("a miss says which key component differs", "[cache]") {
  TempDir dir;
  CompileCache cache(quiet(dir.path));
  compileImage(*nvrtc(), &cache, request(), {90, true});

  CompileCache fresh(quiet(dir.path));
  CompiledImage strict = compileImage(*nvrtc(), &fresh, request({"--fmad=false"}), {90, true});
  CHECK_FALSE(strict.fromCache);
  MissExplanation why = fresh.lastMiss();
  CHECK(why.reason == MissReason::KeyDiffers);
  CHECK(why.components == std::vector<std::string>{"options"});
  CHECK(why.detail.find("options") != std::string::npos);

  auto other = CacheKey::make("an uncached source", {}, "sm_90", "13.0", "test");
  CHECK(fresh.explain(other).reason == MissReason::NoEntry);
}

TEST_CASE("a truncated cache file is detected, deleted and rebuilt, never loaded", "[cache]") {
  TempDir dir;
  CompiledImage built;
  std::string path;
  {
    CompileCache cache(quiet(dir.path));
    built = compileImage(*nvrtc(), &cache, request(), {90, true});
    path = cache.pathFor(built.key);
  }
  std::vector<char> bytes = readAll(path);
  REQUIRE(bytes.size() > 100);
  bytes.resize(bytes.size() / 2);
  writeAll(path, bytes);

  CompileCache cache(quiet(dir.path));
  CHECK(cache.explain(built.key).reason == MissReason::Corrupt);
  CompiledImage rebuilt = compileImage(*nvrtc(), &cache, request(), {90, true});
  CHECK_FALSE(rebuilt.fromCache);
  CHECK(cache.stats().discarded == 1);
  CHECK(cache.lastMiss().reason == MissReason::Corrupt);
  CHECK(cache.lastMiss().detail.find("truncated") != std::string::npos);
  CHECK(*rebuilt.image == *built.image);
  // The rebuilt file is sound again.
  CompileCache again(quiet(dir.path));
  CHECK(compileImage(*nvrtc(), &again, request(), {90, true}).fromCache);
}

TEST_CASE("a damaged cache file fails its checksum and is rebuilt", "[cache]") {
  TempDir dir;
  CompiledImage built;
  std::string path;
  {
    CompileCache cache(quiet(dir.path));
    built = compileImage(*nvrtc(), &cache, request(), {90, true});
    path = cache.pathFor(built.key);
  }
  std::vector<char> bytes = readAll(path);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);  // one flipped byte in the image
  writeAll(path, bytes);

  CompileCache cache(quiet(dir.path));
  MissExplanation why = cache.explain(built.key);
  CHECK(why.reason == MissReason::Corrupt);
  CHECK(why.detail.find("checksum") != std::string::npos);
  CompiledImage rebuilt = compileImage(*nvrtc(), &cache, request(), {90, true});
  CHECK_FALSE(rebuilt.fromCache);
  CHECK(*rebuilt.image == *built.image);
  CHECK(readAll(path) != bytes);

  // Not a cache file at all.
  writeAll(path, std::vector<char>(200, 'x'));
  CompileCache third(quiet(dir.path));
  CHECK(third.explain(built.key).detail.find("bad magic") != std::string::npos);
}

TEST_CASE("an unwritable cache directory degrades to memory only with a warning", "[cache]") {
  TempDir dir;
  // A directory below a regular file cannot exist, whoever runs the test.
  const std::string blocker = dir.path + "/not-a-directory";
  writeAll(blocker, {'x'});
  std::vector<std::string> warnings;
  CompileCache cache(quiet(blocker + "/cache", &warnings));
  CHECK_FALSE(cache.diskEnabled());
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("memory only") != std::string::npos);
  CompiledImage a = compileImage(*nvrtc(), &cache, request(), {90, true});
  CompiledImage b = compileImage(*nvrtc(), &cache, request(), {90, true});
  CHECK_FALSE(a.fromCache);
  CHECK(b.fromCache);
  CHECK(cache.explain(CacheKey::make("x", {}, "sm_90", "13.0", "t")).reason == MissReason::DiskDisabled);
}

TEST_CASE("the cache directory defaults follow CULIFT_CACHE_DIR and XDG_CACHE_HOME", "[cache]") {
  const char* saved = std::getenv("CULIFT_CACHE_DIR");
  std::string savedValue = saved ? saved : "";
  setenv("CULIFT_CACHE_DIR", "/tmp/culift-explicit", 1);
  CHECK(CompileCache::defaultDirectory() == "/tmp/culift-explicit");
  unsetenv("CULIFT_CACHE_DIR");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  std::string xdgValue = xdg ? xdg : "";
  setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
  CHECK(CompileCache::defaultDirectory() == "/tmp/xdg/culift");
  if (xdg) setenv("XDG_CACHE_HOME", xdgValue.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
  if (saved) setenv("CULIFT_CACHE_DIR", savedValue.c_str(), 1);
}

TEST_CASE("a compile error raises CompileError with the log and the options", "[cache]") {
  CompileRequest bad = request({"--fmad=false"});
  bad.source = "#line 7 \"stats.hpp\"\nextern \"C\" __global__ void k() { int x = ; }\n";
  try {
    compileImage(*nvrtc(), nullptr, bad, {90, true});
    FAIL("no CompileError");
  } catch (const CompileError& e) {
    CHECK(e.log().find("stats.hpp(7)") != std::string::npos);
    CHECK(e.options() == std::vector<std::string>{"-arch=sm_90a", "--fmad=false"});
    CHECK(e.arch() == 90);
    CHECK(std::string(e.what()).find("stats.hpp(7)") != std::string::npos);
  }
}

TEST_CASE("the target is the device's exact cubin, else PTX for an older architecture", "[cache]") {
  auto archs = nvrtc()->supportedArchs();
  REQUIRE_FALSE(archs.empty());
  CompileTarget exact = chooseTarget(*nvrtc(), 90);
  CHECK(exact.cubin);
  CHECK(exact.name() == "sm_90");
  // An architecture NVRTC does not list (between two it does, or newer than all).
  CompileTarget newer = chooseTarget(*nvrtc(), archs.back() + 1);
  CHECK_FALSE(newer.cubin);
  CHECK(newer.arch == archs.back());
  CHECK(newer.name() == "compute_" + std::to_string(archs.back()));
  CHECK_THROWS_AS(chooseTarget(*nvrtc(), archs.front() - 1), Error);
}
