// Index parameters must be integers passed by value, and come as i, i+j or i+j+k.
#include <culift/annotate.hpp>

CULIFT_KERNEL float floatIndex(const float* x, float i) { return x[0] + i; }  // expected-error {{index parameter 'i' of 'floatIndex' must be an integer}}
CULIFT_KERNEL float onlyJ(const float* x, int j) { return x[j]; }  // expected-error {{index parameter 'j' of 'onlyJ' needs 'i' too}}
CULIFT_KERNEL float kWithoutJ(const float* x, int i, int k) { return x[i + k]; }  // expected-error {{index parameter 'k' of 'kWithoutJ' needs 'i' and 'j' too}}
CULIFT_KERNEL_INDEX(row, col) float badOverride(const float* x, double row, int col) { return x[col] + row; }  // expected-error {{index parameter 'row' of 'badOverride' must be an integer}}
CULIFT_KERNEL float pointerIndex(int* i) { return i[0]; }  // expected-error {{index parameter 'i' of 'pointerIndex' must be an integer passed by value}}
