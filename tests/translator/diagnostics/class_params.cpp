// Unions, references, library types, pointers to pointers and structs where kernels cannot
// take them, as parameters and locals. A value struct by value is a kernel's scalars.
#include <culift/annotate.hpp>
#include <vector>

struct Point { float x, y; };
struct Tagged { int id; float x; };
struct Samples { float v[4]; };
union Bits { float f; int i; };

CULIFT_KERNEL float byStruct(Point p) { return p.x; }
CULIFT_KERNEL float byStructRef(const Point& p) { return p.x; }  // expected-error {{reference parameter 'p' of type 'const Point &' is not supported}}
CULIFT_KERNEL float byUnion(Bits b) { return 0.0f; }  // expected-error {{parameter 'b' has type 'Bits': unions are not supported}}
CULIFT_KERNEL float byRef(float& r) { return r; }  // expected-error {{reference parameter 'r'}}
CULIFT_KERNEL float byConstRef(const float& r) { return r; }  // expected-error {{reference parameter 'r'}}
CULIFT_KERNEL float byVector(const std::vector<float>& v, int i) { return v[i]; }  // expected-error {{reference parameter 'v'}}
CULIFT_KERNEL float byPointerToPointer(float** m, int i) { return m[i][0]; }  // expected-error {{pointer-to-pointer parameter 'm'}}
CULIFT_KERNEL float byPointerToStruct(const Point* p, int i) { return p[i].y; }
CULIFT_KERNEL float byPointerToMixed(const Tagged* t, int i) { return t[i].x; }  // expected-error {{the array of structs 't' has type 'Tagged', whose fields have different types ('id' is int, 'x' is float)}}
CULIFT_KERNEL float byPointerToArrays(const Samples* s, int i) { return s[i].v[0]; }  // expected-error {{the array of structs 's' has type 'Samples', whose field 'v' is an array: not supported in an array of structs}}
CULIFT_KERNEL Point returnsStruct(float a) { return Point{a, a}; }
CULIFT_KERNEL Tagged returnsMixed(float a) { return Tagged{1, a}; }  // expected-error {{the result of kernel 'returnsMixed' has type 'Tagged', whose fields have different types ('id' is int, 'x' is float)}}

CULIFT_KERNEL float localStruct(float a) {
  Point p{a, a};
  std::vector<float> v(4);  // expected-error {{local variable 'v' has class type 'std::vector<float>': library types are not supported}}
  float& r = a;
  return p.x + v[0] + r;
}
