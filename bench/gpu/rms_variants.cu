// How many blocks of RMS norm's "column reduction shared by a middle axis" entry should be in
// flight: each thread reads its column (64 floats, 256 bytes) twice, the second time from the L2
// if the column is still there. Standalone, on the GPU machine, over the entries as culift emits
// them:
//
//   culift emit bench/gpu/column_cells.hpp -o .gpu/cols.cu -- -Iinclude   (development machine)
//   nvcc -O3 -arch=sm_90 -I.gpu -o rms_variants bench/gpu/rms_variants.cu && ./rms_variants
//
// Each line: the entry, its grid (every column's block at once, or a cap of blocks per
// multiprocessor with the entry's loop over columns taking the rest), the median of 20 launches
// and the bandwidth counting x read once and the result written once.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cols.cu"

#include "cuda_check.cuh"

// x, F, S, eps, out, then the entry's extents (batches, F, S) and its first batch.
using Entry = void (*)(const float*, int, int, float, float*, long long, long long, long long, long long);

int main() {
  const int B = 112, F = 64, S = 512 * 512;
  const long long elements = (long long)B * F * S, columns = (long long)B * S;
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::vector<float> host(elements);
  fillUniform(host, 12345u);
  float *x, *out, *ref;
  CHECK(cudaMalloc(&x, elements * 4));
  CHECK(cudaMalloc(&out, elements * 4));
  CHECK(cudaMalloc(&ref, elements * 4));
  CHECK(cudaMemcpy(x, host.data(), elements * 4, cudaMemcpyHostToDevice));
  struct Variant {
    const char* name;
    Entry entry;
    int threads;
  };
  const Variant entries[] = {{"RmsNorm_across128", RmsNorm_across128, 128}, {"RmsNorm_across64", RmsNorm_across64, 64}};
  bool haveRef = false;
  for (const Variant& v : entries)
    for (int perSm : {0, 2, 4, 6, 8, 16}) {
      const long long all = (columns + v.threads - 1) / v.threads;
      const long long blocks = perSm == 0 ? all : std::min<long long>(all, (long long)perSm * sms * (256 / v.threads));
      auto launch = [&](float* o) { v.entry<<<(unsigned)blocks, v.threads>>>(x, F, S, 1e-6f, o, B, F, S, 0); };
      launch(out);
      CHECK(cudaDeviceSynchronize());
      if (!haveRef) {
        CHECK(cudaMemcpy(ref, out, elements * 4, cudaMemcpyDeviceToDevice));
        haveRef = true;
      }
      const double ms = medianMs([&] { launch(out); }, 20, 0);
      // The same bits whatever the grid.
      std::vector<float> got(1 << 20), want(1 << 20);
      CHECK(cudaMemcpy(got.data(), out + elements - (1 << 20), 4 << 20, cudaMemcpyDeviceToHost));
      CHECK(cudaMemcpy(want.data(), ref + elements - (1 << 20), 4 << 20, cudaMemcpyDeviceToHost));
      const bool same = std::memcmp(got.data(), want.data(), 4 << 20) == 0;
      std::printf("%-18s blocks %7lld (%s%d per SM-equivalent)  %.4f ms  %6.0f GB/s  %s\n", v.name, blocks,
                  perSm == 0 ? "all; cap " : "cap ", perSm, ms, 8.0 * elements / (ms * 1e6),
                  same ? "same bits" : "DIFFERENT BITS");
    }
  return 0;
}
