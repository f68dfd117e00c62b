// CHECK(call) for the standalone nvcc harnesses of bench/gpu: a CUDA runtime call that fails
// prints what failed and where, and the harness exits.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::printf("%s failed: %s (%s:%d)\n", #x, cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)
