// The gather of a split launch's `out` over MPI ranks (culift::mpi::detail::gatherOutputs), run
// under mpirun by mpi_split_tests.sh: every rank fills only the outputs its parts wrote, as
// rt::outputShards says, and after the gather every rank holds every output. Parts of rows (one
// range per rank: gathered in place) and the bands of a symmetric kernel's triangle with their
// mirror (each rank's outputs in many runs, interleaved with the others': sent and put in place),
// which only a group of GPUs produces in a launch.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "culift/mpi.hpp"
#include "culift/runtime/device_group.hpp"
#include "culift/runtime/split.hpp"

namespace {

std::uint32_t valueOf(std::size_t element) { return static_cast<std::uint32_t>(element * 2654435761u) ^ 0x5bd1e995u; }

}  // namespace

int main() {
  culift::mpi::Session session;
  const auto ranks = static_cast<std::size_t>(session.size());
  const auto self = static_cast<std::size_t>(session.rank());
  int layouts = 0, failures = 0, mirrored = 0;
  auto check = [&](const culift::rt::LaunchPlan& plan, std::size_t perRank, std::int64_t tile, std::size_t perOutput) {
    const culift::rt::GroupLaunch split = culift::rt::splitLayout(plan, perRank * ranks, tile);
    std::vector<std::size_t> rankOfPart;
    for (std::size_t p = 0; p < split.parts.size(); ++p) rankOfPart.push_back(p / perRank);
    const std::size_t count = static_cast<std::size_t>(plan.elements()) * perOutput;
    std::vector<std::uint32_t> data(count, 0xffffffffu);
    std::uint64_t others = 0;
    for (const auto& s : culift::rt::outputShards(split, plan, perOutput))
      for (std::size_t e = s.first; e < s.first + s.count; ++e) {
        if (rankOfPart[s.engine] == self) data[e] = valueOf(e);
        else ++others;
      }
    const std::uint64_t received = culift::mpi::detail::gatherOutputs(session,
                                                                      reinterpret_cast<std::uint8_t*>(data.data()),
                                                                      count, sizeof(std::uint32_t), perOutput, split,
                                                                      plan, rankOfPart);
    ++layouts;
    mirrored += split.mirrored;
    std::size_t wrong = 0;
    for (std::size_t e = 0; e < count; ++e) wrong += data[e] != valueOf(e);
    if (wrong || received != others * sizeof(std::uint32_t)) {
      ++failures;
      std::printf(
          "FAIL rank %zu: %lld x %lld x %lld, %zu parts a rank, tile %lld, %zu per output: %zu of %zu wrong, "
          "%llu bytes received (expected %llu)\n",
          self, static_cast<long long>(plan.extent[0]), static_cast<long long>(plan.extent[1]),
          static_cast<long long>(plan.extent[2]), perRank, static_cast<long long>(tile), perOutput, wrong, count,
          static_cast<unsigned long long>(received), static_cast<unsigned long long>(others * sizeof(std::uint32_t)));
    }
  };
  for (std::int64_t n : {1, 63, 64, 300, 513})
    for (std::size_t perRank : {1, 2, 3})
      for (std::int64_t tile : {0, 32, 64})
        for (std::size_t perOutput : {1, 3}) {
          culift::rt::LaunchPlan square;
          square.rank = 2;
          square.extent[0] = square.extent[1] = n;
          check(square, perRank, tile, perOutput);
        }
  culift::rt::LaunchPlan grid;
  grid.rank = 3;
  grid.extent[0] = 7;
  grid.extent[1] = 5;
  grid.extent[2] = 3;
  for (std::size_t perRank : {1, 2, 5}) check(grid, perRank, 0, 2);
  std::printf("mpi gather: rank %zu of %zu: %d layouts (%d bands of a triangle), %d failed\n", self, ranks, layouts,
              mirrored, failures);
  return failures ? 1 : 0;
}
