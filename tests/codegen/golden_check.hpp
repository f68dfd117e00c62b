// FileCheck-style golden expectations for emitted CUDA.
//
// A golden is golden/<construct>.cpp (annotated C++) beside golden/<construct>.expect:
//   // comment lines            kept as they are
//   CHECK-NOT: text             no emitted line (outside the prelude) contains `text`
//   CHECK: text                 some emitted line contains `text`, after the previous CHECK's line
// Emitted lines are compared after the prelude, blank lines and #line directives are dropped.
// Update mode rewrites the CHECK lines from the current output and keeps comments and CHECK-NOTs.
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
