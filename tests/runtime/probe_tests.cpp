// The environment probe: real on this machine (no GPU), and the fixes it suggests for each
// kind of broken setup.
#include <algorithm>
#include <cstdlib>
#include <string>

#include "catch.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/probe.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

using namespace culift::rt;

namespace {

bool hasFix(const std::vector<FixSuggestion>& fixes, const std::string& titlePart, const std::string& detailPart = {}) {
  return std::any_of(fixes.begin(), fixes.end(), [&](const FixSuggestion& f) {
    return f.title.find(titlePart) != std::string::npos && f.detail.find(detailPart) != std::string::npos;
  });
}

EnvironmentReport healthy() {
  EnvironmentReport r;
  r.driverFound = true;
  r.driverPath = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  r.initStatus = 0;
  r.initStatusName = "CUDA_SUCCESS";
  r.driverVersion = 13000;
  r.devices.push_back(DeviceReport{0, "NVIDIA H200", 9, 0, 150ull << 30, "0000:18:00.0"});
  r.nvrtcFound = true;
  r.nvrtcPath = "/usr/local/cuda/lib64/libnvrtc.so.13";
  r.nvrtcMajor = 13;
  r.nvrtcMinor = 0;
  r.nvrtcArchs = {75, 80, 86, 87, 89, 90, 100, 120};
  return r;
}

// Sets an environment variable for one scope.
struct ScopedEnv {
  std::string name, old;
  bool had;
  ScopedEnv(const char* n, const char* value) : name(n) {
    const char* o = std::getenv(n);
    had = o != nullptr;
    if (had) old = o;
    setenv(n, value, 1);
  }
  ~ScopedEnv() {
    if (had) setenv(name.c_str(), old.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("the report lists each pair of devices: its link and peer access", "[probe]") {
  EnvironmentReport one = healthy();
  CHECK(formatReport(one, {}).find("links") == std::string::npos);  // one device: no pairs
  EnvironmentReport r = healthy();
  r.devices.push_back(DeviceReport{1, "NVIDIA H200", 9, 0, 150ull << 30, "0000:2a:00.0"});
  r.devices.push_back(DeviceReport{2, "NVIDIA H200", 9, 0, 150ull << 30, "0000:3a:00.0"});
  r.links = {LinkReport{0, 1, true, "NVLink"}, LinkReport{0, 2, false, "PCIe"}, LinkReport{1, 2, true, ""}};
  const std::string text = formatReport(r, {});
  CHECK(text.find("  0 <-> 1: NVLink, peer access yes\n") != std::string::npos);
  CHECK(text.find("  0 <-> 2: PCIe, peer access no\n") != std::string::npos);
  CHECK(text.find("  1 <-> 2: link unknown, peer access yes\n") != std::string::npos);
  r.linkNote = "NVML (libnvidia-ml.so.1) is not usable: whether a link is NVLink or PCIe is unknown";
  CHECK(formatReport(r, {}).find("links       : (NVML (libnvidia-ml.so.1) is not usable") != std::string::npos);
  const std::string json = reportJson(r, {});
  CHECK(json.find("\"links\": [") != std::string::npos);
  CHECK(json.find("\"kind\": \"NVLink\"") != std::string::npos);
  CHECK(json.find("\"kind\": null") != std::string::npos);
  CHECK(json.find("\"pciBusId\": \"0000:2a:00.0\"") != std::string::npos);
}

TEST_CASE("a healthy machine gets no suggestions", "[probe]") {
  EnvironmentReport r = healthy();
  CHECK(r.gpuUsable());
  CHECK(suggestFixes(r).empty());
  std::string text = formatReport(r, {});
  CHECK(text.find("[0] NVIDIA H200, sm_90") != std::string::npos);
  CHECK(text.find("no problems found") != std::string::npos);
}

TEST_CASE("no driver: install it, or use the CPU backend", "[probe]") {
  EnvironmentReport r = healthy();
  r.driverFound = false;
  r.initStatus = -1;
  r.devices.clear();
  r.driverError = "libcuda.so.1: cannot open shared object file";
  CHECK_FALSE(r.gpuUsable());
  auto fixes = suggestFixes(r);
  CHECK(hasFix(fixes, "no CUDA driver", "NVIDIA driver"));
  CHECK(hasFix(fixes, "no CUDA driver", "CPU backend"));
  CHECK(hasFix(fixes, "no CUDA driver", "--gpus all"));
}

TEST_CASE("the driver stub, no device and an old driver each get their own fix", "[probe]") {
  EnvironmentReport stub = healthy();
  stub.initStatus = 34;
  stub.devices.clear();
  CHECK(hasFix(suggestFixes(stub), "driver stub", "LD_LIBRARY_PATH"));

  EnvironmentReport none = healthy();
  none.initStatus = 100;
  none.devices.clear();
  none.cudaVisibleDevicesSet = true;
  none.cudaVisibleDevices = "7";
  CHECK(hasFix(suggestFixes(none), "sees no GPU", "$CUDA_VISIBLE_DEVICES (now '7')"));

  EnvironmentReport old = healthy();
  old.driverVersion = 12040;
  CHECK(hasFix(suggestFixes(old), "supports CUDA 12.4, older than NVRTC 13.0", "Upgrade the NVIDIA driver"));
}

TEST_CASE("NVRTC missing, or without the device's architecture", "[probe]") {
  EnvironmentReport missing = healthy();
  missing.nvrtcFound = false;
  missing.nvrtcArchs.clear();
  CHECK_FALSE(missing.gpuUsable());
  CHECK(hasFix(suggestFixes(missing), "NVRTC", "CULIFT_NVRTC_PATH"));

  EnvironmentReport tooOld = healthy();
  tooOld.devices[0] = DeviceReport{0, "Tesla K80", 3, 7, 12ull << 30, ""};
  CHECK_FALSE(tooOld.gpuUsable());
  CHECK(hasFix(suggestFixes(tooOld), "cannot compile for device 0 (Tesla K80, sm_37)", "older CUDA toolkit"));

  EnvironmentReport between = healthy();
  between.devices[0] = DeviceReport{0, "future GPU", 9, 5, 1ull << 30, ""};
  auto fixes = suggestFixes(between);
  CHECK(hasFix(fixes, "no sm_95 target", "PTX"));
  CHECK(fixes.front().severity == FixSuggestion::Severity::Note);
}

TEST_CASE("the probe runs on this machine and its JSON parses", "[probe]") {
  EnvironmentReport r = probeEnvironment();
  auto fixes = suggestFixes(r);
  CHECK(r.nvrtcFound);  // NVRTC is on every development machine
  if (!r.gpuUsable()) CHECK_FALSE(fixes.empty());
  if (!r.driverFound) CHECK(hasFix(fixes, "no CUDA driver"));
  auto parsed = llvm::json::parse(reportJson(r, fixes));
  REQUIRE(bool(parsed));
  const auto* root = parsed->getAsObject();
  REQUIRE(root);
  CHECK(root->getBoolean("gpuUsable") == r.gpuUsable());
  CHECK(root->getArray("suggestions")->size() == fixes.size());
}

TEST_CASE("the probe and the engine recognize the driver stub", "[probe]") {
  const char* stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!llvm::sys::fs::exists(stub)) {
    WARN("skipped: no CUDA driver stub at " << stub);
    return;
  }
  // Both are named libcuda.so.1 to the loader: once a real driver is loaded, the stub is not.
  if (probeEnvironment().driverFound) {
    WARN("skipped: a CUDA driver is installed, so the stub cannot be loaded next to it");
    return;
  }
  ScopedEnv env("CULIFT_CUDA_DRIVER_PATH", stub);
  EnvironmentReport r = probeEnvironment();
  REQUIRE(r.driverFound);
  CHECK(r.initStatus == 34);
  CHECK(r.initStatusName == "CUDA_ERROR_STUB_LIBRARY");
  CHECK(hasFix(suggestFixes(r), "driver stub"));

  std::string why;
  CHECK(Engine::tryCreate({}, &why) == nullptr);
  CHECK(why.find("CUDA_ERROR_STUB_LIBRARY") != std::string::npos);
  CHECK(why.find("LD_LIBRARY_PATH") != std::string::npos);
}

TEST_CASE("the probe finds NCCL where the CUDA toolkit has it, or says where it looked", "[probe]") {
  {
    ScopedEnv env("CULIFT_NCCL_PATH", "/nonexistent/libnccl.so.2");
    EnvironmentReport r = probeEnvironment();
    if (!r.ncclFound) {
      CHECK(r.ncclError.find("/nonexistent/libnccl.so.2") != std::string::npos);
      CHECK(formatReport(r, suggestFixes(r)).find("NCCL        : not found") != std::string::npos);
    }
  }
  const char* toolkit = "/usr/local/cuda/lib64/libnccl.so.2";
  if (!llvm::sys::fs::exists(toolkit)) {
    WARN("skipped: no NCCL at " << toolkit);
    return;
  }
  ScopedEnv env("CULIFT_NCCL_PATH", toolkit);
  EnvironmentReport r = probeEnvironment();
  REQUIRE(r.ncclFound);
  CHECK(r.ncclVersion >= 20000);
  CHECK(r.ncclVersionText().rfind("2.", 0) == 0);
  auto parsed = llvm::json::parse(reportJson(r, suggestFixes(r)));
  REQUIRE(bool(parsed));
  const auto* nccl = parsed->getAsObject()->getObject("nccl");
  REQUIRE(nccl);
  CHECK(nccl->getBoolean("found") == true);
  CHECK(nccl->getString("version").value_or("") == r.ncclVersionText());
}
