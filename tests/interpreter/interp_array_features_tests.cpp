// std::array and multi-dimensional arrays: the functions of data/array_features.hpp compiled
// natively here and translated by culift from the same file. The interpreter must give the
// native bits, and still catch an index past the end of the flat array.
#include <cstring>
#include <string>
#include <vector>

#include "catch.hpp"
#include "data/array_features.hpp"
#include "translated_header.hpp"

using namespace culift;
using interp::Value;

namespace {

using test::kFloats;
using test::opaque;
using test::sameBits;

const test::TranslatedHeader& translatedArrays() {
  static const test::TranslatedHeader t = test::translateDataHeader("array_features.hpp");
  return t;
}

template <typename R, typename... P> void sameAsNative(const std::string& name, R (*native)(P...), P... args) {
  test::sameAsNative(translatedArrays(), name, native, args...);
}

}  // namespace

TEST_CASE("the array-features header translates", "[interp][translated][arrays]") {
  const test::TranslatedHeader& t = translatedArrays();
  INFO(t.diagnostics);
  REQUIRE(t.module);
  for (const char* name : {"StdArrays", "AssignedFromCall", "Matrices", "Gemm", "rowDot", "ramp", "doubled",
                           "changedCopy", "addTo", "total", "rotated"})
    CHECK(t.module->find(name));
  // A returned std::array is written through a last parameter; a by-value one is copied.
  const Function* ramp = t.module->find("ramp");
  REQUIRE(ramp);
  CHECK(ramp->returnType.isVoid());
  CHECK(ramp->vars[ramp->numParams - 1].type == Type::pointer(Scalar::F32, false));
  const Function* copy = t.module->find("changedCopy");
  REQUIRE(copy);
  CHECK(copy->vars[0].name == "culift_v");
  CHECK(copy->vars[0].type == Type::pointer(Scalar::F32, true));
}

TEST_CASE("std::array equals native C++: copies, by-value and reference parameters, returns, bindings",
          "[interp][translated][arrays]") {
  for (float a : kFloats)
    for (float b : {-3.0f, 0.25f, 8.5f}) sameAsNative("StdArrays", &arrays::StdArrays, a, b);
  for (float a : kFloats)
    for (float b : {-3.0f, 0.25f, 8.5f}) sameAsNative("Assignments", &arrays::Assignments, a, b);
  for (float a : kFloats)
    for (float b : {-3.0f, 0.25f, 8.5f}) sameAsNative("ArrayReferences", &arrays::ArrayReferences, a, b);
  for (double a : {-1.5, 0.0, 0.1, 7.25})
    for (double b : {-2.0, 0.3}) sameAsNative("AssignedFromCall", &arrays::AssignedFromCall, a, b);
}

TEST_CASE("lambdas capturing arrays, templates over the extent and static member tables equal native C++",
          "[interp][translated][arrays]") {
  for (float a : kFloats)
    for (float b : {-3.0f, 0.25f, 8.5f}) {
      sameAsNative("Captures", &arrays::Captures, a, b);
      sameAsNative("CopiedCaptures", &arrays::CopiedCaptures, a, b);
    }
  const test::TranslatedHeader& t = translatedArrays();
  REQUIRE(t.module);
  CHECK(t.module->find("sumOf_3"));
  CHECK(t.module->find("sumOf_5"));
}

TEST_CASE("multi-dimensional arrays equal native C++", "[interp][translated][arrays]") {
  for (float a : kFloats)
    for (int i : {-4, 0, 1, 2, 5}) sameAsNative("Matrices", &arrays::Matrices, a, i);
  for (float a : kFloats)
    for (float b : {-3.0f, 0.25f, 8.5f}) sameAsNative("Rows", &arrays::Rows, a, b);
}

TEST_CASE("rows of constant extent (const float A[][N]) are flat row-major arrays", "[interp][translated][arrays]") {
  const test::TranslatedHeader& t = translatedArrays();
  REQUIRE(t.module);
  constexpr int n = ARRAYS_N;
  float A[3][n], B[n][n], C[3][n];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < n; ++c) A[r][c] = 0.1f * static_cast<float>(r * n + c) - 1.0f;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) B[r][c] = 0.05f * static_cast<float>((r + 3) * (c + 1) % 11);
  std::vector<float> flatA(&A[0][0], &A[0][0] + 3 * n), flatB(&B[0][0], &B[0][0] + n * n), flatC(3 * n, 0.5f);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < n; ++c) C[r][c] = 0.5f;
  const Function* gemm = t.module->find("Gemm");
  REQUIRE(gemm);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < n; ++j) {
      arrays::Gemm(opaque(1.5f), A, B, C, i, j);
      interp::Arg args[] = {Value::of(1.5f),
                            interp::ArrayRef::of(std::span<const float>(flatA)),
                            interp::ArrayRef::of(std::span<const float>(flatB)),
                            interp::ArrayRef::of(std::span<float>(flatC)),
                            Value::of(i),
                            Value::of(j)};
      t.program->call(*gemm, args);
    }
  CHECK(std::memcmp(flatC.data(), &C[0][0], sizeof(C)) == 0);

  // Past the last row of the array passed: an error naming the flat index and the array.
  interp::Arg past[] = {Value::of(1.0f),
                        interp::ArrayRef::of(std::span<const float>(flatA)),
                        interp::ArrayRef::of(std::span<const float>(flatB)),
                        interp::ArrayRef::of(std::span<float>(flatC)),
                        Value::of(3),
                        Value::of(0)};
  try {
    t.program->call(*gemm, past);
    FAIL("no interp::Error");
  } catch (const interp::Error& e) {
    CHECK_THAT(std::string(e.what()), Catch::Contains("out of bounds"));
  }
}
