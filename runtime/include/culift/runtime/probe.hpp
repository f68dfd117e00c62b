// The environment probe: what a machine offers for running lifted kernels (driver, devices,
// NVRTC) and concrete fixes for what is missing. Works, and never throws, on machines with no
// GPU, no driver or no CUDA at all.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace culift::rt {

struct DeviceReport {
  int ordinal = 0;
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  std::uint64_t totalMemory = 0;
  std::string pciBusId;  // "0000:18:00.0"
  int arch() const { return computeMajor * 10 + computeMinor; }
};

// A pair of devices: whether one can read the other's memory (peer access) and over what.
struct LinkReport {
  int first = 0, second = 0;  // device ordinals, first < second
  bool peerAccess = false;    // cuDeviceCanAccessPeer, both ways
  std::string kind;           // "NVLink" (NVML's P2P status), "PCIe", or "" when NVML cannot tell
};

struct EnvironmentReport {
  // The CUDA driver (libcuda.so.1).
  bool driverFound = false;
  std::string driverPath;      // the file loaded
  std::string driverError;     // why it did not load
  int initStatus = -1;         // cuInit's CUresult; -1 when not called
  std::string initStatusName;  // "CUDA_SUCCESS", "CUDA_ERROR_NO_DEVICE", ...
  int driverVersion = 0;       // CUDA version the driver supports: 13000 = 13.0
  std::vector<DeviceReport> devices;
  std::string deviceError;        // a failure while listing devices
  std::vector<LinkReport> links;  // every pair of devices
  std::string linkNote;           // why the links' kinds are unknown (no NVML), if they are

  // NVRTC.
  bool nvrtcFound = false;
  std::string nvrtcPath;
  std::string nvrtcError;
  int nvrtcMajor = 0;
  int nvrtcMinor = 0;
  std::vector<int> nvrtcArchs;  // architectures NVRTC compiles for

  // Environment variables that change the outcome.
  // NCCL (libnccl.so.2, loaded with dlopen as NVRTC is: $CULIFT_NCCL_PATH, the loader's search
  // path, the CUDA toolkit's lib64): the collectives a launch over several GPUs would use.
  bool ncclFound = false;
  std::string ncclPath;
  std::string ncclError;
  int ncclVersion = 0;  // ncclGetVersion: 22805 = 2.28.5
  std::string ncclVersionText() const;

  bool cudaVisibleDevicesSet = false;
  std::string cudaVisibleDevices;
  std::string ldLibraryPath;

  // The CPU backends: kernels compiled for the host (cpujit/) and the interpreter.
  bool cpuCompiledAvailable = false;
  std::string cpuCompiledHost;   // "x86_64-pc-linux-gnu, CPU znver3"
  std::string cpuCompiledError;  // why not
  bool interpreterAvailable = false;
  unsigned cpuThreads = 0;  // the cores a CPU launch runs on

  bool gpuUsable() const;  // a driver, a device, NVRTC, and a target NVRTC can compile for
  // The backend a plain launch takes: "gpu", else "cpu" (compiled), else "interp".
  std::string chosenBackend() const;
};

struct FixSuggestion {
  enum class Severity { Error, Warning, Note };
  Severity severity = Severity::Error;
  std::string title;             // one line: what is wrong
  std::string detail;            // what to do about it, concretely
  std::string toString() const;  // "error: title"
};

EnvironmentReport probeEnvironment();
// The number of GPUs the CUDA driver lists (after $CUDA_VISIBLE_DEVICES); 0 without a driver or
// where it fails to start. Cheap: no NVRTC, no NVML.
int gpuCount();
std::vector<FixSuggestion> suggestFixes(const EnvironmentReport& report);

// The report for people, and as JSON (report and suggestions in one object).
std::string formatReport(const EnvironmentReport& report, const std::vector<FixSuggestion>& suggestions);
std::string reportJson(const EnvironmentReport& report, const std::vector<FixSuggestion>& suggestions);

}  // namespace culift::rt
