// Templates, static members, constexpr, references, range for and lambdas: the functions of
// data/function_features.hpp compiled natively here and translated by culift from the same file.
// The interpreter must give the native bits on values known only at run time.
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "catch.hpp"
#include "data/function_features.hpp"
#include "translated_header.hpp"

using namespace culift;
using interp::Value;

namespace {

using test::kFloats;
using test::opaque;
using test::sameBits;
using test::varNamed;

const test::TranslatedHeader& translatedFeatures() {
  static const test::TranslatedHeader f = test::translateDataHeader("function_features.hpp");
  return f;
}

// Calls the translated function `name` and the native one on the same values.
template <typename R, typename... P> void sameAsNative(const std::string& name, R (*native)(P...), P... args) {
  test::sameAsNative(translatedFeatures(), name, native, args...);
}

}  // namespace

TEST_CASE("the function-features header translates", "[interp][translated][functions]") {
  const test::TranslatedHeader& f = translatedFeatures();
  INFO(f.diagnostics);
  REQUIRE(f.module);
  // Each instance is a function of its own, with a readable name.
  for (const char* name : {"lerp_float", "lerp_double", "distance_int", "distance_float", "Horner_4_eval",
                           "PolyRec_3_eval", "PolyRec_0_eval", "Units_scaled", "sincosPair", "Clip_float", "Clip_int"})
    CHECK(f.module->find(name));
  // constexpr calls on constants are folded; on a run-time value, cube is lifted.
  CHECK(f.module->find("cube"));
  CHECK_FALSE(f.module->find("half"));
  // The explicit instantiations of the annotated template are the kernels; the template is not.
  CHECK(f.module->find("Clip_float")->isKernel());
  CHECK(f.module->find("Clip_int")->isKernel());
  CHECK_FALSE(f.module->find("Clip"));
  // Output parameters are references; a const reference local to an element is one too.
  const Function& sincos = *f.module->find("sincosPair");
  CHECK(sincos.vars[1].binding == Binding::Reference);
  CHECK(sincos.vars[2].binding == Binding::Reference);
  CHECK(f.module->find("accumulate")->vars[1].binding == Binding::ConstReference);
  const Function& refs = *f.module->find("References");
  REQUIRE(varNamed(refs, "alias"));
  CHECK(varNamed(refs, "alias")->binding == Binding::ConstReference);
  REQUIRE(varNamed(refs, "widened"));
  CHECK(varNamed(refs, "widened")->binding == Binding::Value);  // a temporary: a local of its own
  // A lambda is a function whose first parameters are its captures.
  const Function* byRef = nullptr;
  for (const Function& fn : f.module->functions)
    if (fn.name.rfind("Lambdas_lambda", 0) == 0 && fn.numParams == 2 && fn.vars[0].name == "k" &&
        fn.vars[0].binding == Binding::Reference)
      byRef = &fn;
  CHECK(byRef);
}

TEST_CASE("templates, static members and constexpr equal native C++", "[interp][translated][functions]") {
  for (float a : kFloats)
    for (float b : {-4.0f, 0.5f, 7.0f})
      for (int n : {-5, 0, 2, 9}) sameAsNative("TemplateCalls", &features::TemplateCalls, a, b, 0.375, n);
  for (float v : kFloats) {
    sameAsNative("Clip_float", &features::Clip<float>, v, -1.0f, 2.0f);
    sameAsNative("Clip_float", &features::Clip<float>, std::numeric_limits<float>::quiet_NaN(), v, 2.0f);
  }
  for (int v : {std::numeric_limits<int>::min(), -3, 0, 5, std::numeric_limits<int>::max()})
    sameAsNative("Clip_int", &features::Clip<int>, v, -2, 4);

  const test::TranslatedHeader& f = translatedFeatures();
  REQUIRE(f.module);
  const std::vector<float> c = {0.5f, -1.25f, 2.0f, 0.75f, -0.125f};
  for (float x : kFloats)
    for (int i : {0, 1, 3}) {
      interp::Arg args[] = {interp::ArrayRef::of(std::span<const float>(c)), Value::of(x), Value::of(i)};
      const float expect = features::Polynomial(c.data(), opaque(x), opaque(i));
      const Value got = f.program->call(*f.module->find("Polynomial"), args);
      INFO("Polynomial(c, " << x << ", " << i << ")");
      CHECK(sameBits(got.as<float>(), expect));
    }
}

TEST_CASE("references equal native C++: outputs, aliases and temporaries", "[interp][translated][functions]") {
  for (float a : kFloats)
    for (float b : {-3.0f, 0.25f, 8.5f}) sameAsNative("References", &features::References, a, b);

  // A const reference to a[i] reads the element after the write through a[i].
  const test::TranslatedHeader& f = translatedFeatures();
  REQUIRE(f.module);
  std::vector<float> native = {1.5f, -2.0f, 3.25f};
  std::vector<float> lifted = native;
  for (int i = 0; i < 3; ++i) {
    features::ReferencesInArrays(native.data(), i);
    interp::Arg args[] = {interp::ArrayRef::of(std::span<float>(lifted)), Value::of(i)};
    f.program->call(*f.module->find("ReferencesInArrays"), args);
  }
  CHECK(native == lifted);
  CHECK(lifted[0] == 1.5f * 2.0f + 1.0f + 0.25f);  // the new value, not the old one
}

TEST_CASE("range for over local arrays equals native C++", "[interp][translated][functions]") {
  for (float a : kFloats)
    for (float b : {-3.0f, 0.25f, 8.5f}) sameAsNative("RangeFor", &features::RangeFor, a, b);
}

TEST_CASE("lambdas equal native C++: captures by copy, by reference, init and mutable",
          "[interp][translated][functions]") {
  for (float a : kFloats)
    for (float b : {-3.0f, 0.25f, 8.5f}) sameAsNative("Lambdas", &features::Lambdas, a, b);
}
