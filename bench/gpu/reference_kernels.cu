// Hand-written CUDA reference kernels, written the way an expert would, for the benchmark's
// side-by-side comparison with culift's generated kernels. Compiled with NVRTC at run time
// with the same options as the generated module.

// ---- Separating-axis test, rectangle vs triangle, one thread per pair ----------------------
extern "C" __global__ void ref_sat(const float2* __restrict__ rectMin, const float2* __restrict__ rectMax,
                                   const float2* __restrict__ tri, float* __restrict__ out, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  const float eps = 1e-6f;
  float2 lo = rectMin[idx];
  float2 hi = rectMax[idx];
  float2 v0 = tri[3 * idx + 0];
  float2 v1 = tri[3 * idx + 1];
  float2 v2 = tri[3 * idx + 2];
  float hit = 1.0f;
  {  // x axis
    float t0 = fminf(fminf(v0.x, v1.x), v2.x);
    float t1 = fmaxf(fmaxf(v0.x, v1.x), v2.x);
    if (hi.x < t0 - eps || t1 < lo.x - eps) hit = 0.0f;
  }
  {  // y axis
    float t0 = fminf(fminf(v0.y, v1.y), v2.y);
    float t1 = fmaxf(fmaxf(v0.y, v1.y), v2.y);
    if (hi.y < t0 - eps || t1 < lo.y - eps) hit = 0.0f;
  }
  float2 a[3] = {v0, v1, v2};
#pragma unroll
  for (int e = 0; e < 3; ++e) {
    float2 p = a[e];
    float2 q = a[(e + 1) % 3];
    float nx = -(q.y - p.y);
    float ny = q.x - p.x;
    // Divide as the C++ function does (n / (|n| + 1e-8)), so both give the same 0/1 answers.
    float len = sqrtf(nx * nx + ny * ny) + 1e-8f;
    nx = nx / len;
    ny = ny / len;
    // Rectangle projection: min/max over corners chosen by the normal's signs.
    float r0 = (nx >= 0.0f ? nx * lo.x : nx * hi.x) + (ny >= 0.0f ? ny * lo.y : ny * hi.y);
    float r1 = (nx >= 0.0f ? nx * hi.x : nx * lo.x) + (ny >= 0.0f ? ny * hi.y : ny * lo.y);
    float d0 = nx * v0.x + ny * v0.y, d1 = nx * v1.x + ny * v1.y, d2 = nx * v2.x + ny * v2.y;
    float t0 = fminf(fminf(d0, d1), d2);
    float t1 = fmaxf(fmaxf(d0, d1), d2);
    if (r1 < t0 - eps || t1 < r0 - eps) hit = 0.0f;
  }
  out[idx] = hit;
}

// ---- Masked broadcast of row 0, float4 per thread -------------------------------------------
// cols must be a multiple of 4 (the benchmark uses 4096).
extern "C" __global__ void ref_masked_broadcast(const float4* __restrict__ x, const uchar4* __restrict__ mask,
                                                float4* __restrict__ out, int rows, int cols4) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long total = (long long)rows * cols4;
  if (idx >= total) return;
  int d = (int)(idx % cols4);
  uchar4 m = mask[d];
  float4 v = x[idx];
  if (m.x | m.y | m.z | m.w) {
    float4 r = x[d];
    if (m.x) v.x = r.x;
    if (m.y) v.y = r.y;
    if (m.z) v.z = r.z;
    if (m.w) v.w = r.w;
  }
  out[idx] = v;
}

// ---- PearsonClamp, element-wise, float4 per thread -------------------------------------------
__device__ __forceinline__ float ref_clamp_one(float cov, float denom) {
  float c = denom > 1e-12f ? cov / denom : 0.0f;
  return fminf(1.0f, fmaxf(-1.0f, c));
}
extern "C" __global__ void ref_pearson_clamp(const float4* __restrict__ cov, const float4* __restrict__ denom,
                                             float4* __restrict__ out, long long n4) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n4) return;
  float4 c = cov[idx], d = denom[idx], r;
  r.x = ref_clamp_one(c.x, d.x);
  r.y = ref_clamp_one(c.y, d.y);
  r.z = ref_clamp_one(c.z, d.z);
  r.w = ref_clamp_one(c.w, d.w);
  out[idx] = r;
}

// ---- Row sums: one warp per row, float4 loads, shuffle reduction -----------------------------
extern "C" __global__ void ref_row_sum(const float* __restrict__ x, int rows, int cols, float* __restrict__ sum,
                                       float* __restrict__ sumSq) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const float4* row = reinterpret_cast<const float4*>(x + (long long)warp * cols);
  float s = 0.0f, q = 0.0f;
  for (int c = lane; c < cols / 4; c += 32) {
    float4 v = row[c];
    s += (v.x + v.y) + (v.z + v.w);
    q += (v.x * v.x + v.y * v.y) + (v.z * v.z + v.w * v.w);
  }
  for (int o = 16; o > 0; o >>= 1) {
    s += __shfl_down_sync(0xffffffffu, s, o);
    q += __shfl_down_sync(0xffffffffu, q, o);
  }
  if (lane == 0) {
    if (sum) sum[warp] = s;
    if (sumSq) sumSq[warp] = q;
  }
}

