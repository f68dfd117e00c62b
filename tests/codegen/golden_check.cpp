#include "golden_check.hpp"

#include <algorithm>
#include <sstream>

namespace culift::test {
namespace {

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string rightTrimmed(const std::string& s) { return s.substr(0, s.find_last_not_of(" \t\r") + 1); }

constexpr const char* kPreludeBegin = "// ---- culift device prelude";
constexpr const char* kPreludeEnd = "// ---- end of culift device prelude";

}  // namespace

GoldenExpectations parseExpectations(const std::string& text) {
  GoldenExpectations e;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (startsWith(line, "CHECK-NOT:")) e.checkNots.push_back(trimmed(line.substr(10)));
    else if (startsWith(line, "CHECK:"))
      e.checks.push_back(rightTrimmed(line.substr(startsWith(line, "CHECK: ") ? 7 : 6)));
    else if (startsWith(trimmed(line), "//")) e.comments.push_back(line);
  }
  return e;
}

std::vector<std::string> goldenLines(const std::string& cuda) {
  std::vector<std::string> lines;
  std::istringstream in(cuda);
  bool inPrelude = false;
  for (std::string line; std::getline(in, line);) {
    const std::string t = trimmed(line);
    if (startsWith(t, kPreludeBegin)) inPrelude = true;
    const bool skip = inPrelude || t.empty() || startsWith(t, "#line ");
    if (startsWith(t, kPreludeEnd)) inPrelude = false;
    if (!skip) lines.push_back(line);
  }
  return lines;
}

std::string checkGolden(const GoldenExpectations& expected, const std::vector<std::string>& lines) {
  std::ostringstream failures;
  for (const std::string& bad : expected.checkNots)
    for (size_t k = 0; k < lines.size(); ++k)
      if (lines[k].find(bad) != std::string::npos)
        failures << "CHECK-NOT: " << bad << "\n  found on emitted line " << k + 1 << ": " << lines[k] << "\n";
  // Line for line: the k-th CHECK is the k-th emitted line, indentation included.
  const size_t common = std::min(expected.checks.size(), lines.size());
  for (size_t k = 0; k < common; ++k) {
    if (rightTrimmed(lines[k]) == expected.checks[k]) continue;
    failures << "emitted line " << k + 1 << " differs\n  expected: " << expected.checks[k]
             << "\n  emitted:  " << lines[k] << "\n";
    break;  // the lines after a difference usually all shift
  }
  if (expected.checks.size() != lines.size())
    failures << expected.checks.size() << " CHECK lines for " << lines.size() << " emitted lines; first unmatched: "
             << (lines.size() > common ? "emitted " + lines[common] : "expected " + expected.checks[common]) << "\n";
  return failures.str();
}

std::string renderExpectations(const GoldenExpectations& kept, const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& c : kept.comments) out += c + "\n";
  for (const std::string& n : kept.checkNots) out += "CHECK-NOT: " + n + "\n";
  for (const std::string& l : lines) out += "CHECK: " + l + "\n";
  return out;
}

}  // namespace culift::test
