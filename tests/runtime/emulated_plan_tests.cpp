// Loop-plan entries as culift emits them, run on the host where no GPU is: the emitted CUDA C
// built as C++ (emulation/host_source.cmake, emulation/cuda_emulation.hpp: each block's threads as
// std::threads meeting at __syncthreads), each entry against the per-thread entry emitted beside
// it, bit for bit (built with -ffp-contract=off, as strict math rounds every product). The GPU
// runs the same comparisons in runtime_gpu_plan_tests; these run everywhere, in CI too.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <vector>

#include "catch.hpp"
#include "emulated_launch.hpp"
#include "tensor_core_bound.hpp"
#include "tensor_map.hpp"

// The entries of tests/runtime/data/convolution_kernels.hpp, emitted at build time.
extern "C" {
void Conv2D_kernel(const float*, const float*, int, int, int, int, int, int, int, int, float*, long long, long long,
                   long long);
void Conv2D_conv64x128(const float*, const float*, int, int, int, int, int, int, int, int, float*, long long, long long,
                       long long, long long);
void Conv2D_conv32x64(const float*, const float*, int, int, int, int, int, int, int, int, float*, long long, long long,
                      long long, long long);
void ValidConv_kernel(const double*, const double*, int, int, int, int, int, int, double*, long long, long long,
                      long long);
void ValidConv_conv64x128(const double*, const double*, int, int, int, int, int, int, double*, long long, long long,
                          long long, long long);
void ValidConv_conv32x64(const double*, const double*, int, int, int, int, int, int, double*, long long, long long,
                         long long, long long);
// tests/runtime/data/loop_plan_kernels.hpp: tiled, symmetric and batched contractions.
void Gemm_kernel(const float*, const float*, const float*, float, float, int, int, float*, long long, long long);
void Gemm_tiled128(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                   long long);
void Gemm_tiled128_edge(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                        long long);
void Gemm_tiled64(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                  long long);
void Gemm_tiled64_edge(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                       long long);
// The two forms of Gemm_tiled128 (every tile of the block whole; the others), called alone.
void culift_Gemm_tiled128_whole(const float*, const float*, const float*, float, float, int, int, float*, long long,
                                long long, long long);
void culift_Gemm_tiled128_edge(const float*, const float*, const float*, float, float, int, int, float*, long long,
                               long long, long long);
void Gemm_kernel_part(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                      long long, long long);
void Conv_kernel_part(const float*, const float*, int, int, int, float*, long long, long long, long long, long long,
                      long long);
void ScaledGemm_kernel(const float*, const float*, float, int, int, float*, long long, long long);
void ScaledGemm_tiled128(const float*, const float*, float, int, int, float*, long long, long long, long long);
void ScaledGemm_tiled128_edge(const float*, const float*, float, int, int, float*, long long, long long, long long);
void ScaledGemm_tiled64(const float*, const float*, float, int, int, float*, long long, long long, long long);
void ScaledGemm_tiled64_edge(const float*, const float*, float, int, int, float*, long long, long long, long long);
void Syr2k_kernel(const float*, const float*, const float*, float, int, int, float*, long long, long long);
void Syr2k_tiled64(const float*, const float*, const float*, float, int, int, float*, long long, long long, long long);
void Syr2k_tiled64_edge(const float*, const float*, const float*, float, int, int, float*, long long, long long,
                        long long);
void Gram_kernel(const float*, int, float*, long long, long long);
void Gram_tiled64(const float*, int, float*, long long, long long, long long);
void Gram_tiled64_edge(const float*, int, float*, long long, long long, long long);
void Gram_sym64(const float*, int, float*, long long, long long, long long);
void BatchedGemm_kernel(const float*, const float*, const float*, float, int, int, int, float*, long long, long long,
                        long long);
void BatchedGemm_batched64(const float*, const float*, const float*, float, int, int, int, float*, long long, long long,
                           long long, long long);
void BatchedGemm_batched64_edge(const float*, const float*, const float*, float, int, int, int, float*, long long,
                                long long, long long, long long);
void BatchedGemm_batched128(const float*, const float*, const float*, float, int, int, int, float*, long long,
                            long long, long long, long long);
void BatchedGemm_batched128_edge(const float*, const float*, const float*, float, int, int, int, float*, long long,
                                 long long, long long, long long);
// A tiled entry with its edge kernel (PlanEntry::edgeKernel): the entry computes the blocks (of a
// batch) whose tiles are all whole, the edge kernel the others. The runtime launches both over
// one grid; here each block's threads run both, the block's outputs computed by one of them.
#define CULIFT_TILES(entry, ...) (entry(__VA_ARGS__), entry##_edge(__VA_ARGS__))
// tests/runtime/data/stencil_kernels.hpp: a 2-D stencil and the 27-point convolution.
void Jacobi_kernel(const float*, int, int, float*, long long, long long);
void Jacobi_walk(const float*, int, int, float*, long long, long long, long long);
void Jacobi_walk2(const float*, int, int, float*, long long, long long, long long);
void Conv_kernel(const float*, const float*, int, int, int, float*, long long, long long, long long);
void Conv_walk3d(const float*, const float*, int, int, int, float*, long long, long long, long long, long long);
void Conv_win3d(const float*, const float*, int, int, int, float*, long long, long long, long long, long long,
                long long, long long, long long);
void Conv_win3d4(const float*, const float*, int, int, int, float*, long long, long long, long long, long long,
                 long long, long long, long long);
void Conv_win3d4n(const float*, const float*, int, int, int, float*, long long, long long, long long, long long,
                  long long, long long, long long);
void Skew_kernel(const double*, const double*, int, int, int, double*, long long, long long, long long);
void Skew_win3d4(const double*, const double*, int, int, int, double*, long long, long long, long long, long long,
                 long long, long long, long long);
void Skew_win3d(const double*, const double*, int, int, int, double*, long long, long long, long long, long long,
                long long, long long, long long);
void SkewF_kernel(const float*, const float*, int, int, int, float*, long long, long long, long long);
void SkewF_win3d4(const float*, const float*, int, int, int, float*, long long, long long, long long, long long,
                  long long, long long, long long);
void ConvPair_kernel(const float*, const float*, int, int, int, float*, long long, long long, long long);
void ConvPair_win3d4(const float*, const float*, int, int, int, float*, long long, long long, long long, long long,
                     long long, long long, long long);
void Upward_kernel(const float*, int, int, int, float*, long long, long long, long long);
void Upward_win3d4(const float*, int, int, int, float*, long long, long long, long long, long long, long long,
                   long long);
void Upward_win3d4n(const float*, int, int, int, float*, long long, long long, long long, long long, long long,
                    long long);
void Centred3D_kernel(const float*, int, int, int, float*, long long, long long, long long);
void Centred3D_win3d4(const float*, int, int, int, float*, long long, long long, long long, long long, long long,
                      long long);
// Row reductions (tests/runtime/data/loop_plan_kernels.hpp), min/max rows
// (extremum_kernels.hpp) and scans (scan_kernels.hpp): entries of warps.
void RowSum_kernel(const float*, int, float*, long long);
void RowSum_rows32(const float*, int, float*, long long, long long);
void RowSum_rows8(const float*, int, float*, long long, long long);
void RowTotal_kernel(const float*, int, float*, long long);
void RowTotal_warp(const float*, int, float*, long long, long long);
void RowTotal_split(const float*, int, float*, long long, long long, unsigned char*);
void RowMax_kernel(const float*, int, float*, long long);
void RowMax_extremum(const float*, int, float*, long long, long long);
void ArgMax_kernel(const float*, int, int*, long long);
void ArgMax_extremum(const float*, int, int*, long long, long long);
void ArgMinLast_kernel(const double*, int, int*, long long);
void ArgMinLast_extremum(const double*, int, int*, long long, long long);
void CumSum_kernel(const float*, float*, int, long long);
void CumSum_scan64(const float*, float*, int, long long, long long);
void CumSum_scan32(const float*, float*, int, long long, long long);
void CumMax_kernel(const float*, float*, int, long long);
void CumMax_scan32(const float*, float*, int, long long, long long);
// tests/runtime/data/tensor_core_kernels.hpp: contractions on tensor cores, one per format.
void GemmTf32_kernel(const float*, const float*, const float*, float, float, int, int, float*, long long, long long);
// The entries on warpgroups take the tensor maps of their operands' bulk tensor copies, then the
// mask of those that hold.
void GemmTf32_wg256(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                    long long, culift_tensor_map, culift_tensor_map, int);
void GemmTf32_wg128(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                    long long, culift_tensor_map, culift_tensor_map, int);
void GemmTf32_tc128(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                    long long);
void GemmTf32_tc64(const float*, const float*, const float*, float, float, int, int, float*, long long, long long,
                   long long);
void GemmBf16_kernel(const float*, const float*, const float*, int, int, float*, long long, long long);
void GemmBf16_tc128(const float*, const float*, const float*, int, int, float*, long long, long long, long long);
void GemmBf16_tc64(const float*, const float*, const float*, int, int, float*, long long, long long, long long);
void GemmFp16_kernel(const float*, const float*, int, int, float*, long long, long long);
void GemmFp16_tc128(const float*, const float*, int, int, float*, long long, long long, long long);
void GemmFp16_tc64(const float*, const float*, int, int, float*, long long, long long, long long);
void BatchedTf32_kernel(const float*, const float*, int, int, int, float*, long long, long long, long long);
void BatchedTf32_tc128(const float*, const float*, int, int, int, float*, long long, long long, long long, long long);
void BatchedTf32_tc64(const float*, const float*, int, int, int, float*, long long, long long, long long, long long);
}

