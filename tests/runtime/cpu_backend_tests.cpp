// The CPU backend: the launch API of the GPU over host memory, run by the compiled kernels
// (checked or not) and by the interpreter.
#include "backend_suite.hpp"
#include "culift/interpreter.hpp"

using namespace culift;
using namespace culift::rt;

TEST_CASE("the CPU backend runs the backend suite", "[cpu]") {
  for (CpuCode code : {CpuCode::Checked, CpuCode::Unchecked, CpuCode::Interpreted}) {
    INFO(name(code));
    EngineOptions o;
    o.cpuCode = code;
    auto engine = Engine::createCpu(o);
    REQUIRE(engine->backend() == Backend::Cpu);
    CHECK(name(engine->backend()) == "cpu");
    const std::string& device = engine->device().name;
    if (code == CpuCode::Interpreted) CHECK(device == "CPU (interpreter)");
    else CHECK(device.find("CPU (compiled for ") == 0);
    CHECK((device.find(", unchecked)") != std::string::npos) == (code == CpuCode::Unchecked));
    // The compiled backend records its JIT's time beside the interpreter's compile.
    engine->load(rttest::makeTestModule());
    bool host = false;
    for (const CompileRecord& r : engine->compileRecords()) host |= r.target == "host" && r.milliseconds > 0;
    CHECK(host == (code != CpuCode::Interpreted));
    rttest::runBackendSuite(*engine, rttest::makeTestModule());
  }
}

TEST_CASE("createGpuOrCpu falls back to the CPU and says why", "[cpu]") {
  std::string why;
  auto engine = Engine::createGpuOrCpu({}, &why);
  REQUIRE(engine);
  if (engine->backend() == Backend::Cpu) CHECK_FALSE(why.empty());
}

TEST_CASE("the CPU backend reports interpreter errors as rt::Error, with the source location", "[cpu]") {
  auto engine = Engine::createCpu();
  auto module = rttest::makeTestModule();
  // Scale reads x[i] for every i < n: a buffer shorter than the index space is out of range.
  DeviceBuffer<float> x(*engine, 4), out(*engine, 8);
  // One hierarchy for both backends: a host program catching rt::Error catches this too.
  try {
    engine->kernel(module, "Scale").launch(*engine, LaunchPlanner::for1D(8), x, 1.0f, out);
    FAIL("no error");
  } catch (const Error& e) {
    const auto* kernel = dynamic_cast<const KernelError*>(&e);
    REQUIRE(kernel);
    CHECK(kernel->diagnostic().loc.file == "kernels.cpp");
    CHECK(kernel->diagnostic().message.find("index 4 is out of bounds") != std::string::npos);
    CHECK(std::string(e.what()).find("kernels.cpp:") != std::string::npos);
  }
}

TEST_CASE("kernels are looked up by the user's name, with the known ones listed", "[cpu]") {
  auto engine = Engine::createCpu();
  auto module = rttest::makeTestModule();
  try {
    engine->kernel(module, "Missing");
    FAIL("no error");
  } catch (const Error& e) {
    std::string m = e.what();
    CHECK(m.find("no function 'Missing'") != std::string::npos);
    CHECK(m.find("Scale, Outer, Floor0, Fill") != std::string::npos);
  }
  engine->kernel(module, "Scale");
  REQUIRE(engine->compileRecords().size() == 1);
  CHECK(engine->compileRecords()[0].target == "host");  // the kernels compiled for the host
}

TEST_CASE("registered modules are compiled when an engine is created", "[cpu]") {
  clearRegisteredModules();
  auto module = rttest::makeTestModule();
  registerModule(module);
  registerModule(module);  // repeats are ignored
  CHECK(registeredModules().size() == 1);
  auto engine = Engine::createCpu();
  REQUIRE(engine->compileRecords().size() == 1);
  CHECK(engine->compileRecords()[0].module == "kernels.cpp");
  clearRegisteredModules();
}

TEST_CASE("buffers of one engine are refused by another", "[cpu]") {
  auto a = Engine::createCpu(), b = Engine::createCpu();
  auto module = rttest::makeTestModule();
  DeviceBuffer<float> x(*a, 4), out(*b, 4);
  try {
    b->kernel(module, "Scale").launch(*b, LaunchPlanner::for1D(4), x, 1.0f, out);
    FAIL("no error");
  } catch (const ArgumentError& e) {
    CHECK(std::string(e.what()).find("buffer of another engine") != std::string::npos);
  }
}

TEST_CASE("a launch over part of its outputs writes those outputs only", "[cpu][part]") {
  auto module = rttest::makeTestModule();
  for (CpuCode code : {CpuCode::Checked, CpuCode::Unchecked, CpuCode::Interpreted}) {
    INFO(name(code));
    EngineOptions o;
    o.cpuCode = code;
    auto engine = Engine::createCpu(o);
    rttest::runPartSuite(*engine, module);
  }
}
