// Structs, unions, references, library types and pointers to pointers, as parameters and locals.
#include <culift/annotate.hpp>
#include <vector>

struct Point { float x, y; };
union Bits { float f; int i; };

CULIFT_KERNEL float byStruct(Point p) { return 0.0f; }  // expected-error {{parameter 'p' has class type 'Point'}}
CULIFT_KERNEL float byUnion(Bits b) { return 0.0f; }  // expected-error {{parameter 'b' has class type 'Bits'}}
CULIFT_KERNEL float byRef(float& r) { return r; }  // expected-error {{reference parameter 'r'}}
CULIFT_KERNEL float byConstRef(const float& r) { return r; }  // expected-error {{reference parameter 'r'}}
CULIFT_KERNEL float byVector(const std::vector<float>& v, int i) { return v[i]; }  // expected-error {{reference parameter 'v'}}
CULIFT_KERNEL float byPointerToPointer(float** m, int i) { return m[i][0]; }  // expected-error {{pointer-to-pointer parameter 'm'}}
CULIFT_KERNEL float byPointerToStruct(const Point* p, int i) { return 0.0f; }  // expected-error {{parameter 'p' points to unsupported type}}
CULIFT_KERNEL Point returnsStruct(float a) { return Point{a, a}; }  // expected-error {{return type 'Point' of 'returnsStruct' is not supported}}

CULIFT_KERNEL float localStruct(float a) {
  Point p{a, a};  // expected-error {{local variable 'p' has class type}}
  std::vector<float> v(4);  // expected-error {{local variable 'v' has class type}}
  float& r = a;
  return p.x + v[0] + r;
}
