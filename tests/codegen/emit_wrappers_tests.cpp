// Kernel wrappers of every index mode: parameters in signature order; the 32-bit-index entry
// (one index per thread and step, or four: blockDim.x apart, or as vectors for element-wise
// kernels) and the 64-bit entry, both grid-stride loops over every index; the call and the store.
#include "emit_test_support.hpp"
#include "nvrtc_compile.hpp"

using namespace culift;
using namespace culift::test;

namespace {

// float RowSum(const float* x, int cols, int i): sum of row i.
Function rowSum() {
  FunctionBuilder fb("RowSum", val(Scalar::F32), 3);
  const VarId x = fb.param("x", Type::pointer(Scalar::F32, true));
  const VarId cols = fb.param("cols", val(Scalar::I32));
  const VarId i = fb.param("i", val(Scalar::I32));
  const VarId sum = fb.local("sum", val(Scalar::F32));
  const VarId k = fb.local("k", val(Scalar::I32));
  const Function& f = fb.fn;
  auto body = stmts(
      decl(sum, cast(lit(0), Scalar::F32), 4),
      forStmt(decl(k, lit(0), 5), bin(BinaryOp::Lt, ref(f, k), ref(f, cols)), incdec(IncDecOp::PreInc, ref(f, k)),
              exprStmt(compound(BinaryOp::Add, ref(f, sum),
                                sub(f, x, bin(BinaryOp::Add, bin(BinaryOp::Mul, ref(f, i), ref(f, cols)), ref(f, k))),
                                Scalar::F32),
                       6),
              5),
      ret(ref(f, sum), 7));
  Function fn = fb.take(std::move(body));
  classifyByHand(fn, IndexMode::Grid1D, {2});
  return fn;
}

// float Cell(const float* m, int cols, int i, int j) = m[i * cols + j] * 2
Function cell2d() {
  FunctionBuilder fb("Cell", val(Scalar::F32), 10);
  const VarId m = fb.param("m", Type::pointer(Scalar::F32, true));
  const VarId cols = fb.param("cols", val(Scalar::I32));
  const VarId i = fb.param("i", val(Scalar::I32));
  const VarId j = fb.param("j", val(Scalar::I32));
  const Function& f = fb.fn;
  auto body = stmts(
      ret(bin(BinaryOp::Mul, sub(f, m, bin(BinaryOp::Add, bin(BinaryOp::Mul, ref(f, i), ref(f, cols)), ref(f, j))),
              flit(2)),
          11));
  Function fn = fb.take(std::move(body));
  classifyByHand(fn, IndexMode::Grid2D, {2, 3}, 4);
  return fn;
}

// double Voxel(double scale, long long i, int j, unsigned k) = scale * (i + j + k)
Function voxel3d() {
  FunctionBuilder fb("Voxel", val(Scalar::F64), 20);
  const VarId scale = fb.param("scale", val(Scalar::F64));
  const VarId i = fb.param("i", val(Scalar::I64));
  const VarId j = fb.param("j", val(Scalar::I32));
  const VarId k = fb.param("k", val(Scalar::U32));
  const Function& f = fb.fn;
  auto sumIndex = bin(BinaryOp::Add, bin(BinaryOp::Add, ref(f, i), cast(ref(f, j), Scalar::I64)),
                      cast(ref(f, k), Scalar::I64));
  auto body = stmts(ret(bin(BinaryOp::Mul, ref(f, scale), cast(std::move(sumIndex), Scalar::F64)), 21));
  Function fn = fb.take(std::move(body));
  classifyByHand(fn, IndexMode::Grid3D, {1, 2, 3}, 4);
  return fn;
}

// float Clamp01(float v, double w) = (float)fmin(fmax(v * w, 0), 1): element-wise.
Function elementWise() {
  FunctionBuilder fb("Blend", val(Scalar::F32), 30);
  const VarId v = fb.param("v", val(Scalar::F32));
  const VarId w = fb.param("w", val(Scalar::F64));
  const Function& f = fb.fn;
  auto body = stmts(ret(cast(bin(BinaryOp::Mul, cast(ref(f, v), Scalar::F64), ref(f, w)), Scalar::F32), 31));
  Function fn = fb.take(std::move(body));
  classifyByHand(fn, IndexMode::ElementWise, {}, 4);
  return fn;
}

// void Scale(const float* x, float* y, float a, int i) { y[i] = a * x[i]; }
Function voidKernel() {
  FunctionBuilder fb("Scale", val(Scalar::Void), 40);
  const VarId x = fb.param("x", Type::pointer(Scalar::F32, true));
  const VarId y = fb.param("y", Type::pointer(Scalar::F32, false));
  const VarId a = fb.param("threadIdx", val(Scalar::F32));  // a legal C++ name a wrapper must not use as is
  const VarId i = fb.param("i", val(Scalar::I32));
  const Function& f = fb.fn;
  auto body = stmts(exprStmt(assign(sub(f, y, ref(f, i)), bin(BinaryOp::Mul, ref(f, a), sub(f, x, ref(f, i)))), 41));
  Function fn = fb.take(std::move(body));
  classifyByHand(fn, IndexMode::Grid1D, {3}, 4);
  return fn;
}

}  // namespace

