// NVRTC through dlopen: loads, compiles real kernels to sm_90 cubins and PTX, and keeps the
// log and options of a failed compile. Needs NVRTC but no GPU.
#include <algorithm>
#include <string>

#include "catch.hpp"
#include "culift/runtime/nvrtc.hpp"

using namespace culift::rt;

namespace {
const char* kSaxpy = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
)";

std::shared_ptr<const Nvrtc> loadOrFail() {
  std::string why;
  auto nvrtc = Nvrtc::load(&why);
  INFO(why);
  REQUIRE(nvrtc);
  return nvrtc;
}
}  // namespace

TEST_CASE("NVRTC loads and reports its version and architectures", "[nvrtc]") {
  auto nvrtc = loadOrFail();
  CHECK(nvrtc->versionMajor() >= 11);
  CHECK(nvrtc->libraryPath().find("libnvrtc") != std::string::npos);
  auto archs = nvrtc->supportedArchs();
  REQUIRE_FALSE(archs.empty());
  CHECK(std::find(archs.begin(), archs.end(), 90) != archs.end());
  CHECK(std::is_sorted(archs.begin(), archs.end()));
}

TEST_CASE("NVRTC compiles a kernel to an sm_90 cubin", "[nvrtc]") {
  auto nvrtc = loadOrFail();
  CompileOutput out = nvrtc->compile(kSaxpy, "saxpy.cu", 90, true);
  INFO(out.log);
  REQUIRE(out.ok);
  CHECK(out.cubin);
  REQUIRE(out.image.size() > 4);
  // A cubin is an ELF file.
  CHECK(std::string(out.image.begin(), out.image.begin() + 4) ==
        "\x7f"
        "ELF");
  CHECK(out.options == std::vector<std::string>{"-arch=sm_90a"});  // machine code for sm_90: sm_90a
  CHECK(out.milliseconds > 0);
}

TEST_CASE("NVRTC compiles a kernel to PTX for compute_90", "[nvrtc]") {
  auto nvrtc = loadOrFail();
  CompileOutput out = nvrtc->compile(kSaxpy, "saxpy.cu", 90, false, {"--fmad=false"});
  INFO(out.log);
  REQUIRE(out.ok);
  CHECK_FALSE(out.cubin);
  std::string ptx(out.image.data());
  CHECK(ptx.find(".target sm_90") != std::string::npos);
  CHECK(ptx.find(".entry saxpy") != std::string::npos);
  // Contraction off: the multiply and the add stay separate instructions.
  CHECK(ptx.find("fma.rn.f32") == std::string::npos);
  CHECK(ptx.find("mul.rn.f32") != std::string::npos);
  CHECK(out.options == std::vector<std::string>{"-arch=compute_90", "--fmad=false"});
}

TEST_CASE("a failed compile keeps the log with the user's line and the options", "[nvrtc]") {
  auto nvrtc = loadOrFail();
  const char* bad = "#line 12 \"metrics.hpp\"\nextern \"C\" __global__ void k(float* y) { y[0] = undefined_name; }\n";
  CompileOutput out = nvrtc->compile(bad, "bad.cu", 90, true, {"--fmad=false"});
  CHECK_FALSE(out.ok);
  CHECK(out.image.empty());
  CHECK(out.log.find("metrics.hpp(12)") != std::string::npos);
  CHECK(out.log.find("undefined_name") != std::string::npos);
  CHECK(out.options == std::vector<std::string>{"-arch=sm_90a", "--fmad=false"});
}

TEST_CASE("an invalid option fails the compile with a reason", "[nvrtc]") {
  auto nvrtc = loadOrFail();
  CompileOutput out = nvrtc->compile(kSaxpy, "saxpy.cu", 90, true, {"--no-such-option"});
  CHECK_FALSE(out.ok);
  CHECK_FALSE(out.log.empty());
}