namespace {

// n images of c channels, k filters r x r, the stride and padding, the output's oh x ow.
struct ConvShape {
  int n, c, k, r, stride, pad, oh, ow;
  int h() const { return (oh - 1) * stride + r - 2 * pad; }
  int w() const { return (ow - 1) * stride + r - 2 * pad; }
};

// Strides 1, 2, 4, paddings 0 to 2 (partial windows at every border), filters 1 x 1, 3 x 3 and
// 11 x 11, one and three channels; tiles of channels that straddle two images; outputs smaller
// than a tile and not a multiple of one.
std::vector<ConvShape> shapes() {
  std::vector<ConvShape> out;
  for (int stride : {1, 2, 4})
    for (int pad : {0, 1, 2})
      for (int r : {1, 3, 11})
        for (int c : {1, 3}) {
          if (pad >= r) continue;
          for (const ConvShape& s :
               {ConvShape{1, c, 5, r, stride, pad, 3, 7}, ConvShape{3, c, 40, r, stride, pad, 5, 6}})
            if (s.h() >= 1 && s.w() >= 1) out.push_back(s);
        }
  out.push_back({2, 3, 96, 11, 4, 2, 9, 9});  // KernelBench's filters on a small input
  // One output row: terms whose filter row falls in the padding for every position (no position
  // runs them, so no filter element of theirs is read).
  out.push_back({1, 3, 40, 3, 1, 1, 1, 6});
  out.push_back({2, 3, 96, 11, 4, 2, 1, 9});
  // 8 channels of 3 x 3: 72 terms, whose counter tables step by 32 terms with a carry into every
  // counter (32 = (3 * 3 + 1) * 3 + 2).
  out.push_back({2, 8, 6, 3, 1, 1, 4, 5});
  return out;
}

template <typename T> std::vector<T> values(std::size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<T> v(count);
  for (T& x : v) x = static_cast<T>(d(rng));
  return v;
}

template <typename T> bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("emulated on the host, every convolution entry gives the per-thread entry's bits",
          "[emulated][convolution]") {
  std::size_t compared = 0;
  for (const ConvShape& s : shapes()) {
    INFO(s.n << " images of " << s.c << " channels, " << s.k << " filters " << s.r << " x " << s.r << ", stride "
             << s.stride << ", pad " << s.pad << ", out " << s.oh << " x " << s.ow);
    const std::vector<float> x = values<float>(static_cast<std::size_t>(s.n) * s.c * s.h() * s.w(), 1);
    const std::vector<float> w = values<float>(static_cast<std::size_t>(s.k) * s.c * s.r * s.r, 2);
    const long long rows = static_cast<long long>(s.n) * s.k, outputs = rows * s.oh * s.ow;
    std::vector<float> want(outputs, -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2), [&] {
      Conv2D_kernel(x.data(), w.data(), s.c, s.h(), s.w(), s.k, s.r, s.r, s.stride, s.pad, want.data(), rows, s.oh,
                    s.ow);
    });
    std::size_t nonzero = 0;
    for (float v : want) nonzero += v != 0.0f && v != -7.0f;
    CHECK(nonzero > 0);
    using Entry = decltype(&Conv2D_conv64x128);
    for (const auto& [name, entry, threads] :
         {std::tuple<const char*, Entry, unsigned>{"Conv2D_conv64x128", Conv2D_conv64x128, 256},
          {"Conv2D_conv32x64", Conv2D_conv32x64, 64}}) {
      INFO(name);
      std::vector<float> got(outputs, -7.0f);
      culiftEmulatedLaunch(dim3(2, 2, 1), dim3(threads, 1, 1), [&] {
        entry(x.data(), w.data(), s.c, s.h(), s.w(), s.k, s.r, s.r, s.stride, s.pad, got.data(), rows, s.oh, s.ow, 0);
      });
      CHECK(sameBits(got, want));
      ++compared;
    }
    if (s.pad > 0) {
      // Every filter's first term infinite: a position whose window the padding cuts at that corner
      // skips the term (a finite output), the others add it (an infinite one). An entry that added
      // the skipped term as a zero would give NaN there.
      std::vector<float> wi = w;
      for (int k = 0; k < s.k; ++k)
        for (int c = 0; c < s.c; ++c) wi[static_cast<std::size_t>(k * s.c + c) * s.r * s.r] = INFINITY;
      std::vector<float> wantInf(outputs, -7.0f);
      culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2), [&] {
        Conv2D_kernel(x.data(), wi.data(), s.c, s.h(), s.w(), s.k, s.r, s.r, s.stride, s.pad, wantInf.data(), rows,
                      s.oh, s.ow);
      });
      std::size_t finite = 0, infinite = 0;
      for (float v : wantInf) (std::isfinite(v) ? finite : infinite) += 1;
      CHECK(finite > 0);
      // Some position's window reaches the corner term unless one row or column of outputs all
      // start in the padding.
      if ((s.oh - 1) * s.stride >= s.pad && (s.ow - 1) * s.stride >= s.pad) CHECK(infinite > 0);
      for (const auto& [name, entry, threads] :
           {std::tuple<const char*, Entry, unsigned>{"Conv2D_conv64x128", Conv2D_conv64x128, 256},
            {"Conv2D_conv32x64", Conv2D_conv32x64, 64}}) {
        INFO(name << ", every filter's first term infinite");
        std::vector<float> got(outputs, -7.0f);
        culiftEmulatedLaunch(dim3(2, 2, 1), dim3(threads, 1, 1), [&] {
          entry(x.data(), wi.data(), s.c, s.h(), s.w(), s.k, s.r, s.r, s.stride, s.pad, got.data(), rows, s.oh, s.ow,
                0);
        });
        CHECK(sameBits(got, wantInf));
      }
    }
    if (s.n != 1 || s.pad != 0) continue;
    // One image, no padding: the valid convolution in double, the channel the first index itself.
    const std::vector<double> xd = values<double>(x.size(), 3), wd = values<double>(w.size(), 4);
    std::vector<double> wantd(static_cast<std::size_t>(s.k) * s.oh * s.ow, -7.0);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2), [&] {
      ValidConv_kernel(xd.data(), wd.data(), s.c, s.h(), s.w(), s.r, s.r, s.stride, wantd.data(), s.k, s.oh, s.ow);
    });
    using EntryD = decltype(&ValidConv_conv64x128);
    for (const auto& [name, entry, threads] :
         {std::tuple<const char*, EntryD, unsigned>{"ValidConv_conv64x128", ValidConv_conv64x128, 256},
          {"ValidConv_conv32x64", ValidConv_conv32x64, 64}}) {
      INFO(name);
      std::vector<double> got(wantd.size(), -7.0);
      culiftEmulatedLaunch(dim3(3, 1, 1), dim3(threads, 1, 1), [&] {
        entry(xd.data(), wd.data(), s.c, s.h(), s.w(), s.r, s.r, s.stride, got.data(), s.k, s.oh, s.ow, 0);
      });
      CHECK(sameBits(got, wantd));
      ++compared;
    }
  }
  CHECK(compared >= 60);
}

namespace {

unsigned blocks(long long n, unsigned per) { return static_cast<unsigned>((n + per - 1) / per); }

// The per-thread entry over a 2-D extent, then `entry` launched as its block mapping says: both
// outputs alike, bit for bit, and not all zero.
template <typename Ref, typename Entry>
void compare2D(long long rows, long long cols, Ref&& reference, dim3 grid, Entry&& entry) {
  std::vector<float> want(rows * cols, -7.0f), got(rows * cols, -7.0f);
  culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 8, 1), [&] { reference(want.data()); });
  culiftEmulatedLaunch(grid, dim3(256, 1, 1), [&] { entry(got.data()); });
  std::size_t nonzero = 0;
  for (float v : want) nonzero += v != 0.0f && v != -7.0f;
  CHECK(nonzero > 0);
  CHECK(sameBits(got, want));
}

}  // namespace

TEST_CASE("emulated on the host, the 128-wide tiles copy B in 16-byte groups where its rows allow",
          "[emulated][tiled]") {
  // B's rows of 260 elements (a multiple of 4): whole tiles in 16-byte groups, from an aligned B
  // and from one 4 bytes off (the element-by-element copies); rows of 258: element by element.
  for (const auto& [ni, nj, nk, offset] :
       {std::tuple{130, 260, 20, 0}, std::tuple{130, 260, 20, 1}, std::tuple{129, 258, 17, 0}}) {
    INFO(ni << " x " << nj << ", k " << nk << ", B offset by " << offset);
    const std::vector<float> A = values<float>(static_cast<std::size_t>(ni) * nk, 5),
                             Bstore = values<float>(static_cast<std::size_t>(nk) * nj + 4, 6),
                             C = values<float>(static_cast<std::size_t>(ni) * nj, 7);
    const float* B = Bstore.data() + offset;
    compare2D(
        ni, nj, [&](float* out) { Gemm_kernel(A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, out, ni, nj); },
        dim3(blocks(nj, 128), blocks(ni, 128)),
        [&](float* out) { CULIFT_TILES(Gemm_tiled128, A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, out, ni, nj, 0); });
  }
}

