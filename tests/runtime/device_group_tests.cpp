// A launch split over the engines of a device group: the same bytes as one engine's launch, for
// 1-D, 2-D (symmetric too), 3-D, element-wise and void kernels; conflicts and failures named. CPU
// engines everywhere; [gpu] groups of engines on one device, and every GPU of the host.
#include <cmath>
#include <cstring>
#include <vector>

#include "culift/runtime/split.hpp"
#include "culift/translate.hpp"
#include "gpu_support.hpp"

using namespace culift;
using namespace culift::rt;

namespace {

const char* kSource = R"(#include <culift/annotate.hpp>
CULIFT_KERNEL float RowSum(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k];
  return s;
}
CULIFT_KERNEL float Gram(const float* x, int n, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += x[i * n + k] * x[j * n + k];
  return s;
}
CULIFT_KERNEL double Blur(const double* a, int nj, int nk, int i, int j, int k) {
  return 0.5 * a[(i * nj + j) * nk + k] + 0.25 * (k > 0 ? a[(i * nj + j) * nk + k - 1] : 0.0);
}
CULIFT_UNIFORM(a) float Axpy(float x, float y, float a) { return a * x + y; }
CULIFT_KERNEL void Scale(float* y, float a, int i) { y[i] = y[i] * a; }
CULIFT_KERNEL void Count(const int* bin, int* counts, int i) { counts[bin[i]] += 1; }
CULIFT_KERNEL int Checked(const int* x, int n, int i) { return x[i * n]; }
CULIFT_KERNEL float Twice(const float* s, int i) { return 2.0f * s[i]; }
CULIFT_KERNEL float Neighbor(const float* s, int i) { return s[i > 0 ? i - 1 : 0]; }
CULIFT_KERNEL float Shift(const float* m, int cols, int i, int j) { return m[j + cols * i] + 1.0f; }
CULIFT_KERNEL float Plane(const float* a, const float* b, int i, int j) { return a[i] * b[j]; }
CULIFT_KERNEL float Gather(const float* s, const int* at, int i) { return s[at[i]]; }
CULIFT_KERNEL float Halves(const float* s, int i) { return s[i / 2] + s[i >> 1] + s[(i % 3) + 10]; }
CULIFT_KERNEL float ByStep(const float* s, int step, int i) { return s[i / step]; }
CULIFT_KERNEL float Smooth(const float* m, int rows, int cols, int i, int j) {
  const int c = i * cols + j;
  if (i == 0 || i == rows - 1 || j == 0 || j == cols - 1) return m[c];
  float s = 0.0f;
  for (int d = -1; d <= 1; ++d) s += m[c + d * cols] + m[c + d];
  return s / 6.0f;
}
CULIFT_KERNEL float Window(const float* x, int cols, int w, int i) {
  float s = 0.0f;
  for (int k = w - 1; k >= 0; --k) s += x[(i + 1) * cols - 1 - k];
  return s;
}
)";

std::shared_ptr<const Module> groupModule() {
  TranslateOptions options;
  options.compilerArgs = {"-I" + rttest::sourceFile("include")};
  TranslateResult r = translateSource(kSource, "group_kernels.cpp", options);
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  return r.module;
}

template <typename T> std::vector<T> values(std::size_t n, double scale) {
  std::vector<T> v(n);
  for (std::size_t k = 0; k < n; ++k) v[k] = static_cast<T>(std::sin(static_cast<double>(k) * 0.37) * scale);
  return v;
}