TEST_CASE("Grid1D wrapper: grid-stride over i, result stored at out[i]", "[codegen][wrapper]") {
  Module module{"rows.cpp", {}, {}};
  module.functions.push_back(rowSum());
  const std::string src = emitCuda(module, EmitOptions{false});
  requireLinesInOrder(
      src,
      {
          "// RowSum, from kernels.cpp:3: Grid1D",
          "// kernel RowSum_kernel(const float* x [input array], int cols [scalar], float* out [out], long long n_i [extent of i])",
          "__device__ float RowSum(const float* x, int cols, int i) {",
          "float sum = culift_zero(0.0f);",
          "for (int k = 0; k < cols; ++k) {",
          "sum += x[(i * cols) + k];",
          "return sum;",
          "// RowSum: Grid1D, 32-bit indices; the runtime launches RowSum_kernel64 when an index could pass 2^31 - 1.",
          "extern \"C\" __global__ void RowSum_kernel(const float* __restrict__ x, int cols, float* __restrict__ out, long long n_i) {",
          "const int culift_ni = (int)n_i;",
          "#pragma unroll 1",
          "for (int culift_e = blockIdx.x * blockDim.x + threadIdx.x; culift_e < culift_ni; culift_e += gridDim.x * blockDim.x) {",
          "out[culift_e] = RowSum(x, cols, culift_e);",
          "// RowSum, 64-bit indices: any extents and any launch; a grid-stride loop per axis.",
          "extern \"C\" __global__ void RowSum_kernel64(const float* __restrict__ x, int cols, float* __restrict__ out, long long n_i) {",
          "#pragma unroll 1",
          "for (long long culift_e = (long long)blockIdx.x * blockDim.x + threadIdx.x; culift_e < n_i; culift_e += (long long)gridDim.x * blockDim.x) {",
          "out[culift_e] = RowSum(x, cols, (int)culift_e);",
      });
  requireCompiles(src, "rows.cu");
}

TEST_CASE("Grid2D wrapper: i on y outside, j on x inside, out[i * cols + j]", "[codegen][wrapper]") {
  Module module{"cells.cpp", {}, {}};
  module.functions.push_back(cell2d());
  const std::string src = emitCuda(module, EmitOptions{false});
  requireLinesInOrder(
      src,
      {
          "// Cell: Grid2D, 32-bit indices, 4 indices per thread, blockDim.x apart; the runtime launches Cell_kernel64 when an index could pass 2^31 - 1.",
          "extern \"C\" __global__ void Cell_kernel(const float* __restrict__ m, int cols, float* __restrict__ out, long long n_i, long long n_j) {",
          "const int culift_ni = (int)n_i;",
          "const int culift_nj = (int)n_j;",
          "#pragma unroll 1",
          "for (int culift_i = blockIdx.y * blockDim.y + threadIdx.y; culift_i < culift_ni; culift_i += gridDim.y * blockDim.y) {",
          "#pragma unroll 1",
          "for (int culift_j0 = blockIdx.x * blockDim.x * 4 + threadIdx.x; culift_j0 < culift_nj; culift_j0 += gridDim.x * blockDim.x * 4) {",
          "#pragma unroll",
          "for (int culift_u = 0; culift_u < 4; ++culift_u) {",
          "const int culift_j = culift_j0 + culift_u * (int)blockDim.x;",
          "if (culift_j < culift_nj) out[culift_i * culift_nj + culift_j] = Cell(m, cols, culift_i, culift_j);",
          "}",
          "}",
          "}",
          "}",
          "extern \"C\" __global__ void Cell_kernel64(const float* __restrict__ m, int cols, float* __restrict__ out, long long n_i, long long n_j) {",
          "#pragma unroll 1",
          "for (long long culift_i = (long long)blockIdx.y * blockDim.y + threadIdx.y; culift_i < n_i; culift_i += (long long)gridDim.y * blockDim.y) {",
          "#pragma unroll 1",
          "for (long long culift_j = (long long)blockIdx.x * blockDim.x + threadIdx.x; culift_j < n_j; culift_j += (long long)gridDim.x * blockDim.x) {",
          "out[culift_i * n_j + culift_j] = Cell(m, cols, (int)culift_i, (int)culift_j);",
          "}",
          "}",
          "}",
      });
  requireCompiles(src, "cells.cu");
}