TEST_CASE("emulated on the host, the 128-wide tiles' two forms give the per-thread bits", "[emulated][tiled]") {
  // Blocks whose tiles are all whole (k a multiple of the whole form's 16, B's rows 16-byte
  // aligned) run the whole form, the others the checked one: every block whole (one tile of k; a
  // round of two tiles and one of one; two rounds), whole and partial blocks side by side, B 4 bytes
  // off or k not a multiple of 16 (the checked form everywhere), and a launch in two parts (rows
  // from 128 on).
  for (const auto& [ni, nj, nk, offset] :
       {std::tuple{256, 128, 16, 0}, std::tuple{128, 256, 48, 0}, std::tuple{128, 128, 64, 0},
        std::tuple{260, 260, 32, 0}, std::tuple{256, 128, 16, 1}, std::tuple{256, 128, 24, 0},
        std::tuple{130, 256, 8, 0}}) {
    INFO(ni << " x " << nj << ", k " << nk << ", B offset by " << offset);
    const std::vector<float> A = values<float>(static_cast<std::size_t>(ni) * nk, 15),
                             Bstore = values<float>(static_cast<std::size_t>(nk) * nj + 4, 16),
                             C = values<float>(static_cast<std::size_t>(ni) * nj, 17);
    const float* B = Bstore.data() + offset;
    auto reference = [&](float* out) { Gemm_kernel(A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, out, ni, nj); };
    compare2D(ni, nj, reference, dim3(blocks(nj, 128), blocks(ni, 128)), [&](float* out) {
      CULIFT_TILES(Gemm_tiled128, A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, out, ni, nj, 0);
    });
    // Rows 0-127, then 128 on: each part's blocks start at its first row.
    std::vector<float> want(static_cast<std::size_t>(ni) * nj, -7.0f), got(want.size(), -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 8, 1), [&] { reference(want.data()); });
    culiftEmulatedLaunch(dim3(blocks(nj, 128), 1), dim3(256, 1, 1), [&] {
      CULIFT_TILES(Gemm_tiled128, A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, got.data(), ni, nj, 0);
    });
    culiftEmulatedLaunch(dim3(blocks(nj, 128), blocks(ni - 128, 128)), dim3(256, 1, 1), [&] {
      CULIFT_TILES(Gemm_tiled128, A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, got.data(), ni, nj, 128);
    });
    CHECK(sameBits(got, want));
    // The entry alone writes the whole blocks (B's rows in 16-byte groups, whole steps of k) and
    // nothing else; its edge kernel alone the others.
    const bool groups = nj % 4 == 0 && offset == 0 && nk % 16 == 0;
    for (const bool edge : {false, true}) {
      INFO((edge ? "the edge kernel alone" : "the entry alone"));
      std::vector<float> alone(want.size(), -7.0f);
      culiftEmulatedLaunch(dim3(blocks(nj, 128), blocks(ni, 128)), dim3(256, 1, 1), [&] {
        if (edge) Gemm_tiled128_edge(A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, alone.data(), ni, nj, 0);
        else Gemm_tiled128(A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, alone.data(), ni, nj, 0);
      });
      std::size_t wrong = 0;
      for (int i = 0; i < ni; ++i)
        for (int j = 0; j < nj; ++j) {
          const bool whole = groups && (i / 128 + 1) * 128 <= ni && (j / 128 + 1) * 128 <= nj;
          const std::size_t o = static_cast<std::size_t>(i) * nj + j;
          wrong += whole != edge ? std::memcmp(&alone[o], &want[o], 4) != 0 : alone[o] != -7.0f;
        }
      CHECK(wrong == 0);
    }
    // Where every block is whole, each form alone gives the same bits; and the whole form's
    // outputs stored one by one where the output array is not 16-byte aligned (four at once
    // where it is, as above: a vector's storage is 16-byte aligned).
    if (ni % 128 == 0 && nj % 128 == 0 && nk % 16 == 0 && offset == 0) {
      for (auto* form : {&culift_Gemm_tiled128_whole, &culift_Gemm_tiled128_edge})
        compare2D(ni, nj, reference, dim3(nj / 128, ni / 128),
                  [&](float* out) { form(A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, out, ni, nj, 0); });
      std::vector<float> shifted(want.size() + 1, -7.0f);
      culiftEmulatedLaunch(dim3(nj / 128, ni / 128), dim3(256, 1, 1), [&] {
        culift_Gemm_tiled128_whole(A.data(), B, C.data(), 1.5f, -0.5f, nk, nj, shifted.data() + 1, ni, nj, 0);
      });
      CHECK(shifted[0] == -7.0f);
      CHECK(sameBits(std::vector<float>(shifted.begin() + 1, shifted.end()), want));
    }
  }
}

TEST_CASE("emulated on the host, tiled, symmetric and batched contractions give the per-thread bits",
          "[emulated][tiled]") {
  // Partial tiles along both axes, k not a multiple of the tile's step.
  for (const auto& [ni, nj, nk] : {std::tuple{70, 90, 37}, std::tuple{64, 64, 16}, std::tuple{5, 130, 1}}) {
    INFO(ni << " x " << nj << ", k " << nk);
    const std::vector<float> A = values<float>(static_cast<std::size_t>(ni) * nk, 5),
                             B = values<float>(static_cast<std::size_t>(nk) * nj, 6),
                             C = values<float>(static_cast<std::size_t>(ni) * nj, 7);
    compare2D(
        ni, nj, [&](float* out) { Gemm_kernel(A.data(), B.data(), C.data(), 1.5f, -0.5f, nk, nj, out, ni, nj); },
        dim3(blocks(nj, 64), blocks(ni, 64)),
        [&](float* out) {
          CULIFT_TILES(Gemm_tiled64, A.data(), B.data(), C.data(), 1.5f, -0.5f, nk, nj, out, ni, nj, 0);
        });
    // Gram: rows of x against rows of x, square; the symmetric entry takes the tiles on and below
    // the diagonal (a block per tile of the triangle) and mirrors them.
    const std::vector<float> x = values<float>(static_cast<std::size_t>(ni) * nk, 8);
    compare2D(
        ni, ni, [&](float* out) { Gram_kernel(x.data(), nk, out, ni, ni); }, dim3(blocks(ni, 64), blocks(ni, 64)),
        [&](float* out) { CULIFT_TILES(Gram_tiled64, x.data(), nk, out, ni, ni, 0); });
    const unsigned t = blocks(ni, 64);
    compare2D(
        ni, ni, [&](float* out) { Gram_kernel(x.data(), nk, out, ni, ni); }, dim3(t * (t + 1) / 2, 1),
        [&](float* out) { Gram_sym64(x.data(), nk, out, ni, ni, 0); });
  }
  // Batched: 3 batches (fewer blocks along z than batches: each block steps over them).
  const int nb = 3, m = 33, nk = 20, n = 70;
  const std::vector<float> A = values<float>(static_cast<std::size_t>(nb) * m * nk, 9),
                           B = values<float>(static_cast<std::size_t>(nb) * nk * n, 10),
                           C = values<float>(static_cast<std::size_t>(nb) * m * n, 11);
  std::vector<float> want(static_cast<std::size_t>(nb) * m * n, -7.0f), got(want.size(), -7.0f);
  culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2), [&] {
    BatchedGemm_kernel(A.data(), B.data(), C.data(), 0.75f, m, nk, n, want.data(), nb, m, n);
  });
  culiftEmulatedLaunch(dim3(blocks(n, 64), blocks(m, 64), 2), dim3(256, 1, 1), [&] {
    CULIFT_TILES(BatchedGemm_batched64, A.data(), B.data(), C.data(), 0.75f, m, nk, n, got.data(), nb, m, n, 0);
  });
  CHECK(sameBits(got, want));
}

TEST_CASE("emulated on the host, tiles that stage an operand times a uniform factor give the per-thread bits",
          "[emulated][tiled]") {
  // alpha * A[i, k] * B[k, j]: the stages hold alpha * A's elements; syr2k's A[j, k] * alpha and
  // B[j, k] * alpha likewise. Whole blocks (the whole form) and partial ones, k not a multiple of
  // the step, k of 1.
  for (const auto& [ni, nj, nk] :
       {std::tuple{256, 128, 16}, std::tuple{70, 90, 37}, std::tuple{128, 128, 32}, std::tuple{64, 70, 1}}) {
    INFO(ni << " x " << nj << ", k " << nk);
    const std::vector<float> A = values<float>(static_cast<std::size_t>(std::max(ni, nj)) * nk + 1, 21),
                             B = values<float>(static_cast<std::size_t>(std::max(ni, nj)) * std::max(nk, nj) + 1, 22),
                             C = values<float>(static_cast<std::size_t>(ni) * nj, 23);
    const float alpha = 1.3f;  // its products round (a power of two would not)
    auto gemm = [&](float* out) { ScaledGemm_kernel(A.data(), B.data(), alpha, nk, nj, out, ni, nj); };
    compare2D(ni, nj, gemm, dim3(blocks(nj, 128), blocks(ni, 128)), [&](float* out) {
      CULIFT_TILES(ScaledGemm_tiled128, A.data(), B.data(), alpha, nk, nj, out, ni, nj, 0);
    });
    compare2D(ni, nj, gemm, dim3(blocks(nj, 64), blocks(ni, 64)),
              [&](float* out) { CULIFT_TILES(ScaledGemm_tiled64, A.data(), B.data(), alpha, nk, nj, out, ni, nj, 0); });
    compare2D(
        ni, nj, [&](float* out) { Syr2k_kernel(A.data(), B.data(), C.data(), alpha, nk, nj, out, ni, nj); },
        dim3(blocks(nj, 64), blocks(ni, 64)),
        [&](float* out) { CULIFT_TILES(Syr2k_tiled64, A.data(), B.data(), C.data(), alpha, nk, nj, out, ni, nj, 0); });
  }
}

