#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  co_return a;  // expected-error {{std::coroutine_traits type was not found; include <coroutine> before defining a coroutine; include <experimental/coroutine> if your version of libcxx is less than 14.0}}
}
