// Diagnostic tests in Clang's style: every file in diagnostics/ marks each offending line with
// `// expected-error {{part of the message}}` or `// expected-warning {{...}}` (or
// `expected-error@+N` / `@-N` for another line). The file is translated once; the errors and
// warnings reported must be exactly the expected ones.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "temp_files.hpp"
#include "translate_support.hpp"

using namespace culift;

namespace {

const std::string kDiagnosticsDir = std::string(CULIFT_SOURCE_DIR) + "/tests/translator/diagnostics";

struct Expectation {
  unsigned line;
  std::string text;
  Severity severity = Severity::Error;
  bool matched = false;
};

std::vector<Expectation> parseExpectations(const std::string& path) {
  std::ifstream in(path);
  std::vector<Expectation> out;
  static const std::regex kMarker(R"(expected-(error|warning)(@([+-]\d+))?\s*\{\{(.*?)\}\})");
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    for (std::sregex_iterator it(line.begin(), line.end(), kMarker), end; it != end; ++it) {
      const int offset = (*it)[3].matched ? std::stoi((*it)[3].str()) : 0;
      out.push_back({static_cast<unsigned>(static_cast<int>(n) + offset), (*it)[4].str(),
                     (*it)[1].str() == "error" ? Severity::Error : Severity::Warning});
    }
  }
  return out;
}

std::vector<std::string> diagnosticFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kDiagnosticsDir))
    if (entry.path().extension() == ".cpp") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Checks one file; returns a description of every mismatch (empty when all match).
std::string check(const std::string& path) {
  std::vector<Expectation> expected = parseExpectations(path);
  TranslateResult r = translate(path);
  std::ostringstream problems;
  if (expected.empty()) problems << "no expected-error or expected-warning markers in the file\n";
  const bool errorsExpected = std::any_of(expected.begin(), expected.end(),
                                          [](const Expectation& e) { return e.severity == Severity::Error; });
  if (r.ok() && errorsExpected) problems << "translation succeeded but errors were expected\n";
  if (!r.ok() && !errorsExpected) problems << "translation failed but only warnings were expected\n";
  for (const Diagnostic& d : r.diagnostics) {
    if (d.severity == Severity::Note) continue;
    const char* what = d.severity == Severity::Error ? "error" : "warning";
    if (d.loc.file != path) problems << what << " in another file: " << d.format();
    auto it = std::find_if(expected.begin(), expected.end(), [&](const Expectation& e) {
      return !e.matched && e.severity == d.severity && e.line == d.loc.line &&
             d.message.find(e.text) != std::string::npos;
    });
    if (it == expected.end()) {
      problems << "unexpected " << what << ":\n" << d.format();
      continue;
    }
    it->matched = true;
  }
  for (const Expectation& e : expected)
    if (!e.matched)
      problems << "expected " << (e.severity == Severity::Error ? "error" : "warning") << " not reported: line "
               << e.line << ": {{" << e.text << "}}\n";
  if (!problems.str().empty()) problems << "--- all diagnostics ---\n" << r.formatDiagnostics();
  return problems.str();
}

}  // namespace

TEST_CASE("every diagnostics/*.cpp reports exactly its expected errors and warnings, all in one run", "[diagnostics]") {
  const std::vector<std::string> files = diagnosticFiles();
  REQUIRE(files.size() >= 15);
  for (const std::string& path : files) {
    DYNAMIC_SECTION(std::filesystem::path(path).filename().string()) {
      const std::string problems = check(path);
      INFO(problems);
      CHECK(problems.empty());
    }
  }
}

TEST_CASE("diagnostics are formatted as file:line:col: error: with the source line and a caret", "[diagnostics]") {
  const std::string path = kDiagnosticsDir + "/recursion.cpp";
  TranslateResult r = translate(path);
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.diagnostics.size() == 3);
  const Diagnostic& d = r.diagnostics[0];
  CHECK(d.loc.line == 6);
  CHECK(d.loc.column == 14);
  CHECK(d.hint == "recursion is not supported on the device: pass the depth as a loop bound");
  const std::string text = d.format();
  CHECK_THAT(text, Catch::StartsWith(path + ":6:14: error: recursive call to 'factorial'\n"));
  CHECK_THAT(text,
             Catch::Contains("\n  return n * factorial(n - 1);  // expected-error {{recursive call to 'factorial'}}\n"
                             "             ^\n"));
  CHECK_THAT(text, Catch::EndsWith("note: recursion is not supported on the device: pass the depth as a loop bound\n"));
  // Every error carries its line, also those found by Clang itself.
  TranslateResult clangErrors = translate(kDiagnosticsDir + "/clang_errors.cpp");
  REQUIRE(clangErrors.diagnostics.size() >= 2);
  for (const Diagnostic& e : clangErrors.diagnostics) {
    if (e.severity != Severity::Error) continue;
    CHECK_FALSE(e.sourceLine.empty());
    CHECK_THAT(e.format(),
               Catch::Contains(":" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.column) + ": error: "));
  }
}

