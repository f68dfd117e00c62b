// The compile cache: compiled images on disk (shared by every process) and in memory (per
// cache object). An entry's key covers everything that changes the image: the emitted source,
// the NVRTC options, the target architecture, the NVRTC version and the translator version.
//
// A file holds a magic, the key components, the image and a SHA-256 checksum over all of it:
// a corrupt or truncated file is detected, deleted and rebuilt, never loaded. Files are
// written to a temporary name and renamed, so readers never see half a file. A directory that
// cannot be written makes the cache memory-only, with a warning; it never fails a launch.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace culift::rt {

struct CacheKey {
  std::string sourceHash;         // SHA-256 (hex) of the emitted CUDA source
  std::string options;            // NVRTC options, space-separated
  std::string target;             // "sm_90" (cubin) or "compute_90" (PTX)
  std::string nvrtcVersion;       // "13.0"
  std::string translatorVersion;  // "0.1.0"

  static CacheKey make(const std::string& source, const std::vector<std::string>& options, const std::string& target,
                       const std::string& nvrtcVersion, const std::string& translatorVersion);
  std::string digest() const;  // SHA-256 (hex) of every component: the entry's file name
  // The components as (name, value) pairs, in file order.
  std::vector<std::pair<std::string, std::string>> components() const;
  friend bool operator==(const CacheKey&, const CacheKey&) = default;
};

struct CacheStats {
  std::uint64_t memoryHits = 0;
  std::uint64_t diskHits = 0;
  std::uint64_t misses = 0;
  std::uint64_t stores = 0;
  std::uint64_t discarded = 0;  // corrupt or truncated files deleted
  std::uint64_t writeFailures = 0;
  std::uint64_t hits() const { return memoryHits + diskHits; }
};

enum class MissReason : std::uint8_t {
  Hit,           // not a miss: the entry is there and sound
  NoEntry,       // no file, and no entry for this source under other options either
  KeyDiffers,    // entries for this source exist, but a key component differs (see `components`)
  Corrupt,       // the file is there but truncated, damaged or not a cache file
  DiskDisabled,  // memory-only cache and not in memory
};
std::string_view name(MissReason r);  // "hit", "no entry", "key differs", "corrupt", "disk disabled"

struct MissExplanation {
  MissReason reason = MissReason::NoEntry;
  std::string detail;                   // one line a person can read
  std::vector<std::string> components;  // KeyDiffers: the differing components ("options", "target")
};

class CompileCache {
 public:
  struct Options {
    std::string directory;                         // empty: defaultDirectory()
    bool disk = true;                              // false: memory only
    std::function<void(const std::string&)> warn;  // default: a line on stderr
  };

  explicit CompileCache(Options options);
  CompileCache(const CompileCache&) = delete;
  CompileCache& operator=(const CompileCache&) = delete;

  // $CULIFT_CACHE_DIR, else $XDG_CACHE_HOME/culift, else $HOME/.cache/culift.
  static std::string defaultDirectory();

  // Memory, then disk. Null on a miss (counted, and explained by lastMiss()).
  std::shared_ptr<const std::vector<char>> find(const CacheKey& key);
  // Stores in memory and on disk (atomically). Disk failures warn and disable the disk.
  std::shared_ptr<const std::vector<char>> store(const CacheKey& key, std::vector<char> image);

  // Why find(key) would miss, without changing anything.
  MissExplanation explain(const CacheKey& key) const;
  MissExplanation lastMiss() const;  // the explanation recorded at the latest miss

  CacheStats stats() const;
  bool diskEnabled() const;
  const std::string& directory() const { return directory_; }
  std::string pathFor(const CacheKey& key) const;  // the entry's file
  std::vector<std::string> warnings() const;

 private:
  enum class FileState { Missing, Sound, Corrupt, KeyMismatch };
  FileState readFile(const std::string& path, const CacheKey& key, std::vector<char>* image, std::string* why) const;
  bool writeFile(const CacheKey& key, const std::vector<char>& image, std::string* why) const;
  MissExplanation explainLocked(const CacheKey& key) const;
  void warnLocked(const std::string& message);

  std::string directory_;
  bool disk_ = true;
  std::function<void(const std::string&)> warn_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const std::vector<char>>> memory_;  // by digest
  CacheStats stats_;
  MissExplanation lastMiss_;
  std::vector<std::string> warnings_;
};

}  // namespace culift::rt
