#include "golden_check.hpp"

#include <sstream>

namespace culift::test {
namespace {

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

constexpr const char* kPreludeBegin = "// ---- culift device prelude";
constexpr const char* kPreludeEnd = "// ---- end of culift device prelude";

}  // namespace

GoldenExpectations parseExpectations(const std::string& text) {
  GoldenExpectations e;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (startsWith(line, "CHECK-NOT:"))
      e.checkNots.push_back(trimmed(line.substr(10)));
    else if (startsWith(line, "CHECK:"))
      e.checks.push_back(trimmed(line.substr(6)));
    else if (startsWith(trimmed(line), "//"))
      e.comments.push_back(line);
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
  size_t next = 0;
  for (const std::string& want : expected.checks) {
    size_t k = next;
    while (k < lines.size() && lines[k].find(want) == std::string::npos) ++k;
    if (k == lines.size()) {
      failures << "CHECK: " << want << "\n  not found after emitted line " << next << " ("
               << (next < lines.size() ? trimmed(lines[next]) : std::string("end")) << ")\n";
      break;  // later CHECKs would all report the same gap
    }
    next = k + 1;
  }
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
