// Error types and the status-name tables. The driver stub answers cuGetErrorName with nothing,
// so the names of CUresult codes live here (from the CUDA 13 headers).
#include "culift/runtime/error.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace culift::rt {
namespace {

struct StatusName {
  int status;
  const char* name;
};

constexpr StatusName kCudaStatusNames[] = {
    {0, "CUDA_SUCCESS"},
    {1, "CUDA_ERROR_INVALID_VALUE"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY"},
    {3, "CUDA_ERROR_NOT_INITIALIZED"},
    {4, "CUDA_ERROR_DEINITIALIZED"},
    {5, "CUDA_ERROR_PROFILER_DISABLED"},
    {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"},
    {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"},
    {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"},
    {34, "CUDA_ERROR_STUB_LIBRARY"},
    {36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
    {100, "CUDA_ERROR_NO_DEVICE"},
    {101, "CUDA_ERROR_INVALID_DEVICE"},
    {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
    {200, "CUDA_ERROR_INVALID_IMAGE"},
    {201, "CUDA_ERROR_INVALID_CONTEXT"},
    {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"},
    {205, "CUDA_ERROR_MAP_FAILED"},
    {206, "CUDA_ERROR_UNMAP_FAILED"},
    {207, "CUDA_ERROR_ARRAY_IS_MAPPED"},
    {208, "CUDA_ERROR_ALREADY_MAPPED"},
    {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
    {210, "CUDA_ERROR_ALREADY_ACQUIRED"},
    {211, "CUDA_ERROR_NOT_MAPPED"},
    {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"},
    {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"},
    {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
    {215, "CUDA_ERROR_UNSUPPORTED_LIMIT"},
    {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"},
    {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
    {218, "CUDA_ERROR_INVALID_PTX"},
    {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"},
    {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"},
    {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
    {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
    {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
    {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"},
    {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"},
    {226, "CUDA_ERROR_CONTAINED"},
    {300, "CUDA_ERROR_INVALID_SOURCE"},
    {301, "CUDA_ERROR_FILE_NOT_FOUND"},
    {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"},
    {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"},
    {304, "CUDA_ERROR_OPERATING_SYSTEM"},
    {400, "CUDA_ERROR_INVALID_HANDLE"},
    {401, "CUDA_ERROR_ILLEGAL_STATE"},
    {402, "CUDA_ERROR_LOSSY_QUERY"},
    {500, "CUDA_ERROR_NOT_FOUND"},
    {600, "CUDA_ERROR_NOT_READY"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
    {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
    {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"},
    {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
    {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"},
    {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"},
    {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"},
    {710, "CUDA_ERROR_ASSERT"},
    {711, "CUDA_ERROR_TOO_MANY_PEERS"},
    {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
    {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
    {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
    {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
    {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
    {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
    {718, "CUDA_ERROR_INVALID_PC"},
    {719, "CUDA_ERROR_LAUNCH_FAILED"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
    {721, "CUDA_ERROR_TENSOR_MEMORY_LEAK"},
    {800, "CUDA_ERROR_NOT_PERMITTED"},
    {801, "CUDA_ERROR_NOT_SUPPORTED"},
    {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
    {805, "CUDA_ERROR_MPS_CONNECTION_FAILED"},
    {806, "CUDA_ERROR_MPS_RPC_FAILURE"},
    {807, "CUDA_ERROR_MPS_SERVER_NOT_READY"},
    {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"},
    {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"},
    {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"},
    {811, "CUDA_ERROR_CDP_NOT_SUPPORTED"},
    {812, "CUDA_ERROR_CDP_VERSION_MISMATCH"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
    {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"},
    {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"},
    {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"},
    {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"},
    {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"},
    {907, "CUDA_ERROR_CAPTURED_EVENT"},
    {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
    {909, "CUDA_ERROR_TIMEOUT"},
    {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
    {911, "CUDA_ERROR_EXTERNAL_DEVICE"},
    {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
    {913, "CUDA_ERROR_FUNCTION_NOT_LOADED"},
    {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"},
    {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"},
    {916, "CUDA_ERROR_KEY_ROTATION"},
    {999, "CUDA_ERROR_UNKNOWN"},
};

struct StatusDescription {
  int status;
  const char* text;
};

// Descriptions for the codes a user of culift meets in practice; others get their name only.
constexpr StatusDescription kCudaStatusDescriptions[] = {
    {0, "no error"},
    {1, "an argument of the call is invalid"},
    {2, "the device is out of memory"},
    {3, "the driver has not been initialized (cuInit)"},
    {4, "the driver is shutting down"},
    {34, "the CUDA driver stub library was loaded instead of the real driver (no NVIDIA driver installed)"},
    {35, "the installed NVIDIA driver is older than the CUDA runtime requires"},
    {46, "every device is busy or unavailable (exclusive compute mode?)"},
    {100, "no CUDA-capable device was detected"},
    {101, "the device ordinal is out of range"},
    {200, "the kernel image is invalid (built for another architecture?)"},
    {201, "no context is current on this thread"},
    {209, "the image holds no code for this device's architecture"},
    {218, "the PTX could not be compiled by the driver"},
    {222, "the PTX was generated by a newer toolkit than the driver supports: update the driver"},
    {400, "the handle is invalid"},
    {500, "the named symbol (kernel) was not found in the module"},
    {700, "the kernel accessed memory out of bounds (illegal address); the context is unusable"},
    {701, "the launch needs more resources (registers, shared memory) than the device has"},
    {702, "the kernel ran too long and was stopped by the watchdog"},
    {710, "a device-side assertion failed (the kernel printed its condition and location); the context is unusable"},
    {719, "the kernel failed (illegal instruction, misaligned access, ...); the context is unusable"},
    {999, "an unknown error occurred"},
};

}  // namespace

std::string cudaErrorName(int status) {
  auto it = std::find_if(std::begin(kCudaStatusNames), std::end(kCudaStatusNames),
                         [&](const StatusName& s) { return s.status == status; });
  if (it != std::end(kCudaStatusNames)) return it->name;
  return "CUDA_ERROR_" + std::to_string(status);
}

std::string cudaErrorDescription(int status) {
  auto it = std::find_if(std::begin(kCudaStatusDescriptions), std::end(kCudaStatusDescriptions),
                         [&](const StatusDescription& s) { return s.status == status; });
  if (it != std::end(kCudaStatusDescriptions)) return it->text;
  return {};
}

std::string nvrtcResultName(int status) {
  static constexpr const char* kNames[] = {
      "NVRTC_SUCCESS",
      "NVRTC_ERROR_OUT_OF_MEMORY",
      "NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
      "NVRTC_ERROR_INVALID_INPUT",
      "NVRTC_ERROR_INVALID_PROGRAM",
      "NVRTC_ERROR_INVALID_OPTION",
      "NVRTC_ERROR_COMPILATION",
      "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
      "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
      "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
      "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
      "NVRTC_ERROR_INTERNAL_ERROR",
      "NVRTC_ERROR_TIME_FILE_WRITE_FAILED",
      "NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED",
      "NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED",
      "NVRTC_ERROR_PCH_CREATE",
      "NVRTC_ERROR_CANCELLED",
      "NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED",
  };
  if (status >= 0 && status < static_cast<int>(std::size(kNames))) return kNames[status];
  return "NVRTC_ERROR_" + std::to_string(status);
}

namespace {
std::string cudaMessage(const std::string& call, int status, const std::string& name, const std::string& description,
                        const std::string& context) {
  std::string m = call + " failed: " + name + " (" + std::to_string(status) + ")";
  if (!description.empty()) m += ": " + description;
  if (!context.empty()) m += " while " + context;
  return m;
}

std::string compileMessage(const std::string& program, const std::string& log, const std::vector<std::string>& options,
                           int arch) {
  std::string m = "NVRTC could not compile '" + program + "' for sm_" + std::to_string(arch) + "\noptions:";
  for (const auto& o : options) m += " " + o;
  m += "\nlog:\n" + log;
  return m;
}
}  // namespace

CudaError::CudaError(std::string call, int status, std::string statusName, std::string description, std::string context)
    : Error(cudaMessage(call, status, statusName, description, context)),
      call_(std::move(call)),
      status_(status),
      name_(std::move(statusName)) {}

NvrtcError::NvrtcError(std::string call, int status, std::string statusName)
    : Error(call + " failed: " + statusName), call_(std::move(call)), status_(status), name_(std::move(statusName)) {}

CompileError::CompileError(std::string programName, std::string log, std::vector<std::string> options, int arch)
    : Error(compileMessage(programName, log, options, arch)),
      program_(std::move(programName)),
      log_(std::move(log)),
      options_(std::move(options)),
      arch_(arch) {}

KernelError::KernelError(Diagnostic d) : Error(d.format()), diag_(std::move(d)) {}

}  // namespace culift::rt
