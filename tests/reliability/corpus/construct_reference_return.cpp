#include <culift/annotate.hpp>
inline const float& larger(const float& a, const float& b) { return a < b ? b : a; }  // expected-error {{'larger' returns a reference: functions returning references are not supported}}
CULIFT_KERNEL float f(float a, float b) { return larger(a, b); }
