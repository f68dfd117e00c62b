// Methods, member calls, virtual calls and lambdas.
#include <culift/annotate.hpp>

struct Accumulator {
  CULIFT_KERNEL float add(float x) { return x + 1.0f; }  // expected-error {{'Accumulator::add' is a method}}
  virtual float scale(float x) const { return 2.0f * x; }
};

CULIFT_KERNEL float callsMethod(float x) {
  Accumulator a;  // expected-error {{local variable 'a' has class type}}
  return a.scale(x);
}

CULIFT_KERNEL float callsVirtual(const Accumulator* a, float x) {  // expected-error {{parameter 'a' points to unsupported type}}
  return a->scale(x);
}

CULIFT_KERNEL float usesLambda(float x) {
  auto twice = [](float v) { return 2.0f * v; };  // expected-error {{lambdas are not supported}}
  return twice(x);
}

CULIFT_KERNEL float callsLambdaInline(float x) {
  return [](float v) { return v + 1.0f; }(x);  // expected-error {{lambdas are not supported}}
}

static Accumulator global;
CULIFT_KERNEL float callsMember(float x) {
  return global.scale(x);  // expected-error {{member function calls are not supported}}
}
