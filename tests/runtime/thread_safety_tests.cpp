// What docs/runtime.md promises to a host app that uses culift from many threads and processes:
// translate() from any number of threads; one Engine shared by threads that launch on their own
// streams, first use of a kernel (compile + load) included; several processes on one compile
// cache directory. The CPU backend runs them everywhere; the [gpu] cases run them on a device
// and print "skipped: no GPU" without one.
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <latch>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/runtime/tuning.hpp"
#include "culift/translate.hpp"
#include "gpu_support.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "test_kernels.hpp"

namespace {

using namespace culift;
using namespace culift::rt;

constexpr unsigned kThreads = 16;

class TempDir {
 public:
  TempDir() {
    llvm::SmallString<128> path;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-threads", path));
    path_ = std::string(path.str());
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path_); }
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// One thread's own kernel: out[i] = x[i] * (t + 2), a different module for every thread.
std::string scaledSource(unsigned t) {
  return "#include <culift/annotate.hpp>\nCULIFT_KERNEL float Scaled(const float* x, int i) { return x[i] * " +
         std::to_string(t + 2) + ".0f; }\n";
}

// Runs body(t) on kThreads threads that start together; collects what they report.
class Crowd {
 public:
  template <typename Body> void run(Body body) {
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < kThreads; ++t)
      threads.emplace_back([&, t] {
        start.arrive_and_wait();
        try {
          body(t);
        } catch (const std::exception& e) {
          fail("thread " + std::to_string(t) + ": " + e.what());
        }
      });
    for (std::thread& th : threads) th.join();
  }
  void fail(const std::string& what) {
    std::lock_guard lock(mutex_);
    failures_.push_back(what);
  }
  // Catch's assertions are not thread-safe: threads report here, the test checks after joining.
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  std::mutex mutex_;
  std::vector<std::string> failures_;
};

// Every thread launches the shared module's Scale (first use concurrent) and its own translated
// kernel, `launches` times each, on its own stream, checking every result.
void launchFromThreads(Engine& engine, unsigned launches) {
  const std::shared_ptr<const Module> shared = rttest::makeTestModule();
  std::vector<std::shared_ptr<const Module>> own(kThreads);
  for (unsigned t = 0; t < kThreads; ++t) {
    TranslateResult r = translateSource(scaledSource(t), "scaled_" + std::to_string(t) + ".cpp");
    REQUIRE(r.ok());
    own[t] = r.module;
  }
  Crowd crowd;
  crowd.run([&](unsigned t) {
    Kernel scale = engine.kernel(shared, "Scale");
    Kernel scaled = engine.kernel(own[t], "Scaled");
    Stream stream = engine.createStream();
    std::vector<float> x(257);
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k) - 100.0f;
    DeviceBuffer<float> dx(engine, x), out(engine, x.size()), mine(engine, x.size());
    const float a = static_cast<float>(t) + 0.5f;
    for (unsigned n = 0; n < launches; ++n) {
      scale.launch(stream, LaunchPlanner::for1D(static_cast<std::int64_t>(x.size()), 64),
                   static_cast<const DeviceBuffer<float>&>(dx), a, out);
      scaled.launch(stream, LaunchPlanner::for1D(static_cast<std::int64_t>(x.size()), 64),
                    static_cast<const DeviceBuffer<float>&>(dx), mine);
      if (n % 50 != 0 && n + 1 != launches) continue;
      stream.synchronize();
      std::vector<float> got(x.size()), gotMine(x.size());
      out.readBytes(got.data(), got.size() * sizeof(float), 0, &stream);
      mine.readBytes(gotMine.data(), gotMine.size() * sizeof(float), 0, &stream);
      stream.synchronize();
      for (std::size_t k = 0; k < x.size(); ++k) {
        if (got[k] != x[k] * a || gotMine[k] != x[k] * static_cast<float>(t + 2)) {
          crowd.fail("thread " + std::to_string(t) + ", launch " + std::to_string(n) + ", element " +
                     std::to_string(k) + ": Scale " + std::to_string(got[k]) + ", Scaled " +
                     std::to_string(gotMine[k]));
          return;
        }
      }
    }
  });
  for (const std::string& f : crowd.failures()) FAIL_CHECK(f);
  CHECK(crowd.failures().empty());
  // The shared module compiled and loaded once, however many threads asked for it first; and
  // each thread's module once.
  CHECK(engine.compileRecords().size() == kThreads + 1);
}

