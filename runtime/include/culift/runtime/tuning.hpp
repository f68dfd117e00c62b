// Measured entry choices: where a launch could take one of several entries of its loop plan
// that give the same bits (tiles of another size or shape, slabs of other lengths), the GPU
// backend times each once on the launch's own arguments and keeps the fastest in a table, per
// device, kept on disk beside the compile cache (docs/runtime.md#measured-entry-choices).
//
// The table is a file of JSON lines of one device, a choice a line, appended as measured; lines
// that do not parse are skipped (with a warning) and the file rewritten, and a file that cannot be
// written leaves the table in memory only: never a failed launch.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "culift/runtime/engine.hpp"
#include "culift/runtime/plan.hpp"

namespace culift::rt {

// One candidate's time, as the table keeps it beside the choice.
struct CandidateTime {
  std::string label;  // "GemmCell_tiled128 grid (32, 32, 1)"
  double ms = 0;      // the fastest of its timed launches
};

struct TunedChoice {
  std::string entry;  // the plan entry's kernel name
  Dim3 grid;          // its grid (a slab count of a 3-D stencil is its grid's z)
  std::vector<CandidateTime> times;
};

class TuningTable {
 public:
  // `path` empty: memory only. A file there is read now.
  explicit TuningTable(std::string path = {}, std::function<void(const std::string&)> warn = {});
  TuningTable(const TuningTable&) = delete;
  TuningTable& operator=(const TuningTable&) = delete;

  std::optional<TunedChoice> find(const std::string& key) const;
  // Keeps the choice and appends it to the file.
  void store(const std::string& key, TunedChoice choice);
  // Whether a launch of `key` came before in this process (this table): false the first time,
  // which it records. The keys of launches not measured yet, at most 4096 (then forgotten, which
  // delays a measurement by a launch).
  bool launchedBefore(const std::string& key);
  std::size_t size() const;
  bool onDisk() const;

  // The file of `device` under the directory `dir`: dir/tuning/<name>-sm<arch>-<SMs>.jsonl, the
  // name's characters other than letters, digits, '-' and '.' as '_'.
  static std::string fileFor(const std::string& dir, const DeviceInfo& device);

 private:
  void load();
  bool directory();  // the file's directory made; false (memory only, with a warning) where it cannot be
  void rewrite();    // one line a key, atomically (a temporary file renamed over it)
  void append(const std::string& line);
  void unwritable(const std::string& why);

  std::string path_;
  bool disk_;
  std::function<void(const std::string&)> warn_;
  mutable std::mutex mutex_;
  std::map<std::string, TunedChoice> choices_;
  std::set<std::string> launched_;
};

// Which of the candidates' times wins: the first (the one the runtime's rules choose) unless
// another is faster by more than `margin` of its time, then the fastest. Times of 0 or below
// (not measured) never win.
std::size_t fastestCandidate(std::span<const double> ms, double margin = 0.02);

}  // namespace culift::rt