TEST_CASE("emulated on the host, the batched 128-wide tiles' two forms give the per-thread bits",
          "[emulated][tiled][batched]") {
  // Each block takes a form per batch: whole and partial blocks side by side in every batch (k of
  // one tile of 16, and of three: a round of two and one of one), k not a multiple of 16 (the
  // checked form everywhere), B's rows not a multiple of 4 (no 16-byte groups), k of 0; 3 batches
  // over 2 blocks along z, and a launch in two parts (batch 0, then 1 on).
  for (const auto& [m, n, nk] : {std::tuple{130, 256, 16}, std::tuple{130, 128, 48}, std::tuple{128, 128, 20},
                                 std::tuple{128, 130, 8}, std::tuple{128, 128, 0}}) {
    INFO(m << " x " << n << ", k " << nk);
    const int nb = 3;
    const std::vector<float> A = values<float>(static_cast<std::size_t>(nb) * m * nk + 1, 18),
                             B = values<float>(static_cast<std::size_t>(nb) * nk * n + 1, 19),
                             C = values<float>(static_cast<std::size_t>(nb) * m * n, 20);
    std::vector<float> want(static_cast<std::size_t>(nb) * m * n, -7.0f), got(want.size(), -7.0f),
        parts(want.size(), -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2), [&] {
      BatchedGemm_kernel(A.data(), B.data(), C.data(), 0.75f, m, nk, n, want.data(), nb, m, n);
    });
    const dim3 grid(blocks(n, 128), blocks(m, 128), 2);
    culiftEmulatedLaunch(grid, dim3(256, 1, 1), [&] {
      CULIFT_TILES(BatchedGemm_batched128, A.data(), B.data(), C.data(), 0.75f, m, nk, n, got.data(), nb, m, n, 0);
    });
    CHECK(sameBits(got, want));
    culiftEmulatedLaunch(dim3(grid.x, grid.y, 1), dim3(256, 1, 1), [&] {
      CULIFT_TILES(BatchedGemm_batched128, A.data(), B.data(), C.data(), 0.75f, m, nk, n, parts.data(), 1, m, n, 0);
    });
    culiftEmulatedLaunch(grid, dim3(256, 1, 1), [&] {
      CULIFT_TILES(BatchedGemm_batched128, A.data(), B.data(), C.data(), 0.75f, m, nk, n, parts.data(), nb, m, n, 1);
    });
    CHECK(sameBits(parts, want));
  }
}

TEST_CASE("emulated on the host, stencil entries give the per-thread bits", "[emulated][stencil]") {
  for (const auto& [rows, cols] : {std::pair{3, 3}, std::pair{130, 70}, std::pair{9, 33}}) {
    INFO(rows << " x " << cols);
    const std::vector<float> a = values<float>(static_cast<std::size_t>(rows) * cols, 12);
    auto reference = [&](float* out) { Jacobi_kernel(a.data(), rows, cols, out, rows, cols); };
    compare2D(rows, cols, reference, dim3(blocks(cols, 32), blocks(rows, 8 * 16)),
              [&](float* out) { Jacobi_walk(a.data(), rows, cols, out, rows, cols, 0); });
    compare2D(rows, cols, reference, dim3(blocks(cols, 32), blocks(rows, 8 * 2)),
              [&](float* out) { Jacobi_walk2(a.data(), rows, cols, out, rows, cols, 0); });
  }
  // The 27-point convolution: slabs of planes, a slab's planes walked by each thread.
  for (const auto& [ni, nj, nk, slabs] :
       {std::tuple{3, 3, 3, 1u}, std::tuple{11, 9, 37, 3u}, std::tuple{6, 20, 40, 6u}}) {
    INFO(ni << " x " << nj << " x " << nk << ", " << slabs << " slabs");
    const std::vector<float> a = values<float>(static_cast<std::size_t>(ni) * nj * nk, 13), w = values<float>(27, 14);
    std::vector<float> want(a.size(), -7.0f), got(a.size(), -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                         [&] { Conv_kernel(a.data(), w.data(), ni, nj, nk, want.data(), ni, nj, nk); });
    culiftEmulatedLaunch(dim3(blocks(nk, 32), blocks(nj, 8), slabs), dim3(256, 1, 1),
                         [&] { Conv_walk3d(a.data(), w.data(), ni, nj, nk, got.data(), ni, nj, nk, 0); });
    CHECK(sameBits(got, want));
    // The windows in registers: slabs longer and shorter than a step of planes.
    std::vector<float> windows(a.size(), -7.0f);
    const long long n = static_cast<long long>(a.size());
    culiftEmulatedLaunch(dim3(blocks(nk, 32), blocks(nj, 8), slabs), dim3(256, 1, 1),
                         [&] { Conv_win3d(a.data(), w.data(), ni, nj, nk, windows.data(), ni, nj, nk, 0, n, 27, n); });
    CHECK(sameBits(windows, want));
    // Four outputs along k and two along j a thread (the last quad of a row partial where nk is no
    // multiple of 4, the last pair of rows where nj is odd).
    std::vector<float> quads(a.size(), -7.0f);
    culiftEmulatedLaunch(dim3(blocks(nk, 128), blocks(nj, 16), slabs), dim3(256, 1, 1),
                         [&] { Conv_win3d4(a.data(), w.data(), ni, nj, nk, quads.data(), ni, nj, nk, 0, n, 27, n); });
    CHECK(sameBits(quads, want));
    // ... in narrow tiles: 32 x 32 outputs, 8 threads along k x 16 along j.
    std::vector<float> narrow(a.size(), -7.0f);
    culiftEmulatedLaunch(dim3(blocks(nk, 32), blocks(nj, 32), slabs), dim3(128, 1, 1),
                         [&] { Conv_win3d4n(a.data(), w.data(), ni, nj, nk, narrow.data(), ni, nj, nk, 0, n, 27, n); });
    CHECK(sameBits(narrow, want));
  }
  // Streamed planes (two carried values, a guard reading the plane below; planes ahead alone) and
  // a body the stream does not take (the output's element read before its loop): every shape of
  // the convolution's, and slabs of one plane.
  for (const auto& [ni, nj, nk, slabs] : {std::tuple{1, 1, 1, 1u}, std::tuple{3, 3, 3, 1u}, std::tuple{11, 9, 37, 3u},
                                          std::tuple{6, 20, 40, 6u}, std::tuple{7, 10, 136, 2u}}) {
    INFO("streamed " << ni << " x " << nj << " x " << nk << ", " << slabs << " slabs");
    const std::size_t count = static_cast<std::size_t>(ni) * nj * nk;
    const std::vector<float> a = values<float>(count, 19), w = values<float>(27, 20);
    const auto n = static_cast<long long>(count);
    // One row a thread for ConvPair (its two running sums) and Centred3D (not streamed), two for Upward.
    const dim3 grid(blocks(nk, 128), blocks(nj, 8), slabs), pairs(blocks(nk, 128), blocks(nj, 16), slabs);
    std::vector<float> want(count, -7.0f), got(count, -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                         [&] { ConvPair_kernel(a.data(), w.data(), ni, nj, nk, want.data(), ni, nj, nk); });
    culiftEmulatedLaunch(grid, dim3(256, 1, 1),
                         [&] { ConvPair_win3d4(a.data(), w.data(), ni, nj, nk, got.data(), ni, nj, nk, 0, n, 27, n); });
    CHECK(sameBits(got, want));
    std::fill(want.begin(), want.end(), -7.0f), std::fill(got.begin(), got.end(), -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                         [&] { Upward_kernel(a.data(), ni, nj, nk, want.data(), ni, nj, nk); });
    culiftEmulatedLaunch(pairs, dim3(256, 1, 1),
                         [&] { Upward_win3d4(a.data(), ni, nj, nk, got.data(), ni, nj, nk, 0, n, n); });
    CHECK(sameBits(got, want));
    std::fill(got.begin(), got.end(), -7.0f);
    culiftEmulatedLaunch(dim3(blocks(nk, 32), blocks(nj, 32), slabs), dim3(128, 1, 1),
                         [&] { Upward_win3d4n(a.data(), ni, nj, nk, got.data(), ni, nj, nk, 0, n, n); });
    CHECK(sameBits(got, want));
    std::fill(want.begin(), want.end(), -7.0f), std::fill(got.begin(), got.end(), -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                         [&] { Centred3D_kernel(a.data(), ni, nj, nk, want.data(), ni, nj, nk); });
    culiftEmulatedLaunch(grid, dim3(256, 1, 1),
                         [&] { Centred3D_win3d4(a.data(), ni, nj, nk, got.data(), ni, nj, nk, 0, n, n); });
    CHECK(sameBits(got, want));
  }
  // Two arrays' windows, asymmetric halos, doubles: the loads that cross the arrays' ends are
  // checked one by one (one slab: every plane's window; several: the slabs' first planes).
  for (const auto& [ni, nj, nk, slabs] : {std::tuple{1, 1, 1, 1u}, std::tuple{3, 2, 4, 1u}, std::tuple{13, 9, 37, 1u},
                                          std::tuple{13, 9, 37, 4u}, std::tuple{21, 5, 70, 2u}}) {
    INFO("Skew " << ni << " x " << nj << " x " << nk << ", " << slabs << " slabs");
    const std::size_t count = static_cast<std::size_t>(ni) * nj * nk;
    const std::vector<double> a = values<double>(count, 15), b = values<double>(count, 16);
    std::vector<double> want(count, -7.0), got(count, -7.0);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                         [&] { Skew_kernel(a.data(), b.data(), ni, nj, nk, want.data(), ni, nj, nk); });
    const auto n = static_cast<long long>(count);
    culiftEmulatedLaunch(dim3(blocks(nk, 32), blocks(nj, 8), slabs), dim3(256, 1, 1),
                         [&] { Skew_win3d(a.data(), b.data(), ni, nj, nk, got.data(), ni, nj, nk, 0, n, n, n); });
    CHECK(sameBits(got, want));
    std::vector<double> quads(count, -7.0);
    culiftEmulatedLaunch(dim3(blocks(nk, 128), blocks(nj, 8), slabs), dim3(256, 1, 1),
                         [&] { Skew_win3d4(a.data(), b.data(), ni, nj, nk, quads.data(), ni, nj, nk, 0, n, n, n); });
    CHECK(sameBits(quads, want));
  }
  // The same in floats: four outputs a thread take both arrays' planes through shared memory
  // (tiles of 8 and 9 rows, 136 and 128 columns), element by element where a group of four crosses
  // an end of an array or the rows are not aligned (nk 37, 70), in 16-byte groups otherwise.
  for (const auto& [ni, nj, nk, slabs] :
       {std::tuple{1, 1, 1, 1u}, std::tuple{3, 2, 4, 1u}, std::tuple{13, 9, 37, 1u}, std::tuple{13, 9, 40, 4u},
        std::tuple{21, 5, 70, 2u}, std::tuple{9, 11, 136, 3u}}) {
    INFO("SkewF " << ni << " x " << nj << " x " << nk << ", " << slabs << " slabs");
    const std::size_t count = static_cast<std::size_t>(ni) * nj * nk;
    const std::vector<float> a = values<float>(count, 17), b = values<float>(count, 18);
    std::vector<float> want(count, -7.0f), got(count, -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                         [&] { SkewF_kernel(a.data(), b.data(), ni, nj, nk, want.data(), ni, nj, nk); });
    const auto n = static_cast<long long>(count);
    culiftEmulatedLaunch(dim3(blocks(nk, 128), blocks(nj, 8), slabs), dim3(256, 1, 1),
                         [&] { SkewF_win3d4(a.data(), b.data(), ni, nj, nk, got.data(), ni, nj, nk, 0, n, n, n); });
    CHECK(sameBits(got, want));
  }
}