// ---- Gram matrix X·Xᵀ: 64×64 tiles, 4×4 outputs per thread, shared-memory staging ----------
// rows and cols must be multiples of 64 and 16 (the benchmark uses 1024 and 4096).
#define REF_TILE 64
#define REF_K 16
extern "C" __global__ void __launch_bounds__(256)
    ref_gram(const float* __restrict__ x, int rows, int cols, float* __restrict__ out) {
  __shared__ float As[REF_K][REF_TILE + 4];
  __shared__ float Bs[REF_K][REF_TILE + 4];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int rowBase = blockIdx.y * REF_TILE, colBase = blockIdx.x * REF_TILE;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < cols; k0 += REF_K) {
    for (int t = threadIdx.x; t < REF_TILE * REF_K; t += 256) {
      int r = t / REF_K, k = t % REF_K;
      As[k][r] = x[(long long)(rowBase + r) * cols + k0 + k];
      Bs[k][r] = x[(long long)(colBase + r) * cols + k0 + k];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < REF_K; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        a[u] = As[k][ty * 4 + u];
        b[u] = Bs[k][tx * 4 + u];
      }
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int v = 0; v < 4; ++v) acc[u][v] += a[u] * b[v];
    }
    __syncthreads();
  }
#pragma unroll
  for (int u = 0; u < 4; ++u)
#pragma unroll
    for (int v = 0; v < 4; ++v) out[(long long)(rowBase + ty * 4 + u) * rows + colBase + tx * 4 + v] = acc[u][v];
}

// ---- Correlation and distance cells (element-wise over the Gram matrix) ----------------------
// As an expert writes them: the per-row statistics once (ref_row_stats: mean and standard
// deviation of each row, n values), then the cells four at a time along j, 16-byte loads of
// the Gram matrix and stores of the result, no division or square root per correlation cell
// (1 / (sd_i sd_j) from the rows' inverses). Rows whose length is not a multiple of four take
// the last cells one by one.
extern "C" __global__ void ref_row_stats(const float* __restrict__ rowSum, const float* __restrict__ rowSumSq, int rows,
                                         int cols, float* __restrict__ mean, float* __restrict__ sd,
                                         float* __restrict__ invSd) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float n = (float)cols;
  const float m = rowSum[i] / n;
  const float s = sqrtf(fmaxf(rowSumSq[i] - n * m * m, 0.0f));
  mean[i] = m;
  sd[i] = s;
  invSd[i] = s > 0.0f ? 1.0f / s : 0.0f;
}

__device__ __forceinline__ float ref_corr_cell(float dot, float n, float mi, float si, float ii, float mj, float sj,
                                               float ij) {
  const float c = si * sj > 1e-12f ? (dot - n * mi * mj) * (ii * ij) : 0.0f;
  return fminf(1.0f, fmaxf(-1.0f, c));
}

extern "C" __global__ void ref_correlation(const float* __restrict__ dot, const float* __restrict__ mean,
                                           const float* __restrict__ sd, const float* __restrict__ invSd, int rows,
                                           int cols, float* __restrict__ out) {
  const int quads = (rows + 3) / 4;
  const float n = (float)cols;
  for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < (long long)rows * quads;
       q += (long long)gridDim.x * blockDim.x) {
    const int i = (int)(q / quads), j0 = (int)(q % quads) * 4;
    const float mi = mean[i], si = sd[i], ii = invSd[i];
    const long long at = (long long)i * rows + j0;
    if (rows % 4 == 0) {
      const float4 d = *reinterpret_cast<const float4*>(dot + at);
      const float4 m = *reinterpret_cast<const float4*>(mean + j0);
      const float4 s = *reinterpret_cast<const float4*>(sd + j0);
      const float4 v = *reinterpret_cast<const float4*>(invSd + j0);
      float4 r;
      r.x = j0 + 0 == i ? 1.0f : ref_corr_cell(d.x, n, mi, si, ii, m.x, s.x, v.x);
      r.y = j0 + 1 == i ? 1.0f : ref_corr_cell(d.y, n, mi, si, ii, m.y, s.y, v.y);
      r.z = j0 + 2 == i ? 1.0f : ref_corr_cell(d.z, n, mi, si, ii, m.z, s.z, v.z);
      r.w = j0 + 3 == i ? 1.0f : ref_corr_cell(d.w, n, mi, si, ii, m.w, s.w, v.w);
      *reinterpret_cast<float4*>(out + at) = r;
    } else {
      for (int j = j0; j < j0 + 4 && j < rows; ++j)
        out[at + (j - j0)] = j == i ? 1.0f : ref_corr_cell(dot[at + (j - j0)], n, mi, si, ii, mean[j], sd[j], invSd[j]);
    }
  }
}

