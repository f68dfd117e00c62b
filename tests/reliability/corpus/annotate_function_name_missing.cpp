#include <culift/annotate.hpp>
int g(int a) { return a; }
