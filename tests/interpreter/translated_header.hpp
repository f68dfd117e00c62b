// What the tests of a header compiled natively and translated by culift from the same file share
// (data/*.hpp): the translation, done once per header, and the bit-for-bit comparison of a
// translated function's interpreted result with the native one on values known only at run time.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/interpreter.hpp"
#include "culift/translate.hpp"

namespace culift::test {

struct TranslatedHeader {
  std::shared_ptr<Module> module;
  std::shared_ptr<const interp::Program> program;
  std::string diagnostics;
};

// tests/interpreter/data/<file>, translated as C++20 with culift's include directory.
inline TranslatedHeader translateDataHeader(const std::string& file) {
  TranslateOptions o;
  o.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include", "-std=c++20"};
  TranslateResult r = translate(CULIFT_SOURCE_DIR "/tests/interpreter/data/" + file, o);
  TranslatedHeader out;
  out.diagnostics = r.formatDiagnostics();
  out.module = r.module;
  if (out.module) out.program = interp::Program::compile(out.module);
  return out;
}

// A value the compiler cannot fold into the native call.
template <typename T> T opaque(T v) {
  volatile T x = v;
  return x;
}

template <typename T> bool sameBits(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

// Calls the translated function `name` and the native one on the same values.
template <typename R, typename... P>
void sameAsNative(const TranslatedHeader& t, const std::string& name, R (*native)(P...), P... args) {
  REQUIRE(t.module);
  const Function* fn = t.module->find(name);
  REQUIRE(fn);
  std::vector<interp::Arg> list{interp::Arg(interp::Value::of(args))...};
  std::string shown;
  ((shown += interp::Value::of(args).toString() + " "), ...);
  INFO(name << "(" << shown << ")");
  const R expect = native(opaque(args)...);
  interp::Value got;
  REQUIRE_NOTHROW(got = t.program->call(*fn, list));
  INFO("interpreter " << got.toString() << ", native " << interp::Value::of(expect).toString());
  CHECK(sameBits(got.as<R>(), expect));
}

inline const std::vector<float> kFloats = {-2.5f, -1.0f, -0.0f, 0.0f, 0.1f, 1.0f, 1.5f, 3.25f, 1e10f};

inline const Var* varNamed(const Function& fn, const std::string& name) {
  for (const Var& v : fn.vars)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace culift::test