TEST_CASE("colored diagnostics use ANSI escapes", "[diagnostics]") {
  TranslateResult r = translate(kDiagnosticsDir + "/asm.cpp");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.formatDiagnostics(true), Catch::Contains("\x1b[1;31merror: "));
  CHECK_THAT(r.formatDiagnostics(false), !Catch::Contains("\x1b["));
}

TEST_CASE("the recursion hint and the pointer hint are given", "[diagnostics]") {
  TranslateResult r = translate(kDiagnosticsDir + "/pointers.cpp");
  REQUIRE_FALSE(r.ok());
  bool sawIndexHint = false;
  for (const Diagnostic& d : r.diagnostics)
    sawIndexHint = sawIndexHint || d.hint == "index the array instead: x[i * cols + k]";
  CHECK(sawIndexHint);
}

TEST_CASE("a build directory without compile_commands.json is a warning, and the file is compiled without it",
          "[diagnostics]") {
  // TranslateOptions::buildDir = "build" in a project not configured yet: the translation goes on.
  test::TempDir dir("culift-nodb");
  test::writeFile(dir.file("k.cpp"),
                  "#include <culift/annotate.hpp>\nCULIFT_KERNEL float Twice(float x) { return x + x; }\n");
  TranslateOptions options;
  options.buildDir = dir.path();
  TranslateResult r = translate(dir.file("k.cpp"), options);
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].severity == Severity::Warning);
  CHECK(r.diagnostics[0].message == "no compilation database in '" + dir.path() +
                                        "' (it holds no compile_commands.json): " + dir.file("k.cpp") +
                                        " is compiled with -std=c++20 and the compiler arguments given");
  CHECK(r.module->find("Twice"));
}

TEST_CASE("the picked names say which functions they named", "[diagnostics]") {
  const char* source =
      "#include <culift/annotate.hpp>\n"
      "template <typename T> CULIFT_KERNEL T Clip(T x, T lo, T hi) { return x < lo ? lo : (hi < x ? hi : x); }\n"
      "template float Clip<float>(float, float, float);\n"
      "template int Clip<int>(int, int, int);\n"
      "float Plain(float a) { return a; }\n";
  TranslateOptions options;
  options.functions = {"Clip", "Clip<int>", "Plain"};
  TranslateResult r = translateSource(source, "pick.cpp", options);
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  REQUIRE(r.picked.size() == 3);
  CHECK(r.picked[0] == std::vector<std::string>{"Clip_float", "Clip_int"});
  CHECK(r.picked[1] == std::vector<std::string>{"Clip_int"});
  CHECK(r.picked[2] == std::vector<std::string>{"Plain"});
}

TEST_CASE("race warnings name the fix: the atomic an accumulation should be, a separate array for a stencil",
          "[diagnostics]") {
  TranslateResult r = translate(kDiagnosticsDir + "/races.cpp");
  REQUIRE(r.ok());
  std::map<unsigned, std::string> hints;
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Warning) hints[d.loc.line] = d.hint;
  CHECK(hints[8] ==
        "for an accumulation, update the element atomically: std::atomic_ref<int>(counts[bin[i]]).fetch_add(1); "
        "otherwise give each output an element of its own");
  CHECK_THAT(hints[16], Catch::Contains("std::atomic_ref<float>(y[0]).fetch_add(x[i])"));
  CHECK_THAT(hints[34], Catch::Contains("std::atomic_ref<int>(c[i % 3]).fetch_sub(1)"));
  CHECK_THAT(hints[21], Catch::StartsWith("write the results to a separate output array"));
  CHECK(hints.count(93));  // coefficients past 64 bits: unreadable, and no overflow in the analysis (UBSan)
  // The warnings come with the source line and a caret, as errors do.
  bool formatted = false;
  for (const Diagnostic& d : r.diagnostics)
    formatted = formatted ||
                d.format().find("races.cpp:21:20: warning: possible data race: 'x[i - 1]'") != std::string::npos;
  CHECK(formatted);
}
