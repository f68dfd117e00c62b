// A local array of structs is one array per field (a struct of arrays): brace lists with
// default member initializers for the rest, element access and assignment, member calls on
// elements, range for by reference and by copy.
#include <culift/annotate.hpp>

struct Particle {
  float pos = 0.0f, vel = 1.0f;
  void advance(float dt) { pos += vel * dt; }
};

CULIFT_KERNEL float StructArrays(const float* x, int i) {
  Particle ps[3] = {{x[i], 0.5f}, {.vel = -1.0f}};
  ps[2] = ps[0];
  ps[1].advance(0.25f);
  for (Particle& p : ps) p.advance(0.5f);
  float sum = 0.0f;
  for (const Particle& p : ps) sum += p.pos * p.vel;
  return sum;
}
