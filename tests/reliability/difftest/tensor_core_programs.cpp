#include "tensor_core_programs.hpp"

#include <cmath>

namespace culift::rel {
namespace {

// splitmix64: the programs' and the values' random numbers.
struct Random {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::int64_t range(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % (hi - lo + 1));
  }
  bool chance(unsigned percent) { return next() % 100 < percent; }
  double unit() { return static_cast<double>(next() >> 11) * 0x1p-52 - 1.0; }  // [-1, 1)
};

}  // namespace

TensorCoreProgram tensorCoreProgram(std::uint64_t seed, unsigned index) {
  Random r{seed * 0x100000001b3ULL + index * 0x9e3779b97f4a7c15ULL + 0x7c5};
  TensorCoreProgram p;
  p.name = "tc" + std::to_string(index);
  p.seed = r.next();
  static const TensorCores kFormats[] = {TensorCores::TF32, TensorCores::BF16, TensorCores::FP16};
  p.format = kFormats[r.next() % 3];
  // Mostly a few tiles of 64 (partial ones, k not a multiple of a step, k of 0 and 1); one in
  // sixteen large enough for the 128-wide tiles on a GPU of 132 multiprocessors.
  if (r.chance(6)) {
    p.ni = r.range(1290, 1400);
    p.nj = r.range(1290, 1400);
    p.nk = r.range(1, 12);
  } else {
    p.ni = r.range(1, 260);
    p.nj = r.range(1, 260);
    p.nk = r.chance(10) ? r.range(0, 1) : r.range(2, 150);
  }
  const int oa = static_cast<int>(r.range(0, 3)), ob = static_cast<int>(r.range(0, 3));
  const bool aT = r.chance(30), bT = r.chance(40);  // a as (k, i); b as (j, k)
  const auto ni = static_cast<int>(p.ni), nj = static_cast<int>(p.nj), nk = static_cast<int>(p.nk);
  p.lda = (aT ? ni : nk) + oa + static_cast<int>(r.range(0, 2));
  p.ldb = (bT ? nk : nj) + ob + static_cast<int>(r.range(0, 2));
  p.ldc = nj + static_cast<int>(r.range(0, 2));
  p.aCount = static_cast<std::size_t>(p.lda) * static_cast<std::size_t>(aT ? std::max(nk, 1) : ni);
  p.bCount = static_cast<std::size_t>(p.ldb) * static_cast<std::size_t>(bT ? nj : std::max(nk, 1));
  p.cCount = static_cast<std::size_t>(p.ldc) * static_cast<std::size_t>(ni);
  p.alpha = static_cast<float>(r.range(-8, 8)) / 4.0f;
  p.beta = static_cast<float>(r.range(-8, 8)) / 4.0f;
  const std::string A = aT ? "a[k * lda + i + " + std::to_string(oa) + "]"
                           : "a[i * lda + k + " + std::to_string(oa) + "]";
  const std::string B = bT ? "b[j * ldb + k + " + std::to_string(ob) + "]"
                           : "b[k * ldb + j + " + std::to_string(ob) + "]";
  static const char* kStarts[] = {"0.0f", "c[i * ldc + j]", "beta * c[i * ldc + j]", "alpha"};
  const std::string start = kStarts[r.next() % 4];
  const bool swapped = r.chance(40), plain = r.chance(50);
  const unsigned after = static_cast<unsigned>(r.next() % 3);
  const std::string params =
      "(const float* a, const float* b, const float* c, float alpha, float beta, int nk, int lda, int ldb, int ldc, "
      "int i, int j)";
  const std::string product = swapped ? B + " * " + A : A + " * " + B;
  std::string& s = p.source;
  s += "CULIFT_KERNEL_TENSOR_CORES(" + std::string(name(p.format)) + ") float " + p.name + params + " {\n";
  s += "  float acc = " + start + ";\n";
  s += "  for (int k = 0; k < nk; ++k) " + (plain ? "acc += " + product + ";\n" : "acc = acc + " + product + ";\n");
  static const char* kAfter[] = {"acc", "alpha * acc", "alpha * acc + beta * c[i * ldc + j]"};
  s += "  return " + std::string(kAfter[after]) + ";\n}\n";
  // The twin: |start| + the sum of |a b|, scaled as the result scales the sum, plus what the
  // statement after the loop adds to it.
  static const char* kTwinAfter[] = {"acc", "std::fabs(alpha) * acc",
                                     "std::fabs(alpha) * acc + std::fabs(beta * c[i * ldc + j])"};
  s += "CULIFT_KERNEL float " + p.name + "_mag" + params + " {\n";
  s += "  float acc = std::fabs(" + start + ");\n";
  s += "  for (int k = 0; k < nk; ++k) acc += std::fabs(" + product + ");\n";
  s += "  return " + std::string(kTwinAfter[after]) + ";\n}\n";
  return p;
}

std::vector<float> tensorCoreValues(const TensorCoreProgram& p, unsigned which, std::size_t count) {
  Random r{p.seed + which * 0x632be59bd9b4e019ULL};
  std::vector<float> v(count);
  for (float& x : v) {
    x = static_cast<float>(r.unit());
    if (p.format == TensorCores::FP16 && std::fabs(x) < 0x1p-14f) x = 0.0f;
  }
  return v;
}

double tensorCoreUnitRoundoff(TensorCores format) {
  return format == TensorCores::BF16 ? 0x1p-8 : format == TensorCores::TF32 ? 0x1p-10 : 0x1p-11;
}

double tensorCoreBoundFactor(const TensorCoreProgram& p) {
  return 2 * tensorCoreUnitRoundoff(p.format) + static_cast<double>(p.nk + 4) * 0x1p-22;
}

}  // namespace culift::rel
