// A launch split over the ranks of an MPI job (culift/mpi.hpp): each rank runs its part of the
// outputs, then the written arrays are gathered by broadcasts, one rank's part after another, in
// slices that fit MPI's int counts.
#include "culift/mpi.hpp"
#include "culift/runtime/split.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "culift/runtime/error.hpp"

namespace culift::mpi {

namespace detail {

// The watchdog of collective calls: a rank that waits longer than the session's timeout for the
// others (one stuck in a kernel, or gone) says so and ends its process, and the MPI launcher then
// ends the job, instead of every rank waiting for ever.
class Watchdog {
 public:
  explicit Watchdog(double seconds, int rank) : seconds_(seconds), rank_(rank) {
    if (seconds_ > 0) thread_ = std::thread([this] { run(); });
  }
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  void arm(const char* call) {
    if (seconds_ <= 0) return;
    std::lock_guard lock(mutex_);
    call_ = call;
    deadline_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                       std::chrono::duration<double>(seconds_));
    armed_ = true;
    wake_.notify_all();
  }
  void disarm() {
    if (seconds_ <= 0) return;
    std::lock_guard lock(mutex_);
    armed_ = false;
  }

 private:
  void run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
      if (!armed_) {
        wake_.wait(lock);
        continue;
      }
      if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ && !stop_ &&
          std::chrono::steady_clock::now() >= deadline_) {
        std::fprintf(stderr,
                     "culift: rank %d waited more than %g s in %s for the other ranks (one is stuck or gone; "
                     "$CULIFT_MPI_TIMEOUT sets the limit); ending this process\n",
                     rank_, seconds_, call_);
        std::fflush(stderr);
        std::_Exit(70);
      }
    }
  }

  const double seconds_;
  const int rank_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool armed_ = false;
  const char* call_ = "";
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace detail

namespace {

constexpr std::size_t kSlice = std::size_t{1} << 30;  // bytes per broadcast: within an int count
constexpr double kDefaultTimeoutSeconds = 3600;       // a collective call's wait, $CULIFT_MPI_TIMEOUT

void check(int status, const char* call) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw rt::Error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

detail::Watchdog* watchdog = nullptr;  // the session's, while there is one

template <typename Call> void collective(const char* name, Call call) {
  if (watchdog) watchdog->arm(name);
  const int status = call();
  if (watchdog) watchdog->disarm();
  check(status, name);
}

void broadcast(void* data, std::size_t bytes, int root) {
  auto* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < bytes; done += kSlice)
    collective("MPI_Bcast", [&] {
      return MPI_Bcast(p + done, static_cast<int>(std::min(kSlice, bytes - done)), MPI_BYTE, root, MPI_COMM_WORLD);
    });
}

std::uint64_t broadcastCount(std::uint64_t n, int root) {
  collective("MPI_Bcast", [&] { return MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD); });
  return n;
}

// Every rank learns whether any failed; the lowest failing rank's message reaches them all.
void agreeOnFailure(const Session& s, const std::string& kernel, const std::string* message) {
  int failing = message ? s.rank() : s.size();
  int lowest = s.size();
  collective("MPI_Allreduce", [&] { return MPI_Allreduce(&failing, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); });
  if (lowest == s.size()) return;
  std::string text = lowest == s.rank() ? *message : std::string();
  text.resize(broadcastCount(text.size(), lowest));
  broadcast(text.data(), text.size(), lowest);
  throw rt::Error(kernel + ": the launch failed on rank " + std::to_string(lowest) + " of " + std::to_string(s.size()) +
                  ": " + text);
}

using Run = rt::ElementRun;  // a run of elements a rank changed

// The ranks' parts of `data`, rank r's bytes [start[r], start[r + 1]), each already in place on
// its own rank, reach every rank: one MPI_Allgatherv where the whole fits an int, else one
// broadcast per rank in slices.
void gatherInPlace(const Session& s, std::uint8_t* data, const std::vector<std::uint64_t>& start) {
  const auto ranks = static_cast<std::size_t>(s.size());
  if (start[ranks] <= static_cast<std::uint64_t>(INT_MAX)) {
    std::vector<int> counts(ranks), offsets(ranks);
    for (std::size_t k = 0; k < ranks; ++k) {
      counts[k] = static_cast<int>(start[k + 1] - start[k]);
      offsets[k] = static_cast<int>(start[k]);
    }
    collective("MPI_Allgatherv", [&] {
      return MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, counts.data(), offsets.data(), MPI_BYTE,
                            MPI_COMM_WORLD);
    });
    return;
  }
  for (int root = 0; root < s.size(); ++root)
    broadcast(data + start[static_cast<std::size_t>(root)],
              start[static_cast<std::size_t>(root) + 1] - start[static_cast<std::size_t>(root)], root);
}