extern "C" __global__ void ref_distance(const float* __restrict__ dot, const float* __restrict__ rowSumSq, int rows,
                                        float* __restrict__ out) {
  const int quads = (rows + 3) / 4;
  for (long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x; q < (long long)rows * quads;
       q += (long long)gridDim.x * blockDim.x) {
    const int i = (int)(q / quads), j0 = (int)(q % quads) * 4;
    const float qi = rowSumSq[i];
    const long long at = (long long)i * rows + j0;
    if (rows % 4 == 0) {
      const float4 d = *reinterpret_cast<const float4*>(dot + at);
      const float4 s = *reinterpret_cast<const float4*>(rowSumSq + j0);
      float4 r;
      r.x = j0 + 0 == i ? 0.0f : sqrtf(fmaxf(qi + s.x - 2.0f * d.x, 0.0f));
      r.y = j0 + 1 == i ? 0.0f : sqrtf(fmaxf(qi + s.y - 2.0f * d.y, 0.0f));
      r.z = j0 + 2 == i ? 0.0f : sqrtf(fmaxf(qi + s.z - 2.0f * d.z, 0.0f));
      r.w = j0 + 3 == i ? 0.0f : sqrtf(fmaxf(qi + s.w - 2.0f * d.w, 0.0f));
      *reinterpret_cast<float4*>(out + at) = r;
    } else {
      for (int j = j0; j < j0 + 4 && j < rows; ++j)
        out[at + (j - j0)] = j == i ? 0.0f : sqrtf(fmaxf(qi + rowSumSq[j] - 2.0f * dot[at + (j - j0)], 0.0f));
    }
  }
}

// ---- Device-to-device copy, the bandwidth ceiling --------------------------------------------
extern "C" __global__ void ref_copy(const float4* __restrict__ in, float4* __restrict__ out, long long n4) {
  for (long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x; idx < n4;
       idx += (long long)gridDim.x * blockDim.x)
    out[idx] = in[idx];
}

// ---- Holds the device for `ns` nanoseconds ----------------------------------------------------
// The benchmark queues this before each timed batch, so the launches behind it start back to
// back and host-side launch costs stay out of the event times.
extern "C" __global__ void ref_delay(long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while ((long long)(now - start) < ns);
}

// ---- GEMM C = alpha A B + beta C: 64x64 tiles, 4x4 outputs per thread (as ref_gram) ----------
// n, nk multiples of 64 and 16.
extern "C" __global__ void __launch_bounds__(256)
    ref_gemm(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ C, float alpha,
             float beta, int nk, int nj, float* __restrict__ out) {
  __shared__ float As[REF_K][REF_TILE + 4];
  __shared__ float Bs[REF_K][REF_TILE + 4];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int rowBase = blockIdx.y * REF_TILE, colBase = blockIdx.x * REF_TILE;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < nk; k0 += REF_K) {
    for (int t = threadIdx.x; t < REF_TILE * REF_K; t += 256) {
      int r = t / REF_K, k = t % REF_K;
      As[k][r] = A[(long long)(rowBase + r) * nk + k0 + k];
      int kb = t / REF_TILE, c = t % REF_TILE;
      Bs[kb][c] = B[(long long)(k0 + kb) * nj + colBase + c];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < REF_K; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        a[u] = As[k][ty * 4 + u];
        b[u] = Bs[k][tx * 4 + u];
      }
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int v = 0; v < 4; ++v) acc[u][v] += a[u] * b[v];
    }
    __syncthreads();
  }
#pragma unroll
  for (int u = 0; u < 4; ++u)
#pragma unroll
    for (int v = 0; v < 4; ++v) {
      long long idx = (long long)(rowBase + ty * 4 + u) * nj + colBase + tx * 4 + v;
      out[idx] = alpha * acc[u][v] + beta * C[idx];
    }
}

// ---- y = A x: one warp per row, float4 loads, shuffle reduction (n a multiple of 4) ----------
extern "C" __global__ void ref_gemv(const float* __restrict__ A, const float* __restrict__ x, int rows, int n,
                                    float* __restrict__ y) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const float4* row = reinterpret_cast<const float4*>(A + (long long)warp * n);
  const float4* xv = reinterpret_cast<const float4*>(x);
  float s = 0.0f;
  for (int c = lane; c < n / 4; c += 32) {
    float4 a = row[c], b = xv[c];
    s += (a.x * b.x + a.y * b.y) + (a.z * b.z + a.w * b.w);
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[warp] = s;
}
