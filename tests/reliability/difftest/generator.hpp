// The random program generator: deterministic from a seed, free of undefined behaviour by
// construction (see gen_ast.hpp for how each risky construct is guarded).
#pragma once

#include <cstdint>
#include <iterator>

#include "gen_ast.hpp"
#include "program.hpp"

namespace culift::rel {

// A small deterministic generator (xoshiro256**), the same sequence on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next();
  std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }
  std::int64_t range(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
  }
  bool chance(unsigned percent) { return below(100) < percent; }
  template <typename C> auto& pick(C& c) { return c[below(std::size(c))]; }

 private:
  std::uint64_t s_[4];
};

struct GenOptions {
  bool exactMathOnly = false;   // only math functions the GPU computes exactly (GPU leg)
  unsigned argSets = 3;         // argument sets per program
  unsigned maxStatements = 14;  // statements per function body (roughly)
  bool checksum = true;         // GProgram::checksum: every value folded into what is compared
};

// What a stream of generated programs holds: how many programs have each feature.
struct GenStats {
  unsigned programs = 0;
  unsigned modes[4] = {};  // element-wise, 1-D, 2-D, 3-D kernels
  unsigned voidKernels = 0, loops = 0, arrays = 0, switches = 0, math = 0, helpers = 0, contractions = 0, stencils = 0,
           scans = 0, convolutions = 0, guardedLogical = 0, templates = 0, ifConstexpr = 0, references = 0,
           rangeFor = 0, lambdas = 0, lambdaTemplates = 0;
  // Value structs: programs with a struct variable; with an array of structs (a local one or a
  // kernel's `const S*` / `S*` parameter); with a kernel's array-of-structs parameter.
  unsigned structs = 0, structArrays = 0, kernelStructArrays = 0;
  void add(const GProgram& program);
  std::string summary() const;  // "modes 0/1/2/3 14%/36%/...; loops 71%; ..."
};

struct Generated {
  GProgram tree;
  ProgramSpec spec;  // functions printed from `tree`
};

// Program number `index` of the stream `seed` (names prefixed "p<index>_").
Generated generateProgram(std::uint64_t seed, unsigned index, const GenOptions& options = {});

// Argument sets for a kernel's parameters: boundary values (MIN, MIN+1, -1, 0, 1, MAX, NaN,
// ±Inf, denormals, ±0) and random bits; index parameters within the launch extent.
std::vector<ArgSet> generateArgSets(const std::vector<ParamSpec>& params, std::uint64_t seed, unsigned count);

// Extent per axis the GPU leg launches, and the bound index parameters stay under.
inline constexpr unsigned kAxisExtent[4][3] = {{64, 1, 1}, {64, 1, 1}, {8, 8, 1}, {4, 4, 4}};

// Re-prints `tree` into `spec.functions` (after the reducer edits the tree).
void refreshSpec(const GProgram& tree, ProgramSpec& spec);

}  // namespace culift::rel