template <typename T> bool sameBytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Every kernel of the module launched by `group` and by its first engine alone: the same bytes.
void checkGroup(const DeviceGroup& group) {
  const auto module = groupModule();
  Engine& one = group.engine(0);
  DeviceGroup single({std::shared_ptr<Engine>(std::shared_ptr<Engine>{}, &one)});
  auto both = [&](const char* kernel, const LaunchPlan& plan, auto& out, std::vector<GroupArg> args,
                  std::size_t outArg) {
    auto mine = out;
    args[outArg] = GroupArg::array(out);
    const GroupLaunch split = group.launch(module, kernel, plan, args);
    args[outArg] = GroupArg::array(mine);
    single.launch(module, kernel, plan, args);
    INFO(kernel << " over " << group.size() << " engines");
    CHECK(split.parts.size() == group.size());
    CHECK(sameBytes(out, mine));
  };
  // 1-D rows, ragged: 1001 rows of 37.
  const std::vector<float> x = values<float>(1001 * 37, 3.0);
  std::vector<float> sums(1001, -1.0f);
  both("RowSum", LaunchPlanner::for1D(1001), sums, {GroupArg::array(x), GroupArg::of(37), {}}, 2);
  CHECK(sums[1000] != -1.0f);
  // 2-D symmetric (its mirrored tiles on one engine, its plain tiles' parts on several): 130 x 130 of 20.
  const std::vector<float> g = values<float>(130 * 20, 1.0);
  std::vector<float> gram(130 * 130, -1.0f);
  both("Gram", LaunchPlanner::for2D(130, 130), gram, {GroupArg::array(g), GroupArg::of(20), {}}, 2);
  // 3-D: 5 x 7 x 9.
  const std::vector<double> a = values<double>(5 * 7 * 9, 2.0);
  std::vector<double> blur(5 * 7 * 9, -1.0);
  both("Blur", LaunchPlanner::for3D(5, 7, 9), blur, {GroupArg::array(a), GroupArg::of(7), GroupArg::of(9), {}}, 3);
  // Element-wise: 3001 elements.
  const std::vector<float> ex = values<float>(3001, 1.0), ey = values<float>(3001, 5.0);
  std::vector<float> axpy(3001, -1.0f);
  both("Axpy", LaunchPlanner::for1D(3001), axpy, {GroupArg::array(ex), GroupArg::array(ey), GroupArg::of(1.5f), {}}, 3);
  // A void kernel: each part changes its elements of y.
  std::vector<float> y = values<float>(2049, 4.0), y1 = y;
  group.launch(module, "Scale", LaunchPlanner::for1D(2049), std::vector{GroupArg::array(y), GroupArg::of(0.5f)});
  single.launch(module, "Scale", LaunchPlanner::for1D(2049), std::vector{GroupArg::array(y1), GroupArg::of(0.5f)});
  CHECK(sameBytes(y, y1));
  CHECK(y[2048] == values<float>(2049, 4.0)[2048] * 0.5f);

  // Arrays kept on the engines: `out` left sharded by the parts' rows, gathered on demand; a
  // sharded array read by the next launch replicated first; a void kernel's writes gathered and
  // written to every engine. The same bytes as the host arrays' launches above.
  GroupArray rx(group, x), rsums(group, Scalar::F32, 1001);
  const GroupLaunch rows = group.launch(module, "RowSum", LaunchPlanner::for1D(1001),
                                        std::vector{GroupArrayArg::of(rx), GroupArrayArg::of(37),
                                                    GroupArrayArg::of(rsums)});
  CHECK(rsums.replicated() == (group.size() == 1));
  if (!rsums.replicated()) {
    REQUIRE(rsums.shards().size() == group.size());
    std::size_t next = 0;
    for (std::size_t d = 0; d < group.size(); ++d) {
      CHECK(rsums.shards()[d].engine == d);
      CHECK(rsums.shards()[d].first == next);
      CHECK(rsums.shards()[d].first == static_cast<std::size_t>(rows.parts[d].first));
      next += rsums.shards()[d].count;
    }
    CHECK(next == 1001);
  }
  CHECK(sameBytes(rsums.read<float>(), sums));
  // Axpy reads each element's own sum: the sharded sums are sliced (each engine already holds its
  // part's), then replicated on demand.
  const std::vector<float> ey1001(ey.begin(), ey.begin() + 1001);
  GroupArray ry(group, ey1001), raxpy(group, Scalar::F32, 1001);
  CHECK_THROWS_AS(ry.write(ey.data(), ey.size()), ArgumentError);  // a count other than the array's
  group.launch(module, "Axpy", LaunchPlanner::for1D(1001),
               std::vector{GroupArrayArg::of(rsums), GroupArrayArg::of(ry), GroupArrayArg::of(1.5f),
                           GroupArrayArg::of(raxpy)});
  CHECK(rsums.replicated() == (group.size() == 1));
  rsums.replicate();
  CHECK(rsums.replicated());
  for (std::size_t d = 0; d < group.size(); ++d) {
    std::vector<float> copy(1001);
    rsums.on(d).readBytes(copy.data(), copy.size() * sizeof(float), 0);
    CHECK(sameBytes(copy, sums));
  }
  std::vector<float> axpyOne(1001, -1.0f);
  single.launch(module, "Axpy", LaunchPlanner::for1D(1001),
                std::vector{GroupArg::array(sums), GroupArg::array(ey1001), GroupArg::of(1.5f),
                            GroupArg::array(axpyOne)});
  CHECK(sameBytes(raxpy.read<float>(), axpyOne));
  // A void kernel's array: each engine's copy holds every part's writes afterwards.
  GroupArray ry2(group, values<float>(2049, 4.0));
  group.launch(module, "Scale", LaunchPlanner::for1D(2049),
               std::vector{GroupArrayArg::of(ry2), GroupArrayArg::of(0.5f)});
  CHECK(ry2.replicated());
  for (std::size_t d = 0; d < group.size(); ++d) {
    std::vector<float> copy(2049);
    ry2.on(d).readBytes(copy.data(), copy.size() * sizeof(float), 0);
    CHECK(sameBytes(copy, y1));
  }
}

}  // namespace

