// The environment probe and its fix suggestions.
#include "culift/runtime/probe.hpp"

#include <algorithm>
#include <cstdlib>
#include <thread>

#include "culift/cpujit.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/nvrtc.hpp"
#include "driver_api.hpp"
#include "dynamic_library.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace culift::rt {
namespace {

std::string envOr(const char* name, bool* set = nullptr) {
  const char* v = std::getenv(name);
  if (set) *set = v != nullptr;
  return v ? v : "";
}

std::string versionString(int cudaVersion) {
  return std::to_string(cudaVersion / 1000) + "." + std::to_string((cudaVersion % 1000) / 10);
}

std::string archList(const std::vector<int>& archs) {
  std::string s;
  for (int a : archs) s += (s.empty() ? "sm_" : ", sm_") + std::to_string(a);
  return s;
}

// NVML (libnvidia-ml.so.1, with the driver), for what links two devices: only these entry points.
using NvmlDevice = void*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlP2PCapsNvlink = 2;  // NVML_P2P_CAPS_INDEX_NVLINK
constexpr int kNvmlP2PStatusOk = 0;    // NVML_P2P_STATUS_OK

// Each pair of `devices` (CUdevice handles, in ordinal order): peer access from the driver, NVLink
// or PCIe from NVML where it loads.
void probeLinks(const detail::DriverApi& api, const std::vector<detail::CUdevice>& handles, EnvironmentReport& r) {
  if (r.devices.size() < 2) return;
  std::string why;
  detail::DynamicLibrary nvml = detail::DynamicLibrary::openFirst({"libnvidia-ml.so.1", "libnvidia-ml.so"}, &why);
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*byBusId)(const char*, NvmlDevice*) = nullptr;
  int (*p2pStatus)(NvmlDevice, NvmlDevice, int, int*) = nullptr;
  bool nvmlUp = nvml && nvml.resolve(init, "nvmlInit_v2") && nvml.resolve(shutdown, "nvmlShutdown") &&
                nvml.resolve(byBusId, "nvmlDeviceGetHandleByPciBusId_v2") &&
                nvml.resolve(p2pStatus, "nvmlDeviceGetP2PStatus") && init() == kNvmlSuccess;
  if (!nvmlUp) r.linkNote = "NVML (libnvidia-ml.so.1) is not usable: whether a link is NVLink or PCIe is unknown";
  std::vector<NvmlDevice> nvmlDevices(r.devices.size(), nullptr);
  if (nvmlUp)
    for (size_t k = 0; k < r.devices.size(); ++k)
      if (byBusId(r.devices[k].pciBusId.c_str(), &nvmlDevices[k]) != kNvmlSuccess) nvmlDevices[k] = nullptr;
  for (size_t a = 0; a < r.devices.size(); ++a)
    for (size_t b = a + 1; b < r.devices.size(); ++b) {
      LinkReport link;
      link.first = r.devices[a].ordinal;
      link.second = r.devices[b].ordinal;
      int ab = 0, ba = 0;
      if (api.cuDeviceCanAccessPeer) {
        api.cuDeviceCanAccessPeer(&ab, handles[a], handles[b]);
        api.cuDeviceCanAccessPeer(&ba, handles[b], handles[a]);
      }
      link.peerAccess = ab && ba;
      if (nvmlDevices[a] && nvmlDevices[b]) {
        int status = -1;
        if (p2pStatus(nvmlDevices[a], nvmlDevices[b], kNvmlP2PCapsNvlink, &status) == kNvmlSuccess)
          link.kind = status == kNvmlP2PStatusOk ? "NVLink" : "PCIe";
      }
      r.links.push_back(link);
    }
  if (nvmlUp) shutdown();
}

constexpr int kStubLibrary = 34;
constexpr int kNoDevice = 100;
constexpr int kInsufficientDriver = 35;

}  // namespace

std::string EnvironmentReport::chosenBackend() const {
  return gpuUsable() ? "gpu" : cpuCompiledAvailable ? "cpu" : "interp";
}

bool EnvironmentReport::gpuUsable() const {
  if (!driverFound || initStatus != 0 || devices.empty() || !nvrtcFound) return false;
  if (nvrtcArchs.empty()) return true;
  int lowest = *std::min_element(nvrtcArchs.begin(), nvrtcArchs.end());
  return std::any_of(devices.begin(), devices.end(), [&](const DeviceReport& d) { return d.arch() >= lowest; });
}

