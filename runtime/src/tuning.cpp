// The table of measured entry choices: a file of JSON lines per device, one choice a line,
//   {"key": "<key>", "entry": "...", "grid": [x, y, z], "times": [["<candidate>", ms], ...]}
// appended as each is measured (one write of the whole line, so processes appending at once keep
// their lines whole); a later line of a key replaces an earlier one. Read back with more than twice
// as many lines as keys, the file is rewritten with one line a key.
#include "culift/runtime/tuning.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace culift::rt {
namespace {

// Lines beyond which a file of more than twice as many lines as keys is rewritten.
constexpr std::size_t kCompactAfter = 64;

std::string lineOf(const std::string& key, const TunedChoice& c) {
  llvm::json::Array times;
  for (const CandidateTime& t : c.times) times.push_back(llvm::json::Array{t.label, t.ms});
  llvm::json::Value line = llvm::json::Object{{"key", key},
                                              {"entry", c.entry},
                                              {"grid", llvm::json::Array{c.grid.x, c.grid.y, c.grid.z}},
                                              {"times", std::move(times)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << line << "\n";
  return os.str();
}

std::optional<TunedChoice> choiceFrom(const llvm::json::Object& o) {
  TunedChoice c;
  const std::optional<llvm::StringRef> entry = o.getString("entry");
  const llvm::json::Array* grid = o.getArray("grid");
  if (!entry || entry->empty() || !grid || grid->size() != 3) return std::nullopt;
  unsigned* dims[3] = {&c.grid.x, &c.grid.y, &c.grid.z};
  for (std::size_t d = 0; d < 3; ++d) {
    const std::optional<std::int64_t> v = (*grid)[d].getAsInteger();
    if (!v || *v < 1 || *v > 0xffffffffLL) return std::nullopt;
    *dims[d] = static_cast<unsigned>(*v);
  }
  c.entry = entry->str();
  if (const llvm::json::Array* times = o.getArray("times"))
    for (const llvm::json::Value& t : *times)
      if (const llvm::json::Array* pair = t.getAsArray(); pair && pair->size() == 2)
        if (auto label = (*pair)[0].getAsString())
          if (auto ms = (*pair)[1].getAsNumber()) c.times.push_back({label->str(), *ms});
  return c;
}

}  // namespace

TuningTable::TuningTable(std::string path, std::function<void(const std::string&)> warn)
    : path_(std::move(path)), disk_(!path_.empty()), warn_(std::move(warn)) {
  if (!warn_) warn_ = [](const std::string& m) { llvm::errs() << "culift: warning: " << m << "\n"; };
  std::lock_guard lock(mutex_);
  if (disk_) load();
}

std::string TuningTable::fileFor(const std::string& dir, const DeviceInfo& device) {
  std::string name = device.name.empty() ? std::string("device") : device.name;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '.') ch = '_';
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, "tuning",
                          name + "-sm" + std::to_string(device.arch()) + "-" + std::to_string(device.multiprocessors) +
                              ".jsonl");
  return std::string(path);
}

void TuningTable::load() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path_);
  if (!file) {
    if (file.getError() != std::errc::no_such_file_or_directory)
      warn_("cannot read the table of measured entry choices '" + path_ + "' (" + file.getError().message() +
            "): the choices are measured again");
    return;
  }
  llvm::SmallVector<llvm::StringRef, 0> lines;
  (*file)->getBuffer().split(lines, '\n', -1, /*KeepEmpty=*/false);
  std::size_t bad = 0;
  for (llvm::StringRef line : lines) {
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(line);
    const llvm::json::Object* o = parsed ? parsed->getAsObject() : nullptr;
    if (!parsed) llvm::consumeError(parsed.takeError());
    const std::optional<llvm::StringRef> key = o ? o->getString("key") : std::nullopt;
    std::optional<TunedChoice> c = key ? choiceFrom(*o) : std::nullopt;
    if (!c) {
      ++bad;
      continue;
    }
    choices_[key->str()] = std::move(*c);
  }
  if (bad)
    warn_("the table of measured entry choices '" + path_ + "' has " + std::to_string(bad) + " of " +
          std::to_string(lines.size()) + " lines that are no choice: skipped (those choices are measured again)");
  if (bad || (lines.size() > kCompactAfter && lines.size() > 2 * choices_.size())) rewrite();
}

bool TuningTable::directory() {
  const llvm::StringRef dir = llvm::sys::path::parent_path(path_);
  if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    unwritable("cannot create '" + dir.str() + "': " + ec.message());
    return false;
  }
  return true;
}

void TuningTable::rewrite() {
  std::string text;
  for (const auto& [key, c] : choices_) text += lineOf(key, c);
  if (!directory()) return;
  if (llvm::Error e = llvm::writeFileAtomically(path_ + ".tmp-%%%%%%%%", path_, text))
    unwritable(llvm::toString(std::move(e)));
}

void TuningTable::append(const std::string& line) {
  if (!directory()) return;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::openFileForWrite(path_, fd, llvm::sys::fs::CD_OpenAlways,
                                                           llvm::sys::fs::OF_Append))
    return unwritable(ec.message());
  // One write of the whole line: lines of processes appending at once do not interleave.
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true, /*unbuffered=*/true);
  os.write(line.data(), line.size());
  os.close();
  if (os.has_error()) {
    const std::string why = os.error().message();
    os.clear_error();
    unwritable(why);
  }
}

void TuningTable::unwritable(const std::string& why) {
  warn_("cannot write the table of measured entry choices '" + path_ + "' (" + why + "): it is kept in memory only");
  disk_ = false;
}

std::optional<TunedChoice> TuningTable::find(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = choices_.find(key);
  if (it == choices_.end()) return std::nullopt;
  return it->second;
}

void TuningTable::store(const std::string& key, TunedChoice choice) {
  std::lock_guard lock(mutex_);
  if (disk_) append(lineOf(key, choice));
  choices_[key] = std::move(choice);
}

bool TuningTable::launchedBefore(const std::string& key) {
  constexpr std::size_t kLaunchedKeys = 4096;
  std::lock_guard lock(mutex_);
  if (launched_.size() >= kLaunchedKeys) launched_.clear();
  return !launched_.insert(key).second;
}

std::size_t TuningTable::size() const {
  std::lock_guard lock(mutex_);
  return choices_.size();
}

bool TuningTable::onDisk() const {
  std::lock_guard lock(mutex_);
  return disk_;
}

std::size_t fastestCandidate(std::span<const double> ms, double margin) {
  std::size_t best = 0;
  for (std::size_t c = 1; c < ms.size(); ++c)
    if (ms[c] > 0 && (ms[best] <= 0 || ms[c] < ms[best])) best = c;
  if (best == 0) return 0;
  // The first stays unless the fastest beats it by the margin (timings differ by a percent or two
  // from run to run: the runtime's own choice should not flip on noise).
  return ms[0] <= 0 || ms[best] < ms[0] * (1 - margin) ? best : 0;
}

}  // namespace culift::rt
