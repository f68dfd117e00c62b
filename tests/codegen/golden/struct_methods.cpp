// Member functions (const and not), operators as members and free functions (a compound
// assignment returning *this), a static member function and a constructor with a member
// initializer list: each a function taking the object's fields first, a struct result written
// through reference parameters after the arguments.
#include <cmath>
#include <culift/annotate.hpp>

struct Vec2 {
  float x, y;
  Vec2(float a, float b) : x(a), y(b) {}
  float dot(const Vec2& o) const { return x * o.x + y * o.y; }
  float length() const { return std::sqrt(dot(*this)); }
  Vec2& operator+=(const Vec2& o) {
    x += o.x;
    y += o.y;
    return *this;
  }
  static Vec2 unit() { return Vec2(1.0f, 0.0f); }
};
inline Vec2 operator-(const Vec2& a, const Vec2& b) { return Vec2(a.x - b.x, a.y - b.y); }

CULIFT_KERNEL float StructMethods(const float* p, int i) {
  Vec2 a(p[i], 2.0f);
  a += Vec2::unit();
  const Vec2 d = a - Vec2(0.5f, 0.5f);
  return d.length() + a.dot(d);
}
