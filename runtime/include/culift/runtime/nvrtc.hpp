// NVRTC, loaded with dlopen (libnvrtc.so.13, other sonames, or a configured path), so every
// binary starts on machines without CUDA. Clang-free, usable without a GPU.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace culift::rt {

struct CompileOutput {
  bool ok = false;
  std::string log;                   // NVRTC's program log (warnings too)
  std::vector<std::string> options;  // the options passed
  std::vector<char> image;           // cubin (binary) or PTX (text), per `cubin`
  bool cubin = true;
  double milliseconds = 0;  // wall time of nvrtcCompileProgram + image retrieval
};

// The -arch option for `arch` (machine code where `cubin`, else PTX): machine code for sm_90 is
// for the architecture-specific sm_90a (the device is that architecture), so that the entries on
// warpgroups (wgmma) compile; PTX stays portable.
std::string nvrtcArchOption(int arch, bool cubin);

class Nvrtc {
 public:
  // Loads NVRTC. Search: $CULIFT_NVRTC_PATH, libnvrtc.so.13, libnvrtc.so.12, libnvrtc.so,
  // /usr/local/cuda/lib64/libnvrtc.so*. Returns null and sets `whyNot` when none loads.
  static std::shared_ptr<const Nvrtc> load(std::string* whyNot = nullptr);

  int versionMajor() const;
  int versionMinor() const;
  std::string libraryPath() const;          // the file that was loaded
  std::vector<int> supportedArchs() const;  // e.g. {75, 80, 86, 89, 90, 100, 120}

  // Compiles `source` for compute capability `arch` (90 = sm_90): a cubin when `cubin`,
  // else PTX for compute_XY. `extraOptions` are appended (e.g. "--fmad=false").
  CompileOutput compile(const std::string& source, const std::string& programName, int arch, bool cubin,
                        const std::vector<std::string>& extraOptions = {}) const;

  ~Nvrtc();
  struct Impl;

 private:
  explicit Nvrtc(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace culift::rt
