// Arrays of structs as kernel parameters: compiled natively by the runtime tests and translated
// by culift, then launched with buffers of the structs (DeviceBuffer<Particle>) and of their
// scalars on the CPU backend and the GPU.
#pragma once

#include <culift/annotate.hpp>

struct Vec3 {
  float x, y, z;
};
struct Particle {
  Vec3 pos;
  Vec3 vel;
  float mass;
};

CULIFT_KERNEL inline float Kinetic(const Particle* ps, int i) {
  return 0.5f * ps[i].mass * ps[i].vel.x * ps[i].vel.x;
}

CULIFT_KERNEL inline void Step(const Particle* in, Particle* out, float dt, int i) {
  Particle p = in[i];
  p.pos.x += dt * p.vel.x;
  out[i] = p;
}

// Records of doubles (8-byte alignment), and an array of them beside a plain array.
struct Interval {
  double lo, hi;
};

CULIFT_KERNEL inline double Width(const Interval* r, const double* scale, int i) {
  return (r[i].hi - r[i].lo) * scale[i];
}
