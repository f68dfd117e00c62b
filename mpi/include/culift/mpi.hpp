// A launch split over the processes of an MPI job (mpirun -np N): each rank runs a part of the
// launch's outputs on its own engine, and what the launch wrote is gathered so that every rank
// ends with the whole result, the same bytes as one process's launch. No MPI header here: the
// communicator is the job's world.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "culift/runtime/kernel.hpp"

namespace culift::mpi {

// Whether this process was started by an MPI launcher (mpirun, mpiexec, srun) as one of several.
bool launchedByMpi();

namespace detail {
class Watchdog;
}

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
  // Waits until every rank has called it (before a timed launch: the ranks start at different times).
  void barrier() const;

 private:
  bool initialized_ = false;
  std::unique_ptr<detail::Watchdog> watchdog_;
  int rank_ = 0;
  int size_ = 1;
};

struct SplitLaunch {
  int ranks = 1;
  int rank = 0;
  std::int64_t first = 0;  // this rank's outputs: [first, last)
  std::int64_t last = 0;
  std::uint64_t receivedBytes = 0;  // what this rank received from the others
};

// Launches `kernel` over `plan` with `args`, split over the session's ranks: rank r runs the
// outputs [total·r/n, total·(r+1)/n) in row-major order (LaunchPlan::partFirst / partLast),
// then every array the launch writes is gathered: `out` by the ranks' ranges, the arrays of a
// void kernel by the elements each rank changed. Every rank ends with the whole result. Every rank
// calls it with the same plan and arguments of the same values (its own buffers). A session of
// one rank launches the whole plan, as Kernel::launchArgs does.
//
// The parts run on the CPU backend; a GPU engine is refused for now (rt::ArgumentError) when
// there is more than one rank. A failure on any rank throws rt::Error on every rank, naming the
// rank and the kernel, so that no rank waits for one that failed. Two ranks that changed the same
// element (even to the same value) throw rt::Error naming the array and the element: the kernel's
// writes cannot be split by outputs (an accumulation into shared elements; make it one launch).
SplitLaunch launchSplit(const Session& session, const rt::Kernel& kernel, const rt::LaunchPlan& plan,
                        std::span<const rt::LaunchArg> args);

}  // namespace culift::mpi
