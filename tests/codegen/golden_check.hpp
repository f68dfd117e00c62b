// Golden expectations for emitted CUDA: the whole file, line for line.
//
// A golden is golden/<construct>.cpp (annotated C++) beside golden/<construct>.expect:
//   // comment lines            kept as they are (why the golden exists)
//   CHECK-NOT: text             no emitted line (outside the prelude) contains `text`
//   CHECK: text                 the next emitted line is exactly `text` (indentation included)
// The one normalization: the device prelude (the same in every module), blank lines and #line
// directives are dropped before comparing. There must be as many CHECK lines as emitted lines,
// so an extra, missing or changed line fails. Only update mode (CULIFT_UPDATE_GOLDENS=1)
// rewrites the CHECK lines from the current output, keeping comments and CHECK-NOTs.
#pragma once

#include <string>
#include <vector>

namespace culift::test {

struct GoldenExpectations {
  std::vector<std::string> comments;   // "// ..." lines, in order
  std::vector<std::string> checks;     // CHECK: patterns, in order
  std::vector<std::string> checkNots;  // CHECK-NOT: patterns
};

GoldenExpectations parseExpectations(const std::string& text);

// The lines goldens look at: the emitted CUDA without prelude, blank lines and #line directives.
std::vector<std::string> goldenLines(const std::string& cuda);

// Empty when every expectation holds, else what failed and where.
std::string checkGolden(const GoldenExpectations& expected, const std::vector<std::string>& lines);

// A fresh .expect: the old comments and CHECK-NOTs, then one CHECK per line.
std::string renderExpectations(const GoldenExpectations& kept, const std::vector<std::string>& lines);

}  // namespace culift::test