// What a process sharing the cache directory does: for each of `keys` keys, find the image or
// store it, and check every image found is the one stored for that key. Returns a failure.
std::string useSharedCache(const std::string& directory, unsigned keys, unsigned rounds) {
  for (unsigned round = 0; round < rounds; ++round) {
    CompileCache cache(CompileCache::Options{directory, true, [](const std::string&) {}});
    for (unsigned k = 0; k < keys; ++k) {
      const CacheKey key = CacheKey::make("source " + std::to_string(k), {"-arch=sm_90"}, "sm_90", "13.0", "test");
      const std::vector<char> image(4096 + k * 512, static_cast<char>('a' + k % 26));
      auto found = cache.find(key);
      if (!found) found = cache.store(key, image);
      if (*found != image) return "key " + std::to_string(k) + ": another image came back";
    }
    const CacheStats s = cache.stats();
    if (s.discarded != 0 || s.writeFailures != 0)
      return std::to_string(s.discarded) + " file(s) found corrupt, " + std::to_string(s.writeFailures) +
             " write failure(s)";
  }
  return {};
}

}  // namespace

TEST_CASE("translate() from 16 threads at once gives each the module a lone call gives", "[threads]") {
  std::vector<std::string> alone(kThreads);
  for (unsigned t = 0; t < kThreads; ++t) {
    TranslateResult r = translateSource(scaledSource(t), "scaled.cpp");
    REQUIRE(r.ok());
    alone[t] = r.module->cudaSource;
  }
  std::vector<std::string> together(kThreads);
  Crowd crowd;
  crowd.run([&](unsigned t) {
    TranslateResult r = translateSource(scaledSource(t), "scaled.cpp");
    if (!r.ok()) return crowd.fail(r.formatDiagnostics());
    together[t] = r.module->cudaSource;
  });
  for (const std::string& f : crowd.failures()) FAIL_CHECK(f);
  for (unsigned t = 0; t < kThreads; ++t) CHECK(together[t] == alone[t]);
}

TEST_CASE("translate() never moves the process's working directory, even with a compilation database", "[threads]") {
  TempDir dir;
  const std::string source = dir.file("kernel.cpp");
  std::ofstream(source) << "#include <culift/annotate.hpp>\n#include \"scale.h\"\n"
                           "CULIFT_KERNEL float Scaled(const float* x, int i) { return x[i] * kScale; }\n";
  llvm::sys::fs::create_directories(dir.file("include"));
  std::ofstream(dir.file("include/scale.h")) << "constexpr float kScale = 3.0f;\n";
  // The include directory is relative to the compile command's directory, not to ours.
  std::ofstream(dir.file("compile_commands.json"))
      << "[{\"directory\": \"" << dir.path() << "\", \"file\": \"kernel.cpp\", "
      << "\"arguments\": [\"clang++\", \"-std=c++20\", \"-Iinclude\", \"-c\", \"kernel.cpp\"]}]\n";
  llvm::SmallString<256> before;
  REQUIRE_FALSE(llvm::sys::fs::current_path(before));
  REQUIRE(std::string(before) != dir.path());

  std::atomic<bool> done{false};
  std::atomic<unsigned> moved{0};
  std::thread watcher([&] {
    llvm::SmallString<256> now;
    while (!done) {
      if (!llvm::sys::fs::current_path(now) && now != before) ++moved;
    }
  });
  TranslateOptions options;
  options.buildDir = dir.path();
  std::vector<TranslateResult> results(4);
  for (TranslateResult& r : results) r = translate(source, options);
  done = true;
  watcher.join();
  for (const TranslateResult& r : results) {
    INFO(r.formatDiagnostics());
    CHECK(r.ok());
  }
  CHECK(moved == 0);
  llvm::SmallString<256> after;
  REQUIRE_FALSE(llvm::sys::fs::current_path(after));
  CHECK(std::string(after) == std::string(before));
}

