#include <culift/annotate.hpp>
struct V {
  float c[3];
  float& at(int k) { return c[k]; }  // expected-error {{'V_at' returns a reference: functions returning references are not supported}}
};
CULIFT_KERNEL float f(float a, int k) {
  V v{{a, a, a}};
  v.at(k) = 1.0f;
  return v.c[0];
}
