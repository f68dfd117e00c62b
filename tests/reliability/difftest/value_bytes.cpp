#include "value_bytes.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "type_rules.hpp"

namespace culift::rel {

interp::Value valueFromBytes(Scalar type, const std::uint8_t* bytes) {
  interp::Value v;
  v.type = type;
  std::uint64_t bits = 0;
  std::memcpy(&bits, bytes, byteSize(type));
  switch (type) {
    case Scalar::Bool: v.b = bits != 0; break;
    case Scalar::F32: std::memcpy(&v.f, bytes, 4); break;
    case Scalar::F64: std::memcpy(&v.d, bytes, 8); break;
    default:
      if (isSignedInt(type)) v.i = intOfBits(type, bits);
      else v.u = bits;
  }
  return v;
}

std::vector<std::uint8_t> bytesOfValue(const interp::Value& v) {
  std::vector<std::uint8_t> out(byteSize(v.type));
  std::uint64_t bits = 0;
  switch (v.type) {
    case Scalar::Void: return out;
    case Scalar::Bool: bits = v.b ? 1 : 0; break;
    case Scalar::F32: std::memcpy(&bits, &v.f, 4); break;
    case Scalar::F64: std::memcpy(&bits, &v.d, 8); break;
    default: bits = isSignedInt(v.type) ? static_cast<std::uint64_t>(v.i) : v.u;
  }
  std::memcpy(out.data(), &bits, out.size());
  return out;
}

namespace {
bool isNaN(Scalar type, const std::uint8_t* p) {
  if (type == Scalar::F32) {
    float f;
    std::memcpy(&f, p, 4);
    return std::isnan(f);
  }
  if (type == Scalar::F64) {
    double d;
    std::memcpy(&d, p, 8);
    return std::isnan(d);
  }
  return false;
}
}  // namespace

bool sameValue(Scalar type, const std::uint8_t* a, const std::uint8_t* b, NaNBits nan) {
  if (std::memcmp(a, b, byteSize(type)) == 0) return true;
  if (!isNaN(type, a) || !isNaN(type, b)) return false;
  if (nan == NaNBits::Any) return true;
  std::uint64_t x = 0, y = 0;  // NaNBits::Payload: every bit but the sign
  std::memcpy(&x, a, byteSize(type));
  std::memcpy(&y, b, byteSize(type));
  const std::uint64_t sign = std::uint64_t{1} << (8 * byteSize(type) - 1);
  return (x & ~sign) == (y & ~sign);
}

std::uint64_t ulpsBetween(Scalar type, const std::uint8_t* a, const std::uint8_t* b) {
  if (sameValue(type, a, b)) return 0;
  if (isNaN(type, a) || isNaN(type, b)) return std::numeric_limits<std::uint64_t>::max();
  // Map the sign-magnitude bits onto a line where adjacent floats are adjacent integers.
  auto ordered = [&](const std::uint8_t* p) -> std::int64_t {
    if (type == Scalar::F32) {
      std::int32_t i;
      std::memcpy(&i, p, 4);
      return i < 0 ? static_cast<std::int64_t>(INT32_MIN) - i : i;
    }
    std::int64_t i;
    std::memcpy(&i, p, 8);
    return i < 0 ? INT64_MIN - i : i;
  };
  const std::int64_t x = ordered(a), y = ordered(b);
  return x > y ? static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)
               : static_cast<std::uint64_t>(y) - static_cast<std::uint64_t>(x);
}

}  // namespace culift::rel
