// std::min/std::max of initializer lists and std::minmax: the functions of data/min_max_lists.hpp
// compiled natively here and translated by culift from the same file. The interpreter must give
// the native bits on values known only at run time: NaN in every position, zeros of both signs
// (equal elements, where min_element takes the first and minmax_element's largest the last),
// infinities and the integers' limits.
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "catch.hpp"
#include "data/min_max_lists.hpp"
#include "translated_header.hpp"

using namespace culift;
using interp::Value;

namespace {

using test::sameAsNative;

const test::TranslatedHeader& translated() {
  static const test::TranslatedHeader t = test::translateDataHeader("min_max_lists.hpp");
  return t;
}

template <typename T> std::vector<T> boundaryFloats() {
  using L = std::numeric_limits<T>;
  return {L::quiet_NaN(), -L::quiet_NaN(), -L::infinity(), T(-1.5), T(-0.0), T(0.0), T(2.0), L::infinity()};
}
// Fewer, for the functions of five arguments.
template <typename T> std::vector<T> fewFloats() {
  using L = std::numeric_limits<T>;
  return {L::quiet_NaN(), T(-0.0), T(0.0), T(1.0)};
}

}  // namespace

TEST_CASE("the min/max header translates", "[interp][translated][minmax]") {
  const test::TranslatedHeader& t = translated();
  INFO(t.diagnostics);
  REQUIRE(t.module);
  CHECK(t.diagnostics.empty());
  // Lowered to the two-operand nodes: no temporary where every element is a variable.
  const Function& min3 = *t.module->find("Min3");
  CHECK(min3.vars.size() == 3);
}

TEST_CASE("std::min and std::max of a list equal native C++", "[interp][translated][minmax]") {
  const test::TranslatedHeader& t = translated();
  for (float a : boundaryFloats<float>())
    for (float b : boundaryFloats<float>())
      for (float c : boundaryFloats<float>()) {
        sameAsNative(t, "Min3", minmax::Min3, a, b, c);
        sameAsNative(t, "Max3", minmax::Max3, a, b, c);
        sameAsNative(t, "BoundsLo", minmax::BoundsLo, a, b, c);
        sameAsNative(t, "BoundsHi", minmax::BoundsHi, a, b, c);
      }
  for (double a : fewFloats<double>())
    for (double b : fewFloats<double>())
      for (double c : fewFloats<double>())
        for (double d : fewFloats<double>())
          for (double e : fewFloats<double>()) {
            sameAsNative(t, "Min5", minmax::Min5, a, b, c, d, e);
            sameAsNative(t, "Max5", minmax::Max5, a, b, c, d, e);
          }
  for (float a : boundaryFloats<float>()) {
    sameAsNative(t, "MinOne", minmax::MinOne, a);
    for (double b : boundaryFloats<double>()) sameAsNative(t, "MinConverted", minmax::MinConverted, a, b);
  }
}

TEST_CASE("std::min and std::max of a list of integers equal native C++", "[interp][translated][minmax]") {
  const test::TranslatedHeader& t = translated();
  const std::vector<int> ints = {std::numeric_limits<int>::min(), -7, 0, 7, std::numeric_limits<int>::max()};
  for (int a : ints)
    for (int b : ints)
      for (int c : ints) {
        sameAsNative(t, "MinInt", minmax::MinInt, a, b, c);
        sameAsNative(t, "MaxInt", minmax::MaxInt, a, b, c);
        sameAsNative(t, "MinmaxIntSpread", minmax::MinmaxIntSpread, a, b, c);
      }
  const std::vector<unsigned> uints = {0u, 6u, 7u, 8u, std::numeric_limits<unsigned>::max()};
  for (unsigned a : uints)
    for (unsigned b : uints)
      for (unsigned c : uints) sameAsNative(t, "MaxUnsigned", minmax::MaxUnsigned, a, b, c);
  const std::vector<long long> longs = {std::numeric_limits<long long>::min(), -4, -3, 0,
                                        std::numeric_limits<long long>::max()};
  for (long long a : longs)
    for (long long b : longs) sameAsNative(t, "MinLong", minmax::MinLong, a, b);
  const std::vector<short> shorts = {std::numeric_limits<short>::min(), -1, 0, 1, std::numeric_limits<short>::max()};
  for (short a : shorts)
    for (short b : shorts)
      for (short c : shorts) sameAsNative(t, "MinmaxShortHi", minmax::MinmaxShortHi, a, b, c);
}