// Every rank's bytes, one after another in rank order, and where each rank's start: one
// MPI_Allgatherv where the total fits an int, else one broadcast per rank in slices.
struct Gathered {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint64_t> start;  // per rank, and the total at the end
};

Gathered allGather(const Session& s, const std::vector<std::uint8_t>& mine) {
  const auto ranks = static_cast<std::size_t>(s.size());
  std::vector<std::uint64_t> sizes(ranks);
  const std::uint64_t own = mine.size();
  collective("MPI_Allgather",
             [&] { return MPI_Allgather(&own, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD); });
  Gathered g;
  g.start.assign(ranks + 1, 0);
  for (std::size_t k = 0; k < ranks; ++k) g.start[k + 1] = g.start[k] + sizes[k];
  g.bytes.resize(g.start[ranks]);
  if (own) std::memcpy(g.bytes.data() + g.start[static_cast<std::size_t>(s.rank())], mine.data(), own);
  gatherInPlace(s, g.bytes.data(), g.start);
  return g;
}

std::string_view env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string_view(v) : std::string_view();
}

}  // namespace

bool launchedByMpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS", "SLURM_NTASKS"}) {
    const std::string_view v = env(name);
    if (!v.empty() && std::atoi(std::string(v).c_str()) > 1) return true;
  }
  return false;
}

Session::Session() {
  int already = 0;
  MPI_Initialized(&already);
  if (!already) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    initialized_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  double seconds = kDefaultTimeoutSeconds;
  if (const char* v = std::getenv("CULIFT_MPI_TIMEOUT"); v && *v) seconds = std::atof(v);
  watchdog_ = std::make_unique<detail::Watchdog>(seconds, rank_);
  watchdog = watchdog_.get();
}

