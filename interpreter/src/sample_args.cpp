#include "culift/sample_args.hpp"

#include <algorithm>
#include <cstring>
#include <random>

#include "runtime.hpp"

namespace culift {
namespace {

std::int64_t integerFor(const Function& fn, unsigned p) {
  for (std::size_t a = 0; a < fn.indexParams.size(); ++a)
    if (fn.indexParams[a] == static_cast<int>(p)) return a == 0 ? 2 : a == 1 ? 5 : 1;
  std::string n = fn.param(p).name;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (n == "cols") return 8;
  if (n == "rows") return 16;
  if (fn.mode == IndexMode::DeviceOnly || fn.indexParams.empty()) {
    if (n == "i") return 2;
    if (n == "j") return 5;
    if (n == "k") return 1;
  }
  return 3;
}

}  // namespace

SampleArgs sampleArgs(const Function& fn, std::uint64_t seed) {
  SampleArgs s;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> real(-4.0, 4.0);
  std::uniform_int_distribution<int> small(0, 7);
  for (unsigned p = 0; p < fn.numParams; ++p) {
    const Type& t = fn.param(p).type;
    if (t.isValue()) {
      interp::Value v = interp::exec::dispatch(t.scalar, [&]<Scalar S>() {
        using T = interp::exec::Cpp<S>;
        if constexpr (std::is_same_v<T, bool>) return interp::Value::of(true);
        else if constexpr (std::is_floating_point_v<T>)
          return interp::Value::of(static_cast<T>(0.5 + std::abs(real(rng)) / 2));
        else return interp::Value::of(static_cast<T>(integerFor(fn, p)));
      });
      s.args.emplace_back(v);
      continue;
    }
    const std::size_t n = t.isArray() ? t.extent : kSampleArrayLength;
    const unsigned size = byteSize(t.scalar);
    std::vector<std::byte> data(n * size);
    for (std::size_t k = 0; k < n; ++k) {
      interp::exec::dispatch(t.scalar, [&]<Scalar S>() {
        using T = interp::exec::Cpp<S>;
        T v;
        if constexpr (std::is_same_v<T, bool>) v = (k % 3) != 0;
        else if constexpr (std::is_floating_point_v<T>)
          v = static_cast<T>(static_cast<double>((k % 17)) * 0.5 - 4.0 + real(rng) / 8);
        else v = static_cast<T>(small(rng));
        std::memcpy(data.data() + k * size, &v, size);
      });
    }
    interp::ArrayRef r;
    r.element = t.scalar;
    r.size = n;
    r.writable = !t.constElements;
    s.storage.push_back(std::move(data));
    r.data = s.storage.back().data();
    s.args.emplace_back(r);
  }
  // Pointers into storage stay valid: the inner vectors' buffers do not move when the outer
  // vector grows (their handles are moved, not their contents).
  return s;
}

std::string SampleArgs::describe(const Function& fn) const {
  std::string out = "(";
  for (std::size_t p = 0; p < args.size(); ++p) {
    if (p) out += ", ";
    out += p < fn.numParams ? fn.param(static_cast<unsigned>(p)).name : "?";
    out += " = ";
    if (const interp::Value* v = std::get_if<interp::Value>(&args[p])) {
      out += v->toString();
    } else {
      const interp::ArrayRef& a = std::get<interp::ArrayRef>(args[p]);
      out += std::string(spelling(a.element)) + "[" + std::to_string(a.size) + "]";
    }
  }
  return out + ")";
}

}  // namespace culift
