// What a launch split into parts needs, whether the parts run on the devices of a group
// (device_group.hpp) or on the ranks of an MPI job (culift/mpi.hpp): the balanced parts of a
// launch, and the elements of an array a part changed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "culift/runtime/plan.hpp"

namespace culift::rt {

// The outputs [first, last) of part `part` of `parts` of a launch of `total` outputs:
// total * part / parts up to total * (part + 1) / parts, without overflow.
std::pair<std::int64_t, std::int64_t> balancedPart(std::int64_t total, std::int64_t part, std::int64_t parts);

// Part `part` of `parts` in whole rows of the launch's first axis (balanced by rows): a part of a
// 2-D or 3-D launch then reads rows of its inputs as the whole launch does, and gathers as rows.
std::pair<std::int64_t, std::int64_t> rowPart(const LaunchPlan& plan, std::int64_t part, std::int64_t parts);

// Band `part` of `parts` of the rows of a square n x n launch of a symmetric kernel, as its
// mirrored tiles (tile x tile outputs, the tiles on and below the diagonal) split it: rows
// [first, last), each band starting at a tile's first row and holding about as many tiles of the
// triangle as the others (band d ends at the first tile row whose tiles up to it reach
// (d + 1) / parts of the triangle's). A band may be empty where there are more parts than tile rows.
std::pair<std::int64_t, std::int64_t> triangleBand(std::int64_t n, std::int64_t tile, std::int64_t part,
                                                   std::int64_t parts);

// A run of elements [first, first + count).
struct ElementRun {
  std::uint64_t first;
  std::uint64_t count;
};

// The runs of elements of `now` whose bytes differ from `before` (`count` elements of
// `elementBytes` each): elements of 1, 2, 4 or 8 bytes compared as integers, others byte by byte.
std::vector<ElementRun> changedRuns(const std::uint8_t* now, const std::uint8_t* before, std::size_t count,
                                    std::size_t elementBytes);

}  // namespace culift::rt