namespace {

using culift::rttest::contractionBound;

// A tensor-core entry's outputs against the exact values: each within `bound(o)` of `exact[o]`;
// some differ from the per-thread entry's bits (the operands were rounded), none is NaN.
void checkWithin(const std::vector<float>& got, const std::vector<float>& perThread, const std::vector<double>& exact,
                 const std::vector<double>& bound) {
  std::size_t outside = 0, differ = 0, first = got.size();
  for (std::size_t o = 0; o < got.size(); ++o) {
    const bool ok = std::abs(static_cast<double>(got[o]) - exact[o]) <= bound[o];
    if (!ok && first == got.size()) first = o;
    outside += !ok;
    differ += std::memcmp(&got[o], &perThread[o], sizeof(float)) != 0;
  }
  std::ostringstream where;
  if (first < got.size())
    where << "output " << first << ": " << got[first] << ", exact " << exact[first] << ", bound " << bound[first];
  INFO(where.str());
  CHECK(outside == 0);
  CHECK(differ > 0);
}

}  // namespace

TEST_CASE("emulated on the host, tensor-core entries stay within the contract's bound", "[emulated][tensor-cores]") {
  using namespace culift::rttest;
  const double tf32 = kTf32Roundoff, bf16 = kBf16Roundoff, fp16 = kFp16Roundoff;
  // Partial tiles along both axes, k not a multiple of a step, k of 1 and 0; whole tiles (the
  // copies in 16-byte groups, or the bulk tensor copies) beside partial ones, and enough whole
  // steps of k (136) for the entries on warpgroups' loop of tensor copies alone.
  for (const auto& [ni, nj, nk] : {std::tuple{70, 90, 37}, std::tuple{130, 129, 16}, std::tuple{5, 130, 1},
                                   std::tuple{33, 17, 0}, std::tuple{260, 256, 72}, std::tuple{260, 256, 136}}) {
    INFO(ni << " x " << nj << ", k " << nk);
    const std::size_t outputs = static_cast<std::size_t>(ni) * nj;
    const std::vector<float> A = values<float>(static_cast<std::size_t>(ni) * nk, 15),
                             B = values<float>(static_cast<std::size_t>(nk) * nj, 16), C = values<float>(outputs, 17);
    const float alpha = 1.5f, beta = -0.5f;
    // The exact sums in double (products of floats are exact in double; K <= 37 terms of at most 1
    // lose nothing that matters against the bound), with their magnitudes, for B as (k, j) and as (j, k).
    std::vector<double> sum(outputs), mag(outputs), sumT(outputs), magT(outputs);
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < nj; ++j) {
        double s = 0, m = 0, st = 0, mt = 0;
        for (int k = 0; k < nk; ++k) {
          const double a = A[static_cast<std::size_t>(i) * nk + k];
          const double b = B[static_cast<std::size_t>(k) * nj + j];
          const double bt = B[static_cast<std::size_t>(j) * nk + k];
          s += a * b;
          m += std::abs(a * b);
          st += a * bt;
          mt += std::abs(a * bt);
        }
        sum[i * nj + j] = s;
        mag[i * nj + j] = m;
        sumT[i * nj + j] = st;
        magT[i * nj + j] = mt;
      }
    const unsigned grid128x = blocks(nj, 128), grid128y = blocks(ni, 128), grid64x = blocks(nj, 64),
                   grid64y = blocks(ni, 64), grid256y = blocks(ni, 256);
    auto run = [&](dim3 grid, auto&& launch, unsigned threads = 256) {
      std::vector<float> out(outputs, -7.0f);
      culiftEmulatedLaunch(grid, dim3(threads, 1, 1), [&] { launch(out.data()); });
      return out;
    };
    auto perThread = [&](auto&& launch) {
      std::vector<float> out(outputs, -7.0f);
      culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 8, 1), [&] { launch(out.data()); });
      return out;
    };
    {
      INFO("GemmTf32: beta * C + alpha * sum");
      std::vector<double> exact(outputs), bound(outputs);
      for (std::size_t o = 0; o < outputs; ++o) {
        exact[o] = beta * C[o] + alpha * sum[o];
        // The sum's bound scaled by alpha, and the epilogue's two roundings in fp32.
        bound[o] = alpha * contractionBound(tf32, nk, mag[o]) +
                   std::ldexp(1.0, -22) * (std::abs(beta * C[o]) + alpha * mag[o]);
      }
      const std::vector<float> want = perThread(
          [&](float* out) { GemmTf32_kernel(A.data(), B.data(), C.data(), alpha, beta, nk, nj, out, ni, nj); });
      std::vector<std::vector<float>> entries;
      // The entries on warpgroups (their wgmma body, emulated) first, with and without their bulk
      // tensor copies (A as rows of nk, B as rows of nj): the same products in the same order, the
      // same bits whichever copies stage the tiles. The 256-row entry's block has a copying
      // warpgroup (384 threads: its mbarriers emulated, the workers meeting at their own barrier).
      for (const auto& [grid, entry, rows, threads] :
           {std::tuple{dim3(grid128x, grid256y), &GemmTf32_wg256, 256, 384u},
            std::tuple{dim3(grid128x, grid128y), &GemmTf32_wg128, 128, 256u}}) {
        INFO("the entry of " << rows << " rows");
        const culift_tensor_map a = culift_emulated_tensor_map(A.data(), ni, nk, 32, rows),
                                b = culift_emulated_tensor_map(B.data(), nk, nj, 32, 32);
        std::vector<float> copied;
        for (int maps : {0, 3}) {
          const std::vector<float> got = run(
              grid,
              [&](float* out) { entry(A.data(), B.data(), C.data(), alpha, beta, nk, nj, out, ni, nj, 0, a, b, maps); },
              threads);
          if (maps == 0) {
            copied = got;
            entries.push_back(got);
          } else {
            CHECK(sameBits(got, copied));
          }
          if (nk == 0) {
            CHECK(sameBits(got, want));
            continue;
          }
          checkWithin(got, want, exact, bound);
        }
      }
      for (const auto& [grid, entry] :
           {std::pair{dim3(grid128x, grid128y), &GemmTf32_tc128}, std::pair{dim3(grid64x, grid64y), &GemmTf32_tc64}}) {
        const std::vector<float> got = run(grid, [&](float* out) {
          entry(A.data(), B.data(), C.data(), alpha, beta, nk, nj, out, ni, nj, 0);
        });
        entries.push_back(got);
        if (nk == 0) {
          CHECK(sameBits(got, want));  // no product: the epilogue alone, as the per-thread entry
          continue;
        }
        checkWithin(got, want, exact, bound);
      }
      // Each output's sum goes through the same mma steps in either mma.sync tile, and the same
      // wgmma steps in either tile on warpgroups: the same bits.
      CHECK(sameBits(entries[0], entries[1]));
      CHECK(sameBits(entries[2], entries[3]));
    }
    {
      INFO("GemmBf16: C + sum, B transposed");
      std::vector<double> exact(outputs), bound(outputs);
      for (std::size_t o = 0; o < outputs; ++o) {
        exact[o] = C[o] + sumT[o];
        bound[o] = contractionBound(bf16, nk, std::abs(C[o]) + magT[o]) +
                   std::ldexp(1.0, -23) * (std::abs(C[o]) + magT[o]);
      }
      const std::vector<float> want = perThread(
          [&](float* out) { GemmBf16_kernel(A.data(), B.data(), C.data(), nk, nj, out, ni, nj); });
      for (const auto& [grid, entry] :
           {std::pair{dim3(grid128x, grid128y), &GemmBf16_tc128}, std::pair{dim3(grid64x, grid64y), &GemmBf16_tc64}}) {
        const std::vector<float> got = run(grid, [&](float* out) {
          entry(A.data(), B.data(), C.data(), nk, nj, out, ni, nj, 0);
        });
        if (nk == 0) {
          CHECK(sameBits(got, want));
          continue;
        }
        checkWithin(got, want, exact, bound);
      }
    }
    {
      INFO("GemmFp16: sum = sum + a * b");
      std::vector<double> bound(outputs);
      for (std::size_t o = 0; o < outputs; ++o)
        bound[o] = contractionBound(fp16, nk, mag[o]) + std::ldexp(1.0, -23) * mag[o];
      const std::vector<float> want = perThread(
          [&](float* out) { GemmFp16_kernel(A.data(), B.data(), nk, nj, out, ni, nj); });
      for (const auto& [grid, entry] :
           {std::pair{dim3(grid128x, grid128y), &GemmFp16_tc128}, std::pair{dim3(grid64x, grid64y), &GemmFp16_tc64}}) {
        const std::vector<float> got = run(grid,
                                           [&](float* out) { entry(A.data(), B.data(), nk, nj, out, ni, nj, 0); });
        if (nk == 0) {
          CHECK(sameBits(got, want));
          continue;
        }
        checkWithin(got, want, sum, bound);
      }
    }
  }
}

