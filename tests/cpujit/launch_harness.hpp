// Launches of one kernel on the interpreter and on the compiled CPU code over the same sampled
// arguments, and their comparison: every writable array and the out array, bit for bit (any two
// NaNs match, as the numerical contract says).
#pragma once

#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "culift/cpujit.hpp"
#include "culift/crosscheck.hpp"
#include "culift/interpreter.hpp"
#include "culift/sample_args.hpp"

namespace culift::testing {

// A launch's extent for a kernel's mode, small enough that sampled arrays (256 elements, cols 8,
// rows 16) cover the indices the golden kernels read.
inline interp::Extent sampleExtent(const Function& fn) {
  interp::Extent x;
  x.rank = rank(fn.mode);
  switch (fn.mode) {
    case IndexMode::Grid1D: x.n[0] = 11; break;
    case IndexMode::Grid2D: x.n[0] = 4, x.n[1] = 7; break;
    case IndexMode::Grid3D: x.n[0] = 2, x.n[1] = 3, x.n[2] = 5; break;
    default: x.n[0] = 37; break;
  }
  return x;
}

// The bytes of every non-extent kernel parameter, built from sampleArgs (element inputs: one
// sample per element), and views of them for both sides.
struct LaunchData {
  const Function* fn = nullptr;
  interp::Extent extent;
  std::vector<std::vector<std::byte>> bytes;  // per signature parameter (scalars: their value)
  std::vector<Scalar> element;                // per signature parameter

  LaunchData(const Function& f, const interp::Extent& x, std::uint64_t seed) : fn(&f), extent(x) {
    SampleArgs sample = sampleArgs(f, seed);
    std::uint64_t total = 1;
    for (unsigned a = 0; a < x.rank; ++a) total *= static_cast<std::uint64_t>(x.n[a]);
    for (const KernelParam& kp : f.signature.params) {
      std::vector<std::byte> b;
      const unsigned size = byteSize(kp.type.scalar);
      if (kp.role == ParamRole::Extent) {
        b.resize(8);
        std::memcpy(b.data(), &extent.n[kp.axis], 8);
      } else if (kp.role == ParamRole::ResultArray) {
        b.resize(total * (f.resultRecord ? f.resultRecord->size : size));
      } else if (kp.role == ParamRole::PerElementScalar) {
        for (std::uint64_t e = 0; e < total; ++e) {
          SampleArgs one = sampleArgs(f, seed * 1000 + e);
          const auto& v = std::get<interp::Value>(one.args[kp.userParam]);
          b.resize(b.size() + size);
          std::memcpy(b.data() + e * size, &v.b, size);
        }
      } else if (kp.role == ParamRole::Scalar) {
        const auto& v = std::get<interp::Value>(sample.args[kp.userParam]);
        b.resize(size);
        std::memcpy(b.data(), &v.b, size);
      } else {
        const auto& a = std::get<interp::ArrayRef>(sample.args[kp.userParam]);
        b.resize(a.size * byteSize(a.element));
        if (!b.empty()) std::memcpy(b.data(), a.data, b.size());
      }
      bytes.push_back(std::move(b));
      element.push_back(kp.type.scalar);
    }
  }
  std::uint64_t outputs() const {
    std::uint64_t t = 1;
    for (unsigned a = 0; a < extent.rank; ++a) t *= static_cast<std::uint64_t>(extent.n[a]);
    return t;
  }

  std::vector<interp::Arg> interpArgs() {
    std::vector<interp::Arg> args;
    for (std::size_t k = 0; k < fn->signature.params.size(); ++k) {
      const KernelParam& kp = fn->signature.params[k];
      if (kp.role == ParamRole::Extent) continue;
      if (kp.role == ParamRole::Scalar) {
        interp::Value v;
        v.type = kp.type.scalar;
        std::memcpy(&v.b, bytes[k].data(), byteSize(kp.type.scalar));
        args.emplace_back(v);
        continue;
      }
      interp::ArrayRef a;
      a.element = kp.type.scalar;
      a.data = bytes[k].data();
      a.size = bytes[k].size() / byteSize(kp.type.scalar);
      a.writable = kp.role == ParamRole::WritableArray || kp.role == ParamRole::ResultArray;
      args.emplace_back(a);
    }
    return args;
  }

  cpujit::LaunchArgs jitArgs() {
    cpujit::LaunchArgs a;
    for (std::size_t k = 0; k < fn->signature.params.size(); ++k) {
      const KernelParam& kp = fn->signature.params[k];
      a.params.push_back(bytes[k].data());
      const bool array = kp.role != ParamRole::Scalar && kp.role != ParamRole::Extent;
      a.lengths.push_back(array ? bytes[k].size() / byteSize(kp.type.scalar) : 0);
    }
    for (unsigned ax = 0; ax < 3; ++ax) a.extent[ax] = ax < extent.rank ? extent.n[ax] : 1;
    return a;
  }
};

// Compares the writable arrays of two launches of the same data.
inline CrossCheckResult compareLaunches(const LaunchData& interpreted, const LaunchData& compiled) {
  CrossCheckResult r;
  r.function = interpreted.fn->name;
  const Function& fn = *interpreted.fn;
  for (std::size_t k = 0; k < fn.signature.params.size(); ++k) {
    const KernelParam& kp = fn.signature.params[k];
    if (kp.role != ParamRole::WritableArray && kp.role != ParamRole::ResultArray) continue;
    const unsigned size = byteSize(kp.type.scalar);
    for (std::size_t e = 0; e * size < interpreted.bytes[k].size(); ++e)
      detail::compareValues(r, kp.name + "[" + std::to_string(e) + "]", kp.type.scalar,
                            interpreted.bytes[k].data() + e * size, compiled.bytes[k].data() + e * size);
  }
  return r;
}

// Runs [0, outputs) over `threads` contiguous chunks, as the CPU backend does.
inline std::optional<cpujit::RunError> runChunked(const cpujit::Kernel& k, const cpujit::LaunchArgs& args,
                                                  std::uint64_t outputs, unsigned threads, bool loopAsWritten) {
  std::vector<std::optional<cpujit::RunError>> errors(threads);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    const std::uint64_t begin = outputs * t / threads, end = outputs * (t + 1) / threads;
    pool.emplace_back([&, t, begin, end] { errors[t] = k.run(args, begin, end, loopAsWritten); });
  }
  for (std::thread& t : pool) t.join();
  for (auto& e : errors)
    if (e) return e;
  return std::nullopt;
}

}  // namespace culift::testing