int gpuCount() {
  auto api = detail::DriverApi::load(nullptr);
  int count = 0;
  if (!api || api->cuInit(0) != detail::kCudaSuccess || api->cuDeviceGetCount(&count) != detail::kCudaSuccess) return 0;
  return count;
}

EnvironmentReport probeEnvironment() {
  EnvironmentReport r;
  r.cudaVisibleDevices = envOr("CUDA_VISIBLE_DEVICES", &r.cudaVisibleDevicesSet);
  r.ldLibraryPath = envOr("LD_LIBRARY_PATH");

  std::string why;
  if (auto api = detail::DriverApi::load(&why)) {
    r.driverFound = true;
    r.driverPath = api->library.path();
    r.initStatus = api->cuInit(0);
    r.initStatusName = api->errorName(r.initStatus);
    int version = 0;
    if (api->cuDriverGetVersion(&version) == detail::kCudaSuccess) r.driverVersion = version;
    if (r.initStatus == detail::kCudaSuccess) {
      int count = 0;
      if (int s = api->cuDeviceGetCount(&count); s != detail::kCudaSuccess) {
        r.deviceError = "cuDeviceGetCount failed: " + api->errorName(s);
        count = 0;
      }
      std::vector<detail::CUdevice> handles;
      for (int ordinal = 0; ordinal < count; ++ordinal) {
        DeviceReport d;
        d.ordinal = ordinal;
        detail::CUdevice device = 0;
        if (int s = api->cuDeviceGet(&device, ordinal); s != detail::kCudaSuccess) {
          r.deviceError = "cuDeviceGet(" + std::to_string(ordinal) + ") failed: " + api->errorName(s);
          continue;
        }
        char name[256] = {0};
        api->cuDeviceGetName(name, sizeof name - 1, device);
        d.name = name;
        api->cuDeviceGetAttribute(&d.computeMajor, detail::kAttrComputeCapabilityMajor, device);
        api->cuDeviceGetAttribute(&d.computeMinor, detail::kAttrComputeCapabilityMinor, device);
        std::size_t memory = 0;
        api->cuDeviceTotalMem(&memory, device);
        d.totalMemory = memory;
        char bus[32] = {0};
        if (api->cuDeviceGetPCIBusId && api->cuDeviceGetPCIBusId(bus, sizeof bus - 1, device) == detail::kCudaSuccess)
          d.pciBusId = bus;
        r.devices.push_back(d);
        handles.push_back(device);
      }
      probeLinks(*api, handles, r);
    }
  } else {
    r.driverError = why;
  }

  if (auto nvrtc = Nvrtc::load(&why)) {
    r.nvrtcFound = true;
    r.nvrtcPath = nvrtc->libraryPath();
    r.nvrtcMajor = nvrtc->versionMajor();
    r.nvrtcMinor = nvrtc->versionMinor();
    r.nvrtcArchs = nvrtc->supportedArchs();
  } else {
    r.nvrtcError = why;
  }
  {
    std::vector<std::string> candidates;
    if (const char* path = std::getenv("CULIFT_NCCL_PATH"); path && *path) candidates.push_back(path);
    for (const char* name :
         {"libnccl.so.2", "libnccl.so", "/usr/local/cuda/lib64/libnccl.so.2", "/usr/local/cuda/lib/libnccl.so.2"})
      candidates.push_back(name);
    std::string ncclWhy;
    detail::DynamicLibrary nccl = detail::DynamicLibrary::openFirst(candidates, &ncclWhy);
    if (nccl) {
      r.ncclPath = nccl.path();
      using GetVersion = int (*)(int*);
      auto getVersion = reinterpret_cast<GetVersion>(nccl.symbol("ncclGetVersion"));
      if (!getVersion) r.ncclError = r.ncclPath + " has no ncclGetVersion";
      else if (int status = getVersion(&r.ncclVersion); status != 0)
        r.ncclError = "ncclGetVersion failed (ncclResult_t " + std::to_string(status) + ")";
      else r.ncclFound = true;
    } else {
      r.ncclError = "NCCL (libnccl.so.2) was not found:\n" + ncclWhy;
    }
  }
  r.interpreterAvailable = Engine::cpuBackendAvailable();
  r.cpuCompiledAvailable = r.interpreterAvailable && cpujit::available(&r.cpuCompiledError);
  if (!r.interpreterAvailable) r.cpuCompiledError = "culift was built without the CPU backend";
  if (r.cpuCompiledAvailable) r.cpuCompiledHost = cpujit::hostDescription();
  r.cpuThreads = std::max(1u, std::thread::hardware_concurrency());
  return r;
}

