// Templates instantiated by use: a function template called with deduced and explicit
// arguments, a class template's static member function with a non-type parameter (a loop, and
// recursion over instances ended by if constexpr), a class's static member function and static
// constexpr constant, constexpr functions (folded on constants, lifted otherwise), and an
// annotated template whose explicit instantiations are the kernels.
#include <culift/annotate.hpp>

template <class T> T lerp(T a, T b, T t) { return a + (b - a) * t; }

template <int N> struct Horner {
  static float eval(const float* c, float x) {
    float r = c[N];
    for (int k = N - 1; k >= 0; --k) r = r * x + c[k];
    return r;
  }
};

template <int N> struct PolyRec {
  static float eval(const float* c, int at, float x) {
    if constexpr (N == 0) return c[at];
    else return c[at] + x * PolyRec<N - 1>::eval(c, at + 1, x);
  }
};

struct Units {
  static constexpr float kScale = 2.5f;
  static float scaled(float v) { return v * kScale; }
};

constexpr int square(int v) { return v * v; }

CULIFT_KERNEL float Templates(const float* c, float x, int i) {
  const float a = lerp(x, 1.0f, 0.25f) + static_cast<float>(lerp<double>(x, 2.0, 0.5));
  return a + Horner<3>::eval(c, x) + PolyRec<2>::eval(c, 0, x) + Units::scaled(x) + square(4) + square(i);
}

template <class T> CULIFT_KERNEL T Clip(T v, T lo, T hi) { return v < lo ? lo : (hi < v ? hi : v); }
template float Clip<float>(float, float, float);
template int Clip<int>(int, int, int);
