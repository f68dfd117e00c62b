#include <culift/annotate.hpp>
int g(int a);
inline int h(int a) { return a <= 0 ? 0 : g(a - 1); }  // expected-error {{recursive call to 'g' (it calls 'h' back)}}
int g(int a) { return h(a); }
CULIFT_KERNEL int f(int a) { return g(a); }