std::string EnvironmentReport::ncclVersionText() const {
  // NCCL_VERSION(X, Y, Z): X * 10000 + Y * 100 + Z since 2.9, X * 1000 + Y * 100 + Z before.
  const int major = ncclVersion >= 20900 ? ncclVersion / 10000 : ncclVersion / 1000;
  const int minor = ncclVersion >= 20900 ? ncclVersion / 100 % 100 : ncclVersion / 100 % 10;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(ncclVersion % 100);
}

std::vector<FixSuggestion> suggestFixes(const EnvironmentReport& r) {
  using S = FixSuggestion::Severity;
  std::vector<FixSuggestion> out;
  const std::string cpu =
      " Until then culift runs every launch on the CPU backend (kernels compiled for the host, every core).";

  if (!r.driverFound) {
    std::string detail =
        "libcuda.so.1 comes with the NVIDIA driver, not with the CUDA toolkit. Install the driver "
        "(e.g. 'sudo apt install nvidia-driver-580' or NVIDIA's .run installer) and check it with nvidia-smi. "
        "In a container, start it with the NVIDIA container toolkit ('docker run --gpus all ...'). "
        "If the driver is installed somewhere unusual, set $CULIFT_CUDA_DRIVER_PATH to its libcuda.so.1." +
        cpu;
    if (llvm::sys::fs::exists("/usr/local/cuda/lib64/stubs/libcuda.so"))
      detail += " (The toolkit's stubs/libcuda.so is a link-time stub: it cannot run kernels.)";
    out.push_back({S::Error, "no CUDA driver: libcuda.so.1 was not found", detail});
  } else if (r.initStatus == kStubLibrary) {
    out.push_back({S::Error, "the CUDA driver stub was loaded (" + r.driverPath + "), not the driver",
                   "cuInit returned CUDA_ERROR_STUB_LIBRARY. Remove the toolkit's stubs directory from "
                   "LD_LIBRARY_PATH (now '" +
                       r.ldLibraryPath +
                       "') and $CULIFT_CUDA_DRIVER_PATH, and install the "
                       "NVIDIA driver if nvidia-smi does not work." +
                       cpu});
  } else if (r.initStatus == kNoDevice) {
    std::string detail = "cuInit returned CUDA_ERROR_NO_DEVICE. Check that nvidia-smi lists a GPU";
    if (r.cudaVisibleDevicesSet)
      detail += ", and $CUDA_VISIBLE_DEVICES (now '" + r.cudaVisibleDevices + "'): unset it or name an existing GPU";
    detail += ". In a container, pass the GPU in ('docker run --gpus all ...')." + cpu;
    out.push_back({S::Error, "the CUDA driver sees no GPU", detail});
  } else if (r.initStatus == kInsufficientDriver) {
    out.push_back({S::Error, "the NVIDIA driver is too old for this CUDA",
                   "cuInit returned CUDA_ERROR_INSUFFICIENT_DRIVER. Install a newer NVIDIA driver." + cpu});
  } else if (r.initStatus != 0) {
    out.push_back({S::Error, "the CUDA driver failed to initialize: " + r.initStatusName,
                   "Check nvidia-smi and the kernel log (dmesg | grep -i nvrm); a reboot after a driver update often "
                   "helps; make sure /dev/nvidia* is accessible to this user." +
                       cpu});
  } else if (r.devices.empty()) {
    out.push_back({S::Error, "the CUDA driver lists no device",
                   r.deviceError.empty() ? "Check nvidia-smi." + cpu : r.deviceError + "." + cpu});
  }

  if (!r.nvrtcFound) {
    out.push_back({S::Error, "NVRTC (libnvrtc.so) was not found",
                   "culift compiles kernels at run time with NVRTC. Install it (e.g. 'sudo apt install "
                   "cuda-nvrtc-13-0', or the CUDA toolkit), add its directory (e.g. /usr/local/cuda/lib64) to "
                   "LD_LIBRARY_PATH, or set $CULIFT_NVRTC_PATH to the libnvrtc.so file." +
                       cpu});
  }

  if (r.driverFound && r.initStatus == 0 && r.nvrtcFound && r.driverVersion > 0 &&
      r.driverVersion / 1000 < r.nvrtcMajor) {
    out.push_back({S::Error,
                   "the driver supports CUDA " + versionString(r.driverVersion) + ", older than NVRTC " +
                       std::to_string(r.nvrtcMajor) + "." + std::to_string(r.nvrtcMinor),
                   "Code NVRTC " + std::to_string(r.nvrtcMajor) +
                       " generates may not load on this driver "
                       "(CUDA_ERROR_UNSUPPORTED_PTX_VERSION). Upgrade the NVIDIA driver to one for CUDA " +
                       std::to_string(r.nvrtcMajor) + ", or point $CULIFT_NVRTC_PATH at the NVRTC of CUDA " +
                       std::to_string(r.driverVersion / 1000) + " or older."});
  }

  if (r.nvrtcFound && !r.nvrtcArchs.empty()) {
    const int lowest = *std::min_element(r.nvrtcArchs.begin(), r.nvrtcArchs.end());
    for (const DeviceReport& d : r.devices) {
      bool exact = std::find(r.nvrtcArchs.begin(), r.nvrtcArchs.end(), d.arch()) != r.nvrtcArchs.end();
      if (d.arch() < lowest) {
        out.push_back({S::Error,
                       "NVRTC " + std::to_string(r.nvrtcMajor) + "." + std::to_string(r.nvrtcMinor) +
                           " cannot compile for device " + std::to_string(d.ordinal) + " (" + d.name + ", sm_" +
                           std::to_string(d.arch()) + ")",
                       "It supports " + archList(r.nvrtcArchs) +
                           ". Use the NVRTC of an older CUDA toolkit that still "
                           "supports sm_" +
                           std::to_string(d.arch()) + " ($CULIFT_NVRTC_PATH)."});
      } else if (!exact) {
        out.push_back({S::Note,
                       "NVRTC has no sm_" + std::to_string(d.arch()) + " target for device " +
                           std::to_string(d.ordinal) + " (" + d.name + ")",
                       "culift compiles PTX for the newest older architecture instead and the driver JIT-compiles "
                       "it at load time (slower first launch). A newer NVRTC gives a native cubin."});
      }
    }
  }
  return out;
}

