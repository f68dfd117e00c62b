// Value structs: locals, parameters (by value, const S&, S&), results of helpers, aggregate,
// designated and default member initialization, copies and assignment, nested fields and array
// fields, member functions and operators, static members, constructors, structured bindings,
// struct parameters of kernels. Compiled natively by interp_value_structs_tests.cpp and
// translated by culift from this same file: the interpreter must give the native bits.
#pragma once

#include <culift/annotate.hpp>

#include <cmath>

namespace structs {

struct Vec3 {
  float x, y, z;
  float dot(const Vec3& o) const { return x * o.x + y * o.y + z * o.z; }
  float length() const { return std::sqrt(dot(*this)); }
  void scale(float k) {
    x *= k;
    y *= k;
    z *= k;
  }
  Vec3& operator+=(const Vec3& o) {
    x += o.x;
    y += o.y;
    z += o.z;
    return *this;
  }
  Vec3 operator-() const { return {-x, -y, -z}; }
  static Vec3 splat(float v) { return {v, v, v}; }
};
inline Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(float k, Vec3 v) {
  v.scale(k);  // a copy: the caller's vector stays as it is
  return v;
}
inline bool operator==(const Vec3& a, const Vec3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
// v - 2 (v . n) n: the result assigned back to v reads v through a const reference.
inline Vec3 reflect(const Vec3& v, const Vec3& n) { return v - (2.0f * v.dot(n)) * n; }

CULIFT_KERNEL float VectorMath(const float* p, int i) {
  Vec3 a{p[i], p[i] + 1.0f, 2.0f};
  const Vec3 b = Vec3::splat(0.5f);
  Vec3 d = a - b;
  d += Vec3{1.0f, -1.0f, 0.25f};
  Vec3 e = 2.0f * d;
  e = reflect(e, Vec3{0.0f, 1.0f, 0.0f});
  Vec3 n = -e;
  const float same = (n == -e) ? 1.0f : 0.0f;
  return (a - b).length() + e.dot(d) + n.x + same;
}

// Default member initializers, designated initializers, nested structs and array fields.
struct Range {
  float lo = 0.0f, hi = 1.0f;
  float width() const { return hi - lo; }
};
struct Histogram {
  Range range;
  int bins = 4;
  float counts[4] = {};
  void add(float v) {
    const float t = (v - range.lo) / range.width();
    int b = static_cast<int>(t * static_cast<float>(bins));
    if (b < 0) b = 0;
    if (b >= bins) b = bins - 1;
    counts[b] += 1.0f;
  }
};

inline Range minmax(float a, float b) {
  if (a < b) return {a, b};
  return Range{.lo = b, .hi = a};
}
inline Range widen(Range r, float by) {
  r.lo -= by;
  r.hi += by;
  return r;
}
inline void clear(Histogram& h) {
  for (int k = 0; k < 4; ++k) h.counts[k] = 0.0f;
}
// An array field by value: the callee changes its copy only.
inline float peak(Histogram h) {
  float best = h.counts[0];
  for (int k = 1; k < h.bins; ++k) best = std::fmax(best, h.counts[k]);
  h.counts[0] = -1.0f;
  return best;
}

CULIFT_KERNEL float Histogram4(const float* x, int n, int i) {
  Histogram h{.range = widen(minmax(x[i], x[i] * 2.0f + 1.0f), 0.5f)};
  for (int k = 0; k < n; ++k) h.add(x[(i + k) % n]);
  Histogram copy = h;
  clear(h);
  const float p = peak(copy);
  Range r;
  r = copy.range;
  r = Range{r.hi, r.lo};  // swapped: the braces are a temporary, read before r is written
  return p + copy.counts[0] + copy.counts[3] * 10.0f + h.counts[1] + r.lo - r.hi + static_cast<float>(copy.bins);
}

// A constructor with a member initializer list, operators as members, a struct returned
// through a chain of helpers.
struct Complex {
  double re, im;
  Complex(double r, double i) : re(r), im(i) {}
  explicit Complex(double r) : re(r), im(0.0) {}
  Complex operator*(const Complex& o) const { return Complex(re * o.re - im * o.im, re * o.im + im * o.re); }
  Complex operator+(const Complex& o) const { return {re + o.re, im + o.im}; }
  double norm() const { return re * re + im * im; }
};
inline Complex square(const Complex& z) { return z * z; }
inline Complex step(Complex z, const Complex& c) { return square(z) + c; }

CULIFT_KERNEL int Mandelbrot(double cx, double cy, int limit) {
  const Complex c{cx, cy};
  Complex z(0.0);
  int k = 0;
  while (k < limit && z.norm() <= 4.0) {
    z = step(z, c);
    ++k;
  }
  return k;
}

// Structured bindings of a struct (by copy and by reference) and of a local array.
struct Stats {
  double sum = 0.0, sumSq = 0.0;
  int count = 0;
  void add(double v) {
    sum += v;
    sumSq += v * v;
    ++count;
  }
};
inline Stats statsOf(const double* x, int from, int n) {
  Stats s;
  for (int k = from; k < from + n; ++k) s.add(x[k]);
  return s;
}

CULIFT_KERNEL double Variance(const double* x, int m, int i) {
  auto [sum, sumSq, count] = statsOf(x, i, m);
  const double mean = sum / count;
  Stats s = statsOf(x, i, m);
  auto& [s1, s2, c] = s;
  s1 += 1.0;  // through the reference binding: s.sum changes
  double w[3] = {mean, sumSq, 0.5};
  auto [w0, w1, w2] = w;
  auto& [r0, r1, r2] = w;
  r2 = 4.0;
  return sumSq / count - mean * mean + s.sum + s2 + c + w0 + w1 + w2 + r2 + w[2];
}

// A class template's member function, lambdas taking and capturing structs, a struct reference
// parameter.
template <class T> struct Pair {
  T a, b;
  T sum() const { return a + b; }
  void swap() {
    const T t = a;
    a = b;
    b = t;
  }
};
inline void bump(Pair<int>& p, int by) {
  p.a += by;
  p.swap();
}

CULIFT_KERNEL int PairGames(int u, int v) {
  Pair<int> p{u, v};
  bump(p, 3);
  Pair<float> q{static_cast<float>(p.a), 0.5f};
  auto twice = [&](const Pair<float>& r) { return r.sum() * 2.0f + static_cast<float>(p.b); };
  Histogram h{};
  h.counts[2] = 3.0f;
  auto peek = [h](int k) { return h.counts[k]; };  // a copy, array field too: made here
  h.counts[2] = 0.0f;
  auto bumpAll = [&h](float by) {
    for (float& c : h.counts) c += by;
  };
  bumpAll(0.5f);
  return p.sum() * 100 + static_cast<int>(twice(q)) + static_cast<int>(peek(2) * 10.0f + h.counts[2]);
}

// Kernels taking structs by value: their fields are the kernel's scalar parameters (here an
// element-wise kernel: each field an array read per element, the light uniform).
struct Light {
  Vec3 dir;
  float intensity;
};
CULIFT_KERNEL CULIFT_UNIFORM(light) float Shade(Vec3 normal, Light light) {
  const float lambert = normal.dot(light.dir);
  return lambert > 0.0f ? lambert * light.intensity : 0.0f;
}

// Long array fields (copied by loops), default member initializers reading the fields before
// them (also in a nested struct), a struct updated in a for loop's increment.
struct Window {
  float lo = 0.0f, hi = lo + 2.0f;
};
struct Kernel16 {
  Window window;
  float taps[16] = {};
  float scale = window.hi - window.lo;
};
inline Kernel16 ramp(float start) {
  Kernel16 k;
  for (int t = 0; t < 16; ++t) k.taps[t] = start + 0.125f * static_cast<float>(t);
  return k;
}
inline float apply(Kernel16 k, const float* x, int i, int n) {
  float s = 0.0f;
  for (int t = 0; t < 16; ++t) {
    s += k.taps[t] * x[(i + t) % n];
    k.taps[t] = 0.0f;  // the copy only
  }
  return s * k.scale;
}
struct Step {
  int at;
  float weight;
  Step next() const { return {at + 1, weight * 0.5f}; }
};

CULIFT_KERNEL float Smooth(const float* x, int n, int i) {
  const Kernel16 k = ramp(x[i]);
  Kernel16 copy{};
  copy = k;
  float s = apply(copy, x, i, n) + copy.taps[15] + k.window.hi;
  for (Step st{0, 1.0f}; st.at < 4; st = st.next()) s += st.weight * x[(i + st.at) % n];
  return s;
}

// A local array of structs (one array per field): brace lists, defaults, element access,
// element assignment, references to elements, member calls on elements, range for over it.
struct Particle {
  float pos = 0.0f, vel = 1.0f;
  int hits = 0;
  void advance(float dt) {
    pos += vel * dt;
    if (pos > 1.0f) {
      pos = 2.0f - pos;
      vel = -vel;
      ++hits;
    }
  }
  float energy() const { return 0.5f * vel * vel; }
};

CULIFT_KERNEL float Particles(const float* x, int n, int i) {
  Particle ps[4] = {{x[i], 0.5f}, {x[(i + 1) % n], -0.25f}, {.vel = 2.0f}};
  Particle spare[2];
  spare[1] = ps[0];
  spare[0] = Particle{0.25f, x[i], 7};
  for (int step = 0; step < 8; ++step)
    for (Particle& p : ps) p.advance(0.125f);
  Particle& first = ps[0];
  first.vel *= 2.0f;
  float e = 0.0f;
  for (const Particle& p : ps) e += p.energy() + static_cast<float>(p.hits);
  for (Particle p : spare) {
    p.advance(1.0f);  // a copy
    e += p.pos;
  }
  return e + ps[3].pos + spare[1].pos + static_cast<float>(spare[0].hits);
}

// Arrays of structs as kernel parameters: the records as the host lays them out.
struct Body {
  Vec3 pos;
  Vec3 vel;
  float mass;
  float speedSquared() const { return vel.dot(vel); }
};

CULIFT_KERNEL float BodyEnergy(const Body* bodies, int n, int i) {
  float e = 0.5f * bodies[i].mass * bodies[i].speedSquared();
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    const Vec3 d = bodies[j].pos - bodies[i].pos;
    e -= bodies[i].mass * bodies[j].mass / (0.01f + d.length());
  }
  return e + bodies->mass * 0.0f;
}

CULIFT_KERNEL void BodyStep(const Body* in, Body* out, float dt, int i) {
  Body b = in[i];
  b.pos += dt * b.vel;
  out[i] = b;
  out[i].mass = in[(i + 1) % 4].mass;
}

// Kernels returning a struct: an array of it, one per output (1-D, 2-D and element-wise).
CULIFT_KERNEL Body BodyAdvance(const Body* in, float dt, int i) {
  Body b = in[i];
  b.pos += dt * b.vel;
  if (b.pos.x > 1.0f) return Body{b.pos, -b.vel, b.mass * 0.5f};
  return b;
}
CULIFT_KERNEL Vec3 Between(const Body* bodies, int cols, int i, int j) {
  return 0.5f * (bodies[i].pos - bodies[j].pos) - Vec3{static_cast<float>(cols), 0.0f, 1.0f};
}
CULIFT_KERNEL Vec3 Spread(float a, float b) { return Vec3{a, b, a * b}; }

// A constructor leaving a nested field to its default member initializers, which read the
// nested struct's other fields.
struct Inner {
  float a = 1.5f;
  float b = a * 2.0f;
};
struct Outer {
  int k = 3;
  Inner n;
  Outer() = default;
  Outer(int v) : k(v) {}
};
CULIFT_KERNEL float NestedDefaults(float x) {
  Outer o(4);
  Outer p;
  return o.n.b + p.n.b * x + static_cast<float>(o.k + p.k);
}

// A local array of structs written at a computed index (the index copied with every operator).
CULIFT_KERNEL float StridedLocalStructs(const float* x, int i) {
  Particle ps[8] = {};
  for (int k = 0; k < 4; ++k) ps[2 * k + 1] = Particle{x[i] * static_cast<float>(k), 0.5f, k};
  float s = 0.0f;
  for (const Particle& p : ps) s += p.pos * static_cast<float>(p.hits + 1);
  return s;
}

// Const references to a field of a temporary struct, and to the temporary itself: C++ extends
// the temporary's life to the reference's.
CULIFT_KERNEL float FieldOfTemporary(float a) {
  const float& r = Spread(a, 2.0f).z;
  const Vec3& v = reflect(Vec3{a, 1.0f, -a}, Vec3{0.0f, 1.0f, 0.0f});
  const float& y = Outer(5).n.b;
  return r + v.y * y - v.x;
}

// Lambdas capturing a local array of structs by reference and by copy (one array per field).
CULIFT_KERNEL float CapturedStructArrays(float a) {
  Particle ps[3] = {{a, 1.0f, 1}, {2.0f, a, 2}, {a * a, -a, 3}};
  auto first = [&ps]() { return ps[0].pos + ps[1].vel; };
  auto bump = [&ps](int k) { ps[k].pos += 1.0f; };
  bump(2);
  auto copied = [ps]() {
    float s = 0.0f;
    for (const Particle& p : ps) s += p.pos * p.vel * static_cast<float>(p.hits);
    return s;
  };
  auto scale = [&]() {
    float s = 0.0f;
    for (Particle& p : ps) {
      p.vel *= 2.0f;
      s += p.vel;
    }
    return s;
  };
  const float before = copied();
  return first() + before + scale() + copied() + ps[1].vel;
}

}  // namespace structs
