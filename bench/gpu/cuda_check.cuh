// CHECK(call) for the standalone nvcc harnesses of bench/gpu: a CUDA runtime call that fails
// prints what failed and where, and the harness exits. medianMs times a launch; fillUniform gives
// the harnesses' inputs.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::printf("%s failed: %s (%s:%d)\n", #x, cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

// The median of `runs` timings of `launch` with CUDA events, after `warmups` untimed launches and
// a synchronization (a launch that failed exits through CHECK).
template <typename Launch> double medianMs(Launch&& launch, int runs, int warmups = 1) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int w = 0; w < warmups; ++w) launch();
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int r = 0; r < runs; ++r) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    times.push_back(ms);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// `v` filled with values in [-1, 1) from a linear congruential stream at state `s`; returns the
// stream's state after them (for the next array of the same stream).
inline unsigned fillUniform(std::vector<float>& v, unsigned s) {
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = (float)(s >> 8) / 8388608.0f - 1.0f;
  }
  return s;
}
