// NVRTC through dlopen. The few entry points used are declared here (nvrtc.h is not needed to
// build): the runtime compiles on machines without the CUDA toolkit.
#include "culift/runtime/nvrtc.hpp"

#include <chrono>
#include <cstdlib>
#include <utility>

#include "culift/runtime/error.hpp"
#include "dynamic_library.hpp"

namespace culift::rt {
namespace {

using nvrtcResult = int;  // NVRTC_SUCCESS = 0
struct NvrtcProgramOpaque;
using nvrtcProgram = NvrtcProgramOpaque*;
constexpr nvrtcResult kNvrtcSuccess = 0;

}  // namespace

struct Nvrtc::Impl {
  detail::DynamicLibrary library;
  int major = 0;
  int minor = 0;
  std::vector<int> archs;

  nvrtcResult (*version)(int*, int*) = nullptr;
  nvrtcResult (*getNumSupportedArchs)(int*) = nullptr;  // NVRTC 11.2+
  nvrtcResult (*getSupportedArchs)(int*) = nullptr;
  nvrtcResult (*createProgram)(nvrtcProgram*, const char*, const char*, int, const char* const*,
                               const char* const*) = nullptr;
  nvrtcResult (*destroyProgram)(nvrtcProgram*) = nullptr;
  nvrtcResult (*compileProgram)(nvrtcProgram, int, const char* const*) = nullptr;
  nvrtcResult (*getProgramLogSize)(nvrtcProgram, std::size_t*) = nullptr;
  nvrtcResult (*getProgramLog)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*getPTXSize)(nvrtcProgram, std::size_t*) = nullptr;
  nvrtcResult (*getPTX)(nvrtcProgram, char*) = nullptr;
  nvrtcResult (*getCUBINSize)(nvrtcProgram, std::size_t*) = nullptr;  // NVRTC 11.1+
  nvrtcResult (*getCUBIN)(nvrtcProgram, char*) = nullptr;

  void check(nvrtcResult r, const char* call) const {
    if (r != kNvrtcSuccess) throw NvrtcError(call, r, nvrtcResultName(r));
  }
};

namespace {

std::vector<std::string> candidatePaths() {
  std::vector<std::string> c;
  if (const char* env = std::getenv("CULIFT_NVRTC_PATH"); env && *env) c.emplace_back(env);
  for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so.13",
                           "/usr/local/cuda/lib64/libnvrtc.so.12", "/usr/local/cuda/lib64/libnvrtc.so"})
    c.emplace_back(name);
  return c;
}

// Owns one nvrtcProgram.
class ProgramHandle {
 public:
  ProgramHandle(const Nvrtc::Impl& nvrtc, nvrtcProgram p) : nvrtc_(nvrtc), program_(p) {}
  ProgramHandle(const ProgramHandle&) = delete;
  ProgramHandle& operator=(const ProgramHandle&) = delete;
  ~ProgramHandle() {
    if (program_) nvrtc_.destroyProgram(&program_);
  }
  nvrtcProgram get() const { return program_; }

 private:
  const Nvrtc::Impl& nvrtc_;
  nvrtcProgram program_;
};

}  // namespace

