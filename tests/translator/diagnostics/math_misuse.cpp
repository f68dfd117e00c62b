// Math functions with an extra comparator, an empty initializer list, or a std::pair used as
// something else than std::minmax's result.
#include <culift/annotate.hpp>
#include <algorithm>
#include <cmath>

CULIFT_KERNEL float custom(float a, float b) {
  return std::max(a, b, [](float x, float y) { return x < y; });  // expected-error {{'std::max' with a comparator is not supported}}
}

CULIFT_KERNEL float customList(float a, float b, float c) {
  return std::min({a, b, c}, [](float x, float y) { return x < y; });  // expected-error {{'std::min' with a comparator is not supported}}
}

CULIFT_KERNEL float emptyList(float a) {
  return a + std::min<float>({});  // expected-error {{'std::min' of an empty initializer list is undefined behaviour}}
}

CULIFT_KERNEL float clampList(float a) {
  return std::clamp(a, 0.0f, 1.0f, [](float x, float y) { return x < y; });  // expected-error {{'std::clamp' with 4 argument(s) is not supported}}
}

CULIFT_KERNEL bool boolList(bool a, bool b) {
  return std::min({a, b, true});  // expected-error {{'std::min' of bool is not supported}}
}

CULIFT_KERNEL float minmaxComparator(float a, float b) {
  return std::minmax(a, b, [](float x, float y) { return x < y; }).first;  // expected-error {{'std::minmax' with a comparator is not supported}}
}

CULIFT_KERNEL float pairReturned(float a, float b) {
  std::minmax(a, b);  // expected-error {{the std::pair 'std::minmax' returns can only be held by a local or read as .first or .second}}
  return a;
}

CULIFT_KERNEL float pairOfOwn(float a, float b) {
  std::pair<float, float> p{a, b};  // expected-error {{a std::pair is supported only as the result of std::minmax}}
  return p.first;
}

CULIFT_KERNEL float pairDangling(float a, float b) {
  auto p = std::minmax(a + 1.0f, b);  // expected-error {{'p' holds references to the arguments of 'std::minmax', and this one is a temporary that ends with the statement}}
  return p.first;
}

CULIFT_KERNEL float pairGet(float a, float b) {
  auto p = std::minmax({a, b});
  return std::get<0>(p);  // expected-error {{a std::pair can only be read as .first and .second: 'std::get' of one is not supported}}
}

CULIFT_KERNEL float referenceToPairElement(float a, float b) {
  const float& r = std::minmax(a, b).first;  // expected-error {{reference 'r'}}
  return r;
}

CULIFT_KERNEL float pairAssigned(float a, float b) {
  auto p = std::minmax({a, b});
  p = std::minmax({b, a});  // expected-error {{operators of a std::pair are not supported}}
  return p.first;
}

CULIFT_KERNEL float pairCaptured(float a, float b) {
  auto p = std::minmax({a, b});
  auto first = [&]() { return p.first; };  // expected-error {{capture 'p' of type 'pair<float, float>' is not supported}}
  return first();
}
