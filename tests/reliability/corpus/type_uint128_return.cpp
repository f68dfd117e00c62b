#include <culift/annotate.hpp>
CULIFT_KERNEL unsigned __int128 f(unsigned long long x) { return x; }  // corpus-error