std::string FixSuggestion::toString() const {
  const char* level = severity == Severity::Error ? "error" : severity == Severity::Warning ? "warning" : "note";
  return std::string(level) + ": " + title;
}

std::string formatReport(const EnvironmentReport& r, const std::vector<FixSuggestion>& suggestions) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "CUDA driver : ";
  if (!r.driverFound) {
    os << "not found\n";
  } else {
    os << r.driverPath << "\n";
    os << "  cuInit    : " << r.initStatusName << "\n";
    if (r.driverVersion) os << "  supports  : CUDA " << versionString(r.driverVersion) << "\n";
  }
  os << "devices     : " << r.devices.size() << "\n";
  for (const DeviceReport& d : r.devices)
    os << "  [" << d.ordinal << "] " << d.name << ", sm_" << d.arch() << ", "
       << llvm::format("%.1f GiB", static_cast<double>(d.totalMemory) / (1024.0 * 1024.0 * 1024.0)) << "\n";
  if (r.devices.size() >= 2) {
    os << "links       :" << (r.linkNote.empty() ? "" : " (" + r.linkNote + ")") << "\n";
    for (const LinkReport& l : r.links)
      os << "  " << l.first << " <-> " << l.second << ": " << (l.kind.empty() ? "link unknown" : l.kind)
         << ", peer access " << (l.peerAccess ? "yes" : "no") << "\n";
  }
  os << "NVRTC       : ";
  if (!r.nvrtcFound) {
    os << "not found\n";
  } else {
    os << r.nvrtcPath << " (" << r.nvrtcMajor << "." << r.nvrtcMinor << ")\n";
    if (!r.nvrtcArchs.empty()) os << "  targets   : " << archList(r.nvrtcArchs) << "\n";
  }
  os << "NCCL        : ";
  if (r.ncclFound) os << r.ncclPath << " (" << r.ncclVersionText() << ")\n";
  else os << "not found (needed only to split a launch over several GPUs)\n";
  if (r.cudaVisibleDevicesSet) os << "CUDA_VISIBLE_DEVICES=" << r.cudaVisibleDevices << "\n";
  os << "GPU usable  : " << (r.gpuUsable() ? "yes" : "no (launches run on the CPU backend)") << "\n";
  os << "CPU compiled: ";
  if (r.cpuCompiledAvailable) os << "yes (" << r.cpuCompiledHost << ", " << r.cpuThreads << " threads)\n";
  else os << "no (" << r.cpuCompiledError << ")\n";
  os << "interpreter : " << (r.interpreterAvailable ? "yes" : "no (built without it)") << "\n";
  os << "backend     : " << r.chosenBackend() << " (culift launch --backend gpu|cpu|interp picks one)\n";
  for (const FixSuggestion& f : suggestions) os << "\n" << f.toString() << "\n  fix: " << f.detail << "\n";
  if (suggestions.empty()) os << "\nno problems found\n";
  return os.str();
}

