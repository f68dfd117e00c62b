#include "driver_api.hpp"

#include <cstdlib>
#include <initializer_list>

#include "culift/runtime/error.hpp"

namespace culift::rt::detail {
namespace {

// Resolves the first of `names` the driver exports (newest ABI first).
template <typename Fn>
bool resolveAny(const DynamicLibrary& lib, Fn*& fn, std::initializer_list<const char*> names, std::string& missing) {
  for (const char* n : names)
    if (lib.resolve(fn, n)) return true;
  if (!missing.empty()) missing += ", ";
  missing += *names.begin();
  return false;
}

}  // namespace

std::shared_ptr<const DriverApi> DriverApi::load(std::string* whyNot) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("CULIFT_CUDA_DRIVER_PATH"); env && *env) candidates.emplace_back(env);
  candidates.emplace_back("libcuda.so.1");
  candidates.emplace_back("libcuda.so");
  std::string reasons;
  auto api = std::make_shared<DriverApi>();
  api->library = DynamicLibrary::openFirst(candidates, &reasons);
  if (!api->library) {
    if (whyNot) *whyNot = "the CUDA driver (libcuda.so.1) was not found:\n" + reasons;
    return nullptr;
  }
  const DynamicLibrary& lib = api->library;
  std::string missing;
  resolveAny(lib, api->cuInit, {"cuInit"}, missing);
  resolveAny(lib, api->cuDriverGetVersion, {"cuDriverGetVersion"}, missing);
  resolveAny(lib, api->cuDeviceGetCount, {"cuDeviceGetCount"}, missing);
  resolveAny(lib, api->cuDeviceGet, {"cuDeviceGet"}, missing);
  resolveAny(lib, api->cuDeviceGetName, {"cuDeviceGetName"}, missing);
  resolveAny(lib, api->cuDeviceGetAttribute, {"cuDeviceGetAttribute"}, missing);
  resolveAny(lib, api->cuDeviceTotalMem, {"cuDeviceTotalMem_v2", "cuDeviceTotalMem"}, missing);
  resolveAny(lib, api->cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"}, missing);
  resolveAny(lib, api->cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"},
             missing);
  resolveAny(lib, api->cuCtxSetCurrent, {"cuCtxSetCurrent"}, missing);
  resolveAny(lib, api->cuCtxSynchronize, {"cuCtxSynchronize"}, missing);
  resolveAny(lib, api->cuMemGetInfo, {"cuMemGetInfo_v2", "cuMemGetInfo"}, missing);
  resolveAny(lib, api->cuModuleLoadDataEx, {"cuModuleLoadDataEx"}, missing);
  resolveAny(lib, api->cuModuleUnload, {"cuModuleUnload"}, missing);
  resolveAny(lib, api->cuModuleGetFunction, {"cuModuleGetFunction"}, missing);
  resolveAny(lib, api->cuFuncSetAttribute, {"cuFuncSetAttribute"}, missing);
  resolveAny(lib, api->cuMemAlloc, {"cuMemAlloc_v2", "cuMemAlloc"}, missing);
  resolveAny(lib, api->cuMemFree, {"cuMemFree_v2", "cuMemFree"}, missing);
  resolveAny(lib, api->cuMemcpyHtoD, {"cuMemcpyHtoD_v2", "cuMemcpyHtoD"}, missing);
  resolveAny(lib, api->cuMemcpyDtoH, {"cuMemcpyDtoH_v2", "cuMemcpyDtoH"}, missing);
  resolveAny(lib, api->cuMemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2", "cuMemcpyHtoDAsync"}, missing);
  resolveAny(lib, api->cuMemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2", "cuMemcpyDtoHAsync"}, missing);
  resolveAny(lib, api->cuMemsetD8, {"cuMemsetD8_v2", "cuMemsetD8"}, missing);
  resolveAny(lib, api->cuMemsetD8Async, {"cuMemsetD8Async"}, missing);
  resolveAny(lib, api->cuLaunchKernel, {"cuLaunchKernel"}, missing);
  resolveAny(lib, api->cuStreamCreate, {"cuStreamCreate"}, missing);
  resolveAny(lib, api->cuStreamDestroy, {"cuStreamDestroy_v2", "cuStreamDestroy"}, missing);
  resolveAny(lib, api->cuStreamSynchronize, {"cuStreamSynchronize"}, missing);
  resolveAny(lib, api->cuStreamWaitEvent, {"cuStreamWaitEvent"}, missing);
  resolveAny(lib, api->cuEventCreate, {"cuEventCreate"}, missing);
  resolveAny(lib, api->cuEventRecord, {"cuEventRecord"}, missing);
  resolveAny(lib, api->cuEventSynchronize, {"cuEventSynchronize"}, missing);
  resolveAny(lib, api->cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"}, missing);
  resolveAny(lib, api->cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"}, missing);
  resolveAny(lib, api->cuOccupancyMaxPotentialBlockSize, {"cuOccupancyMaxPotentialBlockSize"}, missing);
  lib.resolve(api->cuGetErrorName, "cuGetErrorName");
  lib.resolve(api->cuMemcpy, "cuMemcpy");
  lib.resolve(api->cuGetErrorString, "cuGetErrorString");
  // Optional: graphs. Only these names: the older cuStreamBeginCapture takes no mode, and the older
  // cuGraphInstantiate (_v2) takes an error node and a log buffer in place of the flags.
  lib.resolve(api->cuStreamBeginCapture, "cuStreamBeginCapture_v2");
  lib.resolve(api->cuStreamEndCapture, "cuStreamEndCapture");
  lib.resolve(api->cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
  lib.resolve(api->cuGraphLaunch, "cuGraphLaunch");
  lib.resolve(api->cuGraphExecDestroy, "cuGraphExecDestroy");
  lib.resolve(api->cuGraphDestroy, "cuGraphDestroy");
  lib.resolve(api->cuStreamIsCapturing, "cuStreamIsCapturing");
  lib.resolve(api->cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  lib.resolve(api->cuLaunchKernelEx, "cuLaunchKernelEx");
  lib.resolve(api->cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer");
  lib.resolve(api->cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId");
  if (!missing.empty()) {
    if (whyNot)
      *whyNot = lib.path() + " lacks driver entry points culift needs (" + missing + "): the driver is too old";
    return nullptr;
  }
  return api;
}

std::string DriverApi::missingGraphEntries() const {
  std::string missing;
  auto note = [&](bool present, const char* name) {
    if (!present) missing += (missing.empty() ? "" : ", ") + std::string(name);
  };
  note(cuStreamBeginCapture != nullptr, "cuStreamBeginCapture_v2");
  note(cuStreamEndCapture != nullptr, "cuStreamEndCapture");
  note(cuGraphInstantiateWithFlags != nullptr, "cuGraphInstantiateWithFlags");
  note(cuGraphLaunch != nullptr, "cuGraphLaunch");
  note(cuGraphExecDestroy != nullptr, "cuGraphExecDestroy");
  note(cuGraphDestroy != nullptr, "cuGraphDestroy");
  return missing;
}

std::string DriverApi::errorName(CUresult status) const {
  // The table first: the stub library answers cuGetErrorName with nothing useful.
  std::string name = cudaErrorName(status);
  if (name.rfind("CUDA_ERROR_", 0) == 0 && name != "CUDA_ERROR_" + std::to_string(status)) return name;
  const char* s = nullptr;
  if (cuGetErrorName && cuGetErrorName(status, &s) == kCudaSuccess && s) return s;
  return name;
}

std::string DriverApi::errorDescription(CUresult status) const {
  std::string d = cudaErrorDescription(status);
  if (!d.empty()) return d;
  const char* s = nullptr;
  if (cuGetErrorString && cuGetErrorString(status, &s) == kCudaSuccess && s) return s;
  return {};
}

void DriverApi::fail(CUresult status, const char* call, const char* context) const {
  throw CudaError(call, status, errorName(status), errorDescription(status), context ? context : "");
}

}  // namespace culift::rt::detail
