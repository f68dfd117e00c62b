// Value structs: the functions of data/value_structs.hpp compiled natively here and translated by
// culift from the same file. The interpreter must give the native bits on values known only at
// run time.
#include <cstddef>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "catch.hpp"
#include "data/value_structs.hpp"
#include "translated_header.hpp"

using namespace culift;
using interp::Value;

namespace {

using test::kFloats;
using test::opaque;
using test::sameBits;
using test::varNamed;

const test::TranslatedHeader& translatedStructs() {
  static const test::TranslatedHeader t = test::translateDataHeader("value_structs.hpp");
  return t;
}

// Calls the translated function `name` with `args` and compares with `expect`, bit for bit.
template <typename R> void sameBitsAs(const std::string& name, std::vector<interp::Arg> args, R expect) {
  const test::TranslatedHeader& t = translatedStructs();
  INFO(t.diagnostics);
  REQUIRE(t.module);
  const Function* fn = t.module->find(name);
  REQUIRE(fn);
  Value got;
  REQUIRE_NOTHROW(got = t.program->call(*fn, args));
  INFO(name << ": interpreter " << got.toString() << ", native " << Value::of(expect).toString());
  CHECK(sameBits(got.as<R>(), expect));
}

}  // namespace

TEST_CASE("the value-structs header translates into scalar leaves", "[interp][translated][structs]") {
  const test::TranslatedHeader& t = translatedStructs();
  INFO(t.diagnostics);
  REQUIRE(t.module);
  // Member functions, operators and constructors are functions with readable names.
  for (const char* name : {"Vec3_dot", "Vec3_length", "Vec3_scale", "Vec3_op_add_assign", "Vec3_op_neg", "Vec3_splat",
                           "op_sub", "op_mul", "op_eq", "Complex_ctor", "Complex_ctor_2", "Complex_op_mul",
                           "Pair_int_sum", "Pair_int_swap", "Pair_float_sum", "Histogram_add"})
    CHECK(t.module->find(name));
  // A const member function takes the object's leaves as const references, a non-const one as
  // references; a struct result is written through reference parameters after the arguments.
  const Function& dot = *t.module->find("Vec3_dot");
  REQUIRE(dot.numParams == 6);
  CHECK(dot.vars[0].name == "self_x");
  CHECK(dot.vars[0].binding == Binding::ConstReference);
  CHECK(dot.vars[3].name == "o_x");
  CHECK(t.module->find("Vec3_scale")->vars[0].binding == Binding::Reference);
  const Function& sub = *t.module->find("op_sub");
  REQUIRE(sub.numParams == 9);
  CHECK(sub.returnType.isVoid());
  CHECK(sub.vars[6].name == "ret_x");
  CHECK(sub.vars[6].binding == Binding::Reference);
  // An array field by value arrives as a pointer and is copied on entry.
  const Function& peak = *t.module->find("peak");
  REQUIRE(varNamed(peak, "h_counts_in"));
  CHECK(varNamed(peak, "h_counts_in")->type == Type::pointer(Scalar::F32, true));
  REQUIRE(varNamed(peak, "h_counts"));
  CHECK(varNamed(peak, "h_counts")->type == Type::array(Scalar::F32, 4));
  // A kernel taking structs by value takes their fields; CULIFT_UNIFORM(light) marks each of its.
  const Function& shade = *t.module->find("Shade");
  CHECK(shade.mode == IndexMode::ElementWise);
  CHECK(shade.signature.toString() ==
        "(const float* normal_x, const float* normal_y, const float* normal_z, float light_dir_x, float light_dir_y, "
        "float light_dir_z, float light_intensity, float* culift_out, long long culift_n)");
}

TEST_CASE("value structs equal native C++: members, operators, copies and results", "[interp][translated][structs]") {
  std::vector<float> p = kFloats;
  for (int i = 0; i < static_cast<int>(p.size()); ++i)
    sameBitsAs("VectorMath", {interp::ArrayRef::of(std::span<const float>(p)), Value::of(i)},
               structs::VectorMath(p.data(), opaque(i)));
}

TEST_CASE("value structs equal native C++: array fields, nesting, defaults and designated initializers",
          "[interp][translated][structs]") {
  std::vector<float> x = {0.5f, -1.25f, 2.0f, 0.75f, -0.125f, 3.5f, 1.0f};
  for (int n : {1, 4, 7})
    for (int i = 0; i < n; ++i)
      sameBitsAs("Histogram4", {interp::ArrayRef::of(std::span<const float>(x)), Value::of(n), Value::of(i)},
                 structs::Histogram4(x.data(), opaque(n), opaque(i)));
}

TEST_CASE("value structs equal native C++: constructors and struct results through helpers",
          "[interp][translated][structs]") {
  for (double cx : {-2.0, -0.75, -0.1, 0.25, 0.3, 1.0})
    for (double cy : {-1.0, 0.0, 0.1, 0.65})
      sameBitsAs("Mandelbrot", {Value::of(cx), Value::of(cy), Value::of(50)},
                 structs::Mandelbrot(opaque(cx), opaque(cy), opaque(50)));
}

