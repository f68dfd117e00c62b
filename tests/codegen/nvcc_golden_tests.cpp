// The emitted CUDA compiles with nvcc too, not only with NVRTC: every golden input, translated
// and compiled as a CUDA project would (`nvcc -arch=sm_90 --cubin`), two compiles at a time.
// Without nvcc the check says "skipped: nvcc not found" — or fails, where the CUDA toolkit is
// required (CULIFT_REQUIRE_NVRTC=1).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/codegen.hpp"
#include "culift/translate.hpp"
#include "gpu_skip.hpp"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "temp_files.hpp"

namespace fs = std::filesystem;
using namespace culift;

namespace {

// The nvcc found at build time, or "" where the check skips (it fails instead where the CUDA
// toolkit is required).
std::string nvccOrSkip() {
  const std::string nvcc = CULIFT_NVCC;
  if (!nvcc.empty() && fs::exists(nvcc)) return nvcc;
  if (test::nvrtcRequired()) FAIL("nvcc not found, and CULIFT_REQUIRE_NVRTC=1 requires the CUDA toolkit");
  WARN("skipped: nvcc not found (CUDA toolkit not installed at build time)");
  return {};
}

}  // namespace

TEST_CASE("every golden's emitted CUDA compiles with nvcc", "[codegen][golden][nvcc]") {
  const std::string nvcc = nvccOrSkip();
  if (nvcc.empty()) return;
  std::vector<fs::path> inputs;
  for (const auto& e : fs::directory_iterator(fs::path(CULIFT_TEST_DATA_DIR) / "codegen" / "golden"))
    if (e.is_regular_file() && e.path().extension() == ".cpp") inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  REQUIRE(inputs.size() >= 20);
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-nvcc", dir));

  TranslateOptions options;
  options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
  std::vector<std::string> sources;
  for (const fs::path& input : inputs) {
    TranslateResult r = translate(input.string(), options);
    INFO(input.filename().string() << "\n" << r.formatDiagnostics());
    REQUIRE(r.ok());
    const std::string cu = std::string(dir) + "/" + input.stem().string() + ".cu";
    // With the host launchers (culift emit --launchers): nvcc compiles those too.
    std::ofstream(cu) << emitCuda(*r.module, EmitOptions{true, true});
    sources.push_back(cu);
  }

  std::mutex mutex;
  std::vector<std::string> failures;
  llvm::ThreadPool pool(llvm::hardware_concurrency(2));
  for (const std::string& cu : sources)
    pool.async([&, cu] {
      const std::string cubin = cu + ".o", log = cu + ".log";
      llvm::StringRef args[] = {nvcc, "-arch=sm_90", "-c", cu, "-o", cubin};
      const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(log),
                                                          llvm::StringRef(log)};
      const int status = culift::test::executeAndWait(nvcc, args, std::nullopt, redirects, 300);
      if (status == 0 && fs::exists(cubin) && fs::file_size(cubin) > 0) return;
      std::ifstream in(log);
      std::ostringstream text;
      text << in.rdbuf();
      std::lock_guard lock(mutex);
      failures.push_back(fs::path(cu).filename().string() + " (exit " + std::to_string(status) + "):\n" +
                         text.str().substr(0, 2000));
    });
  pool.wait();
  llvm::sys::fs::remove_directories(std::string(dir));
  std::string listed;
  for (const std::string& f : failures) listed += f + "\n";
  INFO(listed);
  CHECK(failures.empty());
  WARN(sources.size() << " golden modules and their launchers compiled by nvcc for sm_90");
}

