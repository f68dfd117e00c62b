// Shared pieces of the GPU benchmark: table rows, side-by-side timing, inputs, source lookup.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "culift/runtime/raw_module.hpp"
#include "culift/runtime/runtime.hpp"

namespace culift::bench {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One line of the table: a lifted kernel and its hand-written counterpart on the same inputs.
struct Row {
  Row(std::string kernelName, std::string sizeText) : kernel(std::move(kernelName)), size(std::move(sizeText)) {}

  std::string kernel;         // "RectTriangleOverlap (SAT)"
  std::string size;           // "16777216", "4096x4096"
  double generatedMs = kNaN;  // medians
  double handMs = kNaN;
  double bytes = 0;            // the fewest bytes one launch must move (inputs read once, output written once)
  double flops = 0;            // arithmetic the kernel must do (0: not counted)
  double generatedErr = kNaN;  // max |out - CPU reference| over the checked elements
  double handErr = kNaN;
  double tolerance = 0;           // a max error above this fails the row
  std::string torchKey;           // "<kernel> <size>" as torch_baselines.py prints it
  double torchMs = kNaN;          // PyTorch eager
  double torchCompiledMs = kNaN;  // torch.compile of the same PyTorch code (`<kernel>_compiled <size>`)
  std::string note;
  std::string error;      // set when the row could not be measured
  bool target95 = false;  // a memory-bound kernel with the >= 0.95 target
  bool passed() const;
};

struct TimingConfig {
  int warmup = 3;       // launches of each kernel before timing
  int maxSamples = 50;  // timed samples per kernel (the median is reported)
  int minSamples = 5;
  double budgetMs = 1500;  // device time per kernel (caps the samples of slow kernels)
  double batchMs = 0.5;    // a sample is a batch of back-to-back launches lasting about this long
  // Keeps the device busy for `ms` (a spinning kernel) so that the launches queued behind it
  // start back to back: host-side launch costs then stay out of the event times.
  std::function<void(double ms)> hold;
};

struct Timing {
  double medianMs = kNaN;
  double minMs = kNaN;
  double maxMs = kNaN;
  int samples = 0;
  int batch = 0;
};

// A launch of one kernel on input set `set` (inputs rotate so repeated runs do not hit in L2).
using Launch = std::function<void(int set)>;

// Times the kernels side by side: warm-up, then samples that alternate between them, each a batch
// of back-to-back launches between two events; returns per-launch times.
std::vector<Timing> timeInterleaved(rt::Engine& engine, const std::vector<Launch>& launches, int sets,
                                    const TimingConfig& config);

// How many input sets of `bytesPerSet` keep the total above `floorBytes` (several times the L2).
int setsFor(double bytesPerSet, double floorBytes = 256.0 * 1024 * 1024, int cap = 64);

// Deterministic random numbers by index (parallel fills give the same data as serial ones).
std::uint64_t mix(std::uint64_t seed, std::uint64_t index);
inline float uniform(std::uint64_t seed, std::uint64_t index, float lo, float hi) {
  const float u = static_cast<float>(mix(seed, index) >> 40) * (1.0f / 16777216.0f);  // [0, 1)
  return lo + (hi - lo) * u;
}

// Runs body(begin, end) over [0, n) on every core.
void parallelFor(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& body);

// A file of the source tree: --source-root, $CULIFT_SOURCE_ROOT, the tree this was built from, ".".
std::string sourceFile(const std::string& root, const std::string& relative);
std::string readText(const std::string& path);  // throws std::runtime_error

// max |got - want| over `indices` (all when empty); NaN or a never-written element gives +inf.
// (float and double outputs.)
template <typename T> double maxAbsError(const std::vector<T>& got, const std::function<double(std::int64_t)>& want,
                                         const std::vector<std::int64_t>& indices, std::int64_t n);

// Up to `count` distinct-ish indices spread over [0, n), starting at a random offset.
std::vector<std::int64_t> sampleIndices(std::int64_t n, std::int64_t count, std::uint64_t seed);

// A device address as a kernel parameter value.
inline std::uint64_t addr(const rt::Buffer& b) { return b.address(); }

// Poisons a float buffer (all bits set: NaN) so unwritten elements show up in the check.
void poison(rt::Buffer& b);

// Printing.
std::string formatMs(double ms);
std::string formatFixed(double v, int decimals);
void printTable(const std::vector<Row>& rows, double copyGBs, std::FILE* out);
// Reads `torch <kernel> <size> <ms>` lines; missing file: empty.
std::map<std::string, double> readTorchBaselines(const std::string& path);

}  // namespace culift::bench