std::shared_ptr<const Nvrtc> Nvrtc::load(std::string* whyNot) {
  // CULIFT_NVRTC_PATH=none: as if there were no NVRTC (a check that an app runs on the cubins
  // it embeds alone).
  if (const char* env = std::getenv("CULIFT_NVRTC_PATH"); env && std::string(env) == "none") {
    if (whyNot) *whyNot = "NVRTC is turned off ($CULIFT_NVRTC_PATH=none)";
    return nullptr;
  }
  std::string reasons;
  auto impl = std::make_unique<Impl>();
  impl->library = detail::DynamicLibrary::openFirst(candidatePaths(), &reasons);
  if (!impl->library) {
    if (whyNot) *whyNot = "NVRTC (libnvrtc.so) was not found:\n" + reasons;
    return nullptr;
  }
  const auto& lib = impl->library;
  bool complete = lib.resolve(impl->version, "nvrtcVersion") &&
                  lib.resolve(impl->createProgram, "nvrtcCreateProgram") &&
                  lib.resolve(impl->destroyProgram, "nvrtcDestroyProgram") &&
                  lib.resolve(impl->compileProgram, "nvrtcCompileProgram") &&
                  lib.resolve(impl->getProgramLogSize, "nvrtcGetProgramLogSize") &&
                  lib.resolve(impl->getProgramLog, "nvrtcGetProgramLog") &&
                  lib.resolve(impl->getPTXSize, "nvrtcGetPTXSize") && lib.resolve(impl->getPTX, "nvrtcGetPTX");
  if (!complete) {
    if (whyNot) *whyNot = lib.path() + " does not export the NVRTC entry points culift needs";
    return nullptr;
  }
  lib.resolve(impl->getCUBINSize, "nvrtcGetCUBINSize");
  lib.resolve(impl->getCUBIN, "nvrtcGetCUBIN");
  lib.resolve(impl->getNumSupportedArchs, "nvrtcGetNumSupportedArchs");
  lib.resolve(impl->getSupportedArchs, "nvrtcGetSupportedArchs");

  if (impl->version(&impl->major, &impl->minor) != kNvrtcSuccess) {
    if (whyNot) *whyNot = lib.path() + ": nvrtcVersion failed";
    return nullptr;
  }
  if (impl->getNumSupportedArchs && impl->getSupportedArchs) {
    int count = 0;
    if (impl->getNumSupportedArchs(&count) == kNvrtcSuccess && count > 0) {
      impl->archs.resize(static_cast<std::size_t>(count));
      if (impl->getSupportedArchs(impl->archs.data()) != kNvrtcSuccess) impl->archs.clear();
    }
  }
  return std::shared_ptr<const Nvrtc>(new Nvrtc(std::move(impl)));
}

std::string nvrtcArchOption(int arch, bool cubin) {
  if (!cubin) return "-arch=compute_" + std::to_string(arch);
  return "-arch=sm_" + std::to_string(arch) + (arch == 90 ? "a" : "");
}

Nvrtc::Nvrtc(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Nvrtc::~Nvrtc() = default;

int Nvrtc::versionMajor() const { return impl_->major; }
int Nvrtc::versionMinor() const { return impl_->minor; }
std::string Nvrtc::libraryPath() const { return impl_->library.path(); }
std::vector<int> Nvrtc::supportedArchs() const { return impl_->archs; }

CompileOutput Nvrtc::compile(const std::string& source, const std::string& programName, int arch, bool cubin,
                             const std::vector<std::string>& extraOptions) const {
  const Impl& n = *impl_;
  CompileOutput out;
  // Without nvrtcGetCUBIN (NVRTC < 11.1) only PTX can be produced.
  out.cubin = cubin && n.getCUBIN && n.getCUBINSize;
  out.options.push_back(nvrtcArchOption(arch, out.cubin));
  out.options.insert(out.options.end(), extraOptions.begin(), extraOptions.end());

  auto start = std::chrono::steady_clock::now();
  nvrtcProgram raw = nullptr;
  n.check(n.createProgram(&raw, source.c_str(), programName.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
  ProgramHandle program(n, raw);

  std::vector<const char*> argv;
  argv.reserve(out.options.size());
  for (const auto& o : out.options) argv.push_back(o.c_str());
  nvrtcResult compiled = n.compileProgram(program.get(), static_cast<int>(argv.size()), argv.data());

  std::size_t logSize = 0;
  n.check(n.getProgramLogSize(program.get(), &logSize), "nvrtcGetProgramLogSize");
  if (logSize > 1) {
    out.log.resize(logSize);
    n.check(n.getProgramLog(program.get(), out.log.data()), "nvrtcGetProgramLog");
    while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  }
  if (compiled != kNvrtcSuccess) {
    // An invalid option fails without a log line: say which status it was.
    if (out.log.empty()) out.log = "nvrtcCompileProgram returned " + nvrtcResultName(compiled);
    out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return out;
  }

  std::size_t size = 0;
  if (out.cubin) {
    n.check(n.getCUBINSize(program.get(), &size), "nvrtcGetCUBINSize");
    out.image.resize(size);
    n.check(n.getCUBIN(program.get(), out.image.data()), "nvrtcGetCUBIN");
  } else {
    n.check(n.getPTXSize(program.get(), &size), "nvrtcGetPTXSize");
    out.image.resize(size);  // PTX text with its terminating NUL, as cuModuleLoadData wants
    n.check(n.getPTX(program.get(), out.image.data()), "nvrtcGetPTX");
  }
  out.ok = true;
  out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace culift::rt
