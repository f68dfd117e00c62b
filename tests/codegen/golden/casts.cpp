// Every implicit conversion becomes an explicit cast; exact literal casts fold.
#include <culift/annotate.hpp>

CULIFT_KERNEL double Casts(int n, float x, short s, unsigned char b) {
  float fromInt = n;           // int -> float
  double widened = x * 1.0;    // float * double is computed in double
  int truncated = (int)(x * 2.5f);
  float zero = 0;              // folds to 0.0f
  long long wide = static_cast<long long>(n) * n;
  int promoted = s + b;        // short and unsigned char promote to int
  return fromInt + widened + truncated + zero + wide + promoted;
}
