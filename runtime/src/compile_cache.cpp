// The compile cache's files: "CULIFTC1", header and image sizes, the key components as text,
// the image, then a SHA-256 over all of the above.
#include "culift/runtime/cache.hpp"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <utility>

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

namespace culift::rt {
namespace {

constexpr char kMagic[8] = {'C', 'U', 'L', 'I', 'F', 'T', 'C', '1'};
constexpr std::size_t kPrefixBytes = 8 + 4 + 8;  // magic, header size, image size
constexpr std::size_t kChecksumBytes = 32;
constexpr const char* kExtension = ".culift-image";

std::string sha256Hex(llvm::StringRef data) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(data));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string headerText(const CacheKey& key) {
  std::string h;
  for (const auto& [name, value] : key.components()) h += name + "=" + value + "\n";
  return h;
}

// Parses "name=value" lines; false when the text is not a header of this format.
bool parseHeader(llvm::StringRef text, CacheKey& key) {
  std::size_t seen = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    auto [name, value] = line.split('=');
    if (name == "source") key.sourceHash = value.str();
    else if (name == "options") key.options = value.str();
    else if (name == "target") key.target = value.str();
    else if (name == "nvrtc") key.nvrtcVersion = value.str();
    else if (name == "translator") key.translatorVersion = value.str();
    else return false;
    ++seen;
  }
  return seen == 5;
}

template <typename T> T readLittleEndian(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::vector<std::string> differingComponents(const CacheKey& want, const CacheKey& have) {
  std::vector<std::string> out;
  auto w = want.components(), h = have.components();
  for (std::size_t c = 0; c < w.size(); ++c)
    if (w[c].second != h[c].second) out.push_back(w[c].first);
  return out;
}

}  // namespace

CacheKey CacheKey::make(const std::string& source, const std::vector<std::string>& options, const std::string& target,
                        const std::string& nvrtcVersion, const std::string& translatorVersion) {
  CacheKey k;
  k.sourceHash = sha256Hex(source);
  for (const auto& o : options) k.options += (k.options.empty() ? "" : " ") + o;
  k.target = target;
  k.nvrtcVersion = nvrtcVersion;
  k.translatorVersion = translatorVersion;
  return k;
}

std::vector<std::pair<std::string, std::string>> CacheKey::components() const {
  return {{"source", sourceHash},
          {"options", options},
          {"target", target},
          {"nvrtc", nvrtcVersion},
          {"translator", translatorVersion}};
}

std::string CacheKey::digest() const { return sha256Hex(headerText(*this)); }

std::string_view name(MissReason r) {
  switch (r) {
    case MissReason::Hit: return "hit";
    case MissReason::NoEntry: return "no entry";
    case MissReason::KeyDiffers: return "key differs";
    case MissReason::Corrupt: return "corrupt";
    case MissReason::DiskDisabled: return "disk disabled";
  }
  return "?";
}

std::string CompileCache::defaultDirectory() {
  if (const char* d = std::getenv("CULIFT_CACHE_DIR"); d && *d) return d;
  llvm::SmallString<256> path;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    path = x;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    path = home;
    llvm::sys::path::append(path, ".cache");
  } else {
    return {};
  }
  llvm::sys::path::append(path, "culift");
  return std::string(path);
}

CompileCache::CompileCache(Options options)
    : directory_(options.directory.empty() ? defaultDirectory() : options.directory),
      disk_(options.disk),
      warn_(std::move(options.warn)) {
  if (!warn_) warn_ = [](const std::string& m) { llvm::errs() << "culift: warning: " << m << "\n"; };
  if (!disk_) return;
  std::lock_guard lock(mutex_);
  if (directory_.empty()) {
    warnLocked(
        "no cache directory (neither $CULIFT_CACHE_DIR, $XDG_CACHE_HOME nor $HOME is set): "
        "compiled kernels are cached in memory only");
    disk_ = false;
  } else if (std::error_code ec = llvm::sys::fs::create_directories(directory_)) {
    warnLocked("cannot create the compile cache directory '" + directory_ + "' (" + ec.message() +
               "): compiled kernels are cached in memory only; set $CULIFT_CACHE_DIR to a writable directory");
    disk_ = false;
  }
}

