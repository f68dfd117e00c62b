#include <culift/annotate.hpp>
CULIFT_KERNEL unsigned __int128 f(unsigned long long x) { return x; }  // expected-error {{return type 'unsigned __int128' of 'f' is not supported}}
