// ---- culift device prelude: std::min, std::max, std::clamp, std::abs as C++ defines them ----
template <typename T> __device__ __forceinline__ T culift_min(T a, T b) { return (b < a) ? b : a; }
template <typename T> __device__ __forceinline__ T culift_max(T a, T b) { return (a < b) ? b : a; }
template <typename T> __device__ __forceinline__ T culift_clamp(T v, T lo, T hi) {
  return (v < lo) ? lo : (hi < v) ? hi : v;
}
__device__ __forceinline__ int culift_abs(int v) { return abs(v); }
__device__ __forceinline__ long long culift_abs(long long v) { return llabs(v); }
// A float's magnitude clears its sign bit in inline PTX (an integer and): the device assembler
// took fabsf's result for a number, so `-3.25f < fabsf(x)` and `fabsf(x) >= 0.0f` were true for a
// NaN x (all its optimization levels; doubles are compared correctly).
__device__ __forceinline__ float culift_fabsf(float v) {
  float r;
  asm("and.b32 %0, %1, 0x7fffffff;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ float culift_abs(float v) { return culift_fabsf(v); }
__device__ __forceinline__ double culift_abs(double v) { return fabs(v); }
// std::atomic_ref's fetch_add and fetch_sub where CUDA has no atomic of the type: 64-bit signed
// integers through the unsigned atomic (two's complement: the same bits), sub as an add of the
// negation (for floating values a - v and a + -v round alike).
__device__ __forceinline__ long long culift_atomic_add(long long* p, long long v) {
  return (long long)atomicAdd((unsigned long long*)p, (unsigned long long)v);
}
__device__ __forceinline__ long long culift_atomic_sub(long long* p, long long v) {
  return (long long)atomicAdd((unsigned long long*)p, 0ull - (unsigned long long)v);
}
__device__ __forceinline__ unsigned long long culift_atomic_sub(unsigned long long* p, unsigned long long v) {
  return atomicAdd(p, 0ull - v);
}
// A value the device compiler cannot see through (an empty mov in inline PTX), which keeps it
// from rules that do not hold. The device assembler removes the mov.
__device__ __forceinline__ float culift_opaque(float v) {
  float r;
  asm("mov.b32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ double culift_opaque(double v) {
  double r;
  asm("mov.b64 %0, %1;" : "=d"(r) : "d"(v));
  return r;
}
__device__ __forceinline__ int culift_opaque(int v) {
  int r;
  asm("mov.b32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}
__device__ __forceinline__ unsigned int culift_opaque(unsigned int v) {
  unsigned int r;
  asm("mov.b32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}
__device__ __forceinline__ long long culift_opaque(long long v) {
  long long r;
  asm("mov.b64 %0, %1;" : "=l"(r) : "l"(v));
  return r;
}
__device__ __forceinline__ unsigned long long culift_opaque(unsigned long long v) {
  unsigned long long r;
  asm("mov.b64 %0, %1;" : "=l"(r) : "l"(v));
  return r;
}
// Floating zeros: with a constant zero z the compiler turns `(z < x) ? x : z` into max(x, z),
// which orders -0.0 below +0.0 where C++ finds them equal.
__device__ __forceinline__ float culift_zero(float z) { return culift_opaque(z); }
__device__ __forceinline__ double culift_zero(double z) { return culift_opaque(z); }
// Floating negation flips the sign bit in inline PTX (an integer xor): the device assembler
// negated a value it knew to be zero as an integer, which gives +0.0 for -(+0.0).
__device__ __forceinline__ float culift_neg(float v) {
  float r;
  asm("xor.b32 %0, %1, 0x80000000;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ double culift_neg(double v) {
  double r;
  asm("xor.b64 %0, %1, 0x8000000000000000;" : "=d"(r) : "d"(v));
  return r;
}
// A float's fetch_sub adds its negation (culift_neg: fetch_sub(+0.0) on -0.0 gives -0.0).
__device__ __forceinline__ float culift_atomic_sub(float* p, float v) { return atomicAdd(p, culift_neg(v)); }
__device__ __forceinline__ double culift_atomic_sub(double* p, double v) { return atomicAdd(p, culift_neg(v)); }
// An integer hidden from both compilers: an and with all ones read from constant memory, which
// the host may change, so that the device assembler cannot take the value for a constant either.
// culift_opaque's mov hides a value from the optimizer before PTX only: the device assembler then
// folds, as constants, values the optimizer shaped code for as unknown, and got such code wrong
// (a loop of two steps whose break never happens ran once; H200, CUDA 12).
__constant__ unsigned int culift_ones32 = 0xffffffffu;
__constant__ unsigned long long culift_ones64 = 0xffffffffffffffffull;
__device__ __forceinline__ unsigned int culift_hide(unsigned int v) { return v & *(volatile const unsigned int*)&culift_ones32; }
__device__ __forceinline__ int culift_hide(int v) { return (int)culift_hide((unsigned int)v); }
__device__ __forceinline__ unsigned long long culift_hide(unsigned long long v) {
  return v & *(volatile const unsigned long long*)&culift_ones64;
}
__device__ __forceinline__ long long culift_hide(long long v) { return (long long)culift_hide((unsigned long long)v); }
__device__ __forceinline__ float culift_hide(float v) { return culift_opaque(v); }
__device__ __forceinline__ double culift_hide(double v) { return culift_opaque(v); }
// Floating divisors go through culift_opaque: the compiler takes a quotient of two numbers
// for a number, which 0/0 is not.
// An integer converted to a char or short: the arithmetic before stays in 32 bits, where the
// compiler would narrow it to 16-bit operations it does not always get right.
template <typename T, typename S> __device__ __forceinline__ T culift_narrow(S v) { return (T)culift_hide(v); }
// A char or short widened to 64 bits: in 32 bits, through culift_hide. The device compiler's
// optimizer took one short's 64-bit extension for another's after a loop, where a branch before
// the loop returned on a condition it could decide only after inlining (`if (h(3) > 7) return;`).
__device__ __forceinline__ int culift_widen(signed char v) { return culift_hide((int)v); }
__device__ __forceinline__ int culift_widen(short v) { return culift_hide((int)v); }
__device__ __forceinline__ unsigned int culift_widen(unsigned char v) { return culift_hide((unsigned int)v); }
__device__ __forceinline__ unsigned int culift_widen(unsigned short v) { return culift_hide((unsigned int)v); }
// std::min, std::max and std::clamp of a char or short compare in 32 bits, through culift_opaque:
// the device assembler got a 16-bit min wrong (of an unsigned short decremented in a nested switch).
template <typename T, typename W> __device__ __forceinline__ T culift_min32(T a, T b) {
  const W x = culift_opaque((W)a), y = culift_opaque((W)b);
  return (T)((y < x) ? y : x);
}
template <typename T, typename W> __device__ __forceinline__ T culift_max32(T a, T b) {
  const W x = culift_opaque((W)a), y = culift_opaque((W)b);
  return (T)((x < y) ? y : x);
}
template <typename T, typename W> __device__ __forceinline__ T culift_clamp32(T v, T lo, T hi) {
  const W x = culift_opaque((W)v), l = culift_opaque((W)lo), h = culift_opaque((W)hi);
  return (T)((x < l) ? l : (h < x) ? h : x);
}
template <> __device__ __forceinline__ signed char culift_min(signed char a, signed char b) { return culift_min32<signed char, int>(a, b); }
template <> __device__ __forceinline__ signed char culift_max(signed char a, signed char b) { return culift_max32<signed char, int>(a, b); }
template <> __device__ __forceinline__ signed char culift_clamp(signed char v, signed char lo, signed char hi) {
  return culift_clamp32<signed char, int>(v, lo, hi);
}
template <> __device__ __forceinline__ unsigned char culift_min(unsigned char a, unsigned char b) { return culift_min32<unsigned char, unsigned int>(a, b); }
template <> __device__ __forceinline__ unsigned char culift_max(unsigned char a, unsigned char b) { return culift_max32<unsigned char, unsigned int>(a, b); }
template <> __device__ __forceinline__ unsigned char culift_clamp(unsigned char v, unsigned char lo, unsigned char hi) {
  return culift_clamp32<unsigned char, unsigned int>(v, lo, hi);
}
template <> __device__ __forceinline__ short culift_min(short a, short b) { return culift_min32<short, int>(a, b); }
template <> __device__ __forceinline__ short culift_max(short a, short b) { return culift_max32<short, int>(a, b); }
template <> __device__ __forceinline__ short culift_clamp(short v, short lo, short hi) {
  return culift_clamp32<short, int>(v, lo, hi);
}
template <> __device__ __forceinline__ unsigned short culift_min(unsigned short a, unsigned short b) { return culift_min32<unsigned short, unsigned int>(a, b); }
template <> __device__ __forceinline__ unsigned short culift_max(unsigned short a, unsigned short b) { return culift_max32<unsigned short, unsigned int>(a, b); }
template <> __device__ __forceinline__ unsigned short culift_clamp(unsigned short v, unsigned short lo, unsigned short hi) {
  return culift_clamp32<unsigned short, unsigned int>(v, lo, hi);
}
// ++ and -- of a char or short, through culift_narrow.
template <typename T> __device__ __forceinline__ T& culift_pre_inc(T& x) { return x = culift_narrow<T>(x + 1); }
template <typename T> __device__ __forceinline__ T& culift_pre_dec(T& x) { return x = culift_narrow<T>(x - 1); }
template <typename T> __device__ __forceinline__ T culift_post_inc(T& x) {
  const T old = x;
  x = culift_narrow<T>(x + 1);
  return old;
}
template <typename T> __device__ __forceinline__ T culift_post_dec(T& x) {
  const T old = x;
  x = culift_narrow<T>(x - 1);
  return old;
}
// N elements read or written as one aligned access (element-wise kernels)
template <typename T, int N> struct alignas(sizeof(T) * N) culift_vec { T v[N]; };
// ---- end of culift device prelude ----