TEST_CASE("std::minmax of a list equals native C++: first smallest, last largest", "[interp][translated][minmax]") {
  const test::TranslatedHeader& t = translated();
  for (float a : boundaryFloats<float>())
    for (float b : boundaryFloats<float>())
      for (float c : boundaryFloats<float>()) {
        sameAsNative(t, "Minmax3Lo", minmax::Minmax3Lo, a, b, c);
        sameAsNative(t, "Minmax3Hi", minmax::Minmax3Hi, a, b, c);
      }
  for (float a : fewFloats<float>())
    for (float b : fewFloats<float>())
      for (float c : fewFloats<float>())
        for (float d : fewFloats<float>()) {
          sameAsNative(t, "Minmax4Lo", minmax::Minmax4Lo, a, b, c, d);
          sameAsNative(t, "Minmax4Hi", minmax::Minmax4Hi, a, b, c, d);
        }
  for (double a : fewFloats<double>())
    for (double b : fewFloats<double>())
      for (double c : fewFloats<double>())
        for (double d : fewFloats<double>())
          for (double e : fewFloats<double>()) {
            sameAsNative(t, "Minmax5Lo", minmax::Minmax5Lo, a, b, c, d, e);
            sameAsNative(t, "Minmax5Hi", minmax::Minmax5Hi, a, b, c, d, e);
          }
}

TEST_CASE("std::minmax of a list differs from std::max where the largest elements tie",
          "[interp][translated][minmax]") {
  // Native facts the lowering relies on: max_element takes the first largest, minmax_element the
  // last; a NaN after the first pair is compared with the pair's other element first.
  CHECK(std::signbit(minmax::Max3(-0.0f, 0.0f, -0.0f)));
  CHECK(std::signbit(minmax::Minmax3Hi(0.0f, 0.0f, -0.0f)));
  CHECK(minmax::Minmax4Lo(5.0f, 7.0f, NAN, 0.0f) == 5.0f);
  CHECK(minmax::Min5(5.0, 7.0, NAN, 0.0, 9.0) == 0.0);
  const test::TranslatedHeader& t = translated();
  sameAsNative(t, "Minmax3Hi", minmax::Minmax3Hi, 0.0f, 0.0f, -0.0f);
  sameAsNative(t, "Minmax4Lo", minmax::Minmax4Lo, 5.0f, 7.0f, NAN, 0.0f);
}

TEST_CASE("std::minmax(a, b) equals native C++: by value, held as references, copied", "[interp][translated][minmax]") {
  const test::TranslatedHeader& t = translated();
  for (float a : boundaryFloats<float>())
    for (float b : boundaryFloats<float>()) {
      sameAsNative(t, "MinmaxFirst", minmax::MinmaxFirst, a, b);
      sameAsNative(t, "MinmaxSecond", minmax::MinmaxSecond, a, b);
      sameAsNative(t, "MinmaxHeldFirst", minmax::MinmaxHeldFirst, a, b);
      sameAsNative(t, "MinmaxHeldSecond", minmax::MinmaxHeldSecond, a, b);
      for (float c : {-3.0f, 0.0f, 5.0f}) {
        sameAsNative(t, "MinmaxReferencesFirst", minmax::MinmaxReferencesFirst, a, b, c);
        sameAsNative(t, "MinmaxReferencesSecond", minmax::MinmaxReferencesSecond, a, b, c);
        sameAsNative(t, "MinmaxCopied", minmax::MinmaxCopied, a, b, c);
      }
    }
  // The pair refers to a, which changes after the call: the held element reads the new value.
  CHECK(minmax::MinmaxReferencesFirst(test::opaque(1.0f), test::opaque(2.0f), test::opaque(-5.0f)) == -5.0f);
  const Function* elements = translated().module->find("MinmaxElements");
  REQUIRE(elements);
  for (float x0 : {-1.0f, 2.0f})
    for (int i : {0, 1})
      for (float c : {0.5f, 3.0f}) {
        std::vector<float> x = {x0, 1.0f};
        const float expect = minmax::MinmaxElements(x.data(), test::opaque(i), test::opaque(c));
        const std::vector<interp::Arg> args = {interp::ArrayRef::of(std::span<const float>(x)), Value::of(i),
                                               Value::of(c)};
        const Value got = t.program->call(*elements, args);
        INFO("x0 " << x0 << ", i " << i << ", c " << c << ": interpreter " << got.toString() << ", native " << expect);
        CHECK(test::sameBits(got.as<float>(), expect));
      }
}

TEST_CASE("the elements of std::min/max/minmax are evaluated once, in order", "[interp][translated][minmax]") {
  const test::TranslatedHeader& t = translated();
  for (int a : {-1000, -3, 0, 2, 1000})
    for (int b : {-50, 0, 7}) sameAsNative(t, "MinSideEffects", minmax::MinSideEffects, a, b);
  for (float a : {-2.5f, -0.0f, 0.0f, 1.0f, 4.0f})
    for (float b : {-1.0f, 0.0f, 3.0f}) {
      sameAsNative(t, "MinmaxSideEffects", minmax::MinmaxSideEffects, a, b);
      for (float c : {-1.0f, 2.0f, 10.0f}) sameAsNative(t, "MaxInCondition", minmax::MaxInCondition, a, b, c);
    }
  CHECK(minmax::MinSideEffects(test::opaque(2), test::opaque(7)) == 2006);
}
