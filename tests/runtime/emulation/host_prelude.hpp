// The device preludes of emitted CUDA C (translator/src/codegen/prelude/), for the host: the same
// names and values, without inline PTX. culift_hide and culift_opaque hide nothing from the host
// compiler (they keep the device compilers from rules that do not hold; the host's hold).
#pragma once

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>

template <typename T> inline T culift_min(T a, T b) { return (b < a) ? b : a; }
template <typename T> inline T culift_max(T a, T b) { return (a < b) ? b : a; }
template <typename T> inline T culift_clamp(T v, T lo, T hi) { return (v < lo) ? lo : (hi < v) ? hi : v; }
inline int culift_abs(int v) { return std::abs(v); }
inline long long culift_abs(long long v) { return std::llabs(v); }
inline float culift_fabsf(float v) {
  unsigned bits;
  std::memcpy(&bits, &v, 4);
  bits &= 0x7fffffffu;
  std::memcpy(&v, &bits, 4);
  return v;
}
inline float culift_abs(float v) { return culift_fabsf(v); }
inline double culift_abs(double v) { return std::fabs(v); }
template <typename T> inline T culift_opaque(T v) { return v; }
inline float culift_zero(float z) { return z; }
inline double culift_zero(double z) { return z; }
inline float culift_neg(float v) { return -v; }
inline double culift_neg(double v) { return -v; }
inline const unsigned culift_ones32 = 0xffffffffu;
inline const unsigned long long culift_ones64 = 0xffffffffffffffffull;
template <typename T> inline T culift_hide(T v) { return v; }
template <typename T, typename S> inline T culift_narrow(S v) { return (T)v; }
inline int culift_widen(signed char v) { return v; }
inline int culift_widen(short v) { return v; }
inline unsigned culift_widen(unsigned char v) { return v; }
inline unsigned culift_widen(unsigned short v) { return v; }
template <typename T, typename W> inline T culift_min32(T a, T b) { return culift_min(a, b); }
template <typename T, typename W> inline T culift_max32(T a, T b) { return culift_max(a, b); }
template <typename T, typename W> inline T culift_clamp32(T v, T lo, T hi) { return culift_clamp(v, lo, hi); }
template <typename T> inline T& culift_pre_inc(T& x) { return x = culift_narrow<T>(x + 1); }
template <typename T> inline T& culift_pre_dec(T& x) { return x = culift_narrow<T>(x - 1); }
template <typename T> inline T culift_post_inc(T& x) {
  const T old = x;
  x = culift_narrow<T>(x + 1);
  return old;
}
template <typename T> inline T culift_post_dec(T& x) {
  const T old = x;
  x = culift_narrow<T>(x - 1);
  return old;
}
template <typename T, int N> struct alignas(sizeof(T) * N) culift_vec {
  T v[N];
};
template <typename T> inline T culift_atomic_add(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <typename T> inline T culift_atomic_sub(T* p, T v) { return std::atomic_ref<T>(*p).fetch_sub(v); }

// The plan prelude: copies at once, stores plainly.
template <typename T> inline void culift_copy_async(T* shared, const T* global) { *shared = *global; }
inline void culift_copy_commit() {}
inline void culift_copy_async16(void* shared, const void* global, int bytes) {
  for (int b = 0; b < 16; ++b) static_cast<char*>(shared)[b] = b < bytes ? static_cast<const char*>(global)[b] : 0;
}
template <int N> inline void culift_copy_wait() {}
template <typename T> inline void culift_store_streaming(T* global, T value) { *global = value; }
