// A launch split over the processes of an MPI job (mpirun -np N): each rank runs a part of the
// launch's outputs on its own engines (a device group: a GPU, every GPU of its host, or the CPU
// backend), and what the launch wrote is gathered so that every rank ends with the whole result,
// the same bytes as one process's launch. No MPI header here: the communicator is the job's world.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "culift/runtime/device_group.hpp"
#include "culift/runtime/kernel.hpp"

namespace culift::mpi {

// Whether this process was started by an MPI launcher (mpirun, mpiexec, srun) as one of several.
bool launchedByMpi();

namespace detail {
class Watchdog;
}
class Session;

namespace detail {
// The outputs of a split launch (`count` elements of `elementBytes` bytes, `perOutput` to an
// output) from the rank whose part wrote them to every rank: part p of `split` ran on rank
// rankOfPart[p] (rt::outputShards says which outputs it wrote). Returns the bytes this rank
// received. launchSplit's gather of `out`.
std::uint64_t gatherOutputs(const Session& session, std::uint8_t* data, std::size_t count, std::size_t elementBytes,
                            std::size_t perOutput, const rt::GroupLaunch& split, const rt::LaunchPlan& plan,
                            std::span<const std::size_t> rankOfPart);
}  // namespace detail

// MPI for this process: initialized on construction unless it already is, finalized on
// destruction if this session initialized it. One per process. A rank that waits in a collective
// call longer than $CULIFT_MPI_TIMEOUT seconds (default 3600; 0: no limit) for the others says so
// on stderr and ends its process (exit status 70), and the MPI launcher ends the job.
class Session {
 public:
  Session();
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  // This rank among the ranks of its host (MPI_COMM_TYPE_SHARED), and their number: a rank with
  // one GPU of its own takes GPU localRank() % (the host's GPUs).
  int localRank() const { return localRank_; }
  int localSize() const { return localSize_; }
  // Waits until every rank has called it (before a timed launch: the ranks start at different times).
  void barrier() const;

 private:
  bool initialized_ = false;
  std::unique_ptr<detail::Watchdog> watchdog_;
  int rank_ = 0;
  int size_ = 1;
  int localRank_ = 0;
  int localSize_ = 1;
};

// What a launch split over the ranks did.
struct SplitLaunch {
  int ranks = 1;
  int rank = 0;
  // Every rank's parts, in rank order (rank r's engines d take parts first_r + d): part p's
  // `engine` is p, its outputs [first, last) in row-major order; `mirrored`: bands of a symmetric
  // kernel's triangle (rt::splitLayout, rt::outputShards).
  rt::GroupLaunch parts;
  std::size_t firstPart = 0;  // this rank's parts: [firstPart, firstPart + ownParts)
  std::size_t ownParts = 1;
  std::uint64_t receivedBytes = 0;  // what this rank received from the others
};

// Launches `kernel` of `module` over `plan`, split over the engines of every rank's `group` (a
// GPU each, every GPU of the host, CPU engines, or a mix across ranks): the parts are whole rows of
// the launch's first axis, balanced by rows over all the ranks' engines in rank order, or bands of
// equal work on a symmetric kernel's triangle where every engine of every rank is a GPU and the
// whole launch takes its mirrored tiles. Each rank's group runs its parts (through the kernel's
// plan entries where their mapping takes parts) and gathers them into the rank's host arrays, then
// what the launch wrote is gathered over the ranks: `out` by the parts' outputs, the arrays of a
// void kernel by the elements each rank changed. Every rank ends with the whole result in its
// arrays (GroupArg::output), the same bytes as one process's launch. Every rank calls it with the
// same plan and arguments of the same values. A session of one rank is the group's launch.
//
// A failure on any rank throws rt::Error on every rank, naming the rank and the kernel, so that no
// rank waits for one that failed. Two ranks that changed the same element (even to the same value)
// throw rt::Error naming the array and the element: the kernel's writes cannot be split by outputs
// (an accumulation into shared elements; make it one launch).
SplitLaunch launchSplit(const Session& session, const rt::DeviceGroup& group,
                        const std::shared_ptr<const Module>& module, std::string_view kernel,
                        const rt::LaunchPlan& plan, std::span<const rt::GroupArg> args);

// The same over one engine's buffers (`args` as Kernel::launchArgs takes them): the kernel's
// engine is this rank's group. The engine must be a CPU engine (its buffers are host memory);
// a GPU rank takes the overload above, over host arrays.
SplitLaunch launchSplit(const Session& session, const rt::Kernel& kernel, const rt::LaunchPlan& plan,
                        std::span<const rt::LaunchArg> args);

}  // namespace culift::mpi