Session::~Session() {
  watchdog = nullptr;
  watchdog_.reset();
  if (!initialized_) return;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void Session::barrier() const {
  collective("MPI_Barrier", [&] { return MPI_Barrier(MPI_COMM_WORLD); });
}

SplitLaunch launchSplit(const Session& session, const rt::Kernel& kernel, const rt::LaunchPlan& plan,
                        std::span<const rt::LaunchArg> args) {
  SplitLaunch r;
  r.ranks = session.size();
  r.rank = session.rank();
  const std::int64_t total = plan.elements();
  if (session.size() == 1) {
    r.last = total;
    kernel.launchArgs(kernel.engine(), plan, args);
    kernel.engine().synchronize();
    return r;
  }
  rt::Engine& engine = kernel.engine();
  const std::string& name = kernel.name();
  // Every rank checks what every other does, so that all refuse together.
  const std::vector<rt::ResolvedArg> resolved = rt::resolveLaunchArguments(kernel.function(), plan, args, &engine);
  if (engine.backend() != rt::Backend::Cpu)
    throw rt::ArgumentError(name + ": a launch split over " + std::to_string(session.size()) +
                            " ranks runs on the CPU backend (this engine is " +
                            std::string(rt::name(engine.backend())) + ")");
  if (!plan.whole()) throw rt::ArgumentError(name + ": a launch split over ranks takes a whole plan, not a part");

  const auto n = static_cast<std::int64_t>(session.size());
  auto partOf = [&](std::int64_t rank, std::int64_t& first, std::int64_t& last) {
    std::tie(first, last) = rt::balancedPart(total, rank, n);
  };
  partOf(r.rank, r.first, r.last);

  // The arrays the launch writes: their bytes on the CPU backend are host memory.
  struct Written {
    const KernelParam* param;
    std::uint8_t* data;
    std::size_t elementBytes;
    std::size_t count;
    std::vector<std::uint8_t> before;  // a void kernel's array before the launch
  };
  std::vector<Written> written;
  for (const rt::ResolvedArg& a : resolved) {
    if (!a.isBuffer || !a.param) continue;
    if (a.param->role != ParamRole::WritableArray && a.param->role != ParamRole::ResultArray) continue;
    Written w{
        a.param, reinterpret_cast<std::uint8_t*>(a.buffer.address), byteSize(a.buffer.element), a.buffer.count, {}};
    if (a.param->role == ParamRole::WritableArray) w.before.assign(w.data, w.data + w.count * w.elementBytes);
    written.push_back(std::move(w));
  }

  rt::LaunchPlan part = plan;
  part.partFirst = r.first;
  part.partLast = r.last;
  std::string failure;
  bool failed = false;
  try {
    kernel.launchArgs(engine, part, args);
    engine.synchronize();
  } catch (const std::exception& e) {
    failure = e.what();
    failed = true;
  }
  agreeOnFailure(session, name, failed ? &failure : nullptr);

  for (Written& w : written) {
    if (w.param->role == ParamRole::ResultArray) {
      // `out`: each rank's outputs, a contiguous range of whole records, gathered in place.
      const std::size_t perOutput = (w.param->record ? w.param->record->elements() : 1) * w.elementBytes;
      std::vector<std::uint64_t> start(static_cast<std::size_t>(session.size()) + 1);
      for (int root = 0; root <= session.size(); ++root) {
        std::int64_t first = 0, last = 0;
        partOf(root, first, last);
        start[static_cast<std::size_t>(root)] = static_cast<std::uint64_t>(first) * perOutput;
      }
      r.receivedBytes += start.back() - static_cast<std::uint64_t>(r.last - r.first) * perOutput;
      gatherInPlace(session, w.data, start);
      continue;
    }
    // A void kernel's array: the runs of elements each rank changed, applied in rank order. An
    // element that two ranks changed is a conflict, even to the same value: two ranks that each
    // counted half of an accumulation into it can hold equal halves.
    const std::vector<Run> mine = rt::changedRuns(w.data, w.before.data(), w.count, w.elementBytes);
    std::vector<std::uint8_t> mineValues;
    for (const Run& run : mine)
      mineValues.insert(mineValues.end(), w.data + run.first * w.elementBytes,
                        w.data + (run.first + run.count) * w.elementBytes);
    std::memcpy(w.data, w.before.data(), w.before.size());
    std::vector<std::uint8_t> mineRuns(mine.size() * sizeof(Run));
    if (!mine.empty()) std::memcpy(mineRuns.data(), mine.data(), mineRuns.size());
    const auto runsOf = allGather(session, mineRuns);
    const auto valuesOf = allGather(session, mineValues);
    std::vector<std::pair<Run, int>> all;  // every rank's runs, with the rank
    for (int root = 0; root < session.size(); ++root) {
      const auto k = static_cast<std::size_t>(root);
      const std::uint8_t* runBytes = runsOf.bytes.data() + runsOf.start[k];
      const std::size_t runCount = (runsOf.start[k + 1] - runsOf.start[k]) / sizeof(Run);
      const std::uint8_t* values = valuesOf.bytes.data() + valuesOf.start[k];
      const std::size_t valueBytes = valuesOf.start[k + 1] - valuesOf.start[k];
      if (root != r.rank) r.receivedBytes += runCount * sizeof(Run) + valueBytes;
      std::size_t at = 0;
      for (std::size_t n = 0; n < runCount; ++n) {
        Run run;
        std::memcpy(&run, runBytes + n * sizeof(Run), sizeof(Run));
        if (run.first > w.count || run.count > w.count - run.first || run.count * w.elementBytes > valueBytes - at)
          throw rt::Error(name + ": rank " + std::to_string(root) + " sent a run out of the array's range");
        std::memcpy(w.data + run.first * w.elementBytes, values + at, run.count * w.elementBytes);
        at += run.count * w.elementBytes;
        all.emplace_back(run, root);
      }
    }
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first.first < b.first.first; });
    for (std::size_t k = 1; k < all.size(); ++k) {
      const Run& before = all[k - 1].first;
      if (all[k].first.first < before.first + before.count)
        throw rt::Error(name + ": ranks " + std::to_string(std::min(all[k - 1].second, all[k].second)) + " and " +
                        std::to_string(std::max(all[k - 1].second, all[k].second)) + " both wrote element " +
                        std::to_string(all[k].first.first) + " of '" + w.param->name +
                        "': the kernel's writes cannot be split by outputs over ranks (an accumulation into "
                        "shared elements); launch it in one process");
    }
  }
  return r;
}

}  // namespace culift::mpi