TEST_CASE("one CPU engine shared by 16 threads: first use of kernels and launches on own streams", "[threads]") {
  if (!Engine::cpuBackendAvailable()) {
    WARN("skipped: culift was built without the interpreter (no CPU backend)");
    return;
  }
  EngineOptions options;
  options.cpuThreads = 1;  // 16 threads launching already keep every core busy
  auto engine = Engine::createCpu(options);
  launchFromThreads(*engine, 300);  // 16 x 300 x 2 launches
}

TEST_CASE("one GPU engine shared by 16 threads: first use of kernels and launches on own streams", "[threads][gpu]") {
  TempDir cache;
  EngineOptions options;
  options.cacheDir = cache.path();
  std::string why;
  auto engine = Engine::tryCreate(options, &why);
  if (!engine) {
    culift::test::noGpu(why);
    return;
  }
  launchFromThreads(*engine, 300);
}

TEST_CASE("16 threads launching one tiled kernel at one new shape: its choice measured once, every result exact",
          "[threads][gpu][tuning]") {
  TempDir cache;
  EngineOptions options;
  options.cacheDir = cache.path();
  options.math = MathMode::Strict;
  options.tuneEntries = true;
  std::string why;
  auto engine = Engine::tryCreate(options, &why);
  if (!engine) {
    culift::test::noGpu(why);
    return;
  }
  if (!tuneEntries(options)) {
    WARN("skipped: CULIFT_TUNE turns measured entry choices off");
    return;
  }
  TranslateResult r = translateSource(
      "#include <culift/annotate.hpp>\n"
      "CULIFT_KERNEL float Mm(const float* A, const float* B, int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n"
      "  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n"
      "  return s;\n}\n",
      "mm.cpp");
  REQUIRE(r.ok());
  const int ni = 600, nj = 700, nk = 64;
  const LaunchPlan plan = LaunchPlanner::for2D(ni, nj);
  REQUIRE(planCandidates(*r.module->find("Mm"), plan, engine->device()).size() > 1);
  LaunchPlan perThread = plan;
  perThread.perThread = true;
  std::atomic<int> measured{0};
  Crowd crowd;
  crowd.run([&](unsigned t) {
    Kernel mm = engine->kernel(r.module, "Mm");
    Stream stream = engine->createStream();
    std::vector<float> a(static_cast<std::size_t>(ni) * nk), b(static_cast<std::size_t>(nk) * nj);
    for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<float>((k * 7 + t) % 13) * 0.25f - 1.5f;
    for (std::size_t k = 0; k < b.size(); ++k) b[k] = static_cast<float>((k * 5 + 3 * t) % 11) * 0.125f - 0.5f;
    const DeviceBuffer<float> da(*engine, a), db(*engine, b);
    DeviceBuffer<float> want(*engine, static_cast<std::size_t>(ni) * nj), got(*engine, want.size());
    mm.launch(stream, perThread, da, db, nk, nj, want);
    for (int n = 0; n < 3; ++n) {  // the first untimed, the second (of some thread) measured
      mm.launch(stream, plan, da, db, nk, nj, got);
      stream.synchronize();
      const std::optional<EntryLaunch> ran = mm.lastLaunch();
      if (ran && ran->measured) ++measured;
      if (got.read() != want.read()) {
        crowd.fail("thread " + std::to_string(t) + ", launch " + std::to_string(n) + ": not the per-thread bits");
        return;
      }
    }
  });
  for (const std::string& f : crowd.failures()) FAIL_CHECK(f);
  CHECK(crowd.failures().empty());
  CHECK(measured > 0);  // the launches after the first that measured found the choice
  // One line a measurement on disk, every one of the same key.
  std::ifstream table(TuningTable::fileFor(cache.path(), engine->device()));
  std::size_t lines = 0;
  for (std::string line; std::getline(table, line);) lines += !line.empty();
  CHECK(lines >= 1);
  CHECK(lines <= kThreads);
}

