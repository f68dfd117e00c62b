#include "culift/runtime/scalar_value.hpp"

#include <cstring>
#include <limits>

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace culift::rt {
namespace {

// The range of an integer type as [min, max] in 128-bit arithmetic.
void integerRange(Scalar s, __int128& lo, __int128& hi) {
  unsigned bits = byteSize(s) * 8;
  if (isSigned(s)) {
    hi = (static_cast<__int128>(1) << (bits - 1)) - 1;
    lo = -hi - 1;
  } else {
    lo = 0;
    hi = (static_cast<__int128>(1) << bits) - 1;
  }
}

}  // namespace

bool ScalarValue::convertExactly(Scalar target, ScalarValue& out) const {
  if (target == type) {
    out = *this;
    return true;
  }
  if (!isInteger(type) || !isInteger(target)) return false;
  __int128 v = isSigned(type) ? static_cast<__int128>(i) : static_cast<__int128>(u);
  __int128 lo, hi;
  integerRange(target, lo, hi);
  if (v < lo || v > hi) return false;
  ScalarValue r;
  r.type = target;
  if (isSigned(target)) r.i = static_cast<std::int64_t>(v);
  else r.u = static_cast<std::uint64_t>(v);
  out = r;
  return true;
}

void ScalarValue::store(void* dst) const {
  switch (type) {
    case Scalar::Bool: {
      unsigned char c = b ? 1 : 0;
      std::memcpy(dst, &c, 1);
      return;
    }
    case Scalar::F32: std::memcpy(dst, &f, 4); return;
    case Scalar::F64: std::memcpy(dst, &d, 8); return;
    case Scalar::Void: return;
    default: {
      // Little-endian: the low bytes of the widened value are the value in its own width.
      std::uint64_t bits = u;
      std::memcpy(dst, &bits, byteSize(type));
      return;
    }
  }
}

std::string ScalarValue::toString() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  switch (type) {
    case Scalar::Void: return "void";
    case Scalar::Bool: return b ? "true" : "false";
    case Scalar::F32: os << llvm::format("%.9g", static_cast<double>(f)) << "f"; break;
    case Scalar::F64: os << llvm::format("%.17g", d); break;
    default:
      if (isSigned(type)) os << i;
      else os << u;
  }
  return os.str();
}

}  // namespace culift::rt