// The benchmark's kernels (the shapes the loop plans are tuned on): every plan entry fits its
// registers on sm_90, as ptxas of this toolkit allocates them. An entry that spills where it did not
// (a change that holds one more value across a loop of products, a tile whose sums no longer fit
// __launch_bounds__' budget) fails here, before a GPU measures it. An exact tile's edge kernel
// (`<entry>_edge`) is held to the same, and so are the forms where they are functions of their own
// (`culift_<entry>_whole` and `culift_<entry>_edge`, the batched tiles'). Two entries spill a few
// bytes today, outside their loops' products as far as their measured speed tells; the batched
// 128-wide tiles' checked forms a few bytes (values of the thread's tile that their loops reload,
// in loops of a third fewer instructions than the one form's; with the checked form's call in the
// entry's kernel, before the edge kernels, the batched GEMM's kernel and whole form spilled 8 B
// each); they may not spill more. The TF32 256-row entry on warpgroups compiled
// for sm_90 (not sm_90a) holds its mma.sync body, 128 sums a thread in a block of 384 threads (its copying warpgroup's,
// idle there): 168 registers, and it spills; the runtime compiles sm_90 as sm_90a, where its wgmma body spills nothing
// (the sm_90a test below), so only a program built by nvcc for sm_90 runs this body. The convolution's 64-channel entry
// holds tiles of 96 channels, 48 sums a thread at two blocks a multiprocessor (128 registers): it spills 52 B, and so
// measured it runs KernelBench's conv2d in 2.41 ms on an H100 against 3.30 in tiles of 64 alone (bench/gpu/NOTES.md,
// "Tenth run").
TEST_CASE("the benchmark's plan entries compile for sm_90 without spilling registers", "[codegen][nvcc]") {
  const std::string nvcc = nvccOrSkip();
  if (nvcc.empty()) return;
  const std::map<std::string, int> known = {{"BatchedGemmCellTf32_tc128", 16},
                                            {"GemmCellTf32_wg256", 432},
                                            {"LongMatVec_split", 12},
                                            {"culift_BatchedGemmCell_batched128_edge", 4},
                                            {"culift_DoitgenCell_batched128_edge", 8},
                                            {"Conv2D_conv64x128", 52}};
  auto allowance = [&](const std::string& name) {
    const auto allowed = known.find(name);
    return allowed == known.end() ? 0 : allowed->second;
  };
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-nvcc-spills", dir));
  TranslateOptions options;
  options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
  std::size_t entries = 0, forms = 0, edges = 0;
  for (const char* header :
       {"bench/gpu/blas_cells.hpp", "bench/gpu/conv_kernels.hpp", "bench/gpu/stencil_kernels.hpp",
        "bench/gpu/reduction_kernels.hpp", "bench/gpu/column_cells.hpp", "examples/pearson/pearson_metrics.hpp"}) {
    INFO(header);
    TranslateResult r = translate(std::string(CULIFT_SOURCE_DIR) + "/" + header, options);
    INFO(r.formatDiagnostics());
    REQUIRE(r.ok());
    const std::string cu = std::string(dir) + "/" + fs::path(header).stem().string() + ".cu";
    const std::string cubin = cu + ".cubin", log = cu + ".log";
    std::ofstream(cu) << emitCuda(*r.module);
    llvm::StringRef args[] = {nvcc, "-arch=sm_90", "-cubin", "-Xptxas", "-v", cu, "-o", cubin};
    const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(log),
                                                        llvm::StringRef(log)};
    REQUIRE(culift::test::executeAndWait(nvcc, args, std::nullopt, redirects, 300) == 0);
    // ptxas -v: "Function properties for NAME" (an entry's, or a function's it calls), then "N bytes
    // stack frame, S bytes spill stores, L bytes spill loads".
    std::map<std::string, int> spills;
    std::ifstream in(log);
    std::string line, current;
    while (std::getline(in, line)) {
      if (const std::size_t at = line.find("Function properties for "); at != std::string::npos) {
        current = line.substr(at + std::string("Function properties for ").size());
        while (!current.empty() && (current.back() == ' ' || current.back() == '\r')) current.pop_back();
      } else if (const std::size_t at = line.find(" bytes spill stores"); at != std::string::npos && !current.empty()) {
        const std::size_t from = line.rfind(' ', at - 1) + 1;
        spills[current] = std::stoi(line.substr(from, at - from));
      }
    }
    for (const Function& fn : r.module->functions)
      for (const PlanEntry& e : fn.planEntries) {
        INFO(e.kernelName);
        REQUIRE(spills.count(e.kernelName) == 1);
        CHECK(spills[e.kernelName] <= allowance(e.kernelName));
        if (e.edgeKernel) {  // the blocks the entry leaves: a kernel of its own
          INFO(edgeKernelName(e));
          REQUIRE(spills.count(edgeKernelName(e)) == 1);
          CHECK(spills[edgeKernelName(e)] <= allowance(edgeKernelName(e)));
          ++edges;
        }
        for (const char* form : {"_edge", "_whole"})
          if (const auto f = spills.find("culift_" + e.kernelName + form); f != spills.end()) {
            INFO(f->first);
            CHECK(f->second <= allowance(f->first));
            ++forms;
          }
        ++entries;
      }
  }
  llvm::sys::fs::remove_directories(std::string(dir));
  CHECK(entries >= 40);
  // Both forms of the batched tiles, calls (the 2-D tiles' forms are inlined into the entry's
  // kernel and its edge kernel; tensor-core tiles: one form).
  CHECK(forms >= 7);
  CHECK(edges >= 10);  // the exact tiled entries: GEMM, syrk, syr2k, GramDot, batched, doitgen, ...
  WARN(entries << " plan entries of the benchmark's kernels compiled by nvcc for sm_90 within their registers");
}