TEST_CASE("several processes and threads on one empty cache directory", "[threads][cache]") {
  TempDir dir;
  const std::string directory = dir.file("cache");  // not there yet: every process creates it
  constexpr int kProcesses = 6;
  std::vector<pid_t> children;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // A child: four threads, each its own cache object, as four engines would have.
      std::vector<std::string> failures(4);
      std::vector<std::thread> threads;
      for (unsigned t = 0; t < failures.size(); ++t)
        threads.emplace_back([&, t] { failures[t] = useSharedCache(directory, 24, 3); });
      for (std::thread& th : threads) th.join();
      for (const std::string& f : failures)
        if (!f.empty()) {
          std::fprintf(stderr, "process %d: %s\n", p, f.c_str());
          _exit(1);
        }
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  // Afterwards: one sound file per key, no temporary left behind, and every key a disk hit.
  unsigned images = 0, others = 0;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec))
    (llvm::StringRef(it->path()).endswith(".culift-image") ? images : others) += 1;
  CHECK(images == 24);
  CHECK(others == 0);
  CompileCache fresh(CompileCache::Options{directory, true, {}});
  CHECK(useSharedCache(directory, 24, 1).empty());
  for (unsigned k = 0; k < 24; ++k)
    CHECK(fresh.find(CacheKey::make("source " + std::to_string(k), {"-arch=sm_90"}, "sm_90", "13.0", "test")));
  CHECK(fresh.stats().diskHits == 24);
}

// A worker of the next test: one process of several on one cache directory ($CULIFT_TEST_CACHE_DIR).
TEST_CASE("GPU cache worker", "[.gpu-cache-worker]") {
  const char* directory = std::getenv("CULIFT_TEST_CACHE_DIR");
  REQUIRE(directory);
  EngineOptions options;
  options.cacheDir = directory;
  auto engine = Engine::tryCreate(options);
  REQUIRE(engine);
  std::vector<float> x(1000, 2.0f);
  DeviceBuffer<float> dx(*engine, x), out(*engine, x.size());
  engine->kernel(rttest::makeTestModule(), "Scale")
      .launch(*engine, LaunchPlanner::for1D(1000), static_cast<const DeviceBuffer<float>&>(dx), 1.5f, out);
  engine->synchronize();
  CHECK(out.read() == std::vector<float>(1000, 3.0f));
  CHECK(engine->cache().stats().discarded == 0);
}

TEST_CASE("several processes with GPU engines on one empty cache directory", "[threads][cache][gpu]") {
  if (!rttest::gpuOrSkip()) return;
  TempDir dir;
  const std::string directory = dir.file("cache");
  static int anchor = 0;
  const std::string self = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.emplace_back(*e);
  env.push_back("CULIFT_TEST_CACHE_DIR=" + directory);
  std::vector<llvm::StringRef> envRefs(env.begin(), env.end());
  std::vector<llvm::StringRef> argv = {self, "[.gpu-cache-worker]"};
  // Each worker's output goes to its own file, shown when it fails.
  std::vector<std::string> logs;
  std::vector<llvm::sys::ProcessInfo> workers;
  for (int p = 0; p < 8; ++p) {
    logs.push_back(dir.file("worker" + std::to_string(p) + ".txt"));
    const std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(logs.back()),
                                                        llvm::StringRef(logs.back())};
    workers.push_back(llvm::sys::ExecuteNoWait(self, argv, envRefs, redirects));
  }
  for (std::size_t p = 0; p < workers.size(); ++p) {
    REQUIRE(workers[p].Pid > 0);
    const llvm::sys::ProcessInfo done = llvm::sys::Wait(workers[p], std::nullopt);
    std::ifstream log(logs[p]);
    INFO(std::string(std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>()));
    CHECK(done.ReturnCode == 0);
  }
  // A ninth engine finds the module in the directory the eight filled.
  EngineOptions options;
  options.cacheDir = directory;
  auto engine = Engine::tryCreate(options);
  REQUIRE(engine);
  (void)engine->kernel(rttest::makeTestModule(), "Scale");
  const std::vector<CompileRecord> records = engine->compileRecords();
  REQUIRE(records.size() == 1);
  CHECK(records.front().fromCache);
}