TEST_CASE("value structs equal native C++: structured bindings of structs and arrays",
          "[interp][translated][structs]") {
  std::vector<double> x = {0.5, -1.25, 2.0, 0.75, -0.125, 3.5, 1.0, 1e-3};
  for (int m : {1, 2, 4})
    for (int i = 0; i + m <= static_cast<int>(x.size()); ++i)
      sameBitsAs("Variance", {interp::ArrayRef::of(std::span<const double>(x)), Value::of(m), Value::of(i)},
                 structs::Variance(x.data(), opaque(m), opaque(i)));
}

TEST_CASE("value structs equal native C++: class templates, lambdas and reference parameters",
          "[interp][translated][structs]") {
  for (int u : {-7, 0, 3, 1000})
    for (int v : {-2, 5, 40})
      sameBitsAs("PairGames", {Value::of(u), Value::of(v)}, structs::PairGames(opaque(u), opaque(v)));
}

TEST_CASE("a kernel taking structs by value takes their fields", "[interp][translated][structs]") {
  for (float nx : kFloats)
    for (float dz : {-1.0f, 0.5f, 2.0f}) {
      const structs::Vec3 normal{opaque(nx), opaque(0.5f), opaque(-0.25f)};
      const structs::Light light{{opaque(0.25f), opaque(-1.5f), opaque(dz)}, opaque(0.75f)};
      sameBitsAs("Shade",
                 {Value::of(nx), Value::of(0.5f), Value::of(-0.25f), Value::of(0.25f), Value::of(-1.5f), Value::of(dz),
                  Value::of(0.75f)},
                 structs::Shade(normal, light));
    }
}

TEST_CASE("value structs equal native C++: long array fields, defaults reading fields, a loop over a struct",
          "[interp][translated][structs]") {
  std::vector<float> x = {0.5f, -1.25f, 2.0f, 0.75f, -0.125f, 3.5f, 1.0f, 1e-3f, 7.0f};
  const int n = static_cast<int>(x.size());
  for (int i = 0; i < n; ++i)
    sameBitsAs("Smooth", {interp::ArrayRef::of(std::span<const float>(x)), Value::of(n), Value::of(i)},
               structs::Smooth(x.data(), opaque(n), opaque(i)));
}

TEST_CASE("value structs equal native C++: local arrays of structs", "[interp][translated][structs]") {
  std::vector<float> x = {0.5f, -1.25f, 2.0f, 0.75f, -0.125f, 0.9f};
  const int n = static_cast<int>(x.size());
  for (int i = 0; i < n; ++i)
    sameBitsAs("Particles", {interp::ArrayRef::of(std::span<const float>(x)), Value::of(n), Value::of(i)},
               structs::Particles(x.data(), opaque(n), opaque(i)));
  // One array per field.
  const test::TranslatedHeader& t = translatedStructs();
  REQUIRE(t.module);
  const Function& particles = *t.module->find("Particles");
  REQUIRE(varNamed(particles, "ps_pos"));
  CHECK(varNamed(particles, "ps_pos")->type == Type::array(Scalar::F32, 4));
  REQUIRE(varNamed(particles, "ps_hits"));
  CHECK(varNamed(particles, "ps_hits")->type == Type::array(Scalar::I32, 4));
}

TEST_CASE("value structs equal native C++: arrays of structs as kernel parameters", "[interp][translated][structs]") {
  std::vector<structs::Body> bodies(4);
  for (int b = 0; b < 4; ++b) {
    const float f = static_cast<float>(b);
    bodies[b] = structs::Body{{f, 0.5f * f, -f}, {0.25f - f, 1.5f, f * f}, 1.0f + f};
  }
  // The interpreter reads the same memory as the flat array of its floats.
  static_assert(sizeof(structs::Body) == 7 * sizeof(float));
  std::span<const float> flat(reinterpret_cast<const float*>(bodies.data()), bodies.size() * 7);
  for (int i = 0; i < 4; ++i)
    sameBitsAs("BodyEnergy", {interp::ArrayRef::of(flat), Value::of(4), Value::of(i)},
               structs::BodyEnergy(bodies.data(), opaque(4), opaque(i)));
  const test::TranslatedHeader& t = translatedStructs();
  REQUIRE(t.module);
  const Function& step = *t.module->find("BodyStep");
  std::vector<structs::Body> native(4), interpreted(4);
  for (int i = 0; i < 4; ++i) structs::BodyStep(bodies.data(), native.data(), opaque(0.125f), opaque(i));
  for (int i = 0; i < 4; ++i) {
    std::vector<interp::Arg> args = {interp::ArrayRef::of(flat),
                                     interp::ArrayRef::of(std::span<float>(reinterpret_cast<float*>(interpreted.data()),
                                                                           interpreted.size() * 7)),
                                     Value::of(0.125f), Value::of(i)};
    REQUIRE_NOTHROW(t.program->call(step, args));
  }
  CHECK(std::memcmp(native.data(), interpreted.data(), native.size() * sizeof(structs::Body)) == 0);
  // The kernel signature keeps the host's layout.
  const KernelParam& in = step.signature.params[0];
  REQUIRE(in.record);
  CHECK(in.record->name == "structs::Body");
  CHECK(in.record->size == sizeof(structs::Body));
  CHECK(in.record->align == alignof(structs::Body));
  REQUIRE(in.record->fields.size() == 7);
  CHECK(in.record->fields[3].path == "vel_x");
  CHECK(in.record->fields[3].offset == offsetof(structs::Body, vel));
  CHECK(in.record->fields[6].offset == offsetof(structs::Body, mass));
  for (float v : kFloats) sameBitsAs("NestedDefaults", {Value::of(v)}, structs::NestedDefaults(opaque(v)));
  for (float v : kFloats) sameBitsAs("FieldOfTemporary", {Value::of(v)}, structs::FieldOfTemporary(opaque(v)));
  for (float v : kFloats) sameBitsAs("CapturedStructArrays", {Value::of(v)}, structs::CapturedStructArrays(opaque(v)));
  std::vector<float> x = {0.5f, -1.25f, 2.0f};
  for (int i = 0; i < 3; ++i)
    sameBitsAs("StridedLocalStructs", {interp::ArrayRef::of(std::span<const float>(x)), Value::of(i)},
               structs::StridedLocalStructs(x.data(), opaque(i)));
}