TEST_CASE("a launch split over a group of CPU engines gives one engine's bytes", "[cpu][group]") {
  for (std::size_t engines : {1u, 2u, 3u}) {
    std::vector<std::shared_ptr<Engine>> list;
    for (std::size_t e = 0; e < engines; ++e) list.push_back(Engine::createCpu());
    checkGroup(DeviceGroup(list));
  }
}

TEST_CASE("a group names conflicts, failures and bad plans", "[cpu][group]") {
  const auto module = groupModule();
  DeviceGroup group({Engine::createCpu(), Engine::createCpu()});
  // Two parts counting into the same elements: refused, naming the array and the element.
  const std::vector<int> bins = {0, 1, 0, 1, 0, 1, 0, 1};
  std::vector<int> counts(2, 0);
  CHECK_THROWS_WITH(group.launch(module, "Count", LaunchPlanner::for1D(8),
                                 std::vector{GroupArg::array(bins), GroupArg::array(counts)}),
                    Catch::Contains("both wrote element 0 of 'counts'"));
  // A part that fails names its engine.
  const std::vector<int> x(10, 1);
  std::vector<int> out(10, 0);
  CHECK_THROWS_WITH(group.launch(module, "Checked", LaunchPlanner::for1D(10),
                                 std::vector{GroupArg::array(x), GroupArg::of(2), GroupArg::array(out)}),
                    Catch::Contains("failed on engine 1 of 2"));
  // A plan that is already a part, and no engines.
  LaunchPlan part = LaunchPlanner::for1D(10);
  part.partFirst = 2;
  const std::vector<int> ok(10, 0);
  CHECK_THROWS_AS(group.launch(module, "Checked", part,
                               std::vector{GroupArg::array(ok), GroupArg::of(0), GroupArg::array(out)}),
                  ArgumentError);
  CHECK_THROWS_AS(DeviceGroup({}), ArgumentError);
}

TEST_CASE("a launch over a group's arrays refuses arrays of another group and wrong element types", "[cpu][group]") {
  const auto module = groupModule();
  const DeviceGroup two({Engine::createCpu(), Engine::createCpu()}), other({Engine::createCpu(), Engine::createCpu()});
  const std::vector<float> x(40, 1.0f);
  GroupArray mine(two, x), theirs(other, x), out(two, Scalar::F32, 4);
  CHECK_THROWS_AS(two.launch(module, "RowSum", LaunchPlanner::for1D(4),
                             std::vector{GroupArrayArg::of(theirs), GroupArrayArg::of(10), GroupArrayArg::of(out)}),
                  ArgumentError);
  const DeviceGroup one({Engine::createCpu()});
  GroupArray small(one, x);
  CHECK_THROWS_AS(two.launch(module, "RowSum", LaunchPlanner::for1D(4),
                             std::vector{GroupArrayArg::of(small), GroupArrayArg::of(10), GroupArrayArg::of(out)}),
                  ArgumentError);
  CHECK_THROWS_AS(mine.read<double>(), ArgumentError);
  CHECK_THROWS_AS(GroupArray(two, Scalar::Void, 3), ArgumentError);
  // A conflict on a group's array is named as on host arrays.
  GroupArray bins(two, std::vector<int>{0, 1, 0, 1}), counts(two, std::vector<int>{0, 0});
  CHECK_THROWS_WITH(two.launch(module, "Count", LaunchPlanner::for1D(4),
                               std::vector{GroupArrayArg::of(bins), GroupArrayArg::of(counts)}),
                    Catch::Contains("both wrote element"));
  two.launch(module, "RowSum", LaunchPlanner::for1D(4),
             std::vector{GroupArrayArg::of(mine), GroupArrayArg::of(10), GroupArrayArg::of(out)});
  CHECK(out.read<float>() == std::vector<float>(4, 10.0f));
}