std::string reportJson(const EnvironmentReport& r, const std::vector<FixSuggestion>& suggestions) {
  llvm::json::Array devices;
  for (const DeviceReport& d : r.devices)
    devices.push_back(llvm::json::Object{{"ordinal", d.ordinal},
                                         {"name", d.name},
                                         {"arch", "sm_" + std::to_string(d.arch())},
                                         {"totalMemory", static_cast<int64_t>(d.totalMemory)},
                                         {"pciBusId", d.pciBusId}});
  llvm::json::Array links;
  for (const LinkReport& l : r.links)
    links.push_back(
        llvm::json::Object{{"devices", llvm::json::Array{l.first, l.second}},
                           {"kind", l.kind.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(l.kind)},
                           {"peerAccess", l.peerAccess}});
  llvm::json::Array archs;
  for (int a : r.nvrtcArchs) archs.push_back(a);
  llvm::json::Array fixes;
  for (const FixSuggestion& f : suggestions) {
    const char* level = f.severity == FixSuggestion::Severity::Error     ? "error"
                        : f.severity == FixSuggestion::Severity::Warning ? "warning"
                                                                         : "note";
    fixes.push_back(llvm::json::Object{{"severity", level}, {"title", f.title}, {"fix", f.detail}});
  }
  llvm::json::Object driver{{"found", r.driverFound}};
  if (r.driverFound) {
    driver["path"] = r.driverPath;
    driver["init"] = r.initStatusName;
    driver["cudaVersion"] = r.driverVersion ? versionString(r.driverVersion) : "";
  } else {
    driver["error"] = r.driverError;
  }
  llvm::json::Object nvrtc{{"found", r.nvrtcFound}};
  if (r.nvrtcFound) {
    nvrtc["path"] = r.nvrtcPath;
    nvrtc["version"] = std::to_string(r.nvrtcMajor) + "." + std::to_string(r.nvrtcMinor);
    nvrtc["archs"] = std::move(archs);
  } else {
    nvrtc["error"] = r.nvrtcError;
  }
  llvm::json::Object nccl{{"found", r.ncclFound}};
  if (r.ncclFound) {
    nccl["path"] = r.ncclPath;
    nccl["version"] = r.ncclVersionText();
  } else {
    nccl["error"] = r.ncclError;
  }
  llvm::json::Object root{{"driver", std::move(driver)},
                          {"devices", std::move(devices)},
                          {"links", std::move(links)},
                          {"nvrtc", std::move(nvrtc)},
                          {"nccl", std::move(nccl)},
                          {"gpuUsable", r.gpuUsable()},
                          {"cpu", llvm::json::Object{{"compiled", r.cpuCompiledAvailable},
                                                     {"host", r.cpuCompiledHost},
                                                     {"error", r.cpuCompiledError},
                                                     {"interpreter", r.interpreterAvailable},
                                                     {"threads", static_cast<std::int64_t>(r.cpuThreads)}}},
                          {"backend", r.chosenBackend()},
                          {"suggestions", std::move(fixes)}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root)));
  return os.str();
}

}  // namespace culift::rt
