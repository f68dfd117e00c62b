// The deliberate interpreter bugs of Options::plantedBug, each on a program made to expose it:
// the real interpreter gives C++'s answer (native code, compiled in this test), the bugged one
// another answer or an error. So each bug is live, and a differential batch that does not catch
// one lacks a program shape, not a bug.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "catch.hpp"
#include "culift/interpreter.hpp"
#include "culift/translate.hpp"

using namespace culift;

namespace {

const char* kSource = R"(
#include <culift/annotate.hpp>
#include <cmath>
CULIFT_KERNEL int Truncate(double x) { return (int)x; }
CULIFT_KERNEL int ShiftRight(int x, int n) { return x >> n; }
CULIFT_KERNEL unsigned Wrap(unsigned a, unsigned b) { return a - b; }
CULIFT_KERNEL int Promote(unsigned char c) { return c + 0; }
CULIFT_KERNEL int Remainder(int a, int b) { return a % b; }
CULIFT_KERNEL bool Less(float a, float b) { return a < b; }
CULIFT_KERNEL int Compound(int x, double y) { x += y; return x; }
CULIFT_KERNEL int Cases(int v) {
  int r = 0;
  switch (v) { case 1: r += 1; case 2: r += 10; break; default: r = -1; }
  return r;
}
CULIFT_KERNEL int Count(int n) { int c = 0; for (int k = 0; k < n; ++k) ++c; return c; }
CULIFT_KERNEL int Guarded(int a, int b) { return b != 0 && a / b > 1; }
CULIFT_KERNEL float Gamma(float x) { return std::lgamma(x); }
CULIFT_KERNEL float Narrow(double x) { return (float)x; }
CULIFT_KERNEL float Invalid(float a, float b) { return a / b; }
)";

struct Case {
  interp::PlantedBug bug;
  const char* function;
  std::vector<interp::Value> args;
};

std::uint64_t bitsOf(const interp::Value& v) { return v.u; }

}  // namespace

TEST_CASE("every planted interpreter bug changes the answer of a program made for it", "[interp][planted]") {
  TranslateOptions o;
  o.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include", "-std=c++20"};
  TranslateResult r = translateSource(kSource, "planted.cpp", o);
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  using B = interp::PlantedBug;
  using V = interp::Value;
  const std::vector<Case> cases = {
      {B::FloatToIntRounds, "Truncate", {V::of(2.75)}},
      {B::SignedShiftRightLogical, "ShiftRight", {V::of(-8), V::of(1)}},
      {B::UnsignedSubSaturates, "Wrap", {V::of(1u), V::of(2u)}},
      {B::UnsignedNarrowSignExtends, "Promote", {V::of<unsigned char>(200)}},
      {B::RemainderTakesDivisorSign, "Remainder", {V::of(-7), V::of(3)}},
      {B::NaNLessThanTrue, "Less", {V::of(std::nanf("")), V::of(1.0f)}},
      {B::CompoundInTargetType, "Compound", {V::of(-1), V::of(0.5)}},  // (int)(-0.5) is 0; -1 + (int)0.5 is -1
      {B::SwitchNoFallThrough, "Cases", {V::of(1)}},
      {B::LoopBoundInclusive, "Count", {V::of(3)}},
      {B::LogicalEager, "Guarded", {V::of(5), V::of(0)}},
      {B::FloatMathInDouble, "Gamma", {V::of(-2.5f)}},
      {B::NegativeZeroNarrowsPositive, "Narrow", {V::of(-0.0)}},
      // A NaN operand's sign and payload carry through the division; the bug gives +NaN.
      {B::NaNCanonical, "Invalid", {V::of(-std::nanf("5")), V::of(1.0f)}},
  };
  REQUIRE(cases.size() == interp::kPlantedBugs);
  auto normal = interp::Program::compile(r.module);
  for (const Case& c : cases) {
    INFO("planted bug " << static_cast<unsigned>(c.bug) << " on " << c.function);
    const Function* fn = r.module->find(c.function);
    REQUIRE(fn);
    std::vector<interp::Arg> args(c.args.begin(), c.args.end());
    const interp::Value right = normal->call(*fn, args);
    interp::Options io;
    io.plantedBug = c.bug;
    auto bugged = interp::Program::compile(r.module, io);
    std::string answer;
    bool differs = true;  // an error where C++ has an answer is caught too
    try {
      const interp::Value wrong = bugged->call(*fn, args);
      answer = wrong.toString();
      differs = bitsOf(wrong) != bitsOf(right);
    } catch (const interp::Error& e) {
      answer = e.what();
    }
    INFO("right " << right.toString() << ", bugged " << answer);
    CHECK(differs);
    // And no other planted bug touches this program's answer where it does not apply.
    io.plantedBug = B::None;
    CHECK(bitsOf(interp::Program::compile(r.module, io)->call(*fn, args)) == bitsOf(right));
  }
}