TEST_CASE("a symmetric launch's bands of the triangle start at tiles and hold equal work", "[cpu][group]") {
  for (const auto& [n, tile, parts] :
       {std::tuple{16384ll, 128ll, 2ll}, std::tuple{16384ll, 128ll, 8ll}, std::tuple{1000ll, 64ll, 3ll},
        std::tuple{130ll, 128ll, 2ll}, std::tuple{100ll, 64ll, 5ll}}) {
    INFO(n << " rows, tiles of " << tile << ", " << parts << " bands");
    const std::int64_t rows = (n + tile - 1) / tile, total = rows * (rows + 1) / 2;
    std::int64_t next = 0;
    for (std::int64_t d = 0; d < parts; ++d) {
      const auto [first, last] = triangleBand(n, tile, d, parts);
      CHECK(first == next);
      CHECK((first % tile == 0 || first == n));
      CHECK((last % tile == 0 || last == n));
      next = last;
      // Its tiles: tile rows [first / tile, ceil(last / tile)); within a row of tiles of the even share.
      const std::int64_t b0 = first / tile, b1 = (last + tile - 1) / tile;
      const std::int64_t tiles = b1 * (b1 + 1) / 2 - b0 * (b0 + 1) / 2;
      if (rows >= 4 * parts) CHECK(std::abs(static_cast<double>(tiles) - static_cast<double>(total) / parts) <= rows);
    }
    CHECK(next == n);
  }
  // More bands than tile rows: the rest are empty.
  CHECK(triangleBand(100, 64, 4, 5).first == triangleBand(100, 64, 4, 5).second);
  // Which engine holds each output of a mirrored launch: (i, j) from the band of i where j is
  // before that band's end, else from the band holding j; every output once.
  const std::int64_t n = 10;
  GroupLaunch bands;
  bands.mirrored = true;
  bands.parts = {{0, 0, 4 * n}, {1, 4 * n, 4 * n}, {2, 4 * n, 7 * n}, {3, 7 * n, 10 * n}};
  const std::int64_t ends[] = {4, 4, 7, 10};
  auto bandOf = [&](std::int64_t r) { return r < 4 ? 0 : r < 7 ? 2 : 3; };
  std::vector<int> holder(n * n, -1);
  for (const GroupArray::Shard& s : outputShards(bands, LaunchPlanner::for2D(n, n), 1))
    for (std::size_t e = s.first; e < s.first + s.count; ++e) {
      CHECK(holder[e] == -1);
      holder[e] = static_cast<int>(s.engine);
    }
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      INFO("output (" << i << ", " << j << ")");
      CHECK(holder[i * n + j] == (j < ends[bandOf(i)] ? bandOf(i) : bandOf(j)));
    }
}

