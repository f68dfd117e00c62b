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

#include "culift/runtime/arguments.hpp"
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
  MPI_Comm host = MPI_COMM_NULL;  // the ranks of this host
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host) == MPI_SUCCESS &&
      host != MPI_COMM_NULL) {
    MPI_Comm_rank(host, &localRank_);
    MPI_Comm_size(host, &localSize_);
    MPI_Comm_free(&host);
  }
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

namespace {

// An array the launch writes, in this rank's host memory.
struct Written {
  const KernelParam* param;
  std::uint8_t* data;
  std::size_t elementBytes;
  std::size_t count;
  std::vector<std::uint8_t> before;  // a void kernel's array before the launch
};

// A void kernel's array: the runs of elements each rank changed, applied in rank order. An element
// that two ranks changed is a conflict, even to the same value: two ranks that each counted half of
// an accumulation into it can hold equal halves.
std::uint64_t gatherChanged(const Session& session, const std::string& name, Written& w) {
  std::uint64_t received = 0;
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
    if (root != session.rank()) received += runCount * sizeof(Run) + valueBytes;
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
  return received;
}

}  // namespace

namespace detail {

std::uint64_t gatherOutputs(const Session& s, std::uint8_t* data, std::size_t count, std::size_t elementBytes,
                            std::size_t perOutput, const rt::GroupLaunch& split, const rt::LaunchPlan& plan,
                            std::span<const std::size_t> rankOfPart) {
  const std::size_t width = elementBytes;
  const std::vector<rt::GroupArray::Shard> shards = rt::outputShards(split, plan, perOutput);
  const auto ranks = static_cast<std::size_t>(s.size());
  const auto self = static_cast<std::size_t>(s.rank());
  std::uint64_t received = 0;
  for (const rt::GroupArray::Shard& sh : shards) {
    if (sh.engine >= rankOfPart.size() || rankOfPart[sh.engine] >= ranks)
      throw rt::ArgumentError("a gather of outputs: part " + std::to_string(sh.engine) + " has no rank");
    if (sh.first + sh.count > count) throw rt::ArgumentError("a gather of outputs: a part beyond the array");
    if (rankOfPart[sh.engine] != self) received += sh.count * width;
  }
  // Where every rank's outputs are one range, in rank order (parts of rows), they are gathered in
  // place; otherwise (the bands of a triangle and their mirror) each rank sends its runs, one after
  // another, and every rank puts the others' in place.
  std::vector<std::uint64_t> start(ranks + 1, 0);
  bool inPlace = true;
  std::size_t next = 0;  // the next rank whose range may start
  std::uint64_t end = 0;
  for (const rt::GroupArray::Shard& sh : shards) {
    const std::size_t rank = rankOfPart[sh.engine];
    if (rank + 1 < next || sh.first * width != end) inPlace = false;
    for (; next <= rank; ++next) start[next] = sh.first * width;
    end = (sh.first + sh.count) * width;
  }
  for (; next <= ranks; ++next) start[next] = end;
  if (inPlace && end == count * width) {
    gatherInPlace(s, data, start);
    return received;
  }
  std::vector<std::uint8_t> mine;
  for (const rt::GroupArray::Shard& sh : shards)
    if (rankOfPart[sh.engine] == self)
      mine.insert(mine.end(), data + sh.first * width, data + (sh.first + sh.count) * width);
  const Gathered all = allGather(s, mine);
  std::vector<std::uint64_t> at(all.start.begin(), all.start.end() - 1);
  for (const rt::GroupArray::Shard& sh : shards) {
    const std::size_t rank = rankOfPart[sh.engine];
    const std::size_t bytes = sh.count * width;
    if (at[rank] + bytes > all.start[rank + 1])
      throw rt::Error("a gather of outputs: rank " + std::to_string(rank) + " sent fewer outputs than its parts hold");
    if (rank != self) std::memcpy(data + sh.first * width, all.bytes.data() + at[rank], bytes);
    at[rank] += bytes;
  }
  return received;
}

}  // namespace detail