TEST_CASE("Grid3D wrapper: C order, i on z outermost, k on x innermost, indices cast to each user type",
          "[codegen][wrapper]") {
  Module module{"voxels.cpp", {}, {}};
  module.functions.push_back(voxel3d());
  const std::string src = emitCuda(module, EmitOptions{false});
  requireLinesInOrder(
      src,
      {
          "extern \"C\" __global__ void Voxel_kernel(double scale, double* __restrict__ out, long long n_i, long long n_j, long long n_k) {",
          "const int culift_ni = (int)n_i;",
          "const int culift_nj = (int)n_j;",
          "const int culift_nk = (int)n_k;",
          "for (int culift_i = blockIdx.z * blockDim.z + threadIdx.z; culift_i < culift_ni; culift_i += gridDim.z * blockDim.z) {",
          "for (int culift_j = blockIdx.y * blockDim.y + threadIdx.y; culift_j < culift_nj; culift_j += gridDim.y * blockDim.y) {",
          "for (int culift_k0 = blockIdx.x * blockDim.x * 4 + threadIdx.x; culift_k0 < culift_nk; culift_k0 += gridDim.x * blockDim.x * 4) {",
          "const int culift_k = culift_k0 + culift_u * (int)blockDim.x;",
          "if (culift_k < culift_nk) out[(culift_i * culift_nj + culift_j) * culift_nk + culift_k] = Voxel(scale, (long long)culift_i, culift_j, (unsigned int)culift_k);",
          "extern \"C\" __global__ void Voxel_kernel64(double scale, double* __restrict__ out, long long n_i, long long n_j, long long n_k) {",
          "for (long long culift_i = (long long)blockIdx.z * blockDim.z + threadIdx.z; culift_i < n_i; culift_i += (long long)gridDim.z * blockDim.z) {",
          "for (long long culift_j = (long long)blockIdx.y * blockDim.y + threadIdx.y; culift_j < n_j; culift_j += (long long)gridDim.y * blockDim.y) {",
          "for (long long culift_k = (long long)blockIdx.x * blockDim.x + threadIdx.x; culift_k < n_k; culift_k += (long long)gridDim.x * blockDim.x) {",
          "out[(culift_i * n_j + culift_j) * n_k + culift_k] = Voxel(scale, culift_i, (int)culift_j, (unsigned int)culift_k);",
      });
  requireCompiles(src, "voxels.cu");
}