TEST_CASE("a sharded array a launch reads in bounds of its rows is sliced, not replicated", "[cpu][group]") {
  const auto module = groupModule();
  const DeviceGroup group({Engine::createCpu(), Engine::createCpu(), Engine::createCpu()});
  // 1-D: sums sharded by rows; Twice reads s[i]: each engine gets its own rows (they are already
  // there), and the array stays sharded.
  const std::vector<float> x = values<float>(101 * 7, 2.0);
  GroupArray rx(group, x), sums(group, Scalar::F32, 101), twice(group, Scalar::F32, 101);
  group.launch(module, "RowSum", LaunchPlanner::for1D(101),
               std::vector{GroupArrayArg::of(rx), GroupArrayArg::of(7), GroupArrayArg::of(sums)});
  REQUIRE_FALSE(sums.replicated());
  group.launch(module, "Twice", LaunchPlanner::for1D(101),
               std::vector{GroupArrayArg::of(sums), GroupArrayArg::of(twice)});
  CHECK_FALSE(sums.replicated());
  const std::vector<float> s = sums.read<float>(), t = twice.read<float>();
  for (std::size_t k = 0; k < s.size(); ++k) CHECK(t[k] == 2.0f * s[k]);
  // A read at another output's index (s[i > 0 ? i - 1 : 0]): the part's bounds take in the row
  // before it (and, both arms of the conditional counted, element 0); still sharded.
  GroupArray neighbor(group, Scalar::F32, 101);
  group.launch(module, "Neighbor", LaunchPlanner::for1D(101),
               std::vector{GroupArrayArg::of(twice), GroupArrayArg::of(neighbor)});
  CHECK_FALSE(twice.replicated());
  const std::vector<float> nb = neighbor.read<float>();
  CHECK(nb[0] == t[0]);
  for (std::size_t k = 1; k < nb.size(); ++k) CHECK(nb[k] == t[k - 1]);
  // Quotients, right shifts and remainders by constants (s[i / 2], s[i >> 1], s[i % 3 + 10]) over
  // 202 outputs: bounded, sliced; so is a quotient by a scalar argument (its value the launch's).
  GroupArray halves(group, Scalar::F32, 202);
  group.launch(module, "Halves", LaunchPlanner::for1D(202),
               std::vector{GroupArrayArg::of(twice), GroupArrayArg::of(halves)});
  CHECK_FALSE(twice.replicated());
  const std::vector<float> hv = halves.read<float>();
  for (std::size_t k = 0; k < hv.size(); ++k) CHECK(hv[k] == t[k / 2] + t[k >> 1] + t[k % 3 + 10]);
  GroupArray stepped(group, Scalar::F32, 202);
  group.launch(module, "ByStep", LaunchPlanner::for1D(202),
               std::vector{GroupArrayArg::of(twice), GroupArrayArg::of(2), GroupArrayArg::of(stepped)});
  CHECK_FALSE(twice.replicated());
  const std::vector<float> st = stepped.read<float>();
  for (std::size_t k = 0; k < st.size(); ++k) CHECK(st[k] == t[k / 2]);
  // A read at an index loaded from memory (s[at[i]]) has no bounds: replicated first; `at` is read
  // at the part's own rows, sliced.
  std::vector<int> order(101);
  for (int k = 0; k < 101; ++k) order[static_cast<std::size_t>(k)] = (k * 37) % 101;
  GroupArray at(group, Scalar::I32, 101), gathered(group, Scalar::F32, 101);
  at.write(order.data(), order.size());
  GroupArray orderOut(group, Scalar::F32, 101);
  group.launch(module, "Twice", LaunchPlanner::for1D(101),
               std::vector{GroupArrayArg::of(sums), GroupArrayArg::of(orderOut)});
  REQUIRE_FALSE(orderOut.replicated());
  group.launch(module, "Gather", LaunchPlanner::for1D(101),
               std::vector{GroupArrayArg::of(orderOut), GroupArrayArg::of(at), GroupArrayArg::of(gathered)});
  CHECK(orderOut.replicated());
  const std::vector<float> ga = gathered.read<float>();
  for (std::size_t k = 0; k < ga.size(); ++k) CHECK(ga[k] == t[static_cast<std::size_t>(order[k])]);
  // 2-D: m[j + cols * i] with cols the launch's columns is its own output; with other columns
  // (9 for a launch of 8) the part's rows of 9, sliced too.
  GroupArray a(group, values<float>(13, 1.0)), b(group, values<float>(9, 3.0)), plane(group, Scalar::F32, 13 * 9);
  group.launch(module, "Plane", LaunchPlanner::for2D(13, 9),
               std::vector{GroupArrayArg::of(a), GroupArrayArg::of(b), GroupArrayArg::of(plane)});
  REQUIRE_FALSE(plane.replicated());
  const std::vector<float> p = plane.read<float>();
  GroupArray shifted(group, Scalar::F32, 13 * 9);
  group.launch(module, "Shift", LaunchPlanner::for2D(13, 9),
               std::vector{GroupArrayArg::of(plane), GroupArrayArg::of(9), GroupArrayArg::of(shifted)});
  CHECK_FALSE(plane.replicated());
  const std::vector<float> sh = shifted.read<float>();
  for (std::size_t k = 0; k < sh.size(); ++k) CHECK(sh[k] == p[k] + 1.0f);
  GroupArray narrow(group, Scalar::F32, 13 * 8);
  group.launch(module, "Shift", LaunchPlanner::for2D(13, 8),
               std::vector{GroupArrayArg::of(plane), GroupArrayArg::of(9), GroupArrayArg::of(narrow)});
  CHECK_FALSE(plane.replicated());
  const std::vector<float> nr = narrow.read<float>();
  for (std::size_t r = 0; r < 13; ++r)
    for (std::size_t c = 0; c < 8; ++c) CHECK(nr[r * 8 + c] == p[r * 9 + c] + 1.0f);
  // A loop over a row's elements (RowSum over the plane's rows of 9): the part's rows.
  GroupArray rowSums(group, Scalar::F32, 13);
  group.launch(module, "RowSum", LaunchPlanner::for1D(13),
               std::vector{GroupArrayArg::of(plane), GroupArrayArg::of(9), GroupArrayArg::of(rowSums)});
  CHECK_FALSE(plane.replicated());
  const std::vector<float> rs = rowSums.read<float>();
  for (std::size_t r = 0; r < 13; ++r) {
    float want = 0.0f;
    for (std::size_t c = 0; c < 9; ++c) want += p[r * 9 + c];
    CHECK(rs[r] == want);
  }
  // Element-wise: the per-element inputs are the element's own.
  GroupArray ey(group, values<float>(101, 5.0)), axpy(group, Scalar::F32, 101);
  group.launch(module, "Axpy", LaunchPlanner::for1D(101),
               std::vector{GroupArrayArg::of(sums), GroupArrayArg::of(ey), GroupArrayArg::of(0.5f),
                           GroupArrayArg::of(axpy)});
  CHECK_FALSE(sums.replicated());
  const std::vector<float> ax = axpy.read<float>(), yv = values<float>(101, 5.0);
  for (std::size_t k = 0; k < ax.size(); ++k) CHECK(ax[k] == 0.5f * s[k] + yv[k]);
}

