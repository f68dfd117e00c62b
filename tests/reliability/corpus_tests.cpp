// The bad-input corpus: every file in corpus/ must make `culift emit` exit 1 with the diagnostic
// it expects, within a time limit, without crashing. A file carries its expectation as a comment,
// as clang's -verify does:
//   // expected-error {{text}}        an error at this line whose message contains `text`
//   // expected-error@+N {{text}}     the same, N lines further down
//   // expected-error@file {{text}}   an error of the whole file (`file: error: text`)
// Files that cannot hold a comment (empty, binary) have theirs in kUncommentable below. Inputs
// too big to commit are generated here.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Program.h>

#include "catch.hpp"
#include "deep_inputs.hpp"
#include "temp_files.hpp"

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
  const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(logPath),
                                                      llvm::StringRef(logPath)};
  Run r;
  const auto start = std::chrono::steady_clock::now();
  std::string err;
  r.exitCode = culift::test::executeAndWait(kCulift, args, std::nullopt, redirects, kTimeLimitSeconds, &err);
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

// What a corpus file expects: an error at `line` (0: of the whole file) whose message contains
// `message`.
struct Expected {
  unsigned line = 0;
  std::string message;
};

// The expectation a file's comment states, if it has one.
std::optional<Expected> expectedIn(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  static const std::regex comment(R"(// expected-error(@(\+\d+|file))? \{\{(.*)\}\})");
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (!std::regex_search(line, m, comment)) continue;
    Expected e;
    e.message = m[3].str();
    if (!m[2].matched) e.line = n;
    else if (m[2].str() != "file") e.line = n + static_cast<unsigned>(std::stoul(m[2].str().substr(1)));
    return e;
  }
  return std::nullopt;
}

// Files whose bytes are the test (empty, whitespace, binary): their expectations.
const std::map<std::string, Expected>& uncommentable() {
  static const std::map<std::string, Expected> files = {
      {"empty.cpp", {0, "no functions annotated with CULIFT_KERNEL in"}},
      {"whitespace_only.cpp", {0, "no functions annotated with CULIFT_KERNEL in"}},
      {"garbage_elf_header.cpp", {1, "expected unqualified-id"}},
      {"garbage_invalid_utf8.cpp", {2, "source file is not valid UTF-8"}},
      {"garbage_nul_bytes.cpp", {1, "unknown type name 'CULIFT_KERNEL'"}},
      {"garbage_random_0.bin", {1, "source file is not valid UTF-8"}},
      {"garbage_random_1.bin", {1, "source file is not valid UTF-8"}},
      {"garbage_random_2.bin", {1, "source file is not valid UTF-8"}},
      {"garbage_random_3.bin", {1, "source file is not valid UTF-8"}},
      // Clang's own error, before a file name is known: no location.
      {"garbage_utf16_bom.cpp", {0, "UTF-16 (LE) byte order mark detected"}},
  };
  return files;
}

// Whether `output` holds the expected error: `[dir/]base:line:col: error: ...message...`, or for
// the whole file `[dir/]base: error: ...message...` (or, with no file named, `error: ...message...`).
bool hasExpectedError(const std::string& output, const std::string& base, const Expected& e) {
  std::istringstream lines(output);
  const std::string at = e.line ? base + ":" + std::to_string(e.line) + ":" : base + ": error: ";
  for (std::string line; std::getline(lines, line);) {
    const size_t error = line.find("error: ");
    if (error == std::string::npos || line.find(e.message, error) == std::string::npos) continue;
    if (!e.line && error == 0) return true;
    const size_t where = line.find(at);
    if (where != std::string::npos && where <= error && (where == 0 || line[where - 1] == '/')) return true;
  }
  return false;
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

TEST_CASE("every corpus input gets exit 1 and the diagnostic it expects, without a crash", "[corpus]") {
  REQUIRE(fs::exists(kCulift));
  const std::vector<std::string> files = corpusFiles();
  REQUIRE(files.size() >= 100);
  for (const std::string& path : files) {
    const std::string base = fs::path(path).filename().string();
    DYNAMIC_SECTION(base) {
      std::optional<Expected> expected = expectedIn(path);
      if (auto it = uncommentable().find(base); it != uncommentable().end()) {
        REQUIRE_FALSE(expected);  // one place per file
        expected = it->second;
      }
      if (!expected) FAIL(base << " states no expected-error");
      const Run r = emit(path);
      INFO(base << " (exit " << r.exitCode << ", " << r.seconds << " s), expected "
                << (expected->line ? "at line " + std::to_string(expected->line) : std::string("for the file")) << ": "
                << expected->message << "\n"
                << r.output);
      requireNoCrash(r);
      CHECK(r.exitCode == 1);
      CHECK(hasExpectedError(r.output, base, *expected));
    }
  }
}

TEST_CASE("the corpus check tells a wrong message or line from the right one", "[corpus]") {
  const std::string out = "f.cpp:3:7: error: 'x' is not a parameter\nf.cpp: error: no functions annotated\n";
  CHECK(hasExpectedError(out, "f.cpp", {3, "is not a parameter"}));
  CHECK_FALSE(hasExpectedError(out, "f.cpp", {4, "is not a parameter"}));
  CHECK_FALSE(hasExpectedError(out, "f.cpp", {3, "is not an array"}));
  CHECK(hasExpectedError(out, "f.cpp", {0, "no functions annotated"}));
  CHECK_FALSE(hasExpectedError(out, "g.cpp", {0, "no functions annotated"}));
  CHECK_FALSE(hasExpectedError(out, "f.cpp", {0, "is not a parameter"}));
  CHECK(hasExpectedError("/src/dir/f.cpp:3:1: error: bad\n", "f.cpp", {3, "bad"}));
  CHECK_FALSE(hasExpectedError("/src/dir/xf.cpp:3:1: error: bad\n", "f.cpp", {3, "bad"}));
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
  const std::string path = scratchFile("long_sum.cpp",
                                       "#include <culift/annotate.hpp>\nCULIFT_KERNEL int f(int a) {\n  return " + sum +
                                           ";\n}\n");
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
