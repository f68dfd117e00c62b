// One execution suite for every backend: the same launches, checked against values computed
// here in C++. The CPU backend runs it everywhere; the GPU tests run it on a device.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/runtime.hpp"
#include "test_kernels.hpp"

namespace culift::rttest {

// `module` is makeTestModule()'s.
inline void runBackendSuite(rt::Engine& engine, const std::shared_ptr<const Module>& module) {
  using namespace culift::rt;

  SECTION("1-D: Scale over 1000 elements, out[i] = x[i] * a") {
    std::vector<float> x(1000);
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k) * 0.37f - 50.0f;
    DeviceBuffer<float> dx(engine, x);
    DeviceBuffer<float> out(engine, x.size());
    Kernel scale = engine.kernel(module, "Scale");
    scale.launch(engine, LaunchPlanner::for1D(1000, 128), static_cast<const DeviceBuffer<float>&>(dx), 1.5f, out);
    engine.synchronize();
    std::vector<float> got = out.read();
    for (std::size_t k = 0; k < x.size(); ++k) REQUIRE(got[k] == x[k] * 1.5f);
  }

  SECTION("2-D: Outer product, i on rows and j on columns, row-major out") {
    std::vector<double> a = {1, 2, 3}, b = {10, 20, 30, 40, 50};
    DeviceBuffer<double> da(engine, a), db(engine, b), out(engine, 15);
    Kernel outer = engine.kernel(module, "Outer");
    outer.launch(engine, outer.plan(3, 5), da, db, out);
    engine.synchronize();
    std::vector<double> got = out.read();
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) REQUIRE(got[i * 5 + j] == a[i] * b[j]);
  }

  SECTION("element-wise: Floor0 reads each scalar parameter as an array") {
    std::vector<float> v = {-2, 0.5f, 3, -0.25f}, lo = {0, 1, 0, -1};
    DeviceBuffer<float> dv(engine, v), dlo(engine, lo), out(engine, 4);
    engine.kernel(module, "Floor0").launch(engine, LaunchPlanner::for1D(4), dv, dlo, out);
    engine.synchronize();
    CHECK(out.read() == std::vector<float>{0, 1, 3, -0.25f});
  }

  SECTION("void: Fill writes through its array, on a stream, timed with events") {
    DeviceBuffer<float> y(engine, 300);
    Stream stream = engine.createStream();
    Event start = engine.createEvent(), stop = engine.createEvent();
    start.record(stream);
    engine.kernel(module, "Fill").launch(stream, LaunchPlanner::for1D(300, 64), y, 7.25f);
    stop.record(stream);
    stream.synchronize();
    CHECK(Event::elapsedMs(start, stop) >= 0.0f);
    std::vector<float> host(300, -1.0f);
    y.readAsync(host, stream);
    stream.synchronize();
    CHECK(host == std::vector<float>(300, 7.25f));
  }

  SECTION("an empty index space launches nothing and is not an error") {
    DeviceBuffer<float> x(engine, 0), out(engine, 0);
    CHECK_NOTHROW(engine.kernel(module, "Scale").launch(engine, LaunchPlanner::for1D(0), x, 1.0f, out));
  }

  SECTION("a bad argument is rejected before the backend runs anything") {
    DeviceBuffer<float> x(engine, 10);
    DeviceBuffer<float> out(engine, 10);
    out.write(std::vector<float>(10, 3.0f));
    Kernel scale = engine.kernel(module, "Scale");
    CHECK_THROWS_AS(scale.launch(engine, LaunchPlanner::for1D(11), x, 2.0f, out), ArgumentError);  // out too small
    CHECK_THROWS_AS(scale.launch(engine, LaunchPlanner::for1D(10), x, 2.0, out), ArgumentError);   // double for float
    CHECK_THROWS_AS(scale.launch(engine, LaunchPlanner::for1D(10), x, 2.0f, x), ArgumentError);    // aliasing
    engine.synchronize();
    CHECK(out.read() == std::vector<float>(10, 3.0f));  // untouched
  }

  SECTION("buffers round-trip, check their sizes and start zeroed") {
    DeviceBuffer<std::int64_t> b(engine, 5);
    CHECK(b.read() == std::vector<std::int64_t>(5, 0));
    b.write(std::vector<std::int64_t>{-1, 1ll << 40}, 3);
    CHECK(b.read() == std::vector<std::int64_t>{0, 0, 0, -1, 1ll << 40});
    CHECK_THROWS_AS(b.write(std::vector<std::int64_t>(3, 1), 3), Error);
    std::vector<std::int64_t> two(2);
    CHECK_THROWS_AS(b.read(two, 4), Error);
    DeviceBuffer<std::int64_t> moved = std::move(b);
    CHECK(moved.size() == 5);
    CHECK(b.size() == 0);
  }
}

