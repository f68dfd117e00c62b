// The CUDA driver API through dlopen. The handful of types and entry points culift uses are
// declared here (cuda.h is not needed to build), resolved by their current exported names
// (the _v2 forms where the driver has them). Every call goes through check(), which throws a
// CudaError naming the call; the message is built only on failure.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "dynamic_library.hpp"

namespace culift::rt::detail {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphExec_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;
using CUgraph = CUgraph_st*;
using CUgraphExec = CUgraphExec_st*;
using CUoccupancyB2DSize = std::size_t (*)(int blockSize);

constexpr CUresult kCudaSuccess = 0;
constexpr CUresult kCudaErrorNotReady = 600;

// cuStreamCreate flags: CU_STREAM_NON_BLOCKING, no implicit synchronization with the default stream.
constexpr unsigned kStreamNonBlocking = 0x1;
// CUstreamCaptureMode: CU_STREAM_CAPTURE_MODE_THREAD_LOCAL, unsafe calls refused on the capturing thread only.
constexpr int kCaptureModeThreadLocal = 1;

// Device attributes culift reads (values of CUdevice_attribute).
enum DeviceAttribute : int {
  kAttrMaxThreadsPerBlock = 1,
  kAttrMaxBlockDimX = 2,
  kAttrMaxBlockDimY = 3,
  kAttrMaxBlockDimZ = 4,
  kAttrMaxGridDimX = 5,
  kAttrMaxGridDimY = 6,
  kAttrMaxGridDimZ = 7,
  kAttrWarpSize = 10,
  kAttrMultiprocessorCount = 16,
  kAttrComputeCapabilityMajor = 75,
  kAttrComputeCapabilityMinor = 76,
  kAttrMaxSharedMemoryPerBlockOptin = 97,
};

// cuTensorMapEncodeTiled's enumerators culift passes: CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
// CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
// CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE (elements outside the matrix read as zeros).
enum TensorMapEnum : int {
  kTensorMapFloat32 = 7,
  kTensorMapInterleaveNone = 0,
  kTensorMapSwizzle128 = 3,
  kTensorMapL2Promotion256 = 3,
  kTensorMapFillZeros = 0,
};

// cuLaunchKernelEx's configuration (CUlaunchConfig) with one attribute (CUlaunchAttribute: its
// id, padding to 8 bytes, a 64-byte union of values), and the one attribute culift sets:
// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION (value: an int, nonzero allows the
// launch to overlap the previous kernel on the stream where that kernel triggers it).
struct LaunchAttribute {
  int id = 0;
  char pad[4] = {};
  union {
    char bytes[64];
    int value;
    void* align;
  } value{};
};
static_assert(sizeof(LaunchAttribute) == 72);
struct LaunchConfig {
  unsigned gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes;
  CUstream stream;
  LaunchAttribute* attributes;
  unsigned attributeCount;
};
static_assert(offsetof(LaunchConfig, stream) == 32 && offsetof(LaunchConfig, attributes) == 40 &&
              sizeof(LaunchConfig) == 56);
constexpr int kLaunchAttrProgrammaticStreamSerialization = 6;

// CUfunction_attribute values.
enum FunctionAttribute : int {
  kFuncAttrMaxDynamicSharedSizeBytes = 8,
};

// JIT options for cuModuleLoadDataEx (values of CUjit_option).
enum JitOption : int {
  kJitInfoLogBuffer = 3,
  kJitInfoLogBufferSizeBytes = 4,
  kJitErrorLogBuffer = 5,
  kJitErrorLogBufferSizeBytes = 6,
};

struct DriverApi {
  DynamicLibrary library;

  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int*) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;    // optional
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;  // optional
  CUresult (*cuDeviceGetCount)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(std::size_t*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuMemGetInfo)(std::size_t*, std::size_t*) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr*, std::size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, std::size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, std::size_t) = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, std::size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, std::size_t, CUstream) = nullptr;
  // Optional: a copy between any two device pointers (unified addressing: another device's too).
  CUresult (*cuMemcpy)(CUdeviceptr, CUdeviceptr, std::size_t) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, std::size_t) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, std::size_t, CUstream) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**) = nullptr;
  // Optional (CUDA 12): a launch with attributes (an entry's edge kernel overlapping the entry).
  CUresult (*cuLaunchKernelEx)(const LaunchConfig*, CUfunction, void**, void**) = nullptr;
  CUresult (*cuStreamCreate)(CUstream*, unsigned) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned) = nullptr;
  CUresult (*cuEventCreate)(CUevent*, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  CUresult (*cuOccupancyMaxPotentialBlockSize)(int*, int*, CUfunction, CUoccupancyB2DSize, std::size_t, int) = nullptr;
  // CUDA graphs (Pipeline), optional: a driver without them runs pipelines launch by launch. Capture
  // with a mode is cuStreamBeginCapture_v2 (CUDA 10.1); instantiation with flags, CUDA 11.4.
  CUresult (*cuStreamBeginCapture)(CUstream, int) = nullptr;
  CUresult (*cuStreamEndCapture)(CUstream, CUgraph*) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec*, CUgraph, unsigned long long) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph) = nullptr;
  // Whether a stream is capturing (CUstreamCaptureStatus: 0 none, 1 active, 2 invalidated):
  // a launch that would time its entries (tuning.hpp) does not while it is.
  CUresult (*cuStreamIsCapturing)(CUstream, int*) = nullptr;
  // Optional (CUDA 12): a tensor map for bulk tensor copies, 128 bytes (CUtensorMap), encoded as
  // cuTensorMapEncodeTiled(map, data type, rank, address, dims, strides (rank - 1, bytes), box,
  // element strides, interleave, swizzle, L2 promotion, out-of-bounds fill).
  CUresult (*cuTensorMapEncodeTiled)(void*, int, unsigned, void*, const unsigned long long*, const unsigned long long*,
                                     const unsigned*, const unsigned*, int, int, int, int) = nullptr;
  // Between devices, optional (culift probe lists the links).
  CUresult (*cuDeviceCanAccessPeer)(int*, CUdevice, CUdevice) = nullptr;
  CUresult (*cuDeviceGetPCIBusId)(char*, int, CUdevice) = nullptr;

  // Loads libcuda.so.1 ($CULIFT_CUDA_DRIVER_PATH first). Null plus a reason when it is absent or
  // lacks an entry point. Does not call cuInit.
  static std::shared_ptr<const DriverApi> load(std::string* whyNot);

  // The graph entry points the driver lacks ("cuStreamBeginCapture_v2, ..."); empty when it has all.
  std::string missingGraphEntries() const;

  // Throws CudaError for a failed call; `context` says what culift was doing.
  void check(CUresult status, const char* call, const char* context = nullptr) const {
    if (status != kCudaSuccess) fail(status, call, context);
  }
  [[noreturn]] void fail(CUresult status, const char* call, const char* context) const;

  std::string errorName(CUresult status) const;
  std::string errorDescription(CUresult status) const;
};

}  // namespace culift::rt::detail
