// The benchmark's rows: each lifted kernel and its hand-written counterpart on the same inputs,
// timed side by side, both checked against the header function compiled natively.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench_support.hpp"
#include "culift/ast/module.hpp"

namespace culift::bench {

struct Context {
  Context(rt::Engine& e, rt::RawModule& r, std::shared_ptr<const Module> satModule,
          std::shared_ptr<const Module> maskedModule, std::shared_ptr<const Module> pearsonModule,
          std::shared_ptr<const Module> blasModule, std::uint64_t s)
      : engine(e),
        refs(r),
        sat(std::move(satModule)),
        masked(std::move(maskedModule)),
        pearson(std::move(pearsonModule)),
        blas(std::move(blasModule)),
        seed(s) {}

  rt::Engine& engine;
  rt::RawModule& refs;  // reference_kernels.cu
  std::shared_ptr<const Module> sat, masked, pearson, blas;
  // pearson and blas translated with TranslateOptions::reassociate.
  std::shared_ptr<const Module> pearsonReassociated, blasReassociated;
  // reduction_kernels.hpp (its kernels reassociate by their own annotation).
  std::shared_ptr<const Module> reductions;
  std::shared_ptr<const Module> stencil;       // stencil_kernels.hpp
  std::shared_ptr<const Module> columns;       // column_cells.hpp
  std::shared_ptr<const Module> convolutions;  // conv_kernels.hpp
  std::uint64_t seed = 1;
  TimingConfig timing;
  std::FILE* log = stdout;  // one detail line per timing and check
};

// Device-to-device copy through ref_copy: the bandwidth ceiling (GB/s, bytes read + written).
Row benchCopy(Context& c, std::int64_t bytes);
Row benchSat(Context& c, std::int64_t pairs);
Row benchMaskedBroadcast(Context& c, int rows, int cols);
Row benchPearsonClamp(Context& c, std::int64_t n);
// RowSum, RowSumSq, GramDot, CorrelationCell, DistanceCell at n x n, plus the two pipelines.
std::vector<Row> benchPearson(Context& c, int n);
// GemmCell, SyrkCell (n x n x n) and MatVecRow (n x n) from blas_cells.hpp.
std::vector<Row> benchBlas(Context& c, int n);
// BatchedGemmCell over nb x (m x nk) x (nk x n) (torch.bmm) and DoitgenCell over nr x nq x np,
// ns terms (A nr x nq x ns, C4 ns x np), from blas_cells.hpp: the batched tiled contraction.
struct BatchedSizes {
  int bmm[4] = {128, 512, 1024, 2048};    // nb, m, nk, n
  int doitgen[4] = {256, 256, 256, 256};  // nr, nq, ns, np
};
std::vector<Row> benchBatched(Context& c, BatchedSizes sizes);
// MatMulCell and MatMulBtCell (B transposed) over m x k x n as KernelBench's matmul shapes
// (torch.matmul), and MatMulCell over a shape of partial tiles, from blas_cells.hpp.
struct MatMulSizes {
  int large[3] = {2048, 8192, 4096};    // m, k, n: A m x k, B k x n (or n x k)
  int partial[3] = {4000, 4000, 4000};  // not a multiple of the tiles
};
std::vector<Row> benchMatMul(Context& c, MatMulSizes sizes);
// Heat3D (heat-3d, heatN^3, two launches per step), Jacobi2D (jacobi-2d, jacobiN^2, the same) over
// `steps` steps and Conv3D (27 points) over convI x convJ x convK, from stencil_kernels.hpp.
std::vector<Row> benchStencils(Context& c, int heatN, int jacobiN, int steps, int convI, int convJ, int convK);

// Few long rows from reduction_kernels.hpp: a row sum and layer norm (16 x 4,194,304), a
// matrix-vector product (2048 x 1,048,576), softmax (4096 x 393,216); `quick`: small sizes.
std::vector<Row> benchReductions(Context& c, bool quick);

// ColumnSum over dim 1 of sum (d0, d1, d2) and RmsOverF + RmsNormalize over dim 1 of rms (B, F, S)
// from column_cells.hpp (column_workloads.cpp).
struct ColumnSizes {
  int sum[3] = {128, 4096, 4095};
  int rms[3] = {112, 64, 512 * 512};
};
std::vector<Row> benchColumns(Context& c, ColumnSizes sizes);

// KernelBench's conv2d from conv_kernels.hpp (conv_workloads.cpp): x n x c x h x w, k filters r x r.
struct ConvSize {
  int n = 256, c = 3, h = 224, w = 224, k = 96, r = 11, stride = 4, pad = 2;
};
std::vector<Row> benchConv(Context& c, ConvSize size);

// Helpers the workload files share.
std::vector<float> uniformFloats(std::uint64_t seed, std::size_t n, float lo, float hi);
std::vector<double> uniformDoubles(std::uint64_t seed, std::size_t n, float lo, float hi);  // floats' values
void logTimings(Context& c, const Row& row, const std::vector<Timing>& t, const std::vector<std::string>& names);
// One launch of a pipeline of several kernels, timed alone beside the whole: its name (the entry it
// takes), the launch, and the fewest bytes it must move.
struct Stage {
  std::string name;
  Launch launch;
  double bytes = 0;
};
// Times `whole` and each stage side by side and logs each stage's time and GB/s (where a pipeline
// loses its time); returns the whole's timing.
Timing timeStages(Context& c, const Row& row, const Launch& whole, const std::vector<Stage>& stages);
void logCheck(Context& c, const Row& row, const char* which, double err);
// Runs `launch` once on poisoned output, then reads the output back.
// (float and double outputs.)
template <typename T>
std::vector<T> runOnce(rt::Engine& e, rt::DeviceBuffer<T>& out, const std::function<void()>& launch);
// The entry a launch of `k` over `plan` runs and its shape: "GramDot_sym128 (symmetric tiled
// contraction), grid (528, 1, 1) x block (256, 1, 1)", or the per-thread plan.
// The entry a launch over `plan` takes and its grid (as the runtime chooses: a split-row kernel's
// row length is its loop bound's argument, `rowLength`), or "per-thread".
std::string describePlan(const rt::Kernel& k, const rt::LaunchPlan& plan,
                         std::optional<std::int64_t> rowLength = std::nullopt);
// A row of one generated kernel without a hand-written one: `out` checked at `sample` of its
// `total` elements against `want`, then `g` timed; the note gives the TFLOP/s (where row.flops
// counts them), the entry and how many `what` ("cells", "outputs") were checked.
void checkAndTime(Context& c, Row& row, const rt::Kernel& k, const rt::LaunchPlan& plan, const Launch& g,
                  const std::function<double(std::int64_t)>& want, const std::vector<std::int64_t>& sample,
                  std::int64_t total, rt::DeviceBuffer<float>& out, const std::string& what);

}  // namespace culift::bench
