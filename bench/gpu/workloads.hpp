// The benchmark's rows: each lifted kernel and its hand-written counterpart on the same inputs,
// timed side by side, both checked against the header function compiled natively.
#pragma once

#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "bench_support.hpp"
#include "culift/ast/module.hpp"

namespace culift::bench {

struct Context {
  Context(rt::Engine& e, rt::RawModule& r, std::shared_ptr<const Module> satModule,
          std::shared_ptr<const Module> maskedModule, std::shared_ptr<const Module> pearsonModule, std::uint64_t s)
      : engine(e), refs(r), sat(std::move(satModule)), masked(std::move(maskedModule)),
        pearson(std::move(pearsonModule)), seed(s) {}

  rt::Engine& engine;
  rt::RawModule& refs;  // reference_kernels.cu
  std::shared_ptr<const Module> sat, masked, pearson;
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

}  // namespace culift::bench