TEST_CASE("emulated on the host, batched tensor-core entries stay within the contract's bound",
          "[emulated][tensor-cores][batched]") {
  // 3 batches over 2 blocks along z (each block steps over them), partial tiles, k of 1 and 0.
  for (const auto& [nb, m, nk, n] :
       {std::tuple{3, 33, 20, 70}, std::tuple{1, 130, 9, 5}, std::tuple{2, 17, 1, 19}, std::tuple{3, 8, 0, 8}}) {
    INFO(nb << " batches of " << m << " x " << n << ", k " << nk);
    const std::vector<float> A = values<float>(static_cast<std::size_t>(nb) * m * nk, 18),
                             B = values<float>(static_cast<std::size_t>(nb) * nk * n, 19);
    const std::size_t outputs = static_cast<std::size_t>(nb) * m * n;
    std::vector<double> exact(outputs), bound(outputs);
    for (int b = 0; b < nb; ++b)
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          double s = 0, mag = 0;
          for (int k = 0; k < nk; ++k) {
            const double p = static_cast<double>(A[(static_cast<std::size_t>(b) * m + i) * nk + k]) *
                             B[(static_cast<std::size_t>(b) * nk + k) * n + j];
            s += p;
            mag += std::abs(p);
          }
          const std::size_t o = (static_cast<std::size_t>(b) * m + i) * n + j;
          exact[o] = s;
          bound[o] = contractionBound(culift::rttest::kTf32Roundoff, nk, mag) + std::ldexp(1.0, -23) * mag;
        }
    std::vector<float> want(outputs, -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                         [&] { BatchedTf32_kernel(A.data(), B.data(), m, nk, n, want.data(), nb, m, n); });
    std::vector<std::vector<float>> entries;
    for (const auto& [tile, entry] : {std::pair{128u, &BatchedTf32_tc128}, std::pair{64u, &BatchedTf32_tc64}}) {
      std::vector<float> got(outputs, -7.0f);
      culiftEmulatedLaunch(dim3(blocks(n, tile), blocks(m, tile), 2), dim3(256, 1, 1),
                           [&] { entry(A.data(), B.data(), m, nk, n, got.data(), nb, m, n, 0); });
      if (nk == 0) {
        CHECK(sameBits(got, want));
        continue;
      }
      checkWithin(got, want, exact, bound);
      entries.push_back(got);
    }
    if (entries.size() == 2) CHECK(sameBits(entries[0], entries[1]));
  }
}

namespace {

// A 70 x 90 GEMM of k 37 (Gemm of loop_plan_kernels.hpp: beta * C + alpha * A B) and its
// per-thread outputs.
struct GemmCase {
  static constexpr int ni = 70, nj = 90, nk = 37;
  std::vector<float> A, B, C, want;
  explicit GemmCase(unsigned seed)
      : A(values<float>(static_cast<std::size_t>(ni) * nk, seed)),
        B(values<float>(static_cast<std::size_t>(nk) * nj, seed + 1)),
        C(values<float>(static_cast<std::size_t>(ni) * nj, seed + 2)),
        want(static_cast<std::size_t>(ni) * nj, -7.0f) {
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 8, 1),
                         [&] { Gemm_kernel(A.data(), B.data(), C.data(), 1.5f, -0.5f, nk, nj, want.data(), ni, nj); });
  }
};

}  // namespace

TEST_CASE("emulated on the host, a part wrapper writes its part's outputs, the per-thread bits", "[emulated][part]") {
  // 2-D: a part that starts and ends inside rows; 3-D: planes and rows cut.
  const GemmCase g(20);
  const int ni = g.ni, nj = g.nj, nk = g.nk;
  const std::vector<float>&A = g.A, &B = g.B, &C = g.C, &want = g.want;
  for (const auto& [first, last] : {std::pair{0ll, 6300ll}, std::pair{95ll, 4001ll}, std::pair{6299ll, 6300ll}}) {
    INFO("part [" << first << ", " << last << ")");
    std::vector<float> got(want.size(), -7.0f);
    culiftEmulatedLaunch(dim3(3, 1, 1), dim3(64, 1, 1), [&] {
      Gemm_kernel_part(A.data(), B.data(), C.data(), 1.5f, -0.5f, nk, nj, got.data(), ni, nj, first, last);
    });
    std::size_t wrong = 0;
    for (long long e = 0; e < static_cast<long long>(got.size()); ++e)
      wrong += e >= first && e < last ? std::memcmp(&got[e], &want[e], 4) != 0 : got[e] != -7.0f;
    CHECK(wrong == 0);
  }
  const int pi = 6, pj = 9, pk = 11;
  const std::vector<float> a = values<float>(static_cast<std::size_t>(pi) * pj * pk, 23), w = values<float>(27, 24);
  std::vector<float> whole(a.size(), -7.0f), part(a.size(), -7.0f);
  culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                       [&] { Conv_kernel(a.data(), w.data(), pi, pj, pk, whole.data(), pi, pj, pk); });
  culiftEmulatedLaunch(dim3(2, 1, 1), dim3(32, 1, 1),
                       [&] { Conv_kernel_part(a.data(), w.data(), pi, pj, pk, part.data(), pi, pj, pk, 150, 500); });
  std::size_t wrong = 0;
  for (long long e = 0; e < static_cast<long long>(part.size()); ++e)
    wrong += e >= 150 && e < 500 ? std::memcmp(&part[e], &whole[e], 4) != 0 : part[e] != -7.0f;
  CHECK(wrong == 0);
}

