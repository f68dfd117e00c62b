#include "culift/runtime/split.hpp"

#include <algorithm>
#include <cstring>

namespace culift::rt {
namespace {

// The runs of elements e < count for which changed(e) holds.
template <typename Changed> std::vector<ElementRun> runsWhere(std::size_t count, Changed changed) {
  std::vector<ElementRun> runs;
  for (std::size_t e = 0; e < count;) {
    while (e < count && !changed(e)) ++e;
    const std::size_t first = e;
    while (e < count && changed(e)) ++e;
    if (e > first) runs.push_back({first, e - first});
  }
  return runs;
}

}  // namespace

std::pair<std::int64_t, std::int64_t> balancedPart(std::int64_t total, std::int64_t part, std::int64_t parts) {
  return {static_cast<std::int64_t>(static_cast<__int128>(total) * part / parts),
          static_cast<std::int64_t>(static_cast<__int128>(total) * (part + 1) / parts)};
}

std::pair<std::int64_t, std::int64_t> rowPart(const LaunchPlan& plan, std::int64_t part, std::int64_t parts) {
  const std::int64_t rows = plan.extent[0], total = plan.elements();
  if (rows <= 0 || total == 0) return {0, 0};
  const std::int64_t perRow = total / rows;
  const auto [first, last] = balancedPart(rows, part, parts);
  return {first * perRow, last * perRow};
}

std::pair<std::int64_t, std::int64_t> triangleBand(std::int64_t n, std::int64_t tile, std::int64_t part,
                                                   std::int64_t parts) {
  if (n <= 0 || tile <= 0 || parts <= 0) return {0, 0};
  const std::int64_t rows = (n + tile - 1) / tile;  // tile rows
  const __int128 total = static_cast<__int128>(rows) * (rows + 1) / 2;
  // The first tile row b whose tiles before it, b (b + 1) / 2, reach `share` of the triangle's.
  auto boundary = [&](std::int64_t d) {
    if (d <= 0) return std::int64_t{0};
    if (d >= parts) return rows;
    const __int128 want = total * d / parts;
    std::int64_t lo = 0, hi = rows;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (static_cast<__int128>(mid) * (mid + 1) / 2 >= want) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  return {std::min(n, boundary(part) * tile), std::min(n, boundary(part + 1) * tile)};
}

std::vector<ElementRun> changedRuns(const std::uint8_t* now, const std::uint8_t* before, std::size_t count,
                                    std::size_t elementBytes) {
  auto typed = [&]<typename T>(T) {
    return runsWhere(count, [&](std::size_t e) {
      T x, y;
      std::memcpy(&x, now + e * sizeof(T), sizeof(T));
      std::memcpy(&y, before + e * sizeof(T), sizeof(T));
      return x != y;
    });
  };
  switch (elementBytes) {
    case 1: return typed(std::uint8_t{});
    case 2: return typed(std::uint16_t{});
    case 4: return typed(std::uint32_t{});
    case 8: return typed(std::uint64_t{});
    default:
      return runsWhere(count, [&](std::size_t e) {
        return std::memcmp(now + e * elementBytes, before + e * elementBytes, elementBytes) != 0;
      });
  }
}

}  // namespace culift::rt
