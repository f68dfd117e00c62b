// The benchmark's dense linear algebra rows: a GEMM cell (i, k) x (k, j), a SYRK cell
// (i, k) x (j, k) and a matrix-vector row, each lifted from blas_cells.hpp beside a hand-written
// kernel (ref_gemm, ref_gemv; SYRK has none) and the PyTorch call that does the same work
// (torch.addmm in fp32 with TF32 off, torch.mv); KernelBench's matrix multiplies (torch.matmul,
// also with B transposed, and a shape of partial tiles); and the batched contractions, batched matrix
// multiply (torch.bmm) and doitgen (torch.einsum), lifted only.
#include <functional>
#include <string>

#include "blas_cells.hpp"
#include "workloads.hpp"

namespace culift::bench {
namespace {

using rt::DeviceBuffer;
using rt::Dim3;
using rt::LaunchPlanner;

void logLine(Context& c, const std::string& text) {
  std::fprintf(c.log, "  %s\n", text.c_str());
  std::fflush(c.log);
}

}  // namespace

std::vector<Row> benchBlas(Context& c, int n) {
  if (n % 64) throw std::runtime_error("the hand-written GEMM needs n % 64 == 0");
  rt::Engine& e = c.engine;
  const std::string size = std::to_string(n);
  const std::size_t cells = static_cast<std::size_t>(n) * n;
  const std::uint64_t seed = c.seed ^ (0xb1a5 + n);
  std::vector<Row> rows;
  const std::vector<float> a = uniformFloats(seed, cells, -1, 1), b = uniformFloats(seed + 1, cells, -1, 1),
                           cIn = uniformFloats(seed + 2, cells, -1, 1), x = uniformFloats(seed + 3, n, -1, 1);
  DeviceBuffer<float> dA(e, a), dB(e, b), dC(e, cIn), dx(e, x), gen(e, cells), ref(e, cells);
  const float alpha = 1.5f, beta = -0.5f;
  int nInt = n;
  std::uint64_t pA = addr(dA), pB = addr(dB), pC = addr(dC), px = addr(dx), pRef = addr(ref);
  const auto sample = sampleIndices(static_cast<std::int64_t>(cells), 1 << 12, seed ^ 5);

  // GEMM and SYRK: 2-D over the cells of C.
  for (int syrk = 0; syrk < 2; ++syrk) {
    Row row{syrk ? "SyrkCell" : "GemmCell", size};
    row.bytes = 4.0 * 3 * static_cast<double>(cells);
    row.flops = 2.0 * n * static_cast<double>(cells);
    row.torchKey = std::string(syrk ? "syrk " : "gemm ") + size;
    row.tolerance = 1e-4 * n;
    try {
      const rt::Kernel k = e.kernel(c.blas, syrk ? "SyrkCell" : "GemmCell");
      const rt::LaunchPlan plan = LaunchPlanner::for2D(n, n, 32, 8, e.device().limits);
      Launch g = syrk ? Launch([&](int) { k.launch(e, plan, dA, dC, alpha, beta, n, n, gen); })
                      : Launch([&](int) { k.launch(e, plan, dA, dB, dC, alpha, beta, n, n, gen); });
      auto want = [&](std::int64_t idx) {
        const int i = int(idx / n), j = int(idx % n);
        return double(syrk ? SyrkCell(a.data(), cIn.data(), alpha, beta, n, n, i, j)
                           : GemmCell(a.data(), b.data(), cIn.data(), alpha, beta, n, n, i, j));
      };
      row.generatedErr = maxAbsError(runOnce(e, gen, [&] { g(0); }), want, sample, static_cast<std::int64_t>(cells));
      logCheck(c, row, "generated", row.generatedErr);
      std::vector<Launch> launches{g};
      std::vector<std::string> names{"generated " + describePlan(k, plan)};
      if (!syrk) {
        Launch h = [&](int) {
          float al = alpha, be = beta;
          void* args[] = {&pA, &pB, &pC, &al, &be, &nInt, &nInt, &pRef};
          c.refs.launch("ref_gemm", Dim3{unsigned(n / 64), unsigned(n / 64)}, Dim3{256}, 0, args);
        };
        row.handErr = maxAbsError(runOnce(e, ref, [&] { h(0); }), want, sample, static_cast<std::int64_t>(cells));
        logCheck(c, row, "ref_gemm", row.handErr);
        launches.push_back(h);
        names.push_back("ref_gemm");
      }
      const auto t = timeInterleaved(e, launches, 1, c.timing);
      row.generatedMs = t[0].medianMs;
      if (!syrk) row.handMs = t[1].medianMs;
      row.note = "TFLOP/s generated " + formatFixed(row.flops / (row.generatedMs * 1e9), 2) +
                 (syrk ? std::string() : ", hand-written " + formatFixed(row.flops / (row.handMs * 1e9), 2)) + "; " +
                 names[0].substr(10) + "; " + std::to_string(sample.size()) + " sampled cells checked";
      logTimings(c, row, t, names);
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // GEMM on tensor cores (the kernel opted into TF32): against PyTorch with TF32 allowed, within
  // the contract's bound of the exact cell (worst case |a b| = 1 per term).
  {
    Row row{"GemmCellTf32 (tensor cores, tf32)", size};
    row.bytes = 4.0 * 3 * static_cast<double>(cells);
    row.flops = 2.0 * n * static_cast<double>(cells);
    row.torchKey = "gemm_tf32 " + size;
    row.tolerance = alpha * (0x1p-10 + (n + 2) * 0x1p-22) * n + 0x1p-20 * n;
    try {
      const rt::Kernel k = e.kernel(c.blas, "GemmCellTf32");
      const rt::LaunchPlan plan = LaunchPlanner::for2D(n, n, 32, 8, e.device().limits);
      Launch g = [&](int) { k.launch(e, plan, dA, dB, dC, alpha, beta, n, n, gen); };
      auto want = [&](std::int64_t idx) {
        return double(GemmCell(a.data(), b.data(), cIn.data(), alpha, beta, n, n, int(idx / n), int(idx % n)));
      };
      checkAndTime(c, row, k, plan, g, want, sample, static_cast<std::int64_t>(cells), gen, "cells");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // syr2k: the lower triangle of alpha (A B^T + B A^T) + beta C (the upper keeps C), four staged
  // arrays. TFLOP/s as BLAS counts it: two multiply-adds per term of each cell on and below the diagonal.
  {
    Row row{"Syr2kCell", size};
    row.bytes = 4.0 * 3 * static_cast<double>(cells);
    row.flops = 4.0 * n * (static_cast<double>(n) * (n + 1) / 2);
    row.torchKey = "syr2k " + size;
    row.tolerance = 1e-4 * n;
    try {
      const rt::Kernel k = e.kernel(c.blas, "Syr2kCell");
      const rt::LaunchPlan plan = LaunchPlanner::for2D(n, n, 32, 8, e.device().limits);
      Launch g = [&](int) { k.launch(e, plan, dA, dB, dC, alpha, beta, n, n, gen); };
      auto want = [&](std::int64_t idx) {
        return double(Syr2kCell(a.data(), b.data(), cIn.data(), alpha, beta, n, n, int(idx / n), int(idx % n)));
      };
      checkAndTime(c, row, k, plan, g, want, sample, static_cast<std::int64_t>(cells), gen, "cells");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // Matrix-vector: 1-D over rows, in the loop's order and reassociated.
  for (const bool reassociated : {false, true}) {
    Row row{reassociated ? "MatVecRow (reassociating)" : "MatVecRow", size};
    row.bytes = 4.0 * static_cast<double>(cells) + 8.0 * n;
    row.torchKey = "matvec " + size;
    row.tolerance = 1e-4 * n;
    try {
      const rt::Kernel k = e.kernel(reassociated ? c.blasReassociated : c.blas, "MatVecRow");
      const rt::LaunchPlan plan = LaunchPlanner::for1D(n, 256, e.device().limits);
      Launch g = [&](int) { k.launch(e, plan, dA, dx, n, gen); };
      Launch h = [&](int) {
        void* args[] = {&pA, &px, &nInt, &nInt, &pRef};
        c.refs.launch("ref_gemv", Dim3{unsigned((n * 32 + 255) / 256)}, Dim3{256}, 0, args);
      };
      auto want = [&](std::int64_t i) { return double(MatVecRow(a.data(), x.data(), n, int(i))); };
      row.generatedErr = maxAbsError(runOnce(e, gen, [&] { g(0); }), want, {}, n);
      row.handErr = maxAbsError(runOnce(e, ref, [&] { h(0); }), want, {}, n);
      logCheck(c, row, "generated", row.generatedErr);
      logCheck(c, row, "ref_gemv", row.handErr);
      const auto t = timeInterleaved(e, {g, h}, 1, c.timing);
      row.generatedMs = t[0].medianMs;
      row.handMs = t[1].medianMs;
      row.note = describePlan(k, plan, n) + " vs one warp per row, float4 loads (ref_gemv)";
      logTimings(c, row, t, {"generated " + describePlan(k, plan, n), "ref_gemv"});
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }
  // gesummv in double: two matrices and a vector per row, in the loop's order and reassociated.
  {
    const std::vector<double> ga = uniformDoubles(seed + 4, cells, -1, 1), gb = uniformDoubles(seed + 5, cells, -1, 1),
                              gx = uniformDoubles(seed + 6, n, -1, 1);
    DeviceBuffer<double> gA(e, ga), gB(e, gb), gX(e, gx), gy(e, static_cast<std::size_t>(n));
    const double alpha = 1.5, beta = -0.75;
    for (const bool reassociated : {false, true}) {
      Row row{reassociated ? "GesummvRow (reassociating)" : "GesummvRow", size};
      row.bytes = 8.0 * 2 * static_cast<double>(cells) + 16.0 * n;
      row.torchKey = "gesummv " + size;
      row.tolerance = 1e-12 * n;
      try {
        const rt::Kernel k = e.kernel(reassociated ? c.blasReassociated : c.blas, "GesummvRow");
        const rt::LaunchPlan plan = LaunchPlanner::for1D(n, 256, e.device().limits);
        Launch g = [&](int) { k.launch(e, plan, gA, gB, gX, alpha, beta, n, gy); };
        auto want = [&](std::int64_t i) { return GesummvRow(ga.data(), gb.data(), gx.data(), alpha, beta, n, int(i)); };
        row.generatedErr = maxAbsError(runOnce(e, gy, [&] { g(0); }), want, {}, n);
        logCheck(c, row, "generated", row.generatedErr);
        const auto t = timeInterleaved(e, {g}, 1, c.timing);
        row.generatedMs = t[0].medianMs;
        row.note = describePlan(k, plan, n);
        logTimings(c, row, t, {"generated " + describePlan(k, plan, n)});
      } catch (const std::exception& ex) {
        row.error = ex.what();
      }
      rows.push_back(std::move(row));
    }
  }
  logLine(c, "BLAS rows at " + size + " done");
  return rows;
}

std::vector<Row> benchMatMul(Context& c, MatMulSizes sizes) {
  rt::Engine& e = c.engine;
  std::vector<Row> rows;
  for (const int which : {0, 1, 2}) {
    const bool bt = which == 1;
    const int* d = which == 2 ? sizes.partial : sizes.large;
    const int m = d[0], nk = d[1], n = d[2];
    const std::string size = std::to_string(m) + "x" + std::to_string(nk) + "x" + std::to_string(n);
    Row row{bt ? "MatMulBtCell (B transposed)" : "MatMulCell", size};
    const double outputs = double(m) * n;
    const std::size_t aCount = std::size_t(m) * nk, bCount = std::size_t(nk) * n;
    row.bytes = 4.0 * (double(aCount) + double(bCount) + outputs);
    row.flops = 2.0 * nk * outputs;
    row.torchKey = std::string(bt ? "matmul_bt " : "matmul ") + size;
    row.tolerance = 1e-4 * nk;
    try {
      const std::uint64_t seed = c.seed ^ (0x3a7 + which);
      const std::vector<float> a = uniformFloats(seed, aCount, -1, 1), b = uniformFloats(seed + 1, bCount, -1, 1);
      DeviceBuffer<float> dA(e, a), dB(e, b), gen(e, static_cast<std::size_t>(outputs));
      const rt::Kernel k = e.kernel(c.blas, bt ? "MatMulBtCell" : "MatMulCell");
      const rt::LaunchPlan plan = LaunchPlanner::for2D(m, n, 32, 8, e.device().limits);
      Launch g = bt ? Launch([&](int) { k.launch(e, plan, dA, dB, nk, gen); })
                    : Launch([&](int) { k.launch(e, plan, dA, dB, nk, n, gen); });
      auto want = [&](std::int64_t idx) {
        const int i = int(idx / n), j = int(idx % n);
        return double(bt ? MatMulBtCell(a.data(), b.data(), nk, i, j) : MatMulCell(a.data(), b.data(), nk, n, i, j));
      };
      const auto total = static_cast<std::int64_t>(outputs);
      const auto sample = sampleIndices(total, 1 << 12, seed ^ 5);
      checkAndTime(c, row, k, plan, g, want, sample, total, gen, "cells");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }
  logLine(c, "matrix multiplies done");
  return rows;
}

std::vector<Row> benchBatched(Context& c, BatchedSizes sizes) {
  rt::Engine& e = c.engine;
  std::vector<Row> rows;
  for (const int which : {0, 1, 2}) {
    // Batched matrix multiply: A nb x m x nk, B nb x nk x n (exact, then on tensor cores: the kernel
    // opted into TF32). doitgen: A nr x nq x ns, C4 ns x np.
    const bool doitgen = which == 2, tf32 = which == 1;
    const int* d = doitgen ? sizes.doitgen : sizes.bmm;
    const int nb = d[0], m = d[1], nk = d[2], n = d[3];
    const std::string size = std::to_string(nb) + "x" + std::to_string(m) + "x" + std::to_string(nk) + "x" +
                             std::to_string(n);
    Row row{doitgen ? "DoitgenCell" : tf32 ? "BatchedGemmCellTf32 (tensor cores, tf32)" : "BatchedGemmCell", size};
    const double outputs = double(nb) * m * n;
    const std::size_t aCount = std::size_t(nb) * m * nk,
                      bCount = doitgen ? std::size_t(nk) * n : std::size_t(nb) * nk * n;
    row.bytes = 4.0 * (double(aCount) + double(bCount) + outputs);
    row.flops = 2.0 * nk * outputs;
    row.torchKey = std::string(doitgen ? "doitgen " : tf32 ? "bmm_tf32 " : "bmm ") + size;
    // On tensor cores: the contract's bound for terms of at most 1.
    row.tolerance = tf32 ? (0x1p-10 + (nk + 2) * 0x1p-22) * nk : 1e-4 * nk;
    try {
      const std::uint64_t seed = c.seed ^ (doitgen ? 0xd017 : 0xb33);
      const std::vector<float> a = uniformFloats(seed, aCount, -1, 1), b = uniformFloats(seed + 1, bCount, -1, 1);
      DeviceBuffer<float> dA(e, a), dB(e, b), gen(e, static_cast<std::size_t>(outputs));
      const rt::Kernel k = e.kernel(c.blas, doitgen ? "DoitgenCell" : tf32 ? "BatchedGemmCellTf32" : "BatchedGemmCell");
      const rt::LaunchPlan plan = LaunchPlanner::for3D(nb, m, n, 32, 8, 1, e.device().limits);
      Launch g = doitgen ? Launch([&](int) { k.launch(e, plan, dA, dB, m, n, nk, gen); })
                         : Launch([&](int) { k.launch(e, plan, dA, dB, m, nk, n, gen); });
      auto want = [&](std::int64_t idx) {
        const int bi = int(idx / (std::int64_t(m) * n)), i = int(idx / n % m), j = int(idx % n);
        return double(doitgen ? DoitgenCell(a.data(), b.data(), m, n, nk, bi, i, j)
                              : BatchedGemmCell(a.data(), b.data(), m, nk, n, bi, i, j));
      };
      const auto total = static_cast<std::int64_t>(outputs);
      const auto sample = sampleIndices(total, 1 << 12, seed ^ 5);
      checkAndTime(c, row, k, plan, g, want, sample, total, gen, "cells");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }
  logLine(c, "batched contractions done");
  return rows;
}

}  // namespace culift::bench