void CompileCache::warnLocked(const std::string& message) {
  warnings_.push_back(message);
  warn_(message);
}

bool CompileCache::diskEnabled() const {
  std::lock_guard lock(mutex_);
  return disk_;
}

CacheStats CompileCache::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

std::vector<std::string> CompileCache::warnings() const {
  std::lock_guard lock(mutex_);
  return warnings_;
}

MissExplanation CompileCache::lastMiss() const {
  std::lock_guard lock(mutex_);
  return lastMiss_;
}

std::string CompileCache::pathFor(const CacheKey& key) const {
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, key.digest() + kExtension);
  return std::string(path);
}

CompileCache::FileState CompileCache::readFile(const std::string& path, const CacheKey& key, std::vector<char>* image,
                                               std::string* why) const {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!buffer) {
    if (buffer.getError() == std::errc::no_such_file_or_directory) return FileState::Missing;
    *why = "cannot read " + path + ": " + buffer.getError().message();
    return FileState::Corrupt;
  }
  llvm::StringRef data = (*buffer)->getBuffer();
  if (data.size() < kPrefixBytes + kChecksumBytes) {
    *why = path + " is truncated (" + std::to_string(data.size()) + " bytes)";
    return FileState::Corrupt;
  }
  if (std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) {
    *why = path + " is not a culift cache file (bad magic)";
    return FileState::Corrupt;
  }
  const auto headerBytes = readLittleEndian<std::uint32_t>(data.data() + 8);
  const auto imageBytes = readLittleEndian<std::uint64_t>(data.data() + 12);
  const std::uint64_t expected = kPrefixBytes + std::uint64_t{headerBytes} + imageBytes + kChecksumBytes;
  if (imageBytes > data.size() || expected != data.size()) {
    *why = path + " is truncated or damaged (" + std::to_string(data.size()) + " bytes, the header says " +
           std::to_string(expected) + ")";
    return FileState::Corrupt;
  }
  llvm::StringRef body = data.take_front(data.size() - kChecksumBytes);
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(body));
  if (std::memcmp(digest.data(), data.data() + body.size(), kChecksumBytes) != 0) {
    *why = path + " fails its checksum (damaged)";
    return FileState::Corrupt;
  }
  CacheKey stored;
  if (!parseHeader(data.substr(kPrefixBytes, headerBytes), stored)) {
    *why = path + " has an unreadable header";
    return FileState::Corrupt;
  }
  if (!(stored == key)) {
    auto diff = differingComponents(key, stored);
    *why = path + " holds another key (differs in:";
    for (const auto& d : diff) *why += " " + d;
    *why += ")";
    return FileState::KeyMismatch;
  }
  if (image) {
    llvm::StringRef bytes = data.substr(kPrefixBytes + headerBytes, imageBytes);
    image->assign(bytes.begin(), bytes.end());
  }
  return FileState::Sound;
}

bool CompileCache::writeFile(const CacheKey& key, const std::vector<char>& image, std::string* why) const {
  const std::string header = headerText(key);
  std::string file(kMagic, sizeof kMagic);
  const auto headerBytes = static_cast<std::uint32_t>(header.size());
  const auto imageBytes = static_cast<std::uint64_t>(image.size());
  file.append(reinterpret_cast<const char*>(&headerBytes), sizeof headerBytes);
  file.append(reinterpret_cast<const char*>(&imageBytes), sizeof imageBytes);
  file += header;
  file.append(image.begin(), image.end());
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(file));
  file.append(reinterpret_cast<const char*>(digest.data()), digest.size());

  // A unique temporary name in the same directory, then an atomic rename over the entry.
  const std::string target = pathFor(key);
  int fd = -1;
  llvm::SmallString<256> temp;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(target + ".tmp-%%%%%%%%", fd, temp)) {
    *why = "cannot create a file in '" + directory_ + "': " + ec.message();
    return false;
  }
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(file.data(), file.size());
    os.close();
    if (os.has_error()) {
      *why = "cannot write '" + std::string(temp) + "': " + os.error().message();
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return false;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, target)) {
    *why = "cannot rename '" + std::string(temp) + "' to '" + target + "': " + ec.message();
    llvm::sys::fs::remove(temp);
    return false;
  }
  return true;
}