TEST_CASE("an iterated stencil over a group exchanges its halo rows only, one engine's bytes", "[cpu][group]") {
  const auto module = groupModule();
  const int rows = 61, cols = 23, steps = 5;
  for (std::size_t engines : {2u, 3u}) {
    INFO(engines << " engines");
    std::vector<std::shared_ptr<Engine>> list;
    for (std::size_t d = 0; d < engines; ++d) list.push_back(Engine::createCpu());
    const DeviceGroup group(list), single({list[0]});
    const std::vector<float> start = values<float>(static_cast<std::size_t>(rows) * cols, 1.0);
    // Ping-pong between two arrays of each group; the first step's input replicated (written by
    // the host), every later one sharded by the step before: each part takes its rows and one row
    // on either side.
    auto run = [&](const DeviceGroup& g) {
      GroupArray u(g, start), v(g, Scalar::F32, start.size());
      for (int step = 0; step < steps; ++step) {
        GroupArray& from = step % 2 ? v : u;
        GroupArray& to = step % 2 ? u : v;
        g.launch(module, "Smooth", LaunchPlanner::for2D(rows, cols),
                 std::vector{GroupArrayArg::of(from), GroupArrayArg::of(rows), GroupArrayArg::of(cols),
                             GroupArrayArg::of(to)});
        if (g.size() > 1) {
          if (step > 0) CHECK_FALSE(from.replicated());
          CHECK_FALSE(to.replicated());
        }
      }
      return (steps % 2 ? v : u).read<float>();
    };
    const std::vector<float> split = run(group), whole = run(single);
    CHECK(sameBytes(split, whole));
    CHECK(split != start);
  }
  // A loop that counts down (k from w - 1 to 0): its counter's bounds, the part's rows.
  const DeviceGroup group({Engine::createCpu(), Engine::createCpu()});
  GroupArray rx(group, values<float>(40 * 6, 1.0)), once(group, Scalar::F32, 40 * 6), windows(group, Scalar::F32, 40);
  group.launch(module, "Twice", LaunchPlanner::for1D(240), std::vector{GroupArrayArg::of(rx), GroupArrayArg::of(once)});
  REQUIRE_FALSE(once.replicated());
  group.launch(module, "Window", LaunchPlanner::for1D(40),
               std::vector{GroupArrayArg::of(once), GroupArrayArg::of(6), GroupArrayArg::of(3),
                           GroupArrayArg::of(windows)});
  CHECK_FALSE(once.replicated());
  const std::vector<float> o = once.read<float>(), w = windows.read<float>();
  for (std::size_t r = 0; r < 40; ++r) CHECK(w[r] == o[r * 6 + 3] + o[r * 6 + 4] + o[r * 6 + 5]);
  // The same count over a window wider than a row (w = 9 of rows of 6): the rows before the part's,
  // still bounded (the first row's reads before the array clipped at its start).
  GroupArray wide(group, Scalar::F32, 40);
  group.launch(module, "Window", LaunchPlanner::for1D(40),
               std::vector{GroupArrayArg::of(once), GroupArrayArg::of(6), GroupArrayArg::of(6),
                           GroupArrayArg::of(wide)});
  const std::vector<float> wd = wide.read<float>();
  for (std::size_t r = 0; r < 40; ++r) {
    float want = 0.0f;
    for (int k = 5; k >= 0; --k) want += o[(r + 1) * 6 - 1 - static_cast<std::size_t>(k)];
    CHECK(wd[r] == want);
  }
}