// Launches over part of their outputs (LaunchPlan::partFirst / partLast): those outputs written,
// the others left as they were, for 1-D, 2-D and void kernels; an empty part launches nothing;
// a part that is not a range of the outputs is refused.
inline void runPartSuite(rt::Engine& engine, const std::shared_ptr<const Module>& module) {
  using namespace culift::rt;
  // 1-D: outputs [300, 9000) of 10000, enough for the launch's threads to split the part.
  std::vector<float> x(10000);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<float>(k) * 0.5f - 7.0f;
  DeviceBuffer<float> dx(engine, x);
  DeviceBuffer<float> out(engine, std::vector<float>(x.size(), -1.0f));
  Kernel scale = engine.kernel(module, "Scale");
  LaunchPlan plan = scale.plan(10000);
  plan.partFirst = 300;
  plan.partLast = 9000;
  CHECK_FALSE(plan.whole());
  scale.launch(engine, plan, static_cast<const DeviceBuffer<float>&>(dx), 2.0f, out);
  engine.synchronize();
  std::vector<float> got = out.read();
  for (std::size_t k = 0; k < x.size(); ++k) REQUIRE(got[k] == (k >= 300 && k < 9000 ? x[k] * 2.0f : -1.0f));

  // 2-D: a part that starts and ends inside rows (row-major order).
  std::vector<double> a = {1, 2, 3, 4}, b = {10, 20, 30, 40, 50};
  DeviceBuffer<double> da(engine, a), db(engine, b), outer(engine, std::vector<double>(20, 0.5));
  Kernel product = engine.kernel(module, "Outer");
  LaunchPlan rows = product.plan(4, 5);
  rows.partFirst = 3;
  rows.partLast = 14;
  product.launch(engine, rows, da, db, outer);
  engine.synchronize();
  std::vector<double> cells = outer.read();
  for (int e = 0; e < 20; ++e) REQUIRE(cells[e] == (e >= 3 && e < 14 ? a[e / 5] * b[e % 5] : 0.5));

  // A void kernel writes only its part's elements; an empty part launches nothing.
  DeviceBuffer<float> y(engine, std::vector<float>(100, 0.0f));
  Kernel fill = engine.kernel(module, "Fill");
  LaunchPlan some = fill.plan(100);
  some.partFirst = 40;
  some.partLast = 60;
  fill.launch(engine, some, y, 3.0f);
  LaunchPlan none = fill.plan(100);
  none.partFirst = none.partLast = 70;
  fill.launch(engine, none, y, 9.0f);
  engine.synchronize();
  std::vector<float> filled = y.read();
  for (int e = 0; e < 100; ++e) REQUIRE(filled[e] == (e >= 40 && e < 60 ? 3.0f : 0.0f));

  // The whole plan written as a part, and parts that are not ranges of the outputs.
  LaunchPlan all = scale.plan(10000);
  all.partLast = 10000;
  CHECK(all.whole());
  LaunchPlan backwards = scale.plan(10000);
  backwards.partFirst = 20;
  backwards.partLast = 10;
  CHECK_THROWS_AS(scale.launch(engine, backwards, static_cast<const DeviceBuffer<float>&>(dx), 2.0f, out),
                  ArgumentError);
  LaunchPlan beyond = scale.plan(10000);
  beyond.partLast = 10001;
  CHECK_THROWS_AS(scale.launch(engine, beyond, static_cast<const DeviceBuffer<float>&>(dx), 2.0f, out), ArgumentError);
}

}  // namespace culift::rttest
