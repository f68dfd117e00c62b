#include "catch.hpp"

#include "culift/ast/module.hpp"

using namespace culift;

TEST_CASE("scalar types have C++ sizes and CUDA spellings", "[ast]") {
  CHECK(byteSize(Scalar::I8) == 1);
  CHECK(byteSize(Scalar::U64) == 8);
  CHECK(spelling(Scalar::I64) == "long long");
  CHECK(spelling(Scalar::U8) == "unsigned char");
  CHECK(isSigned(Scalar::I16));
  CHECK_FALSE(isSigned(Scalar::U16));
  CHECK(isFloating(Scalar::F32));
  CHECK_FALSE(isInteger(Scalar::Bool));
  CHECK(toString(Type::pointer(Scalar::F32, true)) == "const float*");
  CHECK(toString(Type::array(Scalar::F64, 6)) == "double[6]");
}

TEST_CASE("math names resolve, C float forms included", "[ast]") {
  MathFn fn;
  bool floatForm = false;
  REQUIRE(lookupMathFn("sqrtf", fn, floatForm));
  CHECK(fn == MathFn::Sqrt);
  CHECK(floatForm);
  REQUIRE(lookupMathFn("erf", fn, floatForm));
  CHECK(fn == MathFn::Erf);
  CHECK_FALSE(floatForm);
  REQUIRE(lookupMathFn("erff", fn, floatForm));
  CHECK(fn == MathFn::Erf);
  CHECK(floatForm);
  CHECK(info(MathFn::Pow).floatName == "powf");
  CHECK_FALSE(lookupMathFn("printf", fn, floatForm));
  CHECK_FALSE(lookupMathFn("minf", fn, floatForm));
}

TEST_CASE("diagnostics print file:line:col, the line and a caret", "[ast]") {
  DiagnosticSink sink;
  sink.setLineLookup([](const std::string&, unsigned) { return std::string("  int x = y;"); });
  sink.error(SourceLoc{"k.cpp", 3, 11}, "use of undeclared identifier 'y'", "declare it first");
  REQUIRE(sink.hasErrors());
  CHECK(sink.formatAll() ==
        "k.cpp:3:11: error: use of undeclared identifier 'y'\n"
        "  int x = y;\n"
        "          ^\n"
        "note: declare it first\n");
}
