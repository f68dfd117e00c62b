#include "bench_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "llvm/Support/FileSystem.h"

namespace culift::bench {

bool Row::passed() const {
  if (!error.empty()) return false;
  auto ok = [&](double err) { return std::isnan(err) || err <= tolerance; };  // NaN: not checked
  return ok(generatedErr) && ok(handErr) && !std::isinf(generatedErr) && !std::isinf(handErr);
}

std::vector<Timing> timeInterleaved(rt::Engine& engine, const std::vector<Launch>& launches, int sets,
                                    const TimingConfig& config) {
  const int kernels = static_cast<int>(launches.size());
  sets = std::max(sets, 1);
  std::vector<int> next(kernels, 0);
  auto run = [&](int k) {
    launches[k](next[k]);
    next[k] = (next[k] + 1) % sets;
  };
  for (int w = 0; w < config.warmup; ++w)
    for (int k = 0; k < kernels; ++k) run(k);
  engine.synchronize();

  // One launch each gives the batch size and the sample count the budget allows.
  std::vector<rt::Event> marks;
  for (int k = 0; k <= kernels; ++k) marks.push_back(engine.createEvent());
  auto hold = [&](int launchCount) {
    if (config.hold) config.hold(0.5 + 0.03 * launchCount);
  };
  hold(kernels);
  marks[0].record(engine);
  for (int k = 0; k < kernels; ++k) {
    run(k);
    marks[k + 1].record(engine);
  }
  double slowest = 1e-3;
  for (int k = 0; k < kernels; ++k) slowest = std::max(slowest, double(rt::Event::elapsedMs(marks[k], marks[k + 1])));
  const int batch = std::clamp(static_cast<int>(std::ceil(config.batchMs / slowest)), 1, 64);
  const int samples = std::clamp(static_cast<int>(config.budgetMs / (slowest * batch)), config.minSamples,
                                 config.maxSamples);

  std::vector<std::vector<double>> times(kernels);
  for (int s = 0; s < samples; ++s) {
    hold(kernels * batch);
    marks[0].record(engine);
    for (int k = 0; k < kernels; ++k) {
      for (int b = 0; b < batch; ++b) run(k);
      marks[k + 1].record(engine);
    }
    for (int k = 0; k < kernels; ++k) times[k].push_back(double(rt::Event::elapsedMs(marks[k], marks[k + 1])) / batch);
  }
  std::vector<Timing> out(kernels);
  for (int k = 0; k < kernels; ++k) {
    auto& t = times[k];
    std::sort(t.begin(), t.end());
    out[k].medianMs = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
    out[k].minMs = t.front();
    out[k].maxMs = t.back();
    out[k].samples = samples;
    out[k].batch = batch;
  }
  return out;
}

int setsFor(double bytesPerSet, double floorBytes, int cap) {
  if (bytesPerSet <= 0) return 1;
  return std::clamp(static_cast<int>(std::ceil(floorBytes / bytesPerSet)), 1, cap);
}

std::uint64_t mix(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (index + 1);  // splitmix64
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void parallelFor(std::int64_t n, const std::function<void(std::int64_t, std::int64_t)>& body) {
  const std::int64_t workers = std::clamp<std::int64_t>(std::thread::hardware_concurrency(), 1, 64);
  if (n < 4096 || workers == 1) {
    body(0, n);
    return;
  }
  std::vector<std::thread> pool;
  const std::int64_t chunk = (n + workers - 1) / workers;
  for (std::int64_t w = 0; w < workers; ++w) {
    const std::int64_t b = w * chunk, e = std::min(n, b + chunk);
    if (b < e) pool.emplace_back([&body, b, e] { body(b, e); });
  }
  for (auto& t : pool) t.join();
}

std::string sourceFile(const std::string& root, const std::string& relative) {
  const char* env = std::getenv("CULIFT_SOURCE_ROOT");
  const std::string roots[] = {root, env ? env : "", CULIFT_SOURCE_DIR, "."};
  for (const std::string& r : roots) {
    if (r.empty()) continue;
    const std::string path = r + "/" + relative;
    if (llvm::sys::fs::exists(path)) return path;
  }
  throw std::runtime_error("cannot find " + relative + " (run from the repository root, or pass --source-root)");
}

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

template <typename T> double maxAbsError(const std::vector<T>& got, const std::function<double(std::int64_t)>& want,
                                         const std::vector<std::int64_t>& indices, std::int64_t n) {
  const bool all = indices.empty();
  const std::int64_t count = all ? n : static_cast<std::int64_t>(indices.size());
  std::mutex mutex;
  double result = 0;
  parallelFor(count, [&](std::int64_t b, std::int64_t e) {
    double w = 0;
    for (std::int64_t k = b; k < e; ++k) {
      const std::int64_t idx = all ? k : indices[k];
      const double err = std::fabs(static_cast<double>(got[idx]) - want(idx));
      if (!(err <= w)) w = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
    }
    std::lock_guard lock(mutex);
    result = std::max(result, w);
  });
  // Every element must have been written (the outputs were poisoned with NaN before the launch).
  if (!all) {
    for (T v : got)
      if (std::isnan(v)) return std::numeric_limits<double>::infinity();
  }
  return result;
}
template double maxAbsError(const std::vector<float>&, const std::function<double(std::int64_t)>&,
                            const std::vector<std::int64_t>&, std::int64_t);
template double maxAbsError(const std::vector<double>&, const std::function<double(std::int64_t)>&,
                            const std::vector<std::int64_t>&, std::int64_t);

std::vector<std::int64_t> sampleIndices(std::int64_t n, std::int64_t count, std::uint64_t seed) {
  std::vector<std::int64_t> out;
  if (n <= 0) return out;
  count = std::min(count, n);
  out.reserve(count);
  for (std::int64_t k = 0; k < count; ++k) out.push_back(static_cast<std::int64_t>(mix(seed, k) % std::uint64_t(n)));
  out.push_back(0);
  out.push_back(n - 1);  // the ends, where indexing bugs show first
  return out;
}

void poison(rt::Buffer& b) {
  const std::vector<unsigned char> bits(b.bytes(), 0xff);
  b.writeBytes(bits.data(), bits.size(), 0);
}

std::string formatMs(double ms) {
  if (std::isnan(ms)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, ms < 1 ? "%.4f" : ms < 100 ? "%.3f" : "%.1f", ms);
  return buf;
}

std::string formatFixed(double v, int decimals) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

namespace {
std::string formatErr(double e) {
  if (std::isnan(e)) return "-";
  if (std::isinf(e)) return "NaN/unwritten";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", e);
  return buf;
}
}  // namespace

void printTable(const std::vector<Row>& rows, double copyGBs, std::FILE* out) {
  const std::vector<std::string> head = {"kernel",   "size",       "generated ms", "hand-written ms", "hand/gen",
                                         "gen GB/s", "gen % copy", "hand % copy",  "max err gen",     "max err hand",
                                         "eager ms", "compile ms", "eager/gen",    "compile/gen",     "check"};
  std::vector<std::vector<std::string>> cells;
  for (const Row& r : rows) {
    const double genGBs = r.bytes > 0 ? r.bytes / (r.generatedMs * 1e6) : kNaN;
    const double handGBs = r.bytes > 0 ? r.bytes / (r.handMs * 1e6) : kNaN;
    std::string check = !r.error.empty() ? "ERROR" : r.passed() ? "ok" : "FAIL";
    const double ratio = r.handMs / r.generatedMs;
    if (r.target95 && r.error.empty() && !std::isnan(ratio)) check += ratio >= 0.95 ? " (>=0.95)" : " (<0.95 target)";
    cells.push_back({r.kernel, r.size, formatMs(r.generatedMs), formatMs(r.handMs), formatFixed(ratio, 3),
                     formatFixed(genGBs, 0), formatFixed(100 * genGBs / copyGBs, 1),
                     formatFixed(100 * handGBs / copyGBs, 1), formatErr(r.generatedErr), formatErr(r.handErr),
                     formatMs(r.torchMs), formatMs(r.torchCompiledMs), formatFixed(r.torchMs / r.generatedMs, 3),
                     formatFixed(r.torchCompiledMs / r.generatedMs, 3), check});
  }
  std::vector<size_t> width(head.size());
  for (size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& row : cells) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& v) {
    std::string s = "|";
    for (size_t c = 0; c < v.size(); ++c) {
      const std::string pad(width[c] - v[c].size(), ' ');
      s += " " + (c < 2 ? v[c] + pad : pad + v[c]) + " |";
    }
    std::fprintf(out, "%s\n", s.c_str());
  };
  line(head);
  std::string rule = "|";
  for (size_t c = 0; c < head.size(); ++c) rule += std::string(width[c] + 2, '-') + "|";
  std::fprintf(out, "%s\n", rule.c_str());
  for (const auto& row : cells) line(row);
  for (const Row& r : rows) {
    if (!r.error.empty()) std::fprintf(out, "  %s %s: ERROR %s\n", r.kernel.c_str(), r.size.c_str(), r.error.c_str());
    else if (!r.note.empty()) std::fprintf(out, "  %s %s: %s\n", r.kernel.c_str(), r.size.c_str(), r.note.c_str());
  }
}

std::map<std::string, double> readTorchBaselines(const std::string& path) {
  std::map<std::string, double> out;
  if (path.empty()) return out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string tag, kernel, size;
    double ms = 0;
    if (s >> tag >> kernel >> size >> ms && tag == "torch") out[kernel + " " + size] = ms;
  }
  return out;
}

}  // namespace culift::bench