TEST_CASE("a buffer copies from another engine's buffer, ranges checked", "[cpu][group]") {
  auto a = Engine::createCpu(), b = Engine::createCpu();
  const std::vector<int> values = {1, 2, 3, 4, 5, 6};
  DeviceBuffer<int> from(*a, values), to(*b, std::vector<int>(6, 0));
  to.copyFrom(from, 3 * sizeof(int), 2 * sizeof(int), 1 * sizeof(int));
  CHECK(to.read() == std::vector<int>{0, 3, 4, 5, 0, 0});
  CHECK_THROWS_AS(to.copyFrom(from, 5 * sizeof(int), 2 * sizeof(int), 0), Error);
  CHECK_THROWS_AS(to.copyFrom(from, 2 * sizeof(int), 0, 5 * sizeof(int)), Error);
  to.copyFrom(from, 0, 6 * sizeof(int), 6 * sizeof(int));  // nothing, at the ends
  CHECK(to.read() == std::vector<int>{0, 3, 4, 5, 0, 0});
}

TEST_CASE("a launch's parts are whole rows, balanced", "[cpu][group]") {
  const LaunchPlan plan = LaunchPlanner::for2D(10, 7);
  std::int64_t end = 0;
  for (std::int64_t p = 0; p < 3; ++p) {
    const auto [first, last] = rowPart(plan, p, 3);
    CHECK(first == end);
    CHECK(first % 7 == 0);
    CHECK((last - first) / 7 >= 3);
    end = last;
  }
  CHECK(end == 70);
  CHECK(balancedPart(10, 2, 3) == std::pair<std::int64_t, std::int64_t>{6, 10});
}