namespace {

// `entry(first, last, out)` runs a plan entry over the rows [first, last) of axis 0 (culift_first,
// and the part's end as axis 0's extent) of a launch whose per-thread outputs are `want`, `row`
// outputs per index of axis 0: the part's rows give the per-thread bits, every other output is
// left as it was.
template <typename T, typename Entry>
void comparePart(const std::vector<T>& want, long long row, long long first, long long last, Entry&& entry) {
  INFO("rows [" << first << ", " << last << ")");
  std::vector<T> got(want.size(), T(-7));
  entry(first, last, got.data());
  std::size_t wrong = 0, inPart = 0;
  for (long long e = 0; e < static_cast<long long>(got.size()); ++e) {
    const bool part = e >= first * row && e < last * row;
    inPart += part;
    wrong += part ? std::memcmp(&got[e], &want[e], sizeof(T)) != 0 : got[e] != T(-7);
  }
  CHECK(inPart == static_cast<std::size_t>((last - first) * row));
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("emulated on the host, plan entries run a part of a launch: its rows, the per-thread bits",
          "[emulated][part]") {
  // Tiles2D (a tiled contraction): parts that start inside a tile and end at the last row.
  const GemmCase g(30);
  const int ni = g.ni, nj = g.nj, nk = g.nk;
  const std::vector<float>&A = g.A, &B = g.B, &C = g.C, &want = g.want;
  for (const auto& [first, last] :
       {std::pair{0ll, 70ll}, std::pair{13ll, 45ll}, std::pair{64ll, 70ll}, std::pair{69ll, 70ll}})
    comparePart(want, nj, first, last, [&](long long f, long long l, float* out) {
      culiftEmulatedLaunch(dim3(blocks(nj, 64), blocks(l - f, 64)), dim3(256, 1, 1), [&] {
        CULIFT_TILES(Gemm_tiled64, A.data(), B.data(), C.data(), 1.5f, -0.5f, nk, nj, out, l, nj, f);
      });
    });
  // The same on tensor cores: the part's rows give the whole launch's bits for those rows.
  {
    std::vector<float> whole(want.size(), -7.0f);
    culiftEmulatedLaunch(dim3(blocks(nj, 64), blocks(ni, 64)), dim3(256, 1, 1), [&] {
      GemmTf32_tc64(A.data(), B.data(), C.data(), 1.5f, -0.5f, nk, nj, whole.data(), ni, nj, 0);
    });
    comparePart(whole, nj, 21, 70, [&](long long f, long long l, float* out) {
      culiftEmulatedLaunch(dim3(blocks(nj, 64), blocks(l - f, 64)), dim3(256, 1, 1),
                           [&] { GemmTf32_tc64(A.data(), B.data(), C.data(), 1.5f, -0.5f, nk, nj, out, l, nj, f); });
    });
  }
  // Triangle: two bands of a symmetric launch's triangle (rows [0, 64) and [64, 70), tiles of 64),
  // each its tiles on and below the diagonal stored mirrored; together the whole launch's bits.
  {
    const std::vector<float> x = values<float>(static_cast<std::size_t>(ni) * nk, 39);
    std::vector<float> gram(static_cast<std::size_t>(ni) * ni, -7.0f), bands(gram.size(), -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 8, 1), [&] { Gram_kernel(x.data(), nk, gram.data(), ni, ni); });
    culiftEmulatedLaunch(dim3(2, 1, 1), dim3(256, 1, 1), [&] { Gram_sym64(x.data(), nk, bands.data(), ni, ni, 64); });
    std::size_t wrong = 0;
    for (int i = 0; i < ni; ++i)
      for (int j = 0; j < ni; ++j) {
        const bool written = i >= 64 || j >= 64;  // the second band's tile row and its mirror
        const float v = bands[static_cast<std::size_t>(i) * ni + j];
        wrong += written ? std::memcmp(&v, &gram[static_cast<std::size_t>(i) * ni + j], 4) != 0 : v != -7.0f;
      }
    CHECK(wrong == 0);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(256, 1, 1), [&] { Gram_sym64(x.data(), nk, bands.data(), 64, ni, 0); });
    CHECK(sameBits(bands, gram));
  }
  // BatchedTiles2D: parts of the batches.
  const int nb = 3, m = 33, bk = 20, n = 70;
  const std::vector<float> BA = values<float>(static_cast<std::size_t>(nb) * m * bk, 33),
                           BB = values<float>(static_cast<std::size_t>(nb) * bk * n, 34),
                           BC = values<float>(static_cast<std::size_t>(nb) * m * n, 35);
  std::vector<float> batched(static_cast<std::size_t>(nb) * m * n, -7.0f);
  culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2), [&] {
    BatchedGemm_kernel(BA.data(), BB.data(), BC.data(), 0.75f, m, bk, n, batched.data(), nb, m, n);
  });
  for (const auto& [first, last] : {std::pair{1ll, 3ll}, std::pair{2ll, 3ll}, std::pair{0ll, 1ll}})
    comparePart(batched, static_cast<long long>(m) * n, first, last, [&](long long f, long long l, float* out) {
      culiftEmulatedLaunch(dim3(blocks(n, 64), blocks(m, 64), static_cast<unsigned>(l - f)), dim3(256, 1, 1), [&] {
        CULIFT_TILES(BatchedGemm_batched64, BA.data(), BB.data(), BC.data(), 0.75f, m, bk, n, out, l, m, n, f);
      });
    });
  // Tiles2D (a stencil): the part's rows read the rows around them as the whole launch does.
  const int rows = 130, cols = 70;
  const std::vector<float> a = values<float>(static_cast<std::size_t>(rows) * cols, 36);
  std::vector<float> jacobi(a.size(), -7.0f);
  culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 8, 1),
                       [&] { Jacobi_kernel(a.data(), rows, cols, jacobi.data(), rows, cols); });
  for (const auto& [first, last] : {std::pair{1ll, 129ll}, std::pair{40ll, 130ll}})
    comparePart(jacobi, cols, first, last, [&](long long f, long long l, float* out) {
      culiftEmulatedLaunch(dim3(blocks(cols, 32), blocks(l - f, 8 * 2)), dim3(256, 1, 1),
                           [&] { Jacobi_walk2(a.data(), rows, cols, out, l, cols, f); });
    });
  // Slabs3D: the part's planes split over the grid's slabs.
  const int pi = 11, pj = 9, pk = 37;
  const std::vector<float> v = values<float>(static_cast<std::size_t>(pi) * pj * pk, 37), w = values<float>(27, 38);
  std::vector<float> conv(v.size(), -7.0f);
  culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2),
                       [&] { Conv_kernel(v.data(), w.data(), pi, pj, pk, conv.data(), pi, pj, pk); });
  for (const auto& [first, last, slabs] :
       {std::tuple{3ll, 11ll, 3u}, std::tuple{5ll, 6ll, 1u}, std::tuple{0ll, 7ll, 2u}})
    comparePart(conv, static_cast<long long>(pj) * pk, first, last, [&](long long f, long long l, float* out) {
      culiftEmulatedLaunch(dim3(blocks(pk, 32), blocks(pj, 8), slabs), dim3(256, 1, 1),
                           [&] { Conv_walk3d(v.data(), w.data(), pi, pj, pk, out, l, pj, pk, f); });
    });
  // Slabs3DWindows: the same with the windows in registers.
  for (const auto& [first, last, slabs] :
       {std::tuple{3ll, 11ll, 1u}, std::tuple{5ll, 6ll, 1u}, std::tuple{2ll, 9ll, 2u}})
    comparePart(conv, static_cast<long long>(pj) * pk, first, last, [&](long long f, long long l, float* out) {
      const auto n = static_cast<long long>(v.size());
      culiftEmulatedLaunch(dim3(blocks(pk, 32), blocks(pj, 8), slabs), dim3(256, 1, 1),
                           [&] { Conv_win3d(v.data(), w.data(), pi, pj, pk, out, l, pj, pk, f, n, 27, n); });
    });
  for (const auto& [first, last, slabs] : {std::tuple{3ll, 11ll, 2u}, std::tuple{7ll, 8ll, 1u}})
    comparePart(conv, static_cast<long long>(pj) * pk, first, last, [&](long long f, long long l, float* out) {
      const auto n = static_cast<long long>(v.size());
      culiftEmulatedLaunch(dim3(blocks(pk, 128), blocks(pj, 8), slabs), dim3(256, 1, 1),
                           [&] { Conv_win3d4(v.data(), w.data(), pi, pj, pk, out, l, pj, pk, f, n, 27, n); });
    });
  for (const auto& [first, last, slabs] : {std::tuple{3ll, 11ll, 2u}, std::tuple{7ll, 8ll, 1u}})
    comparePart(conv, static_cast<long long>(pj) * pk, first, last, [&](long long f, long long l, float* out) {
      const auto n = static_cast<long long>(v.size());
      culiftEmulatedLaunch(dim3(blocks(pk, 32), blocks(pj, 32), slabs), dim3(128, 1, 1),
                           [&] { Conv_win3d4n(v.data(), w.data(), pi, pj, pk, out, l, pj, pk, f, n, 27, n); });
    });
  // ConvTiles: rows nk = image * filters + filter, parts that start and end inside an image and
  // inside a tile of channels; one image whose channel is nk itself (ValidConv), from a channel tile
  // after the first.
  for (const ConvShape& s : {ConvShape{3, 3, 40, 3, 2, 1, 5, 6}, ConvShape{2, 3, 96, 11, 4, 2, 9, 9}}) {
    INFO(s.n << " images of " << s.c << " channels, " << s.k << " filters " << s.r << " x " << s.r);
    const std::vector<float> x = values<float>(static_cast<std::size_t>(s.n) * s.c * s.h() * s.w(), 40);
    const std::vector<float> w = values<float>(static_cast<std::size_t>(s.k) * s.c * s.r * s.r, 41);
    const long long rows = static_cast<long long>(s.n) * s.k;
    std::vector<float> want(static_cast<std::size_t>(rows) * s.oh * s.ow, -7.0f);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2), [&] {
      Conv2D_kernel(x.data(), w.data(), s.c, s.h(), s.w(), s.k, s.r, s.r, s.stride, s.pad, want.data(), rows, s.oh,
                    s.ow);
    });
    for (const auto& [first, last] : {std::pair{0ll, rows / 2 + 1}, std::pair{rows / 2 + 1, rows},
                                      std::pair{37ll, 41ll}, std::pair{rows - 1, rows}})
      comparePart(want, static_cast<long long>(s.oh) * s.ow, first, last, [&](long long f, long long l, float* out) {
        culiftEmulatedLaunch(dim3(2, 2, 1), dim3(256, 1, 1), [&] {
          Conv2D_conv64x128(x.data(), w.data(), s.c, s.h(), s.w(), s.k, s.r, s.r, s.stride, s.pad, out, l, s.oh, s.ow,
                            f);
        });
      });
  }
  {
    const ConvShape s{1, 3, 150, 3, 1, 0, 7, 5};
    const std::vector<double> x = values<double>(static_cast<std::size_t>(s.c) * s.h() * s.w(), 42);
    const std::vector<double> w = values<double>(static_cast<std::size_t>(s.k) * s.c * s.r * s.r, 43);
    std::vector<double> want(static_cast<std::size_t>(s.k) * s.oh * s.ow, -7.0);
    culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 4, 2), [&] {
      ValidConv_kernel(x.data(), w.data(), s.c, s.h(), s.w(), s.r, s.r, s.stride, want.data(), s.k, s.oh, s.ow);
    });
    for (const auto& [first, last] : {std::pair{13ll, 150ll}, std::pair{70ll, 131ll}, std::pair{0ll, 7ll}})
      comparePart(want, static_cast<long long>(s.oh) * s.ow, first, last, [&](long long f, long long l, double* out) {
        culiftEmulatedLaunch(dim3(3, 1, 1), dim3(64, 1, 1), [&] {
          ValidConv_conv32x64(x.data(), w.data(), s.c, s.h(), s.w(), s.r, s.r, s.stride, out, l, s.oh, s.ow, f);
        });
      });
  }
}

