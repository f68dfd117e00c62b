// Launch arguments checked against kernel signatures before anything runs: each bad argument
// kind is rejected with a message naming the kernel and the parameter. No engine needed.
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/arguments.hpp"
#include "culift/runtime/error.hpp"
#include "test_kernels.hpp"

using namespace culift;
using namespace culift::rt;

namespace {

BufferRef buffer(std::uint64_t address, Scalar element, std::size_t count, bool readOnly = false) {
  return BufferRef{nullptr, address, element, count, readOnly};
}

const Function& fn(const Module& m, const char* name) {
  const Function* f = m.find(name);
  REQUIRE(f);
  return *f;
}

std::string rejection(const Function& f, const LaunchPlan& plan, std::vector<LaunchArg> args) {
  try {
    resolveLaunchArguments(f, plan, args, nullptr);
  } catch (const ArgumentError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("a well-formed launch resolves every parameter, extents from the plan", "[arguments]") {
  auto m = rttest::makeTestModule();
  const Function& scale = fn(*m, "Scale");
  REQUIRE(launchArgumentCount(scale) == 3);  // x, a, culift_out
  auto plan = LaunchPlanner::for1D(100);
  std::vector<LaunchArg> args = {LaunchArg::of(buffer(0x1000, Scalar::F32, 100, true)), LaunchArg::of(2.5f),
                                 LaunchArg::of(buffer(0x2000, Scalar::F32, 100))};
  auto resolved = resolveLaunchArguments(scale, plan, args, nullptr);
  REQUIRE(resolved.size() == scale.signature.params.size());
  CHECK(resolved[0].isBuffer);
  CHECK(resolved[0].buffer.address == 0x1000);
  CHECK(resolved[1].value.type == Scalar::F32);
  CHECK(resolved[1].value.f == 2.5f);
  CHECK(resolved[2].param->role == ParamRole::ResultArray);
  CHECK(resolved.back().param->role == ParamRole::Extent);
  CHECK(resolved.back().value.i == 100);
}

TEST_CASE("the argument count is checked, and the message shows the launch signature", "[arguments]") {
  auto m = rttest::makeTestModule();
  std::string msg = rejection(fn(*m, "Scale"), LaunchPlanner::for1D(8),
                              {LaunchArg::of(buffer(0x1000, Scalar::F32, 8)), LaunchArg::of(2.0f)});
  CHECK(msg.find("'Scale' takes 3 launch arguments") != std::string::npos);
  CHECK(msg.find("(const float* x, float a, float* culift_out)") != std::string::npos);
  CHECK(msg.find("got 2") != std::string::npos);
}

TEST_CASE("a buffer of the wrong element type names the parameter", "[arguments]") {
  auto m = rttest::makeTestModule();
  std::string msg = rejection(fn(*m, "Scale"), LaunchPlanner::for1D(8),
                              {LaunchArg::of(buffer(0x1000, Scalar::F64, 8)), LaunchArg::of(2.0f),
                               LaunchArg::of(buffer(0x2000, Scalar::F32, 8))});
  CHECK(msg.find("argument 1 ('const float* x') expects a buffer of float, got a buffer of 8 double") !=
        std::string::npos);
}

TEST_CASE("a scalar where an array goes, and an array where a scalar goes", "[arguments]") {
  auto m = rttest::makeTestModule();
  const Function& scale = fn(*m, "Scale");
  auto plan = LaunchPlanner::for1D(8);
  CHECK(
      rejection(scale, plan, {LaunchArg::of(1.0f), LaunchArg::of(2.0f), LaunchArg::of(buffer(0x2000, Scalar::F32, 8))})
          .find("argument 1 ('const float* x') is an array: pass a DeviceBuffer<float>, got float 1f") !=
      std::string::npos);
  CHECK(rejection(scale, plan,
                  {LaunchArg::of(buffer(0x1000, Scalar::F32, 8)), LaunchArg::of(buffer(0x3000, Scalar::F32, 8)),
                   LaunchArg::of(buffer(0x2000, Scalar::F32, 8))})
            .find("argument 2 ('float a') is a scalar") != std::string::npos);
}

TEST_CASE("floating scalars must have exactly the parameter's type", "[arguments]") {
  auto m = rttest::makeTestModule();
  const Function& scale = fn(*m, "Scale");
  auto plan = LaunchPlanner::for1D(8);
  auto x = LaunchArg::of(buffer(0x1000, Scalar::F32, 8));
  auto out = LaunchArg::of(buffer(0x2000, Scalar::F32, 8));
  std::string msg = rejection(scale, plan, {x, LaunchArg::of(2.0), out});
  CHECK(msg.find("argument 2 ('float a') got double 2") != std::string::npos);
  CHECK(msg.find("pass exactly a float") != std::string::npos);
  CHECK(rejection(scale, plan, {x, LaunchArg::of(2), out}).find("got int 2") != std::string::npos);
}

TEST_CASE("integer scalars convert only when the value is kept exactly", "[arguments]") {
  auto m = rttest::makeTestModule();
  const Function& fill = fn(*m, "Fill");  // (float* y, float v), index long long
  auto plan = LaunchPlanner::for1D(4);
  // Scale's index is int: an int argument for a long long parameter is covered by a custom function.
  Function f = Function();
  f.name = "Take";
  f.mode = IndexMode::Grid1D;
  f.kernelName = "Take_kernel";
  f.signature.params = {KernelParam{"n", Type::value(Scalar::I64), ParamRole::Scalar, 0, -1},
                        KernelParam{"u", Type::value(Scalar::U32), ParamRole::Scalar, 1, -1},
                        KernelParam{"culift_n", Type::value(Scalar::I64), ParamRole::Extent, -1, 0}};
  auto ok = resolveLaunchArguments(f, plan, std::vector<LaunchArg>{LaunchArg::of(5), LaunchArg::of(7u)}, nullptr);
  CHECK(ok[0].value.type == Scalar::I64);
  CHECK(ok[0].value.i == 5);
  CHECK(rejection(f, plan, {LaunchArg::of(5), LaunchArg::of(-1)})
            .find("argument 2 ('unsigned int u') got int -1: "
                  "the value does not fit unsigned int") != std::string::npos);
  CHECK(rejection(f, plan, {LaunchArg::of(5), LaunchArg::of(std::int64_t{1} << 40)}).find("does not fit") !=
        std::string::npos);
  CHECK(rejection(fill, plan, {LaunchArg::of(buffer(0x1000, Scalar::F32, 4)), LaunchArg::of(true)})
            .find("got bool true") != std::string::npos);
}

TEST_CASE("written arrays may not be const buffers", "[arguments]") {
  auto m = rttest::makeTestModule();
  std::string msg = rejection(fn(*m, "Fill"), LaunchPlanner::for1D(4),
                              {LaunchArg::of(buffer(0x1000, Scalar::F32, 4, /*readOnly=*/true)), LaunchArg::of(1.0f)});
  CHECK(msg.find("argument 1 ('float* y') is written by the kernel, but the buffer was passed as const") !=
        std::string::npos);
}

TEST_CASE("the out array must hold one value per index", "[arguments]") {
  auto m = rttest::makeTestModule();
  const Function& outer = fn(*m, "Outer");
  auto plan = LaunchPlanner::for2D(10, 20);
  std::vector<LaunchArg> args = {LaunchArg::of(buffer(0x1000, Scalar::F64, 10, true)),
                                 LaunchArg::of(buffer(0x2000, Scalar::F64, 20, true)),
                                 LaunchArg::of(buffer(0x3000, Scalar::F64, 199))};
  std::string msg = rejection(outer, plan, args);
  CHECK(msg.find("argument 3 ('double* culift_out') receives one value per index (200") != std::string::npos);
  CHECK(msg.find("the buffer holds 199") != std::string::npos);
  args[2] = LaunchArg::of(buffer(0x3000, Scalar::F64, 200));
  CHECK(resolveLaunchArguments(outer, plan, args, nullptr).size() == 5);
}

TEST_CASE("element inputs must cover the extent", "[arguments]") {
  auto m = rttest::makeTestModule();
  std::string msg = rejection(fn(*m, "Floor0"), LaunchPlanner::for1D(50),
                              {LaunchArg::of(buffer(0x1000, Scalar::F32, 50, true)),
                               LaunchArg::of(buffer(0x2000, Scalar::F32, 49, true)),
                               LaunchArg::of(buffer(0x3000, Scalar::F32, 50))});
  CHECK(msg.find("argument 2 ('const float* lo') is read at every index (50), but the buffer holds 49") !=
        std::string::npos);
}

TEST_CASE("a plan of the wrong rank is rejected", "[arguments]") {
  auto m = rttest::makeTestModule();
  std::string msg = rejection(fn(*m, "Outer"), LaunchPlanner::for1D(10), {});
  CHECK(msg.find("'Outer' is a Grid2D kernel over 2 axes, but the launch plan has 1") != std::string::npos);
}

TEST_CASE("extents must fit the user's index type", "[arguments]") {
  auto m = rttest::makeTestModule();
  const Function& scale = fn(*m, "Scale");  // int i
  const std::int64_t n = (std::int64_t{1} << 31) + 1;
  std::vector<LaunchArg> args = {LaunchArg::of(buffer(0x1000, Scalar::F32, n, true)), LaunchArg::of(1.0f),
                                 LaunchArg::of(buffer(0x100000000000, Scalar::F32, n))};
  std::string msg = rejection(scale, LaunchPlanner::for1D(n), args);
  CHECK(msg.find("extent 2147483649 of axis i does not fit the index parameter 'int i'") != std::string::npos);
  // 2^31 rows: the last index 2^31 - 1 still fits an int.
  const std::int64_t fits = std::int64_t{1} << 31;
  args[2] = LaunchArg::of(buffer(0x100000000000, Scalar::F32, fits));
  CHECK_NOTHROW(resolveLaunchArguments(scale, LaunchPlanner::for1D(fits), args, nullptr));
}

TEST_CASE("a buffer written by the kernel may not be passed twice", "[arguments]") {
  auto m = rttest::makeTestModule();
  const Function& scale = fn(*m, "Scale");
  std::string msg = rejection(scale, LaunchPlanner::for1D(8),
                              {LaunchArg::of(buffer(0x1000, Scalar::F32, 8)), LaunchArg::of(1.0f),
                               LaunchArg::of(buffer(0x1000, Scalar::F32, 8))});
  CHECK(msg.find("the same buffer is passed for 'culift_out' and 'x'") != std::string::npos);
  CHECK(msg.find("__restrict__") != std::string::npos);
  // Two read-only uses of one buffer are fine.
  const Function& outer = fn(*m, "Outer");
  CHECK_NOTHROW(resolveLaunchArguments(outer, LaunchPlanner::for2D(4, 4),
                                       std::vector<LaunchArg>{LaunchArg::of(buffer(0x1000, Scalar::F64, 4, true)),
                                                              LaunchArg::of(buffer(0x1000, Scalar::F64, 4, true)),
                                                              LaunchArg::of(buffer(0x2000, Scalar::F64, 16))},
                                       nullptr));
}

TEST_CASE("device-only functions cannot be launched", "[arguments]") {
  Function f;
  f.name = "Helper";
  f.mode = IndexMode::DeviceOnly;
  CHECK(rejection(f, LaunchPlanner::for1D(1), {}).find("'Helper' is a device-only function") != std::string::npos);
}
