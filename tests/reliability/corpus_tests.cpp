// The bad-input corpus: every file in corpus/ must make `culift emit` exit 1 with a clear
// diagnostic, within a time limit, without crashing. A file marks its offending line with
// `// corpus-error` (or `// corpus-error@+N` for N lines further down): the diagnostic must
// name that line as `file:line:col: error:`. Inputs too big to commit are generated here.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Program.h>

#include "catch.hpp"
#include "deep_inputs.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kCulift = CULIFT_BINARY_DIR "/tools/culift";
const std::string kCorpus = CULIFT_SOURCE_DIR "/tests/reliability/corpus";
constexpr unsigned kTimeLimitSeconds = 20;

struct Run {
  int exitCode = -1;
  std::string output;  // stdout and stderr
  double seconds = 0;
};

Run emit(const std::string& input) {
  llvm::SmallString<128> out, log;
  llvm::sys::fs::createTemporaryFile("culift-corpus", "cu", out);
  llvm::sys::fs::createTemporaryFile("culift-corpus", "log", log);
  const std::string outPath(out), logPath(log);
  llvm::StringRef args[] = {kCulift, "emit", input, "-o", outPath};
  const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(logPath), llvm::StringRef(logPath)};
  Run r;
  const auto start = std::chrono::steady_clock::now();
  std::string err;
  r.exitCode = llvm::sys::ExecuteAndWait(kCulift, args, std::nullopt, redirects, kTimeLimitSeconds, 0, &err);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ifstream in(logPath);
  std::stringstream text;
  text << in.rdbuf();
  r.output = text.str() + err;
  llvm::sys::fs::remove(outPath);
  llvm::sys::fs::remove(logPath);
  return r;
}

// Signs of a crash or an internal failure rather than a diagnostic.
void requireNoCrash(const Run& r) {
  CHECK(r.exitCode != -2);  // killed: crash or time limit
  CHECK(r.output.find("Stack dump") == std::string::npos);
  CHECK(r.output.find("Assertion") == std::string::npos);
  CHECK(r.output.find("internal error") == std::string::npos);
  CHECK(r.output.find("AddressSanitizer") == std::string::npos);
  CHECK(r.output.find("runtime error") == std::string::npos);
  CHECK(r.seconds < kTimeLimitSeconds);
}

// The line a `corpus-error` marker points at (0: the file has none).
unsigned markedLine(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  static const std::regex marker(R"(// corpus-error(@\+(\d+))?)");
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (std::regex_search(line, m, marker)) return n + (m[2].matched ? static_cast<unsigned>(std::stoul(m[2].str())) : 0);
  }
  return 0;
}

std::vector<std::string> corpusFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(kCorpus))
    if (e.is_regular_file()) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string scratchFile(const std::string& name, const std::string& text) {
  llvm::SmallString<128> dir;
  llvm::sys::fs::createUniqueDirectory("culift-corpus", dir);
  const std::string path = std::string(dir) + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

}  // namespace

TEST_CASE("every corpus input gets exit 1 and a located diagnostic, without a crash", "[corpus]") {
  REQUIRE(fs::exists(kCulift));
  const std::vector<std::string> files = corpusFiles();
  REQUIRE(files.size() >= 100);
  unsigned marked = 0;
  for (const std::string& path : files) marked += markedLine(path) != 0;
  CHECK(marked >= 80);
  for (const std::string& path : files) {
    const std::string base = fs::path(path).filename().string();
    DYNAMIC_SECTION(base) {
      const Run r = emit(path);
      INFO(base << " (exit " << r.exitCode << ", " << r.seconds << " s):\n" << r.output);
      requireNoCrash(r);
      CHECK(r.exitCode == 1);
      CHECK(r.output.find("error") != std::string::npos);
      if (const unsigned line = markedLine(path)) {
        const std::regex where(std::regex_replace(base, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") + ":" +
                               std::to_string(line) + R"(:\d+: error: )");
        CHECK(std::regex_search(r.output, where));
      }
    }
  }
}

TEST_CASE("files with nothing to translate say so", "[corpus]") {
  for (const char* name : {"empty.cpp", "whitespace_only.cpp", "comments_only.cpp", "no_annotated_function.cpp"}) {
    const Run r = emit(kCorpus + "/" + name);
    INFO(name << ":\n" << r.output);
    requireNoCrash(r);
    CHECK(r.exitCode == 1);
    CHECK(r.output.find("no functions annotated") != std::string::npos);
  }
}

TEST_CASE("a 10 MB input is read and its error located within the time limit", "[corpus]") {
  std::string text = "#include <culift/annotate.hpp>\n";
  const std::string filler = "// filler: a comment line that makes the file large, 64 bytes.\n";
  unsigned lines = 1;
  while (text.size() < 10u * 1024 * 1024) {
    text += filler;
    ++lines;
  }
  text += "CULIFT_KERNEL int f(int a) {\n  static int calls = 0;\n  return a + calls;\n}\n";
  const std::string path = scratchFile("ten_megabytes.cpp", text);
  const Run r = emit(path);
  INFO(r.output.substr(0, 2000));
  requireNoCrash(r);
  CHECK(r.exitCode == 1);
  CHECK(r.output.find("ten_megabytes.cpp:" + std::to_string(lines + 2) + ":") != std::string::npos);
  fs::remove_all(fs::path(path).parent_path());
}

TEST_CASE("pathologically nested input is a diagnostic, not a crash", "[corpus]") {
  for (const culift::test::DeepInput& input : culift::test::rejectedDeepInputs()) {
    DYNAMIC_SECTION(input.name) {
      const std::string path = scratchFile(input.name, input.source);
      const Run r = emit(path);
      INFO(r.output.substr(0, 2000));
      requireNoCrash(r);
      CHECK(r.exitCode == 1);
      CHECK(r.output.find(input.name + ":" + std::to_string(input.line) + ":") != std::string::npos);
      CHECK(r.output.find(input.error) != std::string::npos);
      fs::remove_all(fs::path(path).parent_path());
    }
  }
}

TEST_CASE("a very long valid expression is translated or rejected cleanly", "[corpus]") {
  std::string sum = "a";
  for (int k = 0; k < 20000; ++k) sum += " + a";
  const std::string path = scratchFile("long_sum.cpp", "#include <culift/annotate.hpp>\nCULIFT_KERNEL int f(int a) {\n  return " + sum + ";\n}\n");
  const Run r = emit(path);
  INFO("exit " << r.exitCode << "\n" << r.output.substr(0, 2000));
  requireNoCrash(r);
  CHECK((r.exitCode == 0 || r.exitCode == 1));
  if (r.exitCode == 1) CHECK(r.output.find("long_sum.cpp:3:") != std::string::npos);
  fs::remove_all(fs::path(path).parent_path());
}

TEST_CASE("a missing input file or a directory is a usage error naming the path", "[corpus]") {
  const Run missing = emit(kCorpus + "/no_such_file.cpp");
  requireNoCrash(missing);
  CHECK(missing.exitCode != 0);
  CHECK(missing.output.find("no_such_file.cpp") != std::string::npos);
  const Run dir = emit(kCorpus);
  requireNoCrash(dir);
  CHECK(dir.exitCode != 0);
  CHECK(dir.output.find("corpus") != std::string::npos);
}