std::shared_ptr<const std::vector<char>> CompileCache::find(const CacheKey& key) {
  const std::string digest = key.digest();
  std::lock_guard lock(mutex_);
  if (auto it = memory_.find(digest); it != memory_.end()) {
    ++stats_.memoryHits;
    return it->second;
  }
  if (disk_) {
    std::vector<char> image;
    std::string why;
    const std::string path = pathFor(key);
    switch (readFile(path, key, &image, &why)) {
      case FileState::Sound: {
        ++stats_.diskHits;
        auto shared = std::make_shared<const std::vector<char>>(std::move(image));
        memory_[digest] = shared;
        return shared;
      }
      case FileState::Corrupt:
        // Never load it; delete it so the rebuilt image replaces it.
        llvm::sys::fs::remove(path);
        ++stats_.discarded;
        ++stats_.misses;
        lastMiss_ = {MissReason::Corrupt, why + "; deleted, to be rebuilt", {}};
        return nullptr;
      case FileState::KeyMismatch:
        ++stats_.misses;
        lastMiss_ = {MissReason::KeyDiffers, why, {}};
        return nullptr;
      case FileState::Missing: break;
    }
  }
  ++stats_.misses;
  lastMiss_ = explainLocked(key);
  return nullptr;
}

std::shared_ptr<const std::vector<char>> CompileCache::store(const CacheKey& key, std::vector<char> image) {
  auto shared = std::make_shared<const std::vector<char>>(std::move(image));
  std::lock_guard lock(mutex_);
  memory_[key.digest()] = shared;
  ++stats_.stores;
  if (disk_) {
    std::string why;
    if (!writeFile(key, *shared, &why)) {
      ++stats_.writeFailures;
      disk_ = false;
      warnLocked("the compile cache cannot write to '" + directory_ + "' (" + why +
                 "): compiled kernels are cached in memory only from now on; set $CULIFT_CACHE_DIR to a writable "
                 "directory");
    }
  }
  return shared;
}

MissExplanation CompileCache::explain(const CacheKey& key) const {
  std::lock_guard lock(mutex_);
  return explainLocked(key);
}

MissExplanation CompileCache::explainLocked(const CacheKey& key) const {
  if (memory_.count(key.digest())) return {MissReason::Hit, "in memory", {}};
  if (!disk_) return {MissReason::DiskDisabled, "not in memory, and the disk cache is off", {}};
  std::string why;
  const std::string path = pathFor(key);
  switch (readFile(path, key, nullptr, &why)) {
    case FileState::Sound: return {MissReason::Hit, path, {}};
    case FileState::Corrupt: return {MissReason::Corrupt, why, {}};
    case FileState::KeyMismatch: return {MissReason::KeyDiffers, why, {}};
    case FileState::Missing: break;
  }
  // No file for this key: is there one for the same source under another key? Then say which
  // components differ (the closest entry wins).
  std::vector<std::string> best;
  bool found = false;
  std::error_code ec;
  for (llvm::sys::fs::directory_iterator it(directory_, ec), end; !ec && it != end; it.increment(ec)) {
    if (!llvm::StringRef(it->path()).endswith(kExtension)) continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path(), false, false);
    if (!buffer || (*buffer)->getBufferSize() < kPrefixBytes) continue;
    llvm::StringRef data = (*buffer)->getBuffer();
    if (std::memcmp(data.data(), kMagic, sizeof kMagic) != 0) continue;
    const auto headerBytes = readLittleEndian<std::uint32_t>(data.data() + 8);
    CacheKey other;
    if (kPrefixBytes + headerBytes > data.size() || !parseHeader(data.substr(kPrefixBytes, headerBytes), other))
      continue;
    if (other.sourceHash != key.sourceHash) continue;
    auto diff = differingComponents(key, other);
    if (!found || diff.size() < best.size()) best = diff;
    found = true;
  }
  if (!found) return {MissReason::NoEntry, "no cached image for this source in '" + directory_ + "'", {}};
  std::string detail = "this source is cached under another key; differs in:";
  for (const auto& c : best) detail += " " + c;
  return {MissReason::KeyDiffers, detail, best};
}

}  // namespace culift::rt