TEST_CASE("ElementWise wrapper: each scalar read from its array at the element index", "[codegen][wrapper]") {
  Module module{"blend.cpp", {}, {}};
  module.functions.push_back(elementWise());
  const std::string src = emitCuda(module, EmitOptions{false});
  requireLinesInOrder(
      src,
      {
          "__device__ float Blend(float v, double w) {",
          "return (float)((double)v * w);",
          "// Blend: ElementWise, 32-bit indices, 4 consecutive elements per thread as one vector per array; the runtime launches Blend_kernel64 when an index could pass 2^31 - 1 or an array is not aligned to its vector.",
          "extern \"C\" __global__ void Blend_kernel(const float* __restrict__ v, const double* __restrict__ w, float* __restrict__ out, long long n) {",
          "const int culift_ni = (int)n;",
          "const int culift_groups = culift_ni / 4;",
          "#pragma unroll 1",
          "for (int culift_g = blockIdx.x * blockDim.x + threadIdx.x; culift_g < culift_groups; culift_g += gridDim.x * blockDim.x) {",
          "const culift_vec<float, 4> culift_a0 = reinterpret_cast<const culift_vec<float, 4>*>(v)[culift_g];",
          "const culift_vec<double, 4> culift_a1 = reinterpret_cast<const culift_vec<double, 4>*>(w)[culift_g];",
          "culift_vec<float, 4> culift_r;",
          "#pragma unroll",
          "for (int culift_u = 0; culift_u < 4; ++culift_u) culift_r.v[culift_u] = Blend(culift_a0.v[culift_u], culift_a1.v[culift_u]);",
          "reinterpret_cast<culift_vec<float, 4>*>(out)[culift_g] = culift_r;",
          "}",
          "#pragma unroll 1",
          "for (int culift_e = culift_groups * 4 + (int)(blockIdx.x * blockDim.x + threadIdx.x); culift_e < culift_ni; culift_e += gridDim.x * blockDim.x) {",
          "out[culift_e] = Blend(v[culift_e], w[culift_e]);",
          "extern \"C\" __global__ void Blend_kernel64(const float* __restrict__ v, const double* __restrict__ w, float* __restrict__ out, long long n) {",
          "for (long long culift_e = (long long)blockIdx.x * blockDim.x + threadIdx.x; culift_e < n; culift_e += (long long)gridDim.x * blockDim.x) {",
          "out[culift_e] = Blend(v[culift_e], w[culift_e]);",
      });
  requireCompiles(src, "blend.cu");
}

TEST_CASE("void kernel writes through its output arrays; a parameter hiding a CUDA built-in is renamed",
          "[codegen][wrapper]") {
  Module module{"scale.cpp", {}, {}};
  module.functions.push_back(voidKernel());
  const std::string src = emitCuda(module, EmitOptions{false});
  requireLinesInOrder(
      src,
      {
          "__device__ void Scale(const float* x, float* y, float threadIdx, int i) {",
          "y[i] = threadIdx * x[i];",
          "extern \"C\" __global__ void Scale_kernel(const float* __restrict__ x, float* __restrict__ y, float culift_p2_threadIdx, long long n_i) {",
          "for (int culift_e0 = blockIdx.x * blockDim.x * 4 + threadIdx.x; culift_e0 < culift_ni; culift_e0 += gridDim.x * blockDim.x * 4) {",
          "const int culift_e = culift_e0 + culift_u * (int)blockDim.x;",
          "if (culift_e < culift_ni) Scale(x, y, culift_p2_threadIdx, culift_e);",
          "extern \"C\" __global__ void Scale_kernel64(const float* __restrict__ x, float* __restrict__ y, float culift_p2_threadIdx, long long n_i) {",
          "Scale(x, y, culift_p2_threadIdx, (int)culift_e);",
      });
  CHECK(src.find("out[") == std::string::npos);
  requireCompiles(src, "scale.cu");
}

TEST_CASE("a module of every mode emits its wrappers per kernel, after all device functions", "[codegen][wrapper]") {
  Module module{"all.cpp", {}, {}};
  module.functions.push_back(rowSum());
  module.functions.push_back(cell2d());
  module.functions.push_back(voxel3d());
  module.functions.push_back(elementWise());
  module.functions.push_back(voidKernel());
  const std::string src = emitCuda(module);
  const size_t lastDevice = src.rfind("__device__ void Scale(");
  const size_t firstGlobal = src.find("__global__");
  REQUIRE(lastDevice != std::string::npos);
  CHECK(firstGlobal > lastDevice);
  size_t wrappers = 0;
  for (size_t at = src.find("extern \"C\" __global__"); at != std::string::npos;
       at = src.find("extern \"C\" __global__", at + 1))
    ++wrappers;
  CHECK(wrappers == 15);  // a 32-bit, a 64-bit and a part entry per kernel
  CHECK(src.rfind("// Generated by culift " + std::string(kTranslatorVersion) + " from all.cpp.", 0) == 0);
  requireCompiles(src, cudaFileName(module));
}

TEST_CASE("an inconsistent signature is reported, not emitted", "[codegen][wrapper]") {
  Module module{"bad.cpp", {}, {}};
  module.functions.push_back(cell2d());
  module.functions[0].signature.params.pop_back();  // the extent of j
  CHECK_THROWS_AS(emitCuda(module), std::logic_error);
}