SplitLaunch launchSplit(const Session& session, const rt::DeviceGroup& group,
                        const std::shared_ptr<const Module>& module, std::string_view kernel,
                        const rt::LaunchPlan& plan, std::span<const rt::GroupArg> args) {
  SplitLaunch r;
  r.ranks = session.size();
  r.rank = session.rank();
  r.ownParts = group.size();
  if (session.size() == 1) {
    r.parts = group.launch(module, kernel, plan, args);
    return r;
  }
  const std::string name(kernel);
  // Every rank takes each step, and learns whether any failed before the next collective call.
  std::string failure;
  bool failed = false;
  auto attempt = [&](auto step) {
    if (!failed) {
      try {
        step();
      } catch (const std::exception& e) {
        failure = e.what();
        failed = true;
      }
    }
  };
  std::int64_t tile = 0;
  const Function* fn = nullptr;  // the module's, which the caller keeps
  attempt([&] {
    if (!plan.whole()) throw rt::ArgumentError(name + ": a launch split over ranks takes a whole plan, not a part");
    fn = &group.engine(0).kernel(module, kernel).function();
    tile = group.mirroredTile(*fn, plan);
  });
  agreeOnFailure(session, name, failed ? &failure : nullptr);

  // The parts: every rank's engines in rank order; bands of the triangle where every rank's can.
  const auto ranks = static_cast<std::size_t>(session.size());
  std::vector<std::uint64_t> engines(ranks);
  const std::uint64_t own = group.size();
  collective("MPI_Allgather",
             [&] { return MPI_Allgather(&own, 1, MPI_UINT64_T, engines.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD); });
  long long tiles[2] = {tile, -tile}, agreed[2] = {0, 0};  // the least and the greatest tile
  collective("MPI_Allreduce", [&] { return MPI_Allreduce(tiles, agreed, 2, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD); });
  const bool mirrored = agreed[0] > 0 && agreed[0] == -agreed[1];
  std::vector<std::size_t> rankOfPart;
  for (std::size_t k = 0; k < ranks; ++k) {
    if (k == static_cast<std::size_t>(session.rank())) r.firstPart = rankOfPart.size();
    rankOfPart.insert(rankOfPart.end(), engines[k], k);
  }
  r.parts = rt::splitLayout(plan, rankOfPart.size(), mirrored ? agreed[0] : 0);

  // The arrays the launch writes, in this rank's host memory; a void kernel's as they were before.
  std::vector<Written> written;
  attempt([&] {
    const std::vector<const KernelParam*> params = rt::argumentParams(*fn);
    for (std::size_t k = 0; k < params.size() && k < args.size(); ++k) {
      const KernelParam& p = *params[k];
      const rt::GroupArg& a = args[k];
      if (!a.isArray || !a.output) continue;
      if (p.role != ParamRole::WritableArray && p.role != ParamRole::ResultArray) continue;
      Written w{&p, static_cast<std::uint8_t*>(a.output), byteSize(a.element), a.count, {}};
      if (p.role == ParamRole::WritableArray) {
        if (a.input && a.input != a.output) std::memcpy(w.data, a.input, w.count * w.elementBytes);
        w.before.assign(w.data, w.data + w.count * w.elementBytes);
      }
      written.push_back(std::move(w));
    }
    group.launch(module, kernel, plan, args, r.parts, r.firstPart);
  });
  agreeOnFailure(session, name, failed ? &failure : nullptr);

  for (Written& w : written) {
    if (w.param->role == ParamRole::ResultArray)
      r.receivedBytes += detail::gatherOutputs(session, w.data, w.count, w.elementBytes,
                                               w.param->record ? w.param->record->elements() : 1, r.parts, plan,
                                               rankOfPart);
    else r.receivedBytes += gatherChanged(session, name, w);
  }
  return r;
}

SplitLaunch launchSplit(const Session& session, const rt::Kernel& kernel, const rt::LaunchPlan& plan,
                        std::span<const rt::LaunchArg> args) {
  rt::Engine& engine = kernel.engine();
  // Every rank checks what every other does, so that all refuse together.
  const std::vector<rt::ResolvedArg> resolved = rt::resolveLaunchArguments(kernel.function(), plan, args, &engine);
  if (session.size() > 1 && engine.backend() != rt::Backend::Cpu)
    throw rt::ArgumentError(kernel.name() + ": a launch over one engine's buffers split over " +
                            std::to_string(session.size()) + " ranks runs on the CPU backend (this engine is " +
                            std::string(rt::name(engine.backend())) +
                            "); a GPU rank launches over host arrays (launchSplit with a DeviceGroup)");
  if (session.size() == 1) {
    SplitLaunch r;
    r.parts.parts.push_back({0, 0, plan.elements()});
    kernel.launchArgs(engine, plan, args);
    engine.synchronize();
    return r;
  }
  // The engine's buffers are host memory: the group of this one engine reads and writes them.
  std::vector<rt::GroupArg> host;
  for (const rt::ResolvedArg& a : resolved) {
    if (a.param && a.param->role == ParamRole::Extent) continue;
    rt::GroupArg g;
    if (!a.isBuffer) {
      g.scalar = a.value;
    } else {
      g.isArray = true;
      g.element = a.buffer.element;
      g.count = a.buffer.count;
      g.input = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(a.buffer.address));
      if (!a.buffer.readOnly && a.param &&
          (a.param->role == ParamRole::WritableArray || a.param->role == ParamRole::ResultArray))
        g.output = reinterpret_cast<void*>(static_cast<std::uintptr_t>(a.buffer.address));
    }
    host.push_back(g);
  }
  const rt::DeviceGroup group({engine.shared_from_this()});
  return launchSplit(session, group, kernel.module(), kernel.name(), plan, host);
}

}  // namespace culift::mpi
