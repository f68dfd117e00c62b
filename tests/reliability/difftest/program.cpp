#include "program.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "type_rules.hpp"

namespace culift::rel {

std::string cppType(Scalar s) {
  switch (s) {
    case Scalar::Void: return "void";
    case Scalar::U32: return "unsigned";
    default: return std::string(spelling(s));
  }
}

std::string ProgramSpec::source() const { return kProgramIncludes + functions; }

std::string ProgramSpec::declare(const ParamSpec& p) {
  if (p.array)
    return std::string(p.writable ? "" : "const ") + (p.record ? p.recordType : cppType(p.type)) + "* " + p.name;
  return cppType(p.type) + " " + p.name;
}

std::string ProgramSpec::signature() const {
  std::string s = cppType(returnType) + " " + kernel + "(";
  for (std::size_t k = 0; k < params.size(); ++k) s += (k ? ", " : "") + declare(params[k]);
  return s + ")";
}

std::string formatValue(Scalar s, const std::uint8_t* bytes) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes, byteSize(s));
  char buf[96];
  if (s == Scalar::F32) {
    float f;
    std::memcpy(&f, bytes, 4);
    std::snprintf(buf, sizeof buf, "%.9g (0x%08x)", static_cast<double>(f), static_cast<unsigned>(bits));
    return buf;
  }
  if (s == Scalar::F64) {
    double d;
    std::memcpy(&d, bytes, 8);
    std::snprintf(buf, sizeof buf, "%.17g (0x%016llx)", d, static_cast<unsigned long long>(bits));
    return buf;
  }
  if (s == Scalar::Bool) return bits ? "true" : "false";
  if (isSignedInt(s)) return std::to_string(intOfBits(s, bits));
  return std::to_string(bits);
}

std::string describeArgs(const ProgramSpec& p, const ArgSet& a) {
  std::string out = "(";
  for (std::size_t k = 0; k < p.params.size() && k < a.values.size(); ++k) {
    if (k) out += ", ";
    out += p.params[k].name + " = ";
    if (p.params[k].array) {
      out += (p.params[k].record ? p.params[k].recordType : cppType(p.params[k].type)) + "[" +
             std::to_string(p.params[k].length) + "]{";
      const unsigned size = byteSize(p.params[k].type);
      for (std::size_t e = 0; e < 4 && e * size < a.values[k].size(); ++e)
        out += (e ? ", " : "") + formatValue(p.params[k].type, a.values[k].data() + e * size);
      out += ", ...}";
    } else {
      out += formatValue(p.params[k].type, a.values[k].data());
    }
  }
  return out + ")";
}

}  // namespace culift::rel