// A CUDA program built by nvcc alone that calls the launchers of emitted kernels: 1-D, 2-D and
// C-order 3-D. It always compiles and links here; it runs where a GPU is (else it says so).
// The TF32 GEMM's entries on warpgroups, built as the runtime builds them for an sm_90 device
// (machine code for sm_90a): their wgmma body is the one compiled (the instruction is in the PTX),
// within their registers (one block a multiprocessor, 255 at most; the 256-row tile with bulk
// tensor copies 232 a worker, its copying warpgroup's given up), with no spills, and the device
// assembler keeps the multiplies of a step in flight (no warning C7513 or C7515 that it serializes
// them).
TEST_CASE("the TF32 entries on warpgroups compile for sm_90a with wgmma, within their registers", "[codegen][nvcc]") {
  const std::string nvcc = nvccOrSkip();
  if (nvcc.empty()) return;
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-nvcc-wgmma", dir));
  TranslateOptions options;
  options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
  TranslateResult r = translate(std::string(CULIFT_SOURCE_DIR) + "/bench/gpu/blas_cells.hpp", options);
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const Function* fn = r.module->find("GemmCellTf32");
  REQUIRE(fn);
  REQUIRE(fn->planEntries.size() >= 2);
  CHECK(fn->planEntries[0].kernelName == "GemmCellTf32_wg256");
  CHECK(fn->planEntries[1].kernelName == "GemmCellTf32_wg128");
  for (const auto& [entry, instruction] :
       {std::pair{"GemmCellTf32_wg256", "m64n256k8"}, std::pair{"GemmCellTf32_wg128", "m64n128k8"}}) {
    INFO(entry);
    // Every path a named string: a StringRef of a temporary would name freed memory by the call.
    const std::string cu = std::string(dir) + "/" + entry + ".cu", log = cu + ".log", ptx = cu + ".ptx",
                      cubin = cu + ".cubin";
    std::ofstream(cu) << "#define CULIFT_ONLY_ENTRIES\n#define CULIFT_ENTRY_" << entry << "\n" << emitCuda(*r.module);
    const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(log),
                                                        llvm::StringRef(log)};
    llvm::StringRef build[] = {nvcc, "-gencode=arch=compute_90a,code=sm_90a", "-cubin", "-Xptxas", "-v", cu, "-o",
                               cubin};
    const int status = culift::test::executeAndWait(nvcc, build, std::nullopt, redirects, 300);
    std::stringstream text;
    text << std::ifstream(log).rdbuf();
    INFO(text.str());
    REQUIRE(status == 0);
    CHECK(text.str().find("Function properties for " + std::string(entry)) != std::string::npos);
    // No spills: in the 256-row tile with a copying warpgroup, the workers' copies of the tiles the
    // maps leave are loops (unrolled, they spilled 132 B at 232 registers).
    const std::string properties = text.str().substr(text.str().find("Function properties for " + std::string(entry)));
    const std::size_t stack = properties.find("bytes stack frame, ");
    REQUIRE(stack != std::string::npos);
    const int spilled = std::atoi(properties.c_str() + stack + std::strlen("bytes stack frame, "));
    const PlanEntry& e = fn->planEntries[entry == std::string("GemmCellTf32_wg256") ? 0 : 1];
    const bool copier = !e.tensorMaps.empty() && e.tileRows == 256;
    CHECK(e.threads == (copier ? 384u : 256u));
    CHECK(spilled == 0);
    CHECK(text.str().find("C7513") == std::string::npos);
    CHECK(text.str().find("C7515") == std::string::npos);
    llvm::StringRef toPtx[] = {nvcc, "-arch=compute_90a", "-ptx", cu, "-o", ptx};
    REQUIRE(culift::test::executeAndWait(nvcc, toPtx, std::nullopt, redirects, 300) == 0);
    std::stringstream code;
    code << std::ifstream(ptx).rdbuf();
    CHECK(code.str().find("wgmma.mma_async.sync.aligned." + std::string(instruction) + ".f32.tf32.tf32") !=
          std::string::npos);
    CHECK(code.str().find("fence.proxy.async.shared::cta") != std::string::npos);
    // The copying warpgroup's registers moved to the workers.
    CHECK((code.str().find("setmaxnreg.inc.sync.aligned.u32 232") != std::string::npos) == copier);
  }
  llvm::sys::fs::remove_directories(std::string(dir));
}

