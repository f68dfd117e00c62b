// Recursion, direct and mutual: the device has no call stack to grow.
#include <culift/annotate.hpp>

CULIFT_KERNEL int factorial(int n) {
  if (n <= 1) return 1;
  return n * factorial(n - 1);  // expected-error {{recursive call to 'factorial'}}
}

int ping(int n);
int pong(int n) { return n <= 0 ? 0 : ping(n - 1); }  // expected-error {{recursive call to 'ping'}}
int ping(int n) { return n <= 0 ? 0 : pong(n - 1); }  // expected-error {{recursive call to 'pong'}}

CULIFT_KERNEL int bounce(int n) { return ping(n); }
