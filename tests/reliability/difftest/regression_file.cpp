#include "regression_file.hpp"

#include <algorithm>

#include <sstream>

namespace culift::rel {

namespace {
constexpr Scalar kTagged[] = {Scalar::Void, Scalar::Bool, Scalar::I8,  Scalar::U8,  Scalar::I16, Scalar::U16,
                              Scalar::I32,  Scalar::U32,  Scalar::I64, Scalar::U64, Scalar::F32, Scalar::F64};
constexpr const char* kTags[] = {"void", "bool", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64"};

std::string hex(const std::vector<std::uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

std::optional<std::vector<std::uint8_t>> unhex(const std::string& s) {
  if (s.size() % 2) return std::nullopt;
  std::vector<std::uint8_t> out;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  for (std::size_t k = 0; k < s.size(); k += 2) {
    const int hi = digit(s[k]), lo = digit(s[k + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
  }
  return out;
}
}  // namespace

std::string scalarTag(Scalar s) {
  for (std::size_t k = 0; k < std::size(kTagged); ++k)
    if (kTagged[k] == s) return kTags[k];
  return "?";
}

std::optional<Scalar> scalarFromTag(const std::string& tag) {
  for (std::size_t k = 0; k < std::size(kTagged); ++k)
    if (tag == kTags[k]) return kTagged[k];
  return std::nullopt;
}

std::string writeRegression(const ProgramSpec& p, const std::string& title, const std::string& detail) {
  std::ostringstream out;
  out << "// Regression: " << title << "\n";
  out << "// Found by the differential tester";
  if (p.seed) out << " (seed " << p.seed << ", program " << p.name << ")";
  out << " and reduced automatically.\n";
  std::istringstream lines(detail);
  for (std::string line; std::getline(lines, line);) out << "// " << line << "\n";
  out << "// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.\n";
  out << "// culift-kernel: " << scalarTag(p.returnType) << " " << p.kernel << "\n";
  for (const ParamSpec& q : p.params)
    out << "// culift-param: " << q.name << " " << scalarTag(q.type) << " "
        << (q.array ? (q.writable ? "output" : "input") : "value") << " " << q.axis
        << (q.record ? " " + q.recordType + " " + std::to_string(q.record) : "") << "\n";
  for (const ParamSpec& q : p.params)
    if (q.array && q.length != kArrayLength) out << "// culift-length: " << q.name << " " << q.length << "\n";
  for (const ArgSet& a : p.argSets) {
    out << "// culift-args:";
    for (const auto& v : a.values) out << " " << hex(v);
    out << "\n";
  }
  out << p.source();
  return out.str();
}

std::optional<ProgramSpec> readRegression(const std::string& text, const std::string& name, std::string* error) {
  ProgramSpec p;
  p.name = name;
  auto fail = [&](const std::string& why) -> std::optional<ProgramSpec> {
    if (error) *error = why;
    return std::nullopt;
  };
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string slashes, key;
    words >> slashes >> key;
    if (slashes != "//") continue;
    if (key == "culift-kernel:") {
      std::string ret;
      words >> ret >> p.kernel;
      auto t = scalarFromTag(ret);
      if (!t || p.kernel.empty()) return fail("bad culift-kernel line: " + line);
      p.returnType = *t;
    } else if (key == "culift-param:") {
      ParamSpec q;
      std::string type, shape;
      words >> q.name >> type >> shape >> q.axis;
      auto t = scalarFromTag(type);
      if (!t || words.fail()) return fail("bad culift-param line: " + line);
      q.type = *t;
      q.array = shape != "value";
      q.writable = shape == "output";
      // An array of structs: the struct and its elements per record.
      if (words >> q.recordType >> q.record; words.fail() && !q.recordType.empty())
        return fail("bad culift-param line: " + line);
      p.params.push_back(q);
    } else if (key == "culift-length:") {
      std::string name;
      std::size_t length = 0;
      words >> name >> length;
      auto q = std::find_if(p.params.begin(), p.params.end(), [&](const ParamSpec& x) { return x.name == name; });
      if (words.fail() || q == p.params.end() || !q->array || length == 0)
        return fail("bad culift-length line: " + line);
      q->length = length;
    } else if (key == "culift-args:") {
      ArgSet a;
      for (std::string h; words >> h;) {
        auto bytes = unhex(h);
        if (!bytes) return fail("bad culift-args value: " + h);
        a.values.push_back(*bytes);
      }
      if (a.values.size() != p.params.size())
        return fail("culift-args has " + std::to_string(a.values.size()) + " values for " +
                    std::to_string(p.params.size()) + " parameters");
      for (std::size_t k = 0; k < p.params.size(); ++k) {
        const std::size_t want = byteSize(p.params[k].type) * p.params[k].elements();
        if (a.values[k].size() != want) return fail("argument " + p.params[k].name + " has the wrong size");
      }
      p.argSets.push_back(std::move(a));
    }
  }
  if (p.kernel.empty()) return fail("no culift-kernel line");
  if (p.argSets.empty()) return fail("no culift-args line");
  // The kernel keeps its own name; the native entry point needs a unique one per file.
  p.functions = text;
  return p;
}

}  // namespace culift::rel
