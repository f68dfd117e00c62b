// Lambdas: captures by copy ([=] and named), by reference ([&] and named), an init-capture, a
// mutable lambda, a captured array, and lambdas passed to a function template (named, and
// written in the call).
#include <culift/annotate.hpp>

template <class F> float twice(F f, float x) { return f(f(x)); }

CULIFT_KERNEL float Lambdas(const float* x, int i) {
  float k = x[i];
  float w[2] = {1.0f, 2.0f};
  auto byCopy = [=](float v) { return v * k; };
  auto byRef = [&](float v) {
    k += v;
    return k;
  };
  auto named = [k, &w](float v) { return k + v * w[1]; };
  auto init = [s = k * 2.0f](float v) { return s - v; };
  auto counter = [n = 0]() mutable { return ++n; };
  float r = byCopy(2.0f) + byRef(1.0f) + named(0.5f) + init(1.0f);
  r += static_cast<float>(counter() + counter());
  r += twice(byCopy, r) + twice([&](float v) { return v + k; }, 1.0f);
  return r;
}
// A local array of structs captured: one array per field, by reference or copied whole.
struct Hit {
  float at, weight;
};
CULIFT_KERNEL float CapturedHits(const float* x, int i) {
  Hit hits[2] = {{x[i], 1.0f}, {x[i] * 2.0f, 0.5f}};
  auto shift = [&hits](float d) {
    for (Hit& h : hits) h.at += d;
  };
  auto weighted = [hits]() { return hits[0].at * hits[0].weight + hits[1].at * hits[1].weight; };
  shift(1.0f);
  return weighted() + hits[1].at;
}
