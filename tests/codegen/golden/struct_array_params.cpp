// Arrays of structs as kernel parameters: each kernel takes the records as the host lays them
// out (const Particle* p), the statements read them as the flat array of their one scalar type
// (p[i].vel_y is p[i * 7 + 4]), and the emitted struct asserts the host's layout.
#include <culift/annotate.hpp>

struct Vec3 {
  float x, y, z;
};
struct Particle {
  Vec3 pos;
  Vec3 vel;
  float mass;
};
// Padded by the host: 16 bytes, aligned to 16, one float of padding at the end.
struct alignas(16) Padded {
  float x, y, z;
};
template <typename T> struct Pair {
  T lo, hi;
};

inline float speedSquared(const Particle& p) { return p.vel.x * p.vel.x + p.vel.y * p.vel.y + p.vel.z * p.vel.z; }

CULIFT_KERNEL float Kinetic(const Particle* ps, int i) { return 0.5f * ps[i].mass * speedSquared(ps[i]); }

CULIFT_KERNEL void Step(const Particle* in, Particle* out, float dt, int i) {
  Particle p = in[i];
  p.pos.x += dt * p.vel.x;
  p.pos.y += dt * p.vel.y;
  p.pos.z += dt * p.vel.z;
  out[i] = p;
}

// Every particle's pull on particle i: a loop over the array of structs.
CULIFT_KERNEL float Potential(const Particle* ps, int n, int i) {
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float dx = ps[j].pos.x - ps[i].pos.x;
    const float dy = ps[j].pos.y - ps[i].pos.y;
    sum += ps[j].mass / (1.0f + dx * dx + dy * dy);
  }
  return sum;
}

CULIFT_KERNEL float PaddedLength(const Padded* v, int i) { return v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z; }

CULIFT_KERNEL double Width(const Pair<double>* r, int cols, int i, int j) { return r[i * cols + j].hi - r->lo; }

// A tiled contraction whose result an array of structs scales: the plan entries read the
// records under the user's name as floats too.
CULIFT_KERNEL float ScaledGram(const float* x, const Pair<float>* scale, int cols, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < cols; ++k) acc += x[i * cols + k] * x[j * cols + k];
  return acc * scale[i].hi + scale[j].lo;
}

// Kernels returning a struct write an array of it: out[i], out[i * cols + j], out[e].
CULIFT_KERNEL Particle Advance(const Particle* in, float dt, int i) {
  Particle p = in[i];
  p.pos.x += dt * p.vel.x;
  if (p.pos.x > 1.0f) return Particle{p.pos, Vec3{-p.vel.x, p.vel.y, p.vel.z}, p.mass};
  return p;
}
CULIFT_KERNEL Padded Offsets(const float* x, int cols, int i, int j) { return {x[i * cols + j], (float)i, (float)j}; }
CULIFT_KERNEL Pair<double> Sorted(double a, double b) {
  if (a < b) return {a, b};
  return {b, a};
}

// p->f is p[0].f, for a nested struct's field too.
CULIFT_KERNEL float FromFirst(const Particle* ps, int i) { return ps->pos.y + ps->mass * ps[i].vel.z; }