namespace {

// Values with ties (multiples of 1/8 in [-4, 4)): the min/max entries must keep the loop's own.
template <typename T> std::vector<T> tied(std::size_t count, unsigned seed) {
  std::vector<T> v = values<T>(count, seed);
  for (T& x : v) x = static_cast<T>(std::floor(static_cast<double>(x) * 32.0) / 8.0);
  return v;
}

// A 1-D kernel's per-thread outputs over `rows`, then `entry(first, last, out)` over the whole
// launch and over parts of it: the per-thread bits (or, `whole` false, the whole entry's bits in
// every part: a reassociating entry's order is its own).
template <typename T, typename Ref, typename Entry>
void compareRows(long long rows, Ref&& reference, Entry&& entry, bool exact = true) {
  std::vector<T> want(static_cast<std::size_t>(rows), T(-7)), whole(want.size(), T(-7));
  culiftEmulatedLaunch(dim3(2, 1, 1), dim3(64, 1, 1), [&] { reference(want.data()); });
  entry(0, rows, whole.data());
  if (exact) CHECK(sameBits(whole, want));
  for (const auto& [first, last] : {std::pair{rows / 3, rows}, std::pair{1ll, rows / 2 + 1}, std::pair{rows - 1, rows}})
    comparePart(whole, 1, first, last, entry);
}

}  // namespace

TEST_CASE("emulated on the host, entries of warps (rows, min/max rows, scans) give the per-thread bits, in parts too",
          "[emulated][warps][part]") {
  const int n = 77;  // columns: more than a warp's lanes, not a multiple of them
  const long long rows = 70;
  const std::vector<float> x = tied<float>(static_cast<std::size_t>(rows) * n, 51);
  const std::vector<double> xd = tied<double>(static_cast<std::size_t>(rows) * n, 52);
  auto grid = [](long long r, long long tile) { return dim3(blocks(r, static_cast<unsigned>(tile)), 1, 1); };
  SECTION("row reductions in the loop's order") {
    auto ref = [&](float* out) { RowSum_kernel(x.data(), n, out, rows); };
    compareRows<float>(rows, ref, [&](long long f, long long l, float* out) {
      culiftEmulatedLaunch(grid(l - f, 32), dim3(256, 1, 1), [&] { RowSum_rows32(x.data(), n, out, l, f); });
    });
    compareRows<float>(rows, ref, [&](long long f, long long l, float* out) {
      culiftEmulatedLaunch(grid(l - f, 8), dim3(256, 1, 1), [&] { RowSum_rows8(x.data(), n, out, l, f); });
    });
  }
  SECTION("a reassociating row reduction: a part's rows have the whole launch's bits") {
    compareRows<float>(
        rows, [&](float* out) { RowTotal_kernel(x.data(), n, out, rows); },
        [&](long long f, long long l, float* out) {
          culiftEmulatedLaunch(grid(l - f, 8), dim3(256, 1, 1), [&] { RowTotal_warp(x.data(), n, out, l, f); });
        },
        false);
  }
  SECTION("split rows: blocks of a row meet in the scratch, the warp per row's bits") {
    // Rows of four chunks of 4096 iterations, three blocks a row (24 warps over their slots).
    const int cols = 3 * 4096 + 5;
    const long long few = 5;
    const std::vector<float> xs = values<float>(static_cast<std::size_t>(few) * cols, 54);
    std::vector<float> warp(static_cast<std::size_t>(few), -7.0f);
    culiftEmulatedLaunch(grid(few, 8), dim3(256, 1, 1), [&] { RowTotal_warp(xs.data(), cols, warp.data(), few, 0); });
    // More than the entry's layout takes (culift/ast/reassociation.hpp: 256 bytes of tickets, then
    // 256 slots of 8 bytes a row), zero-filled as the runtime gives it.
    std::vector<unsigned char> scratch(64 * 1024, 0);
    for (const auto& [first, last] : {std::pair{0ll, few}, std::pair{2ll, few}, std::pair{1ll, 3ll}})
      comparePart(warp, 1, first, last, [&](long long f, long long l, float* out) {
        culiftEmulatedLaunch(dim3(static_cast<unsigned>(3 * (l - f)), 1, 1), dim3(256, 1, 1),
                             [&] { RowTotal_split(xs.data(), cols, out, l, f, scratch.data()); });
      });
    // Every launch leaves the tickets at zero for the next.
    std::size_t tickets = 0;
    for (long long r = 0; r < few; ++r) tickets += reinterpret_cast<const unsigned*>(scratch.data())[r];
    CHECK(tickets == 0);
  }
  SECTION("min/max rows: the loop's own value and index, ties included") {
    compareRows<float>(
        rows, [&](float* out) { RowMax_kernel(x.data(), n, out, rows); },
        [&](long long f, long long l, float* out) {
          culiftEmulatedLaunch(grid(l - f, 8), dim3(256, 1, 1), [&] { RowMax_extremum(x.data(), n, out, l, f); });
        });
    compareRows<int>(
        rows, [&](int* out) { ArgMax_kernel(x.data(), n, out, rows); },
        [&](long long f, long long l, int* out) {
          culiftEmulatedLaunch(grid(l - f, 8), dim3(256, 1, 1), [&] { ArgMax_extremum(x.data(), n, out, l, f); });
        });
    compareRows<int>(
        rows, [&](int* out) { ArgMinLast_kernel(xd.data(), n, out, rows); },
        [&](long long f, long long l, int* out) {
          culiftEmulatedLaunch(grid(l - f, 8), dim3(256, 1, 1), [&] { ArgMinLast_extremum(xd.data(), n, out, l, f); });
        });
  }
  SECTION("scans: every row's running values, in order") {
    // The written array's rows are the outputs here: n elements per row.
    const long long many = 100;  // more rows than a block of two warps takes
    const std::vector<float> xs = tied<float>(static_cast<std::size_t>(many) * n, 53);
    std::vector<float> want(xs.size(), -7.0f), maxes(xs.size(), -7.0f);
    culiftEmulatedLaunch(dim3(2, 1, 1), dim3(64, 1, 1), [&] { CumSum_kernel(xs.data(), want.data(), n, many); });
    culiftEmulatedLaunch(dim3(2, 1, 1), dim3(64, 1, 1), [&] { CumMax_kernel(xs.data(), maxes.data(), n, many); });
    for (const auto& [first, last] : {std::pair{0ll, many}, std::pair{33ll, many}, std::pair{5ll, 70ll}}) {
      comparePart(want, n, first, last, [&](long long f, long long l, float* out) {
        culiftEmulatedLaunch(grid(l - f, 64), dim3(64, 1, 1), [&] { CumSum_scan64(xs.data(), out, n, l, f); });
      });
      comparePart(want, n, first, last, [&](long long f, long long l, float* out) {
        culiftEmulatedLaunch(grid(l - f, 32), dim3(32, 1, 1), [&] { CumSum_scan32(xs.data(), out, n, l, f); });
      });
      comparePart(maxes, n, first, last, [&](long long f, long long l, float* out) {
        culiftEmulatedLaunch(dim3(1, 1, 1), dim3(32, 1, 1), [&] { CumMax_scan32(xs.data(), out, n, l, f); });
      });
    }
  }
}