TEST_CASE("an nvcc program launches lifted kernels through the emitted launchers", "[codegen][nvcc][gpu]") {
  const std::string nvcc = CULIFT_NVCC;
  if (nvcc.empty() || !fs::exists(nvcc)) {
    if (test::nvrtcRequired()) FAIL("nvcc not found, and CULIFT_REQUIRE_NVRTC=1 requires the CUDA toolkit");
    WARN("skipped: nvcc not found");
    return;
  }
  const char* kernels = R"(
#include <culift/annotate.hpp>
CULIFT_KERNEL float Twice(const float* x, int i) { return 2.0f * x[i]; }
CULIFT_KERNEL int Cell(int cols, int i, int j) { return i * cols + j; }
CULIFT_KERNEL int Voxel(int nj, int nk, int i, int j, int k) { return (i * nj + j) * nk + k; }
)";
  // On the GPU machine the source tree sits elsewhere: $CULIFT_SOURCE_ROOT names it.
  const char* root = std::getenv("CULIFT_SOURCE_ROOT");
  TranslateOptions options;
  options.compilerArgs = {"-I" + std::string(root && *root ? root : CULIFT_SOURCE_DIR) + "/include"};
  TranslateResult r = translateSource(kernels, "launched.cpp", options);
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-nvcc-run", dir));
  const std::string cu = std::string(dir) + "/launched.cu", exe = std::string(dir) + "/launched";
  std::ofstream(cu) << emitCuda(*r.module, EmitOptions{false, true}) << R"(
#include <cstdio>
#include <vector>
// Every value is its own C-order index: a wrong layout or a missed index fails.
int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) { std::puts("no GPU"); return 77; }
  const int n = 1000, rows = 37, cols = 129, depth = 70;
  float* x; float* y; int* c; int* v;
  cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4); cudaMalloc(&c, rows * cols * 4); cudaMalloc(&v, rows * cols * depth * 4);
  std::vector<float> hx(n);
  for (int i = 0; i < n; ++i) hx[i] = 0.5f * i;
  cudaMemcpy(x, hx.data(), n * 4, cudaMemcpyHostToDevice);
  if (culift_launch_Twice(x, y, n) != cudaSuccess || culift_launch_Cell(cols, c, rows, cols) != cudaSuccess ||
      culift_launch_Voxel(cols, depth, v, rows, cols, depth) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
    std::puts("launch failed"); return 1;
  }
  std::vector<float> hy(n); std::vector<int> hc(rows * cols), hv(rows * cols * depth);
  cudaMemcpy(hy.data(), y, n * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hc.data(), c, hc.size() * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hv.data(), v, hv.size() * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) if (hy[i] != 2.0f * hx[i]) { std::printf("Twice[%d]\n", i); return 1; }
  for (int e = 0; e < rows * cols; ++e) if (hc[e] != e) { std::printf("Cell[%d] = %d\n", e, hc[e]); return 1; }
  for (int e = 0; e < rows * cols * depth; ++e) if (hv[e] != e) { std::printf("Voxel[%d] = %d\n", e, hv[e]); return 1; }
  std::puts("launchers ok");
  return 0;
}
)";
  const std::string log = std::string(dir) + "/build.log";
  llvm::StringRef build[] = {nvcc, "-arch=sm_90", "-o", exe, cu};
  const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(log), llvm::StringRef(log)};
  const int built = culift::test::executeAndWait(nvcc, build, std::nullopt, redirects, 300);
  std::ifstream in(log);
  std::ostringstream text;
  text << in.rdbuf();
  INFO("nvcc:\n" << text.str());
  REQUIRE(built == 0);
  const std::string runLog = std::string(dir) + "/run.log";
  const std::optional<llvm::StringRef> runRedirects[] = {llvm::StringRef(""), llvm::StringRef(runLog),
                                                         llvm::StringRef(runLog)};
  llvm::StringRef run[] = {exe};
  const int status = culift::test::executeAndWait(exe, run, std::nullopt, runRedirects, 120);
  std::ifstream out(runLog);
  std::ostringstream said;
  said << out.rdbuf();
  llvm::sys::fs::remove_directories(std::string(dir));
  INFO("program said: " << said.str());
  if (status == 77) {
    test::noGpu("the program found no CUDA device");
    return;
  }
  CHECK(status == 0);
  CHECK(said.str().find("launchers ok") != std::string::npos);
}

