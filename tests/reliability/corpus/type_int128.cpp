#include <culift/annotate.hpp>
CULIFT_KERNEL long long f(__int128 x) { return (long long)x; }  // expected-error {{parameter 'x' has unsupported type '__int128'}}
