#include "launch_data.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "generator.hpp"
#include "value_bytes.hpp"

namespace culift::rel {

interp::Extent LaunchData::extent() const {
  interp::Extent e;
  e.rank = std::max(rank, 1u);
  for (unsigned a = 0; a < 3; ++a) e.n[a] = n[a];
  return e;
}

void quietNaNs(Scalar t, std::vector<std::uint8_t>& bytes) {
  if (t == Scalar::F32)
    for (std::size_t k = 0; k + 4 <= bytes.size(); k += 4) {
      std::uint32_t b;
      std::memcpy(&b, &bytes[k], 4);
      if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu)) b |= 0x00400000u;
      std::memcpy(&bytes[k], &b, 4);
    }
  if (t == Scalar::F64)
    for (std::size_t k = 0; k + 8 <= bytes.size(); k += 8) {
      std::uint64_t b;
      std::memcpy(&b, &bytes[k], 8);
      if ((b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0x000fffffffffffffull))
        b |= 0x0008000000000000ull;
      std::memcpy(&bytes[k], &b, 8);
    }
}

LaunchData prepareLaunch(const Function& fn, const ProgramSpec& spec, bool quiet, std::size_t set) {
  LaunchData d;
  for (const ParamSpec& q : spec.params) d.rank += q.axis >= 0;
  for (unsigned a = 0; a < 3; ++a) d.n[a] = a < std::max(d.rank, 1u) ? kAxisExtent[d.rank][a] : 1;
  d.elements = d.n[0] * d.n[1] * d.n[2];
  for (const KernelParam& p : fn.signature.params) {
    if (p.role == ParamRole::Extent) continue;
    d.params.push_back(&p);
    std::vector<std::uint8_t> b;
    if (p.role == ParamRole::ResultArray) {
      b.assign(static_cast<std::size_t>(d.elements) * byteSize(p.type.scalar), 0);
    } else if (p.role == ParamRole::PerElementScalar) {
      // One value per element, drawn from the argument sets of the same parameter.
      for (std::int64_t e = 0; e < d.elements; ++e) {
        const ArgSet& from = spec.argSets[(static_cast<std::size_t>(e) + set) % spec.argSets.size()];
        const auto& v = from.values[static_cast<std::size_t>(p.userParam)];
        b.insert(b.end(), v.begin(), v.end());
      }
    } else {
      // (An array of structs, `const S* p`: the records' elements of the struct's one scalar
      // type, as the generator sized them; the kernel's layout must agree.)
      b = spec.argSets[set].values[static_cast<std::size_t>(p.userParam)];
      if (p.record && b.size() != kArrayLength * p.record->elements() * byteSize(p.type.scalar))
        throw std::runtime_error("the array of structs '" + p.name + "' has " + std::to_string(b.size()) +
                                 " bytes of arguments, not " + std::to_string(kArrayLength) + " records of " +
                                 std::to_string(p.record->size) + " bytes");
    }
    if (quiet) quietNaNs(p.type.scalar, b);
    d.bytes.push_back(std::move(b));
  }
  return d;
}

bool isArrayRole(ParamRole r) { return r != ParamRole::Scalar; }

std::vector<interp::Arg> interpreterArgs(const LaunchData& d, std::vector<std::vector<std::uint8_t>>& bytes) {
  std::vector<interp::Arg> args;
  for (std::size_t k = 0; k < d.params.size(); ++k) {
    const KernelParam& p = *d.params[k];
    if (isArrayRole(p.role)) {
      interp::ArrayRef a;
      a.element = p.type.scalar;
      a.data = bytes[k].data();
      a.size = bytes[k].size() / byteSize(p.type.scalar);
      a.writable = p.role == ParamRole::WritableArray || p.role == ParamRole::ResultArray;
      args.emplace_back(a);
    } else {
      args.emplace_back(valueFromBytes(p.type.scalar, bytes[k].data()));
    }
  }
  return args;
}

std::string describeLaunch(const LaunchData& d) {
  std::string s;
  for (std::size_t k = 0; k < d.params.size(); ++k)
    if (!isArrayRole(d.params[k]->role))
      s += d.params[k]->name + "=" + formatValue(d.params[k]->type.scalar, d.bytes[k].data()) + " ";
  return s + "; extent " + std::to_string(d.n[0]) + "x" + std::to_string(d.n[1]) + "x" + std::to_string(d.n[2]);
}

}  // namespace culift::rel
