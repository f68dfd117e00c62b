// Methods of classes that are no value structs, member calls, virtual calls and lambdas.
#include <culift/annotate.hpp>

struct Accumulator {
  CULIFT_KERNEL float add(float x) { return x + 1.0f; }  // expected-error {{'Accumulator::add' is a non-static member function}}
  virtual float scale(float x) const { return 2.0f * x; }
};

CULIFT_KERNEL float callsMethod(float x) {
  Accumulator a;  // expected-error {{local variable 'a' has type 'Accumulator': a struct with virtual functions is not supported}}
  return a.scale(x);
}

CULIFT_KERNEL float callsVirtual(const Accumulator* a, float x) {  // expected-error {{the array of structs 'a' has type 'Accumulator': a struct with virtual functions is not supported}}
  return a->scale(x);
}

CULIFT_KERNEL float usesLambda(float x) {
  auto twice = [](float v) { return 2.0f * v; };
  return twice(x);
}

CULIFT_KERNEL float callsLambdaInline(float x) {
  return [](float v) { return v + 1.0f; }(x);  // expected-error {{a lambda called where it is written is not supported}}
}

CULIFT_KERNEL float copiesMutableLambda(float x) {
  auto count = [n = 0]() mutable { return ++n; };
  auto other = count;  // expected-error {{copying the mutable lambda 'count' is not supported}}
  return x + static_cast<float>(count());
}

inline auto makeScaler(float k) { return [k](float v) { return k * v; }; }

CULIFT_KERNEL float lambdaEscapes(float x) {
  auto scale = makeScaler(2.0f);  // expected-error {{a lambda cannot leave the function that defines it: 'makeScaler' returns one}}
  return scale(x);
}

CULIFT_KERNEL float capturesArrayByCopy(float x) {
  float w[2] = {x, x};
  auto first = [w]() { return w[0]; };  // a copy of w, made here
  return first();
}

static Accumulator global;
CULIFT_KERNEL float callsMember(float x) {
  return global.scale(x);  // expected-error {{call to virtual method 'scale': virtual calls are not supported}}
}