TEST_CASE("groups that each run their share of a wider split give one engine's bytes", "[cpu][group]") {
  // What the ranks of an MPI job do (culift/mpi.hpp): a split of 5 parts over a group of 2 and a
  // group of 3 engines, each gathering only its parts' outputs into its own arrays.
  const auto module = groupModule();
  auto cpus = [](std::size_t n) {
    std::vector<std::shared_ptr<Engine>> engines;
    for (std::size_t e = 0; e < n; ++e) engines.push_back(Engine::createCpu());
    return DeviceGroup(std::move(engines));
  };
  const DeviceGroup two = cpus(2), three = cpus(3), single = cpus(1);
  const LaunchPlan plan = LaunchPlanner::for2D(101, 13);
  const GroupLaunch split = splitLayout(plan, 5, 0);
  REQUIRE(split.parts.size() == 5);
  CHECK_FALSE(split.mirrored);
  const std::vector<float> a = values<float>(101, 2.0), b = values<float>(13, 3.0);
  std::vector<float> whole(101 * 13, -1.0f), first(101 * 13, -1.0f), second(101 * 13, -1.0f);
  single.launch(module, "Plane", plan, std::vector{GroupArg::array(a), GroupArg::array(b), GroupArg::array(whole)});
  const GroupLaunch mine = two.launch(module, "Plane", plan,
                                      std::vector{GroupArg::array(a), GroupArg::array(b), GroupArg::array(first)},
                                      split, 0);
  three.launch(module, "Plane", plan, std::vector{GroupArg::array(a), GroupArg::array(b), GroupArg::array(second)},
               split, 2);
  REQUIRE(mine.parts.size() == 2);
  CHECK(mine.parts[1].engine == 1);
  CHECK(mine.parts[1].last == split.parts[1].last);
  // Each group wrote its parts' outputs only; together they are the whole launch's.
  const auto end = static_cast<std::size_t>(split.parts[1].last);
  std::vector<float> merged(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(end));
  merged.insert(merged.end(), second.begin() + static_cast<std::ptrdiff_t>(end), second.end());
  CHECK(sameBytes(merged, whole));
  CHECK(first[end] == -1.0f);
  CHECK(second[end - 1] == -1.0f);
  // A void kernel: each group changes its parts' elements of y only.
  std::vector<float> y = values<float>(2049, 4.0), y1 = y;
  const GroupLaunch rows = splitLayout(LaunchPlanner::for1D(2049), 5, 0);
  three.launch(module, "Scale", LaunchPlanner::for1D(2049), std::vector{GroupArg::array(y), GroupArg::of(0.5f)}, rows,
               2);
  const auto from = static_cast<std::size_t>(rows.parts[2].first);
  CHECK(y[from - 1] == y1[from - 1]);
  CHECK(y[from] == y1[from] * 0.5f);
  CHECK(y[2048] == y1[2048] * 0.5f);
  // A split without the group's parts.
  CHECK_THROWS_AS(three.launch(module, "Scale", LaunchPlanner::for1D(2049),
                               std::vector{GroupArg::array(y), GroupArg::of(0.5f)}, rows, 3),
                  ArgumentError);
}

TEST_CASE("a launch split over two engines of one GPU gives one engine's bytes", "[gpu][group]") {
  auto first = rttest::gpuOrSkip();
  if (!first) return;
  {
    // A symmetric kernel over GPU engines: bands of its triangle, mirrored, from each engine.
    const auto module = groupModule();
    EngineOptions strict;
    strict.math = MathMode::Strict;
    const DeviceGroup three = DeviceGroup::gpus(strict, {0, 0, 0});
    for (std::int64_t n : {130, 1000, 2049}) {
      INFO("Gram " << n << " x " << n);
      const std::vector<float> g = values<float>(static_cast<std::size_t>(n) * 20, 1.0);
      std::vector<float> split(static_cast<std::size_t>(n * n), -1.0f), whole = split;
      const GroupLaunch r = three.launch(module, "Gram", LaunchPlanner::for2D(n, n),
                                         std::vector{GroupArg::array(g), GroupArg::of(20), GroupArg::array(split)});
      CHECK(r.mirrored);
      DeviceGroup({std::shared_ptr<Engine>(std::shared_ptr<Engine>{}, &three.engine(0))})
          .launch(module, "Gram", LaunchPlanner::for2D(n, n),
                  std::vector{GroupArg::array(g), GroupArg::of(20), GroupArg::array(whole)});
      CHECK(sameBytes(split, whole));
      // Kept on the engines: the shards gathered give the same bytes.
      GroupArray rg(three, g), rout(three, Scalar::F32, static_cast<std::size_t>(n * n));
      three.launch(module, "Gram", LaunchPlanner::for2D(n, n),
                   std::vector{GroupArrayArg::of(rg), GroupArrayArg::of(20), GroupArrayArg::of(rout)});
      CHECK(rout.shards().size() > 3);
      CHECK(sameBytes(rout.read<float>(), whole));
    }
  }
  checkGroup(DeviceGroup({first, rttest::gpuOrSkip()}));
  // Three engines, the second and third on the GPU beside a CPU engine.
  checkGroup(DeviceGroup({first, Engine::createCpu(), rttest::gpuOrSkip()}));
}

TEST_CASE("a launch split over every GPU of the host gives one GPU's bytes", "[gpu][group]") {
  if (!rttest::gpuOrSkip()) return;
  // Strict math: a part's entry (or part wrapper) and the whole launch's entries then give the same
  // bits (under default math each entry may fuse multiplies and adds its own way).
  EngineOptions strict;
  strict.math = MathMode::Strict;
  const DeviceGroup all = DeviceGroup::gpus(strict);
  WARN("a group of " << all.size() << " GPUs");
  checkGroup(all);
}
