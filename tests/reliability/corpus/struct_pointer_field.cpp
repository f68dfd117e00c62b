#include <culift/annotate.hpp>
struct View {
  const float* data;
  int n;
};
inline float first(View v) { return v.data[0]; }  // expected-error {{parameter 'v' has type 'View': its pointer field 'View::data' is not supported}}
CULIFT_KERNEL float f(const float* x, int i) { return first(View{x, i}); }