// The device preludes are CUDA files of their own (translator/src/codegen/prelude/): each helper
// compiles with nvcc where a kernel uses it. (Device asserts on, -DCULIFT_DEVICE_ASSERTS, need
// NVRTC's __assertfail: the runtime's tests compile them.)
TEST_CASE("the device preludes compile with nvcc, every helper used", "[codegen][nvcc][prelude]") {
  const std::string nvcc = nvccOrSkip();
  if (nvcc.empty()) return;
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-prelude", dir));
  const std::string cu = std::string(dir) + "/preludes.cu";
  std::ofstream(cu) << R"(#include "culift_prelude.cuh"
#include "culift_assert_prelude.cuh"
#include "culift_plan_prelude.cuh"
#include "culift_tensor_core_prelude.cuh"
extern "C" __global__ void uses_tensor_cores(const float* x, float* out) {
  const int t = threadIdx.x;
  float d[4] = {x[t], x[t + 32], x[t + 64], x[t + 96]};
  const unsigned a = culift_tf32(x[t]), h = culift_f16x2(x[t], x[t + 1]), b = culift_bf16x2(x[t], x[t + 2]);
  culift_mma_tf32(d[0], d[1], d[2], d[3], a, a, a, a, a, a);
  culift_mma_half<false>(d[0], d[1], d[2], d[3], h, h, h, h, h, h);
  culift_mma_half<true>(d[0], d[1], d[2], d[3], b, b, b, b, b, b);
  out[t] = d[0] + d[1] + d[2] + d[3] + __uint_as_float(culift_bf16_bits(x[t]) << 16);
}
extern "C" __global__ void uses_every_helper(const float* x, const double* y, float* out, int n) {
  __shared__ __align__(16) float staged[64];
  __shared__ __align__(16) double staged_d[8];
  __shared__ __align__(16) unsigned char bytes[16];
  const int t = threadIdx.x;
  if (t < 32) culift_copy_async(&staged[t], &x[t]);
  if (t < 8) culift_copy_async(&staged_d[t], &y[t]);
  if (t == 0) culift_copy_async16(&staged[32], &x[32], 12);
  if (t == 0) culift_copy_async(&bytes[0], reinterpret_cast<const unsigned char*>(x));
  culift_copy_commit();
  culift_copy_wait<0>();
  __syncthreads();
  const culift_vec<float, 4> v = reinterpret_cast<const culift_vec<float, 4>*>(staged)[t % 8];
  float f = culift_min(v.v[0], v.v[1]) + culift_max(v.v[2], v.v[3]) + culift_clamp(staged[t % 64], -1.0f, 1.0f);
  f += culift_abs(f) + (float)culift_abs(t - n) + (float)culift_abs((long long)n) + (float)culift_abs(staged_d[t % 8]);
  f += culift_zero(0.0f) + (float)culift_zero(0.0) + f / culift_opaque(f);
  f += (float)(culift_opaque(1u) + culift_opaque(2ll) + culift_opaque(3ull) + culift_opaque(n));
  signed char c = culift_narrow<signed char>(n + 1);
  short s = (short)t;
  culift_pre_inc(c);
  culift_pre_dec(s);
  f += (float)(culift_post_inc(c) + culift_post_dec(s)) + (float)bytes[0];
  culift_assert(f == f, "f == f", "preludes.cu", 20);
  if (t < n) out[t] = f;
}
)";
  const std::string prelude = CULIFT_SOURCE_DIR "/translator/src/codegen/prelude";
  // sm_90, and sm_75 for the paths of devices before sm_80 (no cp.async, no mma of these formats).
  for (const char* arch : {"-arch=sm_90", "-arch=sm_75"}) {
    const std::string object = cu + arch + ".o", log = cu + arch + ".log";
    llvm::StringRef args[] = {nvcc, arch, "-I", prelude, "-c", cu, "-o", object};
    const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(log),
                                                        llvm::StringRef(log)};
    const int status = culift::test::executeAndWait(nvcc, args, std::nullopt, redirects, 300);
    const bool built = fs::exists(object) && fs::file_size(object) > 0;
    std::ifstream in(log);
    std::ostringstream text;
    text << in.rdbuf();
    INFO(arch << ": nvcc (exit " << status << "):\n" << text.str().substr(0, 3000));
    CHECK(status == 0);
    CHECK(built);
  }
  llvm::sys::fs::remove_directories(std::string(dir));
}