TEST_CASE("value structs equal native C++: kernels returning a struct write an array of it",
          "[interp][translated][structs]") {
  const test::TranslatedHeader& t = translatedStructs();
  INFO(t.diagnostics);
  REQUIRE(t.module);
  std::vector<structs::Body> bodies(4);
  for (int b = 0; b < 4; ++b) {
    const float f = static_cast<float>(b);
    bodies[b] = structs::Body{{0.5f * f, f, -f}, {1.0f - f, 0.25f, f}, 2.0f + f};
  }
  std::span<const float> flat(reinterpret_cast<const float*>(bodies.data()), bodies.size() * 7);
  auto launch = [&](const char* name, std::vector<interp::Arg> args, interp::Extent e) {
    const Function* fn = t.module->find(name);
    REQUIRE(fn);
    REQUIRE(fn->resultRecord);
    REQUIRE_NOTHROW(t.program->launch(*fn, e, args));
  };
  // 1-D: out[i] = BodyAdvance(in, dt, i).
  std::vector<structs::Body> native(4), interpreted(4);
  for (int i = 0; i < 4; ++i) native[i] = structs::BodyAdvance(bodies.data(), opaque(0.75f), opaque(i));
  interp::Extent e1;
  e1.rank = 1;
  e1.n[0] = 4;
  launch("BodyAdvance",
         {interp::ArrayRef::of(flat), Value::of(0.75f),
          interp::ArrayRef::of(std::span<float>(reinterpret_cast<float*>(interpreted.data()), 28))},
         e1);
  CHECK(std::memcmp(native.data(), interpreted.data(), sizeof(structs::Body) * 4) == 0);
  // 2-D: out[i * cols + j].
  std::vector<structs::Vec3> grid(12), gridNative(12);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      gridNative[i * 4 + j] = structs::Between(bodies.data(), opaque(4), opaque(i), opaque(j));
  interp::Extent e2;
  e2.rank = 2;
  e2.n[0] = 3;
  e2.n[1] = 4;
  launch("Between",
         {interp::ArrayRef::of(flat), Value::of(4),
          interp::ArrayRef::of(std::span<float>(reinterpret_cast<float*>(grid.data()), 36))},
         e2);
  CHECK(std::memcmp(grid.data(), gridNative.data(), sizeof(structs::Vec3) * 12) == 0);
  // Element-wise: out[e] = Spread(a[e], b[e]).
  const std::vector<float> a = {1.5f, -2.0f, 0.0f}, b = {4.0f, 0.5f, -0.0f};
  std::vector<structs::Vec3> spread(3), spreadNative(3);
  for (int k = 0; k < 3; ++k) spreadNative[k] = structs::Spread(opaque(a[k]), opaque(b[k]));
  launch("Spread",
         {interp::ArrayRef::of(std::span<const float>(a)), interp::ArrayRef::of(std::span<const float>(b)),
          interp::ArrayRef::of(std::span<float>(reinterpret_cast<float*>(spread.data()), 9))},
         interp::Extent{{3, 1, 1}, 1});
  CHECK(std::memcmp(spread.data(), spreadNative.data(), sizeof(structs::Vec3) * 3) == 0);
  // The kernel's out is an array of the struct.
  const KernelParam& out = t.module->find("BodyAdvance")->signature.params.back().role == ParamRole::Extent
                               ? t.module->find("BodyAdvance")->signature.params[2]
                               : t.module->find("BodyAdvance")->signature.params.back();
  CHECK(out.role == ParamRole::ResultArray);
  REQUIRE(out.record);
  CHECK(out.record->size == sizeof(structs::Body));
}
