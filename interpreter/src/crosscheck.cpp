#include "culift/crosscheck.hpp"

#include <cmath>
#include <limits>

#include "runtime.hpp"

namespace culift {
namespace {

// Floating values mapped onto integers so that adjacent values differ by one.
template <typename U, typename F> std::int64_t ordered(F v) {
  U bits;
  std::memcpy(&bits, &v, sizeof v);
  using S = std::make_signed_t<U>;
  S s = static_cast<S>(bits);
  return s < 0 ? static_cast<std::int64_t>(std::numeric_limits<S>::min()) - static_cast<std::int64_t>(s)
               : static_cast<std::int64_t>(s);
}

template <typename U, typename F> std::uint64_t ulps(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) {
    if (std::isnan(a) && std::isnan(b)) return 0;
    return std::numeric_limits<std::uint64_t>::max();
  }
  if (a == b) return 0;
  const std::int64_t x = ordered<U>(a), y = ordered<U>(b);
  return x > y ? static_cast<std::uint64_t>(x) - static_cast<std::uint64_t>(y)
               : static_cast<std::uint64_t>(y) - static_cast<std::uint64_t>(x);
}

}  // namespace

std::uint64_t ulpDistance(float a, float b) { return ulps<std::uint32_t>(a, b); }
std::uint64_t ulpDistance(double a, double b) { return ulps<std::uint64_t>(a, b); }

namespace detail {

void compareValues(CrossCheckResult& r, const std::string& where, Scalar type, const void* a, const void* b) {
  const unsigned size = byteSize(type);
  if (size == 0) return;
  interp::exec::Raw x, y;
  std::memcpy(&x.bits, a, size);
  std::memcpy(&y.bits, b, size);
  Mismatch m;
  bool same = true;
  interp::exec::dispatch(type, [&]<Scalar S>() {
    using T = interp::exec::Cpp<S>;
    if constexpr (std::is_same_v<T, bool>) {
      same = (x.bits & 0xff) == (y.bits & 0xff);
      m.absDiff = same ? 0 : 1;
    } else {
      T u = interp::exec::get<T>(x), v = interp::exec::get<T>(y);
      if constexpr (std::is_floating_point_v<T>) {
        // Bit-identical, except that any two NaNs match (their payloads are not C++'s business).
        same = (std::isnan(u) && std::isnan(v)) || (x.bits == y.bits);
        m.ulps = ulpDistance(u, v);
      } else {
        same = u == v;
      }
      const double du = static_cast<double>(u), dv = static_cast<double>(v);
      m.absDiff = std::fabs(du - dv);
      m.relDiff = dv != 0 ? m.absDiff / std::fabs(dv) : (m.absDiff != 0 ? std::numeric_limits<double>::infinity() : 0);
    }
  });
  if (same) return;
  r.equal = false;
  ++r.mismatchCount;
  if (!(m.absDiff <= r.maxAbsDiff)) r.maxAbsDiff = m.absDiff;
  if (!(m.relDiff <= r.maxRelDiff)) r.maxRelDiff = m.relDiff;
  if (m.ulps > r.maxUlps) r.maxUlps = m.ulps;
  if (r.mismatches.size() < 8) {
    m.where = where;
    m.interpreted = interp::exec::describe(type, x);
    m.native = interp::exec::describe(type, y);
    r.mismatches.push_back(std::move(m));
  }
}

void finish(CrossCheckResult& r, const Function& fn) { r.function = fn.name; }

}  // namespace detail

std::string CrossCheckResult::summary() const {
  std::string out = function + ": ";
  if (!error.empty()) return out + "interpreter error:\n" + error;
  if (equal) {
    out += "equal";
    if (interpreted.type != Scalar::Void) out += " (result " + interpreted.toString() + ")";
    return out;
  }
  out += std::to_string(mismatchCount) + " difference" + (mismatchCount == 1 ? "" : "s");
  char buf[160];
  std::snprintf(buf, sizeof buf, " (max |diff| %.3g, max rel %.3g", maxAbsDiff, maxRelDiff);
  out += buf;
  if (maxUlps)
    out += ", max " +
           (maxUlps == std::numeric_limits<std::uint64_t>::max() ? std::string("inf") : std::to_string(maxUlps)) +
           " ulp";
  out += ")";
  for (const Mismatch& m : mismatches) {
    out += "\n  " + m.where + ": interpreter " + m.interpreted + ", native " + m.native;
    if (m.ulps)
      out += " (" +
             (m.ulps == std::numeric_limits<std::uint64_t>::max() ? std::string("nan vs number")
                                                                  : std::to_string(m.ulps) + " ulp") +
             ")";
  }
  if (mismatchCount > mismatches.size()) out += "\n  ...";
  return out;
}

}  // namespace culift
